// Scenario files: fields renamed so that each meaning of "discount" has its own name (docs/models.md,
// section 1). An old spelling still loads, to the same scenario; the old and the new one together are
// an error naming both; messages name the new field.
#include <doctest/doctest.h>

#include <string>

#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

/// A scenario with a reserved strategy and a plan whose commitment and exchange take `field`.
std::string scenario(std::string_view reserved, std::string_view commitment, std::string_view into) {
    return fmt::format(
        "version: 1\n"                                                                       // 1
        "name: t\n"                                                                          // 2
        "horizon_months: 24\n"                                                               // 3
        "offering: {{provider: gcp, instance_type: a2-highgpu-8g, region: us-central1}}\n"  // 4
        "demand: {{kind: constant, gpus: 8}}\n"                                              // 5
        "strategies:\n"                                                                      // 6
        "  - name: r\n"                                                                      // 7
        "    reserved: {{term_years: 1, payment: all_upfront, {}}}\n"                        // 8
        "futures: {{count: 5, base_gpus: 8}}\n"                                              // 9
        "plans:\n"                                                                           // 10
        "  - name: ladder\n"                                                                 // 11
        "    commitments:\n"                                                                 // 12
        "      - {{count: 8, term_years: 1, payment: no_upfront, kind: convertible, {}}}\n"  // 13
        "    changes:\n"                                                                     // 14
        "      - {{kind: exchange, commitment: 0, month: 6,\n"                               // 15
        "         into: {{count: 8, term_years: 3, payment: no_upfront, {}}}}}\n",           // 16
        reserved, commitment, into);
}

using test::message;

}  // namespace

TEST_CASE("a reservation's discount: reservation_discount, or its old spelling discount") {
    const std::string now = scenario("reservation_discount: 0.4", "reservation_discount: 0.3", "reservation_discount: 0.5");
    const std::string old = scenario("discount: 0.4", "discount: 0.3", "discount: 0.5");
    const Scenario s = parse_scenario(now, "plan.yaml");
    CHECK(*std::get<Reserved>(s.strategies.at(0).strategy).reservation_discount == 0.4);
    CHECK(*s.plans.at(0).commitments.at(0).reservation_discount == 0.3);
    CHECK(*s.plans.at(0).changes.at(0).into->reservation_discount == 0.5);
    // the old spelling reads to the same scenario, written with the new one
    const std::string written = to_yaml(s);
    CHECK(to_yaml(parse_scenario(old, "plan.yaml")) == written);
    CHECK(written.find("reservation_discount: 0.4") != std::string::npos);
    CHECK(written.find(" discount:") == std::string::npos);

    // both spellings in one mapping: an error naming both, at the old one's place
    CHECK(message(scenario("reservation_discount: 0.4, discount: 0.4", "discount: 0.3", "discount: 0.5")) ==
          "plan.yaml:8:90: strategies[0].reserved.discount = 0.4: the old spelling of reservation_discount, which "
          "is given too: give one of them");
    CHECK(message(scenario("discount: 0.4", "discount: 0.3, reservation_discount: 0.3", "discount: 0.5")) ==
          "plan.yaml:13:85: plans[0].commitments[0].discount = 0.3: the old spelling of reservation_discount, which "
          "is given too: give one of them");
    CHECK(message(scenario("discount: 0.4", "discount: 0.3", "discount: 0.5, reservation_discount: 0.5")) ==
          "plan.yaml:16:73: plans[0].changes[0].into.discount = 0.5: the old spelling of reservation_discount, which "
          "is given too: give one of them");
    // a bad value under the old spelling is named by the new field
    CHECK(message(scenario("discount: 1.5", "discount: 0.3", "discount: 0.5")) ==
          "plan.yaml:8:63: strategies[0].reserved.reservation_discount = 1.5: must be in [0, 1)");
    CHECK(message(scenario("discount: 0.4", "discount: -0.1", "discount: 0.5")) ==
          "plan.yaml:13:85: plans[0].commitments[0].reservation_discount = -0.1: must be in [0, 1)");
}

TEST_CASE("a discount on on-demand spend: on_demand_discount, or its old spelling plan_discount") {
    const std::string base = scenario("reservation_discount: 0.4", "reservation_discount: 0.3", "reservation_discount: 0.5");
    const Scenario s = parse_scenario(base + "discounts: {on_demand_discount: 0.3, free_gpu_hours: 10}\n", "plan.yaml");
    CHECK(s.discounts.on_demand_discount == 0.3);
    const std::string written = to_yaml(s);
    CHECK(to_yaml(parse_scenario(base + "discounts: {plan_discount: 0.3, free_gpu_hours: 10}\n", "plan.yaml")) == written);
    CHECK(written.find("on_demand_discount: 0.3") != std::string::npos);
    CHECK(written.find("plan_discount") == std::string::npos);
    CHECK(message(base + "discounts: {on_demand_discount: 0.3, plan_discount: 0.3}\n") ==
          "plan.yaml:17:53: discounts.plan_discount = 0.3: the old spelling of on_demand_discount, which is given "
          "too: give one of them");
    CHECK(message(base + "discounts: {plan_discount: 1}\n") ==
          "plan.yaml:17:12: discounts.on_demand_discount = 1: must be in [0, 1)");
}
