#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "plan_fixtures.hpp"
#include "gputco/catalog/price_schedule.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/cost.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/strategy/savings_plans.hpp"

using namespace gputco;

namespace {

constexpr double cent = 0.005;

SavingsPlanUsage line(const char* family, double hours, double on_demand, double ec2_instance, double compute) {
    SavingsPlanUsage u;
    u.family = family;
    u.region = "us-east-1";
    u.hours = hours;
    u.on_demand_rate = on_demand;
    u.rate(SavingsPlanType::aws_ec2_instance) = ec2_instance;
    u.rate(SavingsPlanType::aws_compute) = compute;
    return u;
}

// One hour in us-east-1 (rates per instance-hour, chosen so the hand arithmetic is exact):
//   p5.48xlarge  3 h, 1 of them on a Reserved Instance; on demand 55.04, EC2 Instance SP 33.024 (40 % off),
//                Compute SP 41.28 (25 % off)
//   p4d.24xlarge 2 h; on demand 21.96, EC2 Instance SP 13.176, Compute SP 15.6936 (28.536 % off)
//   g5.12xlarge  4 h; on demand 5.672, EC2 Instance SP 3.1196, Compute SP 3.4032 (40 % off)
std::vector<SavingsPlanUsage> mixed_hour() {
    std::vector<SavingsPlanUsage> usage{line("p5", 3, 55.04, 33.024, 41.28), line("p4d", 2, 21.96, 13.176, 15.6936),
                                        line("g5", 4, 5.672, 3.1196, 3.4032)};
    usage[0].reserved_hours = 1;
    return usage;
}

}  // namespace

TEST_CASE("a mixed hour by AWS's order: reservations, then EC2 Instance SPs, then Compute SPs by savings") {
    const std::vector<SavingsPlanUsage> usage = mixed_hour();
    // Given Compute first: the order applied does not depend on the order given.
    const std::vector<HourlySavingsPlan> plans{
        {.type = SavingsPlanType::aws_compute, .commitment_per_hour = 55.32},
        {.type = SavingsPlanType::aws_ec2_instance, .commitment_per_hour = 49.536, .family = "p5", .region = "us-east-1"}};
    const SavingsPlanHour h = apply_savings_plans(usage, plans);
    // 1. The Reserved Instance takes 1 p5 hour: 2 p5 hours are left for the plans.
    // 2. EC2 Instance SP (p5, us-east-1), $49.536/h: only p5 is eligible; 49.536 / 33.024 = 1.5 h,
    //    all of its commitment used.
    // 3. Compute SP, $55.32/h, by savings percentage: g5 40 % (1 − 3.4032/5.672), p4d 28.536 %
    //    (1 − 15.6936/21.96), p5 25 % (1 − 41.28/55.04):
    //      g5  4 h × 3.4032 = 13.6128, left 55.32 − 13.6128 = 41.7072
    //      p4d 2 h × 15.6936 = 31.3872, left 41.7072 − 31.3872 = 10.32
    //      p5  10.32 / 41.28 = 0.25 h (of the 0.5 h left), left 0
    // 4. On demand: p5 0.5 − 0.25 = 0.25 h × 55.04 = 13.76.
    // Total: 49.536 + 55.32 + 13.76 = 118.616 (all on demand, the 8 h not reserved: 2 × 55.04 + 2 × 21.96
    // + 4 × 5.672 = 176.688).
    REQUIRE(h.covered.size() == 4);
    CHECK(h.covered[0].plan == 1);
    CHECK(h.covered[0].line == 0);
    CHECK(std::abs(h.covered[0].hours - 1.5) < 1e-12);
    CHECK(std::abs(h.covered[0].cost - 49.536) < cent);
    CHECK(h.covered[1].plan == 0);
    CHECK(h.covered[1].line == 2);
    CHECK(std::abs(h.covered[1].hours - 4.0) < 1e-12);
    CHECK(std::abs(h.covered[1].cost - 13.6128) < cent);
    CHECK(h.covered[2].line == 1);
    CHECK(std::abs(h.covered[2].cost - 31.3872) < cent);
    CHECK(h.covered[3].line == 0);
    CHECK(std::abs(h.covered[3].hours - 0.25) < 1e-9);
    CHECK(std::abs(h.covered[3].cost - 10.32) < cent);
    CHECK(std::abs(h.on_demand_hours[0] - 0.25) < 1e-9);
    CHECK(h.on_demand_hours[1] == 0.0);
    CHECK(h.on_demand_hours[2] == 0.0);
    CHECK(std::abs(h.on_demand_cost - 13.76) < cent);
    CHECK(std::abs(h.used_commitment[0] - 55.32) < cent);
    CHECK(h.unused_commitment[0] < 1e-9);
    CHECK(h.unused_commitment[1] < 1e-9);
    CHECK(std::abs(h.total - 118.616) < cent);
}

