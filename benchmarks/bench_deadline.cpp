// Deadline policies over long availability traces: the paper's setting (48 h job, 52 h or 70 h
// deadline, 0.2 h changeover, 0.2 h ticks, p3.2xlarge prices of the authors' code) swept over every
// hourly window of a generated 60-day trace, then the speed of each part on one window, beside a
// reference measured in the same run: one run of the authors' Greedy on that window.
//
//   build/benchmarks/bench_deadline [--days 60] [--rounds 5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include <gputco/gputco.hpp>

using namespace gputco;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double spot_price = 0.9731, on_demand_price = 3.06;  // the authors' code

template <class F>
double best_seconds(F&& call, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        call();
        const std::chrono::duration<double> elapsed = Clock::now() - start;
        best = std::min(best, elapsed.count());
    }
    return best;
}

volatile double sink = 0;

}  // namespace

int main(int argc, char** argv) {
    int days = 60, rounds = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--days")) days = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    }
    // Spot up 6 h / down 2 h on average, in 0.2 h ticks.
    const double tick = 0.2;
    const auto trace = SpotAvailability::markov({.mean_up_hours = 6, .mean_down_hours = 2},
                                                static_cast<std::size_t>(days * 24 / tick), tick, 2024);
    WindowSweepOptions options;
    options.stride_ticks = 5;  // a window starting every hour
    options.policies = all_deadline_policies();

    fmt::print("trace: {} days of {} h ticks, spot available {:.1f}% of ticks\n\n", days, tick,
               100.0 * static_cast<double>(trace.available_ticks()) / static_cast<double>(trace.ticks()));
    for (const double deadline : {52.0, 70.0}) {
        const DeadlineJob job{.compute_hours = 48, .deadline_hours = deadline, .changeover_hours = 0.2, .tick_hours = tick};
        WindowSweep sweep;
        const double seconds = best_seconds([&] { sweep = sweep_windows(job, trace, spot_price, on_demand_price, options); },
                                            rounds);
        fmt::print("48 h job, {} h deadline, d = 0.2 h: {} windows in {:.3f} s (best of {})\n", deadline,
                   sweep.window_starts.size(), seconds, rounds);
        fmt::print("  {:<24}{:>10}{:>10}{:>8}{:>12}{:>12}\n", "policy", "mean $", "P95 $", "misses", "gap closed",
                   "vs greedy");
        for (const auto& o : sweep.policies)
            fmt::print("  {:<24}{:>10.2f}{:>10.2f}{:>8}{:>12.3f}{:>+11.1f}%\n", to_string(o.policy), o.cost.mean,
                       o.cost.p95, o.deadline_misses, o.gap_closed, 100.0 * (o.cost.mean / sweep.greedy_mean - 1));
        fmt::print("  {:<24}{:>10.2f}{:>10.2f}\n\n", "omniscient", sweep.omniscient_cost->mean, sweep.omniscient_cost->p95);
    }

    // Speed of one window (70 h deadline: 350 ticks, 240 compute ticks, 1 changeover tick).
    const DeadlineJob job{.compute_hours = 48, .deadline_hours = 70, .changeover_hours = 0.2, .tick_hours = tick};
    const auto window = trace.window(0, job.deadline_ticks());
    const int repeats = 2000;
    const double pass = best_seconds(
        [&] {
            for (int i = 0; i < repeats; ++i)
                sink = sink + simulate_deadline(job, window, DeadlinePolicy::greedy, spot_price, on_demand_price).cost;
        },
        rounds) / repeats;
    fmt::print("one window of {} ticks, best of {} rounds:\n", window.ticks(), rounds);
    for (const DeadlinePolicy p : {DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress}) {  // greedy = reference
        const double s = best_seconds(
            [&] {
                for (int i = 0; i < repeats; ++i) sink = sink + simulate_deadline(job, window, p, spot_price, on_demand_price).cost;
            },
            rounds) / repeats;
        fmt::print("  {:<40}{:>12.2f} us  ({:.1f} x reference)\n", fmt::format("simulate_deadline {}", to_string(p)),
                   s * 1e6, s / pass);
    }
    const double dp = best_seconds([&] { sink = sink + omniscient_cost(job, window, spot_price, on_demand_price); }, rounds);
    fmt::print("  {:<40}{:>12.2f} us  ({:.1f} x reference)\n", "omniscient_cost (DP)", dp * 1e6, dp / pass);
    for (const std::size_t regions : {1u, 2u, 4u}) {
        std::vector<SpotRegion> r;
        for (std::size_t i = 0; i < regions; ++i)
            r.push_back({fmt::format("r{}", i), trace.window(i * 1000, job.deadline_ticks()), spot_price * (1 + 0.05 * double(i))});
        const double up = best_seconds(
            [&] {
                for (int i = 0; i < 200; ++i)
                    sink = sink + simulate_multi_region(job, r, RegionPolicy::uniform_progress, on_demand_price).run.cost;
            },
            rounds) / 200;
        const double m = best_seconds([&] { sink = sink + omniscient_multi_region_cost(job, r, on_demand_price); }, rounds);
        fmt::print("  {:<40}{:>12.2f} us  ({:.1f} x reference)\n", fmt::format("{} regions: uniform_progress", regions),
                   up * 1e6, up / pass);
        fmt::print("  {:<40}{:>12.2f} us  ({:.1f} x reference)\n", fmt::format("{} regions: omniscient DP", regions),
                   m * 1e6, m / pass);
    }
    return 0;
}
