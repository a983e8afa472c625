// Speed of the plan engine: one evaluate_plan() of a ladder (3-year base, 1-year layer at month 9,
// a spot share, on-demand above) over F demand futures × M months, beside references measured in
// the same run on the same data:
//   levels pass   one plain pass over the futures' monthly levels (the data the engine reads),
//                 summing level × the month's shape total: the least any engine must do;
//   hourly pass   one pass over the same futures as hourly profiles, Σ min(demand, capacity) for
//                 the ladder's one capacity (what an hour-by-hour engine does per tier), measured
//                 on 100 futures and scaled to F.
//   legacy        the plan engine before it became the one engine (frozen in tests/legacy/legacy_plan.cpp,
//                 same flags), the same call on the same data, rounds alternating with the engine's.
// Then DemandFutures::from_profiles (explicit scenarios), which copies each month from the profiles'
// sorted months, beside sorting every month again into new shapes as it did before, in the same run.
// Prints milliseconds (best of several rounds) and ratios; `--threads N` (default 1).
//
//   build/benchmarks/bench_plan [--threads N]
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gputco/gputco.hpp>

#include "legacy/legacy_plan.hpp"

using namespace gputco;
using Clock = std::chrono::steady_clock;

namespace {

template <class F>
double best_milliseconds(F&& call, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        call();
        const std::chrono::duration<double, std::milli> elapsed = Clock::now() - start;
        best = std::min(best, elapsed.count());
    }
    return best;
}

/// Best of `rounds` calls in CPU milliseconds of the calling thread (the engine runs on it with one
/// thread): on a machine shared with other builds, time spent waiting for the core is not counted.
template <class F>
double best_cpu_milliseconds(F&& call, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        timespec start{}, end{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
        call();
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
        best = std::min(best, double(end.tv_sec - start.tv_sec) * 1e3 + double(end.tv_nsec - start.tv_nsec) * 1e-6);
    }
    return best;
}

volatile double sink = 0;

DemandModel model() {
    DemandModel m;
    m.base_gpus = 8;
    m.monthly_log_volatility = 0.05;
    m.events.push_back({.gpus = 8, .probability = 0.6, .first_month = 0, .last_month = 11});
    m.hour_of_week.assign(168, 1.0);
    for (std::size_t h = 0; h < 168; ++h) m.hour_of_week[h] = h % 24 < 8 ? 0.6 : 1.0;
    return m;
}

Plan ladder() {
    Plan p;
    p.commitments.push_back({.count = 8, .term_years = 3, .payment = Payment::all_upfront});
    p.commitments.push_back({.count = 8, .term_years = 1, .payment = Payment::all_upfront, .start_month = 9});
    p.spot = SpotShare{.gpus = 4, .price_per_gpu_hour = {}, .overhead = 1.15, .availability = 0.9};
    return p;
}

struct Row {
    std::size_t futures;
    int months;
    double engine_ms, levels_ms, hourly_ms, legacy_ms, engine_cpu_ms, legacy_cpu_ms;
};

Row measure(std::size_t futures, int months, unsigned threads, int rounds) {
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    const Horizon horizon = Horizon::months(months);
    const DemandFutures demand = DemandFutures::generate(model(), horizon, futures, 42);
    const Plan plan = ladder();
    PlanOptions options;
    options.threads = threads;
    double engine = 1e300, legacy_engine = 1e300, engine_cpu = 1e300, legacy_cpu = 1e300;
    for (int r = 0; r < rounds; ++r) {  // alternate, so both see the same load
        engine = std::min(engine, best_milliseconds([&] { sink = evaluate_plan(plan, demand, p4d, {}, options).total.mean; }, 1));
        legacy_engine = std::min(
            legacy_engine, best_milliseconds([&] { sink = legacy::evaluate_plan(plan, demand, p4d, {}, options).total.mean; }, 1));
        if (threads == 1) {
            engine_cpu = std::min(engine_cpu, best_cpu_milliseconds(
                [&] { sink = evaluate_plan(plan, demand, p4d, {}, options).total.mean; }, 1));
            legacy_cpu = std::min(legacy_cpu, best_cpu_milliseconds(
                [&] { sink = legacy::evaluate_plan(plan, demand, p4d, {}, options).total.mean; }, 1));
        }
    }
    const double levels = best_milliseconds(
        [&] {
            double total = 0;
            for (std::size_t f = 0; f < demand.count(); ++f) {
                for (int m = 0; m < months; ++m) total += demand.level(f, m) * demand.shape(f, m).total();
            }
            sink = total;
        },
        rounds);
    const std::size_t hourly_futures = std::min<std::size_t>(futures, 100);
    std::vector<DemandProfile> profiles;
    for (std::size_t f = 0; f < hourly_futures; ++f) profiles.push_back(demand.profile(f));
    const double hourly = best_milliseconds(
                              [&] {
                                  double total = 0;
                                  for (const DemandProfile& p : profiles) {
                                      const auto& hours = p.gpus_per_hour();
                                      for (Eigen::Index h = 0; h < hours.size(); ++h) total += std::min(hours[h], 8.0);
                                  }
                                  sink = total;
                              },
                              rounds) *
                          double(futures) / double(hourly_futures);
    return {futures, months, engine, levels, hourly, legacy_engine, engine_cpu, legacy_cpu};
}

