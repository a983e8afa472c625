// Workloads in scenario files: cost per unit of work through rank_offerings(), read, written and run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "gputco/engines/checkpoint.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

/// A scenario with one workload; `line9` and `extra` (from line 10 on) change it (line numbers matter).
std::string workload_scenario(std::string_view line9 = "    work_per_epoch: 1281167", std::string_view extra = "") {
    return fmt::format(
        "version: 1\n"                                                                        // 1
        "name: w\n"                                                                           // 2
        "horizon_months: 12\n"                                                                // 3
        "offering: {{provider: aws, instance_type: p4d.24xlarge, region: us-east-1}}\n"      // 4
        "demand: {{kind: constant, gpus: 8}}\n"                                               // 5
        "workloads:\n"                                                                        // 6
        "  - name: resnet\n"                                                                  // 7
        "    model: resnet50\n"                                                               // 8
        "{}\n"                                                                                // 9
        "{}",                                                                                 // 10...
        line9, extra);
}

using test::example;

}  // namespace

TEST_CASE("a workload loads with the library's defaults and runs on the scenario's offering") {
    const Scenario s = parse_scenario(workload_scenario(), "w.yaml");
    REQUIRE(s.workloads.size() == 1);
    const WorkloadSpec& w = s.workloads[0];
    CHECK(w.workload.name == "resnet");
    CHECK(w.workload.epochs == 1);
    CHECK(w.workload.precision == Precision::mixed);
    CHECK(w.offerings.empty());
    CHECK(w.buying == std::vector<BuyingWay>{BuyingWay::on_demand, BuyingWay::spot, BuyingWay::reserved});
    CHECK(s.strategies.empty());  // a workload is a question of its own: no strategies needed

    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.workloads.size() == 1);
    const WorkRanking& ranking = r.workloads[0].ranking;
    CHECK(ranking.currency == "USD");
    for (const WorkCostRow& row : ranking.rows) CHECK(row.instance_type == "p4d.24xlarge");
    // on demand, spot and its cheapest reservation (the 3-year, all upfront: 12.4989 an hour)
    REQUIRE(ranking.rows.size() == 3);
    CHECK(std::any_of(ranking.rows.begin(), ranking.rows.end(),
                      [](const WorkCostRow& row) { return row.terms == "3-year all_upfront"; }));
}

TEST_CASE("the scenario's rows are rank_offerings()'s, bit for bit, with seed + i; on demand by hand") {
    const Scenario s = load_scenario(example("resnet50_cost_per_run.yaml"));
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.workloads.size() == 1);
    const WorkloadSpec& w = s.workloads[0];

    const Catalog& builtin = Catalog::builtin();
    const Catalog three(builtin.gpus(), {builtin.offering("aws", "p4d.24xlarge", "us-east-1"),
                                           builtin.offering("azure", "Standard_ND96asr_v4", "eastus"),
                                           builtin.offering("gcp", "a2-highgpu-8g", "us-central1")});
    RankOptions options;
    options.owned = false;
    options.deadline_hours = 3.5;
    options.spot_assumptions.mtbf_hours = 20;
    options.spot_assumptions.checkpoint_write_hours = 0.0833;
    options.spot_assumptions.restart_hours = 0.1667;
    options.spot_assumptions.simulation.paths = 20000;
    options.spot_assumptions.simulation.seed = 42;  // the scenario's seed + 0
    const WorkRanking direct = rank_offerings(w.workload, three, ThroughputTable::builtin(), options);
    const WorkRanking& mine = r.workloads[0].ranking;
    REQUIRE(mine.rows.size() == direct.rows.size());
    for (std::size_t i = 0; i < direct.rows.size(); ++i) {
        CAPTURE(i);
        CHECK(mine.rows[i].instance_type == direct.rows[i].instance_type);
        CHECK(mine.rows[i].buying == direct.rows[i].buying);
        CHECK(mine.rows[i].cost_per_run == direct.rows[i].cost_per_run);
        CHECK(mine.rows[i].cost_per_run_p95 == direct.rows[i].cost_per_run_p95);
        CHECK(mine.rows[i].run_hours == direct.rows[i].run_hours);
        CHECK(mine.rows[i].probability_within_deadline == direct.rows[i].probability_within_deadline);
    }

    // By hand: 1,281,167 images × 90 epochs = 115,305,030 images at 11,439 images/s (8× A100 80GB SXM4,
    // mixed) = 10,079.99 s; p4d bills per second: 10,080 s = 2.8 h × $21.96 (after AWS's June 2025 cut)
    // = $61.488; per epoch / 90 = $0.683200; per million images $61.488 / 115.30503 = $0.533272.
    const auto on_demand = [&](std::string_view type) {
        for (const WorkCostRow& row : mine.rows)
            if (row.instance_type == type && row.buying == BuyingWay::on_demand) return row;
        FAIL("no on-demand row");
        return WorkCostRow{};
    };
    const WorkCostRow p4d = on_demand("p4d.24xlarge");
    CHECK(p4d.throughput_per_second == 11439);
    CHECK(p4d.cost_per_run == doctest::Approx(2.8 * 21.96).epsilon(1e-12));
    CHECK(p4d.cost_per_epoch == doctest::Approx(2.8 * 21.96 / 90).epsilon(1e-12));
    CHECK(p4d.cost_per_million == doctest::Approx(2.8 * 21.96 / 115.30503).epsilon(1e-12));
    // Azure bills by the minute: 10,079.99 s → 168 min = 2.8 h × $27.197 = $76.1516.
    CHECK(on_demand("Standard_ND96asr_v4").cost_per_run == doctest::Approx(2.8 * 27.197).epsilon(1e-12));
}

