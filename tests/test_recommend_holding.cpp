// A CVaR95 limit that holds on futures the plan was not fitted to (recommend_holding_limit).
#include <doctest/doctest.h>

#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;

namespace {

/// recommend_growth's demand: 8 GPUs growing 1.5% a month with 6% noise, a second project of 8 GPUs
/// in the first year with probability 0.5, busy on weekday working hours and half at other times.
DemandModel growth_model() {
    DemandModel model;
    model.base_gpus = 8;
    model.monthly_log_growth = 0.015;
    model.monthly_log_volatility = 0.06;
    model.events.push_back({.gpus = 8, .probability = 0.5, .first_month = 0, .last_month = 11});
    std::vector<double> week(168, 0.5);
    for (int day = 0; day < 5; ++day)
        for (int hour = 8; hour < 20; ++hour) week[std::size_t(day * 24 + hour)] = 1.0;
    model.hour_of_week = week;
    return model;
}

}  // namespace

TEST_CASE("fitted on 100 futures and held on 2,000, the CVaR95 limit holds on 10,000 fresh futures in each of 20 "
          "seeds (fitted alone it does not)") {
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    const DemandModel model = growth_model();
    const Horizon horizon = Horizon::months(36);
    RecommendOptions options;
    options.review_months = 12;
    options.plan_options.threads = 1;
    // The limit: 97% of the CVaR95 of the unlimited plan, both on a pilot sample of 1,000 futures.
    const DemandFutures pilot = DemandFutures::generate(model, horizon, 1000, 424242);
    const double limit = 0.97 * recommend_plan(pilot, p4d, options).in_sample.total.cvar95;
    options.limits.cvar95 = limit;
    int broken_alone = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const DemandFutures fitted = DemandFutures::generate(model, horizon, 100, seed);
        const DemandFutures held_out = DemandFutures::generate(model, horizon, 2000, seed + 1000);
        const DemandFutures fresh = DemandFutures::generate(model, horizon, 10000, seed + 2000);
        LimitHolding holding;
        holding.draw_futures = [&](std::size_t count, std::uint64_t draw) {
            return DemandFutures::generate(model, horizon, count, seed * 1000 + 100'000 + draw);
        };
        const HeldRecommendation h = recommend_holding_limit(fitted, held_out, p4d, options, {}, {}, holding);
        const double judged = evaluate_plan(h.recommendation.plan, fresh, p4d, {}, options.plan_options).total.cvar95;
        // The plan fitted to the 100 futures alone, when some plan meets the limit there.
        double judged_alone = 0;
        try {
            const Recommendation alone = recommend_plan(fitted, p4d, options);
            judged_alone = evaluate_plan(alone.plan, fresh, p4d, {}, options.plan_options).total.cvar95;
        } catch (const InvalidInput&) {
        }
        INFO("seed " << seed << ": " << h.verdict << "; on fresh futures " << judged << " against " << limit
                     << "; fitted alone " << judged_alone);
        CHECK(h.holds);
        
        CHECK(judged <= limit);
        broken_alone += judged_alone > limit;
    }
    CHECK(broken_alone >= 5);  // what the holding mends: kept on 100 futures alone, the limit often fails (11 of 20)
}

TEST_CASE("without fresh futures the limit is tightened on the held-out ones; when it cannot be held the verdict says so") {
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    const DemandModel model = growth_model();
    const Horizon horizon = Horizon::months(36);
    const DemandFutures fitted = DemandFutures::generate(model, horizon, 100, 19);
    const DemandFutures held_out = DemandFutures::generate(model, horizon, 2000, 1019);
    RecommendOptions options;
    options.review_months = 12;
    options.plan_options.threads = 1;
    const double free_cvar = recommend_plan(fitted, p4d, options).in_sample.total.cvar95;
    options.limits.cvar95 = 0.97 * free_cvar;

    const HeldRecommendation h = recommend_holding_limit(fitted, held_out, p4d, options);
    INFO(h.verdict);
    REQUIRE(h.rounds.size() >= 1);
    CHECK(h.rounds.front().solved_limit == *options.limits.cvar95);
    for (std::size_t i = 1; i < h.rounds.size(); ++i) {  // tightened after each failed check, never enlarged
        CHECK(h.rounds[i].solved_limit < h.rounds[i - 1].solved_limit);
        CHECK(h.rounds[i].fitted_futures == 100);
        CHECK_FALSE(h.rounds[i - 1].judged.meets_limit);
        CHECK(h.rounds[i - 1].judged.limit == *options.limits.cvar95);
    }
    // Each round's check at 1 − 5% / 8 one-sided on the held-out futures, which are also reported.
    CHECK(h.rounds.front().judged.confidence == doctest::Approx(1 - 0.05 / 8));
    CHECK(h.held_out.confidence == 0.95);
    if (h.holds) {
        CHECK(h.verdict.rfind("holds: CVaR95 ", 0) == 0);
    } else {  // here: tightened until no plan met the limit on the 100 futures
        CHECK(h.verdict.rfind(fmt::format("could not hold limits.cvar95 = {:g} out of sample: limits.cvar95 = ",
                                          *options.limits.cvar95), 0) == 0);
        CHECK_FALSE(h.rounds.back().feasible);
    }

    // The first plan fails its check here; with one round allowed that is the answer, said plainly.
    REQUIRE_FALSE(h.rounds.front().judged.meets_limit);
    LimitHolding once;
    once.max_rounds = 1;
    const HeldRecommendation failed = recommend_holding_limit(fitted, held_out, p4d, options, {}, {}, once);
    CHECK_FALSE(failed.holds);
    CHECK(failed.verdict.rfind(fmt::format("could not hold limits.cvar95 = {:g} out of sample in 1 solves: the last "
                                           "plan's CVaR95 is ",
                                           *options.limits.cvar95),
                               0) == 0);

    RecommendOptions unlimited = options;
    unlimited.limits.cvar95.reset();
    CHECK_THROWS_WITH_AS(recommend_holding_limit(fitted, held_out, p4d, unlimited),
                         "options.limits.cvar95 = \"none\": must be set (the limit to hold out of sample)", InvalidInput);
}
