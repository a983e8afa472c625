// Capacity blocks and dated windows of demand in the plan engine (plan.hpp's CapacityBlock,
// demand_window.hpp): the hand check, the rules to the letter, and the mixture of a month's pieces
// against the same demand written hour by hour.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "plan_fixtures.hpp"
#include "gputco/core/error.hpp"
#include "gputco/engines/plan_engine.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

/// p5.48xlarge (8 × H100) at the catalog's on-demand $55.04/h and the Capacity Block price $39.33 per
/// instance-hour (AWS Capacity Blocks for ML pricing page, us-east-1, the table in force until 2025-01-01).
Offering p5() {
    Offering o;
    o.provider = "aws";
    o.region = "us-east-1";
    o.instance_type = "p5.48xlarge";
    o.gpu = "H100";
    o.gpus_per_instance = 8;
    o.on_demand_hourly = 55.04;
    o.capacity_block_hourly = 39.33;
    o.source = {"test copy of the catalog row", "2026-11"};
    return o;
}

double total_of(const std::vector<MonthlyCashFlow>& months, double MonthlyCashFlow::*field) {
    double s = 0;
    for (const auto& m : months) s += m.*field;
    return s;
}

std::string error_of(const Plan& plan, const Offering& offering, const PlanOptions& options = {}, int months = 3) {
    try {
        evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(months))), offering,
                      {}, options);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("capacity block, by hand: 2 × p5.48xlarge for 10 days") {
    // Paid hours: 10 d × 24 h = 240 h per instance; paid in full at purchase:
    //   2 instances × 240 h × $39.33 = $18,878.40.
    // Usable: stopped 30 minutes before the end, 240 − 0.5 = 239.5 h per instance, 479 instance-hours
    // (3,832 GPU-hours). Per usable instance-hour $18,878.40 / 479 = $39.41210856 (per usable GPU-hour
    // / 8 = $4.92651357), 0.21% more than the list $39.33 for the half hour lost.
    // A 16-GPU window of exactly those 10 days (days 35–44, all in month 1: hours 840..1080): the block
    // serves 16 × 239.5 = 3,832 GPU-h and the last half hour (16 × 0.5 = 8 GPU-h) runs on demand,
    // in whole instances of 8: 8 GPU-h × $6.88 = $55.04.
    Plan plan;
    plan.billing = Units::instances;
    plan.capacity_blocks.push_back({.instances = 2, .days = 10, .start_day = 35, .lead_days = 14});
    PlanOptions options;
    options.windows.push_back({.start_day = 35, .days = 10, .gpus = 16});
    const PlanDistribution d =
        evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(3))), p5(), {}, options);
    // Bought on day 21 (hour 504, month 0), two weeks ahead of its start in month 1.
    CHECK(d.mean_months[0].upfront == Approx(18878.40).epsilon(1e-12));
    CHECK(d.mean_months[1].upfront == 0.0);
    CHECK(d.mean_committed_spend == Approx(18878.40).epsilon(1e-12));
    CHECK(d.mean_committed_spend / (2 * 239.5) == Approx(39.41210856).epsilon(1e-9));
    CHECK(d.mean_committed_spend / (16 * 239.5) == Approx(4.92651357).epsilon(1e-9));
    CHECK(d.futures[0].committed_gpu_hours == Approx(3832.0).epsilon(1e-12));
    CHECK(d.futures[0].committed_used_gpu_hours == Approx(3832.0).epsilon(1e-12));
    CHECK(d.futures[0].demand_gpu_hours == Approx(16 * 240.0).epsilon(1e-12));
    CHECK(total_of(d.mean_months, &MonthlyCashFlow::on_demand_gpu_hours) == Approx(8.0).epsilon(1e-9));
    CHECK(total_of(d.mean_months, &MonthlyCashFlow::on_demand) == Approx(55.04).epsilon(1e-9));
    CHECK(d.total.mean == Approx(18878.40 + 55.04).epsilon(1e-12));
    CHECK(d.futures[0].stranded_unused == Approx(0.0).epsilon(1e-9));
}

