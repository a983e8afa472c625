// Changes of reservations already held in the recommender (RecommendOptions::changes): a standard one
// sold on the Reserved Instance Marketplace, a convertible one exchanged, one refunded within Azure's
// cap, chosen where demand falls below what is held; equal to brute force priced by the engine over
// random small problems, and a case worked by hand. Test offering: $2.00/GPU-h on demand, $0.80 spot.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "brute_force_plans.hpp"
#include "plan_fixtures.hpp"
#include "gputco/optimise/recommend.hpp"
#include "gputco/optimise/rolling.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

HeldCommitment held(double count, int start, int end, double hourly, double upfront, CommitmentClass kind) {
    HeldCommitment h;
    h.count = count;
    h.start_month = start;
    h.end_month = end;
    h.hourly_per_gpu = hourly;
    h.upfront_per_gpu = upfront;
    h.kind = kind;
    return h;
}

}  // namespace

TEST_CASE("demand falls to 0 in month 12 of a 36-month standard reservation held: sold then, worked by hand") {
    // Held: 4 GPUs bought in month 0 for 36 months, $8,760 upfront per GPU (sunk) and $0.70 an hour.
    // Demand: 4 GPUs in months 0-11, none in months 12-35.
    // Keep: 4 × 0.70 × 730 × 36 = 73,584 (the held charges; the demand is all served by them).
    // Sell in month 12 asking half the prorated upfront left: 0.5 × 4 × 8,760 × 24/36 = 11,680; AWS
    // keeps 12%, so 10,278.40 is received; the charges of months 12-35 pass to the buyer. Cost:
    // 4 × 0.70 × 730 × 12 = 24,528 − 10,278.40 = 14,249.60.
    // Sell in month 6 instead: 0.88 × 0.5 × 4 × 8,760 × 30/36 = 12,848 back, 6 months held 12,264, and
    // months 6-11 on demand 4 × 2 × 730 × 6 = 35,040: 34,456. In month 18: 36,792 − 7,708.80 = 29,083.20.
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures =
        DemandFutures::from_profile(DemandProfile::steps({{0, 4.0}, {12, 0.0}}, Horizon::months(36)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::all_upfront}};
    options.review_months = 6;
    options.plan_options.threads = 1;
    options.held = {held(4, 0, 36, 0.7, 8760, CommitmentClass::standard)};
    options.changes.resale_price_share = 0.5;
    const Recommendation r = recommend_plan(futures, offering, options);
    REQUIRE(r.plan.changes.size() == 1);
    CHECK(r.plan.changes[0].kind == ChangeKind::resale);
    CHECK(r.plan.changes[0].month == 12);
    CHECK(r.plan.changes[0].price == Approx(11'680).epsilon(1e-12));
    CHECK(r.plan.commitments.empty());
    CHECK(r.in_sample.total.mean == Approx(14'249.6).epsilon(1e-12));
    CHECK(r.solver_objective == Approx(14'249.6).epsilon(1e-12));
    // Without the option the reservation is kept: 73,584.
    options.changes = {};
    CHECK(recommend_plan(futures, offering, options).in_sample.total.mean == Approx(73'584).epsilon(1e-12));

    // Demand steady at 4: selling never pays (kept, 73,584).
    options.changes.resale_price_share = 1.0;
    const Recommendation steady = recommend_plan(
        DemandFutures::from_profile(DemandProfile::constant(4, Horizon::months(36))), offering, options);
    CHECK(steady.plan.changes.empty());
    CHECK(steady.in_sample.total.mean == Approx(73'584).epsilon(1e-12));
}

namespace {

/// The falling-demand cases' demand: 4 GPUs in months 0-5, then 1 GPU to month 35.
DemandFutures falling_demand() {
    return DemandFutures::from_profile(DemandProfile::steps({{0, 4.0}, {6, 1.0}}, Horizon::months(36)));
}

/// What they may buy: the 3-year no-upfront reservation, at most 4, in months 0 and 6 (one thread).
RecommendOptions falling_demand_options() {
    RecommendOptions options;
    options.commitments = {{.term_years = 3, .payment = Payment::no_upfront}};
    options.start_months = {0, 6};
    options.max_count = 4;
    options.plan_options.threads = 1;
    return options;
}

}  // namespace

TEST_CASE("a convertible reservation exchanged or refunded where demand falls, worked by hand") {
    // Held: 4 convertible GPUs from month -12 to 24 at $1.00 an hour, $8,760 upfront per GPU (36-month
    // term). Demand: 4 GPUs in months 0-5, then 1 GPU to month 35 (horizon 36). What may be bought: the
    // offering's 3-year no-upfront reservation at $0.70 an hour, in months 0 and 6.
    // Keep: 4 × 1.00 × 730 × 24 = 70,080, and 1 GPU on demand in months 24-35: 2 × 730 × 12 = 17,520;
    // 87,600 in all (a 3-year GPU bought in month 6 would serve months 24-35 only, for 18,396).
    // Exchange in month 6 for 3-year GPUs: what is left of the old one is V_old = 4 × (8,760 × 18/36 +
    // 1.00 × 730 × 18) = 70,080; a new GPU runs from month 6 to 42 (its own full term) and is worth
    // 0.70 × 730 × 36 = 18,396, so 4 of them (73,584) are the fewest of equal or greater value; no
    // upfront, so no true-up (0 less the old upfront left, 17,520, is below 0). Cost: 6 months held
    // 17,520 + 4 × 0.70 × 730 × 36 = 73,584: 91,104 — dearer than keeping: kept.
    // Refund instead (Azure) in month 6: 4 × 8,760 × 18/36 = 17,520 back, under the 50,000 cap, and
    // one 3-year GPU bought then for the 1 GPU left: 17,520 − 17,520 + 18,396 = 18,396.
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = falling_demand();
    RecommendOptions options = falling_demand_options();
    options.held = {held(4, -12, 24, 1.0, 8760, CommitmentClass::convertible)};
    options.changes.exchange_into = {{.term_years = 3, .payment = Payment::no_upfront}};
    const Recommendation kept = recommend_plan(futures, offering, options);
    CHECK(kept.plan.changes.empty());
    CHECK(kept.plan.commitments.empty());
    CHECK(kept.in_sample.total.mean == Approx(87'600).epsilon(1e-12));
    // The exchange priced by the engine: 91,104, as above.
    Plan exchanged = kept.plan;
    exchanged.changes = {{.kind = ChangeKind::exchange, .held = true, .index = 0, .month = 6,
                          .into = Commitment{.count = 4, .term_years = 3, .payment = Payment::no_upfront}}};
    CHECK(evaluate_plan(exchanged, futures, offering).total.mean == Approx(91'104).epsilon(1e-12));
    // With the refund allowed it is returned in month 6 and one 3-year GPU bought.
    options.changes.refund = true;
    const Recommendation refunded = recommend_plan(futures, offering, options);
    REQUIRE(refunded.plan.changes.size() == 1);
    CHECK(refunded.plan.changes[0].kind == ChangeKind::refund);
    CHECK(refunded.plan.changes[0].month == 6);
    REQUIRE(refunded.plan.commitments.size() == 1);
    CHECK(refunded.plan.commitments[0].count == 1);
    CHECK(refunded.plan.commitments[0].start_month == 6);
    CHECK(refunded.in_sample.total.mean == Approx(18'396).epsilon(1e-12));
    CHECK(refunded.solver_objective == Approx(18'396).epsilon(1e-12));
    // At $40,000 upfront per GPU the refund (4 × 40,000 × 18/36 = 80,000) is over Azure's 50,000 in 12
    // months: it is not made, and the reservation is kept (87,600).
    options.held[0].upfront_per_gpu = 40'000;
    options.changes.exchange_into.clear();
    const Recommendation capped = recommend_plan(futures, offering, options);
    CHECK(capped.plan.changes.empty());
    CHECK(capped.in_sample.total.mean == Approx(87'600).epsilon(1e-12));
}

TEST_CASE("an Azure exchange chosen where demand falls, and an AWS exchange into a lower payment option never "
          "offered, worked by hand") {
    // The held reservation and demand of the case above: 4 GPUs from month -12 to 24 at $1.00 an hour,
    // $8,760 upfront per GPU; demand 4 GPUs in months 0-5, then 1. Kept: 87,600.
    // Azure exchange in month 6 into the 3-year no-upfront term ($0.70 an hour): the upfront left,
    // 4 × 8,760 × 18/36 = 17,520, is refunded (outside the refund cap); what is left of the old one,
    // 4 × (8,760 × 18/36 + 1.00 × 730 × 18) = 70,080, needs new units of lifetime commitment at least
    // that: a GPU's is 0.70 × 730 × 36 = 18,396, so 4 GPUs (73,584). Cost: 6 months held 4 × 1.00 × 730 ×
    // 6 = 17,520, less the refund 17,520, plus 73,584: 73,584 < 87,600 kept (the AWS exchange, which
    // refunds nothing, was 91,104).
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = falling_demand();
    RecommendOptions options = falling_demand_options();
    options.held = {held(4, -12, 24, 1.0, 8760, CommitmentClass::standard)};
    options.changes.azure_exchange_into = {{.term_years = 3, .payment = Payment::no_upfront}};
    const Recommendation r = recommend_plan(futures, offering, options);
    REQUIRE(r.plan.changes.size() == 1);
    CHECK(r.plan.changes[0].kind == ChangeKind::azure_exchange);
    CHECK(r.plan.changes[0].month == 6);
    REQUIRE(r.plan.changes[0].into.has_value());
    CHECK(r.plan.changes[0].into->count == 4);
    CHECK(r.plan.changes[0].into->term_years == 3);
    CHECK(r.plan.commitments.empty());
    CHECK(r.in_sample.total.mean == Approx(73'584).epsilon(1e-12));
    CHECK(r.solver_objective == Approx(73'584).epsilon(1e-12));
    CHECK(r.in_sample.mean_months[6].commitment_changes == Approx(-17'520).epsilon(1e-12));

    // AWS: a convertible one held all upfront may not be exchanged into no upfront (the EC2 User
    // Guide's payment-option rule): that exchange is not offered, so it is kept (87,600) and the plan
    // prices without error.
    options.changes = {};
    options.held = {held(4, -12, 24, 1.0, 8760, CommitmentClass::convertible)};
    options.held[0].payment = Payment::all_upfront;
    options.changes.exchange_into = {{.term_years = 3, .payment = Payment::no_upfront}};
    const Recommendation kept = recommend_plan(futures, offering, options);
    CHECK(kept.plan.changes.empty());
    CHECK(kept.in_sample.total.mean == Approx(87'600).epsilon(1e-12));
}

TEST_CASE("the change options are checked, each error naming the field") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(2, Horizon::months(12)));
    RecommendOptions options;
    options.plan_options.threads = 1;
    options.changes.refund = true;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.held.size = 0: must be >= 1 with options.changes (a change is made to a reservation "
                         "already held)",
                         InvalidInput);
    options.held = {held(4, -12, 24, 1.0, 8760, CommitmentClass::convertible)};
    options.changes.resale_price_share = 1.5;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.changes.resale_price_share = 1.5: must be in [0, 1] (of the prorated upfront left)",
                         InvalidInput);
    options.changes.resale_price_share.reset();
    options.changes.exchange_into = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.3,
                                      .term_months = 3}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.changes.exchange_into[0].term_months = 3: must be 0 (a convertible reservation is "
                         "exchanged for a term of years)",
                         InvalidInput);
    options.changes.exchange_into.clear();
    options.changes.azure_exchange_into = {{.term_years = 1, .payment = Payment::no_upfront,
                                            .reservation_discount = 0.3, .term_months = 1}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.changes.azure_exchange_into[0].term_months = 1: must be 0 (an Azure reservation is "
                         "exchanged for a term of years)",
                         InvalidInput);
    options.changes.azure_exchange_into.clear();
    RollingOptions rolling;
    rolling.every_months = 12;
    options.changes.exchange_into.clear();
    CHECK_THROWS_WITH_AS(rolling_replan(futures, futures, offering, options, rolling),
                         "options.changes = \"given\": must be empty: the rolling policy re-solves reservations only",
                         InvalidInput);
}

TEST_CASE("over 80 random small problems with reservations held and falling demand, the recommendation with "
          "resale, exchange and refund equals brute force priced by the engine") {
    Xoshiro256pp engine(2727);
    const int months = 12, later = 6;  // commitments bought and changes made in month `later`
    const std::size_t count = 3;
    int changed = 0, kept = 0, exchanges = 0, azure_exchanges = 0, cvar_trials = 0;
    for (int trial = 0; trial < 80; ++trial) {
        const int g = test::uniform_int(engine, 1, 2);
        const Offering offering = test::plan_test_offering_in_instances(g);
        DemandModel model;
        model.base_gpus = test::uniform(engine, 2, 6);
        // One problem in four keeps its demand and holds a convertible reservation ending soon after month
        // `later`, with upfront left: there exchanging it for a longer one can pay.
        const bool steady = trial % 4 == 1;
        model.monthly_log_growth = steady ? test::uniform(engine, 0, 0.05) : test::uniform(engine, -0.4, 0.1);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        PricePaths prices;  // on demand and spot step once per future by a random factor
        prices.on_demand.setOnes(months, Eigen::Index(count));
        prices.spot.setOnes(months, Eigen::Index(count));
        prices.reserved.setOnes(months, Eigen::Index(count));
        for (Eigen::Index f = 0; f < Eigen::Index(count); ++f) {
            const int at = test::uniform_int(engine, 0, months - 1);
            prices.on_demand.col(f).tail(months - at) = test::uniform(engine, 0.7, 1.2);
            prices.spot.col(f).tail(months - at) = test::uniform(engine, 0.6, 1.5);
        }
        RecommendOptions options;
        const double discount = test::uniform(engine, 0.1, 0.5);
        options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = discount}};
        options.start_months = {0, later};
        options.max_count = 2;
        options.unit = g > 1 ? CountUnit::instances : CountUnit::gpus;
        options.plan_options.threads = 1;
        const int held_count = trial % 4 == 3 ? 2 : 1;
        for (int i = 0; i < held_count; ++i) {
            const int start = -test::uniform_int(engine, 1, 30);
            const int end = steady ? test::uniform_int(engine, 7, 9) : test::uniform_int(engine, 2, 16);
            const bool convertible = steady || test::uniform_int(engine, 0, 1) == 1;
            // One draw a statement: a function's arguments are evaluated in an order compilers choose (GCC
            // right to left, clang left to right), which would give each compiler other problems.
            const double upfront = test::uniform(engine, steady ? 10'000 : 0, 30'000);
            const double hourly = test::uniform(engine, 0.6, 1.6);
            const int units = test::uniform_int(engine, 1, 2);
            options.held.push_back(held(g * units, start, end, hourly, upfront,
                                        convertible ? CommitmentClass::convertible : CommitmentClass::standard));
        }
        options.changes.resale_price_share = test::uniform(engine, 0, 1);
        options.changes.refund = trial % 3 == 0;
        options.changes.exchange_into = {{.term_years = 1,
                                          .payment = trial % 4 != 3 ? Payment::all_upfront : Payment::no_upfront,
                                          .reservation_discount = test::uniform(engine, 0.1, 0.6)}};
        // A quarter of the trials (demand falling) also offer the Azure exchange, into the same term 15
        // points further off on demand; the steady ones try the AWS exchange on its own.
        if (trial % 4 == 0) {
            options.changes.azure_exchange_into = options.changes.exchange_into;
            *options.changes.azure_exchange_into[0].reservation_discount += 0.15;
        }
        const bool with_spot = trial % 2 == 0;
        const double overhead = test::uniform(engine, 1, 2), availability = test::uniform(engine, 0.3, 1);
        std::optional<SpotShare> spot;
        if (with_spot) {
            options.spot = {{.name = "spot", .overhead = overhead, .availability = availability,
                             .price_per_gpu_hour = {}, .deadline_miss_probability = {}}};
            spot = SpotShare{.gpus = 0, .price_per_gpu_hour = {}, .overhead = overhead, .availability = availability,
                             .periods = {}};
        }
        const bool with_cvar = trial % 3 == 2;
        Plan held_only;
        held_only.held = options.held;
        const double on_demand_cvar = evaluate_plan(held_only, futures, offering, prices, options.plan_options).total.cvar95;
        if (with_cvar) options.limits.cvar95 = on_demand_cvar * test::uniform(engine, 0.85, 1.0);

        // Each held reservation's choices: kept, or changed in month `later` (the start month after 0) as its
        // class allows — sold, refunded, or exchanged for 1 or 2 units (each of at least the value left).
        std::vector<std::vector<std::optional<CommitmentChange>>> choices(options.held.size());
        for (std::size_t i = 0; i < options.held.size(); ++i) {
            choices[i].push_back(std::nullopt);
            const HeldCommitment& h = options.held[i];
            if (h.end_month <= later) continue;  // ended before the only month a change may be made
            const double left = h.count * h.upfront_per_gpu * (h.end_month - later) / (h.end_month - h.start_month);
            if (h.kind == CommitmentClass::standard)
                choices[i].push_back(CommitmentChange{.kind = ChangeKind::resale, .held = true, .index = i, .month = later,
                                                      .into = {}, .price = *options.changes.resale_price_share * left});
            if (options.changes.refund)
                choices[i].push_back(
                    CommitmentChange{.kind = ChangeKind::refund, .held = true, .index = i, .month = later, .into = {}, .price = 0});
            for (const CommitmentOption& into : options.changes.azure_exchange_into)  // any held one
                for (int units = 1; units <= 2; ++units)
                    choices[i].push_back(CommitmentChange{
                        .kind = ChangeKind::azure_exchange, .held = true, .index = i, .month = later,
                        .into = Commitment{.count = double(units), .unit = options.unit, .term_years = into.term_years,
                                           .payment = into.payment, .start_month = later, .renewal = Renewal::lapse,
                                           .reservation_discount = into.reservation_discount, .offering = {}},
                        .price = 0});
            if (h.kind == CommitmentClass::convertible)
                for (int units = 1; units <= 2; ++units) {
                    const CommitmentOption& into = options.changes.exchange_into[0];
                    choices[i].push_back(CommitmentChange{
                        .kind = ChangeKind::exchange, .held = true, .index = i, .month = later,
                        .into = Commitment{.count = double(units), .unit = options.unit, .term_years = into.term_years,
                                           .payment = into.payment, .start_month = later, .renewal = Renewal::lapse,
                                           .reservation_discount = into.reservation_discount, .offering = {}},
                        .price = 0});
                }
        }
        test::BruteForce brute(futures, offering, prices, options.plan_options, spot, options.limits.cvar95);
        brute.billed_per_instance(g);  // as the recommender bills when it counts in instances
        const auto try_changes = [&](const std::vector<CommitmentChange>& picked, int first, int second) {
            Plan plan;
            plan.held = options.held;
            plan.changes = picked;
            for (const auto& [units, start] : {std::pair{first, 0}, std::pair{second, later}})
                if (units > 0)
                    plan.commitments.push_back({.count = double(units), .unit = options.unit, .term_years = 1,
                                                .payment = Payment::no_upfront, .start_month = start,
                                                .renewal = Renewal::lapse, .reservation_discount = discount,
                                                .offering = {}});
            // The capacity each month: held GPUs until changed, exchanged and bought ones.
            std::set<double> turns;
            for (int m = 0; m < months; ++m) {
                double capacity = g * (first + (m >= later ? second : 0));
                for (std::size_t i = 0; i < options.held.size(); ++i) {
                    const bool stopped =
                        std::any_of(picked.begin(), picked.end(), [&](const CommitmentChange& c) { return c.index == i && m >= c.month; });
                    if (m < options.held[i].end_month && !stopped) capacity += options.held[i].count;
                }
                for (const CommitmentChange& c : picked)
                    if (c.into && m >= c.month) capacity += c.into->count * g;
                test::add_spot_turns(turns, futures, m, capacity);
            }
            try {
                brute.consider(plan, turns);
            } catch (const InvalidInput&) {  // an exchange for less than the value left, or refunds over the cap
            }
        };
        const auto for_each_choice = [&](int first, int second) {
            for (const auto& a : choices[0]) {
                const std::size_t n_second = choices.size() > 1 ? choices[1].size() : 1;
                for (std::size_t b = 0; b < n_second; ++b) {
                    std::vector<CommitmentChange> picked;
                    if (a) picked.push_back(*a);
                    if (choices.size() > 1 && choices[1][b]) picked.push_back(*choices[1][b]);
                    try_changes(picked, first, second);
                }
            }
        };
        for (int first = 0; first <= 2; ++first)
            for (int second = 0; second <= 2; ++second) for_each_choice(first, second);

        INFO("trial " << trial << (with_cvar ? ", CVaR95 limit" : "") << (with_spot ? ", spot" : "")
                      << "; brute force: " << describe(brute.best_plan()));
        if (!brute.found()) {
            CHECK_THROWS_AS(recommend_plan(futures, offering, options, prices), InvalidInput);
            continue;
        }
        cvar_trials += with_cvar;
        (brute.best_plan().changes.empty() ? kept : changed) += 1;
        for (const CommitmentChange& c : brute.best_plan().changes) {
            exchanges += c.kind == ChangeKind::exchange;
            azure_exchanges += c.kind == ChangeKind::azure_exchange;
        }
        const Recommendation r = recommend_plan(futures, offering, options, prices);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("recommended: " << describe(shown));
        CHECK(r.proven_optimal);
        CHECK(r.in_sample.total.mean == Approx(brute.best()).epsilon(1e-9));
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
    }
    MESSAGE("changed " << changed << ", kept " << kept << ", exchanges " << exchanges << ", CVaR " << cvar_trials);
    CHECK(changed >= 10);  // the draws make changes pay, and not pay, often enough to test both
    CHECK(kept >= 5);
    CHECK(exchanges >= 3);
    MESSAGE("Azure exchanges in the brute-force optima: " << azure_exchanges);
    CHECK(azure_exchanges >= 2);
    CHECK(cvar_trials >= 8);
}
