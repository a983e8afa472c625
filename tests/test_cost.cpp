#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <fmt/format.h>

#include "gputco/engines/cost.hpp"

using namespace gputco;
using doctest::Approx;

namespace {
/// An 8-GPU instance at $25.60/h, i.e. $3.20 per GPU-hour (the seeds' low A100 list price).
Offering a100_offering() {
    Offering o;
    o.provider = "testcloud";
    o.region = "test-1";
    o.instance_type = "a100x8";
    o.gpu = "A100-40GB";
    o.gpus_per_instance = 8;
    o.on_demand_hourly = 25.6;
    o.spot_hourly = 8.0;  // $1.00 per GPU-hour
    o.source = {"hand-made test offering", "2026-01"};
    return o;
}

/// The GPU-level view (single GPUs, not whole 8-GPU instances) that the seeds' arithmetic uses.
EvaluationOptions gpu_view(EvaluationOptions options = {}) {
    options.units = Units::gpus;
    return options;
}
}  // namespace

TEST_CASE("all on-demand: GPU-hours times the list price") {
    const auto report = evaluate(OnDemand{}, DemandProfile::constant(4, Horizon::years(3)), a100_offering(), gpu_view());
    CHECK(report.total == Approx(336384.0));  // 4 GPUs × 26,280 h × $3.20
    CHECK(report.months.size() == 36);
    CHECK(report.months[0].on_demand == Approx(9344.0));  // 4 × 730 × 3.20
    CHECK(report.savings == Approx(0.0));
    CHECK(*report.effective_cost_per_used_gpu_hour == Approx(3.2));
    CHECK_FALSE(report.break_even_utilisation.has_value());
    CHECK(report.break_even_month == 1);  // equal to the baseline from the first month
}

TEST_CASE("3-year all-upfront reservation at 52% off: the seeds' audit figure") {
    const Reserved reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52};
    const auto report = evaluate(reserved, DemandProfile::constant(4, Horizon::years(3)), a100_offering(), gpu_view());
    // effective 0.48 × 3.20 = 1.536 $/GPU-h; upfront 1.536 × 26,280 h × 4 GPUs = 161,464.32, all in month 0.
    CHECK(report.months[0].upfront == Approx(161464.32));
    CHECK(report.months[1].total == Approx(0.0));
    CHECK(report.total == Approx(161464.32));
    CHECK(report.baseline_total == Approx(336384.0));
    CHECK(report.savings == Approx(174919.68));  // 336,384 − 161,464.32
    CHECK(report.savings_fraction == Approx(0.52));
    CHECK(*report.break_even_utilisation == Approx(0.48));  // 1.536 / 3.20
    CHECK(report.reserved_utilisation == Approx(1.0));
    // On-demand costs 9,344 a month; 161,464.32 / 9,344 = 17.28, so the baseline overtakes after month 18.
    CHECK(report.break_even_month == 18);
}