TEST_CASE("capacity block: the catalog rate, or a given one; none is an error naming the offering") {
    Plan plan;
    plan.capacity_blocks.push_back({.instances = 1, .days = 7, .start_day = 0});
    PlanOptions options;
    Offering no_rate = p5();
    no_rate.capacity_block_hourly.reset();
    CHECK(error_of(plan, no_rate) ==
          "plan.capacity_blocks[0].price_per_instance_hour = \"none\": is needed: the catalog has no capacity-block "
          "rate for aws/us-east-1/p5.48xlarge");
    plan.capacity_blocks[0].price_per_instance_hour = 40.0;
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(1)));
    CHECK(evaluate_plan(plan, futures, no_rate).total.mean == Approx(40.0 * 168).epsilon(1e-12));
    CHECK(evaluate_plan(plan, futures, no_rate).catalog_rates.empty());  // a price given: nothing from the catalog
    plan.capacity_blocks[0].price_per_instance_hour.reset();
    const PlanDistribution d = evaluate_plan(plan, futures, p5());
    CHECK(d.total.mean == Approx(39.33 * 168).epsilon(1e-12));
    REQUIRE(d.catalog_rates.size() == 1);  // the result says the rate came from the catalog, and whence
    CHECK(d.catalog_rates[0] == "plan.capacity_blocks[0]: 39.3300 USD/instance-h, the capacity-block rate of "
                                "aws/us-east-1/p5.48xlarge in the catalog, test copy of the catalog row (2026-11)");
}

TEST_CASE("capacity block without a price, on the built-in catalog: AWS's published rate with its source and date") {
    // The built-in p5.48xlarge's block rate, $39.33 per instance-hour, from AWS's "Amazon EC2 Capacity
    // Blocks for ML Pricing" table (row "p5.48xlarge  US East (N. Virginia)  $39.33 USD  $4.916 USD"),
    // the prices in force until their update of 2025-01-01. 2 instances for 10 days: 2 × 240 h × 39.33 =
    // $18,878.40 paid at purchase, whatever the on-demand price of the day.
    const Offering& p5 = Catalog::builtin().offering("aws", "p5.48xlarge", "us-east-1");
    Plan plan;
    plan.billing = Units::instances;
    plan.capacity_blocks.push_back({.instances = 2, .days = 10, .start_day = 35, .lead_days = 14});
    const PlanDistribution d =
        evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(3))), p5);
    CHECK(d.mean_months[0].upfront == Approx(18878.40).epsilon(1e-12));
    CHECK(d.total.mean == Approx(18878.40).epsilon(1e-12));
    REQUIRE(d.catalog_rates.size() == 1);
    const std::string& line = d.catalog_rates[0];
    CHECK(line.rfind("plan.capacity_blocks[0]: 39.3300 USD/instance-h, the capacity-block rate of "
                     "aws/us-east-1/p5.48xlarge in the catalog, AWS, 'Amazon EC2 Capacity Blocks for ML Pricing'",
                     0) == 0);
    CHECK(line.size() >= 9);
    CHECK(line.substr(line.size() - 9) == "(2024-12)");
}

