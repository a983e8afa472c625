#pragma once
// A recommendation as every front door runs it (Python's gputco.recommend, `gputco recommend`, the
// examples): the plan recommend_plan() finds, judged on held-out futures beside the plans people
// would pick without it (all on demand, the providers' lookback advice, the newsvendor on the
// history), the best reservation level in hindsight, optionally each future's own optimum (a lower
// bound) and the cost-risk frontier. The rows and their columns live here once; the front doors only
// render them.
//
//   StudyInputs in{.held_out = &fresh, .history = &history};
//   const RecommendStudy s = run_recommend_study(futures, p4d, options, {}, in);
//   for (const auto& c : study_baseline_columns()) fmt::print("{} ", c.name);
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gputco/app/columns.hpp"
#include "gputco/catalog/price_schedule.hpp"
#include "gputco/optimise/recommend.hpp"
#include "gputco/work/demand.hpp"
#include "gputco/work/demand_futures.hpp"

namespace gputco {

/// What a study judges the plan on, beyond the futures it is fitted to. Pointers: the inputs are
/// large and the caller keeps them; null = not given.
struct StudyInputs {
    /// Fresh futures of the same model to judge on; null = judge on the fitted futures (in sample).
    const DemandFutures* held_out = nullptr;
    /// Prices of the held-out futures; null = the prices the plan was fitted to (never silently list
    /// prices when the plan was fitted to moving ones; then the fitted prices must be one shared path
    /// or one per held-out future). An empty PricePaths asks for list prices.
    const PricePaths* held_out_prices = nullptr;
    /// The usage history the baselines look back on; null = only all on demand.
    const DemandProfile* history = nullptr;
    /// The baselines' reservation; default: the first commitment option's, else 1 year all upfront.
    std::optional<int> baseline_term_years;
    std::optional<Payment> baseline_payment;
    /// Solve each judged future's own optimum over the same decision (hindsight_plan_totals).
    bool hindsight_bound = false;
    /// CVaR95 limits of the frontier; empty = no frontier.
    std::vector<double> cvar95_limits;
    /// With options.limits.cvar95 and held-out futures: make the limit hold out of sample
    /// (recommend_holding_limit, docs/models.md "Risk limits that hold out of sample"); false = the plan
    /// of the fitted futures alone, judged once.
    bool hold_cvar95_limit = true;
    /// Futures of the fitted futures' model (LimitHolding::draw_futures): each round is then judged on
    /// fresh ones and the fitted sample may grow; empty = judged on held_out, the limit only tightened.
    std::function<DemandFutures(std::size_t count, std::uint64_t draw)> draw_futures;
};

/// One compared plan on the judged futures. Regrets are against the cheapest compared plan per
/// future; the _vs_bound figures against each future's own optimum (none when not solved).
struct StudyBaselineRow {
    std::string plan;
    Distribution total;
    std::optional<double> regret_mean, regret_p95, best_fraction;
    std::optional<double> regret_vs_bound_mean, regret_vs_bound_p95;
};

/// One point of the frontier, with its figures on the judged futures when they are held out.
struct StudyFrontierRow {
    FrontierPoint point;
    std::optional<double> held_out_mean, held_out_cvar95;
};

struct RecommendStudy {
    Recommendation recommendation;
    PlanDistribution judged;  ///< the recommended plan on the judged futures (held out, else fitted)
    bool held_out = false;    ///< whether `judged` is on held-out futures
    /// Which prices the judged futures were priced at: "fitted prices" (the plan's own),
    /// "held_out_prices" (passed in) or "list prices".
    std::string judged_prices;
    /// The judged CVaR95 against options.limits.cvar95 (infinite without one), with its standard error;
    /// none with fewer than two judged futures.
    std::optional<RiskCheck> risk;
    bool cvar95_limited = false;  ///< whether the options set a CVaR95 limit
    /// When the limit was made to hold out of sample: each solve, the limit the plan was solved with,
    /// the futures it was fitted to and the verdict in words (empty otherwise).
    std::vector<HoldingRound> holding_rounds;
    std::optional<double> solved_cvar95_limit;
    std::size_t fitted_futures = 0;
    std::string cvar95_verdict;
    int baseline_term_years = 1;
    Payment baseline_payment = Payment::all_upfront;
    std::vector<StudyBaselineRow> baselines;  ///< recommended, baselines, hindsight level, [bound]
    std::vector<StudyFrontierRow> frontier;
    std::optional<bool> bound_exact;  ///< set when the bound was solved: whether it is proven
    /// The FinOps figures of the recommended plan on the judged futures, as a bill would show them
    /// after it is bought (docs/models.md, "FinOps figures of a plan"): committed GPU-hours used /
    /// paid, committed GPU-hours used / demanded, and 1 − its mean / all on demand's mean.
    double commitment_utilisation = 0;
    double coverage = 0;
    double effective_savings_rate = 0;
};

/// Runs the study. Throws InvalidInput as recommend_plan and compare_plans do.
RecommendStudy run_recommend_study(const DemandFutures& futures, const Offering& offering,
                                   const RecommendOptions& options = {}, const PricePaths& prices = {},
                                   const StudyInputs& inputs = {});

/// The columns of the study's three tables (name, unit, dtype, getter), for every front door.
const std::vector<Column<RecommendStudy>>& study_summary_columns();
const std::vector<Column<StudyBaselineRow>>& study_baseline_columns();
const std::vector<Column<StudyFrontierRow>>& study_frontier_columns();

}  // namespace gputco