TEST_CASE("no-upfront reservation bills every hour of the term, used or not") {
    const Reserved reserved{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.4};
    // Busy only half the hours: 2 GPUs reserved, 1 GPU used on average.
    const auto demand = DemandProfile::constant(2, Horizon::years(1)).with_daily_pattern(
        {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    const auto report = evaluate(reserved, demand, a100_offering(), gpu_view());
    // Peak 4 GPUs reserved at 0.6 × 3.20 = 1.92 $/GPU-h for 8,760 h = 67,276.80; used 2 GPUs on average.
    CHECK(report.total == Approx(67276.8));
    CHECK(report.reserved_utilisation == Approx(0.5));
    CHECK(report.baseline_total == Approx(56064.0));  // 2 × 8,760 × 3.20
    CHECK(report.savings_fraction == Approx(-0.2));   // utilisation 50% < break-even 60%
    CHECK_FALSE(report.break_even_month.has_value());
}

TEST_CASE("70% reserved at 52% off + 30% on-demand saves 70% × 52% = 36.4% at constant full demand") {
    const Mix mix{{{0.7, Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52}},
                   {0.3, OnDemand{}}},
                  {},
                  Rounding::none};
    const auto report = evaluate(mix, DemandProfile::constant(10, Horizon::years(3)), a100_offering(), gpu_view());
    CHECK(report.savings_fraction == Approx(0.364));
    CHECK(report.strategy == "70% reserved 3y all_upfront + 30% on-demand");
}

TEST_CASE("rounding decides the reserved GPU count") {
    const Mix nearest{{{0.7, Reserved{.term_years = 1, .reservation_discount = 0.5}}, {0.3, OnDemand{}}}};
    const auto demand = DemandProfile::constant(4, Horizon::years(1));
    // round(0.7 × 4) = 3 reserved at 1.60 and 1 on-demand at 3.20: (4.80 + 3.20) × 8,760 = 70,080.
    CHECK(evaluate(nearest, demand, a100_offering(), gpu_view()).total == Approx(70080.0));
    Mix down = nearest;
    down.rounding = Rounding::down;
    // 2 reserved, 2 on-demand: (3.20 + 6.40) × 8,760 = 84,096.
    CHECK(evaluate(down, demand, a100_offering(), gpu_view()).total == Approx(84096.0));
}

TEST_CASE("real p4d.24xlarge 70/30 blend costs $18.581/h vs $32.773/h") {
    Offering p4d;
    p4d.provider = "aws";
    p4d.region = "us-east-1";
    p4d.instance_type = "p4d.24xlarge";
    p4d.gpu = "A100-40GB";
    p4d.gpus_per_instance = 8;
    p4d.on_demand_hourly = 32.773;
    p4d.source = {"docs/models.md p4d check (section 2.5)", "2025"};
    // 3-year all upfront, effective 12.4987 $/h: upfront 12.4987 × 26,280 = 328,465.836.
    p4d.reserved.push_back({3, Payment::all_upfront, 328465.836, 0.0, {"test", "2025"}});
    const Mix mix{{{0.7, Reserved{.term_years = 3, .payment = Payment::all_upfront}}, {0.3, OnDemand{}}},
                  {},
                  Rounding::none};
    const auto report = evaluate(mix, DemandProfile::constant(8, Horizon::years(3)), p4d, gpu_view());
    // 0.7 × 12.4987 + 0.3 × 32.773 = 18.58099 $/h per instance of 8 GPUs, over 26,280 h.
    CHECK(report.total / 26280.0 == Approx(18.58099));
    CHECK(report.baseline_total / 26280.0 == Approx(32.773));
    CHECK(report.savings_fraction == Approx(1 - 18.58099 / 32.773));  // 43.3%
}

TEST_CASE("a term that ends before the horizon is renewed or lapses") {
    const auto demand = DemandProfile::constant(1, Horizon::years(3));
    Reserved renew{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = 0.5};
    const auto renewed = evaluate(renew, demand, a100_offering(), gpu_view());
    // Three 1-year terms at 0.5 × 3.20 × 8,760 = 14,016 each, paid at months 0, 12 and 24.
    CHECK(renewed.months[12].upfront == Approx(14016.0));
    CHECK(renewed.months[24].upfront == Approx(14016.0));
    CHECK(renewed.total == Approx(42048.0));

    Reserved lapse = renew;
    lapse.renewal = Renewal::lapse;
    const auto lapsed = evaluate(lapse, demand, a100_offering(), gpu_view());
    // One term, then 24 months on-demand: 14,016 + 2 × 8,760 × 3.20 = 70,080.
    CHECK(lapsed.months[12].upfront == 0.0);
    CHECK(lapsed.months[12].on_demand == Approx(2336.0));  // 730 × 3.20
    CHECK(lapsed.total == Approx(70080.0));
}

TEST_CASE("a term that outlasts the horizon is paid in full") {
    const Reserved reserved{.term_years = 3, .payment = Payment::no_upfront, .reservation_discount = 0.5};
    const auto report = evaluate(reserved, DemandProfile::constant(1, Horizon::years(2)), a100_offering(), gpu_view());
    CHECK(report.months.size() == 36);                     // 12 months past the 24-month horizon
    CHECK(report.months[30].reserved_recurring == Approx(1168.0));  // 730 × 1.60
    CHECK(report.months[30].used_gpu_hours == 0.0);
    CHECK(report.total == Approx(42048.0));                // 26,280 × 1.60
    CHECK(report.reserved_utilisation == Approx(2.0 / 3.0));
}

TEST_CASE("discounts: free hours, on-demand discount and vouchers") {
    EvaluationOptions options;
    options.discounts.free_gpu_hours = 100;
    options.discounts.on_demand_discount = 0.3;
    options.discounts.voucher_price_factor = 0.6;
    const auto report = evaluate(OnDemand{}, DemandProfile::constant(1, Horizon::months(2)), a100_offering(), gpu_view(options));
    // Month 0: 730 h × 3.20 = 2,336; free 100 h = −320; plan 30% of 2,016 = −604.80; net 1,411.20;
    // vouchers: pay 60% → −564.48; total 846.72.
    CHECK(report.months[0].credits == Approx(-320 - 604.8 - 564.48));
    CHECK(report.months[0].total == Approx(846.72));
    // Month 1: 2,336 × 0.7 × 0.6 = 981.12.
    CHECK(report.months[1].total == Approx(981.12));

    EvaluationOptions region;
    region.discounts.region_price_factor = 0.75;  // a 25% cheaper region
    CHECK(evaluate(OnDemand{}, DemandProfile::constant(1, Horizon::months(1)), a100_offering(), gpu_view(region)).total ==
          Approx(1752.0));  // 730 × 3.20 × 0.75
}

TEST_CASE("break-even utilisation compares with the on-demand price after the on-demand discount") {
    EvaluationOptions options;
    options.discounts.on_demand_discount = 0.3;
    options.discounts.voucher_price_factor = 0.5;  // scales reserved and on-demand spend alike
    const Mix reserved{{{1.0, Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52}}}};
    const auto report = evaluate(reserved, DemandProfile::constant(1, Horizon::years(3)), a100_offering(), gpu_view(options));
    // Reserved 0.48 × 3.20 = 1.536 $/GPU-h against on-demand 3.20 × 0.7 = 2.24 $/GPU-h: u* = 0.48 / 0.7.
    REQUIRE(report.break_even_utilisation.has_value());
    CHECK(*report.break_even_utilisation == Approx(0.48 / 0.7));

    // Owned hardware gets no vouchers, so on-demand is worth 3.20 × 0.7 × 0.5 = 1.12 $/GPU-h to it.
    // Fixed 20,000 × 0.9 / 35,040 h = 0.513699 $/GPU-h; busy power 1 kW × 1 × 0.10 = 0.10, idle 0:
    // u* = 0.513699 / (1.12 − 0.10) = 0.503626.
    const Owned owned{.capex_per_gpu = 20000, .life_years = 4, .residual_fraction = 0.1, .watts_per_gpu = 1000,
                      .idle_power_fraction = 0, .pue = 1, .electricity_per_kwh = 0.1};
    const auto bought = evaluate(owned, DemandProfile::constant(1, Horizon::years(4)), a100_offering(), gpu_view(options));
    REQUIRE(bought.break_even_utilisation.has_value());
    CHECK(*bought.break_even_utilisation == Approx(20000 * 0.9 / 35040 / (1.12 - 0.10)));
}