TEST_CASE("capacity block rules, to the letter") {
    const auto message = [](CapacityBlock b) {
        Plan plan;
        plan.capacity_blocks.push_back(CapacityBlock{});
        plan.capacity_blocks.push_back(b);
        return error_of(plan, p5(), {}, 12);
    };
    const CapacityBlock ok{.instances = 1, .days = 1, .start_day = 60, .lead_days = 56};
    CHECK(message(ok) == "no error");
    CapacityBlock b = ok;
    b.instances = 0;
    CHECK(message(b) == "plan.capacity_blocks[1].instances = 0: must be in [1, 64]");
    b.instances = 65;
    CHECK(message(b) == "plan.capacity_blocks[1].instances = 65: must be in [1, 64]");
    b.instances = 64;
    CHECK(message(b) == "no error");
    const std::string days_rule = ": must be 1 to 14 days, or whole weeks (a multiple of 7) up to 182 days";
    for (int days : {0, -7, 15, 20, 183, 189}) {
        b = ok;
        b.days = days;
        CHECK(message(b) == "plan.capacity_blocks[1].days = " + std::to_string(days) + days_rule);
    }
    for (int days : {1, 13, 14, 21, 28, 175, 182}) {
        b = ok;
        b.days = days;
        b.start_day = 60;
        CHECK(message(b) == "no error");
    }
    b = ok;
    b.lead_days = 57;
    CHECK(message(b) == "plan.capacity_blocks[1].lead_days = 57: must be in [0, 56] (a block starts at most 8 weeks "
                        "after its purchase)");
    b.lead_days = -1;
    CHECK(message(b) == "plan.capacity_blocks[1].lead_days = -1: must be in [0, 56] (a block starts at most 8 weeks "
                        "after its purchase)");
    b = ok;
    b.start_day = 55;
    CHECK(message(b) == "plan.capacity_blocks[1].start_day = 55: must be >= lead_days (56): the block is bought, and "
                        "paid, inside the horizon");
    b = ok;
    b.start_day = 365;  // 12 months of 730 h = 365 days
    CHECK(message(b) == "plan.capacity_blocks[1].start_day = 365: must leave the block's 1 days inside the horizon "
                        "(365 days)");
    b.start_day = 364;
    CHECK(message(b) == "no error");
    b.price_per_instance_hour = -1;
    CHECK(message(b) == "plan.capacity_blocks[1].price_per_instance_hour = -1: must be finite, > 0 and <= 1e+12");
    b.price_per_instance_hour = std::nan("");
    CHECK(message(b) == "plan.capacity_blocks[1].price_per_instance_hour = nan: must be finite, > 0 and <= 1e+12");
}

TEST_CASE("demand window rules, to the letter") {
    const auto message = [](DemandWindow w) {
        PlanOptions options;
        options.windows.push_back(w);
        return error_of(Plan{}, p5(), options, 1);
    };
    CHECK(message({.start_day = 0, .days = 30.41666, .gpus = 4}) == "no error");
    CHECK(message({.start_day = -1, .days = 1, .gpus = 4}) ==
          "options.windows[0].start_day = -1: must be finite and >= 0");
    CHECK(message({.start_day = 0, .days = 0, .gpus = 4}) == "options.windows[0].days = 0: must be finite and > 0");
    CHECK(message({.start_day = 0, .days = 1, .gpus = -2}) == "options.windows[0].gpus = -2: must be finite and >= 0");
    CHECK(message({.start_day = 0, .days = 1, .gpus = 2e9}) == "options.windows[0].gpus = 2000000000: must be <= 1e+09");
    CHECK(message({.start_day = 30, .days = 1, .gpus = 1}) ==
          "options.windows[0].days = 1: must end inside the horizon: start_day 30 + days <= 30.4167 (1 months of 730 h)");
}

namespace {

/// The demand of `base` with `windows` written into its hours, less the blocks' capacity (the load
/// the other tiers see), hour by hour; and Σ_h min(load + window, block), what the blocks serve. A
/// block's usable time ends half-way through its last hour, which an hourly profile cannot hold: with
/// `last_hour` that hour has the block, else not; the mean of the two is exact, as the engine's cost
/// is a sum over the hours of a month.
DemandProfile by_the_hour(const DemandProfile& base, const std::vector<DemandWindow>& windows,
                          const std::vector<CapacityBlock>& blocks, int gpus_per_instance, bool last_hour,
                          double& block_used) {
    Eigen::ArrayXd hours = base.gpus_per_hour();
    block_used = 0;
    for (Eigen::Index h = 0; h < hours.size(); ++h) {
        const double t = double(h) + 0.5;
        double extra = 0, capacity = 0;
        for (const auto& w : windows)
            if (24 * w.start_day <= t && t < 24 * (w.start_day + w.days)) extra += w.gpus;
        for (const auto& b : blocks)
            if (24.0 * b.start_day <= t && t < 24.0 * (b.start_day + b.days) - (last_hour ? 0.0 : 1.0))
                capacity += double(b.instances * gpus_per_instance);
        block_used += std::min(hours[h] + extra, capacity);
        hours[h] = std::max(0.0, hours[h] + extra - capacity);
    }
    return DemandProfile::hourly(std::move(hours));
}

}  // namespace

