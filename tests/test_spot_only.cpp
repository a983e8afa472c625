// Offerings sold one way only (catalog.hpp's Offering::spot_only beside reservation_only), as the
// engines see them: a spot-only offering's on-demand price of 0 is "not sold", never "free". Spot
// shares, spot jobs and the rankings' spot rows are priced; on-demand hours and terms are refused by
// name, to the letter.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "plan_fixtures.hpp"
#include "gputco/core/error.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/engines/llm_cost.hpp"
#include "gputco/engines/work_cost.hpp"
#include "gputco/optimise/recommend.hpp"
#include "gputco/scenario/scenario.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

/// The plan tests' offering (1 GPU, spot $0.80/h) as a price file lists a spot-only type.
Offering spot_only_offering() {
    Offering o = test::plan_test_offering();
    o.on_demand_hourly = 0;
    o.reserved.clear();
    o.spot_only = true;
    return o;
}

DemandFutures constant_demand(double gpus, int months) {
    return DemandFutures::from_profile(DemandProfile::constant(gpus, Horizon::months(months)));
}

std::string error_of(const Plan& plan, const Offering& offering, const DemandFutures& futures) {
    try {
        evaluate_plan(plan, futures, offering, {}, {});
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("plan engine: spot covering every hour is priced at the spot price; on-demand hours are refused") {
    const Offering o = spot_only_offering();
    const DemandFutures futures = constant_demand(3, 2);
    Plan plan;
    plan.spot = SpotShare{.gpus = 3};
    // 3 GPUs × 730 h × 2 months × $0.80 = $3,504, all spot.
    const PlanDistribution d = evaluate_plan(plan, futures, o, {}, {});
    CHECK(d.total.mean == Approx(3 * 730 * 2 * 0.8).epsilon(1e-12));
    // Two spot GPUs for a demand of three: 730 GPU-hours of month 0 would run on demand.
    plan.spot = SpotShare{.gpus = 2};
    CHECK(error_of(plan, o, futures) ==
          "offering.spot_only = \"testcloud/test-1/g1\": is sold only as spot capacity, but 730 GPU-hours of month 0 are "
          "left to on-demand; give the spot share availability 1 and enough GPUs, or price another offering");
    // Spot available 90% of hours: the other 10% (219 GPU-hours a month) would fall back to on demand.
    plan.spot = SpotShare{.gpus = 3, .availability = 0.9};
    CHECK(error_of(plan, o, futures) ==
          "offering.spot_only = \"testcloud/test-1/g1\": is sold only as spot capacity, but 219 GPU-hours of month 0 are "
          "left to on-demand; give the spot share availability 1 and enough GPUs, or price another offering");
    // No plan at all: every hour on demand.
    CHECK(error_of(Plan{}, o, futures).starts_with("offering.spot_only = \"testcloud/test-1/g1\": is sold only as spot "
                                                   "capacity, but 2190 GPU-hours of month 0"));
    // The same plan on the offering that sells on demand prices those hours at $2.00.
    Offering sells = o;
    sells.spot_only = false;
    sells.on_demand_hourly = 2.0;
    CHECK(evaluate_plan(plan, futures, sells, {}, {}).total.mean ==
          Approx(2 * 730 * (3 * 0.9 * 0.8 + 3 * 0.1 * 2.0)).epsilon(1e-12));
}

TEST_CASE("plan engine: no commitment, Savings Plan or capacity block is bought on a spot-only offering") {
    const Offering o = spot_only_offering();
    const DemandFutures futures = constant_demand(1, 2);
    Plan plan;
    plan.spot = SpotShare{.gpus = 1};
    plan.commitments.push_back({.count = 1, .reservation_discount = 0.4});
    CHECK(error_of(plan, o, futures) ==
          "offering.spot_only = \"testcloud/test-1/g1\": is sold only as spot capacity: plan.commitments[0] cannot be "
          "priced");
    // A commitment bought on another offering is priced as usual.
    plan.commitments[0].offering = test::plan_test_offering();
    plan.commitments[0].offering->instance_type = "g1-elsewhere";
    CHECK(error_of(plan, o, futures) == "no error");
    plan.commitments.clear();
    plan.savings_plans.push_back({.commitment_per_hour = 1, .rate_per_gpu_hour = 1.5});
    CHECK(error_of(plan, o, futures) ==
          "offering.spot_only = \"testcloud/test-1/g1\": is sold only as spot capacity: plan.savings_plans[0] cannot be "
          "priced");
    plan.savings_plans.clear();
    plan.capacity_blocks.push_back({.instances = 1, .days = 7, .start_day = 0});
    CHECK(error_of(plan, o, futures) ==
          "offering.spot_only = \"testcloud/test-1/g1\": is sold only as spot capacity: plan.capacity_blocks[0] cannot be "
          "priced");
}

TEST_CASE("spot job pricing: a spot-only offering's on-demand price is unknown (0), not a price") {
    const SpotPricing p = SpotPricing::from_offering(spot_only_offering());
    CHECK(p.price_per_hour == 0.8);
    CHECK(p.on_demand_price_per_hour == 0);  // SpotPricing's "unknown"
    CHECK_NOTHROW(p.validate());
}

TEST_CASE("rank_offerings: a spot-only offering ranks on spot; its on-demand row is left out with the reason") {
    GpuSpec a10;
    a10.name = "A10";
    a10.vendor = "NVIDIA";
    a10.memory_gb = 24;
    a10.memory_bandwidth_gbps = 600;
    a10.fp16_tflops = 100;
    a10.fp32_tflops = 20;
    a10.tdp_watts = 150;
    a10.source = {"test", "2026-11"};
    Offering o;
    o.provider = "market";
    o.region = "r1";
    o.instance_type = "x1";
    o.gpu = "A10";
    o.spot_hourly = 0.3;
    o.spot_only = true;
    o.billing_increment_seconds = 1;
    o.source = {"test", "2026-11"};
    const Catalog catalog({a10}, {o});
    const ThroughputTable table = ThroughputTable::from_csv("name_gpu,num_gpu,watt,price,mymodel\nA10,1,150,3125,100\n",
                                                            Precision::mixed, {"my benchmark", "2026-11"});
    // 3.6e6 units at 100 units/s: 10 h of compute.
    const Workload job{.name = "mine", .model = "mymodel", .work_per_epoch = 3.6e6, .epochs = 1};
    RankOptions options;
    options.owned = false;
    const WorkRanking r = rank_offerings(job, catalog, table, options);
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].buying == BuyingWay::spot);
    CHECK(r.rows[0].price_per_hour == 0.3);
    CHECK(r.rows[0].cost_per_run >= 0.3 * 10);  // at least the compute hours at the spot price
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].offering == "market/r1/x1/on_demand");
    CHECK(r.skipped[0].reason == "is sold only as spot capacity");
}