TEST_CASE("figures that do not apply are none, not NaN or infinity (F1, F15)") {
    // F1: no demand, so no GPU-hour is used and there is no cost per used GPU-hour (it was NaN).
    const auto idle = evaluate(OnDemand{}, DemandProfile::constant(0, Horizon::years(1)), a100_offering(), gpu_view());
    CHECK(idle.used_gpu_hours == 0.0);
    CHECK_FALSE(idle.effective_cost_per_used_gpu_hour.has_value());
    CHECK(idle.to_json().find("\"effective_cost_per_used_gpu_hour\": null") != std::string::npos);
    CHECK(idle.to_table().find("Cost per used GPU-hour (USD)                    none\n") != std::string::npos);

    // F15: an owned GPU whose power above idle, 40 kW × 1 × $0.10 = $4.00 per busy hour, costs more than
    // the $3.20 on-demand hour it replaces never pays back at any utilisation (it was +infinity).
    const Owned hungry{.capex_per_gpu = 20000, .life_years = 4, .residual_fraction = 0.1, .watts_per_gpu = 40000,
                       .idle_power_fraction = 0, .pue = 1, .electricity_per_kwh = 0.1};
    const auto never = evaluate(hungry, DemandProfile::constant(1, Horizon::years(4)), a100_offering(), gpu_view());
    CHECK_FALSE(never.break_even_utilisation.has_value());
    CHECK(never.to_json().find("\"break_even_utilisation\": null") != std::string::npos);
    // Just below the price ($3.10 per busy hour) it pays back: fixed 20,000 × 0.9 / 35,040 = 0.513699 $/h,
    // u* = 0.513699 / (3.20 − 3.10) = 5.13699 (above 1: owning loses even at full use, but a number).
    Owned thrifty = hungry;
    thrifty.watts_per_gpu = 31000;
    const auto some = evaluate(thrifty, DemandProfile::constant(1, Horizon::years(4)), a100_offering(), gpu_view());
    REQUIRE(some.break_even_utilisation.has_value());
    CHECK(*some.break_even_utilisation == Approx(20000 * 0.9 / 35040 / (3.20 - 3.10)));
}

TEST_CASE("ratios against almost nothing are none or 0, not infinity (F16)") {
    // 1e-300 GPUs all year: used 1e-300 x 8,760 = 8.76e-297 GPU-hours, a baseline of 8.76e-297 x $3.20
    // = 2.8e-296. A 3-year reservation of one whole GPU costs 0.48 x 3.20 x 26,280 h =
    // $40,366.08 all the same, so total / used and savings / baseline were about 1e300 and more: infinite.
    Mix reserved{{{1.0, Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52}}}};
    reserved.fleet_gpus = 1;  // one whole GPU committed, whatever the demand
    const auto report =
        evaluate(reserved, DemandProfile::constant(1e-300, Horizon::years(1)), a100_offering(), gpu_view());
    CHECK(report.used_gpu_hours == Approx(8.76e-297));
    CHECK(report.total == Approx(0.48 * 3.20 * 26280));
    CHECK_FALSE(report.effective_cost_per_used_gpu_hour.has_value());  // below 1e-12 GPU-hours: none
    CHECK(report.savings == Approx(-0.48 * 3.20 * 26280));
    CHECK(report.savings_fraction == 0.0);  // baseline below 1e-12 of a dollar: nothing to compare against
    // Just at the limit a cost per hour is stated: 1e-12 GPU-hours in the year's 8,760 hours.
    const auto tiny = evaluate(OnDemand{}, DemandProfile::constant(1e-12 / 8760 * 1.001, Horizon::years(1)),
                               a100_offering(), gpu_view());
    REQUIRE(tiny.effective_cost_per_used_gpu_hour.has_value());
    CHECK(*tiny.effective_cost_per_used_gpu_hour == Approx(3.20));
}

TEST_CASE("NPV discounts monthly flows at (1 + r)^(1/12)") {
    EvaluationOptions options;
    options.annual_discount_rate = 0.12;
    Offering one_dollar = a100_offering();
    one_dollar.on_demand_hourly = 8.0;  // $1 per GPU-hour
    const auto report = evaluate(OnDemand{}, DemandProfile::constant(1, Horizon::months(2)), one_dollar, gpu_view(options));
    // 730 + 730 / 1.12^(1/12) = 730 + 723.13829 = 1,453.13829
    CHECK(report.npv == Approx(1453.1382905));
    CHECK(report.total == Approx(1460.0));
}

TEST_CASE("spot tranche: overhead, availability and the spread of the total") {
    SpotTranche spot;
    spot.overhead = 1.25;
    spot.availability = 0.8;
    spot.overhead_samples = {1.0, 1.25, 1.5};
    const Mix mix{{{0.5, spot}, {0.5, OnDemand{}}}, {}, Rounding::none};
    const auto report = evaluate(mix, DemandProfile::constant(2, Horizon::months(1)), a100_offering(), gpu_view());
    // 1 spot GPU available 80% of hours: 0.8 × 730 = 584 useful GPU-h at $1.00 × 1.25 = 730.00;
    // on-demand 2 × 730 − 584 = 876 GPU-h at 3.20 = 2,803.20; total 3,533.20.
    CHECK(report.months[0].spot_gpu_hours == Approx(584.0));
    CHECK(report.months[0].spot == Approx(730.0));
    CHECK(report.months[0].on_demand == Approx(2803.2));
    CHECK(report.total == Approx(3533.2));
    REQUIRE(report.spread.has_value());
    // Totals per overhead sample: 3,533.20 + 584 × (o − 1.25) → 3,387.20, 3,533.20, 3,679.20.
    CHECK(report.spread->p50 == Approx(3533.2));
    CHECK(report.spread->p95 == Approx(3533.2 + 0.9 * 146.0));  // type-7: 3,533.20 + 0.9 × 146
}

