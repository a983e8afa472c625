#pragma once
// Summaries of Monte Carlo samples: every estimate comes with its standard error and a confidence
// interval, so a reader can tell a real difference from noise.
//
//   const Summary s = summarize(result.samples.cost);      // s.mean, s.ci_low, s.ci_high, s.p95
#include <array>
#include <cstddef>
#include <limits>
#include <span>

#include "gputco/results/fields.hpp"

namespace gputco {

/// Mean with its uncertainty and the usual quantiles of one sample set.
struct Summary {
    double mean = 0;
    double standard_error = 0;  ///< sample standard deviation (n - 1) / sqrt(n); NaN when count == 1
    double ci_low = 0;          ///< mean -/+ t_{(1+c)/2, n-1} * standard_error (Student t); NaN when count == 1
    double ci_high = 0;
    double p50 = 0, p90 = 0, p95 = 0, p99 = 0;  ///< quantile() at 0.5, 0.9, 0.95, 0.99
    double min = 0, max = 0;
    std::size_t count = 0;

    /// Half the width of the confidence interval, (ci_high - ci_low) / 2.
    double half_width() const { return 0.5 * (ci_high - ci_low); }
};

/// Summary's fields as written (Python dicts and DataFrames), statistics named as everywhere else
/// (`standard_error`, not `stderr`).
inline constexpr auto summary_fields = std::to_array<ResultField<Summary, std::size_t>>({
    {"mean", &Summary::mean, "sample unit"},
    {"standard_error", &Summary::standard_error, "sample unit"},
    {"ci_low", &Summary::ci_low, "sample unit"},
    {"ci_high", &Summary::ci_high, "sample unit"},
    {"p50", &Summary::p50, "sample unit"},
    {"p90", &Summary::p90, "sample unit"},
    {"p95", &Summary::p95, "sample unit"},
    {"p99", &Summary::p99, "sample unit"},
    {"min", &Summary::min, "sample unit"},
    {"max", &Summary::max, "sample unit"},
    {"count", &Summary::count, "samples"},
});

/// Mean, standard error, Student-t confidence interval at `confidence` (in (0, 1)) and quantiles.
/// Throws InvalidInput for empty samples, a non-finite sample or a confidence outside (0, 1).
/// Samples whose sum or squared deviations overflow a double are summed again scaled (the mean is
/// always finite); an interval beyond ±1.8e308 is InvalidInput naming the samples.
Summary summarize(std::span<const double> samples, double confidence = 0.95);

/// Count, mean, sum of squared deviations from the mean, min and max of samples, mergeable: a long
/// run summarises each batch of samples (`of`) and merges the batches in a fixed order (Chan, Golub &
/// LeVeque's pairwise update), so it needs no samples kept and gives the same figures on any number of
/// threads. The mean and standard error equal summarize()'s on the same samples to rounding.
struct Moments {
    std::size_t count = 0;
    double mean = 0;
    double squared_deviations = 0;  ///< sum of (x - mean)^2
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();

    /// The moments of `samples` (two passes). Throws InvalidInput for a non-finite sample.
    static Moments of(std::span<const double> samples);
    /// Adds the samples `other` describes, as if they followed this one's.
    void merge(const Moments& other);
};

/// The Summary of samples described by `moments`, with quantiles taken from `quantile_samples` (all
/// the samples, or a subsample of them when they were not kept). Throws InvalidInput when moments has
/// no samples, quantile_samples is empty or holds a non-finite value, or confidence is outside (0, 1).
Summary summarize(const Moments& moments, std::span<const double> quantile_samples, double confidence = 0.95);

/// Sample quantile, Hyndman & Fan type 7 (the default of R, NumPy and Excel): with the samples sorted
/// x[0] <= ... <= x[n-1], h = (n - 1) q and the result is x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
/// q must be in [0, 1]; samples must be non-empty and finite. Copies and sorts; O(n log n).
double quantile(std::span<const double> samples, double q);

/// Same as quantile() for samples already sorted ascending (not checked).
double quantile_sorted(std::span<const double> sorted_samples, double q);

}  // namespace gputco
