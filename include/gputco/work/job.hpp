#pragma once
// A job that needs a fixed amount of useful GPU work and protects it with periodic checkpoints.
// The spot engines (closed forms in checkpoint.hpp, Monte Carlo in spot.hpp) share this description.
//
//   const Job job{.work_hours = 2000, .checkpoint_interval_hours = 2,
//                 .checkpoint_write_hours = 0.1, .restart_hours = 0.25};
#include <limits>

#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"

namespace gputco {

/// Work W done in segments of tau hours, each (the last, shorter one too) followed by a checkpoint
/// write of delta hours; an interruption loses the work since the last completed checkpoint, the job
/// waits D hours for capacity (not billed) and restarts in R hours (billed, interruptible).
struct Job {
    double work_hours = 0;                  ///< W: useful work needed, > 0
    double checkpoint_interval_hours = 0;   ///< tau: work between checkpoints, > 0
    double checkpoint_write_hours = 0;      ///< delta: time to write one checkpoint, >= 0
    double restart_hours = 0;               ///< R: reload after an interruption, billed, >= 0
    double capacity_wait_hours = 0;         ///< D: wait for capacity per interruption, not billed, >= 0
    /// Wall-clock deadline used for the miss probability; infinity = no deadline.
    double deadline_hours = std::numeric_limits<double>::infinity();

    /// Throws InvalidInput naming the first field that breaks its rule,
    /// e.g. "job.work_hours = -1: must be finite and > 0". Durations lie within
    /// [limits::min_hours, limits::max_hours] (W, tau) or [0, limits::max_hours] (delta, R, D).
    void validate() const {
        require_duration("job.work_hours", work_hours);
        require_duration("job.checkpoint_interval_hours", checkpoint_interval_hours);
        require_at_most("job.checkpoint_write_hours", checkpoint_write_hours, limits::max_hours);
        require_at_most("job.restart_hours", restart_hours, limits::max_hours);
        require_at_most("job.capacity_wait_hours", capacity_wait_hours, limits::max_hours);
        require(deadline_hours > 0.0, "job.deadline_hours", deadline_hours,
                "must be > 0 (infinity = no deadline)");
    }
};

}  // namespace gputco
