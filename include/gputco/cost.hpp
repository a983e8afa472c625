#pragma once
// The deterministic cost engine: a strategy, a demand profile and an offering in, monthly cash flows
// and the figures planners compare out.
//
//   const CostReport report = evaluate(hybrid, demand, catalog.offering("azure", "Standard_ND96asr_v4"));
//   fmt::print("{}\n", report);
#include "gputco/catalog.hpp"
#include "gputco/demand.hpp"
#include "gputco/report.hpp"
#include "gputco/strategy.hpp"

namespace gputco {

struct EvaluationOptions {
    Discounts discounts;
    /// NPV rate per year, converted to a monthly factor (1 + r)^(1/12); 0 = plain sums.
    double annual_discount_rate = 0;
};

/// Cash flows of buying `demand` on `offering` as `strategy`, with savings against the same demand
/// bought all on-demand under the same discounts. Throws InvalidInput naming the offending field.
CostReport evaluate(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                    const EvaluationOptions& options = {});

}  // namespace gputco