TEST_CASE("spot hours without capacity fall to on-demand whatever the demand") {
    SpotTranche spot;
    spot.availability = 0.5;
    // Demand 1 GPU, a fleet of 2 spot GPUs available half the hours: 730 GPU-h demanded in the month.
    // Spot serves min(1, 2) × 0.5 × 730 = 365 GPU-h at $1.00 = 365.00; the other 365 GPU-h go on demand
    // at $3.20 = 1,168.00; total 1,533.00. (The old engine subtracted 2 × 0.5 = 1 GPU from every hour and
    // costed only the 365 spot hours.)
    const Mix all_spot{{{1.0, spot}}, 2.0, Rounding::none};
    const auto report = evaluate(all_spot, DemandProfile::constant(1, Horizon::months(1)), a100_offering(), gpu_view());
    CHECK(report.months[0].spot_gpu_hours == Approx(365.0));
    CHECK(report.months[0].on_demand_gpu_hours == Approx(365.0));
    CHECK(report.months[0].spot_gpu_hours + report.months[0].on_demand_gpu_hours == Approx(730.0));
    CHECK(report.total == Approx(365.0 + 1168.0));

    // Growing demand, 20% spot at 90% availability: every demanded GPU-hour is costed once.
    SpotTranche mostly{.availability = 0.9};
    const Mix mix{{{0.7, Reserved{.term_years = 1, .reservation_discount = 0.4}}, {0.2, mostly}, {0.1, OnDemand{}}}};
    const auto growing = DemandProfile::linear_growth(4, 20, Horizon::years(2));
    const auto grown = evaluate(mix, growing, a100_offering(), gpu_view());
    double served = 0;
    for (const auto& f : grown.months) served += f.reserved_used_gpu_hours + f.spot_gpu_hours + f.on_demand_gpu_hours;
    CHECK(served == Approx(growing.total_gpu_hours()).epsilon(1e-12));
}

TEST_CASE("bad strategies are rejected with the field, value and rule") {
    const auto demand = DemandProfile::constant(4, Horizon::years(1));
    const Offering o = a100_offering();
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{0.7, Reserved{.reservation_discount = 0.5}}, {0.2, OnDemand{}}}}, demand, o),
                         "mix.fractions (sum) = 0.8999999999999999: must sum to 1", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.4, Reserved{.reservation_discount = 0.5}}, {-0.4, OnDemand{}}}}, demand, o),
                         "mix.tranches[0].fraction = 1.4: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{}, demand, o), "mix.tranches.size = 0: must be >= 1", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Reserved{.term_years = 3}, demand, o),
                         "reserved = \"3y no_upfront\": offering testcloud/test-1/a100x8 lists no such reservation "
                         "price; set reserved.reservation_discount",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Reserved{.term_years = 0, .reservation_discount = 0.3}, demand, o),
                         "reserved.term_years = 0: must be in [1, 5]", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Reserved{.reservation_discount = 1.2}, demand, o),
                         "reserved.reservation_discount = 1.2: must be in [0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, SpotTranche{.overhead = 0.5}}}}, demand, o),
                         "spot.overhead = 0.5: must be finite and >= 1 (billed per useful hour)", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, SpotTranche{.availability = 1.5}}}}, demand, o),
                         "spot.availability = 1.5: must be in [0, 1]", InvalidInput);
    Offering no_spot = o;
    no_spot.spot_hourly.reset();
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, SpotTranche{}}}}, demand, no_spot),
                         "spot.price_per_gpu_hour = \"none\": offering testcloud/test-1/a100x8 lists no spot price; "
                         "set spot.price_per_gpu_hour",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, OnDemand{}}}, -2.0}, demand, o), "mix.fleet_gpus = -2: must be finite and >= 0",
                         InvalidInput);
    EvaluationOptions bad;
    bad.discounts.voucher_price_factor = 0;
    CHECK_THROWS_WITH_AS(evaluate(OnDemand{}, demand, o, bad), "discounts.voucher_price_factor = 0: must be in (0, 1]",
                         InvalidInput);
    bad = {};
    bad.discounts.on_demand_discount = -0.1;
    CHECK_THROWS_WITH_AS(evaluate(OnDemand{}, demand, o, bad), "discounts.on_demand_discount = -0.1: must be in [0, 1)",
                         InvalidInput);
    bad = {};
    bad.annual_discount_rate = std::nan("");
    CHECK_THROWS_WITH_AS(evaluate(OnDemand{}, demand, o, bad),
                         "annual_discount_rate = nan: must be in [-0.5, 1] (a fraction a year: 0.05 for 5%)",
                         InvalidInput);
}

TEST_CASE("the discount rate is bounded away from -1 and above by 100% a year") {
    const auto demand = DemandProfile::constant(4, Horizon::years(3));
    const Offering o = a100_offering();
    const std::string rule = ": must be in [-0.5, 1] (a fraction a year: 0.05 for 5%)";
    for (double rate : {-1.0, -0.51, 1.01, 5.0, std::numeric_limits<double>::infinity()}) {
        CAPTURE(rate);
        CHECK_THROWS_WITH_AS(evaluate(OnDemand{}, demand, o, {.annual_discount_rate = rate}),
                             ("annual_discount_rate = " + fmt::format("{}", rate) + rule).c_str(), InvalidInput);
    }
    // The edges are valid, and the NPV stays finite at the worst corner: 100 years at -50% a year weighs the
    // last month by 0.5^(-1199/12) = 1.1e30, times at most 1e9 GPUs x $1e12 x 730 h a month.
    const auto century = DemandProfile::constant(1e9, Horizon::years(100));
    Offering dear = o;
    dear.on_demand_hourly = 1e12;
    const auto low = evaluate(OnDemand{}, century, dear, {.annual_discount_rate = -0.5});
    CHECK(std::isfinite(low.npv));
    CHECK(low.npv > low.total);  // a negative rate weighs later months more
    const auto high = evaluate(OnDemand{}, demand, o, gpu_view({.annual_discount_rate = 1}));
    // Month m weighs 2^(-m/12): 36 months of 4 x 730 x 3.20 = 9,344 each.
    double npv = 0;
    for (int m = 0; m < 36; ++m) npv += 9344.0 * std::pow(2.0, -m / 12.0);
    CHECK(high.npv == Approx(npv).epsilon(1e-12));
}

