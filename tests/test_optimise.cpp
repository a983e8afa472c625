#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "gputco/optimise/optimise.hpp"

using namespace gputco;
using doctest::Approx;

namespace {
Offering offering_at(double per_gpu_hour) {
    Offering o;
    o.provider = "testcloud";
    o.region = "test-1";
    o.instance_type = "gpu1";
    o.gpu = "A100-40GB";
    o.on_demand_hourly = per_gpu_hour;
    o.source = {"hand-made test offering", "2026-01"};
    return o;
}

/// Demand that takes the values 0..10 GPUs for equally many hours (hour h of each 11-hour cycle).
DemandProfile uniform_0_to_10(Horizon horizon) {
    Eigen::ArrayXd hours(Eigen::Index(horizon.hour_count()));
    for (Eigen::Index h = 0; h < hours.size(); ++h) hours[h] = double(h % 11);
    return DemandProfile::hourly(hours);
}
}  // namespace

TEST_CASE("newsvendor: reserve up to the (1 − c_r / p) quantile of hourly demand") {
    const auto demand = uniform_0_to_10(Horizon::years(3));
    const Reserved reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.619};
    const auto advice = optimal_reservation(demand, offering_at(4.0), reserved);
    CHECK(advice.effective_reserved_rate == Approx(0.381 * 4.0));  // 1.524 $/GPU-h
    CHECK(advice.critical_fraction == Approx(0.619));
    // F(r) = (r + 1) / 11 up to rounding of the 26,280-hour cycle: F(6) ≈ 7/11 = 0.636 ≥ 0.619 > F(5) ≈ 6/11.
    CHECK(advice.reserved_gpus == 6);
    CHECK(advice.demand_covered_fraction == Approx(7.0 / 11.0).epsilon(1e-3));
}

TEST_CASE("the advised reservation is the cheapest whole count, by brute force through the engine") {
    const auto demand = uniform_0_to_10(Horizon::years(1));
    for (const double discount : {0.2, 0.384, 0.52, 0.7}) {
        const Reserved reserved{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = discount};
        const auto advice = optimal_reservation(demand, offering_at(3.0), reserved);
        double best_total = 1e300, best_r = -1;
        for (int r = 0; r <= 10; ++r) {
            const double total = evaluate(Mix{{{1.0, reserved}}, double(r), Rounding::none}, demand, offering_at(3.0)).total;
            if (total < best_total - 1e-6) {
                best_total = total;
                best_r = r;
            }
        }
        CAPTURE(discount);
        CHECK(advice.reserved_gpus == best_r);
        CHECK(advice.report.total == Approx(best_total));
    }
}

TEST_CASE("a reservation dearer than on-demand advises none") {
    const auto demand = DemandProfile::constant(4, Horizon::years(1));
    const auto advice = optimal_reservation(demand, offering_at(1.0), Reserved{.term_years = 1, .reservation_discount = 0.0});
    // c_r = p, so 1 − c_r / p = 0 and F(0) = 0 ≥ 0: nothing to reserve.
    CHECK(advice.reserved_gpus == 0);
    CHECK(advice.report.total == Approx(4 * 8760 * 1.0));
}

TEST_CASE("the advice compares with the on-demand price the user pays: on-demand discount, free hours, vouchers, region") {
    const auto demand = uniform_0_to_10(Horizon::years(1));
    const Reserved reserved{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.4};
    EvaluationOptions plan;
    plan.discounts.on_demand_discount = 0.5;
    // c_r = 0.6 × 3.00 = 1.80 $/GPU-h; on demand the user pays 3.00 × (1 − 0.5) = 1.50 $/GPU-h < c_r:
    // reserving any GPU costs more than buying it all on demand, so the advice is none.
    const auto advice = optimal_reservation(demand, offering_at(3.0), reserved, plan);
    CHECK(advice.on_demand_rate == Approx(1.5));
    CHECK(advice.effective_reserved_rate == Approx(1.8));
    CHECK(advice.reserved_gpus == 0);
    CHECK(advice.report.total == Approx(advice.report.baseline_total));
    CHECK(advice.report.total <= advice.report.baseline_total + 0.005);

    // Every kind of discount at once: the advice is the cheapest whole count by brute force.
    for (const double free_hours : {0.0, 5000.0, 40000.0}) {
        EvaluationOptions options;
        options.discounts.on_demand_discount = 0.25;
        options.discounts.free_gpu_hours = free_hours;
        options.discounts.voucher_price_factor = 0.8;
        options.discounts.region_price_factor = 1.1;
        const auto best = optimal_reservation(demand, offering_at(3.0), reserved, options);
        double best_total = 1e300;
        for (int r = 0; r <= 10; ++r) {
            best_total = std::min(
                best_total, evaluate(Mix{{{1.0, reserved}}, double(r), Rounding::none}, demand, offering_at(3.0), options).total);
        }
        CAPTURE(free_hours);
        CHECK(best.report.total == Approx(best_total).epsilon(1e-12));
    }
}

