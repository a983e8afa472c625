// Savings Plans in the recommender: a $/hour level chosen beside reservations and spot, equal to brute
// force over the levels; and the providers' Savings Plan recommendation, worked by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "plan_fixtures.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;
using doctest::Approx;

TEST_CASE("over 60 random small problems the Savings Plan level equals brute force priced by the engine") {
    Xoshiro256pp engine(2027);
    const int months = 12;
    const std::size_t count = 3;
    PlanOptions one_thread;
    one_thread.threads = 1;
    int bought = 0;
    for (int trial = 0; trial < 60; ++trial) {
        Offering offering = test::plan_test_offering();
        const bool reservations = trial % 2 == 1;  // half the trials: the SP beside a 1-year reservation
        if (!reservations) offering.reserved.clear();
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 8);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        const double rate = test::uniform(engine, 0.6, 1.9);  // on demand is 2.00
        const Payment payment = std::array{Payment::no_upfront, Payment::partial_upfront,
                                           Payment::all_upfront}[std::size_t(test::uniform_int(engine, 0, 2))];
        RecommendOptions options;
        if (reservations) options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
        options.savings_plans = {{.type = SavingsPlanType::aws_compute, .term_years = 1, .payment = payment,
                                  .rate_per_gpu_hour = rate}};
        options.start_months = {0};
        options.plan_options.threads = 1;
        // Brute force: the engine's total is piecewise linear in the GPUs the plan covers (and in the
        // reserved GPUs), turning only at the futures' hourly demand levels: try every one, and 0.
        std::set<double> levels{0.0};
        for (std::size_t f = 0; f < count; ++f)
            for (int m = 0; m < months; ++m)
                for (double s : futures.shape(f, m).sorted) levels.insert(futures.level(f, m) * s);
        double best = 1e300;
        const double peak = *levels.rbegin();
        for (int reserved = 0; reserved <= (reservations ? int(std::ceil(peak)) : 0); ++reserved)
            for (double level : levels) {
                if (level < reserved && level > 0) continue;  // 0 stands for "no Savings Plan"
                Plan plan;
                if (reserved > 0)
                    plan.commitments.push_back({.count = double(reserved), .term_years = 1, .payment = Payment::all_upfront});
                if (level > reserved)
                    plan.savings_plans.push_back({.commitment_per_hour = (level - reserved) * rate, .payment = payment,
                                                  .rate_per_gpu_hour = rate});
                best = std::min(best, evaluate_plan(plan, futures, offering, {}, one_thread).total.mean);
            }
        const Recommendation r = recommend_plan(futures, offering, options);
        CAPTURE(trial);
        CAPTURE(rate);
        INFO("recommended: " << describe(r.plan));
        CHECK(r.proven_optimal);
        CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
        bought += !r.plan.savings_plans.empty();
    }
    CHECK(bought >= 20);  // the draws exercise plans that are bought, not only none
}

TEST_CASE("the providers' Savings Plan recommendation, by hand") {
    // Ten hours of usage (GPUs): 0 0 1 2 2 3 4 4 4 6; on demand 2.00, the plan's rate 1.20 per GPU-hour.
    // Covering c GPUs saves 2 Σ min(u, c) − 1.2 × 10 c; right of c the slope is 2 × #(u > c) − 12:
    //   c = 0: 2 × 8 − 12 = 4 > 0; c = 1: 2 × 7 − 12 = 2 > 0; c = 2: 2 × 5 − 12 = −2: stop at c = 2.
    // Savings: c = 1 → 2 × 8 − 12 = 4; c = 2 → 2 × 15 − 24 = 6; c = 3 → 2 × 20 − 36 = 4. Commitment
    // 2 × 1.20 = 2.40 per hour.
    const std::vector<double> window{0, 0, 1, 2, 2, 3, 4, 4, 4, 6};
    CHECK(provider_savings_plan_advice(window, 0, 1.2, 2.0) == Approx(2.4));
    // With 1 GPU already held: 0 0 0 1 1 2 3 3 3 5; c = 0: 2 × 7 − 12 = 2 > 0; c = 1: 2 × 5 − 12 < 0:
    // c = 1, 1.20 per hour.
    CHECK(provider_savings_plan_advice(window, 1, 1.2, 2.0) == Approx(1.2));
    // No saving when the plan is no cheaper than on demand, or nothing is used.
    CHECK(provider_savings_plan_advice(window, 0, 2.0, 2.0) == 0);
    CHECK(provider_savings_plan_advice({}, 0, 1.2, 2.0) == 0);
    // A tie (slope exactly 0 at c = 1 with rate 1.4: 2 × 7 − 14 = 0) goes to the smaller commitment.
    CHECK(provider_savings_plan_advice(window, 0, 1.4, 2.0) == Approx(1.4));
    CHECK_THROWS_WITH_AS(provider_savings_plan_advice(window, 0, 0, 2.0), "rate = 0: must be finite and > 0", InvalidInput);
}

