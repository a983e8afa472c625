#pragma once
// Closed forms for a checkpointed job under Poisson interruptions (Daly 2006, "A higher order
// estimate of the optimum checkpoint interval for restart dumps", complete model). They are the
// yardstick for the Monte Carlo engine in spot.hpp and a fast answer when MTBF is all one knows.
//
//   const double tau = optimal_checkpoint_interval(5.0 / 60, 24);      // 1.9448 h = 116.69 min
//   const ExpectedSpotTime t = expected_spot_time(job, 24);            // E[billed], E[wall], E[N]
#include <cstddef>

#include "gputco/work/job.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// Which formula optimal_checkpoint_interval() uses.
enum class CheckpointMethod {
    young,  ///< Young (1974): sqrt(2 delta M)
    daly,   ///< Daly (2006) eq. 37: sqrt(2 delta M) [1 + sqrt(delta/2M)/3 + (delta/2M)/9] - delta for delta < 2M, else M
    exact   ///< minimiser of the complete model: M [1 + W0(-exp(-(1 + delta/M)))], W0 the principal Lambert W
};

template <>
struct EnumText<CheckpointMethod> {
    static constexpr std::array<EnumName<CheckpointMethod>, 3> names{{
        {CheckpointMethod::young, "young"},
        {CheckpointMethod::daly, "daly"},
        {CheckpointMethod::exact, "exact"},
    }};
};

/// Checkpoint interval (hours of work between checkpoints) that minimises expected run time for a
/// checkpoint write of `checkpoint_write_hours` (> 0) and mean time between interruptions
/// `mtbf_hours` (> 0). Independent of work and restart time.
double optimal_checkpoint_interval(double checkpoint_write_hours, double mtbf_hours,
                                   CheckpointMethod method = CheckpointMethod::exact);

/// Expected totals for one job under Poisson interruptions.
struct ExpectedSpotTime {
    double billed_hours = 0;   ///< running time: work, checkpoint writes, lost work and restarts
    double wall_hours = 0;     ///< billed_hours + capacity wait per interruption
    double interruptions = 0;  ///< expected number of interruptions
};

/// Daly's complete model summed over the job's segments: each of the n = ceil(W / tau) segments of
/// length L (tau, the last W - (n - 1) tau) plus delta contributes
///   E[billed] = M e^{R/M} (e^{L/M} - 1),  E[N] = e^{R/M} (e^{L/M} - 1),  E[wall] = E[billed] + D E[N].
/// The first launch needs no restart; each relaunch after an interruption does.
ExpectedSpotTime expected_spot_time(const Job& job, double mtbf_hours);

/// Segments of a job of `work_hours` with checkpoints every `interval_hours`: ceil(W / tau), where a
/// ratio within 1e-9 (relative) of an integer counts as that integer so that W = k tau gives exactly k
/// segments despite rounding. The Monte Carlo engine uses the same rule.
std::size_t segment_count(double work_hours, double interval_hours);

/// Work in the last segment: W - (segment_count - 1) tau, in (0, tau] (up to rounding).
double last_segment_work_hours(double work_hours, double interval_hours);

}  // namespace gputco
