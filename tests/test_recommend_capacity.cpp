// The recommender under a capacity-assurance limit (docs/models.md, section 8): a hand-worked case,
// the frontier of price against assurance, and random small problems against brute force priced by
// the plan engine under the same limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "plan_fixtures.hpp"
#include "gputco/engines/capacity_risk.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

/// 4 GPUs busy every hour for a year, one future.
DemandFutures flat_four() {
    DemandModel model;
    model.base_gpus = 4;
    model.monthly_log_volatility = 0;
    return DemandFutures::generate(model, Horizon::months(12), 1, 7);
}

/// A 1-year no-upfront commitment at 20% off ($1.60/h), spot at $0.60/h there half the time, on demand
/// ($2.00/h) missing 20% of the time.
RecommendOptions hand_options() {
    RecommendOptions o;
    o.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.2}};
    o.start_months = {0};
    o.spot = {{.name = "spot", .overhead = 1, .availability = 0.5, .price_per_gpu_hour = 0.6,
               .deadline_miss_probability = {}}};
    o.on_demand_capacity = {.unavailable_share = 0.2, .mean_wait_hours = 2, .source = "assumption"};
    o.plan_options.threads = 1;
    return o;
}

}  // namespace

TEST_CASE("hand-worked: the cheapest plan whose capacity assurance meets each level") {
    // Per GPU-hour: committed $1.60; a spot GPU serves half the hours at $0.60 and falls back to on
    // demand ($2.00) in the other half, 0.5 × 0.6 + 0.5 × 2 = $1.30. With c committed GPUs and 4 − c on
    // spot, on-demand capacity serves 0.5 (4 − c) of the 4 GPU-hours each hour, so
    //   assurance = 1 − 0.2 × 0.5 (4 − c) / 4 = 0.9 + 0.025 c,
    //   cost a year = 8,760 × (1.60 c + 1.30 (4 − c)) = 45,552 + 2,628 c.
    // No limit: c = 0, $45,552 at 0.9. At least 0.95: c >= 2, $50,808 at 0.95; 0.97: c >= 2.8, so 3,
    // $53,436 at 0.975; 1: c = 4, $56,064. All on demand is $70,080 at 1 − 0.2 = 0.8.
    const DemandFutures futures = flat_four();
    const Offering offering = test::plan_test_offering();
    const RecommendOptions options = hand_options();

    const Recommendation free = recommend_plan(futures, offering, options);
    CHECK(free.in_sample.total.mean == Approx(45'552.0));
    CHECK(free.capacity_assurance == Approx(0.9));
    CHECK(free.plan.commitments.empty());

    const std::vector<double> levels{0.5, 0.95, 0.97, 1.0};
    const std::vector<AssurancePoint> frontier = capacity_assurance_frontier(futures, offering, levels, options);
    REQUIRE(frontier.size() == 4);
    const std::vector<double> cost{45'552.0, 50'808.0, 53'436.0, 56'064.0}, assurance{0.9, 0.95, 0.975, 1.0},
        committed{0, 2, 3, 4};
    for (std::size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        REQUIRE(frontier[i].feasible);
        CHECK(frontier[i].required == levels[i]);
        CHECK(frontier[i].mean == Approx(cost[i]));
        CHECK(frontier[i].assurance == Approx(assurance[i]));
        double count = 0;
        for (const Commitment& c : frontier[i].recommended.commitments) count += c.count;
        CHECK(count == committed[i]);
        // The engine's own figure for the plan the point holds.
        CHECK(capacity_assurance(frontier[i].recommended, futures, offering, options.on_demand_capacity) ==
              Approx(assurance[i]));
    }
}

TEST_CASE("capacity assurance in the engine: reservations and spot's hours are there, Savings Plans' are on demand") {
    const DemandFutures futures = flat_four();
    const Offering offering = test::plan_test_offering();
    const OnDemandCapacity capacity{.unavailable_share = 0.2, .mean_wait_hours = 2, .source = "assumption"};
    CHECK(capacity_assurance(Plan{}, futures, offering, capacity) == Approx(0.8));
    Plan plan;
    plan.commitments.push_back({.count = 1, .unit = CountUnit::gpus, .term_years = 1, .payment = Payment::all_upfront,
                                .start_month = 0, .renewal = Renewal::lapse, .reservation_discount = {}, .offering = {}});
    // 1 of 4 GPUs reserved: on-demand capacity serves 3/4, 1 − 0.2 × 0.75 = 0.85.
    CHECK(capacity_assurance(plan, futures, offering, capacity) == Approx(0.85));
    // A Savings Plan covering 2 more GPUs ($1.20/GPU-hour) is a price on on-demand capacity: still 0.85.
    plan.savings_plans.push_back({.commitment_per_hour = 2.4, .type = SavingsPlanType::aws_compute, .term_years = 1,
                                  .payment = Payment::no_upfront, .start_month = 0, .renewal = Renewal::lapse,
                                  .rate_per_gpu_hour = 1.2});
    CHECK(capacity_assurance(plan, futures, offering, capacity) == Approx(0.85));
    // Spot on the last GPU, there 60% of the hours: on demand serves 2 + 0.4 of 4, 1 − 0.2 × 0.6 = 0.88.
    plan.spot = SpotShare{.gpus = 1, .price_per_gpu_hour = {}, .overhead = 1, .availability = 0.6, .periods = {}};
    CHECK(capacity_assurance(plan, futures, offering, capacity) == Approx(0.88));
    // On demand always there: every plan is fully assured.
    CHECK(capacity_assurance(Plan{}, futures, offering, OnDemandCapacity{}) == 1.0);
}

TEST_CASE("with Savings Plans to buy, the programme counts only reservations as capacity set aside") {
    // A Savings Plan at $1.20/GPU-hour is cheaper than the $1.60 commitment but leaves its hours on
    // on-demand capacity. Without spot: assurance = 1 − 0.2 (4 − c) / 4 = 0.8 + 0.05 c; at least 0.9
    // needs c = 2 committed, the other 2 GPUs on the Savings Plan: 8,760 × (2 × 1.6 + 2 × 1.2) = $49,056.
    const DemandFutures futures = flat_four();
    Offering offering = test::plan_test_offering();
    RecommendOptions options = hand_options();
    options.spot.clear();  // with spot the hand case's all-spot plan (0.9) would win
    options.savings_plans = {{.type = SavingsPlanType::aws_compute, .term_years = 1, .payment = Payment::no_upfront,
                              .rate_per_gpu_hour = 1.2}};
    options.limits.capacity_assurance = 0.9;
    const Recommendation r = recommend_plan(futures, offering, options);
    CHECK(r.in_sample.total.mean == Approx(49'056.0));
    CHECK(r.capacity_assurance == Approx(0.9));
    REQUIRE(r.plan.commitments.size() == 1);
    CHECK(r.plan.commitments[0].count == 2);
    CHECK(r.proven_optimal);
    // Unlimited, the Savings Plan takes all four: 8,760 × 4 × 1.2 = $42,048 at 0.8.
    options.limits.capacity_assurance.reset();
    const Recommendation free = recommend_plan(futures, offering, options);
    CHECK(free.in_sample.total.mean == Approx(42'048.0));
    CHECK(free.capacity_assurance == Approx(0.8));
}

TEST_CASE("a level no plan meets, and bad inputs, are errors naming the field") {
    const DemandFutures futures = flat_four();
    const Offering offering = test::plan_test_offering();
    RecommendOptions options = hand_options();
    options.max_count = 1;  // at most 1 committed GPU: 1 − 0.2 × 0.5 × 3 / 4 = 0.925 at best
    options.limits.capacity_assurance = 0.95;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         doctest::Contains("limits.capacity_assurance = 0.95: no plan meets it over these futures "
                                           "(all on demand has capacity assurance 0.800000 with "
                                           "options.on_demand_capacity.unavailable_share = 0.2"),
                         InvalidInput);
    const std::vector<AssurancePoint> points = capacity_assurance_frontier(futures, offering, {0.9, 0.95}, options);
    CHECK(points[0].feasible);
    CHECK(points[0].assurance == Approx(0.9));  // all spot, as without a limit
    CHECK_FALSE(points[1].feasible);
    CHECK(std::isnan(points[1].mean));
    CHECK(points[1].reason.rfind("limits.capacity_assurance = 0.95: no plan meets it", 0) == 0);

    options.limits.capacity_assurance = 1.5;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options), "limits.capacity_assurance = 1.5: must be in [0, 1]",
                         InvalidInput);
    options.limits.capacity_assurance = 0.9;
    options.on_demand_capacity.unavailable_share = 1;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.on_demand_capacity.unavailable_share = 1: must be in [0, 1)", InvalidInput);
}

TEST_CASE("over 150 random small problems the recommendation under a capacity-assurance limit equals brute force "
          "priced by the engine") {
    Xoshiro256pp engine(3031);
    const int months = 8;
    PlanOptions one_thread;
    one_thread.threads = 1;
    const std::size_t count = 3;
    int binding = 0;
    for (int trial = 0; trial < 150; ++trial) {
        const int gpus_per_instance = test::uniform_int(engine, 1, 2);
        const Offering offering = test::plan_test_offering_in_instances(gpus_per_instance);
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 8);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
        options.start_months = {0, 4};
        options.max_count = 2;
        options.unit = gpus_per_instance > 1 ? CountUnit::instances : CountUnit::gpus;
        const double overhead = test::uniform(engine, 1, 2), availability = test::uniform(engine, 0.3, 1);
        options.spot = {{.name = "spot", .overhead = overhead, .availability = availability, .price_per_gpu_hour = {},
                         .deadline_miss_probability = {}}};
        options.plan_options.threads = 1;
        const double u = test::uniform(engine, 0.02, 0.3);
        options.on_demand_capacity = {.unavailable_share = u, .mean_wait_hours = 1, .source = "test"};
        const double level = test::uniform(engine, 1.0 - u, 1.0);
        options.limits.capacity_assurance = level;
        const auto assurance = [&](const Plan& plan, const PlanDistribution& d) {
            return capacity_assurance(plan, d, futures, offering, options.on_demand_capacity, {}, one_thread);
        };

        // Brute force: every ladder, and every spot count where cost and assurance can turn (a month's
        // demand level less the committed GPUs, or none): both are linear in spot between them, so the
        // cheapest plan meeting the level is at a turn or where the assurance crosses the level.
        double best = 1e300, unlimited = 1e300;
        Plan best_plan;
        for (int first = 0; first <= 2; ++first)
            for (int second = 0; second <= 2; ++second) {
                Plan plan;
                // Billed per instance as the recommender bills when it counts in instances.
                if (gpus_per_instance > 1) plan.billing = Units::instances;
                for (const auto& [units, start] : {std::pair{first, 0}, std::pair{second, 4}})
                    if (units > 0)
                        plan.commitments.push_back({.count = double(units), .unit = options.unit, .term_years = 1,
                                                    .payment = Payment::all_upfront, .start_month = start,
                                                    .renewal = Renewal::lapse, .reservation_discount = {}, .offering = {}});
                std::set<double> spots{0.0};
                for (int m = 0; m < months; ++m) {
                    const double committed = gpus_per_instance * (first + (m >= 4 ? second : 0));
                    for (std::size_t f = 0; f < count; ++f)
                        for (double s : test::distinct_sorted(futures.shape(f, m).sorted))
                            spots.insert(std::max(0.0, futures.level(f, m) * s - committed));
                }
                const auto price = [&](double s) {
                    plan.spot.reset();
                    if (s > 0)
                        plan.spot = SpotShare{.gpus = s, .price_per_gpu_hour = {}, .overhead = overhead,
                                              .availability = availability, .periods = {}};
                    const PlanDistribution d = evaluate_plan(plan, futures, offering, {}, one_thread);
                    const double a = assurance(plan, d);
                    unlimited = std::min(unlimited, d.total.mean);
                    if (a >= level - 1e-9 && d.total.mean < best) best = d.total.mean, best_plan = plan;
                    return a;
                };
                if (gpus_per_instance > 1) {  // spot in whole instances: every count up to the largest turn
                    const double g = gpus_per_instance;
                    for (double k = 0; k <= std::ceil(*spots.rbegin() / g); ++k) price(k * g);
                    continue;
                }
                const std::vector<double> turns(spots.begin(), spots.end());
                std::vector<double> at;
                for (double s : turns) at.push_back(price(s) - level);
                for (std::size_t i = 0; i + 1 < turns.size(); ++i)
                    if (at[i] < 0 && at[i + 1] > 0)
                        price(turns[i] + at[i] / (at[i] - at[i + 1]) * (turns[i + 1] - turns[i]));
            }
        INFO("trial " << trial << ", level " << level << ", u " << u << "; brute force: " << describe(best_plan));
        if (best == 1e300) {
            CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                                 doctest::Contains("limits.capacity_assurance"), InvalidInput);
            continue;
        }
        binding += best > unlimited * (1 + 1e-9);
        const Recommendation r = recommend_plan(futures, offering, options);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("recommended: " << describe(shown) << " at assurance " << r.capacity_assurance);
        CHECK(r.proven_optimal);
        CHECK(r.capacity_assurance >= level - 1e-9);
        CHECK(r.capacity_assurance == Approx(assurance(r.plan, r.in_sample)).epsilon(1e-12));
        CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
    }
    CHECK(binding >= 30);  // the limit changes the answer in many of the draws (38 of 150)
}

TEST_CASE("with Savings Plans and spot under the limit (the exact concave term), the recommendation meets the level in "
          "the engine and is no dearer than any plan of a grid that meets it") {
    Xoshiro256pp engine(4031);
    const int months = 8;
    PlanOptions one_thread;
    one_thread.threads = 1;
    const std::size_t count = 2;
    int with_both = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const Offering offering = test::plan_test_offering();
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 5);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
        options.start_months = {0};
        options.max_count = 3;
        const double rate = test::uniform(engine, 0.5, 1.1);
        options.savings_plans = {{.type = SavingsPlanType::aws_compute, .term_years = 1,
                                  .payment = Payment::no_upfront, .rate_per_gpu_hour = rate}};
        const double spot_price = test::uniform(engine, 0.3, 0.9), availability = test::uniform(engine, 0.3, 0.95);
        options.spot = {{.name = "spot", .overhead = 1, .availability = availability, .price_per_gpu_hour = spot_price,
                         .deadline_miss_probability = {}}};
        options.plan_options.threads = 1;
        const double u = test::uniform(engine, 0.05, 0.3);
        options.on_demand_capacity = {.unavailable_share = u, .mean_wait_hours = 1, .source = "test"};
        const double level = test::uniform(engine, 1.0 - u, 1.0 - 0.4 * u);
        options.limits.capacity_assurance = level;
        double best = 1e300;
        for (int c = 0; c <= 3; ++c)
            for (int g = 0; g <= 12; ++g)
                for (int s = 0; s <= 12; ++s) {
                    Plan plan;
                    if (c > 0)
                        plan.commitments.push_back({.count = double(c), .unit = CountUnit::gpus, .term_years = 1,
                                                    .payment = Payment::all_upfront, .start_month = 0,
                                                    .renewal = Renewal::lapse, .reservation_discount = {}, .offering = {}});
                    if (g > 0)
                        plan.savings_plans.push_back({.commitment_per_hour = 0.5 * g * rate,
                                                      .type = SavingsPlanType::aws_compute, .term_years = 1,
                                                      .payment = Payment::no_upfront, .start_month = 0,
                                                      .renewal = Renewal::lapse, .rate_per_gpu_hour = rate});
                    if (s > 0)
                        plan.spot = SpotShare{.gpus = 0.5 * s, .price_per_gpu_hour = spot_price, .overhead = 1,
                                              .availability = availability, .periods = {}};
                    const PlanDistribution d = evaluate_plan(plan, futures, offering, {}, one_thread);
                    if (d.total.mean < best &&
                        capacity_assurance(plan, d, futures, offering, options.on_demand_capacity, {}, one_thread) >=
                            level)
                        best = d.total.mean;
                }
        INFO("trial " << trial << ", level " << level << ", u " << u);
        if (best == 1e300) continue;
        const Recommendation r = recommend_plan(futures, offering, options);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("recommended: " << describe(shown) << " at assurance " << r.capacity_assurance);
        CHECK(r.proven_optimal);
        CHECK(r.capacity_assurance >= level - 1e-9);
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
        CHECK(r.in_sample.total.mean <= best * (1 + 1e-9));
        with_both += !r.plan.savings_plans.empty() && r.plan.spot.has_value();
    }
    CHECK(with_both >= 5);  // the case with the concave term is common among the draws
}
