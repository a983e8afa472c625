#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "plan_fixtures.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/core/random.hpp"
#include "gputco/optimise/optimise.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;
using doctest::Approx;

namespace {
Offering test_offering() { return test::plan_test_offering(); }

DemandModel growing_model() {
    DemandModel model;
    model.base_gpus = 6;
    model.monthly_log_growth = 0.01;
    model.monthly_log_volatility = 0.08;
    model.events.push_back({.gpus = 6, .probability = 0.5, .first_month = 3, .last_month = 9});
    model.hour_of_week = test::office_week();
    return model;
}

/// Type-7 P95 and the standard error of the CVaR95 estimate: sd of η + (X − η)+ / 0.05 over √n.
double cvar_standard_error(const PlanDistribution& d) {
    const double eta = d.total.p95;
    double sum = 0, squares = 0;
    for (const FutureOutcome& f : d.futures) {
        const double y = eta + std::max(0.0, f.total - eta) / 0.05;
        sum += y;
        squares += y * y;
    }
    const double n = double(d.futures.size()), mean = sum / n;
    return std::sqrt((squares / n - mean * mean) * n / (n - 1) / n);
}
}  // namespace

TEST_CASE("on a small problem the optimiser equals exhaustive enumeration priced by the engine") {
    // 2 terms × 3 start months, 0..3 GPUs each (up to 18 committed at once): 4^6 = 4,096 ladders.
    const Offering offering = test_offering();
    const DemandFutures futures = DemandFutures::generate(growing_model(), Horizon::months(24), 5, 11);
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}},
                           {.term_years = 3, .payment = Payment::no_upfront, .reservation_discount = {}}};
    options.start_months = {0, 6, 12};
    options.max_count = 3;
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    CHECK(r.proven_optimal);

    double best = 1e300;
    Plan best_plan;
    std::vector<double> best_per_future(futures.count(), 1e300);  // the enumeration's hindsight optimum
    for (int code = 0; code < 4096; ++code) {
        Plan plan;
        int rest = code;
        for (int term : {1, 3})
            for (int start : {0, 6, 12}) {
                const int count = rest % 4;
                rest /= 4;
                if (count > 0)
                    plan.commitments.push_back({.count = double(count), .unit = CountUnit::gpus, .term_years = term,
                                                .payment = term == 1 ? Payment::all_upfront : Payment::no_upfront,
                                                .start_month = start, .renewal = Renewal::lapse, .reservation_discount = {},
                                                .offering = {}});
            }
        const PlanDistribution d = evaluate_plan(plan, futures, offering, {}, options.plan_options);
        for (std::size_t f = 0; f < futures.count(); ++f)
            best_per_future[f] = std::min(best_per_future[f], d.futures[f].total);
        const double mean = d.total.mean;
        if (mean < best) {
            best = mean;
            best_plan = plan;
        }
    }
    INFO("enumeration's best: " << describe(best_plan) << ", optimiser's: " << describe(r.plan));
    CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
    CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-7));  // two levels: the programme is exact
    CHECK(!r.plan.commitments.empty());  // the case is not trivial

    // The best plan in hindsight, future by future, is the enumeration's best in each future.
    const HindsightBound bound = hindsight_plan_totals(futures, offering, options);
    CHECK(bound.exact);
    REQUIRE(bound.totals.size() == futures.count());
    double spread = 0;
    for (std::size_t f = 0; f < futures.count(); ++f) {
        CAPTURE(f);
        CHECK(bound.totals[f] == Approx(best_per_future[f]).epsilon(1e-9));
        CHECK(evaluate_plan(bound.plans[f], futures.future(f), offering).total.mean == Approx(bound.totals[f]).epsilon(1e-12));
        spread = std::max(spread, std::abs(bound.totals[f] - bound.totals[0]));
    }
    CHECK(spread > 0);  // the futures differ, so the bound is per future
    // Any thread count: the same bound.
    RecommendOptions two = options;
    two.plan_options.threads = 2;
    CHECK(hindsight_plan_totals(futures, offering, two).totals == bound.totals);
}