TEST_CASE("windows and blocks on steady months: the mixture equals the demand written hour by hour") {
    // With demand flat inside each month the window's hours are a fair sample of the month's, so the
    // engine's mixture is exact: the same plan, with the blocks' money added, on the hour-by-hour load.
    // Windows and blocks start and end on whole hours here (half-hour ends split an hour the test's
    // reference cannot).
    Xoshiro256pp engine(2027);
    for (int trial = 0; trial < 200; ++trial) {
        CAPTURE(trial);
        const int months = test::uniform_int(engine, 2, 5);
        const Horizon horizon = Horizon::months(months);
        std::vector<DemandStep> steps{{0, test::uniform(engine, 0, 20)}};
        for (int m = 1; m < months; ++m)
            if (test::uniform_int(engine, 0, 1)) steps.push_back({m, test::uniform(engine, 0, 20)});
        const DemandProfile base = DemandProfile::steps(steps, horizon);
        const int g = test::uniform_int(engine, 1, 4);
        Offering offering = test::plan_test_offering();
        offering.gpus_per_instance = g;
        offering.on_demand_hourly *= g;
        *offering.spot_hourly *= g;
        offering.reserved.clear();
        offering.capacity_block_hourly = 1.3 * g;
        const double horizon_days = months * 730.0 / 24.0;
        PlanOptions options;
        for (int w = test::uniform_int(engine, 0, 3); w > 0; --w) {
            const double start = std::floor(test::uniform(engine, 0, horizon_days - 2) * 24) / 24;
            const double days = std::floor(test::uniform(engine, 1, std::min(40.0, horizon_days - start)) * 24) / 24;
            options.windows.push_back({start, days, std::floor(test::uniform(engine, 0, 40))});
        }
        Plan plan;
        plan.billing = test::uniform_int(engine, 0, 1) ? Units::instances : Units::gpus;
        for (int b = test::uniform_int(engine, 0, 2); b > 0; --b) {
            CapacityBlock block{.instances = test::uniform_int(engine, 1, 8), .days = test::uniform_int(engine, 1, 14)};
            block.start_day = test::uniform_int(engine, 0, int(horizon_days) - block.days);
            block.lead_days = std::min(block.start_day, test::uniform_int(engine, 0, 56));
            plan.capacity_blocks.push_back(block);
        }
        if (test::uniform_int(engine, 0, 1))
            plan.commitments.push_back({.count = test::uniform(engine, 0, 15), .term_years = 1,
                                        .payment = Payment::all_upfront, .reservation_discount = 0.4});
        if (test::uniform_int(engine, 0, 1))
            plan.spot = SpotShare{.gpus = test::uniform(engine, 0, 20), .availability = test::uniform(engine, 0.3, 1)};
        const PlanDistribution got = evaluate_plan(plan, DemandFutures::from_profile(base), offering, {}, options);

        Plan rest = plan;
        rest.capacity_blocks.clear();
        double used[2];
        PlanDistribution want[2];
        for (int last_hour : {0, 1}) {
            const DemandProfile load = by_the_hour(base, options.windows, plan.capacity_blocks, g, last_hour == 1, used[last_hour]);
            want[last_hour] = evaluate_plan(rest, DemandFutures::from_profile(load), offering);
        }
        const auto mean = [&](auto field) { return 0.5 * (field(want[0]) + field(want[1])); };
        const double block_used = 0.5 * (used[0] + used[1]);
        double block_money = 0, block_hours = 0;
        for (const auto& b : plan.capacity_blocks) {
            block_money += b.instances * 24.0 * b.days * *offering.capacity_block_hourly;
            block_hours += b.instances * g * b.usable_hours();
        }
        CHECK(got.total.mean == Approx(mean([](const PlanDistribution& d) { return d.total.mean; }) + block_money).epsilon(1e-9));
        CHECK(got.futures[0].committed_gpu_hours ==
              Approx(mean([](const PlanDistribution& d) { return d.futures[0].committed_gpu_hours; }) + block_hours).epsilon(1e-9));
        CHECK(got.futures[0].demand_gpu_hours ==
              Approx(mean([](const PlanDistribution& d) { return d.futures[0].demand_gpu_hours; }) + block_used).epsilon(1e-9));
        CHECK(got.futures[0].committed_used_gpu_hours ==
              Approx(mean([](const PlanDistribution& d) { return d.futures[0].committed_used_gpu_hours; }) + block_used).epsilon(1e-9));
    }
}

