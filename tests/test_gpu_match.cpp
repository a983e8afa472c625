#include <algorithm>

#include <doctest/doctest.h>

#include "gputco/catalog/catalog.hpp"
#include "gputco/engines/work_cost.hpp"
#include "gputco/work/gpu_match.hpp"
#include "gputco/work/throughput.hpp"

using namespace gputco;

TEST_CASE("every built-in catalog GPU has an explicit match, and every match points at something real") {
    const Catalog& catalog = Catalog::builtin();
    const std::vector<std::string>& bench = benchmark_gpus();
    for (const GpuSpec& g : catalog.gpus()) {
        CAPTURE(g.name);
        const auto it = std::find_if(builtin_gpu_matches().begin(), builtin_gpu_matches().end(),
                                     [&](const GpuMatch& m) { return m.catalog_gpu == g.name; });
        REQUIRE(it != builtin_gpu_matches().end());
        switch (it->kind) {
            case MatchKind::measured:
                CHECK(std::find(bench.begin(), bench.end(), it->benchmark_gpu) != bench.end());
                break;
            case MatchKind::proxy:
                CHECK(std::find(bench.begin(), bench.end(), it->benchmark_gpu) != bench.end());
                CHECK_FALSE(it->note.empty());  // a proxy says what differs
                break;
            case MatchKind::estimate: {
                const GpuMatch reference = match_gpu(it->benchmark_gpu);
                CHECK((reference.kind == MatchKind::measured || reference.kind == MatchKind::proxy));
                CHECK_NOTHROW(catalog.gpu(it->benchmark_gpu));
                CHECK_FALSE(it->note.empty());
                break;
            }
            case MatchKind::none:
                CHECK(it->benchmark_gpu.empty());
                CHECK_FALSE(it->note.empty());
                break;
        }
    }
    // The p4d question: the A100 40GB (SXM4) is never silently the 80GB part.
    const GpuMatch a100 = match_gpu("A100-40GB");
    CHECK(a100.kind == MatchKind::proxy);
    CHECK(a100.benchmark_gpu == "A100 80GB SXM4");
}

TEST_CASE("a user's match comes first; unknown names are unmatched") {
    const GpuMatch mine{"T4", MatchKind::measured, "RTX 3090", "my measurement"};
    CHECK(match_gpu("T4", {mine}).benchmark_gpu == "RTX 3090");
    CHECK(match_gpu("T4").kind == MatchKind::estimate);
    const GpuMatch unknown = match_gpu("TPU v4");
    CHECK(unknown.kind == MatchKind::none);
    CHECK(unknown.note == "not in the GPU match table");
    CHECK(to_string(MatchKind::proxy) == "proxy");
}

TEST_CASE("ranking a catalog of 2026 GPUs: measured ones ranked, unbenchmarked and unknown ones reported, none throws") {
    // One offering per GPU of the built-in catalog, plus a share of a card and a GPU with no spec:
    // what an imported 2026 file holds.
    std::vector<Offering> offerings;
    auto add = [&](const std::string& gpu) {
        Offering o;
        o.provider = "test";
        o.region = "r";
        o.instance_type = gpu;
        o.gpu = gpu;
        o.on_demand_hourly = 2;
        o.source = {"test", "2026-12-05"};
        offerings.push_back(o);
    };
    for (const GpuSpec& g : Catalog::builtin().gpus()) add(g.name);
    add("A10/3");          // a third of an A10 (gpu_names.hpp): not an A10
    add("Tencent Zixiao C100");  // imported as named, no spec
    const Catalog catalog(Catalog::builtin().gpus(), offerings);
    const Workload w{.name = "resnet", .model = "resnet50", .work_per_epoch = 1'281'167, .epochs = 1};
    WorkRanking r;
    REQUIRE_NOTHROW(r = rank_offerings(w, catalog, ThroughputTable::builtin()));
    auto skipped_reason = [&](const std::string& gpu) -> std::string {
        for (const SkippedOffering& s : r.skipped)
            if (s.offering == "test/r/" + gpu) return s.reason;
        return {};
    };
    auto ranked = [&](const std::string& gpu) {
        return std::any_of(r.rows.begin(), r.rows.end(), [&](const WorkCostRow& row) { return row.catalog_gpu == gpu; });
    };
    for (const char* gpu : {"B200", "GH200", "H100-PCIe", "L40S", "H100"}) {
        CAPTURE(gpu);
        CHECK(ranked(gpu));
    }
    CHECK(skipped_reason("B300") == "B300: no measurement: not benchmarked (Blackwell Ultra); no sibling measured at its clocks");
    CHECK(skipped_reason("MI325X").starts_with("MI325X: no measurement: AMD GPUs were not benchmarked"));
    CHECK(skipped_reason("A10/3") ==
          "a 1/3 share of one A10: throughput and memory are known per whole card, and a share is never ranked as one");
    CHECK(skipped_reason("Tencent Zixiao C100") ==
          "Tencent Zixiao C100: no GPU spec in the catalog (memory and peak TFLOPS unknown)");
    // Every offering is either ranked or reported.
    for (const Offering& o : offerings) {
        CAPTURE(o.gpu);
        CHECK((ranked(o.gpu) || !skipped_reason(o.gpu).empty()));
    }
}

TEST_CASE("H100 NVL, PCIe and SXM are three GPUs, each with its own match") {
    CHECK(match_gpu("H100").benchmark_gpu == "H100 80GB SXM5");
    CHECK(match_gpu("H100-PCIe").benchmark_gpu == "H100 80GB PCIe");
    CHECK(match_gpu("H100-NVL").kind == MatchKind::none);  // never ranked with SXM5 throughput
    const Catalog& c = Catalog::builtin();
    CHECK(c.gpu("H100-NVL").memory_gb == 94);
    CHECK(c.gpu("H100-PCIe").tdp_watts == 350);
    CHECK(c.gpu("H100").interconnect == "NVLink 4, 900 GB/s");
    for (const char* name : {"H100-NVL", "H100-PCIe", "H100", "H200", "GH200", "B200", "B300", "GB200", "MI300X", "MI325X",
                             "L40S", "L4", "RTX-6000-Ada", "RTX-PRO-6000"}) {
        CAPTURE(name);
        const GpuSpec& g = c.gpu(name);
        CHECK_FALSE(g.interconnect.empty());
        CHECK_FALSE(g.source.name.empty());
        CHECK(g.fp16_tflops > g.fp32_tflops / 4);  // dense tensor rate recorded, not a placeholder
    }
}