TEST_CASE("extreme but valid prices, factors and demands give finite figures (fuzz finding F9)") {
    // Found by fuzzing: a denormal on-demand price, region or voucher factor made break-even utilisation
    // and savings fractions infinite. Each now has a stated range.
    const auto demand = DemandProfile::constant(4, Horizon::years(1));
    Offering o = a100_offering();
    o.on_demand_hourly = 1e-300;
    CHECK_THROWS_WITH_AS(evaluate(OnDemand{}, demand, o), "offering.on_demand_hourly = 1e-300: must be 0 or >= 1e-06",
                         InvalidInput);
    EvaluationOptions bad;
    bad.discounts.region_price_factor = 1e-300;
    CHECK_THROWS_WITH_AS(evaluate(OnDemand{}, demand, a100_offering(), bad),
                         "discounts.region_price_factor = 1e-300: must be >= 0.001", InvalidInput);
    bad = {};
    bad.discounts.voucher_price_factor = 1e-300;
    CHECK_THROWS_WITH_AS(evaluate(OnDemand{}, demand, a100_offering(), bad),
                         "discounts.voucher_price_factor = 1e-300: must be >= 0.001", InvalidInput);

    // Random corners of every range: each figure finite (F1's NaN cost per unused hour, F15's infinite
    // break-even and F16's ratios against almost nothing are none instead).
    std::mt19937_64 rng(9);
    const auto pick = [&](std::initializer_list<double> values) {
        return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
    };
    for (int i = 0; i < 400; ++i) {
        Offering offering = a100_offering();
        offering.gpus_per_instance = int(pick({1, 8}));
        offering.on_demand_hourly = pick({0.0, 1e-6, 1.0, 1e12});
        offering.spot_hourly = pick({0.0, 1e-12, 1e12});
        EvaluationOptions options;
        options.units = pick({0, 1}) == 0 ? Units::gpus : Units::instances;
        options.annual_discount_rate = pick({-0.5, 0.0, 1.0});
        options.discounts.region_price_factor = pick({1e-3, 1.0, 1e3});
        options.discounts.voucher_price_factor = pick({1e-3, 1.0});
        options.discounts.on_demand_discount = pick({0.0, 0.5, 1.0 - 1e-16});
        options.discounts.free_gpu_hours = pick({0.0, 100.0, 1e15});
        const Owned owned{.capex_per_gpu = pick({0.0, 1e-12, 1e12}), .life_years = 1,
                          .watts_per_gpu = pick({0.0, 1e7}), .electricity_per_kwh = pick({0.0, 1e12}),
                          .staff_per_month = pick({0.0, 1e12})};
        const Reserved reserved{.term_years = 1, .payment = Payment::partial_upfront, .reservation_discount = pick({0.0, 0.999999})};
        const SpotTranche spot{.price_per_gpu_hour = pick({0.0, 1e12}), .overhead = pick({1.0, 1e6}),
                               .availability = pick({0.0, 0.5, 1.0})};
        const double fraction = pick({0.0, 0.3, 1.0});
        Mix mix;
        switch (i % 3) {
            case 0: mix.tranches = {{fraction, owned}, {1 - fraction, OnDemand{}}}; break;
            case 1: mix.tranches = {{fraction, reserved}, {1 - fraction, OnDemand{}}}; break;
            default: mix.tranches = {{fraction, spot}, {1 - fraction, OnDemand{}}};
        }
        mix.rounding = Rounding::none;
        const double gpus = pick({1e-300, 1e-9 / 730 * 2, 1e-3, 1.0, 1e9});
        const auto profile = DemandProfile::constant(gpus, Horizon::months(int(pick({1, 13}))));
        CAPTURE(i);
        const CostReport r = evaluate(mix, profile, offering, options);
        for (double v : {r.total, r.npv, r.used_gpu_hours, r.baseline_total, r.savings, r.savings_fraction,
                         r.reserved_utilisation, r.owned_utilisation})
            CHECK(std::isfinite(v));
        CHECK(r.effective_cost_per_used_gpu_hour.has_value() == (r.used_gpu_hours >= 1e-12));
        if (r.effective_cost_per_used_gpu_hour) CHECK(std::isfinite(*r.effective_cost_per_used_gpu_hour));
        if (r.break_even_utilisation) CHECK(std::isfinite(*r.break_even_utilisation));
        for (const MonthlyCashFlow& m : r.months) CHECK(std::isfinite(m.total));
    }
}

TEST_CASE("objects built in C++ meet the same limits as those built from Python") {
    // The Python layer validates a SpotTranche or Mix where it builds one; the engine now does it too.
    const auto demand = DemandProfile::constant(4, Horizon::years(1));
    const Offering o = a100_offering();
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, SpotTranche{.overhead = 1e7}}}}, demand, o),
                         "spot.overhead = 10000000: must be <= 1e+06", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, SpotTranche{.price_per_gpu_hour = 1e13}}}}, demand, o),
                         "spot.price_per_gpu_hour = 10000000000000: must be <= 1e+12", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, SpotTranche{.overhead_samples = {1.0, 2e6}}}}}, demand, o),
                         "spot.overhead_samples[1] = 2000000: must be <= 1e+06", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Mix{{{1.0, OnDemand{}}}, 1e12}, demand, o),
                         "mix.fleet_gpus = 1000000000000: must be <= 1e+09", InvalidInput);
    CHECK_THROWS_WITH_AS(evaluate(Owned{.capex_per_gpu = 1e308}, demand, o),
                         "owned.capex_per_gpu = 1e+308: must be <= 1e+12", InvalidInput);
}

TEST_CASE("report exports: table, JSON and CSV") {
    const auto report = evaluate(Reserved{.term_years = 1, .reservation_discount = 0.4}, DemandProfile::constant(2, Horizon::years(1)),
                                 a100_offering(), gpu_view());
    const std::string table = fmt::format("{}", report);
    CHECK(table.find("Strategy: 100% reserved 1y no_upfront") != std::string::npos);
    CHECK(table.find("Savings vs all on-demand") != std::string::npos);
    CHECK(table.find("22,425.60") != std::string::npos);  // savings: 0.4 × 2 × 8,760 × 3.20
    const std::string json = report.to_json();
    const auto at = json.find("\"savings_fraction\": ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stod(json.substr(at + 20, 20)) == Approx(0.4));
    CHECK(json.find("\"currency\": \"USD\"") != std::string::npos);
    const std::string csv = report.to_csv();
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 13);  // header + 12 months
    CHECK(csv.rfind("month,upfront,reserved_recurring,on_demand,spot,credits,total", 0) == 0);
}

