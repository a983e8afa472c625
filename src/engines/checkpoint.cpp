#include "gputco/engines/checkpoint.hpp"

#include <cmath>

#include <boost/math/special_functions/lambert_w.hpp>

#include "gputco/core/error.hpp"

namespace gputco {

std::size_t segment_count(double work_hours, double interval_hours) {
    require_positive("work_hours", work_hours);
    require_positive("interval_hours", interval_hours);
    const double ratio = work_hours / interval_hours;
    const double nearest = std::round(ratio);
    if (nearest >= 1.0 && std::abs(ratio - nearest) <= 1e-9 * ratio) return static_cast<std::size_t>(nearest);
    return static_cast<std::size_t>(std::ceil(ratio));
}

double last_segment_work_hours(double work_hours, double interval_hours) {
    const std::size_t n = segment_count(work_hours, interval_hours);
    return work_hours - static_cast<double>(n - 1) * interval_hours;
}

double optimal_checkpoint_interval(double checkpoint_write_hours, double mtbf_hours, CheckpointMethod method) {
    const double delta = require_positive("checkpoint_write_hours", checkpoint_write_hours);
    const double m = require_positive("mtbf_hours", mtbf_hours);
    switch (method) {
    case CheckpointMethod::young:
        return std::sqrt(2.0 * delta * m);
    case CheckpointMethod::daly: {
        if (delta >= 2.0 * m) return m;
        const double x = delta / (2.0 * m);
        return std::sqrt(2.0 * delta * m) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - delta;
    }
    case CheckpointMethod::exact:
        break;
    }
    // d/dtau of (e^{(tau+delta)/M} - 1) / tau = 0  <=>  (tau/M - 1) e^{(tau+delta)/M} = -1;
    // with y = tau/M - 1: y e^y = -e^{-(1 + delta/M)}, so y = W0(-e^{-(1 + delta/M)}).
    return m * (1.0 + boost::math::lambert_w0(-std::exp(-(1.0 + delta / m))));
}

ExpectedSpotTime expected_spot_time(const Job& job, double mtbf_hours) {
    job.validate();
    const double m = require_positive("mtbf_hours", mtbf_hours);
    const std::size_t n = segment_count(job.work_hours, job.checkpoint_interval_hours);
    const double last = last_segment_work_hours(job.work_hours, job.checkpoint_interval_hours);
    const double restart_factor = std::exp(job.restart_hours / m);
    // E[N] of a segment of length L: e^{R/M} (e^{L/M} - 1); expm1 keeps precision when L << M.
    const double full = restart_factor * std::expm1((job.checkpoint_interval_hours + job.checkpoint_write_hours) / m);
    const double short_last = restart_factor * std::expm1((last + job.checkpoint_write_hours) / m);
    ExpectedSpotTime t;
    t.interruptions = static_cast<double>(n - 1) * full + short_last;
    t.billed_hours = m * t.interruptions;
    t.wall_hours = t.billed_hours + job.capacity_wait_hours * t.interruptions;
    return t;
}

}  // namespace gputco