TEST_CASE("an EC2 Instance SP of another region covers nothing and is paid in full") {
    const std::vector<SavingsPlanUsage> usage = mixed_hour();
    const std::vector<HourlySavingsPlan> plans{
        {.type = SavingsPlanType::aws_ec2_instance, .commitment_per_hour = 20, .family = "p5", .region = "us-west-2"},
        {.type = SavingsPlanType::aws_compute, .commitment_per_hour = 10}};
    const SavingsPlanHour h = apply_savings_plans(usage, plans);
    // The EC2 Instance SP finds no p5 in us-west-2: 20 unused. Compute SP $10/h goes to g5 first
    // (40 %): 10 / 3.4032 = 2.938411… h, cost 10. On demand: p5 2 h × 55.04 = 110.08, p4d 2 × 21.96 = 43.92,
    // g5 (4 − 2.938411) × 5.672 = 1.061589 × 5.672 = 6.0213 (exactly 5.672 × 4 − 10 / 0.6 = 22.688 − 16.6667
    // = 6.0213). Total 20 + 10 + 110.08 + 43.92 + 6.0213 = 190.0213.
    CHECK(h.unused_commitment[0] == 20);
    CHECK(h.used_commitment[0] == 0);
    REQUIRE(h.covered.size() == 1);
    CHECK(h.covered[0].line == 2);
    CHECK(std::abs(h.on_demand_hours[2] - (4 - 10 / 3.4032)) < 1e-12);
    CHECK(std::abs(h.on_demand_cost - 160.0213) < cent);
    CHECK(std::abs(h.total - 190.0213) < cent);
}

TEST_CASE("a plan type a line has no rate for does not cover it (SageMaker, Azure, GCP)") {
    std::vector<SavingsPlanUsage> usage = mixed_hour();
    usage[1].rate(SavingsPlanType::aws_sagemaker) = 18.0;  // p4d used through SageMaker
    const std::vector<HourlySavingsPlan> plans{{.type = SavingsPlanType::aws_sagemaker, .commitment_per_hour = 9}};
    const SavingsPlanHour h = apply_savings_plans(usage, plans);
    // 9 / 18 = 0.5 p4d hours; the rest at on demand: 2 × 55.04 + 1.5 × 21.96 + 4 × 5.672 = 110.08 + 32.94
    // + 22.688 = 165.708; total 174.708.
    REQUIRE(h.covered.size() == 1);
    CHECK(h.covered[0].line == 1);
    CHECK(std::abs(h.covered[0].hours - 0.5) < 1e-12);
    CHECK(std::abs(h.total - 174.708) < cent);
}