TEST_CASE("70% reserved / 20% spot / 10% on-demand over 3 years, spot overhead from the Monte Carlo engine") {
    const Job job{.work_hours = 200, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25};
    const SpotResult sim = simulate_spot(job, Poisson{.mtbf_hours = 20}, {}, {.paths = 20000, .seed = 7});
    const SpotTranche spot = spot_tranche(sim, job);
    // The simulated overhead agrees with the closed form: E[billed] / W within 4 standard errors.
    const double expected_overhead = expected_spot_time(job, 20).billed_hours / job.work_hours;
    CHECK(std::abs(spot.overhead - expected_overhead) <= 4 * sim.billed_hours.standard_error / job.work_hours);

    const Mix mix{{{0.7, Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52}},
                   {0.2, spot},
                   {0.1, OnDemand{}}},
                  {},
                  Rounding::none};
    const auto report = evaluate(mix, DemandProfile::constant(10, Horizon::years(3)), a100_offering(), gpu_view());
    // 7 GPUs reserved: 7 × 26,280 × 1.536 = 282,562.56; 2 GPUs spot: 2 × 26,280 × $1.00 × overhead;
    // 1 GPU on-demand: 26,280 × 3.20 = 84,096.
    const double spot_cost = 2 * 26280 * 1.0 * spot.overhead;
    CHECK(report.total == Approx(282562.56 + spot_cost + 84096.0));
    REQUIRE(report.spread.has_value());
    CHECK(report.spread->mean == Approx(report.total));  // linear in the overhead, so the means agree
    CHECK(report.spread->p05 < report.spread->p50);
    CHECK(report.spread->p50 < report.spread->p95);
    CHECK(report.strategy == "70% reserved 3y all_upfront + 20% spot + 10% on-demand");
}

namespace {
/// An owned A100: $20,000, 3-year life, resold at 10%; 500 W busy, 30% idle, PUE 1.5, $0.10/kWh, so a
/// busy GPU-hour of power costs 0.5 kW × 1.5 × 0.10 = $0.075 and an idle one $0.0225; colocation $100
/// per GPU-month, maintenance 5% of capex a year.
Owned owned_a100() {
    return Owned{.capex_per_gpu = 20000, .life_years = 3, .residual_fraction = 0.1, .watts_per_gpu = 500,
                 .idle_power_fraction = 0.3, .pue = 1.5, .electricity_per_kwh = 0.10,
                 .colocation_per_gpu_month = 100, .maintenance_fraction_per_year = 0.05};
}
}  // namespace

TEST_CASE("owning GPUs: capex, power, colocation, maintenance and resale") {
    const auto report = evaluate(owned_a100(), DemandProfile::constant(4, Horizon::years(3)), a100_offering(), gpu_view());
    CHECK(report.months[0].capex == Approx(80000.0));                    // 4 × 20,000
    CHECK(report.months[35].resale == Approx(-8000.0));                  // 4 × 10% × 20,000 at the end of life
    CHECK(report.months[0].operating == Approx(219.0 + 400.0 + 1000.0 / 3.0));  // power 4 × 730 × 0.075,
                                                                                 // colocation 4 × 100, maintenance
    // 80,000 − 8,000 + power 36 × 219 + colocation 36 × 400 + maintenance 36 × 333.33 = 106,284.
    CHECK(report.total == Approx(106284.0));
    CHECK(report.baseline_total == Approx(336384.0));
    CHECK(report.owned_utilisation == Approx(1.0));
    // Fixed per GPU-hour: 18,000 / 26,280 + 100 / 730 + 1,000 / 8,760 = 0.936073; idle power 0.0225;
    // u* = (0.936073 + 0.0225) / (3.20 − (0.075 − 0.0225)) = 0.304551.
    CHECK(*report.break_even_utilisation == Approx(0.3045506146));
    CHECK(report.strategy == "100% owned 3y life");
}

TEST_CASE("owned hardware is bought again when its life ends and credited at book value at the end") {
    const Owned bare{.capex_per_gpu = 1000, .life_years = 1, .residual_fraction = 0.25, .watts_per_gpu = 0};
    const auto twice = evaluate(bare, DemandProfile::constant(1, Horizon::years(2)), a100_offering(), gpu_view());
    CHECK(twice.months[12].capex == Approx(1000.0));
    CHECK(twice.months[12].resale == Approx(-250.0));  // the first GPU sold at 25%
    CHECK(twice.months[23].resale == Approx(-250.0));  // the second, at the end of its life
    CHECK(twice.total == Approx(1500.0));               // 2 × 1,000 − 2 × 250

    Owned long_life = bare;
    long_life.life_years = 4;
    long_life.residual_fraction = 0.2;
    const auto early = evaluate(long_life, DemandProfile::constant(1, Horizon::years(1)), a100_offering(), gpu_view());
    // Book value after 12 of 48 months: 1,000 × (1 − 0.8 × 12 / 48) = 800.
    CHECK(early.months[11].resale == Approx(-800.0));
    CHECK(early.total == Approx(200.0));
}

TEST_CASE("owned GPUs serve demand first, idle ones draw idle power, bursts go on demand") {
    const Mix mix{{{1.0, owned_a100()}}, 4.0};
    const auto half_busy = evaluate(mix, DemandProfile::constant(2, Horizon::years(3)), a100_offering(), gpu_view());
    // Power: 730 × (2 × 0.075 + 2 × 0.0225) = 142.35 a month, plus colocation 400 and maintenance 333.33.
    CHECK(half_busy.months[1].operating == Approx(142.35 + 400.0 + 1000.0 / 3.0));
    CHECK(half_busy.owned_utilisation == Approx(0.5));

    const Mix base_and_burst{{{0.5, owned_a100()}, {0.5, OnDemand{}}}, 4.0};
    const auto burst = evaluate(base_and_burst, DemandProfile::constant(6, Horizon::years(3)), a100_offering(), gpu_view());
    // 2 owned GPUs; the other 4 GPUs every hour on demand: 4 × 730 × 3.20 = 9,344 a month.
    CHECK(burst.months[5].on_demand == Approx(9344.0));
    CHECK(burst.months[5].owned_used_gpu_hours == Approx(1460.0));
}

