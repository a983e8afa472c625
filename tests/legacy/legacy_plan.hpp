#pragma once
// FROZEN REFERENCE: the plan engine before it became the one engine (see legacy_plan.cpp). Used only by
// test_cost_agreement and bench_plan.
#include "gputco/engines/plan_engine.hpp"

namespace gputco::legacy {

PlanDistribution evaluate_plan(const Plan& plan, const DemandFutures& futures, const Offering& offering,
                               const PricePaths& prices = {}, const PlanOptions& options = {});

}  // namespace gputco::legacy