TEST_CASE("recommend_plan refuses a spot-only offering by name") {
    RecommendOptions options;
    try {
        recommend_plan(constant_demand(1, 3), spot_only_offering(), options);
        FAIL("no error");
    } catch (const InvalidInput& e) {
        CHECK(std::string(e.what()) == "offering.spot_only = \"testcloud/test-1/g1\": is sold only as spot capacity: a "
                                       "recommendation (reservations against on-demand hours) cannot be priced");
    }
}

TEST_CASE("a scenario's deadline job on a spot-only offering needs its on-demand failover price given") {
    // The offering comes from a catalog file, as an imported spot-only row would.
    const std::string catalog = std::string(GPUTCO_BINARY_DIR) + "/test_spot_only_catalog.json";
    {
        std::ofstream out(catalog);
        out << R"({"gpus": [], "offerings": [{"provider": "aws", "region": "us-east-1", "instance_type": "p5.48xlarge",
            "gpu": "H100", "gpus_per_instance": 8, "on_demand_hourly": 0, "spot_hourly": 12.5, "spot_only": true,
            "source": {"name": "test", "as_of": "2026-12-05"}}]})";
    }
    const std::string scenario = "version: 1\nname: t\nhorizon_months: 1\ncatalog: {file: " + catalog +
                                 "}\noffering: {provider: aws, instance_type: p5.48xlarge, region: us-east-1}\n"
                                 "demand: {kind: constant, gpus: 1}\ndeadline_jobs:\n  - name: d\n    deadline_hours: 20\n"
                                 "    compute_hours: 10\n    availability: {mean_up_hours: 5, mean_down_hours: 2}\n"
                                 "    paths: 50\n";
    const Scenario s = parse_scenario(scenario, "plan.yaml");
    try {
        run_scenario(s);
        FAIL("no error");
    } catch (const InvalidInput& e) {
        CHECK(std::string(e.what()) == "offering.spot_only = \"aws/us-east-1/p5.48xlarge\": is sold only as spot capacity: "
                                       "deadline job d's on-demand failover cannot be priced");
    }
    // Given a failover price, it runs at the offering's spot price.
    const Scenario priced = parse_scenario(scenario + "    on_demand_price_per_hour: 55.04\n", "plan.yaml");
    const ScenarioResult r = run_scenario(priced);
    CHECK(r.deadline_jobs.at(0).spot_price_per_hour == 12.5);
    CHECK(r.deadline_jobs.at(0).on_demand_price_per_hour == 55.04);
    std::filesystem::remove(catalog);
}

TEST_CASE("built-in catalog: GCP A3 Ultra and A4 are sold only through reservations; rankings offer them no on-demand row") {
    // Google's documentation (curated.json's sold_only_through_reservations, with its source): A3 Ultra and A4
    // run reservation-bound, flex-start or spot, never standard (on demand). Every region's row is marked;
    // its list price stays (what reservations are billed at or discounted from).
    const Catalog& builtin = Catalog::builtin();
    std::vector<Offering> rows;
    for (const Offering& o : builtin.offerings())
        if (o.provider == "gcp" && (o.instance_type == "a3-ultragpu-8g" || o.instance_type == "a4-highgpu-8g"))
            rows.push_back(o);
    REQUIRE(rows.size() >= 2);
    for (const Offering& o : rows) {
        CAPTURE(o.key());
        CHECK(o.reservation_only);
        CHECK_FALSE(o.sells_on_demand());
        CHECK(o.on_demand_hourly > 0);
        CHECK(o.notes.rfind("reservation only: ", 0) == 0);
        CHECK(o.notes.find("Google Cloud documentation") != std::string::npos);
    }
    // An LLM training run ranked over every region of them (the GPUs' own figures from the catalog, an MFU
    // stated for the test): spot rows where a spot price is listed, no on-demand row, each refused by name.
    const Catalog catalog({builtin.gpu("H200"), builtin.gpu("B200")}, rows);
    LlmRankOptions options;
    options.gpu.mfu_override = 0.4;
    options.every_region = true;
    const LlmTraining t{.name = "1B", .model = {.parameters = 1e9}, .tokens = 1.2e11};
    const LlmTrainingRanking r = rank_llm_training(t, catalog, options);
    std::size_t refused = 0;
    for (const auto& row : r.rows) CHECK(row.buying != BuyingWay::on_demand);
    for (const auto& s : r.skipped) {
        if (s.offering.size() < 10 || s.offering.substr(s.offering.size() - 10) != "/on_demand") continue;
        CHECK(s.reason == "is sold only through capacity blocks or reservations");
        ++refused;
    }
    CHECK(refused == rows.size());  // every region's on-demand row, each with the reason
}
