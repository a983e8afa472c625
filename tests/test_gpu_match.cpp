#include <algorithm>

#include <doctest/doctest.h>

#include "gputco/catalog/catalog.hpp"
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