TEST_CASE("every hour, over random usage and plans: hours and money add up, plans only pay eligible usage") {
    Xoshiro256pp generator(27);
    struct {
        Xoshiro256pp& g;
        double uniform() { return double(g() >> 11) * 0x1p-53; }
    } rng{generator};
    for (int trial = 0; trial < 500; ++trial) {
        std::vector<SavingsPlanUsage> usage;
        const char* families[] = {"p5", "p4d", "g5"};
        const int n = 1 + int(rng.uniform() * 5);
        for (int i = 0; i < n; ++i) {
            SavingsPlanUsage u;
            u.family = families[int(rng.uniform() * 3)];
            u.region = rng.uniform() < 0.5 ? "us-east-1" : "us-west-2";
            u.hours = 10 * rng.uniform();
            u.reserved_hours = rng.uniform() * u.hours;
            u.on_demand_rate = 1 + 50 * rng.uniform();
            for (std::size_t t = 0; t < savings_plan_type_count; ++t)
                if (rng.uniform() < 0.7) u.rates[t] = u.on_demand_rate * (0.3 + 0.65 * rng.uniform());
            usage.push_back(u);
        }
        std::vector<HourlySavingsPlan> plans;
        const int k = int(rng.uniform() * 4);
        for (int j = 0; j < k; ++j) {
            HourlySavingsPlan p;
            p.type = SavingsPlanType(int(rng.uniform() * savings_plan_type_count));
            p.commitment_per_hour = 0.1 + 100 * rng.uniform();
            p.family = families[int(rng.uniform() * 3)];
            p.region = "us-east-1";
            plans.push_back(p);
        }
        const SavingsPlanHour h = apply_savings_plans(usage, plans);
        CAPTURE(trial);
        std::vector<double> covered(usage.size(), 0.0), spent(plans.size(), 0.0);
        for (const SavingsPlanCoverage& c : h.covered) {
            const SavingsPlanUsage& u = usage[c.line];
            const HourlySavingsPlan& p = plans[c.plan];
            REQUIRE(u.rate(p.type).has_value());
            if (p.type == SavingsPlanType::aws_ec2_instance) CHECK((u.family == p.family && u.region == p.region));
            CHECK(std::abs(c.cost - c.hours * *u.rate(p.type)) <= 1e-9 * (1 + c.cost));
            covered[c.line] += c.hours;
            spent[c.plan] += c.cost;
        }
        double expected = 0;
        for (std::size_t i = 0; i < usage.size(); ++i) {
            CHECK(h.on_demand_hours[i] >= 0);
            CHECK(std::abs(usage[i].reserved_hours + covered[i] + h.on_demand_hours[i] - usage[i].hours) <= 1e-9);
            expected += h.on_demand_hours[i] * usage[i].on_demand_rate;
        }
        for (std::size_t j = 0; j < plans.size(); ++j) {
            CHECK(std::abs(spent[j] - h.used_commitment[j]) <= 1e-9 * (1 + spent[j]));
            CHECK(h.unused_commitment[j] >= 0);
            CHECK(std::abs(h.used_commitment[j] + h.unused_commitment[j] - plans[j].commitment_per_hour) <= 1e-9);
            // A plan with commitment left leaves no eligible usage on demand.
            if (h.unused_commitment[j] > 1e-9)
                for (std::size_t i = 0; i < usage.size(); ++i)
                    if (usage[i].rate(plans[j].type) &&
                        (plans[j].type != SavingsPlanType::aws_ec2_instance ||
                         (usage[i].family == plans[j].family && usage[i].region == plans[j].region)))
                        CHECK(h.on_demand_hours[i] <= 1e-9);
            expected += plans[j].commitment_per_hour;
        }
        CHECK(std::abs(h.total - expected) <= 1e-9 * (1 + expected));
    }
}

TEST_CASE("bad usage and plans are named to the letter") {
    std::vector<SavingsPlanUsage> usage = mixed_hour();
    usage[1].reserved_hours = 3;
    CHECK_THROWS_WITH_AS(apply_savings_plans(usage, {}), "usage[1].reserved_hours = 3: must be <= hours (2)",
                         InvalidInput);
    usage = mixed_hour();
    usage[2].rate(SavingsPlanType::aws_compute) = 0.0;
    CHECK_THROWS_WITH_AS(apply_savings_plans(usage, {}), "usage[2].rates.aws_compute = 0: must be finite and > 0",
                         InvalidInput);
    const std::vector<HourlySavingsPlan> no_family{{.type = SavingsPlanType::aws_ec2_instance, .commitment_per_hour = 5}};
    CHECK_THROWS_WITH_AS(apply_savings_plans(mixed_hour(), no_family),
                         "savings_plans[0].family = \"\": must name the instance family of an aws_ec2_instance plan",
                         InvalidInput);
    const std::vector<HourlySavingsPlan> negative{{.type = SavingsPlanType::aws_compute, .commitment_per_hour = -1}};
    CHECK_THROWS_WITH_AS(apply_savings_plans(mixed_hour(), negative),
                         "savings_plans[0].commitment_per_hour = -1: must be finite and > 0", InvalidInput);
}

// Savings Plans in a plan (plan.hpp's SavingsPlan, priced by the one engine). The hand-made offering of
// plan_fixtures.hpp: one GPU per instance, $2.00/GPU-h on demand.
namespace {

PlanDistribution one_future(const Plan& plan, double gpus, Horizon horizon, const PricePaths& prices = {}) {
    return evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(gpus, horizon)),
                         test::plan_test_offering(), prices);
}

}  // namespace

