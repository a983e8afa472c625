#include <doctest/doctest.h>

#include <chrono>
#include <limits>

#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "plan_fixtures.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/cost.hpp"
#include "gputco/engines/plan_engine.hpp"

using namespace gputco;
using doctest::Approx;

namespace {
Offering test_offering() { return test::plan_test_offering(); }
using test::uniform;
using test::uniform_int;

/// A random demand over `months`: constant, growing, stepped or hourly noise, maybe with a daily pattern.
DemandProfile random_demand(Xoshiro256pp& engine, Horizon horizon) {
    DemandProfile demand = DemandProfile::constant(uniform(engine, 0, 20), horizon);
    switch (uniform_int(engine, 0, 3)) {
        case 0: break;
        case 1: {
            // One draw a statement (the later argument first, as GCC drew them) so every compiler draws the same demand.
            const double growth = uniform(engine, 0, 1.5);
            demand = DemandProfile::compound_growth(uniform(engine, 1, 10), growth, horizon);
            break;
        }
        case 2:
            if (horizon.month_count() < 2) break;  // a second step needs a second month
            demand = DemandProfile::steps({{0, uniform(engine, 0, 8)}, {uniform_int(engine, 1, horizon.month_count() - 1),
                                                                         uniform(engine, 4, 16)}},
                                          horizon);
            break;
        default: {
            Eigen::ArrayXd hours(Eigen::Index(horizon.hour_count()));
            for (Eigen::Index h = 0; h < hours.size(); ++h) hours[h] = uniform(engine, 0, 12);
            demand = DemandProfile::hourly(std::move(hours));
        }
    }
    if (uniform_int(engine, 0, 1) == 1) {
        std::array<double, 24> daily{};
        for (auto& x : daily) x = uniform(engine, 0.2, 1.0);
        demand = demand.with_daily_pattern(daily);
    }
    return demand;
}

Mix random_mix(Xoshiro256pp& engine) {
    Mix mix;
    const int tranches = uniform_int(engine, 1, 4);
    std::vector<double> weights(static_cast<std::size_t>(tranches));
    double sum = 0;
    for (auto& w : weights) sum += (w = uniform(engine, 0.05, 1.0));
    bool spot_taken = false;
    for (int i = 0; i < tranches; ++i) {
        Tranche t;
        t.fraction = weights[std::size_t(i)] / sum;
        switch (uniform_int(engine, 0, 4)) {
            case 0: t.kind = Reserved{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {},
                                      .renewal = uniform_int(engine, 0, 1) ? Renewal::renew : Renewal::lapse};
                break;
            case 1: t.kind = Reserved{.term_years = uniform_int(engine, 1, 3),
                                      .payment = Payment(uniform_int(engine, 0, 2)),
                                      .reservation_discount = uniform(engine, 0, 0.7),
                                      .renewal = uniform_int(engine, 0, 1) ? Renewal::renew : Renewal::lapse};
                break;
            case 2: {
                Owned owned;
                owned.capex_per_gpu = uniform(engine, 5000, 30000);
                owned.life_years = uniform_int(engine, 1, 4);
                owned.colocation_per_gpu_month = uniform(engine, 0, 100);
                owned.staff_per_month = uniform(engine, 0, 500);
                owned.maintenance_fraction_per_year = uniform(engine, 0, 0.1);
                t.kind = owned;
                break;
            }
            case 3:
                if (!spot_taken) {
                    spot_taken = true;
                    t.kind = SpotTranche{.price_per_gpu_hour = {}, .overhead = uniform(engine, 1, 1.5),
                                         .availability = uniform(engine, 0, 1), .overhead_samples = {}};
                    break;
                }
                [[fallthrough]];
            default: t.kind = OnDemand{};
        }
        mix.tranches.push_back(t);
    }
    // Fractions that sum to 1 within the engines' 1e-9.
    double total = 0;
    for (std::size_t i = 0; i + 1 < mix.tranches.size(); ++i) total += mix.tranches[i].fraction;
    mix.tranches.back().fraction = 1.0 - total;
    mix.rounding = Rounding(uniform_int(engine, 0, 3));
    if (uniform_int(engine, 0, 2) == 0) mix.fleet_gpus = uniform(engine, 0, 25);
    return mix;
}
}  // namespace

