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

const std::string held_bill_header =
    "BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,ChargeCategory,ChargeClass,ChargePeriodStart,"
    "ChargePeriodEnd,PricingCategory,ConsumedQuantity,ConsumedUnit,ProviderName,ServiceCategory,SkuId,RegionId,"
    "CommitmentDiscountId,CommitmentDiscountStatus,CommitmentDiscountType,CommitmentDiscountCategory,x_UsageType\n";

/// Hours 0–1,487 of January and February 2025 (62 days), each: one instance under the standard reservation ri-1 (Used; billed 12
/// an instance-hour, effective 20: 8 of upfront spread), the convertible reservation ri-2 idle (Unused,
/// the same money), one instance on demand (32); in hour 0 also one under a Savings Plan (Spend).
std::string two_months_csv() {
    std::string csv = held_bill_header;
    const std::int64_t start = 1735689600;  // 2025-01-01T00:00Z
    const std::string usage = "AWS,Compute,P4D,us-east-1";
    for (int h = 0; h < 1488; ++h) {
        const std::string from = iso_utc(start + 3600 * h), to = iso_utc(start + 3600 * (h + 1));
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
    REQUIRE(notes.size() == 2);  // sp-1 is held_savings_plans_from_bill's
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

namespace {

/// Hours 0–1,487 of January and February 2025, each: two p4d instances under the Compute Savings Plan
/// sp-9 (Used; EffectiveCost 16 an instance-hour, so 2 a GPU-hour, all of it billed: no upfront), its
/// idle rest (Unused, 16, not a GPU row) and one instance on demand (32).
std::string savings_plan_csv() {
    std::string csv = held_bill_header;
    const std::int64_t start = 1735689600;  // 2025-01-01T00:00Z
    const std::string usage = "AWS,Compute,P4D,us-east-1";
    for (int h = 0; h < 1488; ++h) {
        const std::string from = iso_utc(start + 3600 * h), to = iso_utc(start + 3600 * (h + 1));
        csv += fmt::format("32,32,64,64,USD,Usage,,{},{},Committed,2,Hrs,{},sp-9,Used,Compute Savings Plans,Spend,"
                           "USE1-BoxUsage:p4d.24xlarge\n", from, to, usage);
        csv += fmt::format("16,16,0,0,USD,Usage,,{},{},Committed,,,AWS,Compute,,us-east-1,sp-9,Unused,Compute Savings "
                           "Plans,Spend,ComputeSP:1yrNoUpfront\n", from, to);
        csv += fmt::format("32,32,32,32,USD,Usage,,{},{},Standard,1,Hrs,{},,,,,USE1-BoxUsage:p4d.24xlarge\n", from, to,
                           usage);
    }
    return csv;
}

Bill savings_plan_bill() {
    const auto path = std::filesystem::temp_directory_path() / "gputco_test_held_savings_plan.csv";
    std::ofstream(path, std::ios::binary) << savings_plan_csv();
    return read_bill(path.string(), Catalog::builtin());
}

}  // namespace

TEST_CASE("the Savings Plans a bill shows in force become Savings Plans held") {
    const Bill bill = savings_plan_bill();
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    const auto [first, hours] = bill.demand_hours();
    const std::int64_t plan_start = first + std::int64_t(hours);
    CHECK(plan_start == 1735689600 / 3600 + 1488);
    std::vector<std::string> notes;
    const std::vector<SavingsPlan> held = held_savings_plans_from_bill(bill, p4d, plan_start, 1, &notes);
    // Commitment: (Used 1,488 × 32 + Unused 1,488 × 16) / 1,488 h = 48 an hour. Rate: 1,488 × 32 over
    // 1,488 × 2 × 8 = 23,808 GPU-hours = 2.00/GPU-h, so it pays for 48 / 2 = 24 GPUs (3 instances).
    // Billed 48 of 48: nothing upfront, no_upfront. First row 1,488 h before the plan: month
    // −⌈1488/730⌉ = −3, a 1-year term to month 9.
    REQUIRE(held.size() == 1);
    const SavingsPlan& sp = held[0];
    CHECK(sp.id == "sp-9");
    CHECK(sp.type == SavingsPlanType::aws_compute);
    CHECK(sp.commitment_per_hour == doctest::Approx(48));
    REQUIRE(sp.rate_per_gpu_hour.has_value());
    CHECK(*sp.rate_per_gpu_hour == doctest::Approx(2));
    CHECK(sp.payment == Payment::no_upfront);
    CHECK(sp.start_month == -3);
    CHECK(sp.term_years == 1);
    CHECK(sp.renewal == Renewal::lapse);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == "sp-9 (Compute Savings Plans): held: aws_compute savings plan 48.0000 USD/h at 2.0000 USD/GPU-h "
                      "(24 GPUs) from month -3 to 9 (assumed 1-year term from its first row), no_upfront (0% of it "
                      "upfront)");
    // At least 2 years: a Savings Plan runs 1 or 3, so 3 (month −3 to 33).
    CHECK(held_savings_plans_from_bill(bill, p4d, plan_start, 2)[0].term_years == 3);
    // Reservations are held_from_bill's: it takes none of this bill.
    CHECK(held_from_bill(bill, p4d, plan_start, 1).empty());
    // Another instance type: left out, and said so.
    notes.clear();
    CHECK(held_savings_plans_from_bill(bill, Catalog::builtin().offering("aws", "p5.48xlarge", "us-east-1"), plan_start,
                                       1, &notes)
              .empty());
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == "sp-9 (Compute Savings Plans): left out: it paid for no aws/us-east-1/p5.48xlarge");
    // A plan whose rows carry no money (EffectiveCost 0: a credit-funded or mis-exported one) holds
    // nothing: left out, not a Savings Plan of 0 an hour the engine would refuse.
    {
        std::string csv = savings_plan_csv();
        for (std::size_t at = 0; (at = csv.find("32,32,64,64,USD", at)) != std::string::npos;) csv.replace(at, 15, "0,0,64,64,USD");
        for (std::size_t at = 0; (at = csv.find("16,16,0,0,USD", at)) != std::string::npos;) csv.replace(at, 13, "0,0,0,0,USD");
        const auto path = std::filesystem::temp_directory_path() / "gputco_test_held_savings_plan_free.csv";
        std::ofstream(path, std::ios::binary) << csv;
        const Bill free = read_bill(path.string(), Catalog::builtin());
        notes.clear();
        CHECK(held_savings_plans_from_bill(free, p4d, plan_start, 1, &notes).empty());
        REQUIRE(notes.size() == 1);
        CHECK(notes[0] == "sp-9 (Compute Savings Plans): left out: its rows show no commitment spent (Used and "
                          "Unused EffectiveCost 0 USD, on GPUs 0)");
    }

    // The plan starts from it: 24 GPUs held against a history of 24 every hour, so nothing runs on demand
    // until month 9, and each of months 0–8 pays its hourly commitment 48 × 730 = 35,040 and no upfront.
    BillPlanOptions options;
    options.horizon_months = 12;
    options.futures = 10;
    options.held_out = 10;
    const BillPlan plan = recommend_from_bill(bill, p4d, {}, options);
    REQUIRE(plan.held_savings_plans.size() == 1);
    CHECK(plan.held.empty());
    const Plan& recommended = plan.study.recommendation.plan;
    REQUIRE(!recommended.savings_plans.empty());
    CHECK(recommended.savings_plans[0].id == "sp-9");
    const PlanDistribution& d = plan.study.recommendation.in_sample;
    for (int m = 0; m < 9; ++m) {
        CAPTURE(m);
        const MonthlyCashFlow& f = d.mean_months[std::size_t(m)];
        CHECK(f.on_demand_gpu_hours == doctest::Approx(0).epsilon(1e-9));
        CHECK(f.reserved_used_gpu_hours == doctest::Approx(24 * 730));
        CHECK(f.upfront == doctest::Approx(0));
        CHECK(f.reserved_recurring == doctest::Approx(35'040));
    }
    for (const Commitment& c : recommended.commitments) CHECK(c.start_month >= 9);  // nothing bought while it covers
    // The all-on-demand baseline holds it too.
    CHECK(plan.study.baselines.size() >= 2);
    options.held_from_bill = false;
    CHECK(recommend_from_bill(bill, p4d, {}, options).held_savings_plans.empty());
}

TEST_CASE("FOCUS 1.3 contract commitments give held commitments their real terms") {
    // Plan start 2025-03-04T00:00Z (after the bills' last rows). Months to a date: its distance in
    // 730-hour months, to the nearest.
    const auto contract = [](const char* id, const char* category, const char* cost, const char* start, const char* end) {
        ContractCommitment k;
        k.id = id;
        k.category = category;
        k.row = 2;
        k.period_start = *parse_focus_time(start);
        k.period_end = *parse_focus_time(end);
        if (*cost) k.cost = std::stod(cost);
        k.currency = "USD";
        return k;
    };
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    {
        Bill bill = two_months();
        const auto [first, hours] = bill.demand_hours();
        const std::int64_t plan_start = first + std::int64_t(hours);
        // ri-1: 3 years from 2024-06-01. Start: 276 days = 6,624 h before the plan, 9.07 months → −9; end
        // 2027-06-01: 819 days = 19,656 h after, 26.93 months → 27 (not the assumed −3 to 9).
        // ri-2: ended 2025-03-01, before the plan: left out.
        bill.contract_commitments = {contract("ri-1", "Usage", "", "2024-06-01T00:00:00Z", "2027-06-01T00:00:00Z"),
                                     contract("ri-2", "Usage", "", "2024-03-01T00:00:00Z", "2025-03-01T00:00:00Z")};
        std::vector<std::string> notes;
        const std::vector<HeldCommitment> held = held_from_bill(bill, p4d, plan_start, 1, &notes);
        REQUIRE(held.size() == 1);
        CHECK(held[0].id == "ri-1");
        CHECK(held[0].start_month == -9);
        CHECK(held[0].end_month == 27);
        // Its upfront spread 1.00/GPU-h over the 36 months of its term: 1.00 × 730 × 36 = 26,280 a GPU.
        CHECK(held[0].upfront_per_gpu == doctest::Approx(26'280));
        REQUIRE(notes.size() == 2);
        CHECK(notes[0] == "ri-1 (Reserved Instance): held: 8 GPUs at 1.5000 USD/GPU-h from month -9 to 27 (term "
                          "2024-06-01T00:00:00Z to 2027-06-01T00:00:00Z from its contract commitment (row 2)), standard");
        CHECK(notes[1] == "ri-2 (Convertible Reserved Instance): left out: its contract commitment (row 2) ended "
                          "2025-03-01T00:00:00Z");
    }
    {
        Bill bill = savings_plan_bill();
        const auto [first, hours] = bill.demand_hours();
        const std::int64_t plan_start = first + std::int64_t(hours);
        // sp-9: one year 2024-10-01 .. 2025-10-01 (8,760 h) of 438,000: 50 an hour (the bill's rows alone
        // say 48). End: 211 days = 5,064 h after the plan, 6.94 months → 7; a 1-year term from month −5.
        bill.contract_commitments = {contract("sp-9", "Spend", "438000", "2024-10-01T00:00:00Z", "2025-10-01T00:00:00Z")};
        std::vector<std::string> notes;
        const std::vector<SavingsPlan> held = held_savings_plans_from_bill(bill, p4d, plan_start, 1, &notes);
        REQUIRE(held.size() == 1);
        CHECK(held[0].commitment_per_hour == doctest::Approx(50));
        CHECK(held[0].start_month == -5);
        CHECK(held[0].term_years == 1);
        REQUIRE(notes.size() == 1);
        CHECK(notes[0] == "sp-9 (Compute Savings Plans): held: aws_compute savings plan 50.0000 USD/h at 2.0000 USD/GPU-h "
                          "(25 GPUs) from month -5 to 7 (term 2024-10-01T00:00:00Z to 2025-10-01T00:00:00Z from its "
                          "contract commitment (row 2), its amount from there), no_upfront (0% of it upfront)");
        // A term of two years is no Savings Plan's: left out, and said so.
        bill.contract_commitments = {contract("sp-9", "Spend", "", "2024-10-01T00:00:00Z", "2026-10-01T00:00:00Z")};
        notes.clear();
        CHECK(held_savings_plans_from_bill(bill, p4d, plan_start, 1, &notes).empty());
        REQUIRE(notes.size() == 1);
        CHECK(notes[0] == "sp-9 (Compute Savings Plans): left out: its contract commitment (row 2) runs 24.0 months; a "
                          "Savings Plan's term is 1 or 3 years");
    }
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
