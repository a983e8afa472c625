#pragma once
// On-demand capacity that may not be there: queues (GCP flex-start up to 2 h), sold-out blocks, dry
// regions. A deadline job's failover to on-demand may find none; these are the policies of
// deadline.hpp run with an on-demand availability trace, and the odds of meeting the deadline.
//
//   const OnDemandCapacity h100{.unavailable_share = 0.05, .mean_wait_hours = 2, .source = "assumption"};
//   const DeadlineCapacityRisk risk = deadline_capacity_risk(job, spot, h100, DeadlinePolicy::uniform_progress,
//                                                            0.9731, 3.06, {.paths = 1000, .seed = 1});
//   risk.deadline_met_probability; risk.capacity_found_probability;
//
// Model, in the job's ticks: the policy decides as in simulate_deadline(); an on-demand *launch* (a
// switch to on-demand from anything else) needs on-demand capacity in that tick; without it the tick
// is idle (no bill, no progress) and the policy decides again next tick. A running on-demand instance
// keeps running (on-demand is not preempted). Past the on-demand trace, on-demand is available.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "gputco/engines/deadline.hpp"
#include "gputco/engines/plan_engine.hpp"

namespace gputco {

/// The risk of finding no on-demand capacity, as a number per offering: a stated assumption (or a
/// figure from a trace where one is public). On-demand capacity is a two-state Markov process whose
/// long-run unavailable share is `unavailable_share` and whose unavailable periods (a queue wait, a
/// sold-out window) last `mean_wait_hours` on average.
struct OnDemandCapacity {
    double unavailable_share = 0;  ///< in [0, 1): share of time a launch finds no capacity
    double mean_wait_hours = 1;    ///< > 0: mean length of a period without capacity
    std::string source;            ///< where the figures come from ("assumption", a trace)

    /// Throws InvalidInput, e.g. "capacity.unavailable_share = 1: must be in [0, 1)" (`field` first).
    void validate(std::string_view field = "capacity") const;
    /// The Markov process of on-demand availability: mean down = mean_wait_hours, mean up =
    /// mean_wait_hours x (1 - u) / u (u = 0: always up). Each mean must be >= the tick.
    MarkovAvailability process() const;
};

/// simulate_deadline() with on-demand available only where `on_demand` says (which must cover the
/// deadline; a tick-less trace takes the job's tick). With on-demand always available it is
/// simulate_deadline() tick for tick. The run ends when the compute is done, which may be after the
/// deadline (met_deadline false).
DeadlineResult simulate_deadline_with_capacity(const DeadlineJob& job, const SpotAvailability& spot,
                                               const SpotAvailability& on_demand, DeadlinePolicy policy,
                                               double spot_price_per_hour, double on_demand_price_per_hour);

struct CapacityRiskOptions {
    std::size_t paths = 1000;  ///< > 0
    std::uint64_t seed = 0;    ///< path i: spot trace from seed splitmix64(2 seed + 2i), on-demand from the next
};

struct DeadlineCapacityRisk {
    double deadline_met_probability = 0;    ///< share of paths finishing by the deadline
    double capacity_found_probability = 0;  ///< share of paths whose every on-demand launch found capacity at once
    double mean_cost = 0;
    double cost_standard_error = 0;
    std::size_t paths = 0;
};

/// Monte Carlo over `options.paths` pairs of generated traces (spot from `spot`, on-demand from
/// `capacity.process()`), each run through simulate_deadline_with_capacity().
DeadlineCapacityRisk deadline_capacity_risk(const DeadlineJob& job, const MarkovAvailability& spot,
                                            const OnDemandCapacity& capacity, DeadlinePolicy policy,
                                            double spot_price_per_hour, double on_demand_price_per_hour,
                                            const CapacityRiskOptions& options = {});

/// A plan's capacity assurance: the expected share of its demanded GPU-hours served by capacity that
/// is there when needed (docs/models.md, section 8). Owned GPUs and reservations (held, bought,
/// capacity blocks) are capacity set aside: always there. Spot serves only in the hours its capacity
/// is there (the engine's availability), so what it serves is there. Everything else, Savings Plans'
/// hours included (a price, not capacity), runs on on-demand capacity, missing a share
/// u = capacity.unavailable_share of the time, independently of spot. So
///   assurance = 1 − u × (D − K − P) / D
/// over all futures and months, D the demanded, K the reserved and owned, P the spot GPU-hours.
/// `evaluated` is evaluate_plan(plan, futures, offering, prices, options); a plan with Savings Plans
/// is priced once more without them (reservations are served first, so K is what they serve).
double capacity_assurance(const Plan& plan, const PlanDistribution& evaluated, const DemandFutures& futures,
                          const Offering& offering, const OnDemandCapacity& capacity, const PricePaths& prices = {},
                          const PlanOptions& options = {});
/// The same, pricing the plan first.
double capacity_assurance(const Plan& plan, const DemandFutures& futures, const Offering& offering,
                          const OnDemandCapacity& capacity, const PricePaths& prices = {},
                          const PlanOptions& options = {});

}  // namespace gputco