TEST_CASE("a plan with no uncertainty equals evaluate() in GPUs to the cent, over 300 random mixes, demands and discounts") {
    Xoshiro256pp engine(2026);
    for (int trial = 0; trial < 300; ++trial) {
        CAPTURE(trial);
        const Horizon horizon = Horizon::months(uniform_int(engine, 1, 48));
        const DemandProfile demand = random_demand(engine, horizon);
        const Mix mix = random_mix(engine);
        EvaluationOptions options;
        options.units = Units::gpus;  // the plan engine's view: capacity and bills in GPU-hours
        if (uniform_int(engine, 0, 1) == 1) {
            options.discounts.on_demand_discount = uniform(engine, 0, 0.4);
            options.discounts.free_gpu_hours = uniform(engine, 0, 3000);
            options.discounts.voucher_price_factor = uniform(engine, 0.5, 1.0);
            options.discounts.region_price_factor = uniform(engine, 0.7, 1.3);
        }
        options.annual_discount_rate = uniform(engine, 0, 0.1);
        CAPTURE(describe(Strategy{mix}));
        const CostReport report = evaluate(mix, demand, test_offering(), options);
        const Plan plan = plan_from_mix(mix, demand.peak_gpus());
        const PlanDistribution d =
            evaluate_plan(plan, DemandFutures::from_profile(demand), test_offering(), {},
                          PlanOptions{options.discounts, options.annual_discount_rate, 1});
        REQUIRE(d.mean_months.size() == report.months.size());
        CHECK(std::abs(d.total.mean - report.total) < 0.005);
        CHECK(std::abs(d.npv.mean - report.npv) < 0.005);
        CHECK(d.total.standard_error == 0.0);
        for (std::size_t m = 0; m < report.months.size(); ++m) {
            const MonthlyCashFlow &a = d.mean_months[m], &b = report.months[m];
            CAPTURE(m);
            CHECK(std::abs(a.total - b.total) < 0.005);
            CHECK(std::abs(a.upfront - b.upfront) < 0.005);
            CHECK(std::abs(a.reserved_recurring - b.reserved_recurring) < 0.005);
            CHECK(std::abs(a.on_demand - b.on_demand) < 0.005);
            CHECK(std::abs(a.spot - b.spot) < 0.005);
            CHECK(std::abs(a.credits - b.credits) < 0.005);
            CHECK(std::abs(a.capex + a.operating + a.resale - (b.capex + b.operating + b.resale)) < 0.005);
            // Every listed field, so a field the plan engine leaves out cannot pass unseen.
            for (const auto& field : monthly_cash_flow_fields) {
                CAPTURE(field.name);
                CHECK(std::abs(field.value(a) - field.value(b)) < 0.005);
            }
        }
    }
}

TEST_CASE("issue 24 #1: an empty plan pays the same on-demand GPU-hours as evaluate(OnDemand) in GPUs") {
    const Offering p4d = Catalog::builtin().offering("aws", "p4d.24xlarge");
    const DemandProfile demand = DemandProfile::constant(8, Horizon::months(3));
    const PlanDistribution d = evaluate_plan(Plan{}, DemandFutures::from_profile(demand), p4d);
    EvaluationOptions gpus;
    gpus.units = Units::gpus;
    const CostReport report = evaluate(OnDemand{}, demand, p4d, gpus);
    REQUIRE(d.mean_months.size() == 3);
    CHECK(report.months[0].on_demand_paid_gpu_hours == Approx(5840));
    CHECK(d.mean_months[0].on_demand_paid_gpu_hours == Approx(5840));
    for (std::size_t m = 0; m < 3; ++m)
        for (const auto& field : monthly_cash_flow_fields) {
            CAPTURE(field.name);
            CHECK(field.value(d.mean_months[m]) == Approx(field.value(report.months[m])));
        }
}

TEST_CASE("a commitment starting in month k costs nothing before k and its full term from k on") {
    const Horizon horizon = Horizon::years(2);
    Plan plan;
    plan.commitments.push_back({.count = 2, .term_years = 1, .payment = Payment::all_upfront, .start_month = 5});
    const PlanDistribution d =
        evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(4, horizon)), test_offering());
    // Months 0-4: 4 GPUs on demand, 4 × 730 × $2 = 5,840. Month 5: upfront 2 × 8,760 = 17,520 plus
    // 2 GPUs on demand, 2 × 730 × 2 = 2,920. Months 6-16: 2,920. Months 17-23: 5,840 again.
    REQUIRE(d.mean_months.size() == 24);
    for (int m = 0; m < 24; ++m) {
        CAPTURE(m);
        const double expected = m < 5 ? 5840.0 : m == 5 ? 17520.0 + 2920.0 : m < 17 ? 2920.0 : 5840.0;
        CHECK(d.mean_months[std::size_t(m)].total == Approx(expected));
    }
    // 5 × 5,840 + 20,440 + 11 × 2,920 + 7 × 5,840 = 29,200 + 20,440 + 32,120 + 40,880 = 122,640.
    CHECK(d.total.mean == Approx(122640.0));
    CHECK(d.futures[0].committed_gpu_hours == Approx(2 * 12 * 730.0));
    CHECK(d.committed_utilisation == Approx(1.0));
    CHECK(d.mean_stranded_unused == Approx(0.0));

    // Bought in month 30 of 36, a 3-year no-upfront term runs to month 66 and is paid in full.
    Plan late;
    late.commitments.push_back({.count = 1, .term_years = 3, .payment = Payment::no_upfront, .start_month = 30});
    const PlanDistribution l = evaluate_plan(late, DemandFutures::from_profile(DemandProfile::constant(0, Horizon::years(3))),
                                             test_offering());
    REQUIRE(l.mean_months.size() == 66);
    CHECK(l.mean_months[29].total == 0.0);
    CHECK(l.mean_months[30].total == Approx(730 * 0.7));
    CHECK(l.mean_months[65].total == Approx(730 * 0.7));
    // 36 months × 730 h × $0.70, all of it unused: stranded.
    CHECK(l.total.mean == Approx(36 * 730 * 0.7));
    CHECK(l.mean_stranded_unused == Approx(36 * 730 * 0.7));
}