TEST_CASE("a workload's spot rows agree with Daly's closed form within 4 standard errors") {
    // An inline offering billed by the microsecond without a minimum, so the expected cost is
    // E[billed hours] × price (rounding adds < 1e-6 s a launch, far below the standard error): Daly's
    // closed form for the run's 10,079.99 s of work.
    const std::string row =
        "catalog:\n"
        "  offerings:\n"
        "    - {provider: test, region: r, instance_type: a100x8, gpu: A100-40GB, gpus_per_instance: 8,\n"
        "       on_demand_hourly: 30, spot_hourly: 9, billing_increment_seconds: 0.000001, minimum_billed_seconds: 0,\n"
        "       source: {name: test, as_of: 2025-01-01}}\n";
    std::string text = workload_scenario("    work_per_epoch: 1281167",
                            "    epochs: 90\n"
                            "    buying: [spot]\n"
                            "    spot: {mtbf_hours: 2, checkpoint_write_hours: 0.05, restart_hours: 0.1, paths: 20000}\n") +
                       row;
    text.replace(text.find("provider: aws, instance_type: p4d.24xlarge, region: us-east-1"), 61,
                 "provider: test, instance_type: a100x8, region: r");
    const Scenario s = parse_scenario(text, "w.yaml");
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.workloads.at(0).ranking.rows.size() == 1);
    const WorkCostRow& spot = r.workloads[0].ranking.rows[0];
    Job job;
    job.work_hours = 1281167.0 * 90 / 11439 / 3600;
    job.checkpoint_write_hours = 0.05;
    job.checkpoint_interval_hours = optimal_checkpoint_interval(0.05, 2);
    job.restart_hours = 0.1;
    const double expected = expected_spot_time(job, 2).billed_hours * 9;
    CAPTURE(expected);
    CAPTURE(spot.cost_per_run);
    CHECK(spot.cost_per_run_standard_error > 0);
    CHECK(spot.cost_per_run_standard_error < 0.01 * expected);  // a sharp test: 20,000 paths
    CHECK(std::abs(spot.cost_per_run - expected) <= 4 * spot.cost_per_run_standard_error);
}