TEST_CASE("a Savings Plan in a plan: its commitment every hour, used or not, the rest on demand") {
    const Horizon year = Horizon::years(1);
    Plan plan;
    plan.savings_plans.push_back({.commitment_per_hour = 6, .type = SavingsPlanType::aws_compute, .rate_per_gpu_hour = 1.5});
    // $6/h at $1.50/GPU-h pays for 4 GPUs each hour. Demand 10 GPUs: a month is 6 × 730 = 4,380 of
    // commitment + 6 GPUs × 730 h × $2 = 8,760 on demand = 13,140; the year 157,680 (all on demand:
    // 10 × 730 × 2 × 12 = 175,200).
    const PlanDistribution d = one_future(plan, 10, year);
    REQUIRE(d.mean_months.size() == 12);
    for (const MonthlyCashFlow& f : d.mean_months) {
        CHECK(std::abs(f.reserved_recurring - 4380) < cent);
        CHECK(f.upfront == 0);
        CHECK(std::abs(f.on_demand - 8760) < cent);
        CHECK(std::abs(f.reserved_gpu_hours - 4 * 730) < 1e-9);
        CHECK(std::abs(f.reserved_used_gpu_hours - 4 * 730) < 1e-9);
        CHECK(std::abs(f.total - 13140) < cent);
    }
    CHECK(std::abs(d.total.mean - 157680) < cent);
    CHECK(d.mean_stranded_unused < 1e-6);

    // Demand 2.5 GPUs: the plan pays for 2.5 of its 4 GPUs; the unused 1.5 GPUs × 730 h × $1.50 =
    // $1,642.50 a month is paid anyway (stranded), nothing on demand. The year: 6 × 8,760 = 52,560.
    const PlanDistribution low = one_future(plan, 2.5, year);
    CHECK(std::abs(low.total.mean - 52560) < cent);
    CHECK(low.mean_months[3].on_demand == 0);
    CHECK(std::abs(low.mean_stranded_unused - 12 * 1642.5) < cent);
}

TEST_CASE("a Savings Plan's payment options: all upfront at purchase, partial half, no upfront by the hour") {
    const Horizon horizon = Horizon::years(2);
    // $6/h for 1 year from month 3, demand 4 GPUs (all covered at $1.50). Term commitment 6 × 12 × 730 = 52,560.
    for (const Payment payment : {Payment::no_upfront, Payment::partial_upfront, Payment::all_upfront}) {
        CAPTURE(to_text(payment));
        Plan plan;
        plan.savings_plans.push_back({.commitment_per_hour = 6, .type = SavingsPlanType::aws_ec2_instance,
                                      .payment = payment, .start_month = 3, .rate_per_gpu_hour = 1.5});
        const PlanDistribution d = one_future(plan, 4, horizon);
        const double upfront = payment == Payment::all_upfront ? 52560 : payment == Payment::partial_upfront ? 26280 : 0;
        const double hourly = (52560 - upfront) / 12;  // per month: 4,380, 2,190 or 0
        CHECK(d.mean_months[2].upfront == 0);
        CHECK(std::abs(d.mean_months[2].on_demand - 4 * 730 * 2) < cent);  // before it starts: 5,840
        CHECK(std::abs(d.mean_months[3].upfront - upfront) < cent);
        CHECK(std::abs(d.mean_months[3].reserved_recurring - hourly) < cent);
        CHECK(d.mean_months[4].upfront == 0);
        CHECK(std::abs(d.mean_months[14].reserved_recurring - hourly) < cent);
        CHECK(d.mean_months[14].on_demand == 0);
        CHECK(d.mean_months[15].reserved_recurring == 0);  // lapsed after months 3–14
        // Total whatever the payment: 52,560 + 12 months on demand (0–2, 15–23) × 5,840 = 52,560 + 70,080.
        CHECK(std::abs(d.total.mean - 122640) < cent);
    }
    // Renewed from month 18 of 24: the second term runs to month 30 and is paid in full.
    Plan renewed;
    renewed.savings_plans.push_back({.commitment_per_hour = 6, .start_month = 18, .renewal = Renewal::renew,
                                     .rate_per_gpu_hour = 1.5});
    CHECK(one_future(renewed, 4, horizon).mean_months.size() == 30);
}