TEST_CASE("instances count whole instances of the commitment's offering") {
    Offering eight = test_offering();
    eight.gpus_per_instance = 8;
    eight.on_demand_hourly = 16.0;
    eight.reserved = {{.term_years = 1, .payment = Payment::all_upfront, .upfront = 8 * 8760.0, .hourly = 0, .source = {"test", "2026-01"}}};
    Plan plan;
    plan.commitments.push_back({.count = 1, .unit = CountUnit::instances, .term_years = 1, .payment = Payment::all_upfront});
    const PlanDistribution d =
        evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(10, Horizon::years(1))), eight);
    // 8 GPUs reserved: upfront 8 × 8,760 = 70,080; 2 GPUs on demand: 2 × 8,760 h × $2 = 35,040.
    CHECK(d.total.mean == Approx(70080.0 + 35040.0));
}

TEST_CASE("a scheduled price cut changes on-demand hours from its date and leaves earlier reservations at their price") {
    const Catalog& catalog = Catalog::builtin();
    // The plan starts in 2025-01: the prices in force before the cut.
    const Offering p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1").price_at(Date{2025, 1, 1});
    const PriceChange cut = aws_june_2025_price_cut(catalog.offering("aws", "p4d.24xlarge", "us-east-1"));
    CHECK(cut.date == "2025-06");
    CHECK(cut.on_demand_factor == Approx(21.96 / 32.7726));
    PriceModel model;
    model.start = "2025-01";
    model.changes.push_back(cut);
    const Horizon horizon = Horizon::years(3);
    const PricePaths prices = price_paths(model, horizon, 1, 0);
    CHECK(prices.on_demand(4, 0) == 1.0);  // May 2025
    CHECK(prices.on_demand(5, 0) == cut.on_demand_factor);  // June 2025

    Plan ladder;
    ladder.commitments.push_back({.count = 8, .term_years = 3, .payment = Payment::all_upfront, .start_month = 0});
    ladder.commitments.push_back({.count = 8, .term_years = 1, .payment = Payment::all_upfront, .start_month = 9});
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(24, horizon));
    const PlanDistribution d = evaluate_plan(ladder, futures, p4d, prices);
    const double od = 32.7726 / 8, od_after = 21.96 / 8;  // $/GPU-h before and after the cut
    const ReservedPrice three = *p4d.reserved_price(3, Payment::all_upfront);
    const ReservedPrice one = *p4d.reserved_price(1, Payment::all_upfront);
    // Month 0: the 3-year upfront at the January price, 16 GPUs on demand at the old price.
    CHECK(d.mean_months[0].upfront == Approx(three.upfront));
    CHECK(d.mean_months[4].on_demand == Approx(16 * 730 * od));
    // From June the on-demand hours cost the new price.
    CHECK(d.mean_months[5].on_demand == Approx(16 * 730 * od_after));
    // Month 9: the 1-year layer bought after the cut at the cut price; the 3-year base pays nothing more.
    CHECK(d.mean_months[9].upfront == Approx(one.upfront * cut.reserved_factor));
    CHECK(d.mean_months[9].on_demand == Approx(8 * 730 * od_after));
    // Total by hand: 3-year upfront + 1-year upfront × factor + on demand 16 GPUs × 5 months old,
    // 16 × 4 months new (June-September), 8 × 12 months new (the layer), 16 × 15 months new.
    const double expected = three.upfront + one.upfront * cut.reserved_factor + 16 * 730 * (5 * od + 4 * od_after) +
                            8 * 730 * 12 * od_after + 16 * 730 * 15 * od_after;
    CHECK(d.total.mean == Approx(expected));
}

