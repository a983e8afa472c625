// Flex-start requests in the recommender (RecommendOptions::flex_start): chosen for a dated window where
// they pay, beside 1-month terms, spot and on demand, equal to brute force priced by the engine (which
// draws the same grants per future), and a case worked by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "brute_force_plans.hpp"
#include "plan_fixtures.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

/// Per future, the on-demand and spot prices step once at a random month by a random factor.
PricePaths stepped_paths(Xoshiro256pp& engine, int months, std::size_t futures) {
    PricePaths p;
    p.on_demand.setOnes(months, Eigen::Index(futures));
    p.spot.setOnes(months, Eigen::Index(futures));
    p.reserved.setOnes(months, Eigen::Index(futures));
    for (std::size_t f = 0; f < futures; ++f) {
        const int at = test::uniform_int(engine, 0, months - 1);
        const double od = test::uniform(engine, 0.7, 1.2), spot = test::uniform(engine, 0.5, 1.5);
        for (int m = at; m < months; ++m) {
            p.on_demand(m, Eigen::Index(f)) = od;
            p.spot(m, Eigen::Index(f)) = spot;
        }
    }
    return p;
}

}  // namespace

TEST_CASE("a 5-day window of 8 GPUs: a flex-start request when granted for sure, worked by hand") {
    // 8-GPU instances at $16 an instance-hour ($2 a GPU-hour), no steady demand, one month; a request
    // at 40% off: 8 GPUs × 120 h × 1.20 = 1,152 against the window on demand 8 × 120 × 2 = 1,920.
    const Offering offering = test::plan_test_offering_in_instances(8);
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(1)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.3,
                            .term_months = 1}};
    options.start_months = {0};
    options.plan_options.windows = {{.start_day = 10, .days = 5, .gpus = 8}};
    options.plan_options.threads = 1;
    options.flex_start = FlexStartOption{.discount = 0.4, .grant_probability = 1.0};
    const Recommendation r = recommend_plan(futures, offering, options);
    REQUIRE(r.plan.flex_starts.size() == 1);
    CHECK(r.plan.flex_starts[0].gpus == 8);
    CHECK(r.plan.flex_starts[0].start_day == 10);
    CHECK(r.plan.flex_starts[0].days == 5);
    CHECK(r.plan.commitments.empty());
    CHECK(r.in_sample.total.mean == Approx(1152).epsilon(1e-12));
    CHECK(r.solver_objective == Approx(1152).epsilon(1e-12));
    // At 10% off a month term at 30% off serves the window for less?  No: a month of 8 GPUs at 1.40 is
    // 8,176 > 8 × 120 × 1.80 = 1,728, so the request stays.
    options.flex_start->discount = 0.1;
    CHECK(recommend_plan(futures, offering, options).in_sample.total.mean == Approx(1728).epsilon(1e-12));

    // The rules, by name.
    CHECK_THROWS_WITH_AS(hindsight_plan_totals(futures, offering, options),
                         "options.flex_start = \"given\": must be empty for the hindsight bound: it solves each "
                         "future alone and cannot draw its grants yet",
                         InvalidInput);
    options.flex_start->grant_probability = 0;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.flex_start.grant_probability = 0: must be in (0, 1]", InvalidInput);
    options.flex_start->grant_probability = 1;
    options.flex_start->discount = 1;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.flex_start.discount = 1: must be in [0, 1) (off the on-demand price)", InvalidInput);
    options.flex_start->discount = 0.4;
    options.plan_options.windows.clear();
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.plan_options.windows.size = 0: must be >= 1 with options.flex_start (a request is "
                         "made for a dated window of demand)",
                         InvalidInput);
}