TEST_CASE("a Savings Plan keeps the rate of the month it was bought; one bought after a cut covers more") {
    PriceModel model;
    model.start = "2025-01";
    model.changes.push_back({.date = "2025-06", .on_demand_factor = 0.67, .spot_factor = 1, .reserved_factor = 0.75});
    const Horizon horizon = Horizon::years(2);
    const PricePaths prices = price_paths(model, horizon, 1, 0);
    Plan plan;
    plan.savings_plans.push_back({.commitment_per_hour = 3, .rate_per_gpu_hour = 1.5});                    // Jan: 2 GPUs
    plan.savings_plans.push_back({.commitment_per_hour = 3.375, .start_month = 6, .rate_per_gpu_hour = 1.5});  // Jul: 3 GPUs
    const PlanDistribution d = one_future(plan, 10, horizon, prices);
    // Month 5 (June): the first plan's 2 GPUs at its January rate; 8 GPUs on demand at 2 × 0.67 = 1.34:
    // 8 × 730 × 1.34 = 7,825.60. Month 6: the second plan at 1.5 × 0.75 = 1.125 pays for 3.375 / 1.125 = 3 GPUs, 5 GPUs
    // on demand: 5 × 730 × 1.34 = 4,891; the commitments (3 + 3.375) × 730 = 4,653.75.
    CHECK(std::abs(d.mean_months[5].reserved_gpu_hours - 2 * 730) < 1e-9);
    CHECK(std::abs(d.mean_months[5].on_demand - 7825.6) < cent);
    CHECK(std::abs(d.mean_months[6].reserved_gpu_hours - 5 * 730) < 1e-9);
    CHECK(std::abs(d.mean_months[6].on_demand - 4891) < cent);
    CHECK(std::abs(d.mean_months[6].reserved_recurring - 4653.75) < cent);
}

TEST_CASE("a Savings Plan held (bought before the horizon): its upfront is sunk, its rate the one agreed then") {
    // $6/h at $1.50/GPU-h (4 GPUs), 1 year, partial upfront, bought in month −4: it runs in months 0–7.
    // Demand 5 GPUs, on demand $2/GPU-h. Months 0–7: no upfront (paid before the horizon), the hourly
    // half 0.5 × 6 × 730 = 2,190, 1 GPU on demand 1 × 730 × 2 = 1,460: 3,650 a month. Months 8–11:
    // 5 × 730 × 2 = 7,300 on demand. The year: 8 × 3,650 + 4 × 7,300 = 58,400.
    const Horizon year = Horizon::years(1);
    Plan plan;
    plan.savings_plans.push_back({.commitment_per_hour = 6, .payment = Payment::partial_upfront, .start_month = -4,
                                  .rate_per_gpu_hour = 1.5, .id = "sp-held"});
    // Reservations (Savings Plans too) 25% cheaper from the horizon's first month: a plan bought now
    // would cover 6 / 1.125 = 5.33 GPUs; the held one keeps its agreed rate and covers 4.
    PriceModel model;
    model.start = "2025-01";
    model.changes.push_back({.date = "2025-01", .on_demand_factor = 1, .spot_factor = 1, .reserved_factor = 0.75});
    const PricePaths cut = price_paths(model, year, 1, 0);
    for (const PricePaths* prices : {static_cast<const PricePaths*>(nullptr), &cut}) {
        const PlanDistribution d = prices ? one_future(plan, 5, year, *prices) : one_future(plan, 5, year);
        REQUIRE(d.mean_months.size() == 12);
        for (int m = 0; m < 12; ++m) {
            CAPTURE(m);
            const MonthlyCashFlow& f = d.mean_months[std::size_t(m)];
            CHECK(f.upfront == 0);
            CHECK(std::abs(f.reserved_recurring - (m < 8 ? 2190 : 0)) < cent);
            CHECK(std::abs(f.reserved_gpu_hours - (m < 8 ? 4 * 730 : 0)) < 1e-9);
            CHECK(std::abs(f.on_demand - (m < 8 ? 1460 : 7300)) < cent);
        }
        CHECK(std::abs(d.total.mean - 58400) < cent);
        REQUIRE(d.commitment_use.size() == 1);
        CHECK(d.commitment_use[0].name == "sp-held");
        CHECK(d.commitment_use[0].held);
        CHECK(d.commitment_use[0].first_month == 0);
        CHECK(d.commitment_use[0].end_month == 8);
        CHECK(std::abs(d.commitment_use[0].paid_gpu_hours - 8 * 4 * 730) < 1e-6);
    }
    // Renewed: the next term is bought in month 8 at that month's prices, its upfront paid then
    // (0.5 × 6 × 8,760 = 26,280), and paid in full to month 20.
    plan.savings_plans[0].renewal = Renewal::renew;
    const PlanDistribution renewed = one_future(plan, 5, year);
    REQUIRE(renewed.mean_months.size() == 20);
    CHECK(renewed.mean_months[7].upfront == 0);
    CHECK(std::abs(renewed.mean_months[8].upfront - 26280) < cent);
    // Bought a whole term before the horizon it no longer runs: named to the letter.
    plan.savings_plans[0].start_month = -12;
    CHECK_THROWS_WITH_AS(one_future(plan, 5, year),
                         "plan.savings_plans[0].start_month = -12: must be in [-11, 12) (the horizon's months, or "
                         "before them for a plan held that still runs in month 0)",
                         InvalidInput);
}