TEST_CASE("every class of workload violation names file, line, column, field, value and rule") {
    // wrong type: "many" at column 13 of line 10 ("    epochs: " is 12 characters)
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    epochs: many\n"), "w.yaml"),
                         "w.yaml:10:13: workloads[0].epochs = \"many\": must be a number", InvalidInput);
    // out of range
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 0"), "w.yaml"),
                         "w.yaml:9:21: workloads[0].work_per_epoch = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    utilisation: 1.5\n"), "w.yaml"),
                         "w.yaml:10:18: workloads[0].utilisation = 1.5: must be in (0, 1]", InvalidInput);
    // "    spot: {paths: " is 18 characters
    CHECK_THROWS_WITH_AS(
        parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    spot: {paths: 0}\n"), "w.yaml"),
        "w.yaml:10:19: workloads[0].spot.paths = 0: must be in [1, 10000000]", InvalidInput);
    // the library's own rule, at the field it is about: 500 GB fits no GPU of the catalog
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    memory_gb: 500\n"), "w.yaml"),
                         "w.yaml:10:16: workloads[0].memory_gb = 500: fits no GPU of the catalog (the largest, "
                         "B300, has 288 GB)",
                         InvalidInput);
    // unknown key, at the key, with the nearest allowed name
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    epoch: 90\n"), "w.yaml"),
                         "w.yaml:10:5: workloads[0].epoch = 90: unknown key; did you mean \"epochs\"?", InvalidInput);
    // missing field, at the mapping that lacks it (its first key: line 7, column 5)
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    epochs: 90"), "w.yaml"),
                         "w.yaml:7:5: workloads[0].work_per_epoch = (missing): required", InvalidInput);
    // a model the throughput table does not know
    std::string misspelt = workload_scenario();
    misspelt.replace(misspelt.find("model: resnet50"), 15, "model: resnet5");
    CHECK_THROWS_WITH_AS(parse_scenario(misspelt, "w.yaml"),
                         "w.yaml:8:12: workloads[0].model = \"resnet5\": must be one of bert_base_squad, "
                         "bert_large_squad, gnmt, ncf, resnet50, ssd, tacotron2, transformerxlbase, "
                         "transformerxllarge, waveglow; did you mean \"resnet50\"?",
                         InvalidInput);
    // unknown GPU, unknown offering
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    gpus: [A100-40G]\n"), "w.yaml"),
                         "w.yaml:10:12: workloads[0].gpus[0] = \"A100-40G\": not a GPU of the catalog; did you mean "
                         "\"A100-40GB\"?",
                         InvalidInput);
    // MI250X: a GPU of the catalog no offering rents (MI300X has offerings since the 2026 market).
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    gpus: [MI250X]\n"), "w.yaml"),
                         "w.yaml:10:12: workloads[0].gpus[0] = \"MI250X\": no offering of the catalog has this GPU",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(workload_scenario("    work_per_epoch: 1281167",
                            "    offerings: [{provider: aws, instance_type: p4d.24xlarg, region: us-east-1}]\n"),
                       "w.yaml"),
        "w.yaml:10:17: workloads[0].offerings[0] = \"aws/us-east-1/p4d.24xlarg\": not in the catalog; did you mean "
        "\"aws/us-east-1/p4d.24xlarge\"?",
        InvalidInput);
    // ways of buying: a bad name, a repeat
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    buying: [rented]\n"), "w.yaml"),
                         "w.yaml:10:14: workloads[0].buying[0] = \"rented\": must be one of on_demand, spot, "
                         "reserved, owned",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    buying: [spot, spot]\n"), "w.yaml"),
                         "w.yaml:10:20: workloads[0].buying[1] = \"spot\": listed twice", InvalidInput);
    // an offering whose GPU has no measurement: the reason, at the workload
    CHECK_THROWS_WITH_AS(
        parse_scenario(workload_scenario("    work_per_epoch: 1281167",
                            "    offerings: [{provider: aws, instance_type: g4dn.xlarge, region: us-east-1}]\n"),
                       "w.yaml"),
        "w.yaml:7:5: workloads[0] = {...}: no offering can run it (aws/us-east-1/g4dn.xlarge: T4: no measurement "
        "(not benchmarked; estimate from the V100 rows by peak TFLOPS (65/125 mixed, 8.1/15.7 FP32); T4's memory "
        "bandwidth ratio is lower (320/900), so the estimate is optimistic); a peak-FLOPS estimate exists "
        "(allow_estimates))",
        InvalidInput);
    // a spot run the engine would refuse: 1e12 epochs of ResNet-50 on 8 A100s are
    // 1,281,167 × 1e12 / 11,439 / 3,600 = 3.11e10 hours, past the engine's 1e9 hours of work
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1281167", "    epochs: 1e12\n"), "w.yaml"),
                         "w.yaml:7:5: workloads[0] = {...}: its run of 3.11111e+10 h on aws/us-east-1/p4d.24xlarge "
                         "cannot be simulated on spot: job.work_hours = 31111086827.714153: must be in [1e-09, 1e+09] "
                         "hours",
                         InvalidInput);
    // two workloads of one name
    CHECK_THROWS_WITH_AS(parse_scenario(workload_scenario("    work_per_epoch: 1",
                                             "  - {name: resnet, model: resnet50, work_per_epoch: 2}\n"),
                                        "w.yaml"),
                         "w.yaml:10:5: workloads[1] = {...}: duplicate workload name", InvalidInput);
}

TEST_CASE("workloads round-trip through YAML exactly, and the figures with them") {
    const Scenario first = load_scenario(example("resnet50_cost_per_run.yaml"));
    const std::string written = to_yaml(first);
    const Scenario second = parse_scenario(written, first.base_dir + "/written.yaml");
    CHECK(to_yaml(second) == written);

    std::mt19937_64 rng(1414);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const std::vector<std::string> models{"resnet50", "bert_large_squad", "ssd"};
    for (int n = 0; n < 30; ++n) {
        Scenario s;
        s.name = fmt::format("random {}", n);
        s.offering = {"aws", "p4d.24xlarge", "us-east-1"};
        s.demand.gpus = 8;
        WorkloadSpec w;
        w.workload.name = fmt::format("w{}", n);
        w.workload.model = models[rng() % models.size()];
        w.workload.work_per_epoch = 1 + unit(rng) * 1e6;
        w.workload.epochs = 0.5 + unit(rng) * 10;
        w.workload.precision = rng() % 2 ? Precision::mixed : Precision::fp32;
        w.workload.utilisation = 0.1 + 0.9 * unit(rng);
        if (rng() % 2) w.offerings.push_back({"azure", "Standard_ND96asr_v4", "eastus", ""});
        if (rng() % 3 == 0) w.gpus.push_back("A100-80GB");
        w.buying = rng() % 2 ? std::vector<BuyingWay>{BuyingWay::reserved, BuyingWay::on_demand}
                             : std::vector<BuyingWay>{BuyingWay::on_demand};
        if (rng() % 2) w.deadline_hours = 1 + unit(rng) * 100;
        w.mtbf_hours = 1 + unit(rng) * 50;
        w.checkpoint_write_hours = 0.01 + unit(rng);
        w.restart_hours = unit(rng);
        w.capacity_wait_hours = unit(rng);
        w.paths = 1 + rng() % 100000;
        s.workloads.push_back(w);
        const std::string text = to_yaml(s);
        CAPTURE(text);
        CHECK(to_yaml(parse_scenario(text, "random.yaml")) == text);
    }
}