TEST_CASE("over 60 random small problems with a dated window, flex-start requests granted per future, 1-month "
          "terms and spot, the recommendation equals brute force priced by the engine") {
    Xoshiro256pp engine(2712);
    const int months = 3;
    const std::size_t count = 4;
    int with_flex = 0, without_flex = 0, cvar_trials = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int g = test::uniform_int(engine, 1, 2);
        const Offering offering = test::plan_test_offering_in_instances(g);
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 6);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        const PricePaths prices = stepped_paths(engine, months, count);
        // Whole instances of window GPUs: billed per instance, the recommender requires them.
        const int window_gpus = test::uniform_int(engine, 1, 4);
        const DemandWindow window{.start_day = test::uniform(engine, 0, 80), .days = test::uniform(engine, 0.5, 10),
                                  .gpus = double(g * ((window_gpus + g - 1) / g))};
        RecommendOptions options;
        const double discount = test::uniform(engine, 0.05, 0.45);
        options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = discount,
                                .term_months = 1}};
        options.start_months = {0, 2};
        options.max_count = 2;
        options.unit = g > 1 ? CountUnit::instances : CountUnit::gpus;
        options.plan_options.windows = {window};
        options.plan_options.threads = 1;
        options.plan_options.seed = std::uint64_t(trial);
        options.flex_start = FlexStartOption{.discount = test::uniform(engine, 0.0, 0.7),
                                             .grant_probability = test::uniform(engine, 0.2, 1.0)};
        const bool with_spot = trial % 2 == 0;
        const double overhead = test::uniform(engine, 1, 2), availability = test::uniform(engine, 0.3, 1);
        if (with_spot)
            options.spot = {{.name = "spot", .overhead = overhead, .availability = availability,
                             .price_per_gpu_hour = {}, .deadline_miss_probability = {}}};
        PlanOptions engine_options = options.plan_options;
        const bool with_cvar = trial % 3 == 2;
        Plan on_demand;  // billed as the recommender bills (per instance when it counts in instances)
        if (g > 1) on_demand.billing = Units::instances;
        const double on_demand_cvar = evaluate_plan(on_demand, futures, offering, prices, engine_options).total.cvar95;
        if (with_cvar) options.limits.cvar95 = on_demand_cvar * test::uniform(engine, 0.9, 1.0);
        const FlexStartRequest request{.gpus = double(g), .start_day = window.start_day,
                                       .days = std::min(window.days, FlexStartRequest::max_days),
                                       .discount = options.flex_start->discount,
                                       .grant_probability = options.flex_start->grant_probability};

        // Brute force: every count of each term and of the request, and every spot count where the cost
        // can turn (an hour's demand, window included or not, less the capacity the plan can have there).
        std::optional<SpotShare> spot;
        if (with_spot)
            spot = SpotShare{.gpus = 0, .price_per_gpu_hour = {}, .overhead = overhead, .availability = availability,
                             .periods = {}};
        test::BruteForce brute(futures, offering, prices, engine_options, spot, options.limits.cvar95);
        brute.billed_per_instance(g);  // as the recommender bills when it counts in instances
        for (int first = 0; first <= 2; ++first)
            for (int second = 0; second <= 2; ++second)
                for (int flex = 0; flex <= 2; ++flex) {
                    Plan plan;
                    for (const auto& [units, start] : {std::pair{first, 0}, std::pair{second, 2}})
                        if (units > 0)
                            plan.commitments.push_back({.count = double(units), .unit = options.unit, .term_years = 1,
                                                        .payment = Payment::no_upfront, .start_month = start,
                                                        .renewal = Renewal::lapse, .reservation_discount = discount,
                                                        .offering = {}, .term_months = 1});
                    if (flex > 0) {
                        plan.flex_starts.push_back(request);
                        plan.flex_starts.back().gpus = double(flex * g);
                    }
                    std::set<double> turns;
                    for (int m = 0; m < months; ++m) {
                        const double committed = g * ((m == 0 ? first : 0) + (m == 2 ? second : 0));
                        for (double extra : {0.0, window.gpus})
                            for (double flexed : {0.0, double(flex * g)})
                                test::add_spot_turns(turns, futures, m, committed + flexed, extra);
                    }
                    brute.consider(plan, turns);
                }
        const double best = brute.found() ? brute.best() : 1e300;
        const Plan& best_plan = brute.best_plan();
        INFO("trial " << trial << (with_cvar ? ", CVaR95 limit" : "") << "; brute force: " << describe(best_plan));
        if (best == 1e300) {
            CHECK_THROWS_AS(recommend_plan(futures, offering, options, prices), InvalidInput);
            continue;
        }
        cvar_trials += with_cvar;
        (best_plan.flex_starts.empty() ? without_flex : with_flex) += 1;
        const Recommendation r = recommend_plan(futures, offering, options, prices);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("recommended: " << describe(shown));
        CHECK(r.proven_optimal);
        CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
    }
    CHECK(with_flex >= 15);  // the draws make requests pay, and not pay, often enough to test both
    CHECK(without_flex >= 5);
    CHECK(cvar_trials >= 10);
}