TEST_CASE("a cut below a reservation's rate shows as stranded above market") {
    PriceModel model;
    model.start = "2026-01";
    model.changes.push_back({.date = "2026-07", .on_demand_factor = 0.4, .spot_factor = 1, .reserved_factor = 0.4, .source = "test"});
    const Horizon horizon = Horizon::years(1);
    Plan plan;
    plan.commitments.push_back({.count = 2, .term_years = 1, .payment = Payment::all_upfront});
    const PlanDistribution d = evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(2, horizon)),
                                             test_offering(), price_paths(model, horizon, 1, 0));
    // From July on demand costs $0.80/h, below the reservation's $1.00/h: 2 GPUs × 6 × 730 h × $0.20.
    CHECK(d.mean_stranded_above_market == Approx(2 * 6 * 730 * 0.2));
    CHECK(d.total.mean == Approx(2 * 8760.0));  // the reservation keeps its price
}

TEST_CASE("the mean over futures of a linear cost equals the cost of the mean demand, within 4 standard errors") {
    DemandModel model;
    model.base_gpus = 8;
    model.monthly_log_growth = 0.01;
    model.monthly_log_volatility = 0.08;
    model.events.push_back({.gpus = 8, .probability = 0.6, .first_month = 0, .last_month = 11});
    model.seasonality = {1.0, 1.0, 1.1, 1.1, 1.0, 0.9, 0.8, 0.8, 1.0, 1.1, 1.2, 1.2};
    model.hour_of_week.assign(168, 1.0);
    for (std::size_t h = 0; h < 168; ++h) model.hour_of_week[h] = h % 24 < 8 ? 0.5 : 1.0;
    const Horizon horizon = Horizon::years(3);
    const auto futures = DemandFutures::generate(model, horizon, 20000, 11);
    const Offering offering = test_offering();
    const PlanDistribution d = evaluate_plan(Plan{}, futures, offering);
    // All on demand: cost = $2 × Σ_m level_m × shape total_m, linear in the level; E[level] in closed form.
    double expected = 0;
    for (int m = 0; m < 36; ++m) expected += 2.0 * expected_level(model, m) * futures.shape(0, m).total();
    CAPTURE(expected);
    CAPTURE(d.total.mean);
    CAPTURE(d.total.standard_error);
    CHECK(d.total.standard_error > 0.0);
    CHECK(std::abs(d.total.mean - expected) <= 4.0 * d.total.standard_error);
}

TEST_CASE("the hindsight reservation is never worse than any such plan in any future") {
    DemandModel model;
    model.base_gpus = 6;
    model.monthly_log_volatility = 0.1;
    model.events.push_back({.gpus = 6, .probability = 0.5, .first_month = 3, .last_month = 20});
    model.hour_of_week.assign(168, 1.0);
    for (std::size_t h = 0; h < 168; ++h) model.hour_of_week[h] = (h / 24) % 7 >= 5 ? 0.3 : 1.0;
    const Horizon horizon = Horizon::years(3);
    const auto futures = DemandFutures::generate(model, horizon, 300, 5);
    const Offering offering = test_offering();
    std::vector<double> best_gpus;
    const std::vector<double> hindsight =
        hindsight_reservation_totals(futures, offering, 3, Payment::no_upfront, {}, {}, &best_gpus);
    Xoshiro256pp engine(9);
    std::vector<Plan> plans{Plan{}};  // all on demand
    for (int i = 0; i < 6; ++i) {
        Plan p;
        p.commitments.push_back({.count = double(uniform_int(engine, 1, 20)), .term_years = 3,
                                 .payment = Payment::no_upfront, .renewal = Renewal::renew});
        plans.push_back(p);
    }
    const auto compared = compare_plans(plans, futures, offering);
    bool some_strictly_better = false;
    for (std::size_t f = 0; f < futures.count(); ++f) {
        double best = 1e300;
        for (const auto& r : compared) {
            CHECK(hindsight[f] <= r.futures[f].total + 1e-6);
            CHECK(r.futures[f].regret >= 0.0);
            best = std::min(best, r.futures[f].regret);
            some_strictly_better |= hindsight[f] < r.futures[f].total - 1.0;
        }
        CHECK(best == 0.0);  // the cheapest compared plan has no regret
    }
    CHECK(some_strictly_better);
    double fractions = 0;
    for (const auto& r : compared) fractions += r.best_fraction;
    CHECK(fractions >= 1.0 - 1e-9);
}

