// Speed of the stochastic price model: simulate_price_paths() for 10 offerings × 10,000 futures × 36
// months (on-demand OU with jumps, spot spread correlated with it, a reservation spread with its own
// jumps: every component active), the target being ≤ 50 ms on one core. Prints the best of
// several rounds in milliseconds and a checksum (so the work cannot be optimised away); compare with
// benchmarks/price_dynamics_numpy.py, the same model in vectorised NumPy.
//
//   build/benchmarks/bench_price_dynamics [--threads N] [--futures F] [--fresh]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gputco/gputco.hpp>

using namespace gputco;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    unsigned threads = 1;
    std::size_t futures = 10'000;
    bool fresh = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--fresh") == 0) fresh = true;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--threads") == 0) threads = unsigned(std::stoul(argv[i + 1]));
        if (std::strcmp(argv[i], "--futures") == 0) futures = std::stoul(argv[i + 1]);
    }
    const int offerings = 10;
    PriceDynamics d;
    d.on_demand = {.reversion = 0.05, .volatility = 0.02, .drift = -0.005, .jump_rate = 0.08, .jump_mean = -0.05, .jump_sd = 0.2};
    d.spot_spread = {.reversion = 0.3, .volatility = 0.1};
    d.spot_correlation = 0.5;
    d.reserved_1y_spread = {.reversion = 0.1, .volatility = 0.01, .jump_rate = 0.03, .jump_mean = 0.0, .jump_sd = 0.1};
    // The output: by default one PricePaths per offering, allocated and touched once before the timed
    // rounds (simulate_price_paths' overload into a caller's PricePaths, for callers drawing again and
    // again); --fresh allocates a new one every call (page faults of the 8.6 MB included).
    std::vector<PricePaths> kept(offerings);
    PricePaths scratch;
    for (int o = 0; o < offerings && !fresh; ++o)
        simulate_price_paths(d, Horizon::years(3), futures, 1, 1, kept[std::size_t(o)], threads);
    // Wall time and this process's CPU time: on a shared machine the CPU time is the steadier figure.
    double best = 1e300, best_cpu = 1e300, checksum = 0;
    for (int round = 0; round < 7; ++round) {
        checksum = 0;
        const auto start = Clock::now();
        const std::clock_t cpu_start = std::clock();
        for (int o = 0; o < offerings; ++o) {
            PricePaths& p = fresh ? scratch : kept[std::size_t(o)];
            if (fresh) p = PricePaths{};  // a new allocation each call, as the value-returning overload does
            simulate_price_paths(d, Horizon::years(3), futures, splitmix64(std::uint64_t(o)), 1, p, threads);
            checksum += p.on_demand(35, 0) + p.spot(35, 0) + p.reserved(35, 0);
        }
        const std::chrono::duration<double, std::milli> elapsed = Clock::now() - start;
        best = std::min(best, elapsed.count());
        best_cpu = std::min(best_cpu, 1000.0 * double(std::clock() - cpu_start) / CLOCKS_PER_SEC);
    }
    fmt::print("price paths: {} offerings x {} futures x 36 months, {} thread(s), {} output: {:.1f} ms wall, {:.1f} ms CPU (best of 7)  checksum {:.6f}\n",
               offerings, futures, threads, fresh ? "fresh" : "reused", best, best_cpu, checksum);
    return 0;
}