TEST_CASE("a Savings Plan with no rate given takes the offering's listed rate") {
    Offering o = test::plan_test_offering();
    o.savings_plans.push_back({.type = SavingsPlanType::aws_compute, .term_years = 3, .payment = Payment::all_upfront,
                               .hourly = 1.2, .source = {"test", "2026-01"}});
    Plan plan;
    plan.savings_plans.push_back({.commitment_per_hour = 6, .term_years = 3, .payment = Payment::all_upfront});
    // $6/h at $1.20 pays for 5 GPUs; demand 5: no on-demand; upfront 6 × 36 × 730 = 157,680 in month 0.
    const PlanDistribution d =
        evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(5, Horizon::years(3))), o);
    CHECK(std::abs(d.mean_months[0].upfront - 157680) < cent);
    CHECK(std::abs(d.total.mean - 157680) < cent);
    CHECK(d.mean_months[10].on_demand == 0);
    // The result says which rate it took, from where and when (1.2 per 1-GPU instance-hour).
    REQUIRE(d.catalog_rates.size() == 1);
    CHECK(d.catalog_rates[0] == "plan.savings_plans[0]: 1.2000 USD/GPU-h, the catalog's aws_compute Savings Plan rate "
                                "of testcloud/test-1/g1, test (2026-01)");
    // A rate given is the plan's own: nothing taken from the catalog.
    Plan given = plan;
    given.savings_plans[0].rate_per_gpu_hour = 1.2;
    CHECK(evaluate_plan(given, DemandFutures::from_profile(DemandProfile::constant(5, Horizon::years(3))), o)
              .catalog_rates.empty());
    // No listed rate for 1 year: the error names the field and says what to set.
    plan.savings_plans[0].term_years = 1;
    CHECK_THROWS_WITH_AS(evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(5, Horizon::years(3))), o),
                         "plan.savings_plans[0].rate_per_gpu_hour = \"none\": offering testcloud/test-1/g1 lists no "
                         "aws_compute 1-year all_upfront Savings Plan rate; set plan.savings_plans[0].rate_per_gpu_hour",
                         InvalidInput);
}

TEST_CASE("a Savings Plan's bad terms are named to the letter") {
    const auto futures = DemandFutures::from_profile(DemandProfile::constant(5, Horizon::years(1)));
    const auto priced = [&](const SavingsPlan& sp) {
        Plan plan;
        plan.savings_plans.push_back({.commitment_per_hour = 1, .rate_per_gpu_hour = 1});  // a good one first
        plan.savings_plans.push_back(sp);
        return evaluate_plan(plan, futures, test::plan_test_offering());
    };
    CHECK_THROWS_WITH_AS(priced({.commitment_per_hour = 0, .rate_per_gpu_hour = 1}),
                         "plan.savings_plans[1].commitment_per_hour = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(priced({.commitment_per_hour = 1, .term_years = 2, .rate_per_gpu_hour = 1}),
                         "plan.savings_plans[1].term_years = 2: must be 1 or 3", InvalidInput);
    CHECK_THROWS_WITH_AS(priced({.commitment_per_hour = 1, .start_month = 12, .rate_per_gpu_hour = 1}),
                         "plan.savings_plans[1].start_month = 12: must be in [-11, 12) (the horizon's months, or before "
                         "them for a plan held that still runs in month 0)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(priced({.commitment_per_hour = 1, .rate_per_gpu_hour = -2}),
                         "plan.savings_plans[1].rate_per_gpu_hour = -2: must be finite and > 0", InvalidInput);
}
