// Owned hardware as a decision of the recommender: the optimum over owned purchases, commitments and
// on demand equals exhaustive enumeration priced by the plan engine.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "plan_fixtures.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

/// Busy all day on weekdays, 40% at weekends (two hourly levels: the programme is exact), 6 GPUs
/// growing, an event of +4 GPUs in the first half year with probability 0.5.
DemandModel weekday_model() {
    DemandModel model;
    model.base_gpus = 6;
    model.monthly_log_growth = 0.02;
    model.monthly_log_volatility = 0.1;
    model.events.push_back({.gpus = 4, .probability = 0.5, .first_month = 0, .last_month = 5});
    model.hour_of_week.assign(168, 1.0);
    for (std::size_t h = 120; h < 168; ++h) model.hour_of_week[h] = 0.4;
    return model;
}

/// About $0.9 a GPU-hour (30,000 × 0.9 / 48 a month, power, colocation), below the 1-year
/// reservation's $1, but $600 a month of staff per purchase: a second purchase must earn its staff.
Owned servers() {
    Owned owned;
    owned.capex_per_gpu = 30'000;
    owned.life_years = 4;
    owned.residual_fraction = 0.1;
    owned.watts_per_gpu = 400;
    owned.idle_power_fraction = 0.3;
    owned.pue = 1.3;
    owned.electricity_per_kwh = 0.12;
    owned.colocation_per_gpu_month = 50;
    owned.staff_per_month = 600;
    return owned;
}

}  // namespace

TEST_CASE("owned hardware as a decision: the optimiser equals exhaustive enumeration priced by the engine") {
    // Owned at months 0 and 6 (0..9 GPUs) and 1-year reservations at months 0 and 6 (0..3 GPUs):
    // 10^2 × 4^2 = 1,600 plans.
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = DemandFutures::generate(weekday_model(), Horizon::months(18), 5, 17);
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
    options.start_months = {0, 6};
    options.max_count = 3;
    options.owned = OwnedOption{.terms = servers(), .months = {0, 6}, .max_gpus = 9, .step_gpus = 1};
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    CHECK(r.proven_optimal);

    double best = 1e300;
    Plan best_plan;
    std::vector<double> best_per_future(futures.count(), 1e300);
    for (int code = 0; code < 1600; ++code) {
        Plan plan;
        int rest = code;
        for (int month : {0, 6}) {
            const int owned = rest % 10, reserved = rest / 10 % 4;
            rest /= 40;
            if (owned > 0) plan.owned.push_back({.gpus = double(owned), .month = month, .terms = servers()});
            if (reserved > 0)
                plan.commitments.push_back({.count = double(reserved), .unit = CountUnit::gpus, .term_years = 1,
                                            .payment = Payment::all_upfront, .start_month = month,
                                            .renewal = Renewal::lapse, .reservation_discount = {}, .offering = {}});
        }
        const PlanDistribution d = evaluate_plan(plan, futures, offering, {}, options.plan_options);
        for (std::size_t f = 0; f < futures.count(); ++f)
            best_per_future[f] = std::min(best_per_future[f], d.futures[f].total);
        if (d.total.mean < best) {
            best = d.total.mean;
            best_plan = plan;
        }
    }
    INFO("enumeration's best: " << describe(best_plan) << ", optimiser's: " << describe(r.plan));
    CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
    // The programme prices owned GPUs as the engine does (capex, resale, busy and idle power, staff).
    CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
    CHECK(!r.plan.owned.empty());        // the case is not trivial: some owned,
    CHECK(!best_plan.owned.empty());
    double owned_gpus = 0;  // but not everything at its maximum (9 owned GPUs at each month)
    for (const OwnedPurchase& o : best_plan.owned) owned_gpus += o.gpus;
    CHECK(owned_gpus < 18);
    CHECK(!best_plan.commitments.empty());  // reservations above the owned GPUs (8 owned + 1 reserved @6 here)

    // With a CVaR95 limit that does not bind, the per-future formulation gives the same optimum.
    RecommendOptions limited = options;
    limited.limits.cvar95 = 1e12;
    const Recommendation c = recommend_plan(futures, offering, limited);
    CHECK(c.in_sample.total.mean == Approx(best).epsilon(1e-9));
    CHECK(c.solver_objective == Approx(c.in_sample.total.mean).epsilon(1e-9));

    // The best plan in hindsight, future by future, is the enumeration's best in each future.
    const HindsightBound bound = hindsight_plan_totals(futures, offering, options);
    CHECK(bound.exact);
    REQUIRE(bound.totals.size() == futures.count());
    for (std::size_t f = 0; f < futures.count(); ++f) {
        CAPTURE(f);
        CHECK(bound.totals[f] == Approx(best_per_future[f]).epsilon(1e-9));
    }
}

TEST_CASE("owned capex counts against the upfront limit; too many combinations is an error naming the option") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = DemandFutures::generate(weekday_model(), Horizon::months(12), 3, 5);
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
    options.start_months = {0, 6};
    options.owned = OwnedOption{.terms = servers(), .months = {0, 6}, .max_gpus = 4, .step_gpus = 1};
    options.limits.upfront_per_period = 65'000;  // two servers' capex (60,000) in a quarter, not three
    const Recommendation r = recommend_plan(futures, offering, options);
    for (int quarter = 0; quarter < 4; ++quarter) {
        double paid = 0;  // capex $30,000 a GPU; the 1-year all-upfront reservation $8,760 a GPU
        for (const OwnedPurchase& o : r.plan.owned)
            if (o.month / 3 == quarter) paid += 30'000 * o.gpus;
        for (const Commitment& k : r.plan.commitments)
            if (k.start_month / 3 == quarter) paid += 8'760 * k.count;
        CHECK(paid <= 65'000 * (1 + 1e-9));
    }
    CHECK(r.in_sample.total.mean <= evaluate_plan(Plan{}, futures, offering).total.mean);

    options.owned->months = {0, 1, 2, 3, 4, 5, 6};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.owned.combinations = 78125: must be <= 4096 (each is a solve: fewer months, a "
                         "lower max_gpus or a larger step_gpus)",
                         InvalidInput);
    options.owned->months = {12};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.owned.months[0] = 12: must be in [0, 12) (the horizon's months)", InvalidInput);
    options.owned->months = {0};
    options.owned->step_gpus = 0;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options), "options.owned.step_gpus = 0: must be >= 1",
                         InvalidInput);
    // Counted in whole instances the plan is billed per instance, and owned GPUs serve first: each count
    // must end at a whole instance.
    options.owned->step_gpus = 2;
    options.unit = CountUnit::instances;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, test::plan_test_offering_in_instances(8), options),
                         "options.owned.step_gpus = 2: must cover a whole number of instances (2 GPUs: 0.25 instances "
                         "of 8) when the recommender counts in instances (options.unit = instances), which bills on "
                         "demand and spot per instance above the tiers held",
                         InvalidInput);
}