TEST_CASE("stationary demand and one term: the optimiser gives the newsvendor count of optimal_reservation") {
    const Offering offering = test_offering();
    Xoshiro256pp engine(5);
    for (int trial = 0; trial < 6; ++trial) {
        const bool three_year = trial % 2 == 1;
        const Horizon horizon = Horizon::months(three_year ? 36 : 12);
        // Whole GPUs 0..10 each hour, the same distribution all along: at most 11 levels a month.
        Eigen::ArrayXd hours(Eigen::Index(horizon.hour_count()));
        const int top = boost::random::uniform_int_distribution<int>(3, 10)(engine);
        for (Eigen::Index h = 0; h < hours.size(); ++h) hours[h] = boost::random::uniform_int_distribution<int>(0, top)(engine);
        const DemandProfile demand = DemandProfile::hourly(hours);
        const Reserved reserved{.term_years = three_year ? 3 : 1,
                                .payment = three_year ? Payment::no_upfront : Payment::all_upfront,
                                .reservation_discount = {}, .renewal = Renewal::renew};
        const ReservationAdvice advice = optimal_reservation(demand, offering, reserved);

        RecommendOptions options;
        options.commitments = {{.term_years = reserved.term_years, .payment = reserved.payment, .reservation_discount = {}}};
        options.start_months = {0};
        const Recommendation r = recommend_plan(DemandFutures::from_profile(demand), offering, options);
        const double count = r.plan.commitments.empty() ? 0.0 : r.plan.commitments[0].count;
        INFO("trial " << trial << ", top " << top);
        CHECK(count == advice.reserved_gpus);
        CHECK(r.in_sample.total.mean == Approx(advice.report.total).epsilon(1e-9));
    }
}

TEST_CASE("a binding CVaR95 limit holds in sample exactly and out of sample within its Monte Carlo error") {
    const Offering offering = test_offering();
    DemandModel model = growing_model();
    model.monthly_log_volatility = 0.15;
    const DemandFutures train = DemandFutures::generate(model, Horizon::months(24), 100, 1);
    const DemandFutures fresh = DemandFutures::generate(model, Horizon::months(24), 4000, 2);
    RecommendOptions options;
    options.review_months = 12;
    const Recommendation free = recommend_plan(train, offering, options);
    // Commitments cut the cost of the dear (high-demand) futures; asking for a lower CVaR95 than the
    // unconstrained optimum's forces more of them at a higher mean.
    const double limit = free.in_sample.total.cvar95 * 0.97;
    options.limits.cvar95 = limit;
    const Recommendation bound = recommend_plan(train, offering, options);
    CHECK(bound.in_sample.total.cvar95 <= limit * (1 + 1e-9));
    CHECK(bound.in_sample.total.mean > free.in_sample.total.mean);  // the limit binds

    const PlanDistribution out = evaluate_plan(bound.plan, fresh, offering);
    const double error = std::hypot(cvar_standard_error(bound.in_sample), cvar_standard_error(out));
    INFO("out of sample CVaR95 " << out.total.cvar95 << ", limit " << limit << ", 4 sigma " << 4 * error);
    CHECK(out.total.cvar95 <= limit + 4 * error);
    // check_risk: the held-out CVaR95 with its standard error, and whether the limit holds at 95%.
    const RiskCheck risk = check_risk(out, limit);
    CHECK(risk.cvar95 == out.total.cvar95);
    CHECK(risk.p95 == out.total.p95);
    CHECK(risk.cvar95_standard_error == Approx(cvar_standard_error(out)).epsilon(1e-12));
    CHECK(risk.meets_limit == (out.total.cvar95 + 1.645 * risk.cvar95_standard_error <= limit));
    CHECK(check_risk(out, out.total.cvar95 * 2).meets_limit);
    CHECK(!check_risk(out, out.total.cvar95).meets_limit);
    CHECK_THROWS_WITH_AS(check_risk(evaluate_plan(bound.plan, fresh.future(0), offering), limit),
                         "judged.futures.size = 1: must be >= 2 (a standard error)", InvalidInput);
}

TEST_CASE("infeasible limits name the limit") {
    const Offering offering = test_offering();
    const DemandFutures futures = DemandFutures::generate(growing_model(), Horizon::months(12), 20, 3);
    RecommendOptions options;
    options.limits.cvar95 = 1000.0;
    const double on_demand = evaluate_plan(Plan{}, futures, offering).total.cvar95;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         fmt::format("limits.cvar95 = 1000: no plan meets it over these futures (all on demand has "
                                     "CVaR95 {:.2f}; solver: infeasible)",
                                     on_demand)
                             .c_str(),
                         InvalidInput);
}