TEST_CASE("seeded results are identical for any thread count") {
    DemandModel model;
    model.base_gpus = 8;
    model.monthly_log_volatility = 0.05;
    model.events.push_back({.gpus = 8, .probability = 0.6, .first_month = 0, .last_month = 11});
    const Horizon horizon = Horizon::years(3);
    const auto futures = DemandFutures::generate(model, horizon, 3000, 1);
    PriceModel prices;
    prices.launches.push_back({.probability = 0.5, .first_month = 6, .last_month = 30, .on_demand_factor = 0.7,
                               .spot_factor = 0.6, .reserved_factor = 0.8});
    const PricePaths paths = price_paths(prices, horizon, futures.count(), 3);
    Plan plan;
    plan.commitments.push_back({.count = 8, .term_years = 3, .payment = Payment::no_upfront});
    plan.commitments.push_back({.count = 8, .term_years = 1, .payment = Payment::all_upfront, .start_month = 9});
    plan.spot = SpotShare{.gpus = 4, .price_per_gpu_hour = {}, .overhead = 1.2, .availability = 0.8};
    const auto one = evaluate_plan(plan, futures, test_offering(), paths, {.threads = 1});
    // The last cumulative band is the total's distribution (bands select, totals sort: same values).
    CHECK(one.cumulative.back().p5 == one.total.p5);
    CHECK(one.cumulative.back().p50 == one.total.p50);
    CHECK(one.cumulative.back().p95 == one.total.p95);
    CHECK(one.cumulative.back().mean == Approx(one.total.mean));
    for (unsigned threads : {2u, 3u, 8u}) {
        const auto many = evaluate_plan(plan, futures, test_offering(), paths, {.threads = threads});
        CHECK(many.total.mean == one.total.mean);
        CHECK(many.total.cvar95 == one.total.cvar95);
        CHECK(many.cumulative.back().p95 == one.cumulative.back().p95);
        CHECK(many.mean_months[20].on_demand == one.mean_months[20].on_demand);
        for (std::size_t f = 0; f < futures.count(); ++f) REQUIRE(many.futures[f].total == one.futures[f].total);
    }
}

TEST_CASE("a commitment is priced at its term's factor: reserved_3y for the 3-year, reserved for the 1-year") {
    const Horizon horizon = Horizon::years(3);
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(16, horizon));
    const int months = horizon.month_count();
    PricePaths one_table;
    one_table.on_demand = Eigen::ArrayXXd::Constant(months, 1, 0.9);
    one_table.spot = one_table.on_demand;
    one_table.reserved = Eigen::ArrayXXd::Constant(months, 1, 0.8);
    PricePaths per_term = one_table;
    per_term.reserved_3y = Eigen::ArrayXXd::Constant(months, 1, 0.5);
    Plan three, one;
    three.commitments.push_back({.count = 8, .term_years = 3, .payment = Payment::no_upfront});
    one.commitments.push_back({.count = 8, .term_years = 1, .payment = Payment::all_upfront});
    const Offering& offering = test_offering();
    const ReservedPrice r3 = *offering.reserved_price(3, Payment::no_upfront);
    const ReservedPrice r1 = *offering.reserved_price(1, Payment::all_upfront);
    // The 3-year term's hourly fee follows reserved_3y when given (0.5), reserved otherwise (0.8); the 8
    // GPUs on demand cost the same either way.
    const double fees = 8 * r3.hourly * 730 * 36;
    const PlanDistribution at_reserved = evaluate_plan(three, futures, offering, one_table);
    const PlanDistribution at_3y = evaluate_plan(three, futures, offering, per_term);
    CHECK(at_reserved.total.mean - at_3y.total.mean == Approx(fees * (0.8 - 0.5)));
    // The 1-year term keeps `reserved` either way.
    const PlanDistribution a = evaluate_plan(one, futures, offering, one_table), b = evaluate_plan(one, futures, offering, per_term);
    CHECK(b.mean_months[0].upfront == Approx(8 * r1.upfront * 0.8));
    CHECK(b.total.mean == a.total.mean);
    // A 3-year table of another shape is an error naming it.
    per_term.reserved_3y = Eigen::ArrayXXd::Constant(months - 1, 1, 0.5);
    CHECK_THROWS_WITH_AS(evaluate_plan(three, futures, offering, per_term),
                         "prices.reserved_3y = \"35 x 1\": must be 36 x 1 (months x futures, as on_demand) or empty", InvalidInput);
}

TEST_CASE("spot without capacity falls to on-demand: every demanded GPU-hour is served once") {
    Plan plan;
    plan.spot = SpotShare{.gpus = 10, .price_per_gpu_hour = {}, .overhead = 1.0, .availability = 0.7};
    const PlanDistribution d = evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(4, Horizon::months(1))),
                                             test_offering());
    const MonthlyCashFlow& m = d.mean_months[0];
    // 4 × 730 = 2,920 GPU-h: 70% on spot (2,044 h × $0.80), 30% on demand (876 h × $2).
    CHECK(m.spot_gpu_hours + m.on_demand_gpu_hours == Approx(2920.0));
    CHECK(m.total == Approx(2044 * 0.8 + 876 * 2.0));
}

