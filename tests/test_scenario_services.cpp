// Scenario files: services on spot across zones.
#include <doctest/doctest.h>

#include <string>

#include "gputco/core/error.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

using test::scenarios;
const std::string traces = "../../tests/data/spot_traces_aws_2023_02_15/";

/// One service; `line8` and `line9` vary (line numbers matter below).
std::string service(std::string_view line8 = "    replicas: 2",
                    std::string_view line9 = "    policies: [spot_hedge]") {
    return fmt::format(
        "version: 1\n"                                                                                    // 1
        "name: t\n"                                                                                       // 2
        "horizon_months: 1\n"                                                                             // 3
        "offering: {{provider: aws, instance_type: p3.2xlarge, region: us-east-1}}\n"                     // 4
        "demand: {{kind: constant, gpus: 1}}\n"                                                           // 5
        "services:\n"                                                                                     // 6
        "  - name: s\n"                                                                                   // 7
        "{}\n"                                                                                            // 8
        "{}\n"                                                                                            // 9
        "    zones:\n"                                                                                    // 10
        "      - {{name: a, trace: {}us-east-1c_v100_1.json, spot_price_per_hour: 1}}\n"                  // 11
        "      - {{name: b, trace: {}us-west-2a_v100_1.json, spot_price_per_hour: 1.1}}\n",               // 12
        line8, line9, traces, traces);
}

}  // namespace

TEST_CASE("a service of a scenario gives choose_serving_plan's figures on its zones' traces") {
    const Scenario s = load_scenario(scenarios + "/serve_on_spot.yaml");
    REQUIRE(s.services.size() == 1);
    CHECK(s.strategies.empty());
    const ServiceSpec& spec = s.services[0];
    REQUIRE(spec.zones.size() == 3);
    CHECK(spec.zones[2].availability.ticks() == 20158);
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.services.size() == 1);
    CHECK(r.services[0].on_demand_price_per_hour == 3.06);  // the offering's
    const ServingPlan direct = choose_serving_plan(spec.regions(), spec.config(3.06),
                                                   {.max_extra = 4, .max_on_demand_base = 4, .availability_target = 0.99});
    const ServingPlan& plan = r.services[0].plan;
    REQUIRE(plan.candidates.size() == direct.candidates.size());
    CHECK(plan.best == direct.best);
    for (std::size_t i = 0; i < plan.candidates.size(); ++i) CHECK(plan.candidates[i].result.cost == direct.candidates[i].result.cost);
    REQUIRE(plan.best.has_value());
    CHECK(plan.candidates[*plan.best].result.availability >= 0.99);
    // Written and read back, the scenario is the same.
    const std::string yaml = to_yaml(s);
    CHECK(to_yaml(parse_scenario(yaml, scenarios + "/written.yaml")) == yaml);
}

TEST_CASE("a service's mistakes are named with their place in the file") {
    const std::string file = scenarios + "/t.yaml";
    const Scenario ok = parse_scenario(service(), file);
    REQUIRE(ok.services.size() == 1);
    CHECK(ok.services[0].search.policies == std::vector<ServingPolicy>{ServingPolicy::spot_hedge});
    CHECK_THROWS_WITH_AS(parse_scenario(service("    replicas: 0"), file),
                         (file + ":8:15: services[0].replicas = 0: must be in [1, 10000]").c_str(), InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(service("    replicas: 2", "    policies: [hedge]"), file),
                         (file + ":9:16: services[0].policies[0] = \"hedge\": must be one of static_spread, "
                                 "even_spread_fallback, spot_hedge")
                             .c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(service("    replicas: 2", "    max_on_demand_base: 3"), file),
                         (file + ":9:25: services[0].max_on_demand_base = 3: must be in [0, 2]").c_str(), InvalidInput);
    // The engine's own checks, at the service: a launch that is not whole ticks of 195 s.
    CHECK_THROWS_WITH_AS(parse_scenario(service("    replicas: 2", "    launch_hours: 0.1"), file),
                         (file + ":7:5: serving.launch_hours = 0.1: must be a whole number of ticks (tick_hours = "
                                 "0.0541667)")
                             .c_str(),
                         InvalidInput);
}

