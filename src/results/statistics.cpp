#include "gputco/results/statistics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <boost/math/distributions/students_t.hpp>

#include "gputco/core/error.hpp"
#include "quantiles.hpp"

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
    return detail::interpolate(sorted[i], sorted[i + 1], h - lower);
}

double quantile(std::span<const double> samples, double q) {
    require_fraction("q", q);
    require_samples(samples);
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    return quantile_sorted(sorted, q);
}

namespace {

// The first sample equal to `value` (which one is): a serial min or max keeps the first of equal
// values, and only 0 and -0 are equal with different bits.
double first_equal(std::span<const double> samples, double value) {
    if (value != 0.0) return value;
    return *std::find(samples.begin(), samples.end(), value);
}

// The power of two that brings the largest |sample| to about 1, so sums of scaled samples stay finite.
int magnitude_exponent(const Moments& m) {
    return std::ilogb(std::max({std::abs(m.min), std::abs(m.max), std::numeric_limits<double>::min()}));
}

// The first of Moments::of's two passes: count, mean, min and max, the squared deviations left at 0.
Moments first_pass(std::span<const double> samples) {
    Moments m;
    m.count = samples.size();
    if (samples.empty()) return m;
    const double n = static_cast<double>(m.count);
    // The sum in eight interleaved partial sums (quantiles.hpp: add_lanes), min and max in four running
    // values each: independent chains.
    double sums[detail::summing_lanes] = {};
    double lowest[4], highest[4];
    for (std::size_t j = 0; j < 4; ++j) lowest[j] = highest[j] = samples[0];
    const std::size_t whole = samples.size() - samples.size() % detail::summing_lanes;
    for (std::size_t i = 0; i < whole; i += detail::summing_lanes) {
        for (std::size_t j = 0; j < detail::summing_lanes; ++j) {
            const double x = samples[i + j];
            sums[j] += x;
            lowest[j % 4] = x < lowest[j % 4] ? x : lowest[j % 4];
            highest[j % 4] = x > highest[j % 4] ? x : highest[j % 4];
        }
    }
    for (std::size_t i = whole; i < samples.size(); ++i) {
        const double x = samples[i];
        sums[i % detail::summing_lanes] += x;
        lowest[0] = x < lowest[0] ? x : lowest[0];
        highest[0] = x > highest[0] ? x : highest[0];
    }
    const double sum = detail::add_lanes(sums);
    m.min = first_equal(samples, std::min({lowest[0], lowest[1], lowest[2], lowest[3]}));
    m.max = first_equal(samples, std::max({highest[0], highest[1], highest[2], highest[3]}));
    m.mean = sum / n;
    // A NaN or an infinity makes the sum NaN or infinite: only then look for the culprit. Finite
    // samples whose sum overflows (beyond 1.8e308) are summed again scaled by a power of two.
    if (!std::isfinite(sum)) {
        require_samples(samples);
        const int e = magnitude_exponent(m);
        double scaled[detail::summing_lanes] = {};
        for (std::size_t i = 0; i < samples.size(); ++i) scaled[i % detail::summing_lanes] += std::ldexp(samples[i], -e);
        m.mean = std::ldexp(detail::add_lanes(scaled) / n, e);  // between min and max: finite
    }
    return m;
}

// The standard error of samples whose squared deviations overflow, from deviations scaled by 2^-e.
double scaled_standard_error(std::span<const double> samples, const Moments& m) {
    const int e = magnitude_exponent(m);
    const double mean = std::ldexp(m.mean, -e);
    double sums[detail::summing_lanes] = {};
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double d = std::ldexp(samples[i], -e) - mean;
        sums[i % detail::summing_lanes] += d * d;
    }
    const double n = static_cast<double>(samples.size());
    return std::ldexp(std::sqrt(detail::add_lanes(sums) / (n - 1.0) / n), e);
}

}  // namespace

