#pragma once
// Re-planning: the rolling policy a planner runs, judged on futures. At months 0, k, 2k, ... of each
// judged future the recommender is solved again on futures that continue from what has been seen,
// holding every commitment bought so far (their remaining terms); what it buys to start before the
// next review is bought, the rest is left to that review. The assembled plan is priced in that future
// by the plan engine, beside the static recommendation (the solve at month 0, kept whole) and the
// hindsight bound on the same futures (docs/models.md, "Re-planning").
//
//   RollingOptions rolling{.every_months = 3, .model = model};
//   const RollingReplan r = rolling_replan(fitted, judged, a100, options, rolling);
//   // r.rolling.mean ± r.rolling.standard_error against r.static_plan.mean and r.hindsight.mean
#include <cstdint>
#include <optional>
#include <vector>

#include "gputco/optimise/recommend.hpp"
#include "gputco/results/plan_distribution.hpp"
#include "gputco/work/demand_futures.hpp"

namespace gputco {

/// How the rolling policy re-solves.
struct RollingOptions {
    int every_months = 3;  ///< k: re-solve at months 0, k, 2k, ... (>= 1; >= the horizon: only at 0)
    /// Where the futures of a re-solve come from: `model` restarted at the month seen (restarted_model).
    /// Needed when every_months < the horizon: without a model no future can be conditioned on what
    /// has been seen.
    std::optional<DemandModel> model;
    std::size_t futures = 100;  ///< futures drawn for each re-solve after month 0 (>= 1)
    std::uint64_t seed = 1;     ///< re-solve (judged future f, month t) draws from a stream of (seed, f, t)
};

/// `model` continued from month `month`, whose demand level was `level`: the model is Markov in its
/// level, so the futures from there are the model's futures started at that level. base_gpus = level /
/// seasonality[month % 12] (the whole level grows from there, events already started included);
/// seasonality and hour_of_week turned so that month 0 is `month`; events whose window opens at
/// `month` or later shifted by `month`, the others dropped (one already started is in the level; one
/// not started whose window has opened is taken as not happening: the level cannot tell). A
/// bootstrapped history is kept as it is. Throws InvalidInput for month < 0 or level < 0.
DemandModel restarted_model(const DemandModel& model, int month, double level);

/// One policy's cost per judged future (the objective measure: total, or NPV) and its mean.
struct PolicyCosts {
    std::vector<double> per_future;
    double mean = 0;
    double standard_error = 0;  ///< sample sd / √n; 0 for one future
};

struct RollingReplan {
    std::vector<Plan> plans;      ///< per judged future, the plan the rolling policy assembled there
    PolicyCosts rolling;          ///< the engine's price of each assembled plan in its future
    Plan static_recommendation;   ///< recommend_plan on `fitted` (the solve at month 0)
    PolicyCosts static_plan;      ///< the static recommendation on the same futures
    PolicyCosts hindsight;        ///< hindsight_plan_totals on the same futures (a lower bound)
    bool hindsight_exact = true;  ///< HindsightBound::exact
    /// Per future, static − rolling: what re-planning saved (paired, so its standard error is small).
    PolicyCosts saving;
    int solves = 0;               ///< recommender solves made, month 0's included
};

/// The rolling policy on `judged`: at each review month t (0, k, 2k, ... below the horizon) of each
/// judged future, recommend_plan (options as given, start months those of the options at or after t,
/// shifted to t) on `fitted` at t = 0 and on rolling.futures draws of restarted_model(model, t, the
/// level seen) over the months left; the level seen is month t's mean demand over the mean of the
/// model's hourly factors that month (for a future drawn from the model, its level): the planner is
/// taken to know month t's level at its start (as GPUs booked for the month), not its hours; every commitment bought before t held for its
/// remaining term at the rate it was bought at (with options.held, which every solve holds); its
/// purchases starting before t + k kept. Futures in parallel on options.plan_options.threads (each solve
/// single-threaded: the same result for any count). List prices only (no price paths). Throws
/// InvalidInput naming the field for options the policy does not re-solve (spot, owned, Savings Plans,
/// capacity blocks, risk limits), for a missing model, or as recommend_plan does.
RollingReplan rolling_replan(const DemandFutures& fitted, const DemandFutures& judged, const Offering& offering,
                             const RecommendOptions& options, const RollingOptions& rolling);

}  // namespace gputco