TEST_CASE("windows on any demand: every demanded GPU-hour is served once, blocks never serve more than they hold") {
    Xoshiro256pp engine(31);
    for (int trial = 0; trial < 100; ++trial) {
        CAPTURE(trial);
        const int months = test::uniform_int(engine, 1, 4);
        Eigen::ArrayXd hours(Eigen::Index(months * 730));
        for (Eigen::Index h = 0; h < hours.size(); ++h) hours[h] = test::uniform(engine, 0, 12);
        const DemandProfile base = DemandProfile::hourly(hours);
        const double horizon_days = months * 730.0 / 24.0;
        PlanOptions options;
        double window_hours = 0;
        for (int w = test::uniform_int(engine, 1, 3); w > 0; --w) {
            const double start = test::uniform(engine, 0, horizon_days - 1);
            const double days = test::uniform(engine, 0.01, horizon_days - start);
            options.windows.push_back({start, days, test::uniform(engine, 0, 30)});
            window_hours += 24 * days * options.windows.back().gpus;
        }
        Plan plan;
        plan.billing = test::uniform_int(engine, 0, 1) ? Units::instances : Units::gpus;
        for (int b = test::uniform_int(engine, 0, 2); b > 0; --b) {
            CapacityBlock block{.instances = test::uniform_int(engine, 1, 8), .days = test::uniform_int(engine, 1, 14)};
            if (block.days > int(horizon_days)) continue;
            block.start_day = test::uniform_int(engine, 0, int(horizon_days) - block.days);
            block.price_per_instance_hour = 1.5;
            plan.capacity_blocks.push_back(block);
        }
        if (test::uniform_int(engine, 0, 1)) plan.commitments.push_back({.count = test::uniform(engine, 0, 10), .reservation_discount = 0.3});
        if (test::uniform_int(engine, 0, 1)) plan.spot = SpotShare{.gpus = 5, .availability = 0.7};
        const PlanDistribution d = evaluate_plan(plan, DemandFutures::from_profile(base), test::plan_test_offering(), {}, options);
        const FutureOutcome& f = d.futures[0];
        CHECK(f.demand_gpu_hours == Approx(base.total_gpu_hours() + window_hours).epsilon(1e-9));
        const double served = total_of(d.mean_months, &MonthlyCashFlow::reserved_used_gpu_hours) +
                              total_of(d.mean_months, &MonthlyCashFlow::spot_gpu_hours) +
                              total_of(d.mean_months, &MonthlyCashFlow::on_demand_gpu_hours);
        CHECK(served == Approx(f.demand_gpu_hours).epsilon(1e-9));
        CHECK(f.committed_used_gpu_hours <= f.committed_gpu_hours * (1 + 1e-12));
        CHECK(f.stranded_unused >= -1e-9);
        double more_windows = 0;  // more window demand never costs less
        PlanOptions more = options;
        for (auto& w : more.windows) w.gpus += 1, more_windows += 24 * w.days;
        const PlanDistribution e = evaluate_plan(plan, DemandFutures::from_profile(base), test::plan_test_offering(), {}, more);
        CHECK(e.total.mean >= d.total.mean - 1e-9);
        CHECK(e.futures[0].demand_gpu_hours == Approx(f.demand_gpu_hours + more_windows).epsilon(1e-9));
    }
}

