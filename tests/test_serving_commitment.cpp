// A committed base plus spot on top (engines/serving_commitment.hpp), checked by hand.
#include <doctest/doctest.h>

#include "plan_fixtures.hpp"
#include "gputco/engines/serving_commitment.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

SpotAvailability availability(const std::string& bits) {
    SpotAvailability a;
    for (const char c : bits) a.available.push_back(c == '1');
    return a;
}

}  // namespace

TEST_CASE("the on-demand base bought as a 1-year commitment, spot and the fallback from the trace run") {
    // The test offering: one GPU an instance, $2/h on demand, a 1-year all-upfront reservation for
    // $8,760 ($1/h). N = 2, base 1, no extra: one spot replica ($0.80/h) beside the base.
    const Offering offering = test::plan_test_offering();
    const ServingConfig config{.target_replicas = 2, .extra_spot = 0, .on_demand_base = 1,
                               .on_demand_price_per_hour = 2.0};
    const CommittedBase base{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}};
    SUBCASE("static spread, spot always there") {
        // Run: 10 h × ($0.80 spot + $2 base) = $28; above the base $0.80/h. Over 8,760 h: the base's
        // commitment $8,760, spot $7,008, total $15,768, against 2 × $2 × 8,760 = $35,040 on demand
        // (saving 55%); the base on demand would have been $17,520.
        const std::vector<SpotRegion> zones{{"a", availability("1111111111"), 0.8}};
        const ServingCandidate c{.policy = ServingPolicy::static_spread, .extra_spot = 0, .on_demand_base = 1,
                                 .result = simulate_serving(zones, config, ServingPolicy::static_spread),
                                 .meets_target = true};
        CHECK(c.result.cost == Approx(28.0));
        const CommittedServingCost cost = committed_base_cost(c, config, offering, base);
        CHECK(cost.hours == 8760.0);
        CHECK(cost.base_commitment_cost == Approx(8760.0));
        CHECK(cost.base_on_demand_cost == Approx(17'520.0));
        CHECK(cost.spot_and_fallback_cost == Approx(7008.0));
        CHECK(cost.total == Approx(15'768.0));
        CHECK(cost.on_demand_total == Approx(24'528.0));  // $2.80/h with the base on demand
        CHECK(cost.on_demand_only_cost == Approx(35'040.0));
        CHECK(cost.saving == Approx(1 - 15'768.0 / 35'040.0));
    }
    SUBCASE("even spread with fallback, spot there half the run") {
        // Spot up 5 of 10 h: spot 5 × $0.80 = $4; base 10 × $2 = $20; fallback 5 × $2 = $10; run $34.
        // Above the base (34 − 20) / 10 = $1.40/h, × 8,760 = $12,264; total 8,760 + 12,264 = $21,024.
        const std::vector<SpotRegion> zones{{"a", availability("1111100000"), 0.8}};
        const ServingCandidate c{.policy = ServingPolicy::even_spread_fallback, .extra_spot = 0, .on_demand_base = 1,
                                 .result = simulate_serving(zones, config, ServingPolicy::even_spread_fallback),
                                 .meets_target = true};
        CHECK(c.result.cost == Approx(34.0));
        const CommittedServingCost cost = committed_base_cost(c, config, offering, base);
        CHECK(cost.spot_and_fallback_cost == Approx(12'264.0));
        CHECK(cost.total == Approx(21'024.0));
        // A 3-year no-upfront reservation at $0.70/h: 0.7 × 26,280 = $18,396 for the base; the rest
        // 1.4 × 26,280 = $36,792.
        const CommittedServingCost three =
            committed_base_cost(c, config, offering, {.term_years = 3, .payment = Payment::no_upfront, .reservation_discount = {}});
        CHECK(three.base_commitment_cost == Approx(18'396.0));
        CHECK(three.total == Approx(18'396.0 + 36'792.0));
    }
}

TEST_CASE("the cheapest configuration with its base committed, and the checks") {
    const Offering offering = test::plan_test_offering();
    // Zone up 7 of 10 ticks. Candidates over E in [0, 1] and base in [0, 2] for N = 2.
    const std::vector<SpotRegion> zones{{"a", availability("1110111011"), 0.8}};
    const ServingConfig config{.target_replicas = 2, .on_demand_price_per_hour = 2.0};
    const ServingPlan plan = choose_serving_plan(zones, config, {.max_extra = 1, .max_on_demand_base = 2,
                                                                 .availability_target = 1.0, .threads = 1});
    const CommittedBase base{.term_years = 1, .payment = Payment::all_upfront, .reservation_discount = {}};
    const auto best = cheapest_with_committed_base(plan, config, offering, base);
    REQUIRE(best.has_value());
    double least = 1e300;
    for (const ServingCandidate& c : plan.candidates)
        if (c.meets_target) least = std::min(least, committed_base_cost(c, config, offering, base).total);
    CHECK(committed_base_cost(plan.candidates[*best], config, offering, base).total == least);
    // A committed base at $1/h beats the fallback at $2/h here: the best keeps a base.
    CHECK(plan.candidates[*best].on_demand_base > 0);

    ServingConfig other = config;
    other.on_demand_price_per_hour = 3.0;
    CHECK_THROWS_WITH_AS(committed_base_cost(plan.candidates[0], other, offering, base),
                         "serving.on_demand_price_per_hour = 3: must be offering testcloud/test-1/g1's on-demand "
                         "price per instance-hour as paid, 2 (a replica is one instance)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(committed_base_cost(plan.candidates[0], config, offering,
                                             {.term_years = 2, .payment = Payment::all_upfront, .reservation_discount = {}}),
                         "base.term_years = 2: must be 1 or 3", InvalidInput);
}