TEST_CASE("bad ownership terms are rejected with the field, value and rule") {
    const auto demand = DemandProfile::constant(1, Horizon::years(1));
    Owned bad = owned_a100();
    bad.life_years = 0;
    CHECK_THROWS_WITH_AS(evaluate(bad, demand, a100_offering(), gpu_view()), "owned.life_years = 0: must be in [1, 10]", InvalidInput);
    bad = owned_a100();
    bad.pue = 0.9;
    CHECK_THROWS_WITH_AS(evaluate(bad, demand, a100_offering(), gpu_view()), "owned.pue = 0.9: must be finite and >= 1", InvalidInput);
    bad = owned_a100();
    bad.residual_fraction = 1;
    CHECK_THROWS_WITH_AS(evaluate(bad, demand, a100_offering(), gpu_view()), "owned.residual_fraction = 1: must be in [0, 1)",
                         InvalidInput);
    bad = owned_a100();
    bad.capex_per_gpu = -5;
    CHECK_THROWS_WITH_AS(evaluate(bad, demand, a100_offering(), gpu_view()), "owned.capex_per_gpu = -5: must be finite and >= 0",
                         InvalidInput);
    bad = owned_a100();
    bad.idle_power_fraction = 1.5;
    CHECK_THROWS_WITH_AS(evaluate(bad, demand, a100_offering(), gpu_view()), "owned.idle_power_fraction = 1.5: must be in [0, 1]",
                         InvalidInput);
}

TEST_CASE("spot_tranche charges each launch's billing rounding") {
    const Job job{.work_hours = 50, .checkpoint_interval_hours = 1, .checkpoint_write_hours = 0.05,
                  .restart_hours = 0.1};
    SpotPricing hourly;
    hourly.billing_increment_hours = 1.0;
    const SpotResult continuous = simulate_spot(job, Poisson{.mtbf_hours = 3}, {}, {.paths = 2000, .seed = 3});
    const SpotResult rounded = simulate_spot(job, Poisson{.mtbf_hours = 3}, hourly, {.paths = 2000, .seed = 3});
    // Same paths (same seed), so the hourly rounding only adds: each launch charged up to a whole hour.
    CHECK(spot_tranche(continuous, job).overhead == Approx(continuous.billed_hours.mean / 50));
    CHECK(spot_tranche(rounded, job).overhead == Approx(rounded.charged_hours.mean / 50));
    CHECK(spot_tranche(rounded, job).overhead > spot_tranche(continuous, job).overhead);
}

TEST_CASE("whole instances by default: on-demand is paid per instance, part-filled ones in full") {
    // 4 GPUs of demand on 8-GPU instances: one instance runs every hour, 8 GPU-hours paid per hour:
    // 8 × 26,280 h × $3.20 = 672,768.00, twice the GPU-level 336,384.00.
    const auto demand = DemandProfile::constant(4, Horizon::years(3));
    const auto whole = evaluate(OnDemand{}, demand, a100_offering());
    CHECK(whole.units == "instances");
    CHECK(whole.gpus_per_unit == 8);
    CHECK(whole.total == Approx(672768.0));
    CHECK(whole.used_gpu_hours == Approx(4 * 26280.0));
    CHECK(whole.months[0].on_demand_gpu_hours == Approx(4 * 730.0));
    CHECK(whole.months[0].on_demand_paid_gpu_hours == Approx(8 * 730.0));
    CHECK(*whole.effective_cost_per_used_gpu_hour == Approx(6.4));
    const auto single = evaluate(OnDemand{}, demand, a100_offering(), gpu_view());
    CHECK(single.units == "gpus");
    CHECK(single.gpus_per_unit == 1);
    CHECK(single.total == Approx(336384.0));
    CHECK(single.months[0].on_demand_paid_gpu_hours == Approx(4 * 730.0));
    // The report says which, in its assumptions and its table.
    const auto says = [](const CostReport& r, std::string_view text) {
        return std::any_of(r.assumptions.begin(), r.assumptions.end(),
                           [&](const std::string& a) { return a.find(text) != std::string::npos; });
    };
    CHECK(says(whole, "bought in whole instances of 8 GPUs"));
    CHECK(says(single, "counted in single GPUs (the GPU-level view), although testcloud sells instances of 8 GPUs"));
    CHECK(whole.to_table().find("Bought in: whole instances of 8 GPUs") != std::string::npos);
    CHECK(single.to_table().find("Bought in: single GPUs") != std::string::npos);
    CHECK(whole.to_json().find("\"units\": \"instances\"") != std::string::npos);
}

TEST_CASE("a part-hour GPU rides in a part-filled instance or starts one for its part of the hour") {
    const auto paid_per_hour = [](double gpus) {
        const auto r = evaluate(OnDemand{}, DemandProfile::constant(gpus, Horizon::months(1)), a100_offering());
        return r.months[0].on_demand_paid_gpu_hours / 730.0;
    };
    CHECK(paid_per_hour(3.5) == Approx(8.0));   // 3 full GPUs + a half: one instance all hour
    CHECK(paid_per_hour(8.0) == Approx(8.0));   // one full instance
    CHECK(paid_per_hour(8.5) == Approx(12.0));  // 8 full GPUs fill one; a second runs half the hour: 1.5 × 8
    CHECK(paid_per_hour(0.25) == Approx(2.0));  // a quarter-hour of one instance
    CHECK(paid_per_hour(9.0) == Approx(16.0));
    // On a 1-GPU offering whole instances are single GPUs, bit for bit.
    Offering one = a100_offering();
    one.gpus_per_instance = 1;
    one.on_demand_hourly = 3.2;
    one.spot_hourly = 1.0;
    const auto demand = DemandProfile::linear_growth(0.3, 7.7, Horizon::years(1));
    const Mix mix{{{0.5, Reserved{.term_years = 1, .reservation_discount = 0.3}}, {0.3, SpotTranche{.availability = 0.7}},
                   {0.2, OnDemand{}}}};
    CHECK(evaluate(mix, demand, one).total == evaluate(mix, demand, one, gpu_view()).total);
}

