#pragma once
// The path pricer: a job, its provider rules and its billing packed once per run (PathPricer) into the
// constants that the launch arithmetic (spot_lanes.hpp) reads in the scalar loops and the lane kernels.
// A path generator (path_generators.hpp) says when each launch is taken back; that arithmetic turns it
// into billed, charged and lost hours and progress.
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

/// No protection period, lifetime cap or notice: every launch lives its drawn lifetime.
inline bool without_rules(const ProviderRules& r) {
    return r.protection_hours == 0.0 && !std::isfinite(r.max_lifetime_hours) && r.notice_hours == 0.0;
}

/// Billing of each launch: whole increments (0: continuous), at least the minimum (the arithmetic is
/// detail::charged_hours).
struct Billing {
    double increment = 0, inv_increment = 0, minimum = 0;

    explicit Billing(const SpotPricing& pricing)
        : increment(pricing.billing_increment_hours),
          inv_increment(increment > 0.0 ? 1.0 / increment : 0.0),
          minimum(pricing.minimum_billed_hours) {}

    bool continuous() const { return increment == 0.0 && minimum == 0.0; }
};

/// A job's work as segments: `full_left` whole segments of tau, then the last of `last_work` hours.
/// Counts are doubles (exact far beyond any job) to keep integer conversions out of the hot loops.
struct Plan {
    double full_left = 0;
    double last_work = 0;
};

/// A job, its provider rules and its pricing, packed once per run.
struct PathPricer {
    double work, tau, delta, seg, inv_seg, restart, wait;
    double notice;     // notice period in hours
    bool emergency;    // an emergency checkpoint fits in the notice
    Billing billing;
    detail::JobConstants constants;  // the same job as the lane arithmetic takes it

    PathPricer(const Job& job, const ProviderRules& rules, const SpotPricing& pricing, double mtbf = 0)
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
        const Plan f = fresh();  // the last segment is never re-planned without an emergency checkpoint
        constants = {.mtbf = mtbf,
                     .restart = restart,
                     .wait = wait,
                     .tail = f.last_work + delta,
                     .last_work = f.last_work,
                     .tau = tau,
                     .seg = seg,
                     .inv_seg = inv_seg,
                     .first_rest = f.full_left * seg + f.last_work + delta,
                     .price = pricing.price_per_hour,
                     .plain = without_rules(rules),
                     .rounded = !billing.continuous(),
                     .delta = delta,
                     .first_full_left = f.full_left,
                     .protection = rules.protection_hours,
                     .max_lifetime = rules.max_lifetime_hours,
                     .notice = notice,
                     .emergency = emergency,
                     .increment = billing.increment,
                     .inv_increment = billing.inv_increment,
                     .minimum = billing.minimum};
    }

    /// A path that has not started: the ruled arithmetic's state.
    detail::RuledPath<double> fresh_ruled() const {
        return {.full_left = constants.first_full_left, .last_work = constants.last_work, .restart = 0,
                .billed = 0, .charged = 0, .wall = 0, .lost = 0, .interruptions = 0};
    }

    double price() const { return constants.price; }

    /// Splits `remaining_work` into whole segments and the last one.
    Plan plan_work(double remaining_work) const {
        const auto n = static_cast<double>(segments_of(remaining_work, tau));
        return {.full_left = n - 1.0, .last_work = remaining_work - (n - 1.0) * tau};
    }

    Plan fresh() const { return plan_work(work); }
};


}  // namespace gputco::spot