Moments Moments::of(std::span<const double> samples) {
    Moments m = first_pass(samples);
    m.squared_deviations = detail::squared_deviations(samples, m.mean);
    return m;
}

void Moments::merge(const Moments& other) {
    if (other.count == 0) return;
    if (count == 0) {
        *this = other;
        return;
    }
    const double a = static_cast<double>(count), b = static_cast<double>(other.count);
    const double n = a + b;
    const double delta = other.mean - mean;
    mean += delta * (b / n);
    squared_deviations += other.squared_deviations + delta * delta * (a * b / n);
    min = other.min < min ? other.min : min;
    max = other.max > max ? other.max : max;
    count += other.count;
}

namespace {

constexpr double summary_levels[] = {0.50, 0.90, 0.95, 0.99};

// The summary of samples described by `moments` (squared deviations included), with the quantiles
// of `quantiles`.
Summary summary_of(const Moments& moments, const std::array<double, 4>& quantiles, double confidence,
                   std::span<const double> samples = {}) {
    Summary s;
    s.count = moments.count;
    const double n = static_cast<double>(s.count);
    s.mean = moments.mean;
    s.min = moments.min;
    s.max = moments.max;
    if (s.count > 1) {
        s.standard_error = std::sqrt(moments.squared_deviations / (n - 1.0) / n);
        if (!std::isfinite(s.standard_error) && !samples.empty()) s.standard_error = scaled_standard_error(samples, moments);
        const boost::math::students_t_distribution<double> t(n - 1.0);
        const double t_value = boost::math::quantile(boost::math::complement(t, (1.0 - confidence) / 2.0));
        s.ci_low = s.mean - t_value * s.standard_error;
        s.ci_high = s.mean + t_value * s.standard_error;
        // Samples near ±1.8e308 can have an interval no double holds: say so rather than return ±inf.
        if (!std::isfinite(s.standard_error) || !std::isfinite(s.ci_low) || !std::isfinite(s.ci_high)) {
            fail("samples", fmt::format("min {:g}, max {:g}", s.min, s.max),
                 "their confidence interval lies beyond the largest double (1.8e308); rescale them");
        }
    } else {
        s.standard_error = s.ci_low = s.ci_high = std::numeric_limits<double>::quiet_NaN();
    }
    s.p50 = quantiles[0];
    s.p90 = quantiles[1];
    s.p95 = quantiles[2];
    s.p99 = quantiles[3];
    return s;
}

}  // namespace

Summary summarize(const Moments& moments, std::span<const double> quantile_samples, double confidence) {
    require(confidence > 0.0 && confidence < 1.0, "confidence", confidence, "must be in (0, 1)");
    require(moments.count > 0, "samples.size", moments.count, "must be > 0");
    require(!quantile_samples.empty(), "quantile_samples.size", quantile_samples.size(), "must be > 0");
    require_samples(quantile_samples);
    return summary_of(moments, detail::type7_quantiles(quantile_samples, summary_levels).quantiles, confidence);
}

Summary summarize(std::span<const double> samples, double confidence) {
    require(confidence > 0.0 && confidence < 1.0, "confidence", confidence, "must be in (0, 1)");
    require(!samples.empty(), "samples.size", samples.size(), "must be > 0");
    // Two passes over the samples: the sum (with min and max), then the squared deviations from the
    // mean together with the quantiles' pass. The figures are Moments::of's bit for bit.
    return detail::summary_second_pass(samples, detail::summary_first_pass(samples), confidence);
}

namespace detail {

Moments summary_first_pass(std::span<const double> samples) { return first_pass(samples); }

Summary summary_second_pass(std::span<const double> samples, Moments moments, double confidence) {
    const QuantilePass pass = type7_quantiles(samples, summary_levels, &moments.mean);
    moments.squared_deviations = pass.squared_deviations;
    return summary_of(moments, pass.quantiles, confidence, samples);
}

}  // namespace detail

}  // namespace gputco
