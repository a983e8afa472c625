// The rolling policy (rolling_replan): re-solving every k months with what is held and what has been
// seen, priced once by the plan engine, beside the static recommendation and the hindsight bound.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "gputco/core/random.hpp"
#include "gputco/optimise/rolling.hpp"
#include "plan_fixtures.hpp"

using namespace gputco;

namespace {

/// Only the 1-year all-upfront reservation ($1/GPU-hour against $2 on demand), bought in months 0 and 12.
RecommendOptions yearly_options() {
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
    options.start_months = {0, 12};
    options.plan_options.threads = 1;
    return options;
}

void check_same_commitments(const Plan& a, const Plan& b) {
    REQUIRE(a.commitments.size() == b.commitments.size());
    for (std::size_t i = 0; i < a.commitments.size(); ++i) {
        CHECK(a.commitments[i].count == b.commitments[i].count);
        CHECK(a.commitments[i].start_month == b.commitments[i].start_month);
        CHECK(a.commitments[i].term_years == b.commitments[i].term_years);
        CHECK(a.commitments[i].payment == b.commitments[i].payment);
    }
}

}  // namespace

TEST_CASE("demand that jumps in month 12: the re-solve there buys for it and saves what the hand count says") {
    const Offering offering = test::plan_test_offering();
    const Horizon horizon = Horizon::months(24);
    const DemandModel model{.base_gpus = 4};  // steady 4 GPUs: what the static plan is fitted to
    const DemandFutures fitted = DemandFutures::generate(model, horizon, 10, 7);
    // The judged future: 4 GPUs for a year, then 12.
    Eigen::ArrayXd hours(Eigen::Index(horizon.hour_count()));
    for (Eigen::Index h = 0; h < hours.size(); ++h) hours[h] = h < Eigen::Index(12 * whole_hours_per_month) ? 4.0 : 12.0;
    const DemandFutures judged = DemandFutures::from_profile(DemandProfile::hourly(hours));

    const RollingReplan r = rolling_replan(fitted, judged, offering, yearly_options(),
                                           {.every_months = 12, .model = model, .futures = 10, .seed = 3});
    // Static: 4 GPUs reserved in months 0 and 12; year 2's other 8 GPUs on demand.
    REQUIRE(r.static_recommendation.commitments.size() == 2);
    CHECK(r.static_recommendation.commitments[1].count == 4);
    // Re-planned: 4 in month 0, then 12 in month 12, restarted at the level seen (12).
    REQUIRE(r.plans[0].commitments.size() == 2);
    CHECK(r.plans[0].commitments[0].count == 4);
    CHECK(r.plans[0].commitments[1].count == 12);
    CHECK(r.plans[0].commitments[1].start_month == 12);
    // By hand: year 1 4 × 8,760 h × $1 both ways; year 2 static 4 × 8,760 × $1 + 8 × 8,760 × $2, re-planned 12 × 8,760 × $1.
    CHECK(r.static_plan.per_future[0] == doctest::Approx(4 * 8760.0 + 4 * 8760.0 + 8 * 8760.0 * 2).epsilon(1e-12));
    CHECK(r.rolling.per_future[0] == doctest::Approx(4 * 8760.0 + 12 * 8760.0).epsilon(1e-12));
    CHECK(r.saving.per_future[0] == doctest::Approx(8 * 8760.0).epsilon(1e-12));
    CHECK(r.rolling.mean < r.static_plan.mean);
    CHECK(r.hindsight.per_future[0] == doctest::Approx(r.rolling.per_future[0]).epsilon(1e-12));  // hindsight can do no better here
    CHECK(r.solves == 2);
}

TEST_CASE("what the policy bought is held by the later re-solves, for what is left of its term") {
    const Offering offering = test::plan_test_offering();
    const Horizon horizon = Horizon::months(24);
    const DemandModel model{.base_gpus = 4};
    const DemandFutures fitted = DemandFutures::generate(model, horizon, 5, 7);
    Eigen::ArrayXd hours(Eigen::Index(horizon.hour_count()));  // 4 GPUs for 6 months, then 12
    for (Eigen::Index h = 0; h < hours.size(); ++h) hours[h] = h < Eigen::Index(6 * whole_hours_per_month) ? 4.0 : 12.0;
    const DemandFutures judged = DemandFutures::from_profile(DemandProfile::hourly(hours));
    RecommendOptions options = yearly_options();
    options.start_months = {0, 6, 12};
    const RollingReplan r = rolling_replan(fitted, judged, offering, options,
                                           {.every_months = 6, .model = model, .futures = 5, .seed = 3});
    // Month 0: 4 (to month 12). Month 6: 8 more, the 4 held. Month 12: 4 more, the 8 of month 6 held to 18.
    REQUIRE(r.plans[0].commitments.size() == 3);
    CHECK(r.plans[0].commitments[1].start_month == 6);
    CHECK(r.plans[0].commitments[1].count == 8);
    CHECK(r.plans[0].commitments[2].start_month == 12);
    CHECK(r.plans[0].commitments[2].count == 4);
    CHECK(r.solves == 3);  // months 0, 6 and 12; none may be bought in month 18
}

