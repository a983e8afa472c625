// Deadline jobs across regions: SkyPilot's recovery strategies, multi-region Uniform Progress and the
// exact optimum by dynamic programming. See deadline_regions.hpp.
#include "gputco/engines/deadline_regions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "deadline_rules.hpp"
#include "gputco/core/error.hpp"

namespace gputco {

namespace {

constexpr std::size_t max_dp_regions = 16;
constexpr double max_dp_states = 2e7;    // per tick, two vectors of doubles: 320 MB
constexpr double max_dp_updates = 1e11;  // minutes of work on one core

void require_regions(const DeadlineJob& job, const std::vector<SpotRegion>& regions, double on_demand_price_per_hour) {
    job.validate();
    require(!regions.empty(), "regions.size", 0, "must be >= 1");
    require_positive_price("on_demand_price_per_hour", on_demand_price_per_hour);
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const auto& region = regions[i];
        require_positive_price(fmt::format("regions[{}].spot_price_per_hour", i), region.spot_price_per_hour);
        const double tick = region.availability.tick_hours;
        require(tick == 0 || std::abs(tick - job.tick_hours) <= 1e-9 * job.tick_hours,
                fmt::format("regions[{}].availability.tick_hours", i), tick,
                fmt::format("must equal deadline_job.tick_hours = {} (resample the trace with resampled())",
                            job.tick_hours));
        require(region.availability.ticks() >= job.deadline_ticks(), fmt::format("regions[{}].availability.ticks", i),
                region.availability.ticks(), fmt::format("must cover the deadline, >= {} ticks", job.deadline_ticks()));
    }
}

// Where a spot launch goes: the index of an available region (at least one is).
class RegionChooser {
public:
    RegionChooser(const std::vector<SpotRegion>& regions, RegionPolicy policy) : regions_(regions), policy_(policy) {}

    std::int32_t choose(std::size_t tick, std::int32_t last, std::int32_t preempted_from) const {
        if (policy_ == RegionPolicy::skypilot_failover && last >= 0 && up(last, tick)) return last;
        const std::int32_t avoid = policy_ == RegionPolicy::skypilot_eager_next_region ? preempted_from : -1;
        const std::int32_t other = cheapest(tick, avoid);
        return other >= 0 ? other : avoid;  // the avoided region only when no other has capacity
    }

    bool up(std::int32_t r, std::size_t tick) const { return regions_[static_cast<std::size_t>(r)].availability.available[tick]; }

    bool any_up(std::size_t tick) const {
        for (std::size_t r = 0; r < regions_.size(); ++r)
            if (regions_[r].availability.available[tick]) return true;
        return false;
    }

private:
    // Cheapest available region other than `avoid` (ties: lowest index), -1 if none.
    std::int32_t cheapest(std::size_t tick, std::int32_t avoid) const {
        std::int32_t best = -1;
        for (std::size_t r = 0; r < regions_.size(); ++r) {
            const auto i = static_cast<std::int32_t>(r);
            if (i == avoid || !regions_[r].availability.available[tick]) continue;
            if (best < 0 || regions_[r].spot_price_per_hour < regions_[static_cast<std::size_t>(best)].spot_price_per_hour)
                best = i;
        }
        return best;
    }

    const std::vector<SpotRegion>& regions_;
    RegionPolicy policy_;
};

}  // namespace

RegionPolicy parse_region_policy(std::string_view name, std::string_view field) {
    return parse<RegionPolicy>(name, field);
}

MultiRegionResult simulate_multi_region(const DeadlineJob& job, const std::vector<SpotRegion>& regions,
                                        RegionPolicy policy, double on_demand_price_per_hour) {
    require_regions(job, regions, on_demand_price_per_hour);
    const RegionChooser chooser(regions, policy);

    deadline_rules::RunState s;
    s.deadline = static_cast<long long>(job.deadline_ticks());
    s.compute = static_cast<long long>(job.compute_ticks());
    s.changeover = static_cast<long long>(job.changeover_ticks());
    std::int32_t current = -1, last = -1, preempted_from = -1;
    std::vector<std::size_t> spot_ticks(regions.size(), 0);
    std::size_t on_demand_ticks = 0, idle_ticks = 0;
    MultiRegionResult result;
    DeadlineResult& r = result.run;
    // Every policy finishes by the deadline (on-demand stays feasible); past the traces no spot.
    while (s.done < s.compute) {
        const auto k = static_cast<std::size_t>(s.tick);
        const bool in_trace = k < job.deadline_ticks();
        if (deadline_rules::preempt(s, [&] { return in_trace && chooser.up(current, k); })) {
            ++r.preemptions;
            preempted_from = current;
        }
        const bool any = in_trace && chooser.any_up(k);
        const TickDecision decision = policy == RegionPolicy::uniform_progress
                                          ? deadline_rules::uniform_progress(s, any)
                                          : deadline_rules::greedy(s, any);
        std::int32_t region = -1;
        if (decision == TickDecision::spot) {
            region = s.instance == TickDecision::spot ? current : chooser.choose(k, last, preempted_from);
            if (s.instance != TickDecision::spot) {
                if (last >= 0 && region != last) ++result.moves;
                preempted_from = -1;
            }
            current = last = region;
        }
        if (decision == TickDecision::none) ++idle_ticks;
        else if (decision == TickDecision::spot) ++spot_ticks[static_cast<std::size_t>(region)];
        else ++on_demand_ticks;
        if (deadline_rules::step(s, decision)) ++r.changeovers;
        r.decisions.push_back(decision);
        r.spot_available.push_back(any);
        r.progress_hours.push_back(static_cast<double>(s.done) * job.tick_hours);
        result.region.push_back(region);
    }
    std::size_t all_spot_ticks = 0;
    for (std::size_t i = 0; i < regions.size(); ++i) {
        all_spot_ticks += spot_ticks[i];
        r.cost += static_cast<double>(spot_ticks[i]) * job.tick_hours * regions[i].spot_price_per_hour;
    }
    r.spot_hours = static_cast<double>(all_spot_ticks) * job.tick_hours;
    r.on_demand_hours = static_cast<double>(on_demand_ticks) * job.tick_hours;
    r.idle_hours = static_cast<double>(idle_ticks) * job.tick_hours;
    r.cost += r.on_demand_hours * on_demand_price_per_hour;
    r.finish_hours = static_cast<double>(s.tick) * job.tick_hours;
    r.met_deadline = s.tick <= s.deadline;
    r.tick_hours = job.tick_hours;
    return result;
}

