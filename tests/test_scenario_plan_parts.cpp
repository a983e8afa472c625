// Scenario files: the parts of a Plan a file can now say — whole-instance billing, several spot
// shares, spot overhead samples — and the ones to_yaml used to drop (short terms, capacity blocks,
// dated demand windows): read, priced, and written back to the same scenario.
#include <doctest/doctest.h>

#include <string>

#include "gputco/engines/plan_engine.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

/// A scenario whose one plan takes `plan_lines` (indented under "  - name: p").
std::string with_plan(std::string_view plan_lines, std::string_view extra = "") {
    return fmt::format(
        "version: 1\n"                                                                       // 1
        "name: t\n"                                                                          // 2
        "horizon_months: 12\n"                                                               // 3
        "offering: {{provider: gcp, instance_type: a2-highgpu-8g, region: us-central1}}\n"  // 4
        "demand: {{kind: constant, gpus: 11}}\n"                                             // 5
        "plans:\n"                                                                           // 6
        "  - name: p\n"                                                                      // 7
        "{}"                                                                                 // 8...
        "{}",
        plan_lines, extra);
}

using test::message;

}  // namespace

TEST_CASE("billing, several spot shares and overhead samples in a plan; to_yaml writes them back") {
    const std::string text = with_plan(
        "    billing: instances\n"
        "    commitments: [{count: 8, term_months: 3, reservation_discount: 0.2, payment: no_upfront}]\n"
        "    spot:\n"
        "      - {gpus: 4, overhead: 1.1, overhead_samples: [1.3, 1.05, 1.2]}\n"
        "      - {gpus: 2, availability: 0.5, periods: [{first_month: 6, overhead: 1.2, availability: 0.4}]}\n"
        "    capacity_blocks: [{instances: 1, days: 7, start_day: 30, lead_days: 10, price_per_instance_hour: 20}]\n",
        "demand_windows: [{start_day: 60, days: 21, gpus: 16}]\n");
    const Scenario s = parse_scenario(text, "plan.yaml");
    REQUIRE(s.plans.size() == 1);
    const Plan& p = s.plans[0];
    CHECK(p.billing == Units::instances);
    REQUIRE(p.spot.has_value());
    CHECK(p.spot->gpus == 4);
    CHECK(p.spot->overhead_samples == std::vector<double>{1.3, 1.05, 1.2});
    REQUIRE(p.more_spot.size() == 1);
    CHECK(p.more_spot[0].availability == 0.5);
    CHECK(p.more_spot[0].periods.size() == 1);

    // The file's plan is the plan built in code: the same figures through the engine.
    Plan built;
    built.name = "p";
    built.billing = Units::instances;
    built.commitments = {
        Commitment{.count = 8, .payment = Payment::no_upfront, .reservation_discount = 0.2, .term_months = 3}};
    built.spot = SpotShare{.gpus = 4, .overhead = 1.1, .overhead_samples = {1.3, 1.05, 1.2}};
    built.more_spot = {SpotShare{.gpus = 2, .availability = 0.5, .periods = {{6, 1.2, 0.4}}}};
    built.capacity_blocks = {CapacityBlock{.instances = 1, .days = 7, .start_day = 30, .lead_days = 10,
                                           .price_per_instance_hour = 20.0}};
    PlanOptions options;
    options.threads = 1;
    options.windows = s.demand_windows;
    const Offering offering = scenario_catalog(s).offering("gcp", "a2-highgpu-8g", "us-central1");
    const DemandFutures one = DemandFutures::from_profile(s.demand.build(Horizon::months(12)));
    const PlanDistribution from_file = evaluate_plan(p, one, offering, {}, options);
    const PlanDistribution from_code = evaluate_plan(built, one, offering, {}, options);
    CHECK(from_file.total.mean == from_code.total.mean);
    CHECK(from_file.mean_months.at(3).spot == from_code.mean_months.at(3).spot);

    // Written back: every part is there and reads to the same scenario.
    const std::string written = to_yaml(s);
    const Scenario again = parse_scenario(written, "plan.yaml");
    CHECK(to_yaml(again) == written);
    CHECK(again.plans[0].billing == Units::instances);
    CHECK(again.plans[0].commitments.at(0).term_months == 3);
    CHECK(again.plans[0].more_spot.size() == 1);
    CHECK(again.plans[0].spot->overhead_samples == p.spot->overhead_samples);
    CHECK(again.plans[0].capacity_blocks.size() == 1);
    CHECK(again.demand_windows.size() == 1);
    CHECK(evaluate_plan(again.plans[0], one, offering, {}, options).total.mean == from_file.total.mean);
}