TEST_CASE("spot periods change overhead and availability from their month on") {
    Plan plan;
    plan.spot = SpotShare{.gpus = 4, .price_per_gpu_hour = {}, .overhead = 1.0, .availability = 1.0,
                          .periods = {{.first_month = 2, .overhead = 1.5, .availability = 0.5}}};
    const PlanDistribution d = evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(4, Horizon::months(3))),
                                             test_offering());
    // Months 0-1: 2,920 GPU-h on spot at $0.80 = 2,336. Month 2: half on spot billed × 1.5,
    // 1,460 × 0.8 × 1.5 = 1,752, half on demand 1,460 × $2 = 2,920.
    CHECK(d.mean_months[1].total == Approx(2336.0));
    CHECK(d.mean_months[2].total == Approx(1752.0 + 2920.0));
    plan.spot->periods.push_back({.first_month = 2, .overhead = 1.0, .availability = 1.0});
    CHECK_THROWS_WITH_AS(evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(4, Horizon::months(3))),
                                       test_offering()),
                         "plan.spot.periods[1].first_month = 2: must be in (2, 3) (after the previous period, inside the horizon)",
                         InvalidInput);
}

TEST_CASE("distributions: mean, standard error, type-7 quantiles and CVaR95 by hand") {
    std::vector<double> samples;
    for (int i = 100; i >= 1; --i) samples.push_back(i);
    const Distribution d = distribution_of(samples);
    CHECK(d.mean == Approx(50.5));
    // sd² = n(n+1)/12 = 841.67 for 1..100; se = sqrt(841.67 / 100) = 2.9011.
    CHECK(d.standard_error == Approx(std::sqrt(100.0 * 101.0 / 12.0 / 100.0)));
    CHECK(d.p5 == Approx(5.95));    // h = 99 × 0.05 = 4.95: 5 + 0.95
    CHECK(d.p95 == Approx(95.05));  // h = 94.05: 95 + 0.05
    CHECK(d.cvar95 == Approx(98.0));  // mean of 96..100
}

TEST_CASE("bad input names the field") {
    const Offering offering = test_offering();
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(1, Horizon::years(3)));
    Plan late;
    late.commitments.push_back({.count = 1, .term_years = 1, .payment = Payment::all_upfront, .start_month = 40});
    CHECK_THROWS_WITH_AS(evaluate_plan(late, futures, offering),
                         "plan.commitments[0].start_month = 40: must be in [0, 36) (the horizon's months)", InvalidInput);

    Plan two_currencies;
    Offering euro = offering;
    euro.currency = "EUR";
    two_currencies.commitments.push_back({.count = 1, .term_years = 1, .payment = Payment::all_upfront});
    two_currencies.commitments.push_back(
        {.count = 1, .term_years = 1, .payment = Payment::all_upfront, .offering = euro});
    CHECK_THROWS_WITH_AS(evaluate_plan(two_currencies, futures, offering),
                         "plan.commitments[1].offering.currency = \"EUR\": must be USD, the plan's currency, unless a "
                         "dated exchange rate is given (PlanOptions::conversion)",
                         InvalidInput);

    Plan unpriced;
    unpriced.commitments.push_back({.count = 1, .term_years = 3, .payment = Payment::all_upfront});
    CHECK_THROWS_WITH_AS(evaluate_plan(unpriced, futures, offering),
                         "plan.commitments[0] = \"3y all_upfront\": offering testcloud/test-1/g1 lists no such "
                         "reservation price; set reservation_discount",
                         InvalidInput);

    Plan spot;
    spot.spot = SpotShare{.gpus = 1, .price_per_gpu_hour = {}, .overhead = 1, .availability = 1.5};
    CHECK_THROWS_WITH_AS(evaluate_plan(spot, futures, offering), "plan.spot.availability = 1.5: must be in [0, 1]",
                         InvalidInput);

    PriceModel prices;
    prices.launches.push_back({.probability = 1.2, .first_month = 0, .last_month = 1});
    CHECK_THROWS_WITH_AS(price_paths(prices, Horizon::years(3), 10, 1),
                         "price_model.launches[0].probability = 1.2: must be in [0, 1]", InvalidInput);
    const PricePaths short_prices = price_paths(PriceModel{}, Horizon::years(1), 1, 1);
    CHECK_THROWS_WITH_AS(evaluate_plan(Plan{}, futures, offering, short_prices),
                         "prices.months = 12: must be 36 (the futures' months)", InvalidInput);

    // Objects built in C++ meet the same limits as those built from Python; the rate is bounded away from -1.
    Plan huge;
    huge.spot = SpotShare{.gpus = 1e12};
    CHECK_THROWS_WITH_AS(evaluate_plan(huge, futures, offering), "plan.spot.gpus = 1000000000000: must be <= 1e+09",
                         InvalidInput);
    huge.spot = SpotShare{.gpus = 1, .overhead = 1e7};
    CHECK_THROWS_WITH_AS(evaluate_plan(huge, futures, offering), "plan.spot.overhead = 10000000: must be <= 1e+06",
                         InvalidInput);
    huge.spot = SpotShare{.gpus = 1, .price_per_gpu_hour = 1e13};
    CHECK_THROWS_WITH_AS(evaluate_plan(huge, futures, offering),
                         "plan.spot.price_per_gpu_hour = 10000000000000: must be <= 1e+12", InvalidInput);
    Plan many;
    many.commitments.push_back({.count = 2e9, .term_years = 1, .payment = Payment::all_upfront});
    CHECK_THROWS_WITH_AS(evaluate_plan(many, futures, offering), "plan.commitments[0].count = 2000000000: must be <= 1e+09",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate_plan(Plan{}, futures, offering, {}, {.annual_discount_rate = -0.99}),
                         "annual_discount_rate = -0.99: must be in [-0.5, 1] (a fraction a year: 0.05 for 5%)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(plan_from_mix(Mix{{{1.0, SpotTranche{.overhead = 1e7}}}}, 4),
                         "spot.overhead = 10000000: must be <= 1e+06", InvalidInput);

}