double omniscient_multi_region_cost(const DeadlineJob& job, const std::vector<SpotRegion>& regions,
                                    double on_demand_price_per_hour, const StopCheck& should_stop) {
    require_regions(job, regions, on_demand_price_per_hour);
    const std::size_t K = job.deadline_ticks(), C = job.compute_ticks(), D = job.changeover_ticks();
    const std::size_t R = regions.size();
    require(R <= max_dp_regions, "regions.size", R, fmt::format("must be at most {} for the exact optimum", max_dp_regions));
    // Slot 0 = idle; 1 + r (D + 1) + o = spot in region r with changeover o left; 1 + R (D + 1) + o = on-demand.
    const std::size_t slots = 1 + (R + 1) * (D + 1);
    const double states = static_cast<double>(C) * static_cast<double>(slots);
    require(states <= max_dp_states, "deadline_job.compute_hours", job.compute_hours,
            fmt::format("gives {:.3g} states per tick (compute ticks x (1 + (regions + 1) x (changeover ticks + 1))), "
                        "more than 2e7 for the exact optimum: use coarser ticks",
                        states));
    const double updates = states * static_cast<double>(K) * static_cast<double>(R + 2);
    require(updates <= max_dp_updates, "deadline_job.deadline_hours", job.deadline_hours,
            fmt::format("gives {:.3g} state updates, more than 1e11 for the exact optimum: use coarser ticks", updates));

    const std::size_t on_demand_base = 1 + R * (D + 1);
    constexpr double unreached = std::numeric_limits<double>::infinity();
    std::vector<double> cost(C * slots, unreached), next(C * slots, unreached);
    cost[0] = 0;
    double best = unreached;
    std::vector<double> spot_tick(R);
    for (std::size_t r = 0; r < R; ++r) spot_tick[r] = regions[r].spot_price_per_hour * job.tick_hours;
    const double on_demand_tick = on_demand_price_per_hour * job.tick_hours;

    std::vector<std::size_t> up;  // regions with spot in tick k
    StopPoll poll(should_stop, std::size_t(1) << 20, "omniscient_multi_region_cost: stopped");
    for (std::size_t k = 0; k < K; ++k) {
        std::fill(next.begin(), next.end(), unreached);
        up.clear();
        for (std::size_t r = 0; r < R; ++r)
            if (regions[r].availability.available[k]) up.push_back(r);
        for (std::size_t w = 0; w < C; ++w) {
            poll.step(slots);
            double* const row = &cost[w * slots];
            // Runs one tick of an instance whose first slot is `base`, from changeover `left`.
            const auto run = [&](double total, std::size_t base, std::size_t left) {
                std::size_t w_next = w;
                if (left > 0) --left;
                else ++w_next;
                if (w_next == C) best = std::min(best, total);
                else {
                    double& target = next[w_next * slots + base + left];
                    target = std::min(target, total);
                }
            };
            for (std::size_t j = 0; j < slots; ++j) {
                const double here = row[j];
                if (here == unreached) continue;
                const bool on_demand = j >= on_demand_base;
                const std::size_t spot_region = j == 0 || on_demand ? R : (j - 1) / (D + 1);
                const std::size_t o = j == 0 ? 0 : on_demand ? j - on_demand_base : (j - 1) % (D + 1);
                double& idle = next[w * slots];
                idle = std::min(idle, here);
                run(here + on_demand_tick, on_demand_base, on_demand ? o : D);
                for (const std::size_t r : up) {
                    // The instance in region r carries on (it was there and spot still is); else a launch.
                    run(here + spot_tick[r], 1 + r * (D + 1), spot_region == r ? o : D);
                }
            }
        }
        std::swap(cost, next);
    }
    return best;  // finite: on-demand from the start finishes by the deadline
}

}  // namespace gputco
