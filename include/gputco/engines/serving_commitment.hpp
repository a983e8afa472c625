#pragma once
// A committed base plus spot on top: the serving planner's on-demand base bought instead as a 1- or
// 3-year commitment through the plan engine, the spot fleet and the dynamic fallback priced from the
// trace run. docs/models.md, "Serving on spot", *A committed base*.
//
//   const ServingPlan plan = choose_serving_plan(zones, config, search);
//   const CommittedServingCost c = committed_base_cost(plan.candidates[*plan.best], config, p3,
//                                                      {.term_years = 1, .payment = Payment::all_upfront});
//   c.total; c.saving;   // over the term, against N replicas on demand for the term
#include <optional>

#include "gputco/catalog/catalog.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/engines/serving.hpp"

namespace gputco {

/// How the base is committed: a reservation of the offering's (term, payment), or `reservation_discount` off
/// on demand, as Commitment prices it.
struct CommittedBase {
    int term_years = 1;
    Payment payment = Payment::all_upfront;
    std::optional<double> reservation_discount;
};

/// A serving configuration's cost over one commitment term, a replica being one instance of the offering.
struct CommittedServingCost {
    double hours = 0;                 ///< the term: term_years x 8,760
    double base_replicas = 0;         ///< the candidate's on-demand base, bought as the commitment
    double base_commitment_cost = 0;  ///< the plan engine's total for the commitment serving the base every hour
    double base_on_demand_cost = 0;   ///< the same base on demand for the term
    /// Spot and the dynamic fallback above the base, per hour of the trace run, times the term's hours.
    double spot_and_fallback_cost = 0;
    double total = 0;                 ///< base_commitment_cost + spot_and_fallback_cost
    double on_demand_total = 0;       ///< the candidate's own cost per run hour x the term (its base on demand)
    double on_demand_only_cost = 0;   ///< N replicas on demand for the term
    double saving = 0;                ///< 1 - total / on_demand_only_cost
};

/// `candidate` (of choose_serving_plan on `config`, run with on-demand always available) with its
/// base bought as `base`. The run's on-demand price must be the offering's per instance-hour (after
/// `options`' region factor): the base and the fallback are the same instances. Throws InvalidInput
/// naming the field.
CommittedServingCost committed_base_cost(const ServingCandidate& candidate, const ServingConfig& config,
                                         const Offering& offering, const CommittedBase& base,
                                         const PlanOptions& options = {});

/// The candidate of `plan` meeting its target that costs least with its base committed as `base`
/// (ties: the first), or none when no candidate meets the target.
std::optional<std::size_t> cheapest_with_committed_base(const ServingPlan& plan, const ServingConfig& config,
                                                        const Offering& offering, const CommittedBase& base,
                                                        const PlanOptions& options = {});

}  // namespace gputco
