// Commitments held before the horizon and changes of commitments (exchange, resale, refund), worked by
// hand on the test offering: $2.00/GPU-h on demand; 1-year all upfront $8,760/GPU; 3-year no upfront
// $0.70/GPU-h. 730 hours a month.
#include <doctest/doctest.h>

#include "plan_fixtures.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

PlanDistribution run(const Plan& plan, double gpus, int months) {
    return evaluate_plan(plan, DemandFutures::from_profile(DemandProfile::constant(gpus, Horizon::months(months))),
                         test::plan_test_offering());
}

HeldCommitment held(double count, int start, int end, std::optional<double> hourly, CommitmentClass kind,
                    double upfront = 0) {
    HeldCommitment h;
    h.count = count;
    h.start_month = start;
    h.end_month = end;
    h.hourly_per_gpu = hourly;
    h.kind = kind;
    h.upfront_per_gpu = upfront;
    return h;
}

}  // namespace

TEST_CASE("a held commitment pays only its hourly charges left, and its unused hours are reported") {
    // 8 GPUs held since month −6 until month 6 at $0.50/GPU-h, demand 6 GPUs for 12 months.
    // Months 0–5: 8 × 730 × 0.50 = 2,920 a month; 6 × 730 = 4,380 of its 5,840 GPU-hours used.
    // Months 6–11: all on demand, 6 × 730 × 2 = 8,760 a month. Total 6 × 2,920 + 6 × 8,760 = 70,080.
    Plan plan;
    plan.held.push_back(held(8, -6, 6, 0.5, CommitmentClass::standard, 5'000));  // upfront sunk: never paid
    const PlanDistribution d = run(plan, 6, 12);
    CHECK(d.total.mean == Approx(70'080));
    CHECK(d.mean_months[0].upfront == 0);
    CHECK(d.mean_months[0].reserved_recurring == Approx(2'920));
    CHECK(d.mean_months[0].held_gpu_hours == Approx(5'840));
    CHECK(d.mean_months[0].held_used_gpu_hours == Approx(4'380));
    CHECK(d.mean_months[6].held_gpu_hours == 0);
    CHECK(d.mean_months[6].on_demand == Approx(8'760));
    REQUIRE(d.commitment_use.size() == 1);
    const CommitmentUse& use = d.commitment_use[0];
    CHECK(use.name == "held[0]");
    CHECK(use.held);
    CHECK(use.first_month == 0);
    CHECK(use.end_month == 6);
    CHECK(use.paid_gpu_hours == Approx(6 * 5'840));    // 35,040
    CHECK(use.used_gpu_hours == Approx(6 * 4'380));    // 26,280
    CHECK(use.unused_gpu_hours == Approx(6 * 1'460));  // 8,760
    // Idle held hours are stranded at their hourly rate alone: 8,760 × 0.50 = 4,380.
    CHECK(d.mean_stranded_unused == Approx(4'380));
}

TEST_CASE("a held commitment's rate was agreed before the horizon: price paths do not move it") {
    // 1 GPU held to month 12 at $1.00/GPU-h, demand 0; every price at half from month 0. The held one
    // still pays 12 × 730 × 1.00 = 8,760; a reservation bought in month 0 pays half its 8,760 upfront.
    PricePaths half;
    half.on_demand = Eigen::ArrayXXd::Constant(12, 1, 0.5);
    half.spot = half.on_demand;
    half.reserved = half.on_demand;
    Plan plan;
    plan.held.push_back(held(1, -12, 12, 1.0, CommitmentClass::standard));
    const DemandFutures none = DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(12)));
    CHECK(evaluate_plan(plan, none, test::plan_test_offering(), half).total.mean == Approx(8'760));
    plan.commitments.push_back({.count = 1, .term_years = 1, .payment = Payment::all_upfront});
    CHECK(evaluate_plan(plan, none, test::plan_test_offering(), half).total.mean == Approx(8'760 + 4'380));
}

TEST_CASE("a held commitment without a rate takes the offering's hourly price for its term; held ones serve first") {
    // 2 GPUs held 3 years (month −12 to 24) no upfront: $0.70/GPU-h. A plan's 1-year all-upfront
    // reservation of 2 GPUs from month 0 serves after it. Demand 3 GPUs for 12 months:
    // held 2 × 730 × 0.70 = 1,022/month, used 1,460; the bought one uses 730 of 1,460 each month;
    // upfront 2 × 8,760 = 17,520 in month 0. The held term runs to month 24, past the horizon, and is
    // paid in full as any term is: total 24 × 1,022 + 17,520 = 42,048.
    Plan plan;
    HeldCommitment h = held(2, -12, 24, std::nullopt, CommitmentClass::standard);
    h.id = "ri-0abc";
    plan.held.push_back(h);
    plan.commitments.push_back({.count = 2, .term_years = 1, .payment = Payment::all_upfront});
    const PlanDistribution d = run(plan, 3, 12);
    CHECK(d.total.mean == Approx(42'048));
    REQUIRE(d.commitment_use.size() == 2);
    CHECK(d.commitment_use[0].name == "ri-0abc");
    CHECK(d.commitment_use[0].end_month == 24);  // paid past the horizon: its term runs on
    CHECK(d.commitment_use[0].used_gpu_hours == Approx(12 * 1'460));
    CHECK(d.commitment_use[1].name == "plan.commitments[0]");
    CHECK_FALSE(d.commitment_use[1].held);
    CHECK(d.commitment_use[1].used_gpu_hours == Approx(12 * 730));
    CHECK(d.commitment_use[1].unused_gpu_hours == Approx(12 * 730));
    CHECK(d.mean_months.size() == 24);
    CHECK(d.mean_months[20].reserved_recurring == Approx(1'022));
}

TEST_CASE("a convertible exchange pays the true-up and runs to the later end") {
    // Held: 4 convertible GPUs, month −12 to 24 (a 36-month term), $1.20/GPU-h, no upfront.
    // Exchanged in month 6 for 6 GPUs of 1-year all upfront ($8,760/GPU a term). The old term ends in
    // month 24, the new one's own term in 18: it runs to 24, 18 months.
    //   old value left: 4 × 1.20 × 18 × 730            = 63,072 (all hourly: no upfront left)
    //   new value:      6 × 8,760 × 18 / 12            = 78,840 (all upfront) >= 63,072: allowed
    //   true-up paid in month 6: the new upfront less the old upfront left, 78,840 − 0 = 78,840 (AWS's
    //   exchange quote: PaymentDue is the difference of the upfront values; the old hourly charges stop)
    // Demand 5 GPUs for 24 months. Months 0–5: held 4 × 730 × 1.20 = 3,504 + on demand 1 × 730 × 2 =
    // 1,460 → 4,964 a month, 29,784 in all. From month 6 the 6 exchanged GPUs serve all 5 (no hourly
    // charge: all upfront). Total 29,784 + 78,840 = 108,624.
    Plan plan;
    plan.held.push_back(held(4, -12, 24, 1.2, CommitmentClass::convertible));
    plan.changes.push_back({.kind = ChangeKind::exchange, .held = true, .index = 0, .month = 6,
                            .into = Commitment{.count = 6, .term_years = 1, .payment = Payment::all_upfront},
                            .price = 0});
    const PlanDistribution d = run(plan, 5, 24);
    CHECK(d.total.mean == Approx(108'624));
    CHECK(d.mean_months[6].commitment_changes == Approx(78'840));
    CHECK(d.mean_months[6].on_demand == 0);
    CHECK(d.mean_months[5].on_demand == Approx(1'460));
    REQUIRE(d.commitment_use.size() == 2);
    CHECK(d.commitment_use[0].end_month == 6);
    CHECK(d.commitment_use[0].unused_gpu_hours == Approx(0));
    CHECK(d.commitment_use[1].name == "held[0] exchanged in month 6");
    CHECK(d.commitment_use[1].first_month == 6);
    CHECK(d.commitment_use[1].end_month == 24);
    CHECK(d.commitment_use[1].paid_gpu_hours == Approx(18 * 6 * 730));   // 78,840
    CHECK(d.commitment_use[1].unused_gpu_hours == Approx(18 * 1 * 730)); // 13,140
    REQUIRE(d.changes.size() == 1);
    CHECK(d.changes[0] ==
          "held[0]: exchanged in month 6 (63072.00 left) for held[0] exchanged in month 6 worth 78840.00 to month 24; "
          "true-up 78840.00 USD");

    // 1 GPU of 3-year no upfront runs 36 months from month 6: 1 × 0.70 × 36 × 730 = 18,396 < 63,072.
    plan.changes[0].into = Commitment{.count = 1, .term_years = 3, .payment = Payment::no_upfront};
    CHECK_THROWS_WITH_AS(run(plan, 5, 24),
                         "plan.changes[0].into = \"1 GPUs, 3y no_upfront\": worth 18396.00 over months [6, 42), less than "
                         "the 63072.00 left of held[0]; an exchange must be for equal or greater value",
                         InvalidInput);
}

TEST_CASE("an AWS exchange is for the same or a higher payment option only") {
    // AWS (Amazon EC2 User Guide, "Exchanging Convertible Reserved Instances"): Partial Upfront ones may
    // be exchanged for All Upfront ones, not for No Upfront ones. Held: 4 convertible GPUs, month −12 to
    // 24, paid partial upfront ($0.60/GPU-h left, $2,628 upfront a GPU), exchanged in month 6 for 6 GPUs
    // of a 1-year term.
    Plan plan;
    plan.held.push_back(held(4, -12, 24, 0.6, CommitmentClass::convertible, 2'628));
    plan.held[0].payment = Payment::partial_upfront;
    plan.changes.push_back({.kind = ChangeKind::exchange, .held = true, .index = 0, .month = 6,
                            .into = Commitment{.count = 6, .term_years = 1, .payment = Payment::no_upfront},
                            .price = 0});
    CHECK_THROWS_WITH_AS(run(plan, 5, 24),
                         "plan.changes[0].into.payment = \"no_upfront\": must be the same as or a higher payment "
                         "option than held[0]'s partial_upfront (AWS exchanges a convertible reservation only for the "
                         "same or a higher payment option: no_upfront, partial_upfront, all_upfront)",
                         InvalidInput);
    // The same (partial upfront, by the discount: the payment is the option's) and a higher one are taken.
    // Left of the old one at month 6, 18 of its 36 months: 4 × (2,628 × 18 / 36 + 0.60 × 18 × 730) =
    // 4 × (1,314 + 7,884) = 36,792; 6 GPUs of 1-year all upfront run to month 24, worth 6 × 8,760 × 18 /
    // 12 = 78,840 >= 36,792, true-up 78,840 − 4 × 1,314 = 73,584 in month 6.
    plan.changes[0].into->payment = Payment::all_upfront;
    const PlanDistribution d = run(plan, 5, 24);
    CHECK(d.mean_months[6].commitment_changes == Approx(73'584));
    plan.changes[0].into = Commitment{.count = 6, .term_years = 1, .payment = Payment::partial_upfront,
                                      .reservation_discount = 0.4};
    CHECK_NOTHROW(run(plan, 5, 24));
    // The engine applies no payment rule to an Azure exchange (Microsoft's exchange rules state none).
    plan.changes[0].kind = ChangeKind::azure_exchange;
    plan.changes[0].into = Commitment{.count = 6, .term_years = 1, .payment = Payment::no_upfront,
                                      .reservation_discount = 0.4};
    CHECK_NOTHROW(run(plan, 5, 24));
}

TEST_CASE("a standard reservation sold on the marketplace: the price less the 12% fee, its hourly charges gone") {
    // The plan buys 2 GPUs of 1-year all upfront in month 0 (2 × 8,760 = 17,520) and sells them in month 4
    // for 5,000: AWS keeps 12%, 4,400 is received. Demand 2 GPUs for 12 months: months 4–11 run on
    // demand, 8 × 2 × 730 × 2 = 23,360. Total 17,520 + 23,360 − 4,400 = 36,480.
    Plan plan;
    plan.commitments.push_back({.count = 2, .term_years = 1, .payment = Payment::all_upfront});
    plan.changes.push_back({.kind = ChangeKind::resale, .held = false, .index = 0, .month = 4, .into = {},
                            .price = 5'000});
    const PlanDistribution d = run(plan, 2, 12);
    CHECK(d.total.mean == Approx(36'480));
    CHECK(d.mean_months[4].commitment_changes == Approx(-4'400));
    CHECK(d.mean_months[3].on_demand == 0);
    CHECK(d.mean_months[4].on_demand == Approx(2'920));
    CHECK(d.commitment_use[0].paid_gpu_hours == Approx(4 * 2 * 730));

    // A held standard one sold: its hourly charges stop too. 2 GPUs at $1.00/GPU-h to month 24, sold in
    // month 3 for 1,000 (880 received); demand 0. Months 0–2: 3 × 2 × 730 × 1 = 4,380; total 3,500.
    Plan sold;
    sold.held.push_back(held(2, -12, 24, 1.0, CommitmentClass::standard));
    sold.changes.push_back({.kind = ChangeKind::resale, .held = true, .index = 0, .month = 3, .into = {},
                            .price = 1'000});
    CHECK(run(sold, 0, 12).total.mean == Approx(3'500));

    sold.held[0].kind = CommitmentClass::convertible;
    CHECK_THROWS_WITH_AS(run(sold, 0, 12),
                         "plan.changes[0].kind = \"resale\": held[0] is a convertible reservation; only a standard one is "
                         "sold on the Reserved Instance Marketplace (a convertible one may be exchanged)",
                         InvalidInput);
}

TEST_CASE("an Azure refund gives back the upfront's prorated remainder, at most 50,000 in any 12 months") {
    // held[0]: 1 GPU, 36,000 upfront for month −12 to 24 (36 months); refunded in month 2:
    // 36,000 × 22 / 36 = 22,000. held[1]: 1 GPU, 72,000 upfront for month 0 to 36; refunded in month 14:
    // 72,000 × 22 / 36 = 44,000 (months 2 and 14 are never in one 12-month window). No hourly charges,
    // demand 0: total −66,000.
    Plan plan;
    plan.held.push_back(held(1, -12, 24, 0.0, CommitmentClass::standard, 36'000));
    plan.held.push_back(held(1, 0, 36, 0.0, CommitmentClass::standard, 72'000));
    plan.changes.push_back({.kind = ChangeKind::refund, .held = true, .index = 0, .month = 2, .into = {}, .price = 0});
    plan.changes.push_back({.kind = ChangeKind::refund, .held = true, .index = 1, .month = 14, .into = {}, .price = 0});
    const PlanDistribution d = run(plan, 0, 24);
    CHECK(d.total.mean == Approx(-66'000));
    CHECK(d.mean_months[2].commitment_changes == Approx(-22'000));
    CHECK(d.mean_months[14].commitment_changes == Approx(-44'000));

    // In month 13 held[1] refunds 72,000 × 23 / 36 = 46,000; months 2–13 then hold 68,000.
    plan.changes[1].month = 13;
    CHECK_THROWS_WITH_AS(run(plan, 0, 24),
                         "plan.changes[1].kind = \"refund\": 46000.00 refunded for held[1] in month 13 brings refunds in "
                         "months [2, 13] to 68000.00, more than the 50000 Azure refunds in any 12 months",
                         InvalidInput);
}

TEST_CASE("an Azure exchange refunds the returned reservation's upfront left and buys the new one in full") {
    // held[0]: 2 GPUs, 36,000 upfront each for month −12 to 24, no hourly charge. Exchanged in month 12
    // for 3 GPUs of 1-year all upfront (8,760 each): left of the old 2 × 36,000 × 12 / 36 = 24,000, all
    // of it upfront, refunded; the new lifetime commitment 3 × 8,760 = 26,280 >= 24,000, paid in month 12.
    // Demand 0 for 24 months: total 26,280 − 24,000 = 2,280.
    Plan plan;
    plan.held.push_back(held(2, -12, 24, 0.0, CommitmentClass::standard, 36'000));
    plan.changes.push_back({.kind = ChangeKind::azure_exchange, .held = true, .index = 0, .month = 12,
                            .into = Commitment{.count = 3, .term_years = 1, .payment = Payment::all_upfront},
                            .price = 0});
    const PlanDistribution d = run(plan, 0, 24);
    CHECK(d.total.mean == Approx(2'280));
    CHECK(d.mean_months[12].commitment_changes == Approx(-24'000));
    CHECK(d.mean_months[12].upfront == Approx(26'280));
    REQUIRE(d.commitment_use.size() == 2);
    CHECK(d.commitment_use[1].first_month == 12);
    CHECK(d.commitment_use[1].end_month == 24);
    // 2 GPUs: a lifetime commitment of 17,520 < 24,000.
    plan.changes[0].into->count = 2;
    CHECK_THROWS_WITH_AS(run(plan, 0, 24),
                         "plan.changes[0].into = \"2 GPUs, 1y all_upfront\": a lifetime commitment of 17520.00, less "
                         "than the 24000.00 left of held[0]; an Azure exchange must be for equal or greater value",
                         InvalidInput);
}

TEST_CASE("held commitments and changes are checked, each error naming the field") {
    const auto fails = [](const Plan& plan, const char* message) {
        CHECK_THROWS_WITH_AS(run(plan, 1, 12), message, InvalidInput);
    };
    Plan plan;
    plan.held.push_back(held(2, 1, 12, 1.0, CommitmentClass::standard));
    fails(plan, "plan.held[0].start_month = 1: must be <= 0 (a held commitment was bought before the horizon's first "
                "month, 0)");
    plan.held[0] = held(2, -3, 0, 1.0, CommitmentClass::standard);
    fails(plan, "plan.held[0].end_month = 0: must be > 0 (the first month it no longer runs; one that has ended is not "
                "held)");
    plan.held[0] = held(2, -3, 12, std::nullopt, CommitmentClass::standard);
    fails(plan, "plan.held[0].hourly_per_gpu = \"none\": give the rate: its term of 15 months (start_month -3 to end_month "
                "12) is not whole years, so no listed price applies");
    plan.held[0] = held(2, -3, 12, -1.0, CommitmentClass::standard);
    fails(plan, "plan.held[0].hourly_per_gpu = -1: must be finite and >= 0");
    plan.held[0] = held(-2, -3, 12, 1.0, CommitmentClass::standard);
    fails(plan, "plan.held[0].count = -2: must be finite and >= 0");
    plan.held[0] = held(2, -3, 12, 1.0, CommitmentClass::standard);

    plan.changes.push_back({.kind = ChangeKind::resale, .held = true, .index = 1, .month = 3, .into = {}, .price = 10});
    fails(plan, "plan.changes[0].index = 1: must be < 1 (the plan's held commitments)");
    plan.changes[0].index = 0;
    plan.changes[0].month = 12;
    fails(plan, "plan.changes[0].month = 12: must be in [1, 12) (after held[0] is bought, while it runs, inside the "
                "horizon)");
    plan.changes[0].month = 3;
    plan.changes[0].price = -10;
    fails(plan, "plan.changes[0].price = -10: must be finite and >= 0");
    plan.changes[0].price = 10;
    plan.changes[0].into = Commitment{.count = 1};
    fails(plan, "plan.changes[0].into = \"given\": only an exchange buys a new reservation, not a resale");
    plan.changes[0].into.reset();
    plan.changes.push_back(plan.changes[0]);
    fails(plan, "plan.changes[1].index = 0: held[0] is already changed by plan.changes[0] (one change per commitment)");
    plan.changes.pop_back();
    plan.changes[0].kind = ChangeKind::exchange;
    fails(plan, "plan.changes[0].kind = \"exchange\": held[0] is a standard reservation; only a convertible one is "
                "exchanged (a standard one may be resold)");
    plan.held[0].kind = CommitmentClass::convertible;
    fails(plan, "plan.changes[0].into = \"none\": an exchange needs the new reservation");
}

TEST_CASE("the recommender takes held commitments as given and advises what to add; so do the baselines") {
    // Demand 10 GPUs for 12 months; 4 GPUs held to month 12 at $0.30/GPU-h. 1-year all upfront
    // ($1.00/GPU-h effective against $2.00 on demand) pays for every GPU busy all year: buy 10 − 4 = 6.
    // Cost: held 4 × 730 × 0.30 × 12 = 10,512 + bought 6 × 8,760 = 52,560 → 63,072.
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(10, Horizon::months(12)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront}};
    options.review_months = 12;
    options.held = {held(4, -6, 12, 0.3, CommitmentClass::standard)};
    const Recommendation r = recommend_plan(futures, offering, options);
    REQUIRE(r.plan.commitments.size() == 1);
    CHECK(r.plan.commitments[0].count == 6);
    REQUIRE(r.plan.held.size() == 1);
    CHECK(r.in_sample.total.mean == Approx(63'072));
    CHECK(r.solver_objective == Approx(63'072));  // the held charges are in the programme's constant
    // Without what is held it buys all 10.
    options.held.clear();
    CHECK(recommend_plan(futures, offering, options).plan.commitments[0].count == 10);

    // Errors in what is held name the option.
    options.held = {held(4, 2, 12, 0.3, CommitmentClass::standard)};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.held[0].start_month = 2: must be <= 0 (a held commitment was bought before the "
                         "horizon's first month, 0)",
                         InvalidInput);

    // Baselines: 60 days of 10 GPUs; the providers' advice and the newsvendor leave the 4 held out.
    const DemandProfile history = DemandProfile::constant(10, Horizon::months(2));
    const std::vector<Plan> plans = baseline_plans(history, offering, 1, Payment::all_upfront, {},
                                                   {held(4, -6, 12, 0.3, CommitmentClass::standard)});
    REQUIRE(plans.size() == 5);
    for (const Plan& p : plans) CHECK(p.held.size() == 1);
    CHECK(plans[1].commitments[0].count == 6);  // lookback 7 days
    CHECK(plans[3].commitments[0].count == 6);  // lookback 60 days
    CHECK(plans[4].commitments[0].count == Approx(6));  // newsvendor on the history less the held GPUs
    const Plan policy = provider_policy_plan(history, futures, 0, offering, 30, 1, Payment::all_upfront, {},
                                             {held(4, -6, 12, 0.3, CommitmentClass::standard)});
    REQUIRE(policy.commitments.size() == 1);
    CHECK(policy.commitments[0].count == 6);
}