/// Explicit scenarios: DemandFutures::from_profiles over `count` hourly profiles of `months` (each
/// month's hours in a scrambled order, as a user's series would be), which now copies each month from
/// the profile's sorted months, beside what it did before on the same profiles (sort every month
/// again into new shapes) and the cost of building the profiles (the one sort they need).
void measure_from_profiles(std::size_t count, int months, int rounds) {
    const DemandFutures source = DemandFutures::generate(model(), Horizon::months(months), count, 7);
    std::vector<Eigen::ArrayXd> hours;
    for (std::size_t f = 0; f < count; ++f) {
        const Eigen::ArrayXd sorted = source.profile(f).gpus_per_hour();
        Eigen::ArrayXd h(sorted.size());
        for (Eigen::Index m = 0; m < sorted.size(); m += 730)  // 367 is coprime with 730: a permutation
            for (Eigen::Index k = 0; k < 730; ++k) h[m + k] = sorted[m + (k * 367) % 730];
        hours.push_back(std::move(h));
    }
    std::vector<DemandProfile> profiles;
    for (const Eigen::ArrayXd& h : hours) profiles.push_back(DemandProfile::hourly(h));
    const double now = best_milliseconds([&] { sink = DemandFutures::from_profiles(profiles).gpu_hours(0, 0); }, rounds);
    const double before = best_milliseconds(
        [&] {
            std::vector<MonthShape> shapes;
            for (const DemandProfile& p : profiles) {
                for (int m = 0; m < months; ++m) shapes.push_back(MonthShape::of(p.gpus_per_hour().data() + std::size_t(m) * 730));
            }
            sink = shapes.back().total();
        },
        rounds);
    const double build = best_milliseconds(
        [&] {
            double total = 0;
            for (const Eigen::ArrayXd& h : hours) total += DemandProfile::hourly(h).total_gpu_hours();
            sink = total;
        },
        rounds);
    fmt::print("{:>8} {:>7} {:>17.2f} {:>17.2f} {:>14.1f} {:>16.2f}\n", count, months, now, before, before / now, build);
}

}  // namespace

int main(int argc, char** argv) {
    unsigned threads = 1;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--threads") == 0) threads = unsigned(std::stoul(argv[i + 1]));
    }
    fmt::print("plan engine, ladder + spot + on-demand, {} thread(s); best of 5 rounds\n", threads);
    fmt::print("{:>8} {:>7} {:>11} {:>14} {:>9} {:>15} {:>11} {:>13} {:>11} {:>14}\n", "futures", "months", "engine ms",
               "ns/future-month", "levels ms", "engine/levels", "hourly ms", "hourly/engine", "legacy ms",
               "engine/legacy");
    fmt::print("(then, on one thread: CPU ms of the engine and of the legacy engine, and their ratio)\n");
    const std::pair<std::size_t, int> cases[] = {{1000, 36}, {10000, 12}, {10000, 36}, {10000, 60}, {100000, 36}};
    for (const auto& [futures, months] : cases) {
        const Row r = measure(futures, months, threads, 5);
        fmt::print("{:>8} {:>7} {:>11.2f} {:>14.1f} {:>9.3f} {:>15.0f} {:>11.1f} {:>13.0f} {:>11.2f} {:>14.2f}\n", r.futures,
                   r.months, r.engine_ms, r.engine_ms * 1e6 / double(r.futures) / r.months, r.levels_ms,
                   r.engine_ms / r.levels_ms, r.hourly_ms, r.hourly_ms / r.engine_ms, r.legacy_ms, r.engine_ms / r.legacy_ms);
        if (threads == 1)
            fmt::print("{:>8} {:>7}   CPU: engine {:.2f} ms, legacy {:.2f} ms, engine/legacy {:.2f}\n", "", "",
                       r.engine_cpu_ms, r.legacy_cpu_ms, r.engine_cpu_ms / r.legacy_cpu_ms);
    }
    fmt::print("\nexplicit scenarios (DemandFutures::from_profiles), best of 5 rounds\n");
    fmt::print("{:>8} {:>7} {:>17} {:>17} {:>14} {:>16}\n", "profiles", "months", "from_profiles ms",
               "re-sorting ms", "re-sorting/now", "build profiles ms");
    measure_from_profiles(100, 36, 5);
    measure_from_profiles(100, 60, 5);
    return 0;
}
