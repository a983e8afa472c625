// The recommender prices every instrument in every month as the plan engine does: price paths cutting
// and raising prices, spot dearer than on demand in some months, whole instances, CVaR limits.
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

using test::random_paths;

}  // namespace

TEST_CASE("over 210 random small problems the recommendation equals brute force priced by the engine, and so does "
          "the solver's objective") {
    Xoshiro256pp engine(2028);
    const int months = 8;
    PlanOptions one_thread;
    one_thread.threads = 1;
    const std::size_t count = 3;
    int dearer_trials = 0, cvar_trials = 0;
    for (int trial = 0; trial < 210; ++trial) {
        const int gpus_per_instance = test::uniform_int(engine, 1, 2);
        const Offering offering = test::plan_test_offering_in_instances(gpus_per_instance);
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 8);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        const PricePaths prices = random_paths(engine, months, count);
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
        options.start_months = {0, 4};
        options.max_count = 2;
        options.unit = gpus_per_instance > 1 ? CountUnit::instances : CountUnit::gpus;
        const double overhead = test::uniform(engine, 1, 2), availability = test::uniform(engine, 0.3, 1);
        options.spot = {{.name = "spot", .overhead = overhead, .availability = availability, .price_per_gpu_hour = {},
                         .deadline_miss_probability = {}}};
        options.plan_options.threads = 1;
        const bool with_cvar = trial % 3 == 2;
        const double on_demand_cvar = evaluate_plan(Plan{}, futures, offering, prices, one_thread).total.cvar95;
        if (with_cvar) options.limits.cvar95 = on_demand_cvar * test::uniform(engine, 0.8, 1.0);
        bool dearer = false;  // spot dearer than on demand in some future's month
        for (std::size_t f = 0; f < count; ++f)
            for (int m = 0; m < months; ++m)
                dearer = dearer || 0.8 * overhead * prices.spot(m, Eigen::Index(f)) > 2.0 * prices.on_demand(m, Eigen::Index(f));
        dearer_trials += dearer;

        // Brute force: every ladder, and every spot count where the cost can turn (a month's demand
        // level less the committed GPUs, or none): the cost is piecewise linear in spot between them.
        test::BruteForce brute(futures, offering, prices, one_thread,
                               SpotShare{.gpus = 0, .price_per_gpu_hour = {}, .overhead = overhead,
                                         .availability = availability, .periods = {}},
                               options.limits.cvar95);
        for (int first = 0; first <= 2; ++first)
            for (int second = 0; second <= 2; ++second) {
                Plan plan;
                for (const auto& [units, start] : {std::pair{first, 0}, std::pair{second, 4}})
                    if (units > 0)
                        plan.commitments.push_back({.count = double(units), .unit = options.unit, .term_years = 1,
                                                    .payment = Payment::all_upfront, .start_month = start,
                                                    .renewal = Renewal::lapse, .reservation_discount = {}, .offering = {}});
                std::set<double> turns;
                for (int m = 0; m < months; ++m)
                    test::add_spot_turns(turns, futures, m, gpus_per_instance * (first + (m >= 4 ? second : 0)));
                brute.consider(plan, turns);
            }
        const double best = brute.found() ? brute.best() : 1e300;
        const Plan& best_plan = brute.best_plan();
        INFO("trial " << trial << std::string(dearer ? ", spot dearer in some months" : "") << std::string(with_cvar ? ", CVaR95 limit" : "")
                      << "; brute force: " << describe(best_plan));
        if (best == 1e300) {
            CHECK_THROWS_AS(recommend_plan(futures, offering, options, prices), InvalidInput);
            continue;
        }
        cvar_trials += with_cvar;
        const Recommendation r = recommend_plan(futures, offering, options, prices);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("recommended: " << describe(shown));
        CHECK(r.proven_optimal);
        CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
    }
    CHECK(dearer_trials >= 100);  // the case this guards is common among the draws
    CHECK(cvar_trials >= 40);
}