TEST_CASE("bad options are rejected with the field, value and rule") {
    const Offering offering = test_offering();
    const DemandFutures futures = DemandFutures::generate(growing_model(), Horizon::months(12), 2, 3);
    RecommendOptions options;
    options.review_months = 0;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options), "options.review_months = 0: must be >= 1",
                         InvalidInput);
    options = {};
    options.start_months = {12};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.start_months[0] = 12: must be in [0, 12) (the horizon's months)", InvalidInput);
    options = {};
    options.plan_options.discounts.free_gpu_hours = 100;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.plan_options.discounts.free_gpu_hours = 100: must be 0 for the optimiser (a pool of "
                         "free hours is not linear)",
                         InvalidInput);
    options = {};
    options.commitments = {{.term_years = 2, .payment = Payment::no_upfront, .reservation_discount = {}}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.commitments[0] = \"2y no_upfront\": offering testcloud/test-1/g1 lists no such "
                         "reservation price; set reservation_discount",
                         InvalidInput);
    options = {};
    options.plan_options.annual_discount_rate = 5;  // 5% typed as 5
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.plan_options.annual_discount_rate = 5: must be in [-0.5, 1] (a fraction a year: "
                         "0.05 for 5%)",
                         InvalidInput);
    options = {};
    options.spot = {{.name = "bad", .overhead = 0.5, .availability = 1, .price_per_gpu_hour = {}}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.spot[0].overhead = 0.5: must be finite and >= 1 (billed per useful hour)", InvalidInput);
    // Every plan costs >= 0, so a negative CVaR limit is a mistake; one of -5.8e303 made Clp abort
    // (assertion thisObj <= COIN_DBL_MAX, found by fuzz_plan) instead of reporting no plan.
    for (const double limit : {-1.0, -5.8e303}) {
        options = {};
        options.limits.cvar95 = limit;
        CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                             fmt::format("limits.cvar95 = {:g}: must be finite and >= 0", limit).c_str(), InvalidInput);
    }
}

TEST_CASE("over random problems: never worse than all on demand; upfront and committed-share limits hold; spot priced exactly") {
    const Offering offering = test_offering();
    Xoshiro256pp engine(23);
    boost::random::uniform_01<double> u;
    for (int trial = 0; trial < 12; ++trial) {
        DemandModel model;
        model.base_gpus = 1 + 15 * u(engine);
        model.monthly_log_growth = 0.05 * (u(engine) - 0.5);
        model.monthly_log_volatility = 0.2 * u(engine);
        if (u(engine) < 0.5) model.events.push_back({.gpus = 8 * u(engine), .probability = u(engine), .first_month = 0, .last_month = 11});
        if (u(engine) < 0.5) model.hour_of_week = test::office_week();
        if (u(engine) < 0.5) {  // many levels: the programme approximates, the engine decides
            model.hour_of_week.assign(168, 0);
            for (auto& h : model.hour_of_week) h = u(engine);
        }
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 30, std::uint64_t(trial));
        RecommendOptions options;
        options.review_months = 1 + int(12 * u(engine));
        options.max_blocks = 1 + int(8 * u(engine));
        if (u(engine) < 0.5) options.spot = {{.name = "spot", .overhead = 1 + u(engine), .availability = u(engine), .price_per_gpu_hour = {}}};
        const double upfront = 20'000 * u(engine), share = u(engine);
        options.limits.upfront_per_period = upfront;
        options.limits.committed_share = share;
        const Recommendation r = recommend_plan(futures, offering, options);
        const double on_demand = evaluate_plan(Plan{}, futures, offering).total.mean;
        INFO("trial " << trial << ": " << describe(r.plan));
        CHECK(r.in_sample.total.mean <= on_demand * (1 + 1e-12));
        for (int quarter = 0; quarter < 8; ++quarter) {
            double paid = 0;  // only the 1-year option has an upfront: $8,760 a GPU
            for (const Commitment& c : r.plan.commitments)
                if (c.start_month / 3 == quarter && c.payment == Payment::all_upfront) paid += 8760.0 * c.count;
            CHECK(paid <= upfront * (1 + 1e-9));
        }
        for (int m = 0; m < 24; ++m) {
            double committed = 0, mean_level = 0;
            for (const Commitment& c : r.plan.commitments)
                if (m >= c.start_month && m < c.start_month + 12 * c.term_years) committed += c.count;
            for (std::size_t f = 0; f < futures.count(); ++f) mean_level += futures.level(f, m) / double(futures.count());
            CHECK(committed <= share * mean_level * (1 + 1e-9) + 1e-9);
        }
        if (r.plan.spot) {  // spot capacity: what the busiest month needs beside the commitments, no more
            double needed = 0;
            for (std::size_t f = 0; f < futures.count(); ++f)
                for (int m = 0; m < 24; ++m) {
                    double committed = 0;
                    for (const Commitment& c : r.plan.commitments)
                        if (m >= c.start_month && m < c.start_month + 12 * c.term_years) committed += c.count;
                    needed = std::max(needed, futures.level(f, m) * futures.shape(f, m).sorted.back() - committed);
                }
            CHECK(r.plan.spot->gpus <= needed * (1 + 1e-12));
        }
        if (options.max_blocks >= 2 && model.hour_of_week.size() == 168 && model.hour_of_week[0] == 0.4) {
            // Two levels a month and an integral solution: the programme prices its plan exactly.
            CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-7));
        }
    }
}

