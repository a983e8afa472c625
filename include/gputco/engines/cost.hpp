#pragma once
// The deterministic cost engine: a strategy, a demand profile and an offering in, monthly cash flows
// and the figures planners compare out. The strategy is priced as the Plan it stands for by the plan
// engine (plan_engine.hpp) on the profile as its one future.
//
//   const CostReport report = evaluate(hybrid, demand, catalog.offering("azure", "Standard_ND96asr_v4"));
//   fmt::print("{}\n", report);
#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/work/demand.hpp"
#include "gputco/results/report.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/strategy/strategy.hpp"

namespace gputco {

struct EvaluationOptions {
    Discounts discounts;
    /// NPV rate per year, converted to a monthly factor (1 + r)^(1/12); 0 = plain sums.
    double annual_discount_rate = 0;
    /// Whole instances of the offering (default) or single GPUs; the baseline uses the same. Owned
    /// hardware is counted in GPUs either way.
    Units units = Units::instances;
};

/// Cash flows of buying `demand` on `offering` as `strategy`, with savings against the same demand
/// bought all on-demand under the same discounts. Throws InvalidInput naming the offending field.
CostReport evaluate(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                    const EvaluationOptions& options = {});

/// The figures of one evaluate() without its monthly flows and text: one row of evaluate_batch().
/// Each field is the CostReport field of the same name, bit for bit; cost_figure_fields<CostFigures>
/// lists them (results/report.hpp).
struct CostFigures {
    double total = 0;
    double npv = 0;
    double annual_discount_rate = 0;  ///< the rate npv is discounted at (EvaluationOptions)
    double used_gpu_hours = 0;
    std::optional<double> effective_cost_per_used_gpu_hour;  // none below 1e-12 used GPU-hours
    double reserved_utilisation = 0;
    double owned_utilisation = 0;
    double baseline_total = 0;
    double savings = 0;
    double savings_fraction = 0;
    std::optional<double> break_even_utilisation;
    std::optional<int> break_even_month;
    std::optional<CostSpread> spread;
};

/// Many strategies on one demand and offering, as sweeps and optimisers ask: row i is what
/// evaluate(strategies[i], ...) reports, bit for bit, while the options are checked and the all
/// on-demand baseline is costed once for all rows, and no text is written.
///
///   const std::vector<Strategy> levels = {Mix{{{0.5, reserved}, {0.5, OnDemand{}}}}, ...};
///   for (const CostFigures& row : evaluate_batch(levels, demand, offering)) fmt::print("{}\n", row.npv);
///
/// Throws InvalidInput naming the strategy, e.g. "strategies[3].mix.tranches[0].fraction = 1.4: ...".
std::vector<CostFigures> evaluate_batch(std::span<const Strategy> strategies, const DemandProfile& demand,
                                        const Offering& offering, const EvaluationOptions& options = {});

/// A spot tranche whose overhead comes from a simulation of `job`: charged hours (running time with
/// each launch rounded to the billing increment) per useful hour, the mean for the cost and each
/// path's for the spread of the total. The price stays the offering's
/// spot price unless set afterwards.
///
///   const SpotResult sim = simulate_spot(job, Poisson{.mtbf_hours = 20});
///   const Mix mix{{{0.7, Reserved{.term_years = 3}}, {0.2, spot_tranche(sim, job)}, {0.1, OnDemand{}}}};
inline SpotTranche spot_tranche(const SpotResult& result, const Job& job, double availability = 1.0) {
    job.validate();
    const auto& charged = result.samples.charged_hours;
    require(!charged.empty(), "spot_result.samples.charged_hours.size", 0, "must be >= 1 (run simulate_spot first)");
    SpotTranche tranche;
    tranche.availability = require_fraction("spot.availability", availability);
    tranche.overhead_samples.resize(charged.size());
    std::transform(charged.begin(), charged.end(), tranche.overhead_samples.begin(),
                   [&](double hours) { return hours / job.work_hours; });
    tranche.overhead = result.charged_hours.mean / job.work_hours;
    return tranche;
}

}  // namespace gputco
