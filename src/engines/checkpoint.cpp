#include "gputco/engines/checkpoint.hpp"

#include <cmath>

#include <boost/math/special_functions/lambert_w.hpp>

#include "gputco/core/error.hpp"

namespace gputco {

std::size_t segment_count(double work_hours, double interval_hours) {
    // The duration limits keep the ratio <= 1e18, which fits a 64-bit count.
    require_duration("work_hours", work_hours);
    require_duration("interval_hours", interval_hours);
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
    const double delta = require_duration("checkpoint_write_hours", checkpoint_write_hours);
    const double m = require_duration("mtbf_hours", mtbf_hours, limits::max_mtbf_hours);
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
    const double eps = delta / m;
    if (eps < 1e-5) {
        // Near the branch point -1/e the argument rounds to -1/e itself (W0 = -1, tau = 0 for
        // delta/M below ~1e-16). Use W0's series there in p = sqrt(2 (1 + e z)) = sqrt(-2 expm1(-eps)):
        // W0 = -1 + p - p^2/3 + 11/72 p^3 - 43/540 p^4 + 769/17280 p^5; p < 4.5e-3, so the
        // first omitted term (221/8505 p^6) is below 3e-16 relative.
        const double p = std::sqrt(-2.0 * std::expm1(-eps));
        return m * p * (1.0 + p * (-1.0 / 3 + p * (11.0 / 72 + p * (-43.0 / 540 + p * (769.0 / 17280)))));
    }
    return m * (1.0 + boost::math::lambert_w0(-std::exp(-(1.0 + eps))));
}

ExpectedSpotTime expected_spot_time(const Job& job, double mtbf_hours) {
    job.validate();
    const double m = require_duration("mtbf_hours", mtbf_hours, limits::max_mtbf_hours);
    const std::size_t n = segment_count(job.work_hours, job.checkpoint_interval_hours);
    const double last = last_segment_work_hours(job.work_hours, job.checkpoint_interval_hours);
    const double restart_factor = std::exp(job.restart_hours / m);
    // E[N] of a segment of length L: e^{R/M} (e^{L/M} - 1); expm1 keeps precision when L << M.
    const double full = restart_factor * std::expm1((job.checkpoint_interval_hours + job.checkpoint_write_hours) / m);
    const double short_last = restart_factor * std::expm1((last + job.checkpoint_write_hours) / m);
    ExpectedSpotTime t;
    // With one segment the full-length term is absent (0 × an overflowed e^{tau/M} would be NaN).
    t.interruptions = (n > 1 ? static_cast<double>(n - 1) * full : 0.0) + short_last;
    t.billed_hours = m * t.interruptions;
    t.wall_hours = t.billed_hours + job.capacity_wait_hours * t.interruptions;
    // The expectation grows like e^{(tau + delta + R)/M}: past ~700 MTBFs per segment it overflows.
    require(std::isfinite(t.wall_hours), "mtbf_hours", m,
            fmt::format("too short for this job: expected interruptions overflow (a segment runs {:g} h "
                        "with its checkpoint write, the restart {:g} h; shorten the checkpoint interval)",
                        job.checkpoint_interval_hours + job.checkpoint_write_hours, job.restart_hours));
    return t;
}

}  // namespace gputco