TEST_CASE("deterministic for a seed, whatever the thread count") {
    const Offering offering = test_offering();
    const DemandFutures futures = DemandFutures::generate(growing_model(), Horizon::months(24), 300, 9);
    RecommendOptions options;
    options.spot = {{.name = "spot 1 h checkpoints", .overhead = 1.15, .availability = 0.9, .price_per_gpu_hour = {}}};
    options.plan_options.threads = 1;
    const Recommendation a = recommend_plan(futures, offering, options);
    options.plan_options.threads = 2;
    const Recommendation b = recommend_plan(futures, offering, options);
    CHECK(describe(a.plan) == describe(b.plan));
    CHECK(a.in_sample.total.mean == b.in_sample.total.mean);
    CHECK(a.solver_objective == b.solver_objective);
}

TEST_CASE("frontier: a lower CVaR95 limit never lowers the mean; an impossible one is marked infeasible") {
    const Offering offering = test_offering();
    DemandModel model = growing_model();
    model.monthly_log_volatility = 0.15;
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 60, 4);
    RecommendOptions options;
    options.review_months = 12;
    const double free = recommend_plan(futures, offering, options).in_sample.total.cvar95;
    const std::vector<FrontierPoint> points =
        cost_risk_frontier(futures, offering, {free * 1.01, free * 0.99, free * 0.97, 1000.0}, options);
    REQUIRE(points.size() == 4);
    CHECK(points[0].feasible);
    CHECK(points[1].feasible);
    CHECK(points[2].feasible);
    CHECK(!points[3].feasible);
    for (std::size_t i = 0; i < 3; ++i) CHECK(points[i].cvar95 <= points[i].cvar95_limit * (1 + 1e-9));
    CHECK(points[1].mean >= points[0].mean * (1 - 1e-12));
    CHECK(points[2].mean >= points[1].mean * (1 - 1e-12));
}

