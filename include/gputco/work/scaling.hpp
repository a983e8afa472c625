#pragma once
// Multi-GPU scaling from the measured 1/2/4/8-GPU rows. Where a count was measured, its row is used as
// is; between and beyond the measured counts, a one-parameter efficiency curve fitted to them:
//
//   throughput(n) = n × t1 × e(n),   e(n) = 1 / (1 + alpha × log2 n)
//
// e(1) = 1; alpha > 0 loses a constant share per doubling (communication grows with log n in a ring or
// tree all-reduce); alpha < 0 is the super-linear scaling some rows show (larger global batches).
// alpha is the least-squares fit of 1/e(n) − 1 = alpha × log2 n through the origin over the measured
// n > 1: alpha = Σ x y / Σ x², x = log2 n, y = n t1 / t(n) − 1.
//
//   const ScalingCurve c = scaling_curve(ThroughputTable::builtin(), "A100 80GB SXM4", Precision::mixed, "resnet50");
//   c.throughput(16);      // extrapolated, labelled "fitted"
#include <string>
#include <string_view>
#include <vector>

#include "gputco/work/throughput.hpp"

namespace gputco {

struct ScalingCurve {
    double single_gpu = 0;         ///< t1: the 1-GPU row, units per second
    double alpha = 0;              ///< fitted, see above
    std::vector<int> fitted_counts;  ///< the n > 1 the fit used

    /// e(n) for n >= 1; throws InvalidInput where the curve is not positive (an alpha < 0 extrapolated
    /// past 2^(1/|alpha|) GPUs).
    double efficiency(double gpus) const;
    double throughput(double gpus) const { return gpus * single_gpu * efficiency(gpus); }

    /// Fits alpha to (n, t(n)) pairs with n > 1 (none: alpha = 0, i.e. linear, and fitted_counts empty).
    static ScalingCurve fit(double single_gpu, const std::vector<std::pair<int, double>>& multi_gpu_rows);
};

/// The curve for one GPU, precision and model from `table`. Throws InvalidInput naming "gpu" when there
/// is no 1-GPU row, or "model" when the table has no row of that model at all.
ScalingCurve scaling_curve(const ThroughputTable& table, std::string_view gpu, Precision precision,
                           std::string_view model);

/// Throughput of `gpus` GPUs and where it comes from.
struct ScaledThroughput {
    double per_second = 0;
    bool measured = false;  ///< true: a measured row; false: the fitted curve
    std::string basis;      ///< e.g. "measured 8-GPU row" or "fitted: 1/2-GPU rows, alpha = 0.021"
};

/// The measured row when there is one, else the fitted curve. Throws InvalidInput (as scaling_curve)
/// when nothing can be said, and naming "gpus" when gpus > 1 has to be fitted from the 1-GPU row alone.
ScaledThroughput throughput_at(const ThroughputTable& table, std::string_view gpu, Precision precision,
                               std::string_view model, int gpus);

}  // namespace gputco
