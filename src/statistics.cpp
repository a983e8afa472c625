#include "gputco/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <boost/math/distributions/students_t.hpp>

#include "gputco/error.hpp"

namespace gputco {
namespace {

void require_samples(std::span<const double> samples) {
    require(!samples.empty(), "samples.size", samples.size(), "must be > 0");
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (!std::isfinite(samples[i])) fail("samples[" + std::to_string(i) + "]", samples[i], "must be a finite number");
    }
}

}  // namespace

double quantile_sorted(std::span<const double> sorted, double q) {
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const double lower = std::floor(h);
    const auto i = static_cast<std::size_t>(lower);
    if (i + 1 >= sorted.size()) return sorted.back();
    return sorted[i] + (h - lower) * (sorted[i + 1] - sorted[i]);
}

double quantile(std::span<const double> samples, double q) {
    require_fraction("q", q);
    require_samples(samples);
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    return quantile_sorted(sorted, q);
}

Summary summarize(std::span<const double> samples, double confidence) {
    require(confidence > 0.0 && confidence < 1.0, "confidence", confidence, "must be in (0, 1)");
    require_samples(samples);

    Summary s;
    s.count = samples.size();
    const double n = static_cast<double>(s.count);
    // Two passes (mean, then squared deviations) in sample order: stable and reproducible.
    double sum = 0;
    for (double x : samples) sum += x;
    s.mean = sum / n;
    if (s.count > 1) {
        double squares = 0;
        for (double x : samples) squares += (x - s.mean) * (x - s.mean);
        s.standard_error = std::sqrt(squares / (n - 1.0) / n);
        const boost::math::students_t_distribution<double> t(n - 1.0);
        const double t_value = boost::math::quantile(boost::math::complement(t, (1.0 - confidence) / 2.0));
        s.ci_low = s.mean - t_value * s.standard_error;
        s.ci_high = s.mean + t_value * s.standard_error;
    } else {
        s.standard_error = s.ci_low = s.ci_high = std::numeric_limits<double>::quiet_NaN();
    }
    const auto [lowest, highest] = std::minmax_element(samples.begin(), samples.end());
    s.min = *lowest;
    s.max = *highest;

    // Quantiles by selection, not a full sort: each nth_element works on the part above the
    // previous quantile, so the four cost about two passes over the data.
    std::vector<double> work(samples.begin(), samples.end());
    auto from = work.begin();
    double* const targets[] = {&s.p50, &s.p90, &s.p95, &s.p99};
    const double levels[] = {0.50, 0.90, 0.95, 0.99};
    for (int k = 0; k < 4; ++k) {
        const double h = (n - 1.0) * levels[k];
        const auto i = static_cast<std::ptrdiff_t>(std::floor(h));
        const auto at = work.begin() + i;
        std::nth_element(from, at, work.end());
        const double below = *at;
        const double above = at + 1 == work.end() ? below : *std::min_element(at + 1, work.end());
        *targets[k] = below + (h - std::floor(h)) * (above - below);
        from = at;
    }
    return s;
}

}  // namespace gputco