TEST_CASE("baselines: the providers' advice by hand, the count of whole instances that saves most over the window") {
    // The test offering sold in 8-GPU instances: on demand $2.00 a GPU-hour, 1-year all upfront $1.00
    // a GPU-hour over the term. Two months at 4 GPUs, but in the last week 12 GPUs for 100 hours.
    Offering offering = test_offering();
    offering.gpus_per_instance = 8;
    offering.on_demand_hourly *= 8;
    for (ReservedPrice& r : offering.reserved) r.upfront *= 8, r.hourly *= 8;
    Eigen::ArrayXd hours = Eigen::ArrayXd::Constant(1460, 4.0);
    hours.segment(1460 - 168, 100) = 12.0;
    // Last 7 days: 1 instance serves 8 × 100 + 4 × 68 = 1,072 GPU-hours worth $2,144 for 8 × 168 × $1 =
    // $1,344: saves $800; 2 instances serve 1,472 worth $2,944 for $2,688: saves $256. Over 30 days
    // 1 instance saves 2 × (800 + 4 × 620) − 8 × 720 = $800, 2 lose; over 60 days 1 saves $800 again.
    // (The 50% quantile of the week is 12 GPUs, of 30 days 4: not what the providers advise.)
    const std::span<const double> week(hours.data() + 1460 - 168, 168);
    CHECK(provider_advice_units(week, 0.0, 8.0, 1.0, 2.0) == 1);
    CHECK(provider_advice_units(week, 8.0, 8.0, 1.0, 2.0) == 0);  // held: 4 GPUs for 100 h left, 1 instance loses
    CHECK(provider_advice_units(week, 0.0, 1.0, 1.0, 2.0) == 12); // by the GPU: each of the top 8 serves 100 of 168 h
    CHECK(provider_advice_units(week, 0.0, 8.0, 2.0, 2.0) == 0);  // no discount, no advice
    const std::vector<Plan> plans = baseline_plans(DemandProfile::hourly(hours), offering, 1, Payment::all_upfront);
    REQUIRE(plans.size() == 5);
    CHECK(plans[0].commitments.empty());
    for (std::size_t i : {1, 2, 3}) {
        REQUIRE(plans[i].commitments.size() == 1);
        CHECK(plans[i].commitments[0].count == 1);
        CHECK(plans[i].commitments[0].unit == CountUnit::instances);
    }
    CHECK(plans[1].name == "lookback 7 days: 1 × 8-GPU instances 1y all_upfront");
}

TEST_CASE("baselines: the newsvendor over a history shorter than the term repeats it to the term's length") {
    // 8 GPUs busy every hour for two months: a 1-year reservation at half the on-demand rate pays.
    const DemandProfile history = DemandProfile::constant(8, Horizon::months(2));
    const std::vector<Plan> plans = baseline_plans(history, test_offering(), 1, Payment::all_upfront);
    REQUIRE(plans.size() == 5);
    REQUIRE(plans[4].commitments.size() == 1);
    CHECK(plans[4].commitments[0].count == 8);
    CHECK(plans[4].name == "newsvendor on the history (repeated to the 1-year term): 8 GPUs 1y all_upfront");
    // A history as long as the term is taken as it is.
    const std::vector<Plan> year = baseline_plans(DemandProfile::constant(8, Horizon::months(12)), test_offering(), 1,
                                                  Payment::all_upfront);
    CHECK(year[4].name == "newsvendor on the history: 8 GPUs 1y all_upfront");
}

TEST_CASE("cancellation: recommend_plan polls should_stop before each solve and throws Cancelled") {
    const DemandFutures futures = DemandFutures::generate(growing_model(), Horizon::months(12), 20, 3);
    RecommendOptions options;
    int polls = 0;
    options.plan_options.should_stop = [&] { return ++polls >= 1; };
    CHECK_THROWS_AS(recommend_plan(futures, test_offering(), options), Cancelled);
    CHECK(polls == 1);
}

TEST_CASE("two formulations, one optimum: a CVaR95 limit that does not bind, and whole instances vs single GPUs") {
    // Found on the growth example: the free programme (one summed curve a month) returned a plan
    // dearer than one it admitted, because CBC's preprocessing proved a wrong optimum. The CVaR
    // programme (a curve per future and month) must then give the same mean, and buying whole
    // 8-GPU instances can never beat buying single GPUs (every instance plan is a GPU plan).
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    DemandModel model;
    model.base_gpus = 8;
    model.monthly_log_growth = 0.015;
    model.monthly_log_volatility = 0.06;
    model.events.push_back({.gpus = 8, .probability = 0.5, .first_month = 0, .last_month = 11});
    model.hour_of_week.assign(168, 1.0);
    for (std::size_t h = 120; h < 168; ++h) model.hour_of_week[h] = 0.5;
    const DemandFutures futures = DemandFutures::generate(model, Horizon::years(3), 120, 1);
    RecommendOptions options;
    options.review_months = 6;
    const Recommendation free = recommend_plan(futures, p4d, options);
    options.limits.cvar95 = 1e12;
    const Recommendation loose = recommend_plan(futures, p4d, options);
    CHECK(free.proven_optimal);
    CHECK(loose.proven_optimal);
    CHECK(free.in_sample.total.mean == Approx(loose.in_sample.total.mean).epsilon(1e-9));
    options.limits.cvar95.reset();
    options.unit = CountUnit::instances;
    const Recommendation instances = recommend_plan(futures, p4d, options);
    CHECK(instances.in_sample.total.mean >= free.in_sample.total.mean * (1 - 1e-12));
}

