// The multi-GPU scaling curve (see scaling.hpp for the model and the fit).
#include "gputco/work/scaling.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gputco {

double ScalingCurve::efficiency(double gpus) const {
    require(std::isfinite(gpus) && gpus >= 1.0, "gpus", gpus, "must be finite and >= 1");
    const double denominator = 1.0 + alpha * std::log2(gpus);
    require(denominator > 0.0, "gpus", gpus,
            fmt::format("beyond the range of the fitted scaling curve (alpha = {:.4g})", alpha));
    return 1.0 / denominator;
}

ScalingCurve ScalingCurve::fit(double single_gpu, const std::vector<std::pair<int, double>>& multi_gpu_rows) {
    require_positive("single_gpu", single_gpu);
    ScalingCurve curve;
    curve.single_gpu = single_gpu;
    double sxy = 0, sxx = 0;
    for (const auto& [n, t] : multi_gpu_rows) {
        require(n > 1, "gpus", n, "must be > 1 for a scaling row");
        require_positive("throughput", t);
        const double x = std::log2(static_cast<double>(n));
        const double y = static_cast<double>(n) * single_gpu / t - 1.0;
        sxy += x * y;
        sxx += x * x;
        curve.fitted_counts.push_back(n);
    }
    curve.alpha = sxx > 0 ? sxy / sxx : 0.0;
    return curve;
}

ScalingCurve scaling_curve(const ThroughputTable& table, std::string_view gpu, Precision precision,
                           std::string_view model) {
    bool model_known = false;
    const ThroughputRow* one = nullptr;
    std::vector<std::pair<int, double>> rows;
    for (const ThroughputRow& row : table.rows()) {
        if (row.model != model) continue;
        model_known = true;
        if (row.gpu != gpu || row.precision != precision) continue;
        if (row.gpus == 1)
            one = &row;
        else
            rows.emplace_back(row.gpus, row.per_second);
    }
    require(model_known, "model", model, "no throughput row for this model");
    if (one == nullptr)
        fail("gpu", gpu, fmt::format("no 1-GPU {} row for {}", to_string(precision), model));
    return ScalingCurve::fit(one->per_second, rows);
}

ScaledThroughput throughput_at(const ThroughputTable& table, std::string_view gpu, Precision precision,
                               std::string_view model, int gpus) {
    require(gpus >= 1, "gpus", gpus, "must be >= 1");
    if (const ThroughputRow* row = table.find(gpu, gpus, precision, model))
        return {row->per_second, true, fmt::format("measured {}-GPU row", gpus)};
    const ScalingCurve curve = scaling_curve(table, gpu, precision, model);
    require(!curve.fitted_counts.empty(), "gpus", gpus,
            fmt::format("{} has only a 1-GPU {} row for {}: no measured scaling", gpu, to_string(precision), model));
    std::string counts;
    for (int n : curve.fitted_counts) counts += fmt::format("{}{}", counts.empty() ? "" : "/", n);
    return {curve.throughput(gpus), false,
            fmt::format("fitted to the 1 and {}-GPU rows (alpha = {:.4f})", counts, curve.alpha)};
}

}  // namespace gputco
