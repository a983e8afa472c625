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
        Plan on_demand;  // billed as the recommender bills (per instance when it counts in instances)
        if (gpus_per_instance > 1) on_demand.billing = Units::instances;
        const double on_demand_cvar = evaluate_plan(on_demand, futures, offering, prices, one_thread).total.cvar95;
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
        brute.billed_per_instance(gpus_per_instance);  // as the recommender bills when it counts in instances
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

TEST_CASE("counted in whole instances, the recommender bills as the provider does: one reserved instance for 3 "
          "GPUs of an 8-GPU instance, 70,080 against 140,160 all on demand") {
    // 8-GPU instances at $16 an instance-hour ($2 a GPU-hour); a 1-year all-upfront reservation $70,080 an
    // instance ($1 a GPU-hour). Demand: 3 GPUs every hour for 12 months (8,760 hours).
    // Billed per whole instance (what the provider charges): all on demand pays one instance every hour,
    // 8 × 2 × 8,760 = 140,160; one reserved instance costs 70,080 and leaves no on-demand hour.
    // Counted in GPUs (options.unit = gpus, the GPU-level view: single GPUs reserved, on demand per
    // GPU-hour) it reserves 3 GPUs at $8,760 each: 26,280, below all on demand's 3 × 2 × 8,760 = 52,560.
    const Offering offering = test::plan_test_offering_in_instances(8);
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(3, Horizon::months(12)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront}};
    options.start_months = {0};
    options.unit = CountUnit::instances;
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    CHECK(r.plan.billing == Units::instances);
    REQUIRE(r.plan.commitments.size() == 1);
    CHECK(r.plan.commitments[0].count == 1);
    CHECK(r.plan.commitments[0].unit == CountUnit::instances);
    CHECK(r.in_sample.total.mean == Approx(70'080).epsilon(1e-12));
    CHECK(r.solver_objective == Approx(70'080).epsilon(1e-12));
    Plan on_demand;
    on_demand.billing = Units::instances;
    CHECK(evaluate_plan(on_demand, futures, offering).total.mean == Approx(140'160).epsilon(1e-12));

    options.unit = CountUnit::gpus;
    const Recommendation per_gpu = recommend_plan(futures, offering, options);
    CHECK(per_gpu.plan.billing == Units::gpus);
    REQUIRE(per_gpu.plan.commitments.size() == 1);
    CHECK(per_gpu.plan.commitments[0].count == 3);
    CHECK(per_gpu.plan.commitments[0].unit == CountUnit::gpus);
    CHECK(per_gpu.in_sample.total.mean == Approx(26'280).epsilon(1e-12));
}

TEST_CASE("billed per whole instance, over 60 random small problems (instances of 2 or 4 GPUs; reservations, a "
          "Savings Plan in whole instances' worth, a held reservation, spot in whole instances) the recommendation "
          "is never worse than brute force over the same plans priced by the engine, and equals it") {
    Xoshiro256pp engine(4041);
    const int months = 8;
    const std::size_t count = 3;
    PlanOptions one_thread;
    one_thread.threads = 1;
    int with_savings_plan = 0, with_spot = 0, cvar_trials = 0, above_per_gpu = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int g = trial % 2 == 0 ? 2 : 4;
        const Offering offering = test::plan_test_offering_in_instances(g);
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 10);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        // On demand and spot step once per future; the reservation factor stays (a Savings Plan's level is
        // one $/hour in every future).
        PricePaths prices;
        prices.on_demand.setOnes(months, Eigen::Index(count));
        prices.spot.setOnes(months, Eigen::Index(count));
        prices.reserved.setOnes(months, Eigen::Index(count));
        for (Eigen::Index f = 0; f < Eigen::Index(count); ++f) {
            const int at = test::uniform_int(engine, 0, months - 1);
            prices.on_demand.col(f).tail(months - at) = test::uniform(engine, 0.6, 1.3);
            prices.spot.col(f).tail(months - at) = test::uniform(engine, 0.6, 2.0);
        }
        const double rate = test::uniform(engine, 0.8, 1.9);  // the Savings Plan's $/GPU-hour; on demand is 2.00
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}}};
        options.savings_plans = {{.type = SavingsPlanType::aws_compute, .term_years = 1, .payment = Payment::no_upfront,
                                  .rate_per_gpu_hour = rate}};
        options.start_months = {0, 4};
        options.max_count = 2;
        options.unit = CountUnit::instances;
        options.plan_options.threads = 1;
        const bool held = trial % 3 == 0;  // one instance held to month 5
        if (held)
            options.held = {{.count = 1, .unit = CountUnit::instances, .start_month = -7, .end_month = 5,
                             .hourly_per_gpu = 0.9}};
        const double overhead = test::uniform(engine, 1, 2), availability = test::uniform(engine, 0.3, 1);
        options.spot = {{.name = "spot", .overhead = overhead, .availability = availability, .price_per_gpu_hour = {},
                         .deadline_miss_probability = {}}};
        const bool with_cvar = trial % 4 == 3;
        Plan held_only;
        held_only.billing = Units::instances;
        held_only.held = options.held;
        const double on_demand_cvar = evaluate_plan(held_only, futures, offering, prices, one_thread).total.cvar95;
        if (with_cvar) options.limits.cvar95 = on_demand_cvar * test::uniform(engine, 0.85, 1.0);

        // Brute force: 0 to 2 reserved instances from months 0 and 4, a Savings Plan of 0 to 2 instances'
        // worth (g × rate per instance-hour) from each, spot at every whole number of instances.
        test::BruteForce brute(futures, offering, prices, one_thread,
                               SpotShare{.gpus = 0, .price_per_gpu_hour = {}, .overhead = overhead,
                                         .availability = availability, .periods = {}},
                               options.limits.cvar95);
        brute.billed_per_instance(g);
        for (int code = 0; code < 81; ++code) {
            int rest = code;
            const int first = rest % 3, second = (rest /= 3) % 3, plan_first = (rest /= 3) % 3, plan_second = rest / 3;
            Plan plan;
            plan.held = options.held;
            for (const auto& [units, start] : {std::pair{first, 0}, std::pair{second, 4}})
                if (units > 0)
                    plan.commitments.push_back({.count = double(units), .unit = CountUnit::instances, .term_years = 1,
                                                .payment = Payment::all_upfront, .start_month = start,
                                                .renewal = Renewal::lapse, .reservation_discount = {}, .offering = {}});
            for (const auto& [units, start] : {std::pair{plan_first, 0}, std::pair{plan_second, 4}})
                if (units > 0)
                    plan.savings_plans.push_back({.commitment_per_hour = units * g * rate, .type = SavingsPlanType::aws_compute,
                                                  .term_years = 1, .payment = Payment::no_upfront, .start_month = start,
                                                  .renewal = Renewal::lapse, .rate_per_gpu_hour = rate});
            std::set<double> turns;
            for (int m = 0; m < months; ++m) {
                const double capacity = g * ((held && m < 5 ? 1 : 0) + first + plan_first +
                                             (m >= 4 ? second + plan_second : 0));
                test::add_spot_turns(turns, futures, m, capacity);
            }
            brute.consider(plan, turns);
        }
        INFO("trial " << trial << ", " << g << " GPUs an instance" << (with_cvar ? ", CVaR95 limit" : "")
                      << "; brute force: " << describe(brute.best_plan()));
        if (!brute.found()) {
            CHECK_THROWS_AS(recommend_plan(futures, offering, options, prices), InvalidInput);
            continue;
        }
        cvar_trials += with_cvar;
        with_savings_plan += !brute.best_plan().savings_plans.empty();
        with_spot += brute.best_plan().spot.has_value();
        const Recommendation r = recommend_plan(futures, offering, options, prices);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("recommended: " << describe(shown));
        CHECK(r.plan.billing == Units::instances);
        if (r.plan.spot) CHECK(std::fmod(r.plan.spot->gpus, g) == 0.0);
        CHECK(r.proven_optimal);
        CHECK(r.in_sample.total.mean <= brute.best() * (1 + 1e-9));
        CHECK(r.in_sample.total.mean == Approx(brute.best()).epsilon(1e-9));
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
        // The same plan billed per GPU would have been priced lower: the billing the answer pays matters.
        Plan per_gpu = r.plan;
        per_gpu.billing = Units::gpus;
        above_per_gpu += r.in_sample.total.mean >
                         evaluate_plan(per_gpu, futures, offering, prices, one_thread).total.mean * (1 + 1e-9);
    }
    MESSAGE("brute-force optima with a Savings Plan " << with_savings_plan << ", with spot " << with_spot
                                                       << ", billed per instance above per GPU " << above_per_gpu);
    CHECK(with_savings_plan >= 5);  // the draws exercise each instrument (9, 54 and 58 of 60 when written)
    CHECK(with_spot >= 10);
    CHECK(cvar_trials >= 10);
    CHECK(above_per_gpu >= 30);
}

TEST_CASE("billed per whole instance, a tier below on demand that ends inside an instance is refused, naming it") {
    const Offering offering = test::plan_test_offering_in_instances(8);
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(3, Horizon::months(12)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront}};
    options.start_months = {0};
    options.unit = CountUnit::instances;
    options.plan_options.threads = 1;
    const std::string rule = " when the recommender counts in instances (options.unit = instances), which bills on "
                             "demand and spot per instance above the tiers held";
    RecommendOptions held = options;
    held.held = {{.count = 4, .unit = CountUnit::gpus, .start_month = -6, .end_month = 6, .hourly_per_gpu = 0.9}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, held),
                         ("options.held[0].count = 4: must cover a whole number of instances (4 GPUs: 0.5 instances "
                          "of 8)" + rule).c_str(),
                         InvalidInput);
    RecommendOptions held_plan = options;  // 2.70 an hour at 0.90 a GPU-hour: 3 GPUs
    held_plan.held_savings_plans = {{.commitment_per_hour = 2.7, .type = SavingsPlanType::aws_compute, .term_years = 1,
                                     .payment = Payment::no_upfront, .start_month = -3, .renewal = Renewal::lapse,
                                     .rate_per_gpu_hour = 0.9}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, held_plan),
                         ("options.held_savings_plans[0].commitment_per_hour = 2.7: must cover a whole number of "
                          "instances (3 GPUs: 0.375 instances of 8)" + rule).c_str(),
                         InvalidInput);
    // A Savings Plan read from a bill is a figure in cents: within a cent an hour of whole instances it is
    // taken as them. One instance at 0.90 a GPU-hour is 7.20 an hour; 7.205 is half a cent off (8.0056
    // GPUs), 7.22 two cents (8.0222 GPUs: 1.002777778 instances).
    RecommendOptions near_whole = held_plan;
    near_whole.held_savings_plans[0].commitment_per_hour = 7.205;
    CHECK_NOTHROW(recommend_plan(futures, offering, near_whole));
    near_whole.held_savings_plans[0].commitment_per_hour = 7.22;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, near_whole),
                         ("options.held_savings_plans[0].commitment_per_hour = 7.22: must cover a whole number of "
                          "instances (8.022222222 GPUs: 1.002777778 instances of 8)" + rule).c_str(),
                         InvalidInput);
    RecommendOptions windows = options;
    windows.plan_options.windows = {{.start_day = 10, .days = 5, .gpus = 12}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, windows),
                         ("options.plan_options.windows[0].gpus = 12: must cover a whole number of instances (12 "
                          "GPUs: 1.5 instances of 8)" + rule).c_str(),
                         InvalidInput);
    // The same in GPUs (the GPU-level view) is taken as given.
    held.unit = windows.unit = held_plan.unit = CountUnit::gpus;
    CHECK_NOTHROW(recommend_plan(futures, offering, held));
    CHECK_NOTHROW(recommend_plan(futures, offering, held_plan));
    CHECK_NOTHROW(recommend_plan(futures, offering, windows));
}
