// A recommendation study (include/gputco/app/recommend_study.hpp): the plan, the baselines people
// would pick, the hindsight level and bound, the frontier, all priced by the plan engine the same way.
#include "gputco/app/recommend_study.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gputco/app/study.hpp"
#include "gputco/results/statistics.hpp"

namespace gputco {
namespace {

/// The plan options the judging runs with: the recommendation's own (discounts, NPV rate, threads,
/// Ctrl-C and progress).
const PlanOptions& judging_options(const RecommendOptions& options) { return options.plan_options; }

StudyBaselineRow row_of(const PlanDistribution& d) {
    return {d.plan, d.total, d.regret.mean, d.regret.p95, d.best_fraction, std::nullopt, std::nullopt};
}

/// Each future's figure the objective measures: the total, or the NPV.
double measured(const FutureOutcome& f, Objective objective) {
    return objective == Objective::expected_npv ? f.npv : f.total;
}

/// Future f's prices: its own path, or the one shared path (empty: list prices).
PricePaths price_column(const PricePaths& prices, std::size_t f) {
    if (prices.empty()) return {};
    const Eigen::Index c = prices.column(f);
    PricePaths column;
    column.on_demand = prices.on_demand.col(c);
    column.spot = prices.spot.col(c);
    column.reserved = prices.reserved.col(c);
    if (prices.reserved_3y.size() > 0) column.reserved_3y = prices.reserved_3y.col(c);
    return column;
}

/// Mean and type-7 P95 of a − b, future by future.
std::pair<double, double> gap_figures(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> gap(a.size());
    for (std::size_t f = 0; f < a.size(); ++f) gap[f] = a[f] - b[f];
    double sum = 0;
    for (double g : gap) sum += g;
    return {sum / double(gap.size()), quantile(gap, 0.95)};
}

}  // namespace

RecommendStudy run_recommend_study(const DemandFutures& futures, const Offering& offering,
                                   const RecommendOptions& options, const PricePaths& prices,
                                   const StudyInputs& inputs) {
    RecommendStudy study;
    study.fitted_futures = futures.count();

    // The baselines buy what the options allow, at the same prices (app/study.hpp).
    const CommitmentOption* first = options.commitments.empty() ? nullptr : &options.commitments.front();
    study.baseline_term_years = inputs.baseline_term_years.value_or(first ? first->term_years : 1);
    study.baseline_payment = inputs.baseline_payment.value_or(first ? first->payment : Payment::all_upfront);
    const Offering judged_offering =
        first && first->term_years == study.baseline_term_years && first->payment == study.baseline_payment
            ? offering_for_baselines(offering, *first)
            : offering;

    study.held_out = inputs.held_out != nullptr;
    const DemandFutures& judged_on = study.held_out ? *inputs.held_out : futures;
    const PricePaths& judged_prices = study.held_out && inputs.held_out_prices ? *inputs.held_out_prices : prices;
    study.judged_prices = &judged_prices != &prices ? (judged_prices.empty() ? "list prices" : "held_out_prices")
                          : prices.empty()          ? "list prices"
                                                    : "fitted prices";
    if (study.held_out && &judged_prices == &prices && !prices.empty()) {
        const auto paths = std::size_t(prices.on_demand.cols());
        if (!(paths == 1 || paths == inputs.held_out->count()))
            throw InvalidInput(fmt::format("held_out_prices = (not given): the fitted prices have {} paths, one per "
                                           "fitted future, and held_out has {} futures; give held_out_prices "
                                           "(price_paths for {} futures) or one shared path",
                                           paths, inputs.held_out->count(), inputs.held_out->count()));
    }
    const PlanOptions& eval = judging_options(options);
    if (options.limits.cvar95 && study.held_out && inputs.hold_cvar95_limit) {
        LimitHolding holding;
        holding.draw_futures = inputs.draw_futures;
        HeldRecommendation held = recommend_holding_limit(futures, *inputs.held_out, offering, options, prices,
                                                          judged_prices, holding);
        study.recommendation = std::move(held.recommendation);
        study.holding_rounds = std::move(held.rounds);
        study.solved_cvar95_limit = held.solved_limit;
        study.fitted_futures = held.fitted_futures;
        study.cvar95_verdict = std::move(held.verdict);
    } else {
        study.recommendation = recommend_plan(futures, offering, options, prices);
    }

    std::vector<Plan> plans{study.recommendation.plan};
    // The baselines are billed as the recommendation is (per whole instance when it counts in instances).
    const Units billing = study.recommendation.plan.billing;
    if (inputs.history) {
        PlanOptions baseline_options;
        baseline_options.discounts = options.plan_options.discounts;
        for (Plan& p : baseline_plans(*inputs.history, judged_offering, study.baseline_term_years,
                                      study.baseline_payment, baseline_options, options.held,
                                      options.held_savings_plans)) {
            p.billing = billing;
            plans.push_back(std::move(p));
        }
    } else {
        Plan on_demand{.name = "all on demand"};
        on_demand.billing = billing;
        on_demand.held = options.held;  // the baselines hold what the recommendation holds
        on_demand.savings_plans = options.held_savings_plans;
        plans.push_back(std::move(on_demand));
    }
    const std::vector<PlanDistribution> results = compare_plans(plans, judged_on, judged_offering, judged_prices, eval);
    study.judged = results.front();
    for (const PlanDistribution& r : results) study.baselines.push_back(row_of(r));
    study.cvar95_limited = options.limits.cvar95.has_value();
    if (study.judged.futures.size() >= 2)
        study.risk = check_risk(study.judged, options.limits.cvar95.value_or(std::numeric_limits<double>::infinity()),
                                Objective::expected_total);
    {
        double used = 0, demanded = 0;
        for (const FutureOutcome& f : study.judged.futures) used += f.committed_used_gpu_hours, demanded += f.demand_gpu_hours;
        study.commitment_utilisation = study.judged.committed_utilisation;
        study.coverage = demanded > 0 ? used / demanded : 0.0;
        // All on demand is among the compared plans (a baseline, with or without a history).
        const auto on_demand = std::find_if(plans.begin(), plans.end(), [](const Plan& p) {
            return p.commitments.empty() && p.owned.empty() && !p.spot;
        });
        const double on_demand_mean = results[std::size_t(on_demand - plans.begin())].total.mean;
        study.effective_savings_rate = on_demand_mean > 0 ? 1.0 - study.judged.total.mean / on_demand_mean : 0.0;
    }

    // The best reservation level of the baseline term in hindsight, future by future: a real optimum
    // of that family, which no plan of it beats in any future.
    const std::vector<double> hindsight =
        hindsight_reservation_totals(judged_on, judged_offering, study.baseline_term_years, study.baseline_payment,
                                     judged_prices, eval);
    study.baselines.push_back({fmt::format("best in hindsight: {}y {} level per future", study.baseline_term_years,
                                           to_text(study.baseline_payment)),
                               distribution_of(hindsight)});

    // The providers' advice as they run it: re-run every month over each future's own use so far, what
    // is held subtracted (provider_policy_plan); one plan per future, so its row is priced future by future.
    std::optional<std::vector<double>> policy;
    if (inputs.history) {
        PlanOptions baseline_options;
        baseline_options.discounts = options.plan_options.discounts;
        policy.emplace(judged_on.count());
        for (std::size_t f = 0; f < judged_on.count(); ++f) {
            Plan plan = provider_policy_plan(*inputs.history, judged_on, f, judged_offering, 30,
                                             study.baseline_term_years, study.baseline_payment, baseline_options,
                                             options.held);
            plan.billing = billing;
            (*policy)[f] = measured(
                evaluate_plan(plan, judged_on.future(f), judged_offering, price_column(judged_prices, f), eval).futures[0],
                Objective::expected_total);
        }
        study.baselines.push_back({fmt::format("provider advice re-run monthly, lookback 30 days, {}y {}",
                                               study.baseline_term_years, to_text(study.baseline_payment)),
                                   distribution_of(*policy)});
    }

    if (inputs.hindsight_bound) {
        const HindsightBound bound = hindsight_plan_totals(judged_on, judged_offering, options, judged_prices);
        study.bound_exact = bound.exact;
        for (std::size_t i = 0; i < results.size(); ++i) {
            std::vector<double> figures(results[i].futures.size());
            for (std::size_t f = 0; f < figures.size(); ++f) figures[f] = measured(results[i].futures[f], options.objective);
            const auto [mean, p95] = gap_figures(figures, bound.totals);
            study.baselines[i].regret_vs_bound_mean = mean;
            study.baselines[i].regret_vs_bound_p95 = p95;
        }
        if (options.objective == Objective::expected_total) {  // the one-family optimum is measured in totals
            const auto [mean, p95] = gap_figures(hindsight, bound.totals);
            study.baselines[results.size()].regret_vs_bound_mean = mean;
            study.baselines[results.size()].regret_vs_bound_p95 = p95;
            if (policy) {  // the row after it, in totals too
                const auto [policy_mean, policy_p95] = gap_figures(*policy, bound.totals);
                study.baselines.back().regret_vs_bound_mean = policy_mean;
                study.baselines.back().regret_vs_bound_p95 = policy_p95;
            }
        }
        StudyBaselineRow row{std::string("best plan in hindsight per future (a lower bound)") +
                                 (bound.exact ? "" : ", not proven"),
                             distribution_of(bound.totals)};
        row.regret_vs_bound_mean = 0.0;
        row.regret_vs_bound_p95 = 0.0;
        study.baselines.push_back(std::move(row));
    }

    if (!inputs.cvar95_limits.empty()) {
        for (FrontierPoint& p : cost_risk_frontier(futures, offering, inputs.cvar95_limits, options, prices)) {
            StudyFrontierRow row{std::move(p)};
            if (study.held_out && row.point.feasible) {
                const PlanDistribution d = evaluate_plan(row.point.recommended, judged_on, offering, judged_prices, eval);
                row.held_out_mean = d.total.mean;
                row.held_out_cvar95 = d.total.cvar95;
            }
            study.frontier.push_back(std::move(row));
        }
    }
    return study;
}

namespace {
Cell opt(const std::optional<double>& v) { return v ? Cell(*v) : Cell(); }
}  // namespace

const std::vector<Column<RecommendStudy>>& study_summary_columns() {
    using S = RecommendStudy;
    static const std::vector<Column<S>> c{
        {"plan", "", Dtype::text, [](const S& s) { return Cell(describe(s.recommendation.plan)); }},
        {"buys", "", Dtype::text,
         [](const S& s) {  // what the plan buys, whatever it is named
             Plan unnamed = s.recommendation.plan;
             unnamed.name.clear();
             return Cell(describe(unnamed));
         }},
        // How on demand and spot are paid: per GPU-hour ("gpus") or per whole instance ("instances", when
        // the recommender counts in instances); the baselines are billed the same way.
        {"billing", "", Dtype::text,
         [](const S& s) { return Cell(std::string(to_text(s.recommendation.plan.billing))); }},
        {"in_sample_mean", "currency", Dtype::float64, [](const S& s) { return Cell(s.recommendation.in_sample.total.mean); }},
        {"in_sample_p95", "currency", Dtype::float64, [](const S& s) { return Cell(s.recommendation.in_sample.total.p95); }},
        {"in_sample_cvar95", "currency", Dtype::float64,
         [](const S& s) { return Cell(s.recommendation.in_sample.total.cvar95); }},
        {"held_out_mean", "currency", Dtype::float64, [](const S& s) { return Cell(s.judged.total.mean); }},
        {"held_out_standard_error", "currency", Dtype::float64,
         [](const S& s) { return Cell(s.judged.total.standard_error); }},
        {"held_out_p95", "currency", Dtype::float64, [](const S& s) { return Cell(s.judged.total.p95); }},
        {"held_out_cvar95", "currency", Dtype::float64, [](const S& s) { return Cell(s.judged.total.cvar95); }},
        {"commitment_utilisation", "fraction", Dtype::float64, [](const S& s) { return Cell(s.commitment_utilisation); }},
        {"coverage", "fraction", Dtype::float64, [](const S& s) { return Cell(s.coverage); }},
        {"effective_savings_rate", "fraction", Dtype::float64, [](const S& s) { return Cell(s.effective_savings_rate); }},
        {"judged_on", "", Dtype::text,
         [](const S& s) { return Cell(std::string(s.held_out ? "held-out futures" : "fitted futures")); }},
        {"held_out_prices", "", Dtype::text, [](const S& s) { return Cell(s.judged_prices); }},
        {"held_out_cvar95_standard_error", "currency", Dtype::float64,
         [](const S& s) { return s.risk ? Cell(s.risk->cvar95_standard_error) : Cell(); }},
        // Under a CVaR95 limit: does the judged figure keep it at 95% one-sided confidence (false without one)?
        {"held_out_meets_cvar95_limit", "", Dtype::boolean,
         [](const S& s) { return Cell(s.risk && s.cvar95_limited && s.risk->meets_limit); }},
        // The CVaR95 limit made to hold out of sample (empty without a limit and held-out futures).
        {"cvar95_verdict", "", Dtype::text, [](const S& s) { return Cell(s.cvar95_verdict); }},
        {"solved_cvar95_limit", "currency", Dtype::float64,
         [](const S& s) { return opt(s.solved_cvar95_limit); }},
        {"fitted_futures", "count", Dtype::int64, [](const S& s) { return Cell((long long)s.fitted_futures); }},
        {"solver_objective", "currency", Dtype::float64, [](const S& s) { return Cell(s.recommendation.solver_objective); }},
        {"proven_optimal", "", Dtype::boolean, [](const S& s) { return Cell(s.recommendation.proven_optimal); }},
        {"status", "", Dtype::text, [](const S& s) { return Cell(s.recommendation.status); }},
        {"solve_seconds", "seconds", Dtype::float64, [](const S& s) { return Cell(s.recommendation.solve_seconds); }},
        // Expected share of demanded GPU-hours served by capacity that is there (limits.capacity_assurance).
        {"in_sample_capacity_assurance", "fraction", Dtype::float64,
         [](const S& s) { return Cell(s.recommendation.capacity_assurance); }},
    };
    return c;
}

const std::vector<Column<StudyBaselineRow>>& study_baseline_columns() {
    using R = StudyBaselineRow;
    static const std::vector<Column<R>> c{
        {"plan", "", Dtype::text, [](const R& r) { return Cell(r.plan); }},
        {"mean", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.mean); }},
        {"standard_error", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.standard_error); }},
        {"p95", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.p95); }},
        {"cvar95", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.cvar95); }},
        {"regret_mean", "currency", Dtype::float64, [](const R& r) { return opt(r.regret_mean); }},
        {"regret_p95", "currency", Dtype::float64, [](const R& r) { return opt(r.regret_p95); }},
        {"best_fraction", "fraction", Dtype::float64, [](const R& r) { return opt(r.best_fraction); }},
        {"regret_vs_bound_mean", "currency", Dtype::float64, [](const R& r) { return opt(r.regret_vs_bound_mean); }},
        {"regret_vs_bound_p95", "currency", Dtype::float64, [](const R& r) { return opt(r.regret_vs_bound_p95); }},
    };
    return c;
}

