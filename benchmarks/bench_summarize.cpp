// Speed of summarize() on the spot benchmark's sample columns (benchmarks/README.md): 10^6 paths of
// W = 2000 h, MTBF 20 h, tau = 2 h, delta = 0.1 h, R = 0.25 h, $1.2/h, seed 2024. Against a
// straightforward summary measured in the same rounds: the two passes of Moments::of, then the four
// type-7 quantiles by chained nth_element on a copy of all samples. Checks that both agree bit for bit.
// Usage: bench_summarize [--paths N] [--rounds K]
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "gputco/engines/spot.hpp"
#include "gputco/results/statistics.hpp"

namespace {

// The reference: mean, min, max and squared deviations by Moments::of, quantiles by selection on a
// copy (each nth_element on the part above the previous rank).
gputco::Summary straightforward(std::span<const double> samples) {
    const gputco::Moments m = gputco::Moments::of(samples);
    std::vector<double> work(samples.begin(), samples.end());
    double q[4];
    const double levels[] = {0.50, 0.90, 0.95, 0.99};
    auto from = work.begin();
    for (int k = 0; k < 4; ++k) {
        const double h = static_cast<double>(work.size() - 1) * levels[k];
        const auto at = work.begin() + static_cast<std::ptrdiff_t>(std::floor(h));
        std::nth_element(from, at, work.end());
        const double next = at + 1 == work.end() ? *at : *std::min_element(at + 1, work.end());
        q[k] = *at + (h - std::floor(h)) * (next - *at);
        from = at;
    }
    gputco::Summary s;
    s.mean = m.mean;
    s.standard_error = std::sqrt(m.squared_deviations / static_cast<double>(m.count - 1) / static_cast<double>(m.count));
    s.p50 = q[0];
    s.p90 = q[1];
    s.p95 = q[2];
    s.p99 = q[3];
    s.min = m.min;
    s.max = m.max;
    s.count = m.count;
    return s;
}

bool same(const gputco::Summary& a, const gputco::Summary& b) {
    const double x[] = {a.mean, a.standard_error, a.p50, a.p90, a.p95, a.p99, a.min, a.max};
    const double y[] = {b.mean, b.standard_error, b.p50, b.p90, b.p95, b.p99, b.min, b.max};
    for (int i = 0; i < 8; ++i)
        if (std::bit_cast<std::uint64_t>(x[i]) != std::bit_cast<std::uint64_t>(y[i])) return false;
    return a.count == b.count;
}

template <class F>
double seconds(F&& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t paths = 1'000'000;
    int rounds = 9;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--paths") paths = std::strtoull(argv[i + 1], nullptr, 10);
        else if (flag == "--rounds") rounds = std::atoi(argv[i + 1]);
    }
    const gputco::Job job{.work_hours = 2000, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                          .restart_hours = 0.25};
    const gputco::SpotResult r = gputco::simulate_spot(job, gputco::Poisson{.mtbf_hours = 20}, {.price_per_hour = 1.2},
                                                       {.paths = paths, .seed = 2024, .threads = 1});
    const std::vector<std::pair<const char*, const gputco::SampleColumn*>> columns{
        {"wall_hours", &r.samples.wall_hours},   {"billed_hours", &r.samples.billed_hours},
        {"cost", &r.samples.cost},               {"interruptions", &r.samples.interruptions},
        {"lost_work_hours", &r.samples.lost_work_hours}};
    fmt::print("summarize on the spot benchmark's columns: {} samples each, best of {} alternating rounds\n", paths,
               rounds);
    double total = 0, total_reference = 0, total_moments = 0;
    bool identical = true;
    for (const auto& column : columns) {
        const gputco::SampleColumn& x = *column.second;
        double best = 1e30, best_reference = 1e30, best_moments = 1e30;
        gputco::Summary fast, slow;
        for (int k = 0; k < rounds; ++k) {
            best = std::min(best, seconds([&] { fast = gputco::summarize(x); }));
            best_reference = std::min(best_reference, seconds([&] { slow = straightforward(x); }));
            best_moments = std::min(best_moments, seconds([&] { (void)gputco::Moments::of(x); }));
        }
        identical = identical && same(fast, slow);
        fmt::print("  {:>16}: summarize {:.3f} ms, straightforward {:.3f} ms ({:.2f}x), Moments::of {:.3f} ms\n",
                   column.first, 1e3 * best, 1e3 * best_reference, best_reference / best, 1e3 * best_moments);
        total += best;
        total_reference += best_reference;
        total_moments += best_moments;
    }
    fmt::print("five columns: summarize {:.2f} ms ({:.3f} ns per sample), straightforward {:.2f} ms ({:.2f}x), "
               "Moments::of {:.2f} ms\n",
               1e3 * total, 1e9 * total / (5.0 * static_cast<double>(paths)), 1e3 * total_reference,
               total_reference / total, 1e3 * total_moments);
    fmt::print("identical to the straightforward summary bit for bit: {}\n", identical ? "yes" : "NO");
    return identical ? 0 : 1;
}
