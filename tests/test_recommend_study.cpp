// The recommendation study every front door runs (app/recommend_study.hpp): its rows are the engine's
// figures for the same plans, held-out futures are judged at the prices the plan was fitted to unless
// others are given (and the summary says which), and the columns are one list.
#include <algorithm>
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "gputco/app/recommend_study.hpp"
#include "plan_fixtures.hpp"

using namespace gputco;

namespace {

DemandModel model() {
    DemandModel m;
    m.base_gpus = 6;
    m.monthly_log_growth = 0.01;
    m.monthly_log_volatility = 0.08;
    return m;
}

/// On-demand cut by half from month 6: a plan fitted to these prices commits less.
PricePaths halved_from_month_6(int months) {
    PriceModel prices;
    prices.start = "2026-01";
    prices.changes.push_back({.date = "2026-07", .on_demand_factor = 0.5, .spot_factor = 1, .reserved_factor = 0.5,
                              .source = "test"});
    return price_paths(prices, Horizon::months(months), 1, 1);
}

RecommendOptions one_year_options() {
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront}};
    options.review_months = 6;
    options.plan_options.threads = 1;
    return options;
}

}  // namespace

TEST_CASE("held-out futures are judged at the fitted prices unless others are given, and the study says which") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures fitted = DemandFutures::generate(model(), Horizon::months(12), 40, 1);
    const DemandFutures fresh = DemandFutures::generate(model(), Horizon::months(12), 60, 2);
    const PricePaths cut = halved_from_month_6(12);
    const RecommendOptions options = one_year_options();

    StudyInputs in{.held_out = &fresh};
    const RecommendStudy fitted_prices = run_recommend_study(fitted, offering, options, cut, in);
    CHECK(fitted_prices.held_out);
    CHECK(fitted_prices.judged_prices == "fitted prices");
    // The judged distribution is the engine's price of the plan on the fresh futures at the cut prices.
    const PlanDistribution direct = evaluate_plan(fitted_prices.recommendation.plan, fresh, offering, cut, options.plan_options);
    CHECK(fitted_prices.judged.total.mean == doctest::Approx(direct.total.mean).epsilon(1e-12));

    const PricePaths list;  // empty: list prices, asked for
    in.held_out_prices = &list;
    const RecommendStudy at_list = run_recommend_study(fitted, offering, options, cut, in);
    CHECK(at_list.judged_prices == "list prices");
    const PlanDistribution listed = evaluate_plan(at_list.recommendation.plan, fresh, offering, {}, options.plan_options);
    CHECK(at_list.judged.total.mean == doctest::Approx(listed.total.mean).epsilon(1e-12));
    // Halving on demand from month 6 makes the same future cheaper: list prices would overstate it.
    CHECK(at_list.judged.total.mean > fitted_prices.judged.total.mean);

    const PricePaths other = halved_from_month_6(12);
    in.held_out_prices = &other;
    CHECK(run_recommend_study(fitted, offering, options, cut, in).judged_prices == "held_out_prices");
    // No held-out futures: judged in sample at the fitted prices.
    CHECK(run_recommend_study(fitted, offering, options, cut, {}).judged_prices == "fitted prices");
    CHECK(run_recommend_study(fitted, offering, options, {}, {}).judged_prices == "list prices");
}

