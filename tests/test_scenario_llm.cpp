// LLM jobs in scenario files (`llm_training`, `llm_serving`): read, written, run, and their errors.
#include <doctest/doctest.h>

#include <string>

#include "gputco/app/columns.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

/// A scenario with one training run; `line11` and `extra` (from line 12 on) change it.
std::string training(std::string_view line11 = "    tokens: 2e9", std::string_view extra = "") {
    return fmt::format(
        "version: 1\n"                                                                                        // 1
        "name: t\n"                                                                                           // 2
        "horizon_months: 1\n"                                                                                 // 3
        "seed: 5\n"                                                                                           // 4
        "offering: {{provider: aws, instance_type: p5.48xlarge, region: us-east-1}}\n"                        // 5
        "demand: {{kind: constant, gpus: 8}}\n"                                                               // 6
        "llm_training:\n"                                                                                     // 7
        "  - name: tune\n"                                                                                    // 8
        "    model: {{parameters: 70.6e9, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8}}\n"  // 9
        "    method: lora\n"                                                                                  // 10
        "{}\n"                                                                                                // 11
        "{}",                                                                                                 // 12...
        line11, extra);
}

std::string_view serving_model() {
    return "    model: {parameters: 70.6e9, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8}";
}

/// A scenario with one service; `line9` and `extra` (from line 12 on) change it.
std::string serving(std::string_view line9 = serving_model(),
                    std::string_view extra = "") {
    return fmt::format(
        "version: 1\n"                                                                  // 1
        "name: s\n"                                                                     // 2
        "horizon_months: 1\n"                                                           // 3
        "offering: {{provider: aws, instance_type: p5.48xlarge, region: us-east-1}}\n"  // 4
        "demand: {{kind: constant, gpus: 8}}\n"                                         // 5
        "llm_serving:\n"                                                                // 6
        "  - name: chat\n"                                                              // 7
        "    requests_per_second: 50\n"                                                 // 8
        "{}\n"                                                                          // 9
        "    input_tokens: 1000\n"                                                      // 10
        "    output_tokens: 200\n"                                                      // 11
        "{}",                                                                           // 12...
        line9, extra);
}

using test::example;

}  // namespace

TEST_CASE("a training run loads with the library's defaults and its rows are rank_llm_training's with seed + i") {
    const Scenario s = parse_scenario(training("    tokens: 2e9", "    gpus: [H100, H200]\n    spot: {paths: 500}\n"),
                                      "t.yaml");
    REQUIRE(s.llm_training.size() == 1);
    const LlmTrainingSpec& spec = s.llm_training[0];
    CHECK(spec.training.name == "tune");
    CHECK(spec.training.method == TrainingMethod::lora);
    CHECK(spec.training.sequence_length == 4096);
    CHECK(spec.training.precision == LlmPrecision::bf16);
    CHECK(spec.buying == llm_training_buying_ways());
    CHECK(spec.gpus == std::vector<std::string>{"H100", "H200"});
    CHECK(s.strategies.empty());  // an LLM job is a question of its own

    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.llm_training.size() == 1);
    const LlmTrainingRanking direct = rank_llm_training(spec.training, scenario_catalog(s), spec.rank_options("USD", 5));
    const auto& rows = r.llm_training[0].ranking.rows;
    REQUIRE(rows.size() == direct.rows.size());
    bool spot = false;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CHECK(rows[i].gpu == direct.rows[i].gpu);
        CHECK(rows[i].buying == direct.rows[i].buying);
        CHECK(rows[i].cost_per_run == direct.rows[i].cost_per_run);  // the same seed: bit for bit
        CHECK((rows[i].gpu == "H100" || rows[i].gpu == "H200"));
        spot = spot || rows[i].buying == BuyingWay::spot;
    }
    CHECK(spot);
    // Another seed moves the spot rows: the scenario's seed is the one used.
    const LlmTrainingRanking other = rank_llm_training(spec.training, scenario_catalog(s), spec.rank_options("USD", 6));
    bool moved = false;
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (const LlmTrainingRow& o : other.rows)
            if (o.buying == BuyingWay::spot && rows[i].buying == BuyingWay::spot && o.provider == rows[i].provider &&
                o.instance_type == rows[i].instance_type && o.region == rows[i].region)
                moved = moved || o.cost_per_run != rows[i].cost_per_run;
    CHECK(moved);
}