TEST_CASE("plan_from_mix keeps every spot tranche, in order, with its samples") {
    Mix two_spots{{{0.5, SpotTranche{.overhead = 1.1}}, {0.5, SpotTranche{.overhead = 1.2, .overhead_samples = {1.3, 1.1}}}},
                  {},
                  Rounding::nearest};
    const Plan plan = plan_from_mix(two_spots, 4);
    REQUIRE(plan.spot);
    CHECK(plan.spot->overhead == 1.1);
    REQUIRE(plan.more_spot.size() == 1);
    CHECK(plan.more_spot[0].overhead == 1.2);
    CHECK(plan.more_spot[0].overhead_samples == std::vector<double>{1.3, 1.1});
    CHECK(describe(Plan{.commitments = {}, .owned = {}, .spot = plan.spot, .more_spot = plan.more_spot}) ==
          "spot 2 GPUs + spot 2 GPUs + on-demand");
}

TEST_CASE("a commitment in another currency is converted at the dated rate given, never silently") {
    const Offering usd = test_offering();
    Offering eur = test_offering();
    eur.currency = "EUR";
    eur.provider = "eurocloud";
    eur.reserved = {{.term_years = 1, .payment = Payment::all_upfront, .upfront = 5000.0, .hourly = 0, .source = {"test", "2026-01"}}};
    Plan plan;
    plan.commitments.push_back({.count = 2, .term_years = 1, .payment = Payment::all_upfront, .offering = eur});
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(3, Horizon::years(1)));
    PlanOptions options;
    options.conversion = CurrencyConversion{
        ExchangeRates({ExchangeRate{"EUR", "USD", 1.1, Date{2025, 12, 1}, {"test rate", "2025-12-01"}},
                       ExchangeRate{"EUR", "USD", 1.3, Date{2026, 6, 1}, {"later test rate", "2026-06-01"}}}),
        Date{2026, 1, 1}};
    const PlanDistribution d = evaluate_plan(plan, futures, usd, {}, options);
    // 2 GPUs × 5,000 EUR × 1.1 (the rate in force on 2026-01-01) = 11,000 USD; 1 GPU on demand
    // 8,760 h × $2 = 17,520.
    CHECK(d.total.mean == Approx(11000.0 + 17520.0));
    REQUIRE(d.conversions.size() == 1);
    CHECK(d.conversions[0].find("plan.commitments[0]: eurocloud/test-1/g1 converted to USD at 1.1") == 0);
    options.conversion->date = Date{2025, 1, 1};  // before any rate
    CHECK_THROWS_AS(evaluate_plan(plan, futures, usd, {}, options), InvalidInput);
}

TEST_CASE("cancellation: the plan engine polls should_stop between chunks of futures and throws Cancelled") {
    // 2,000 futures are 8 chunks of 256. The calling thread polls before each chunk it takes: on one
    // thread, stopping at the second poll leaves after one chunk; on two, stopping at the first poll
    // stops before any (the other thread may have taken one).
    const auto futures = DemandFutures::generate(DemandModel{.base_gpus = 4}, Horizon::years(1), 2000, 5);
    Plan plan;
    plan.commitments.push_back({.count = 2, .term_years = 1, .payment = Payment::all_upfront});
    for (unsigned threads : {1u, 2u}) {
        CAPTURE(threads);
        const int stop_at = threads == 1 ? 2 : 1;
        int polls = 0;
        PlanOptions options{.threads = threads, .should_stop = [&] { return ++polls >= stop_at; }};
        CHECK_THROWS_AS(evaluate_plan(plan, futures, test_offering(), {}, options), Cancelled);
        CHECK(polls == stop_at);
        polls = 0;
        CHECK_THROWS_AS(compare_plans({plan, Plan{}}, futures, test_offering(), {}, options), Cancelled);
        polls = 0;
        CHECK_THROWS_AS(hindsight_reservation_totals(futures, test_offering(), 1, Payment::all_upfront, {}, options),
                        Cancelled);
        // A check that never says stop changes nothing.
        polls = -1'000'000;
        const PlanDistribution polled = evaluate_plan(plan, futures, test_offering(), {}, options);
        CHECK(polled.total.mean == evaluate_plan(plan, futures, test_offering(), {}, {.threads = threads}).total.mean);
    }
}