TEST_CASE("the 70/30 mix on 12 GPUs of 8-GPU instances: the rounding cost of whole instances") {
    const Mix mix{{{0.7, Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52}},
                   {0.3, OnDemand{}}}};
    const auto demand = DemandProfile::constant(12, Horizon::years(3));
    const auto whole = evaluate(mix, demand, a100_offering());
    const auto single = evaluate(mix, demand, a100_offering(), gpu_view());
    // Reserved: 70% × 12 = 8.4 GPUs → round(8.4 / 8) = 1 instance = 8 GPUs in both views (GPU view: round(8.4) = 8),
    // 8 × 26,280 h × 0.48 × $3.20 = 322,928.64 paid upfront.
    CHECK(whole.months[0].upfront == Approx(322928.64));
    CHECK(single.months[0].upfront == Approx(322928.64));
    // The other 4 GPUs: a whole 8-GPU instance on demand, 8 × 26,280 × 3.20 = 672,768.00, against
    // 4 × 26,280 × 3.20 = 336,384.00 by the GPU.
    CHECK(whole.total == Approx(322928.64 + 672768.0));
    CHECK(single.total == Approx(322928.64 + 336384.0));
    CHECK(whole.total - single.total == Approx(336384.0));  // the rounding cost
    // Baselines: 12 GPUs on demand = 2 instances (16 × 26,280 × 3.20 = 1,345,536.00) or 12 GPUs (1,009,152.00).
    CHECK(whole.baseline_total == Approx(1345536.0));
    CHECK(single.baseline_total == Approx(1009152.0));
    // A reservation alone covers the peak in whole instances: 12 GPUs → 2 instances = 16 GPUs.
    const auto reserved_alone =
        evaluate(Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52}, demand, a100_offering());
    CHECK(reserved_alone.months[0].reserved_gpu_hours == Approx(16 * 730.0));
    CHECK(reserved_alone.months[0].on_demand_paid_gpu_hours == 0.0);
    // Spot shares are whole instances too: 20% of 40 GPUs = 8 → 1 instance.
    const Mix with_spot{{{0.8, OnDemand{}}, {0.2, SpotTranche{.availability = 0.5}}}, 40.0};
    const auto spot = evaluate(with_spot, DemandProfile::constant(4, Horizon::months(1)), a100_offering());
    // Spot serves 4 GPUs half the hours (1,460 GPU-h), paying a whole instance then: 0.5 × 730 × 8 × $1.00;
    // on demand the other half, also a whole instance: 0.5 × 730 × 8 × $3.20.
    CHECK(spot.months[0].spot_gpu_hours == Approx(1460.0));
    CHECK(spot.months[0].spot_paid_gpu_hours == Approx(2920.0));
    CHECK(spot.months[0].spot == Approx(2920.0));
    CHECK(spot.months[0].on_demand_paid_gpu_hours == Approx(2920.0));
    CHECK(spot.total == Approx(2920.0 + 9344.0));
}

TEST_CASE("an owned tranche of 0 GPUs pays no staff (no fleet to run)") {
    // 1% of 10 GPUs rounds to 0 owned GPUs: no capex, no power, and no staff either.
    Owned owned{.capex_per_gpu = 20000, .staff_per_month = 1000};
    const Mix mix{{{0.01, owned}, {0.99, OnDemand{}}}, 10.0, Rounding::nearest};
    const auto report = evaluate(mix, DemandProfile::constant(4, Horizon::months(6)), a100_offering(), gpu_view());
    for (const MonthlyCashFlow& f : report.months) {
        CHECK(f.owned_gpu_hours == 0);
        CHECK(f.operating == 0);
    }
    CHECK(report.total == Approx(4 * 6 * 730 * 3.2));  // all on demand
    // With one GPU the staff is paid every month.
    const Mix one{{{0.1, owned}, {0.9, OnDemand{}}}, 10.0, Rounding::nearest};
    const auto owning = evaluate(one, DemandProfile::constant(4, Horizon::months(6)), a100_offering(), gpu_view());
    CHECK(owning.months[0].operating >= 1000.0);
}

TEST_CASE("spread: every spot tranche with samples moves the total, at the same quantile") {
    // Two spot tranches of 2 GPUs at $1.00/GPU-h serve 4 GPUs of demand all year: 8,760 h × 2 GPUs ×
    // $1 = 17,520 each at overhead 1. Samples {1, 2} and {1, 3}: path 0 adds nothing, path 1 adds
    // 17,520 × 1 + 17,520 × 2 = 52,560 to the total of 35,040.
    const Mix mix{{{0.5, SpotTranche{.overhead = 1.0, .overhead_samples = {2.0, 1.0}}},
                   {0.5, SpotTranche{.overhead = 1.0, .overhead_samples = {1.0, 3.0}}}},
                  4.0,
                  Rounding::nearest};
    const auto report = evaluate(mix, DemandProfile::constant(4, Horizon::years(1)), a100_offering(), gpu_view());
    CHECK(report.total == Approx(35040.0));
    REQUIRE(report.spread.has_value());
    CHECK(report.spread->mean == Approx(35040.0 + 52560.0 / 2));
    CHECK(report.spread->p05 == Approx(35040.0 + 0.05 * 52560.0));  // type 7 between the two paths
    CHECK(report.spread->p99 == Approx(35040.0 + 0.99 * 52560.0));
}