TEST_CASE("bad input is rejected by the engine's own checks") {
    const auto demand = DemandProfile::constant(4, Horizon::years(1));
    CHECK_THROWS_WITH_AS(optimal_reservation(demand, offering_at(1.0), Reserved{.term_years = 1, .reservation_discount = 1.5}),
                         "reserved.reservation_discount = 1.5: must be in [0, 1)", InvalidInput);
}

TEST_CASE("the largest demand allowed is advised at once, not by counting GPU by GPU") {
    // 1e9 GPUs every hour: counting r up by one took 1e9 steps (10^10 GPUs hung for minutes).
    const auto demand = DemandProfile::constant(1e9, Horizon::years(1));
    const auto advice = optimal_reservation(demand, offering_at(2.0), Reserved{.term_years = 1, .reservation_discount = 0.4});
    CHECK(advice.reserved_gpus == 1e9);  // F(r) = 0 below 1e9, 1 from there: r = 1e9
    CHECK(advice.demand_covered_fraction == 1.0);
    CHECK(std::isfinite(advice.report.total));
    // Fractional demand: the 40% quantile is 0.5 GPUs, rounded up to a whole r = 1.
    Eigen::ArrayXd hours = Eigen::ArrayXd::Constant(8760, 0.5);  // a year: the 1-year term fits
    hours.tail(4380).setConstant(2.5);  // half the hours at 0.5, half at 2.5
    const auto half = optimal_reservation(DemandProfile::hourly(hours), offering_at(2.0),
                                          Reserved{.term_years = 1, .reservation_discount = 0.4});
    CHECK(half.critical_fraction == Approx(0.4));
    CHECK(half.reserved_gpus == 1);  // F(1) = 0.5 >= 0.4 > F(0) = 0
}

TEST_CASE("a free on-demand price advises no reservation and no NaN") {
    const auto demand = DemandProfile::constant(4, Horizon::years(1));
    const auto advice = optimal_reservation(demand, offering_at(0.0), Reserved{.term_years = 1, .reservation_discount = 0.5});
    CHECK(advice.critical_fraction == 0.0);  // was 1 − 0/0 = NaN
    CHECK(advice.reserved_gpus == 0);
}

TEST_CASE("over seeded random demands the advice is the engine's local optimum next to the newsvendor count") {
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> level(0.0, 50.0), discount(0.0, 0.95);
    for (int trial = 0; trial < 60; ++trial) {
        Eigen::ArrayXd hours(8760);  // a year, so the 1-year term fits
        for (auto& h : hours) h = level(rng) * (trial % 3 == 0 ? 1.0 : std::floor(level(rng)) / 50.0);
        const auto demand = DemandProfile::hourly(hours);
        const Reserved reserved{.term_years = 1, .reservation_discount = discount(rng)};
        const auto advice = optimal_reservation(demand, offering_at(3.0), reserved);
        const auto covered = [&](double r) { return double((hours <= r).count()) / 8760.0; };
        double newsvendor = 0;
        while (covered(newsvendor) < advice.critical_fraction) newsvendor += 1.0;  // the definition, step by step
        const auto npv = [&](double r) {
            return evaluate(Mix{{{1.0, reserved}}, r, Rounding::none}, demand, offering_at(3.0)).npv;
        };
        const double r = advice.reserved_gpus;
        CAPTURE(trial);
        CHECK(std::abs(r - newsvendor) <= 1.0);  // the engine's walk moves at most a unit on ties of rounding
        CHECK(advice.report.npv <= npv(r + 1));
        if (r >= 1) CHECK(advice.report.npv <= npv(r - 1));
        CHECK(advice.demand_covered_fraction == covered(r));
    }
}
