// Speed of the catalog JSON loader on large files, beside a reference measured in the same run:
// nlohmann::json::parse of the same text into a DOM with no checks (the least any loader built on it
// must do). The loader adds depth and duplicate-key checks, per-row validation with field paths, the
// catalog's duplicate check and the stop polls. Prints ms per load, MB/s and the ratio; then the
// built-in catalog: its first load (what Catalog::builtin() costs once per process) and the best of
// `rounds` loads of the same embedded text, against the 50 ms budget (first load's processor time:
// wall time on a shared machine is other processes' too), and the memory the load adds (50 MB).
//
//   build/benchmarks/bench_catalog_json [--rounds 5]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gputco/gputco.hpp>

#include "peak_memory.hpp"

using namespace gputco;
using Clock = std::chrono::steady_clock;

namespace {

/// `rows` valid offerings, each with its own instance type (about 150 bytes a row).
std::string offerings_json(std::size_t rows) {
    std::string text = R"({"offerings": [)";
    for (std::size_t i = 0; i < rows; ++i) {
        if (i > 0) text += ",";
        text += R"({"provider": "p", "region": "r", "instance_type": "x)" + std::to_string(i) +
                R"(", "gpu": "T4", "on_demand_hourly": 1.5, "source": {"name": "s", "as_of": "2026"}})";
    }
    return text + "]}";
}

/// Best of `rounds` timings of one call, in milliseconds.
template <class F>
double best_ms(F&& call, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        call();
        best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    return best;
}

volatile std::size_t sink = 0;

}  // namespace

namespace gputco::detail {
extern const char builtin_catalog_json[];
extern const std::size_t builtin_catalog_json_size;
}  // namespace gputco::detail

int main(int argc, char** argv) {
    int rounds = 5;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string_view(argv[i]) == "--rounds") rounds = std::atoi(argv[i + 1]);
    try {
        // A best of no loads would print the initial 1e300 ms as a time.
        require(rounds >= 1, "--rounds", rounds, "must be at least 1");
    } catch (const InvalidInput& e) {
        fmt::print(stderr, "{}\n", e.what());
        return 2;
    }
    // The built-in catalog first, on a clean heap: its time and the memory it adds (peak resident set
    // during the load, and resident set kept after it, over the resident set before it).
    bench::reset_peak();
    const long rss_before = bench::status_kib("VmRSS:");
    const auto first = Clock::now();
    const std::clock_t first_cpu = std::clock();
    const Catalog& builtin = Catalog::builtin();
    const double first_ms = std::chrono::duration<double, std::milli>(Clock::now() - first).count();
    // Processor time too: on a shared machine other processes inflate the wall time, not this.
    const double first_cpu_ms = 1000.0 * double(std::clock() - first_cpu) / CLOCKS_PER_SEC;
    const double peak_mib = double(bench::status_kib("VmHWM:") - rss_before) / 1024;
    const double kept_mib = double(bench::status_kib("VmRSS:") - rss_before) / 1024;
    const std::string_view embedded(detail::builtin_catalog_json, detail::builtin_catalog_json_size);
    fmt::print("{:>8} {:>8} {:>12} {:>12} {:>12} {:>10} {:>8}\n", "rows", "MiB", "parse ms", "from_json ms",
               "+stop ms", "MB/s", "ratio");
    for (const std::size_t rows : {1'000u, 10'000u, 100'000u}) {
        const std::string text = offerings_json(rows);
        const double parse = best_ms([&] { sink = sink + nlohmann::json::parse(text).size(); }, rounds);
        const double load = best_ms([&] { sink = sink + Catalog::from_json(text).offerings().size(); }, rounds);
        const double stop = best_ms(
            [&] { sink = sink + Catalog::from_json(text, [] { return false; }).offerings().size(); }, rounds);
        fmt::print("{:>8} {:>8.2f} {:>12.2f} {:>12.2f} {:>12.2f} {:>10.1f} {:>8.2f}\n", rows,
                   double(text.size()) / (1 << 20), parse, load, stop, double(text.size()) / 1e3 / load,
                   load / parse);
    }
    const double again = best_ms([&] { sink = sink + Catalog::from_json(embedded).offerings().size(); }, rounds);
    fmt::print("\nbuilt-in catalog: {} GPUs, {} offerings, {:.1f} KiB of JSON; first load {:.2f} ms (CPU {:.2f} ms), "
               "best of {} {:.2f} ms (budget 50 ms); memory +{:.1f} MiB peak, +{:.1f} MiB kept (budget 50 MB)\n",
               builtin.gpus().size(), builtin.offerings().size(), double(embedded.size()) / 1024, first_ms, first_cpu_ms,
               rounds, again, peak_mib, kept_mib);
    // The budget is judged on the first load's processor time (the wall time on a quiet machine).
    return first_cpu_ms <= 50 && peak_mib * 1.048576 <= 50 ? 0 : 1;
}