TEST_CASE("the spot share is the share of demand spot serves, and its capacity at most what the busiest month needs") {
    // Spot at a quarter of on demand and always there serves what the commitments (cheaper still,
    // at 90% off) leave; the busiest month needs less spot than the peak demand.
    const Offering offering = test_offering();
    const DemandFutures futures = DemandFutures::generate(growing_model(), Horizon::months(24), 20, 5);
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.9}};
    options.spot = {{.name = "cheap spot", .overhead = 1.0, .availability = 1.0, .price_per_gpu_hour = 0.5,
                     .deadline_miss_probability = {}}};
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    REQUIRE(r.plan.spot);
    double needed = 0, demanded = 0, spot_hours = 0;
    for (std::size_t f = 0; f < futures.count(); ++f)
        for (int m = 0; m < 24; ++m) {
            double committed = 0;
            for (const Commitment& c : r.plan.commitments)
                if (m >= c.start_month && m < c.start_month + 12 * c.term_years) committed += c.count;
            needed = std::max(needed, futures.level(f, m) * futures.shape(f, m).sorted.back() - committed);
        }
    CHECK(r.plan.spot->gpus == Approx(needed).epsilon(1e-9));
    for (const MonthlyCashFlow& m : r.in_sample.mean_months) demanded += m.used_gpu_hours, spot_hours += m.spot_gpu_hours;
    CHECK(r.spot_share == Approx(spot_hours / demanded).epsilon(1e-12));
    CHECK(r.spot_share > 0.0);
    CHECK(r.spot_share < 1.0);
}

TEST_CASE("frontier: a point that reaches the time limit is marked with its gap, and the rest are still computed") {
    const Offering offering = test_offering();
    DemandModel model = growing_model();
    model.monthly_log_volatility = 0.15;
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 200, 4);
    RecommendOptions options;
    options.review_months = 3;
    options.plan_options.threads = 1;
    const double free = recommend_plan(futures, offering, options).in_sample.total.cvar95;
    options.time_limit_seconds = 1e-6;  // no CVaR solve can end in that time
    const std::vector<double> limits{free * 0.97, free * 0.95, free * 10};
    std::vector<FrontierPoint> points;
    REQUIRE_NOTHROW(points = cost_risk_frontier(futures, offering, limits, options));
    REQUIRE(points.size() == limits.size());
    for (const FrontierPoint& p : points) {
        INFO("limit " << p.cvar95_limit << ": " << p.reason);
        CHECK(p.timed_out);
        if (p.feasible) {  // the best plan found, within its limit in sample, and how far it may be from the optimum
            CHECK(p.cvar95 <= p.cvar95_limit * (1 + 1e-9));
            CHECK(p.gap >= 0.0);
        } else {
            CHECK(p.reason.rfind("options.time_limit_seconds = 1e-06: the solver found no plan within limits.cvar95", 0) == 0);
        }
    }
    CHECK(points[2].feasible);  // a limit all on demand meets has a plan whatever the solver did
}

TEST_CASE("the providers' advice re-run every month buys what demand has grown beyond what is held") {
    // 8 GPUs busy every hour in the history and the first 3 months, 12 from month 3 on; 1-year all
    // upfront at half the on-demand rate. Month 0: 8 from the history. Months 1–3: the last month at 8,
    // all held. Month 4: the last month at 12, 8 held: 4 more, each busy every hour. Month 12: the first
    // 8 lapse, the last month at 12 with 4 held: 8 again. Month 16: the 4 lapse: 4 again.
    const Offering offering = test_offering();
    Eigen::ArrayXd hours = Eigen::ArrayXd::Constant(24 * 730, 12.0);
    hours.head(3 * 730) = 8.0;
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::hourly(hours));
    const Plan plan = provider_policy_plan(DemandProfile::constant(8, Horizon::months(2)), futures, 0, offering, 30, 1,
                                           Payment::all_upfront);
    REQUIRE(plan.commitments.size() == 4);
    const std::vector<std::pair<double, int>> expected{{8, 0}, {4, 4}, {8, 12}, {4, 16}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CHECK(plan.commitments[i].count == expected[i].first);
        CHECK(plan.commitments[i].start_month == expected[i].second);
        CHECK(plan.commitments[i].renewal == Renewal::lapse);
    }
}
