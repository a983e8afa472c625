// Distributions over futures (see plan_distribution.hpp).
#include "gputco/results/plan_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/results/statistics.hpp"

namespace gputco {

Distribution distribution_of(std::span<const double> samples) {
    require(!samples.empty(), "samples.size", samples.size(), "must be >= 1");
    std::vector<double> sorted(samples.begin(), samples.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) require_finite(fmt::format("samples[{}]", i), sorted[i]);
    std::sort(sorted.begin(), sorted.end());
    const double n = double(sorted.size());
    double sum = 0;
    for (double x : sorted) sum += x;
    Distribution d;
    d.mean = sum / n;
    double squares = 0;
    for (double x : sorted) squares += (x - d.mean) * (x - d.mean);
    d.standard_error = sorted.size() > 1 ? std::sqrt(squares / (n - 1.0) / n) : 0.0;
    d.p5 = quantile_sorted(sorted, 0.05);
    d.p50 = quantile_sorted(sorted, 0.5);
    d.p95 = quantile_sorted(sorted, 0.95);
    const auto tail = std::size_t(std::ceil(0.05 * n - 1e-9));  // the worst ⌈5% n⌉ futures
    double tail_sum = 0;
    for (std::size_t i = sorted.size() - tail; i < sorted.size(); ++i) tail_sum += sorted[i];
    d.cvar95 = tail_sum / double(tail);
    d.min = sorted.front();
    d.max = sorted.back();
    return d;
}

}  // namespace gputco