const std::vector<Column<StudyFrontierRow>>& study_frontier_columns() {
    using R = StudyFrontierRow;
    static const std::vector<Column<R>> c{
        {"cvar95_limit", "currency", Dtype::float64, [](const R& r) { return Cell(r.point.cvar95_limit); }},
        {"feasible", "", Dtype::boolean, [](const R& r) { return Cell(r.point.feasible); }},
        {"mean", "currency", Dtype::float64,
         [](const R& r) { return std::isnan(r.point.mean) ? Cell() : Cell(r.point.mean); }},
        {"cvar95", "currency", Dtype::float64,
         [](const R& r) { return std::isnan(r.point.cvar95) ? Cell() : Cell(r.point.cvar95); }},
        {"p95", "currency", Dtype::float64, [](const R& r) { return std::isnan(r.point.p95) ? Cell() : Cell(r.point.p95); }},
        {"plan", "", Dtype::text, [](const R& r) { return Cell(r.point.plan); }},
        {"reason", "", Dtype::text, [](const R& r) { return Cell(r.point.reason); }},
        {"timed_out", "", Dtype::boolean, [](const R& r) { return Cell(r.point.timed_out); }},
        {"gap", "fraction", Dtype::float64, [](const R& r) { return std::isnan(r.point.gap) ? Cell() : Cell(r.point.gap); }},
        {"held_out_mean", "currency", Dtype::float64, [](const R& r) { return opt(r.held_out_mean); }},
        {"held_out_cvar95", "currency", Dtype::float64, [](const R& r) { return opt(r.held_out_cvar95); }},
    };
    return c;
}

}  // namespace gputco