TEST_CASE("a CVaR95 limit kept by cuts: over 60 random problems of 20 to 60 futures (the worst 1 to 3) the "
          "recommendation equals brute force priced by the engine") {
    Xoshiro256pp engine(2029);
    const int months = 8;
    PlanOptions one_thread;
    one_thread.threads = 1;
    int binding = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const std::size_t count = std::size_t(20 * test::uniform_int(engine, 1, 3));
        const Offering offering = test::plan_test_offering();
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 6);
        model.monthly_log_volatility = test::uniform(engine, 0.05, 0.4);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        const PricePaths prices = random_paths(engine, months, count);
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}},
                               {.term_years = 3, .payment = Payment::no_upfront, .reservation_discount = {}}};
        options.start_months = {0, 4};
        options.max_count = 2;
        options.plan_options.threads = 1;
        // Every ladder of 0..2 units per (option, start), priced by the engine.
        std::vector<Plan> ladders;
        std::vector<PlanDistribution> priced;
        for (int code = 0; code < 81; ++code) {
            Plan plan;
            int rest = code;
            for (const auto& [term, payment] : {std::pair{1, Payment::all_upfront}, std::pair{3, Payment::no_upfront}})
                for (int start : {0, 4}) {
                    const int units = rest % 3;
                    rest /= 3;
                    if (units > 0)
                        plan.commitments.push_back({.count = double(units), .unit = CountUnit::gpus, .term_years = term,
                                                    .payment = payment, .start_month = start, .renewal = Renewal::lapse,
                                                    .reservation_discount = {}, .offering = {}});
                }
            ladders.push_back(plan);
            priced.push_back(evaluate_plan(plan, futures, offering, prices, one_thread));
        }
        // The limit between the least CVaR95 of any ladder and that of the cheapest ladder: it binds.
        double lowest = 1e300, free_best = 1e300, free_cvar = 0;
        for (const PlanDistribution& d : priced) {
            lowest = std::min(lowest, d.total.cvar95);
            if (d.total.mean < free_best) free_best = d.total.mean, free_cvar = d.total.cvar95;
        }
        options.limits.cvar95 = test::uniform(engine, lowest, free_cvar);
        double best = 1e300;
        Plan best_plan;
        for (std::size_t i = 0; i < ladders.size(); ++i) {
            if (priced[i].total.cvar95 <= *options.limits.cvar95 * (1 + 1e-9) && priced[i].total.mean < best)
                best = priced[i].total.mean, best_plan = ladders[i];
        }
        binding += best > free_best * (1 + 1e-9);
        const Recommendation r = recommend_plan(futures, offering, options, prices);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("trial " << trial << ", " << count << " futures; brute force: " << describe(best_plan)
                      << "; recommended: " << describe(shown));
        CHECK(r.proven_optimal);
        CHECK(r.in_sample.total.cvar95 <= *options.limits.cvar95 * (1 + 1e-9));
        CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
    }
    CHECK(binding >= 30);  // the limit changes the answer in most draws
}

TEST_CASE("the hindsight bound, which solves only with spot when spot may be tried, equals recommend_plan on each "
          "future alone over 40 random problems (spot dearer in some months)") {
    Xoshiro256pp engine(2030);
    const int months = 8;
    for (int trial = 0; trial < 40; ++trial) {
        const Offering offering = test::plan_test_offering();
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 8);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), 4, std::uint64_t(trial));
        const PricePaths prices = random_paths(engine, months, 4);
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
        options.start_months = {0, 4};
        options.plan_options.threads = 1;
        options.spot = {{.name = "spot", .overhead = test::uniform(engine, 1, 2),
                         .availability = test::uniform(engine, 0.3, 1), .price_per_gpu_hour = {},
                         .deadline_miss_probability = {}}};
        const HindsightBound bound = hindsight_plan_totals(futures, offering, options, prices);
        CHECK(bound.exact);
        for (std::size_t f = 0; f < futures.count(); ++f) {
            PricePaths column;
            column.on_demand = prices.on_demand.col(Eigen::Index(f));
            column.spot = prices.spot.col(Eigen::Index(f));
            column.reserved = prices.reserved.col(Eigen::Index(f));
            const Recommendation alone = recommend_plan(futures.future(f), offering, options, column);
            INFO("trial " << trial << ", future " << f);
            CHECK(bound.totals[f] == Approx(alone.in_sample.total.mean).epsilon(1e-9));
        }
    }
}

TEST_CASE("the recommender bills on demand per GPU-hour: under whole-instance billing its plan can cost twice "
          "one it passed over (a stated limit of its model)") {
    // 8-GPU instances at $16 an instance-hour ($2 a GPU-hour); a 1-year all-upfront reservation $70,080 an
    // instance ($1 a GPU-hour). Demand: 3 GPUs every hour for 12 months (8,760 hours).
    // Per GPU-hour, the recommender's model: all on demand 3 × 2 × 8,760 = 52,560 < one reserved
    // instance 70,080, so it reserves nothing.
    // Billed per whole instance (Plan::billing = instances), that plan pays one instance every hour:
    // 8 × 2 × 8,760 = 140,160, while one reserved instance costs 70,080 (no on-demand hour left).
    const Offering offering = test::plan_test_offering_in_instances(8);
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(3, Horizon::months(12)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront}};
    options.start_months = {0};
    options.unit = CountUnit::instances;
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    CHECK(r.plan.commitments.empty());
    CHECK(r.plan.billing == Units::gpus);
    CHECK(r.in_sample.total.mean == Approx(52'560).epsilon(1e-12));
    Plan per_instance = r.plan;
    per_instance.billing = Units::instances;
    CHECK(evaluate_plan(per_instance, futures, offering).total.mean == Approx(140'160).epsilon(1e-12));
    Plan reserved;
    reserved.billing = Units::instances;
    reserved.commitments = {{.count = 1, .unit = CountUnit::instances, .term_years = 1, .payment = Payment::all_upfront}};
    CHECK(evaluate_plan(reserved, futures, offering).total.mean == Approx(70'080).epsilon(1e-12));
}
