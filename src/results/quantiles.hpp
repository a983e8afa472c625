#pragma once
// Exact type-7 quantiles of a sample set at four levels, by selection (internal to the results layer:
// summarize() calls it; the tests call it with a small band configuration so that the band path runs
// on small, many, random inputs).
#include <array>
#include <cstddef>
#include <span>

#include "gputco/results/statistics.hpp"

#include <cmath>

namespace gputco::detail {

/// Every sum over samples (the mean's, the squared deviations') is taken in eight interleaved partial
/// sums, sample i into sum i % 8, added pairwise at the end: eight independent chains of additions
/// instead of one (a serial sum waits four cycles per sample), in the same order on every instruction
/// set and vector width, so the same bits everywhere.
inline constexpr std::size_t summing_lanes = 8;

/// a + t (b − a), the type-7 interpolation; when b − a overflows (samples near ±1.8e308 of both
/// signs) the same point as (1 − t) a + t b, which stays between a and b.
inline double interpolate(double a, double b, double t) {
    const double r = a + t * (b - a);
    return std::isfinite(r) ? r : (1.0 - t) * a + t * b;
}

/// The eight partial sums added pairwise.
inline double add_lanes(const double (&lanes)[summing_lanes]) {
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

/// summarize(samples, confidence) in its two passes over the samples, for callers that spread the
/// passes of several columns over threads: the first (count, mean, min, max; the samples non-empty,
/// confidence checked by the caller), then the rest from its moments. The same figures, bit for bit.
Moments summary_first_pass(std::span<const double> samples);
Summary summary_second_pass(std::span<const double> samples, Moments moments, double confidence);

/// The sum of (x - mean)^2 over the samples, in eight partial sums.
double squared_deviations(std::span<const double> samples, double mean);

/// When and how samples are selected in bands: from `min_samples` samples on, a systematic subsample
/// of `subsample` values brackets each wanted rank (see quantiles.cpp). min_samples must be at least
/// 2 x subsample.
struct BandTuning {
    std::size_t subsample = 16384;
    std::size_t min_samples = 8 * 16384;
    /// The widest vectors (in doubles: 2, or 8 with AVX-512) the pass may use where the CPU has them;
    /// any width gives the same results (the tests run each).
    std::size_t max_width = 8;
};

/// The quantiles and, when asked, the samples' sum of squared deviations from a given mean.
struct QuantilePass {
    std::array<double, 4> quantiles{};
    double squared_deviations = 0;  ///< sum over the samples of (x - mean)^2, in eight partial sums
};

/// Type-7 quantiles of finite, non-empty `samples` at four ascending `levels` in [0, 1], exactly those
/// of a full sort. With `mean` not null, also the sum of (x - *mean)^2 in eight partial sums, taken in
/// the same pass over the samples (bit for bit Moments::of's); otherwise squared_deviations is 0.
QuantilePass type7_quantiles(std::span<const double> samples, std::span<const double, 4> levels,
                             const double* mean = nullptr, BandTuning tuning = {});

}  // namespace gputco::detail