TEST_CASE("short terms: 1, 3 or 6 months, from the catalog's month-term rate or a discount") {
    // 8 GPUs on a 3-month term at a hand-made rate of $1.60 per (1-GPU) instance-hour, over a 6-month
    // horizon with a steady 8 GPUs; the test offering's on-demand rate is $2.00/GPU-h.
    Offering o = test::plan_test_offering();
    o.month_terms.push_back({.months = 3, .hourly = 1.6, .source = {"hand-made month term", "2026-12"}});
    Plan plan;
    plan.commitments.push_back({.count = 8, .payment = Payment::all_upfront, .term_months = 3});
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(8, Horizon::months(6)));
    PlanDistribution d = evaluate_plan(plan, futures, o);
    // All upfront: 8 × 3 × 730 × 1.60 = $28,032 in month 0; then 3 × 8 × 730 × 2.00 = $35,040 on demand.
    CHECK(d.mean_months[0].upfront == Approx(28032.0).epsilon(1e-12));
    CHECK(d.mean_months[3].upfront == 0.0);
    CHECK(d.total.mean == Approx(28032.0 + 35040.0).epsilon(1e-12));
    CHECK(d.plan == "3m all_upfront × 8 GPUs @0 + on-demand");
    REQUIRE(d.catalog_rates.size() == 1);  // the rate taken from the catalog, with its source and date
    CHECK(d.catalog_rates[0] == "plan.commitments[0]: 3-month term at the catalog's month-term rate of "
                                "testcloud/test-1/g1, hand-made month term (2026-12)");
    plan.commitments[0].renewal = Renewal::renew;
    d = evaluate_plan(plan, futures, o);
    CHECK(d.mean_months[3].upfront == Approx(28032.0).epsilon(1e-12));
    CHECK(d.total.mean == Approx(2 * 28032.0).epsilon(1e-12));
    CHECK(d.committed_utilisation == Approx(1.0));
    // A discount instead: 25% off $2.00 = $1.50, by the hour: 8 × 730 × 1.50 a month.
    plan.commitments[0] = {.count = 8, .reservation_discount = 0.25, .term_months = 1};
    d = evaluate_plan(plan, futures, o);
    CHECK(d.mean_months[0].reserved_recurring == Approx(8 * 730 * 1.5).epsilon(1e-12));
    CHECK(d.catalog_rates.empty());  // a discount given: no catalog rate
    CHECK(d.total.mean == Approx(8 * 730 * 1.5 + 5 * 8 * 730 * 2.0).epsilon(1e-12));

    const auto message = [&](Commitment c) {
        Plan p;
        p.commitments.push_back(c);
        try {
            evaluate_plan(p, futures, o);
        } catch (const InvalidInput& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    for (int months : {-1, 2, 4, 12}) {
        CHECK(message({.count = 1, .term_months = months}) ==
              "plan.commitments[0].term_months = " + std::to_string(months) +
                  ": must be 0 (a term of term_years), or 1, 3 or 6 (a month term)");
    }
    CHECK(message({.count = 1, .term_months = 6}) ==
          "plan.commitments[0].term_months = 6: offering testcloud/test-1/g1 lists no 6-month term price; set "
          "plan.commitments[0].reservation_discount");
    CHECK(message({.count = 1, .reservation_discount = 1.0, .term_months = 6}) ==
          "plan.commitments[0].reservation_discount = 1: must be in [0, 1)");
}

TEST_CASE("a reservation-only offering: blocks and commitments yes, spot and on-demand hours no") {
    Offering p6 = p5();
    p6.instance_type = "p6-b200.48xlarge";
    p6.reservation_only = true;
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(2)));
    PlanOptions options;
    options.windows.push_back({.start_day = 10, .days = 7, .gpus = 16});
    Plan plan;
    plan.capacity_blocks.push_back({.instances = 2, .days = 7, .start_day = 10});
    // The block's last half hour leaves 16 × 0.5 = 8 GPU-hours to on demand: refused.
    try {
        evaluate_plan(plan, futures, p6, {}, options);
        FAIL("no error");
    } catch (const InvalidInput& e) {
        CHECK(std::string(e.what()) ==
              "offering.reservation_only = \"aws/us-east-1/p6-b200.48xlarge\": is sold only through capacity blocks or "
              "reservations, but 8 GPU-hours of month 0 are left to on-demand; cover them with blocks or commitments, "
              "or price another offering");
    }
    options.windows[0].days = 7 - 1.0 / 48;  // ends with the block's usable hours
    CHECK(evaluate_plan(plan, futures, p6, {}, options).total.mean == Approx(2 * 168 * 39.33).epsilon(1e-12));
    plan.spot = SpotShare{.gpus = 4};
    try {
        evaluate_plan(plan, futures, p6, {}, options);
        FAIL("no error");
    } catch (const InvalidInput& e) {
        CHECK(std::string(e.what()) == "plan.spot = \"aws/us-east-1/p6-b200.48xlarge\": is sold only through capacity "
                                       "blocks or reservations: it has no spot capacity");
    }
}

