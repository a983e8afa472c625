// The Poisson lane kernel written with Google Highway (benchmarks/highway/) against the library's
// kernels, on the benchmark job (W = 2000 h, MTBF 20 h, tau = 2 h, delta = 0.1 h, R = 0.25 h), 1 thread.
// Each round runs every kernel once, one after the other, on the same batches (same random streams),
// so the kernels are compared under the same load; prints the best round of each and checks that
// every kernel's samples equal the first one's bit for bit.
// Usage: bench_spot_highway [--paths N] [--rounds K]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gputco/core/random.hpp"
#include "highway/spot_lanes_highway.hpp"
#include "kernels.hpp"
#include "path_pricer.hpp"

namespace {

using gputco::detail::spot_lanes;

struct Named {
    std::string name;
    gputco::detail::LaneKernel lanes;
};

// Runs `paths` paths in batches of 1,024 (eight streams each, seeded from the batch and lane) into `out`
// (six columns of `paths`); returns the seconds taken.
double run(const Named& kernel, const gputco::detail::JobConstants& constants, std::size_t paths,
           std::vector<double>& out) {
    out.assign(6 * paths, 0.0);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t begin = 0; begin < paths; begin += 1024) {
        const std::size_t count = std::min<std::size_t>(1024, paths - begin);
        double* base = out.data() + begin;
        const gputco::detail::LaneJob job{constants, count,
                                          {base, base + paths, base + 2 * paths, base + 3 * paths,
                                           base + 4 * paths, base + 5 * paths, 1}};
        gputco::detail::LaneState state{};
        for (std::size_t lane = 0; lane < spot_lanes; ++lane) {
            const gputco::Xoshiro256pp engine(gputco::splitmix64(begin * spot_lanes + lane + 1));
            for (std::size_t w = 0; w < 4; ++w) state.rng[w][lane] = engine.state()[w];
            state.rest[lane] = lane < count ? constants.first_rest : std::numeric_limits<double>::infinity();
            state.path[lane] = lane;
        }
        while (!kernel.lanes(job, state, 1 << 16)) {
        }
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t paths = 1'000'000;
    int rounds = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--paths") paths = std::strtoull(argv[i + 1], nullptr, 10);
        else if (flag == "--rounds") rounds = std::atoi(argv[i + 1]);
    }
    const gputco::Job job{.work_hours = 2000, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                          .restart_hours = 0.25};
    const gputco::spot::PathPricer pricer(job, {}, {.price_per_hour = 1.2}, 20.0);
    std::vector<Named> kernels;
    for (const gputco::spot::Kernel& k : gputco::spot::supported_kernels())
        if (k.lanes != nullptr) kernels.push_back({k.name, k.lanes});
    kernels.push_back({fmt::format("highway ({})", gputco::bench::highway_target()),
                       gputco::bench::poisson_lanes_highway});
    std::vector<double> best(kernels.size(), std::numeric_limits<double>::infinity());
    std::vector<double> reference, samples;
    double events = 0;
    bool identical = true;
    for (int r = 0; r < rounds; ++r) {
        for (std::size_t k = 0; k < kernels.size(); ++k) {
            best[k] = std::min(best[k], run(kernels[k], pricer.constants, paths, samples));
            if (reference.empty()) {
                reference = samples;
                for (std::size_t i = 0; i < paths; ++i) events += reference[3 * paths + i];
            }
            identical = identical && std::memcmp(samples.data(), reference.data(), samples.size() * sizeof(double)) == 0;
        }
    }
    fmt::print("Poisson lane kernels, {} paths, {:.4g} events, 1 thread, best of {} alternating rounds "
               "(the path loop only: no summaries)\n", paths, events, rounds);
    for (std::size_t k = 0; k < kernels.size(); ++k)
        fmt::print("  {:>16}: {:.3f} s, {:.2f} ns/event\n", kernels[k].name, best[k], 1e9 * best[k] / events);
    fmt::print("samples bit-identical across kernels: {}\n", identical ? "yes" : "NO");
    return identical ? 0 : 1;
}
