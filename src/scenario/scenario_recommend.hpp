// A scenario's `recommend` section run (private to src/scenario: run_scenario calls it).
#pragma once

#include "gputco/app/recommend_study.hpp"
#include "gputco/scenario/scenario.hpp"

namespace gputco::detail {

/// run_recommend_study() on the scenario's futures (its seed), the offering, the price paths of its
/// price_model (one per future, its seed, as the plans'), its discounts, NPV rate and demand windows;
/// held-out futures and their paths drawn with seed + 1, a CVaR95 limit held on futures drawn with
/// seed + 1 + d; the lookback baselines on `demand` when the section asks for it.
RecommendStudy run_scenario_recommend(const Scenario& s, const Offering& offering, const DemandProfile& demand,
                                      const std::function<bool()>& should_stop, const ScenarioProgress& progress);

}  // namespace gputco::detail