TEST_CASE("a service's rows are rank_llm_serving's; buying limits the rows") {
    // Three GPUs with reservations in the catalog are enough to compare: the whole market (every GPU,
    // every provider and region) would be ranked twice for the same check.
    const std::string three_gpus = "    gpus: [A100-40GB, A100-80GB, H100]\n";
    const Scenario s = parse_scenario(serving(serving_model(), three_gpus), "s.yaml");
    REQUIRE(s.llm_serving.size() == 1);
    const LlmServingSpec& spec = s.llm_serving[0];
    CHECK(spec.serving.max_batch == 256);
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.llm_serving.size() == 1);
    const LlmServingRanking direct = rank_llm_serving(spec.serving, scenario_catalog(s), spec.rank_options("USD"));
    REQUIRE(r.llm_serving[0].ranking.rows.size() == direct.rows.size());
    for (std::size_t i = 0; i < direct.rows.size(); ++i)
        CHECK(r.llm_serving[0].ranking.rows[i].cost_per_hour == direct.rows[i].cost_per_hour);

    const Scenario only = parse_scenario(
        serving("    model: {parameters: 70.6e9, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8}",
                three_gpus + "    buying: [reserved]\n"),
        "s.yaml");
    const ScenarioResult ro = run_scenario(only);
    REQUIRE(!ro.llm_serving[0].ranking.rows.empty());
    for (const LlmServingRow& row : ro.llm_serving[0].ranking.rows) CHECK(row.buying == BuyingWay::reserved);
}

TEST_CASE("a training run bought as capacity blocks: rows only where the catalog has a block rate") {
    const Scenario s = parse_scenario(training("    tokens: 2e9", "    buying: [capacity_block]\n"), "t.yaml");
    const ScenarioResult r = run_scenario(s);
    const auto& rows = r.llm_training[0].ranking.rows;
    REQUIRE(!rows.empty());
    const Catalog catalog = scenario_catalog(s);  // held: in() points into it
    for (const LlmTrainingRow& row : rows) {
        CHECK(row.buying == BuyingWay::capacity_block);
        const Offering* o = OfferingRef{row.provider, row.instance_type, row.region, {}}.in(catalog);
        REQUIRE(o != nullptr);
        REQUIRE(o->capacity_block_hourly.has_value());
        CHECK(row.price_per_hour == doctest::Approx(row.instances * *o->capacity_block_hourly));
    }
    // A service has no block that ends it: capacity_block is not a way to buy one.
    CHECK_THROWS_WITH_AS(parse_scenario(serving(serving_model(), "    buying: [capacity_block]\n"), "s.yaml"),
                         "s.yaml:12:14: llm_serving[0].buying[0] = \"capacity_block\": must be one of on_demand, "
                         "spot, reserved",
                         InvalidInput);
}

