#pragma once
// The policies' rules, one tick at a time, shared by the single-region simulator (deadline.cpp) and
// the multi-region one (deadline_regions.cpp). Internal: not installed.
#include <chrono>
#include <functional>
#include <string>

#include "gputco/engines/deadline.hpp"

namespace gputco::deadline_rules {

// Integer state of one run; every duration is in ticks.
struct RunState {
    long long deadline = 0, compute = 0, changeover = 0;  // K, C, D
    long long tick = 0;                                   // k: ticks elapsed
    long long done = 0;                                   // compute ticks completed
    long long changeover_left = 0;                        // of the current launch
    TickDecision instance = TickDecision::none;           // what ran in the previous tick, if still there
    bool committed = false;                               // on-demand for good

    long long time_left() const { return deadline - tick; }
    long long work_left() const { return compute - done; }
    // cp(t) < ep(t + extra): done / C0 < (t + extra) / R0, in integers.
    bool behind(long long extra_ticks) const { return done * deadline < (tick + extra_ticks) * compute; }

    long long slack() const { return time_left() - work_left(); }
};

// The authors' Greedy. Whole ticks make "slack only falls while idle or on on-demand" exact, so the
// 2d rule, once true, stays true there without a flag.
inline TickDecision greedy(const RunState& s, bool available) {
    if (s.changeover == 0 && available) return TickDecision::spot;  // switching is free
    const bool on_spot = s.instance == TickDecision::spot;          // still running: not preempted
    if (!on_spot && s.slack() <= 2 * s.changeover) return TickDecision::on_demand;
    if (s.slack() <= s.changeover)  // a spot instance still in its changeover might not pay off
        return on_spot && s.changeover_left == 0 ? TickDecision::spot : TickDecision::on_demand;
    return available ? TickDecision::spot : TickDecision::none;
}

inline TickDecision greedy_simple(RunState& s, bool available) {
    if (!s.committed && s.slack() <= s.changeover) s.committed = true;
    if (s.committed) return TickDecision::on_demand;
    return available ? TickDecision::spot : TickDecision::none;
}

// The authors' Uniform Progress, rules numbered as in deadline.hpp.
inline TickDecision uniform_progress(RunState& s, bool available) {
    if (s.committed) return TickDecision::on_demand;
    if (s.instance == TickDecision::spot) return TickDecision::spot;  // rule 2: until preempted
    // d = 0 (as the authors' code runs it): switching is free and a tick of available spot makes the
    // same progress as one of on-demand, so at slack 0 spot is as safe; rule 4 never commits.
    if (s.changeover == 0 && s.slack() <= 0) return available ? TickDecision::spot : TickDecision::on_demand;
    // Rule 3: cp(t) <= ep(t + 2d) is done / C0 <= (t + 2d) / R0 in integers.
    if (s.instance == TickDecision::on_demand &&
        (!available || s.done * s.deadline <= (s.tick + 2 * s.changeover) * s.compute))
        return TickDecision::on_demand;
    // Idle, just preempted, or leaving on-demand for spot.
    // Rule 4: 2d covers a spot launch followed at once by a preemption and an on-demand launch.
    if (s.slack() <= 2 * s.changeover) {
        s.committed = true;
        return TickDecision::on_demand;
    }
    if (available) return TickDecision::spot;        // rule 2
    if (s.behind(0)) return TickDecision::on_demand;  // rule 1
    return TickDecision::none;
}

inline TickDecision uniform_progress_prose(RunState& s, bool available) {
    if (s.committed) return TickDecision::on_demand;
    if (s.instance == TickDecision::on_demand && s.behind(2 * s.changeover)) return TickDecision::on_demand;
    if (s.instance == TickDecision::spot) return TickDecision::spot;
    if (s.slack() <= 2 * s.changeover) {
        s.committed = true;
        return TickDecision::on_demand;
    }
    if (available) return TickDecision::spot;
    if (s.behind(0)) return TickDecision::on_demand;
    return TickDecision::none;
}

// Spot running in the last tick is preempted at the boundary when the next tick has none:
// `still_up()` (called only while on spot) says whether it has. Returns whether it was preempted.
template <class StillUp>
bool preempt(RunState& s, StillUp&& still_up) {
    if (s.instance != TickDecision::spot || still_up()) return false;
    s.instance = TickDecision::none;
    return true;
}

// One tick of `decision`: idle drops any changeover left; a launch (spot or on-demand from anything
// else) starts a changeover of d ticks that replaces any left (no stacking); a running tick pays
// changeover first, then makes progress. Returns whether the tick was a launch.
inline bool step(RunState& s, TickDecision decision) {
    bool launch = false;
    if (decision == TickDecision::none) {
        s.changeover_left = 0;
    } else {
        if (decision != s.instance) {
            launch = true;
            s.changeover_left = s.changeover;
        }
        if (s.changeover_left > 0) --s.changeover_left;
        else ++s.done;
    }
    s.instance = decision;
    ++s.tick;
    return launch;
}

// Polls a should_stop callback at most every 50 ms (a Python callback takes the GIL), throwing
// Cancelled when it says stop; at the same moments reports (done, total) to `progress`, if given.
class StopPoll {
public:
    StopPoll(const std::function<bool()>& should_stop, std::string what, const ProgressReport* progress = nullptr,
             std::size_t total = 0)
        : should_stop_(should_stop), what_(std::move(what)), progress_(progress && *progress ? progress : nullptr),
          total_(total) {}
    void operator()(std::size_t done = 0) {
        if (!should_stop_ && !progress_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now < next_) return;
        next_ = now + std::chrono::milliseconds(50);
        if (should_stop_ && should_stop_()) throw Cancelled(what_ + ": stopped");
        if (progress_) (*progress_)(done, total_);
    }
    /// The last report: all done.
    void finish() {
        if (progress_) (*progress_)(total_, total_);
    }

private:
    const std::function<bool()>& should_stop_;
    std::string what_;
    const ProgressReport* progress_;
    std::size_t total_;
    std::chrono::steady_clock::time_point next_{};
};

/// One policy's run over a spot trace, tick by tick: what simulate_deadline() reports. With `on_demand`
/// (a trace of on-demand capacity), a tick whose failover finds none idles and the policy decides again
/// next tick, and `capacity_found` says whether every on-demand launch found capacity at once; without
/// it on-demand is always there. Past a trace, spot counts as unavailable and on-demand as available.
struct PolicyRun {
    DeadlineResult result;
    bool capacity_found = true;
};
PolicyRun run_policy(const DeadlineJob& job, const SpotAvailability& spot, const SpotAvailability* on_demand,
                     DeadlinePolicy policy, double spot_price_per_hour, double on_demand_price_per_hour);

}  // namespace gputco::deadline_rules
