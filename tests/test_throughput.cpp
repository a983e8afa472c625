#include <algorithm>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include "gputco/work/throughput.hpp"

using namespace gputco;

namespace {

const Source mine{"my benchmark", "2026-11"};
const std::string known =
    "V100 16GB, A10, A100 40GB PCIe, A100 80GB PCIe, A100 80GB SXM4, RTX 3090, RTX 4090, RTX A6000, "
    "RTX 6000 Ada, Quadro RTX 8000, H100 80GB PCIe, H100 80GB SXM5, GH200 96GB, B200 192GB SXM5";

ThroughputTable parse(const std::string& csv) { return ThroughputTable::from_csv(csv, Precision::mixed, mine); }

}  // namespace

TEST_CASE("the built-in table: the 2025-12 rows over the 2024-07 ones, OEM servers left out") {
    const ThroughputTable& t = ThroughputTable::builtin();
    // v1v2 row "8x A100 80GB SXM4,8,3200,130000,...,resnet50 = 11439".
    const ThroughputRow* a100 = t.find("A100 80GB SXM4", 8, Precision::mixed, "resnet50");
    REQUIRE(a100 != nullptr);
    CHECK(a100->per_second == 11439);
    CHECK(a100->watts == 3200);
    CHECK(a100->price == 130000);
    CHECK(a100->source.as_of == "2025-12");
    // ncf is only in the v1 tables: "A100 80GB SXM4,1.0,...,ncf = 30787381".
    const ThroughputRow* ncf = t.find("A100 80GB SXM4", 1, Precision::mixed, "ncf");
    REQUIRE(ncf != nullptr);
    CHECK(ncf->per_second == 30787381);
    CHECK(ncf->source.as_of == "2024-07");
    // v1v2's "LambdaCloud 1x H100 80GB PCIe" (1976) replaces v1's two 1-GPU PCIe rows (1866, 1851).
    CHECK(t.find("H100 80GB PCIe", 1, Precision::mixed, "resnet50")->per_second == 1976);
    // v1 lists the 8x H100 SXM5 twice: the later LambdaCloud row (514383) is taken over the plain one.
    const ThroughputRow* txl = t.find("H100 80GB SXM5", 8, Precision::mixed, "transformerxlbase");
    REQUIRE(txl != nullptr);
    CHECK(txl->per_second == 514383);
    CHECK(txl->system == "LambdaCloud");
    CHECK(t.find("A100 80GB SXM4", 1, Precision::fp32, "resnet50")->per_second == 1066);
    CHECK(t.find("B200 192GB SXM5", 8, Precision::fp32, "resnet50")->per_second == 23443);
    for (const ThroughputRow& row : t.rows()) {
        CHECK(row.per_second > 0);  // the v1 files' zeros ("not run") are not rows
        CHECK((row.system.empty() || row.system == "LambdaCloud"));
    }
    const std::vector<std::string> models = t.models();
    CHECK(models == std::vector<std::string>{"bert_base_squad", "bert_large_squad", "gnmt", "ncf", "resnet50", "ssd",
                                              "tacotron2", "transformerxlbase", "transformerxllarge", "waveglow"});
    CHECK(model_unit("resnet50") == "images");
    CHECK(model_unit("bert_large_squad") == "sequences");
    CHECK(model_unit("my_model") == "units");
    CHECK(benchmark_gpu_memory_gb("A10") == 24);
}

TEST_CASE("a user's file in the same shape overrides the built-in rows, model by model") {
    const ThroughputTable user = parse("name_gpu,num_gpu,resnet50,my_model\n"
                                       "A100 80GB SXM4,8,10000,\n"
                                       "2x A10,2,,55.5\n");
    REQUIRE(user.rows().size() == 2);
    CHECK(user.rows()[1].gpu == "A10");
    CHECK(user.rows()[1].model == "my_model");
    CHECK(user.rows()[1].source == mine);
    const ThroughputTable merged = ThroughputTable::builtin().overridden_by(user);
    CHECK(merged.find("A100 80GB SXM4", 8, Precision::mixed, "resnet50")->per_second == 10000);
    CHECK(merged.find("A100 80GB SXM4", 8, Precision::mixed, "ssd")->per_second == 3360);  // built-in kept
    CHECK(merged.find("A10", 2, Precision::mixed, "my_model")->per_second == 55.5);
    CHECK(merged.rows().size() == ThroughputTable::builtin().rows().size() + 1);
}

TEST_CASE("names: [system ][Nx ]<gpu>, the count prefix checked against num_gpu") {
    for (const std::string& gpu : benchmark_gpus()) {
        for (int n : {1, 2, 4, 8}) {
            for (const std::string& name :
                 {gpu, std::to_string(n) + "x " + gpu, "LambdaCloud " + std::to_string(n) + "x " + gpu,
                  "Some Lab " + std::to_string(n) + "x" + gpu}) {
                CAPTURE(name);
                const ThroughputTable t = parse("name_gpu,num_gpu,resnet50\n" + name + "," + std::to_string(n) + ",100\n");
                REQUIRE(t.rows().size() == 1);
                CHECK(t.rows()[0].gpu == gpu);
                CHECK(t.rows()[0].gpus == n);
            }
        }
    }
    CHECK(parse("name_gpu,num_gpu,resnet50\nH100 80GB PCIe Gen5,1,100\n").rows()[0].gpu == "H100 80GB PCIe");
    CHECK(parse("name_gpu,num_gpu,resnet50\nLambdaCloud A10,1,100\n").rows()[0].system == "LambdaCloud");
}