TEST_CASE("the hindsight optimum prices only the counts beside demand levels and free-hour kinks: equal to trying "
          "every count, over random futures, discounts and terms") {
    Xoshiro256pp engine(3434);
    for (int trial = 0; trial < 30; ++trial) {
        CAPTURE(trial);
        DemandModel model;
        model.base_gpus = uniform(engine, 100, 250);
        model.monthly_log_growth = uniform(engine, -0.03, 0.03);
        model.monthly_log_volatility = uniform(engine, 0, 0.2);
        if (uniform_int(engine, 0, 1)) model.events.push_back({uniform(engine, 0, 60), uniform(engine, 0, 1), 0, 3});
        if (uniform_int(engine, 0, 1)) {  // weekends at a lower level: two hourly levels a month
            const double weekend = uniform(engine, 0.1, 0.9);
            model.hour_of_week.resize(168);
            for (std::size_t h = 0; h < 168; ++h) model.hour_of_week[h] = (h / 24) % 7 >= 5 ? weekend : 1.0;
        }
        const Horizon horizon = Horizon::months(uniform_int(engine, 3, 15));
        const DemandFutures futures = DemandFutures::generate(model, horizon, 3, std::uint64_t(trial));
        PlanOptions options;
        options.threads = 1;
        if (uniform_int(engine, 0, 1)) options.discounts.free_gpu_hours = uniform(engine, 0, 2e5);
        if (uniform_int(engine, 0, 1)) options.discounts.on_demand_discount = uniform(engine, 0, 0.3);
        if (uniform_int(engine, 0, 1)) options.discounts.voucher_price_factor = uniform(engine, 0.5, 1);
        const bool three_years = uniform_int(engine, 0, 1) == 1;
        const int term = three_years ? 3 : 1;
        const Payment payment = three_years ? Payment::no_upfront : Payment::all_upfront;
        std::vector<double> best_gpus;
        const auto fast = hindsight_reservation_totals(futures, test_offering(), term, payment, {}, options, &best_gpus);
        // Every count from 0 to the largest peak, priced by the engine.
        double peak = 0;
        for (std::size_t f = 0; f < futures.count(); ++f)
            for (int m = 0; m < futures.month_count(); ++m)
                peak = std::max(peak, futures.level(f, m) * futures.shape(f, m).sorted.back());
        std::vector<double> brute(futures.count(), std::numeric_limits<double>::infinity());
        for (double c = 0; c <= std::ceil(peak); c += 1.0) {
            Plan plan;
            plan.commitments.push_back({.count = c, .term_years = term, .payment = payment, .renewal = Renewal::renew});
            const PlanDistribution d = evaluate_plan(plan, futures, test_offering(), {}, options);
            for (std::size_t f = 0; f < futures.count(); ++f) brute[f] = std::min(brute[f], d.futures[f].total);
        }
        for (std::size_t f = 0; f < futures.count(); ++f) {
            CHECK(fast[f] == Approx(brute[f]).epsilon(1e-12));
            Plan chosen;
            chosen.commitments.push_back(
                {.count = best_gpus[f], .term_years = term, .payment = payment, .renewal = Renewal::renew});
            CHECK(evaluate_plan(chosen, futures.future(f), test_offering(), {}, options).futures[0].total ==
                  Approx(fast[f]).epsilon(1e-12));
        }
    }
}

TEST_CASE("the hindsight optimum does not grow with the demand's size") {
    // 1e8 GPUs: trying every count was 1e8 engine runs per future; now a few dozen.
    DemandModel model{.base_gpus = 1e8, .monthly_log_growth = 0, .monthly_log_volatility = 0.05};
    const DemandFutures futures = DemandFutures::generate(model, Horizon::years(3), 20, 1);
    const auto start = std::chrono::steady_clock::now();
    const auto totals = hindsight_reservation_totals(futures, test_offering(), 3, Payment::no_upfront);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
    for (double t : totals) CHECK(std::isfinite(t));
}