TEST_CASE("a held commitment stays held in every re-solve, for its remaining term") {
    const Offering offering = test::plan_test_offering();
    const Horizon horizon = Horizon::months(24);
    const DemandModel model{.base_gpus = 6};
    const DemandFutures fitted = DemandFutures::generate(model, horizon, 5, 1);
    RecommendOptions options = yearly_options();
    // 6 GPUs held to month 18: month 0 buys nothing; month 12 buys for the 6 months after it runs out
    // only if that pays (12 months of $1 against 6 of $2: equal, ties to nothing), so nothing is bought.
    options.held = {{.id = "old", .count = 6, .start_month = -6, .end_month = 18, .hourly_per_gpu = 0.5}};
    const RollingReplan r = rolling_replan(fitted, fitted, offering, options, {.every_months = 12, .model = model, .futures = 5});
    for (const Plan& plan : r.plans) {
        REQUIRE(plan.held.size() == 1);
        CHECK(plan.held[0].id == "old");
        for (const Commitment& c : plan.commitments) CHECK(c.start_month != 0);  // nothing bought beside what is held
    }
    for (std::size_t f = 0; f < fitted.count(); ++f) CHECK(r.rolling.per_future[f] >= r.hindsight.per_future[f] - 1e-6);
}

TEST_CASE("re-solving no earlier than the horizon is the static recommendation, future by future") {
    const Offering offering = test::plan_test_offering();
    const Horizon horizon = Horizon::months(24);
    const DemandModel model{.base_gpus = 5, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.1,
                            .hour_of_week = test::office_week()};
    const DemandFutures fitted = DemandFutures::generate(model, horizon, 20, 5);
    const DemandFutures judged = DemandFutures::generate(model, horizon, 15, 6);
    RecommendOptions options;
    options.review_months = 6;
    options.plan_options.threads = 1;
    for (int k : {24, 100}) {
        CAPTURE(k);
        const RollingReplan r = rolling_replan(fitted, judged, offering, options, {.every_months = k});  // no model needed
        const Recommendation alone = recommend_plan(fitted, offering, options);
        check_same_commitments(r.static_recommendation, alone.plan);
        for (std::size_t f = 0; f < judged.count(); ++f) {
            check_same_commitments(r.plans[f], alone.plan);
            CHECK(r.rolling.per_future[f] == r.static_plan.per_future[f]);
            CHECK(r.saving.per_future[f] == 0.0);
        }
        CHECK(r.solves == 1);
    }
}

TEST_CASE("over 50 seeded random problems the rolling policy is never below the hindsight bound and its cost is "
          "the engine's price of the plan it assembled") {
    const Offering offering = test::plan_test_offering();
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        CAPTURE(seed);
        Xoshiro256pp engine(seed);
        const Horizon horizon = Horizon::months(12 + 6 * int(test::uniform(engine, 0, 2.999)));
        DemandModel model{.base_gpus = std::round(test::uniform(engine, 1, 10)),
                          .monthly_log_growth = test::uniform(engine, -0.03, 0.05),
                          .monthly_log_volatility = test::uniform(engine, 0, 0.2),
                          .hour_of_week = test::office_week()};
        if (test::uniform(engine, 0, 1) < 0.5)
            model.events.push_back({.gpus = std::round(test::uniform(engine, 1, 8)), .probability = 0.5,
                                    .first_month = 0, .last_month = horizon.month_count() - 1});
        const DemandFutures fitted = DemandFutures::generate(model, horizon, 4, seed * 10);
        const DemandFutures judged = DemandFutures::generate(model, horizon, 3, seed * 10 + 1);
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
        if (test::uniform(engine, 0, 1) < 0.5)
            options.commitments.push_back({.term_years = 3, .payment = Payment::no_upfront, .reservation_discount = {}});
        options.review_months = test::uniform(engine, 0, 1) < 0.5 ? 3 : 6;
        options.max_count = 30;
        options.plan_options.threads = 1;
        if (test::uniform(engine, 0, 1) < 0.3)
            options.held = {{.id = "held", .count = std::round(test::uniform(engine, 1, 4)), .start_month = -3,
                             .end_month = 9, .hourly_per_gpu = 0.9}};
        const int k = test::uniform(engine, 0, 1) < 0.5 ? 3 : 6;
        const RollingReplan r =
            rolling_replan(fitted, judged, offering, options, {.every_months = k, .model = model, .futures = 4, .seed = seed});
        CHECK(r.hindsight_exact);
        for (std::size_t f = 0; f < judged.count(); ++f) {
            CAPTURE(f);
            CHECK(r.rolling.per_future[f] >= r.hindsight.per_future[f] * (1 - 1e-9) - 1e-6);
            const PlanDistribution d = evaluate_plan(r.plans[f], judged.future(f), offering, {}, options.plan_options);
            CHECK(d.total.mean == r.rolling.per_future[f]);
            CHECK(r.saving.per_future[f] == doctest::Approx(r.static_plan.per_future[f] - r.rolling.per_future[f]).epsilon(1e-12));
            for (const Commitment& c : r.plans[f].commitments) CHECK(c.start_month % options.review_months == 0);
            ++checked;
        }
    }
    CHECK(checked == 150);
}