TEST_CASE("bad files are rejected naming the row and the field") {
    CHECK_THROWS_WITH_AS(parse("name_gpu,watt,price,resnet50\nA10,150,3125,638\n"),
                         "throughput.header = \"name_gpu,watt,price,resnet50\": needs the column num_gpu",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,watt,price\nA10,1,150,3125\n"),
                         "throughput.header = \"name_gpu,num_gpu,watt,price\": needs at least one model column",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50,resnet50\nA10,1,1,2\n"),
                         "throughput.header = \"name_gpu,num_gpu,resnet50,resnet50\": the column resnet50 appears twice",
                         InvalidInput);
    // Found by fuzz_throughput_csv: a repeated column of control bytes came out raw in the rule; bytes
    // that are no UTF-8 would have become model names Python cannot decode.
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,a\x01,a\x01\nA10,1,1,2\n"),
                         "throughput.header = \"name_gpu,num_gpu,a\\x01,a\\x01\": the column a\\x01 appears twice",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\nA10,1,1\nA10\xFF,1,2\n"),
                         "throughput.rows[1] = \"A10\\xFF,1,2\": must be UTF-8 text", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,watt,price,resnet50\nA10,1,150,3125,-5\n"),
                         "throughput.rows[0].resnet50 = -5: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50,ssd\nA10,1,638,174\nRTX 3090,1,905,0\n"),
                         "throughput.rows[1].ssd = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\nA10,1,fast\n"),
                         "throughput.rows[0].resnet50 = \"fast\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\nFoo 9000,1,100\n"),
                         ("throughput.rows[0].name_gpu = \"Foo 9000\": unknown GPU (known: " + known + ")").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\nA100,1,100\n"),
                         ("throughput.rows[0].name_gpu = \"A100\": unknown GPU (known: " + known + ")").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\n2x A10,4,100\n"),
                         "throughput.rows[0].name_gpu = \"2x A10\": says 2 GPUs but num_gpu is 4", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\nA10,0,100\n"),
                         "throughput.rows[0].num_gpu = 0: must be a whole number in [1, 1024]", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\nA10,1.5,100\n"),
                         "throughput.rows[0].num_gpu = 1.5: must be a whole number in [1, 1024]", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,watt,resnet50\nA10,1,-150,100\n"),
                         "throughput.rows[0].watt = -150: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50,ssd\nA10,1\n"),
                         "throughput.rows[0] = \"A10,1\": has 2 cells, the header has 4", InvalidInput);
    CHECK_THROWS_WITH_AS(parse("name_gpu,num_gpu,resnet50\nA10,1,100\nLambdaCloud A10,1,90\n"),
                         "throughput.rows[1].name_gpu = \"LambdaCloud A10\": repeats rows[0] (same GPU and num_gpu)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse(""), "throughput.header = \"\": the file is empty", InvalidInput);
    CHECK_THROWS_WITH_AS(ThroughputTable::from_csv_file("/nonexistent/t.csv", Precision::fp32, mine),
                         "path = \"/nonexistent/t.csv\": cannot be opened", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_precision("int8", "workload.precision"),
                         "workload.precision = \"int8\": must be one of fp32, mixed (aliases: tf32 = fp32, fp16 = mixed, amp = mixed)",
                         InvalidInput);
    CHECK(parse_precision("amp") == Precision::mixed);
    CHECK(parse_precision("tf32") == Precision::fp32);
}

TEST_CASE("rows built by hand are validated") {
    ThroughputRow row{"A10", "", 1, Precision::mixed, 0, 0, "resnet50", 638, mine};
    CHECK_NOTHROW(ThroughputTable({row}));
    CHECK_THROWS_WITH_AS(ThroughputTable({row, row}),
                         "throughput.rows[1].gpu = \"A10\": repeats rows[0] (same GPU, gpus, precision, model)",
                         InvalidInput);
    row.per_second = -1;
    CHECK_THROWS_WITH_AS(ThroughputTable({row}), "throughput.rows[0].per_second = -1: must be finite and > 0",
                         InvalidInput);
}

TEST_CASE("overridden_by: every key of the override takes its value, every other key keeps the base's") {
    std::mt19937_64 rng(12);
    const std::vector<std::string>& gpus = benchmark_gpus();
    const std::vector<std::string> models{"a", "b", "c"};
    auto random_table = [&] {
        std::vector<ThroughputRow> rows;
        for (int i = 0; i < 30; ++i) {
            ThroughputRow r{gpus[rng() % gpus.size()], "", 1 << (rng() % 4),
                            rng() % 2 ? Precision::mixed : Precision::fp32, 0, 0, models[rng() % 3],
                            1.0 + static_cast<double>(rng() % 1000), mine};
            const bool repeat = std::any_of(rows.begin(), rows.end(), [&](const ThroughputRow& x) {
                return x.gpu == r.gpu && x.gpus == r.gpus && x.precision == r.precision && x.model == r.model;
            });
            if (!repeat) rows.push_back(r);
        }
        return ThroughputTable(rows);
    };
    for (int trial = 0; trial < 200; ++trial) {
        const ThroughputTable base = random_table(), over = random_table();
        const ThroughputTable merged = base.overridden_by(over);
        CHECK_NOTHROW(ThroughputTable(merged.rows()));  // keys stay unique
        for (const ThroughputRow& r : over.rows())
            CHECK(merged.find(r.gpu, r.gpus, r.precision, r.model)->per_second == r.per_second);
        for (const ThroughputRow& r : base.rows())
            if (over.find(r.gpu, r.gpus, r.precision, r.model) == nullptr)
                CHECK(merged.find(r.gpu, r.gpus, r.precision, r.model)->per_second == r.per_second);
    }
}