TEST_CASE("every class of LLM job violation names file, line, column, field, value and rule") {
    // out of range, read by the scenario ("    tokens: " is 12 characters)
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 0"), "t.yaml"),
                         "t.yaml:11:13: llm_training[0].tokens = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    mfu: 1.5\n"), "t.yaml"),
                         "t.yaml:12:10: llm_training[0].mfu = 1.5: must be 0 (the built-in rows) or in (0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    spot: {paths: 0}\n"), "t.yaml"),
                         "t.yaml:12:19: llm_training[0].spot.paths = 0: must be in [1, 10000000]", InvalidInput);
    // a choice, with the nearest name
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    precision: fp6\n"), "t.yaml"),
                         "t.yaml:12:16: llm_training[0].precision = \"fp6\": must be one of bf16, fp8, fp4; did you "
                         "mean \"fp8\"?",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    buying: [owned]\n"), "t.yaml"),
                         "t.yaml:12:14: llm_training[0].buying[0] = \"owned\": must be one of on_demand, spot, reserved, "
                         "capacity_block",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    gpus: [H1000]\n"), "t.yaml"),
                         "t.yaml:12:12: llm_training[0].gpus[0] = \"H1000\": not a GPU of the catalog; did you mean "
                         "\"H100\"?",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    gpus: [H100, H100]\n"), "t.yaml"),
                         "t.yaml:12:18: llm_training[0].gpus[1] = \"H100\": listed twice", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    epochs: 2\n"), "t.yaml"),
                         "t.yaml:12:5: llm_training[0].epochs = 2: unknown key (allowed: name, model, tokens, "
                         "sequence_length, precision, method, trainable_fraction, activation_checkpointing, "
                         "micro_batch_sequences, global_batch_sequences, gpus, buying, mfu, min_gpus, max_gpus, usable_memory_fraction, spot)",
                         InvalidInput);
    // the library's own rules, at the field they are about
    const auto with_method = [](std::string text, std::string_view method) {
        return text.replace(text.find("method: lora"), 12, fmt::format("method: {}", method));
    };
    CHECK_THROWS_WITH_AS(parse_scenario(with_method(training("    tokens: 2e9", "    precision: fp8\n"), "qlora"), "t.yaml"),
                         "t.yaml:12:16: llm_training[0].precision = \"fp8\": must be bf16 for qlora (the 4-bit weights "
                         "are dequantised to BF16 for each product)",
                         InvalidInput);
    // "    global_batch_sequences: " is 28 characters
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "    global_batch_sequences: 0\n"), "t.yaml"),
                         "t.yaml:12:29: llm_training[0].global_batch_sequences = 0: must be in [1, 16777216]",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(training("    tokens: 2e9", "    trainable_fraction: 2\n"), "t.yaml"),
        "t.yaml:12:25: llm_training[0].trainable_fraction = 2: must be in (0, 1] for lora and qlora", InvalidInput);
    const std::string heads = fmt::format(
        "version: 1\nname: t\nhorizon_months: 1\noffering: {{provider: aws, instance_type: p5.48xlarge, region: us-east-1}}\n"
        "demand: {{kind: constant, gpus: 8}}\nllm_training:\n  - name: tune\n"
        "    model: {{parameters: 7e9, layers: 32, hidden_size: 4096, attention_heads: 30}}\n    tokens: 1e9\n");
    CHECK_THROWS_WITH_AS(parse_scenario(heads, "t.yaml"),
                         "t.yaml:8:78: llm_training[0].model.attention_heads = 30: must be >= 1 and divide hidden_size "
                         "(4096)",
                         InvalidInput);
    // no offering holds it: a full fine-tune of 70B within one GPU
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_method(training("    tokens: 2e9", "    gpus: [H100]\n    max_gpus: 1\n"), "full"), "t.yaml"),
        "t.yaml:8:5: llm_training[0] = {...}: no offering can run it (aws/us-east-1/p5.48xlarge: no layout fits within "
        "1 GPUs of 80 GB (90% usable); azure/eastus/Standard_ND96isr_H100_v5: no layout fits within 1 GPUs of 80 GB "
        "(90% usable); gcp/us-central1/a3-highgpu-8g: no layout fits within 1 GPUs of 80 GB (90% usable); and 32 more)",
        InvalidInput);
    const std::string full = fmt::format(
        "version: 1\nname: t\nhorizon_months: 1\noffering: {{provider: aws, instance_type: p5.48xlarge, region: us-east-1}}\n"
        "demand: {{kind: constant, gpus: 8}}\nllm_training:\n  - name: tune\n"
        "    model: {{parameters: 70.6e9, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8}}\n"
        "    tokens: 1e9\n    gpus: [H200]\n    max_gpus: 8\n");
    // 16 bytes per parameter: 1,130 GB, more than 8 x 141 GB x 90%
    CHECK_THROWS_WITH_AS(parse_scenario(full, "t.yaml"),
                         "t.yaml:7:5: llm_training[0] = {...}: no offering can run it (aws/us-east-1/p5en.48xlarge: no "
                         "layout fits within 8 GPUs of 141 GB (90% usable); azure/usgovvirginia/Standard_ND96isr_H200_v5: "
                         "no layout fits within 8 GPUs of 141 GB (90% usable); hyperstack/global/"
                         "NVIDIA-H200-SXM: no layout fits within 8 GPUs of 141 GB (90% usable); and 13 more)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(training("    tokens: 2e9", "  - name: tune\n    model: {parameters: 7e9}\n    tokens: 1e9\n"), "t.yaml"),
                         "t.yaml:12:5: llm_training[1] = {...}: duplicate training run name", InvalidInput);

    // serving: the shape is required for the KV cache (the library's rule, at the model)
    CHECK_THROWS_WITH_AS(parse_scenario(serving("    model: {parameters: 70.6e9}"), "s.yaml"),
                         "s.yaml:9:12: llm_serving[0].model.layers = 0: the model's shape (layers, hidden_size, "
                         "attention_heads) is needed for the KV cache",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(serving("    model: {parameters: 70.6e9, layers: 80, hidden_size: 8192, attention_heads: 64}",
                               "    max_batch: 0\n"),
                       "s.yaml"),
        "s.yaml:12:16: llm_serving[0].max_batch = 0: must be in [1, 4096]", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(serving("    requests_per_second: 5"), "s.yaml"),
                         "s.yaml:9:5: llm_serving[0].requests_per_second = 5: duplicate key (first at line 8)",
                         InvalidInput);
    // The count is every offering tried and refused (each instance type's cheapest region per way of
    // buying), with the shares of a GPU (refused as shares) and the A40, P100, P40 and P4 rows: 3 named +
    // 463 = 410 before the L40, RTX A4000, RTX A5000, RTX 3090, RTX 4090 and Quadro RTX 6000 had specs and
    // AWS's gr6, g7e and g6e 4x/8x/16xlarge were in its type table, + 56 instance types they brought (RunPod
    // 20, Vast.ai 12, AWS 11, Hyperstack 9, Paperspace 3, Lambda's gpu_1x_rtx6000). 494 = 463 + 31 since the A30,
    // L20, K80 and RTX 5090 have specs: 24 instance types (Alibaba 17: L20 10, A30 7; Vast.ai 4; AWS p2 3), 7
    // of them twice (their cheapest spot region is not their cheapest on-demand one: ecs.gn8is-* and
    // ebmgn8is.32xlarge, ecs.gn7s-c8g1.2xlarge). 514 = 494 + 9 + 11: Azure NVv4 (MI25 shares and the whole
    // card) and AWS G6f/Gr6f (L4 shares) are in the type tables (4 + 5 instance types), and the RTX A4500, M60
    // and A100 40GB PCIe have specs (RunPod 1x/2x/4x/8x_RTXA4500_SECURE, AWS g3.4x/8x/16xlarge, Azure
    // NV12s/24s/48s_v3, Vast.ai 2x-A100_PCIE: 11 instance types), each counted once. 512 = 514 - 2: Hyperstack's
    // per-GPU H100 SXM and H100 PCIe rows (region global) are now dated snapshots of its n3-H100-SXM5x8 and
    // n3-H100x1 flavours, not offerings of their own.
    CHECK_THROWS_WITH_AS(
        parse_scenario(serving("    model: {parameters: 70.6e9, layers: 80, hidden_size: 8192, attention_heads: 64}",
                               "    max_seconds_per_output_token: 0.0001\n"),
                       "s.yaml"),
        "s.yaml:7:5: llm_serving[0] = {...}: no offering can run it (aws/us-east-1/p3.2xlarge: no replica within one "
        "instance of 1 x V100 (16 GB) holds the model and meets the latency targets; aws/us-east-1/p3.8xlarge: no "
        "replica within one instance of 4 x V100 (16 GB) holds the model and meets the latency targets; "
        "aws/us-east-1/p3.16xlarge: no replica within one instance of 8 x V100 (16 GB) holds the model and meets the "
        "latency targets; and 512 more)",
        InvalidInput);
}

