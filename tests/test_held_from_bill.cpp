// From a FOCUS bill to commitments already held (app/bill_plan.hpp, held_from_bill), on a hand-made
// AWS FOCUS 1.2 export: two months of hourly rows of p4d.24xlarge (8 A100-40GB) in us-east-1.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "gputco/app/bill_plan.hpp"
#include "gputco/bills/bill.hpp"

using namespace gputco;

namespace {

const std::string head =
    "BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,ChargeCategory,ChargeClass,ChargePeriodStart,"
    "ChargePeriodEnd,PricingCategory,ConsumedQuantity,ConsumedUnit,ProviderName,ServiceCategory,SkuId,RegionId,"
    "CommitmentDiscountId,CommitmentDiscountStatus,CommitmentDiscountType,CommitmentDiscountCategory,x_UsageType\n";

std::string iso(std::int64_t seconds) { return iso_utc(seconds); }

/// Hours 0–1,487 of January and February 2025 (62 days), each: one instance under the standard reservation ri-1 (Used; billed 12
/// an instance-hour, effective 20: 8 of upfront spread), the convertible reservation ri-2 idle (Unused,
/// the same money), one instance on demand (32); in hour 0 also one under a Savings Plan (Spend).
std::string two_months_csv() {
    std::string csv = head;
    const std::int64_t start = 1735689600;  // 2025-01-01T00:00Z
    const std::string usage = "AWS,Compute,P4D,us-east-1";
    for (int h = 0; h < 1488; ++h) {
        const std::string from = iso(start + 3600 * h), to = iso(start + 3600 * (h + 1));
        csv += fmt::format("12,20,32,32,USD,Usage,,{},{},Committed,1,Hrs,{},ri-1,Used,Reserved Instance,Usage,"
                           "USE1-BoxUsage:p4d.24xlarge\n", from, to, usage);
        csv += fmt::format("12,20,32,32,USD,Usage,,{},{},Committed,1,Hrs,{},ri-2,Unused,Convertible Reserved "
                           "Instance,Usage,USE1-BoxUsage:p4d.24xlarge\n", from, to, usage);
        csv += fmt::format("32,32,32,32,USD,Usage,,{},{},Standard,1,Hrs,{},,,,,USE1-BoxUsage:p4d.24xlarge\n", from, to,
                           usage);
        if (h == 0)
            csv += fmt::format("0,20,32,32,USD,Usage,,{},{},Committed,1,Hrs,{},sp-1,Used,Compute Savings Plans,Spend,"
                               "USE1-BoxUsage:p4d.24xlarge\n", from, to, usage);
    }
    return csv;
}

Bill two_months() {
    const auto path = std::filesystem::temp_directory_path() / "gputco_test_held_from_bill.csv";
    std::ofstream(path, std::ios::binary) << two_months_csv();
    return read_bill(path.string(), Catalog::builtin());
}

}  // namespace

TEST_CASE("the reservations a bill shows in force become held commitments; Savings Plans are left out") {
    const Bill bill = two_months();
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    // The unused reservation is idle capacity, not demand: 16 GPUs an hour (ri-1's 8 and on demand 8).
    const auto [first, hours] = bill.demand_hours();
    CHECK(hours == 1460);
    const std::int64_t plan_start = first + std::int64_t(hours);  // 2025-03-04T00:00Z, after the last row
    CHECK(plan_start == 1735689600 / 3600 + 1488);
    std::vector<std::string> notes;
    const std::vector<HeldCommitment> held = held_from_bill(bill, p4d, plan_start, 1, &notes);
    // ri-1: 1,488 instance-hours × 8 = 11,904 GPU-hours over 1,488 hours → 8 GPUs; hourly 1,488 × 12 /
    // 11,904 = 1.50/GPU-h; upfront spread (20 − 12) × 1,488 / 11,904 = 1.00/GPU-h → 1.00 × 730 × 12 =
    // 8,760 a GPU for the term. First row 1,488 hours before the plan: month −⌈1488/730⌉ = −3; a 1-year
    // term from there ends in month 9.
    REQUIRE(held.size() == 2);
    CHECK(held[0].id == "ri-1");
    CHECK(held[0].count == doctest::Approx(8));
    CHECK(*held[0].hourly_per_gpu == doctest::Approx(1.5));
    CHECK(held[0].upfront_per_gpu == doctest::Approx(8'760));
    CHECK(held[0].start_month == -3);
    CHECK(held[0].end_month == 9);
    CHECK(held[0].kind == CommitmentClass::standard);
    CHECK(held[1].id == "ri-2");
    CHECK(held[1].count == doctest::Approx(8));
    CHECK(held[1].kind == CommitmentClass::convertible);
    REQUIRE(notes.size() == 3);
    CHECK(notes[2] == "sp-1 (Compute Savings Plans): left out: spend-based (a Savings Plan), not a reservation");
    CHECK(notes[0] == "ri-1 (Reserved Instance): held: 8 GPUs at 1.5000 USD/GPU-h from month -3 to 9 (assumed "
                      "1-year term from its first row), standard");
    // A 3-year term assumed: month −3 to 33.
    CHECK(held_from_bill(bill, p4d, plan_start, 3)[0].end_month == 33);
    // A plan starting a month after the bill's last rows holds none of them: they are not seen in force.
    CHECK(held_from_bill(bill, p4d, plan_start + 730, 1).empty());
    // Another instance type holds none of them.
    CHECK(held_from_bill(bill, Catalog::builtin().offering("aws", "p5.48xlarge", "us-east-1"), plan_start, 1).empty());
    CHECK_THROWS_WITH_AS(held_from_bill(bill, p4d, plan_start, 0), "held_term_years = 0: must be in [1, 5]",
                         InvalidInput);
}

TEST_CASE("recommend_from_bill starts from the reservations held: what they cover runs on nothing new") {
    const Bill bill = two_months();
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    BillPlanOptions options;
    options.horizon_months = 24;
    options.futures = 20;
    options.held_out = 20;
    const BillPlan plan = recommend_from_bill(bill, p4d, {}, options);
    REQUIRE(plan.held.size() == 2);
    const Plan& recommended = plan.study.recommendation.plan;
    REQUIRE(recommended.held.size() == 2);
    // The history is 16 GPUs every hour and the two reservations hold 16 until month 9: nothing runs on
    // demand there, and every held GPU-hour is used.
    const PlanDistribution& d = plan.study.recommendation.in_sample;
    CHECK(d.mean_months[0].held_gpu_hours == doctest::Approx(16 * 730));
    CHECK(d.mean_months[0].held_used_gpu_hours == doctest::Approx(16 * 730));
    CHECK(d.mean_months[0].on_demand_gpu_hours == doctest::Approx(0).epsilon(1e-9));
    for (const Commitment& c : recommended.commitments) CHECK(c.start_month >= 6);  // nothing bought before it helps
    options.held_from_bill = false;
    CHECK(recommend_from_bill(bill, p4d, {}, options).held.empty());
}
