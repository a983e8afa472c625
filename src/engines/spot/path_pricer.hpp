#pragma once
// The path pricer: the job's checkpoint and billing arithmetic for one launch, with the job's
// constants packed once per run (PathPricer). A path generator (path_generators.hpp) says when each
// launch is taken back; the pricer turns that into billed, charged and lost hours and progress.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "gputco/engines/interruption.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/work/job.hpp"
#include "spot_lanes.hpp"

namespace gputco::spot {

// Same rule as segment_count() in checkpoint.cpp, without validation (inputs are checked once).
inline std::size_t segments_of(double work, double tau) {
    const double ratio = work / tau;
    const double nearest = std::round(ratio);
    if (nearest >= 1.0 && std::abs(ratio - nearest) <= 1e-9 * ratio) return static_cast<std::size_t>(nearest);
    return static_cast<std::size_t>(std::ceil(ratio));
}

/// Charged time of one launch of `run` hours: whole increments, rounded up, at least the minimum.
/// No libm call (ceil is not inlined on the x86-64 baseline), so the rounded Poisson loop keeps its
/// state in registers.
struct Billing {
    double increment = 0, inv_increment = 0, minimum = 0;

    explicit Billing(const SpotPricing& pricing)
        : increment(pricing.billing_increment_hours),
          inv_increment(increment > 0.0 ? 1.0 / increment : 0.0),
          minimum(pricing.minimum_billed_hours) {}

    bool continuous() const { return increment == 0.0 && minimum == 0.0; }

    double charged(double run) const {
        double hours = run;
        if (increment > 0.0) {
            const double x = run * inv_increment;
            double k = x < 0x1p52 ? static_cast<double>(static_cast<std::int64_t>(x)) : x;
            if (x > k * (1.0 + 1e-9)) k += 1.0;  // within 1e-9 of a whole step: binary fractions, not time
            hours = k * increment;
        }
        return std::max(hours, minimum);
    }
};

/// State of one path under provider rules: the work still to do is `full_left` whole segments of tau
/// then `last_work`. Counts are doubles (exact far beyond any job) to keep integer conversions out of
/// the hot loop.
struct Path {
    double full_left = 0;
    double last_work = 0;
    bool restart_needed = false;
    double billed = 0, wall = 0, lost = 0, interruptions = 0, charged = 0;
};

/// A job, its provider rules and its pricing, packed once per run.
struct PathPricer {
    double work, tau, delta, seg, inv_seg, restart, wait;
    double notice;     // notice period in hours
    bool emergency;    // an emergency checkpoint fits in the notice
    Billing billing;
    detail::JobConstants constants;  // the same job as the lane arithmetic takes it

    PathPricer(const Job& job, const ProviderRules& rules, const SpotPricing& pricing, double neg_mtbf = 0)
        : work(job.work_hours),
          tau(job.checkpoint_interval_hours),
          delta(job.checkpoint_write_hours),
          seg(tau + delta),
          inv_seg(1.0 / seg),
          restart(job.restart_hours),
          wait(job.capacity_wait_hours),
          notice(rules.notice_hours),
          emergency(rules.emergency_checkpoint && rules.notice_hours > 0 && delta <= rules.notice_hours),
          billing(pricing),
          constants{} {
        const Path f = fresh();  // the last segment is never re-planned without an emergency checkpoint
        constants = {.neg_mtbf = neg_mtbf,
                     .restart = restart,
                     .wait = wait,
                     .tail = f.last_work + delta,
                     .last_work = f.last_work,
                     .tau = tau,
                     .seg = seg,
                     .inv_seg = inv_seg,
                     .first_rest = f.full_left * seg + f.last_work + delta,
                     .price = pricing.price_per_hour};
    }

    double price() const { return constants.price; }

    /// Splits `remaining_work` into whole segments and the last one.
    void plan_work(Path& s, double remaining_work) const {
        const auto n = static_cast<double>(segments_of(remaining_work, tau));
        s.full_left = n - 1.0;
        s.last_work = remaining_work - s.full_left * tau;
    }

    Path fresh() const {
        Path s;
        plan_work(s, work);
        return s;
    }

    /// Running time the path needs from launch to finish if nothing interrupts it.
    double time_to_finish(const Path& s) const {
        return (s.restart_needed ? restart : 0.0) + s.full_left * seg + s.last_work + delta;
    }

    /// One launch whose instance is taken back at `kill` hours after launch, with the notice at
    /// `notice_at` (= kill without a notice). Returns the billed hours of this launch and updates
    /// progress; sets `finished` if the job completes. The interruption's capacity wait is left to the
    /// caller (it depends on the model).
    double run_launch(Path& s, double need, double kill, double notice_at, bool& finished) const {
        if (need <= kill) {
            finished = true;
            return need;
        }
        finished = false;
        const double stop = emergency ? notice_at : kill;
        const double restart_now = s.restart_needed ? restart : 0.0;
        s.restart_needed = true;
        s.interruptions += 1.0;
        if (stop < restart_now) return stop;  // taken during the restart: no work to lose or save
        double offset = 0;
        const double m = segments_within(stop - restart_now, s.full_left, offset);
        const bool in_last = m == s.full_left;
        const double seg_work = in_last ? s.last_work : tau;
        if (offset >= seg_work) {  // writing the checkpoint of this segment
            if (emergency) {        // the write (<= delta <= notice) completes before the kill
                if (in_last) {       // only by rounding: the whole job was done
                    finished = true;
                    s.interruptions -= 1.0;
                }
                s.full_left -= m + 1.0;
                return stop + (seg_work + delta - offset);
            }
            s.full_left -= m;
            s.lost += seg_work;
            return stop;
        }
        if (emergency && offset > 0) {  // save the work of this segment with an emergency checkpoint
            plan_work(s, (s.full_left - m) * tau + s.last_work - offset);
            return stop + delta;
        }
        s.full_left -= m;
        s.lost += std::max(offset, 0.0);
        return stop;
    }

private:
    // Whole segments finished within `u` hours of running, at most `full_left`, and the offset into
    // the segment under way.
    double segments_within(double u, double full_left, double& offset) const {
        double m = static_cast<double>(static_cast<std::int64_t>(u * inv_seg));
        if (m * seg > u && m > 0) m -= 1.0;  // u * (1 / seg) rounded up across a multiple
        m = std::min(m, full_left);
        offset = u - m * seg;
        return m;
    }
};

/// No protection period, lifetime cap or notice: every launch lives its drawn lifetime.
inline bool without_rules(const ProviderRules& r) {
    return r.protection_hours == 0.0 && !std::isfinite(r.max_lifetime_hours) && r.notice_hours == 0.0;
}

}  // namespace gputco::spot