TEST_CASE("the rolling policy gives the same plans and costs on 1 or 2 threads") {
    const Offering offering = test::plan_test_offering();
    const Horizon horizon = Horizon::months(24);
    const DemandModel model{.base_gpus = 5, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.15,
                            .hour_of_week = test::office_week()};
    const DemandFutures fitted = DemandFutures::generate(model, horizon, 10, 21);
    const DemandFutures judged = DemandFutures::generate(model, horizon, 6, 22);
    RecommendOptions options;
    options.review_months = 3;
    options.plan_options.threads = 1;
    const RollingOptions rolling{.every_months = 3, .model = model, .futures = 8, .seed = 9};
    const RollingReplan one = rolling_replan(fitted, judged, offering, options, rolling);
    options.plan_options.threads = 2;
    const RollingReplan two = rolling_replan(fitted, judged, offering, options, rolling);
    CHECK(one.rolling.per_future == two.rolling.per_future);
    CHECK(one.hindsight.per_future == two.hindsight.per_future);
    for (std::size_t f = 0; f < judged.count(); ++f) check_same_commitments(one.plans[f], two.plans[f]);
    CHECK(one.solves == two.solves);
    CHECK(one.solves > 1);
}

TEST_CASE("restarted_model: the model from a month seen, at its level") {
    DemandModel model{.base_gpus = 4, .events = {{.gpus = 2, .probability = 0.5, .first_month = 1, .last_month = 3},
                                                 {.gpus = 3, .probability = 1, .first_month = 6, .last_month = 8}}};
    model.seasonality = {1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4};
    const DemandModel m = restarted_model(model, 13, 10.0);
    CHECK(m.base_gpus == 5.0);  // 10 / seasonality[13 % 12]
    CHECK(m.seasonality[0] == 2.0);
    CHECK(m.seasonality[10] == 4.0);
    REQUIRE(m.events.empty());  // both windows opened before month 13
    const DemandModel early = restarted_model(model, 2, 8.0);
    REQUIRE(early.events.size() == 1);
    CHECK(early.events[0].first_month == 4);
    CHECK(early.events[0].last_month == 6);
}

TEST_CASE("rolling_replan's errors name the field") {
    const Offering offering = test::plan_test_offering();
    const DemandModel model{.base_gpus = 4};
    const DemandFutures fitted = DemandFutures::generate(model, Horizon::months(12), 3, 1);
    const RecommendOptions options = yearly_options();
    CHECK_THROWS_WITH_AS(rolling_replan(fitted, fitted, offering, {}, {.every_months = 3}),
                         "rolling.model = \"none\": must be given when rolling.every_months = 3 < 12 (the horizon's "
                         "months): a re-solve needs futures continuing from the month seen",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(rolling_replan(fitted, fitted, offering, {}, {.every_months = 0}),
                         "rolling.every_months = 0: must be >= 1", InvalidInput);
    RecommendOptions spot = options;
    spot.spot = {{.name = "spot"}};
    CHECK_THROWS_WITH_AS(rolling_replan(fitted, fitted, offering, spot, {.every_months = 12}),
                         "options.spot = \"given\": must be empty: the rolling policy re-solves reservations only",
                         InvalidInput);
    RecommendOptions flex = options;
    flex.flex_start = FlexStartOption{.discount = 0.3, .grant_probability = 0.5};
    CHECK_THROWS_WITH_AS(rolling_replan(fitted, fitted, offering, flex, {.every_months = 12}),
                         "options.flex_start = \"given\": must be empty: the rolling policy re-solves reservations only",
                         InvalidInput);
    RecommendOptions limited = options;
    limited.limits.cvar95 = 1e6;
    CHECK_THROWS_WITH_AS(rolling_replan(fitted, fitted, offering, limited, {.every_months = 12}),
                         "options.limits.cvar95 = \"given\": must be empty: the rolling policy re-solves without risk limits",
                         InvalidInput);
}
