// Speed of the deterministic cost engine over a 3-year hourly demand profile (26,280 hours), in whole
// instances (the default) and in the GPU-level view: one evaluate() of each strategy, and a batch of
// K = 100 strategies (reservation shares 0%..99%) by evaluate_batch() against 100 evaluate() calls,
// all in the same run, beside a reference: one plain pass summing the same hourly array, and beside the
// cost engine evaluate() was before it became the plan engine on one future (frozen in
// tests/legacy/legacy_cost.cpp, compiled here with the same flags), interleaved round by round so that
// both see the same load. Building the profile (which sorts each month's hours once) is timed too.
// Prints microseconds and ratios.
//
//   build/benchmarks/bench_cost
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include <gputco/gputco.hpp>

#include "legacy/legacy_cost.hpp"

using namespace gputco;
using Clock = std::chrono::steady_clock;

namespace {

/// Best of `rounds` timings of `repeats` calls, in microseconds per call (best = least disturbed).
template <class F>
double best_microseconds(F&& call, int repeats = 200, int rounds = 15) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < repeats; ++i) call();
        const std::chrono::duration<double, std::micro> elapsed = Clock::now() - start;
        best = std::min(best, elapsed.count() / repeats);
    }
    return best;
}

volatile double sink = 0;

}  // namespace

int main() {
    const Offering& azure = Catalog::builtin().offering("azure", "Standard_ND96asr_v4", "eastus");
    std::array<double, 24> office{};
    for (std::size_t h = 0; h < 24; ++h) office[h] = (h >= 8 && h < 20) ? 1.0 : 0.5;
    const auto demand = DemandProfile::linear_growth(4, 16, Horizon::years(3)).with_daily_pattern(office);

    const double reference = best_microseconds([&] {
        double total = 0;
        const auto& hours = demand.gpus_per_hour();
        for (Eigen::Index h = 0; h < hours.size(); ++h) total += hours[h];
        sink = total;
    });

    struct Case {
        const char* name;
        Strategy strategy;
    };
    const std::vector<Case> cases{
        {"on-demand", OnDemand{}},
        {"3-year reserved", Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52}},
        {"70% reserved + 30% on-demand",
         Mix{{{0.7, Reserved{.term_years = 3, .reservation_discount = 0.52}}, {0.3, OnDemand{}}}}},
        {"60% res. + 20% spot + 20% on-demand",
         Mix{{{0.6, Reserved{.term_years = 1, .reservation_discount = 0.4}}, {0.2, SpotTranche{.overhead = 1.1}}, {0.2, OnDemand{}}}}},
    };
    fmt::print("cost engine, 3-year hourly profile (26,280 h), evaluate() incl. its all-on-demand baseline\n");
    fmt::print("reference: one pass summing the hourly array: {:.2f} us\n", reference);
    const double build = best_microseconds(
        [&] { sink = DemandProfile::linear_growth(4, 16, Horizon::years(3)).with_daily_pattern(office).peak_gpus(); }, 1,
        60);
    fmt::print("building the profile (linear growth x daily pattern, months sorted): {:.1f} us\n", build);
    for (const Units units : {Units::instances, Units::gpus}) {
        EvaluationOptions options;
        options.units = units;
        fmt::print("\n{} ({} GPUs per unit)\n", units == Units::instances ? "whole instances" : "GPU-level view",
                   units == Units::instances ? azure.gpus_per_instance : 1);
        fmt::print("{:<38}{:>14}{:>22}{:>16}{:>14}\n", "strategy", "us / evaluate", "ratio to reference",
                   "us / legacy", "new / legacy");
        for (const Case& c : cases) {
            double us = 1e300, legacy_us = 1e300;
            for (int round = 0; round < 20; ++round) {  // alternate, so both see the same load
                us = std::min(us, best_microseconds([&] { sink = evaluate(c.strategy, demand, azure, options).total; }, 100, 3));
                legacy_us = std::min(legacy_us, best_microseconds(
                    [&] { sink = legacy::evaluate(c.strategy, demand, azure, options).total; }, 100, 3));
            }
            fmt::print("{:<38}{:>14.1f}{:>22.1f}{:>16.1f}{:>14.2f}\n", c.name, us, us / reference, legacy_us, us / legacy_us);
        }
        std::vector<Strategy> sweep;
        for (int k = 0; k < 100; ++k) {
            sweep.push_back(Mix{{{k / 100.0, Reserved{.term_years = 3, .reservation_discount = 0.52}}, {1 - k / 100.0, OnDemand{}}}});
        }
        // One sweep per round and many rounds for both, so neither side is timed over longer rounds
        // (on a shared machine a longer round is more likely to be interrupted).
        const double calls = best_microseconds([&] {
            for (const Strategy& s : sweep) sink = evaluate(s, demand, azure, options).npv;
        }, 1, 60);
        const double batch = best_microseconds([&] { sink = evaluate_batch(sweep, demand, azure, options).back().npv; },
                                               1, 60);
        const double legacy_batch = best_microseconds(
            [&] { sink = legacy::evaluate_batch(sweep, demand, azure, options).back().npv; }, 1, 60);
        fmt::print("K = 100 reservation shares: 100 evaluate() {:.0f} us ({:.1f} us each), evaluate_batch() {:.0f} us: "
                   "{:.1f}x; legacy evaluate_batch() {:.0f} us (new / legacy {:.2f})\n", calls, calls / 100, batch,
                   calls / batch, legacy_batch, batch / legacy_batch);
    }
    return 0;
}