TEST_CASE("GCP calendar mode, by hand: 2 VMs of 8 GPUs for 30 days, charged month by month as they run") {
    // 2 × a3-highgpu-8g-like VMs at a given $60 per VM-hour for 30 days from day 20 (hours 480..1200),
    // a 16-GPU window of those same days. No stop before the end: 720 usable h per VM, the window is
    // covered in full and nothing runs on demand. Charged as the hours run:
    //   month 0 (hours 480..730):  2 × 250 h × 60 = 30,000
    //   month 1 (hours 730..1200): 2 × 470 h × 60 = 56,400       total 2 × 720 × 60 = 86,400
    Plan plan;
    plan.capacity_blocks.push_back({.instances = 2, .days = 30, .start_day = 20, .lead_days = 20,
                                    .price_per_instance_hour = 60.0, .kind = BlockKind::gcp_calendar_mode});
    PlanOptions options;
    options.windows.push_back({.start_day = 20, .days = 30, .gpus = 16});
    const PlanDistribution d =
        evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(3))), p5(), {}, options);
    CHECK(d.mean_months[0].reserved_recurring == Approx(30'000.0).epsilon(1e-12));
    CHECK(d.mean_months[1].reserved_recurring == Approx(56'400.0).epsilon(1e-12));
    CHECK(total_of(d.mean_months, &MonthlyCashFlow::upfront) == 0.0);
    CHECK(total_of(d.mean_months, &MonthlyCashFlow::on_demand_gpu_hours) == Approx(0.0).epsilon(1e-9));
    CHECK(d.futures[0].committed_used_gpu_hours == Approx(16 * 720.0).epsilon(1e-12));
    CHECK(d.total.mean == Approx(86'400.0).epsilon(1e-12));
}

TEST_CASE("GCP calendar mode rules, to the letter") {
    const auto message = [](CapacityBlock b) {
        b.kind = BlockKind::gcp_calendar_mode;
        Plan plan;
        plan.capacity_blocks.push_back(b);
        return error_of(plan, p5(), {}, 6);
    };
    CHECK(message({.instances = 81, .days = 10, .start_day = 0, .lead_days = 0, .price_per_instance_hour = 60.0}) ==
          "plan.capacity_blocks[0].instances = 81: must be in [1, 80] (VMs in one calendar-mode request)");
    CHECK(message({.instances = 80, .days = 91, .start_day = 0, .lead_days = 0, .price_per_instance_hour = 60.0}) ==
          "plan.capacity_blocks[0].days = 91: must be in [1, 90] (a calendar-mode reservation lasts 1 to 90 days)");
    CHECK(message({.instances = 1, .days = 90, .start_day = 0}) ==
          "plan.capacity_blocks[0].price_per_instance_hour = \"none\": is needed for kind gcp_calendar_mode: the catalog "
          "has no calendar-mode rate");
    // Lengths AWS does not sell (15 days) are sold in calendar mode, and 80 VMs.
    CHECK(message({.instances = 80, .days = 15, .start_day = 0, .lead_days = 0, .price_per_instance_hour = 60.0}) ==
          "no error");
}
