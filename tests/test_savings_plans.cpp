#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
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
