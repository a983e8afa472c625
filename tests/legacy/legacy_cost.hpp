#pragma once
// FROZEN REFERENCE: the cost engine before it became the plan engine (see legacy_cost.cpp). Used only
// by test_cost_agreement and bench_cost to compare the one engine with the old arithmetic.
#include <span>
#include <vector>

#include "gputco/engines/cost.hpp"

namespace gputco::legacy {

CostReport evaluate(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                    const EvaluationOptions& options = {});
std::vector<CostFigures> evaluate_batch(std::span<const Strategy> strategies, const DemandProfile& demand,
                                        const Offering& offering, const EvaluationOptions& options = {});

}  // namespace gputco::legacy