TEST_CASE("LLM jobs round-trip through YAML exactly, and the example runs on the four GPUs") {
    const Scenario first = load_scenario(example("llm_fine_tune_and_serve.yaml"));
    const std::string written = to_yaml(first);
    const Scenario second = parse_scenario(written, first.base_dir + "/written.yaml");
    CHECK(to_yaml(second) == written);
    const ScenarioResult a = run_scenario(first), b = run_scenario(second);
    REQUIRE(a.llm_training.size() == 1);
    REQUIRE(a.llm_serving.size() == 1);
    REQUIRE(a.llm_training[0].ranking.rows.size() == b.llm_training[0].ranking.rows.size());
    for (std::size_t i = 0; i < a.llm_training[0].ranking.rows.size(); ++i)
        CHECK(a.llm_training[0].ranking.rows[i].cost_per_run == b.llm_training[0].ranking.rows[i].cost_per_run);
    for (const auto* rows : {&a.llm_training[0].ranking.rows}) {
        for (const char* gpu : {"H100", "H200", "B200", "MI300X"}) {
            CAPTURE(gpu);
            CHECK(std::any_of(rows->begin(), rows->end(), [&](const LlmTrainingRow& r) { return r.gpu == gpu; }));
        }
    }
    for (const char* gpu : {"H100", "H200", "B200", "MI300X"}) {
        CAPTURE(gpu);
        const auto& rows = a.llm_serving[0].ranking.rows;
        CHECK(std::any_of(rows.begin(), rows.end(), [&](const LlmServingRow& r) { return r.gpu == gpu; }));
    }
}

TEST_CASE("the scenario's LLM columns are the job's name, then the ranking's columns, read from each row") {
    const auto& job = llm_training_job_columns();
    REQUIRE(job.size() == llm_training_columns().size() + 1);
    CHECK(job[0].name == "llm_training");
    for (std::size_t i = 0; i < llm_training_columns().size(); ++i) CHECK(job[i + 1].name == llm_training_columns()[i].name);
    CHECK(llm_serving_job_columns()[0].name == "llm_serving");
    const std::string name = "tune";
    LlmTrainingRow row;
    row.cost_per_run = 12.5;
    row.layout = {2, 4, Sharding::zero3};
    const LlmJobRow<LlmTrainingRow> r{&name, &row};
    for (const auto& c : job) {
        if (c.name == "llm_training") CHECK(std::get<std::string>(c.get(r)) == "tune");
        if (c.name == "cost_per_run") CHECK(std::get<double>(c.get(r)) == 12.5);
        if (c.name == "sharding") CHECK(std::get<std::string>(c.get(r)) == "zero3");
        if (c.name == "data_parallel") CHECK(std::get<long long>(c.get(r)) == 4);
    }
}