TEST_CASE("the study's baseline rows are compare_plans' figures, then the hindsight level, the providers' advice "
          "re-run monthly, then the bound") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures fitted = DemandFutures::generate(model(), Horizon::months(12), 30, 3);
    const DemandFutures fresh = DemandFutures::generate(model(), Horizon::months(12), 30, 4);
    const DemandProfile history = DemandProfile::constant(6, Horizon::months(3));
    const RecommendOptions options = one_year_options();
    const StudyInputs in{.held_out = &fresh, .history = &history, .hindsight_bound = true, .cvar95_limits = {1e12}};
    const RecommendStudy s = run_recommend_study(fitted, offering, options, {}, in);

    std::vector<Plan> plans{s.recommendation.plan};
    for (Plan& p : baseline_plans(history, offering, 1, Payment::all_upfront)) plans.push_back(p);
    const std::vector<PlanDistribution> direct = compare_plans(plans, fresh, offering, {}, options.plan_options);
    REQUIRE(s.baselines.size() == direct.size() + 3);  // + hindsight level + providers re-run monthly + bound
    for (std::size_t i = 0; i < direct.size(); ++i) {
        CAPTURE(i);
        CHECK(s.baselines[i].plan == direct[i].plan);
        CHECK(s.baselines[i].total.mean == direct[i].total.mean);
        CHECK(*s.baselines[i].regret_mean == direct[i].regret.mean);
        CHECK(*s.baselines[i].best_fraction == direct[i].best_fraction);
        // The bound is each future's own optimum: no plan beats it in any future, so every gap >= 0.
        CHECK(*s.baselines[i].regret_vs_bound_mean >= -1e-6);
    }
    const auto hindsight = hindsight_reservation_totals(fresh, offering, 1, Payment::all_upfront, {}, options.plan_options);
    CHECK(s.baselines[direct.size()].plan == "best in hindsight: 1y all_upfront level per future");
    CHECK(s.baselines[direct.size()].total.mean == distribution_of(hindsight).mean);
    CHECK_FALSE(s.baselines[direct.size()].regret_mean.has_value());
    // The providers' advice as they run it: one plan per future, each priced on its own future.
    const StudyBaselineRow& policy = s.baselines[direct.size() + 1];
    CHECK(policy.plan == "provider advice re-run monthly, lookback 30 days, 1y all_upfront");
    std::vector<double> totals;
    for (std::size_t f = 0; f < fresh.count(); ++f)
        totals.push_back(evaluate_plan(provider_policy_plan(history, fresh, f, offering, 30, 1, Payment::all_upfront),
                                       fresh.future(f), offering, {}, options.plan_options)
                             .total.mean);
    CHECK(policy.total.mean == doctest::Approx(distribution_of(totals).mean).epsilon(1e-12));
    CHECK(*policy.regret_vs_bound_mean >= -1e-6);
    CHECK(s.baselines.back().regret_vs_bound_mean == 0.0);
    REQUIRE(s.frontier.size() == 1);
    CHECK(s.frontier[0].point.feasible);
    CHECK(s.frontier[0].held_out_mean.has_value());

    // Rows render through one column list each; the summary's names are the front doors' names.
    std::vector<std::string> names;
    for (const auto& c : study_summary_columns()) names.emplace_back(c.name);
    CHECK(names.front() == "plan");
    CHECK(std::count(names.begin(), names.end(), "held_out_prices") == 1);
    CHECK(std::get<std::string>(study_summary_columns()[0].get(s)) == describe(s.recommendation.plan));
    for (const auto& c : study_baseline_columns())
        if (c.name == "regret_vs_bound_mean") CHECK(std::get<double>(c.get(s.baselines.back())) == 0.0);
}

TEST_CASE("under a CVaR95 limit with held-out futures the study's plan is the one made to hold out of sample, and "
          "its summary says how") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures fitted = DemandFutures::generate(model(), Horizon::months(24), 60, 5);
    const DemandFutures fresh = DemandFutures::generate(model(), Horizon::months(24), 400, 6);
    RecommendOptions options = one_year_options();
    options.limits.cvar95 = 0.97 * recommend_plan(fitted, offering, one_year_options()).in_sample.total.cvar95;
    StudyInputs in{.held_out = &fresh};
    const RecommendStudy held = run_recommend_study(fitted, offering, options, {}, in);
    const HeldRecommendation direct = recommend_holding_limit(fitted, fresh, offering, options);
    CHECK(describe(held.recommendation.plan) == describe(direct.recommendation.plan));
    CHECK(held.cvar95_verdict == direct.verdict);
    CHECK(held.solved_cvar95_limit == direct.solved_limit);
    CHECK(held.holding_rounds.size() == direct.rounds.size());
    CHECK(held.risk->cvar95 == direct.held_out.cvar95);
    const auto& columns = study_summary_columns();
    const auto verdict = std::find_if(columns.begin(), columns.end(), [](const auto& c) { return c.name == "cvar95_verdict"; });
    REQUIRE(verdict != columns.end());
    CHECK(std::get<std::string>(verdict->get(held)) == direct.verdict);

    in.hold_cvar95_limit = false;  // the plan of the fitted futures alone, judged once
    const RecommendStudy alone = run_recommend_study(fitted, offering, options, {}, in);
    CHECK(describe(alone.recommendation.plan) == describe(recommend_plan(fitted, offering, options).plan));
    CHECK(alone.cvar95_verdict.empty());
    CHECK_FALSE(alone.solved_cvar95_limit.has_value());
    CHECK(alone.fitted_futures == 60);
}