TEST_CASE("the providers' Savings Plan baselines over 7, 30 and 60 days") {
    // Two months of history (1,460 h): the first at 4 GPUs, the second at 2; rate 1.2 against 2.00.
    Eigen::ArrayXd history(2 * 730);
    history.head(730) = 4;
    history.tail(730) = 2;
    const Offering offering = test::plan_test_offering();
    const SavingsPlanOption option{.type = SavingsPlanType::aws_compute, .term_years = 1, .rate_per_gpu_hour = 1.2};
    const std::vector<Plan> plans = savings_plan_baselines(DemandProfile::hourly(history), offering, option);
    REQUIRE(plans.size() == 3);
    // 7 and 30 days (168 and 720 h): every hour at 2 GPUs, so 2 GPUs → 2.40/h. 60 days (the last 1,440 h:
    // 710 at 4, 730 at 2): a third or fourth GPU saves 2 × 710 − 1.2 × 1,440 = −308 < 0: 2 GPUs again.
    for (const Plan& p : plans) {
        REQUIRE(p.savings_plans.size() == 1);
        CHECK(p.savings_plans[0].commitment_per_hour == Approx(2.4));
        CHECK(p.savings_plans[0].renewal == Renewal::renew);
    }
    CHECK(plans[0].name == "Savings Plan lookback 7 days: 2.400/h aws_compute 1y no_upfront");
    // A cheaper plan (rate 0.9): over 60 days the 3rd and 4th GPU each save 2 × 710 − 0.9 × 1,440 = 124.
    const std::vector<Plan> cheap = savings_plan_baselines(DemandProfile::hourly(history), offering,
                                                           {.type = SavingsPlanType::aws_compute, .rate_per_gpu_hour = 0.9});
    CHECK(cheap[1].savings_plans[0].commitment_per_hour == Approx(1.8));
    CHECK(cheap[2].savings_plans[0].commitment_per_hour == Approx(3.6));
}

TEST_CASE("Savings Plan options are checked and named") {
    DemandModel model;
    model.base_gpus = 4;
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(12), 2, 1);
    RecommendOptions options;
    options.savings_plans = {{.type = SavingsPlanType::aws_compute, .term_years = 2, .rate_per_gpu_hour = 1.0}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, test::plan_test_offering(), options),
                         "options.savings_plans[0].term_years = 2: must be 1 or 3", InvalidInput);
    options.savings_plans = {{.type = SavingsPlanType::aws_ec2_instance, .term_years = 1}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, test::plan_test_offering(), options),
                         "options.savings_plans[0].rate_per_gpu_hour = \"none\": offering testcloud/test-1/g1 lists no "
                         "aws_ec2_instance 1-year no_upfront Savings Plan rate; set it",
                         InvalidInput);
}

TEST_CASE("a Savings Plan level obeys the upfront limit as reservations do") {
    // Demand 5 GPUs every hour for a year; on demand 2.00, a 1-year all-upfront plan at 1.00 per GPU-hour:
    // unlimited, it covers all 5 GPUs ($5/h, upfront 5 × 8,760 = 43,800). With at most 17,520 upfront in
    // the year it covers 17,520 / 8,760 = 2 GPUs: $2/h.
    Offering offering = test::plan_test_offering();
    offering.reserved.clear();
    DemandModel model;
    model.base_gpus = 5;
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(12), 2, 3);
    RecommendOptions options;
    options.savings_plans = {{.type = SavingsPlanType::aws_compute, .term_years = 1, .payment = Payment::all_upfront,
                              .rate_per_gpu_hour = 1.0}};
    options.start_months = {0};
    options.plan_options.threads = 1;
    const Recommendation free = recommend_plan(futures, offering, options);
    REQUIRE(free.plan.savings_plans.size() == 1);
    CHECK(free.plan.savings_plans[0].commitment_per_hour == Approx(5.0));
    CHECK(free.in_sample.mean_months[0].upfront == Approx(43800.0));
    options.limits.upfront_per_period = 17520;
    options.limits.upfront_period_months = 12;
    const Recommendation limited = recommend_plan(futures, offering, options);
    REQUIRE(limited.plan.savings_plans.size() == 1);
    CHECK(limited.plan.savings_plans[0].commitment_per_hour == Approx(2.0));
    CHECK(limited.in_sample.mean_months[0].upfront == Approx(17520.0));
}
