// A committed base plus spot on top (serving_commitment.hpp): the base's commitment priced by the
// plan engine over its term, the rest of the trace run scaled to the term.
#include "gputco/engines/serving_commitment.hpp"

#include <cmath>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/time.hpp"
#include "gputco/work/demand.hpp"
#include "gputco/work/demand_futures.hpp"

namespace gputco {

CommittedServingCost committed_base_cost(const ServingCandidate& candidate, const ServingConfig& config,
                                         const Offering& offering, const CommittedBase& base,
                                         const PlanOptions& options) {
    config.validate();
    offering.validate();
    options.discounts.validate();
    require(base.term_years == 1 || base.term_years == 3, "base.term_years", base.term_years, "must be 1 or 3");
    const ServingResult& run = candidate.result;
    require(run.hours > 0, "candidate.result.hours", run.hours, "must be > 0 (a run of choose_serving_plan)");
    // The fallback and the base are instances of the offering at the price the plan engine charges.
    const Discounts& d = options.discounts;
    const double paid = offering.on_demand_hourly * d.region_price_factor * (1 - d.on_demand_discount) * d.voucher_price_factor;
    require(std::abs(config.on_demand_price_per_hour - paid) <= 1e-9 * paid, "serving.on_demand_price_per_hour",
            config.on_demand_price_per_hour,
            fmt::format("must be offering {}'s on-demand price per instance-hour as paid, {:g} (a replica is one instance)",
                        offering.key(), paid));

    CommittedServingCost c;
    c.hours = base.term_years * hours_per_year;
    c.base_replicas = double(candidate.on_demand_base);
    const double od = config.on_demand_price_per_hour;
    // The base runs every tick (on demand is always there in the run); what the run paid above it is
    // spot and the dynamic fallback.
    const double rest_per_hour = run.cost / run.hours - c.base_replicas * od;
    require(rest_per_hour >= -1e-9 * (1 + run.cost / run.hours), "candidate.result.cost", run.cost,
            fmt::format("must cover its on-demand base of {} replicas every hour (run it with on demand always there)",
                        candidate.on_demand_base));
    c.spot_and_fallback_cost = std::max(0.0, rest_per_hour) * c.hours;
    c.base_on_demand_cost = c.base_replicas * od * c.hours;
    if (candidate.on_demand_base > 0) {
        Plan plan;
        plan.name = "committed base";
        plan.billing = Units::instances;
        plan.commitments.push_back({.count = c.base_replicas, .unit = CountUnit::instances,
                                    .term_years = base.term_years, .payment = base.payment, .start_month = 0,
                                    .renewal = Renewal::lapse, .reservation_discount = base.reservation_discount, .offering = {}});
        const DemandFutures busy = DemandFutures::from_profile(
            DemandProfile::constant(c.base_replicas * offering.gpus_per_instance, Horizon::years(base.term_years)));
        c.base_commitment_cost = evaluate_plan(plan, busy, offering, {}, options).total.mean;
    }
    c.total = c.base_commitment_cost + c.spot_and_fallback_cost;
    c.on_demand_total = run.cost / run.hours * c.hours;
    c.on_demand_only_cost = double(config.target_replicas) * od * c.hours;
    c.saving = 1 - c.total / c.on_demand_only_cost;
    return c;
}

std::optional<std::size_t> cheapest_with_committed_base(const ServingPlan& plan, const ServingConfig& config,
                                                        const Offering& offering, const CommittedBase& base,
                                                        const PlanOptions& options) {
    std::optional<std::size_t> best;
    double least = 0;
    for (std::size_t i = 0; i < plan.candidates.size(); ++i) {
        if (!plan.candidates[i].meets_target) continue;
        const double total = committed_base_cost(plan.candidates[i], config, offering, base, options).total;
        if (!best || total < least) best = i, least = total;
    }
    return best;
}

}  // namespace gputco