TEST_CASE("a service over generated zones: the interruption models' traces, the planner's figures, read back the same") {
    const std::string file = scenarios + "/t.yaml";
    const std::string yaml =
        "version: 1\n"
        "name: t\n"
        "horizon_months: 1\n"
        "offering: {provider: aws, instance_type: p3.2xlarge, region: us-east-1}\n"
        "demand: {kind: constant, gpus: 1}\n"
        "services:\n"
        "  - name: s\n"
        "    replicas: 2\n"
        "    launch_hours: 0.25\n"
        "    days: 10\n"
        "    tick_hours: 0.05\n"
        "    correlation: 0.3\n"
        "    seed: 4\n"
        "    max_on_demand_base: 2\n"
        "    availability_target: 0.99\n"
        "    zones:\n"
        "      - {name: a, mtbf_hours: 8, mean_down_hours: 2, spot_price_per_hour: 1}\n"
        "      - {name: b, mtbf_hours: 20, spot_price_per_hour: 1.1}\n";
    const Scenario s = parse_scenario(yaml, file);
    REQUIRE(s.services.size() == 1);
    const ServiceSpec& spec = s.services[0];
    // 10 days of 3-minute ticks from generate_zone_availability with the same processes and seed.
    const auto generated = generate_zone_availability({{.up = Poisson{.mtbf_hours = 8}, .mean_down_hours = 2},
                                                    {.up = Poisson{.mtbf_hours = 20}, .mean_down_hours = 1}},
                                                   0.3, 4800, 0.05, 4);
    REQUIRE(spec.zones.size() == 2);
    for (std::size_t z = 0; z < 2; ++z) {
        CHECK(spec.zones[z].availability.available == generated[z].available);
        CHECK(spec.zones[z].availability.tick_hours == 0.05);
    }
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.services.size() == 1);
    std::vector<SpotRegion> zones{{"a", generated[0], 1.0}, {"b", generated[1], 1.1}};
    ServingConfig config{.target_replicas = 2, .on_demand_price_per_hour = 3.06, .launch_hours = 0.25,
                         .tick_hours = 0.05, .record_ready = false};
    const ServingPlan direct =
        choose_serving_plan(zones, config, {.max_extra = 4, .max_on_demand_base = 2, .availability_target = 0.99});
    const ServingPlan& plan = r.services[0].plan;
    REQUIRE(plan.candidates.size() == direct.candidates.size());
    CHECK(plan.best == direct.best);
    for (std::size_t i = 0; i < plan.candidates.size(); ++i)
        CHECK(plan.candidates[i].result.cost == direct.candidates[i].result.cost);
    const std::string written = to_yaml(s);
    CHECK(written.find("mtbf_hours: 8") != std::string::npos);
    CHECK(to_yaml(parse_scenario(written, file)) == written);

    // Mistakes, at their place.
    const auto with_zones = [&](std::string_view zones_text, std::string_view extra = "") {
        return fmt::format("version: 1\nname: t\nhorizon_months: 1\n"
                           "offering: {{provider: aws, instance_type: p3.2xlarge, region: us-east-1}}\n"
                           "demand: {{kind: constant, gpus: 1}}\nservices:\n  - name: s\n    replicas: 1\n{}"
                           "    zones:\n{}",
                           extra, zones_text);
    };
    CHECK_THROWS_WITH_AS(parse_scenario(with_zones("      - {name: a, spot_price_per_hour: 1}\n"), file),
                         (file + ":10:9: services[0].zones[0] = {...}: needs either trace or mtbf_hours (a generated "
                                 "zone)").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_zones("      - {name: a, mtbf_hours: 5, spot_price_per_hour: 1}\n"
                                                   + std::string("      - {name: b, trace: ") + traces + "us-east-1c_v100_1.json, spot_price_per_hour: 1}\n"),
                                        file),
                         doctest::Contains("services[0].zones[1] = {...}: must be of the kind of zones[0]"), InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_zones("      - {name: a, mtbf_hours: 5, spot_price_per_hour: 1}\n",
                                                   "    days: 1\n    tick_hours: 0.7\n"),
                                        file),
                         doctest::Contains("services[0].zones = [...]: days = 1 must be a whole number of ticks of "
                                           "tick_hours = 0.7"),
                         InvalidInput);
}