TEST_CASE("a GCP calendar-mode reservation in a plan: read, priced as the engine prices it, written back") {
    const std::string text = with_plan(
        "    capacity_blocks: [{instances: 2, days: 30, start_day: 20, lead_days: 20, price_per_instance_hour: 60, "
        "kind: gcp_calendar_mode}]\n",
        "demand_windows: [{start_day: 20, days: 30, gpus: 16}]\n");
    const Scenario s = parse_scenario(text, "plan.yaml");
    REQUIRE(s.plans.at(0).capacity_blocks.size() == 1);
    CHECK(s.plans[0].capacity_blocks[0].kind == BlockKind::gcp_calendar_mode);
    const std::string written = to_yaml(s);
    CHECK(written.find("kind: gcp_calendar_mode") != std::string::npos);
    CHECK(parse_scenario(written, "plan.yaml").plans.at(0).capacity_blocks.at(0).kind == BlockKind::gcp_calendar_mode);
    // Every hour of the 30 days is paid, as it runs: 2 VMs × 720 h × 60 = 86,400 in all.
    PlanOptions options;
    options.threads = 1;
    options.windows = s.demand_windows;
    const Offering offering = scenario_catalog(s).offering("gcp", "a2-highgpu-8g", "us-central1");
    const DemandFutures none = DemandFutures::from_profile(DemandProfile::constant(0, Horizon::months(12)));
    const PlanDistribution d = evaluate_plan(s.plans[0], none, offering, {}, options);
    double recurring = 0;
    for (const MonthlyCashFlow& m : d.mean_months) recurring += m.reserved_recurring;
    CHECK(recurring == doctest::Approx(86'400.0).epsilon(1e-12));
}

TEST_CASE("one spot share may still be a mapping; bad billing and samples name their field") {
    const Scenario s = parse_scenario(with_plan("    spot: {gpus: 4}\n"), "plan.yaml");
    CHECK(s.plans[0].spot->gpus == 4);
    CHECK(s.plans[0].more_spot.empty());
    CHECK(s.plans[0].billing == Units::gpus);
    CHECK(to_yaml(s).find("billing") == std::string::npos);  // the default is not written
    CHECK(message(with_plan("    billing: whole\n")) ==
          "plan.yaml:8:14: plans[0].billing = \"whole\": must be one of instances, gpus");
    CHECK(message(with_plan("    spot: [{gpus: 4}, {gpus: 2, overhead_samples: [1.1, 0.5]}]\n")) ==
          "plan.yaml:8:57: plans[0].spot[1].overhead_samples[1] = 0.5: must be >= 1");
}

TEST_CASE("a scenario's capacity block without a price takes the catalog's rate, and the result says which") {
    // The built-in p5.48xlarge's block rate, $39.33 per instance-hour (AWS's Capacity Blocks for ML pricing
    // table, in force until 2025-01-01): 1 instance for 7 days = 168 h × 39.33 = $6,607.44, paid at purchase.
    const std::string text =
        "version: 1\n"
        "name: t\n"
        "horizon_months: 3\n"
        "offering: {provider: aws, instance_type: p5.48xlarge, region: us-east-1}\n"
        "demand: {kind: constant, gpus: 0}\n"
        "plans:\n"
        "  - name: block\n"
        "    capacity_blocks: [{instances: 1, days: 7, start_day: 30, lead_days: 10}]\n";
    const Scenario s = parse_scenario(text, "block.yaml");
    REQUIRE_FALSE(s.plans.at(0).capacity_blocks.at(0).price_per_instance_hour.has_value());
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.plans.size() == 1);
    CHECK(r.plans[0].total.mean == doctest::Approx(168 * 39.33).epsilon(1e-12));
    REQUIRE(r.plans[0].catalog_rates.size() == 1);
    CHECK(r.plans[0].catalog_rates[0].rfind("plan.capacity_blocks[0]: 39.3300 USD/instance-h, the capacity-block rate "
                                            "of aws/us-east-1/p5.48xlarge in the catalog, AWS, ",
                                            0) == 0);
    CHECK(r.plans[0].catalog_rates[0].find("(2024-12)") != std::string::npos);
}
