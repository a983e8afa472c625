#pragma once
// One batch of paths: each lane's path generator feeds the path pricer, and every path's outcome
// goes to its slot (the accumulator's). For Poisson the lane kernel or the scalar loop runs the batch.
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "gputco/engines/interruption.hpp"
#include "kernels.hpp"
#include "path_pricer.hpp"

namespace gputco::spot {

/// A launch count no path reaches unless the job cannot progress: the run stops with an InvalidInput.
inline constexpr std::uint64_t max_launches_per_path = 1'000'000'000ULL;

/// What every batch of a run shares.
struct RunSetup {
    const InterruptionModel& model;
    PathPricer pricer;
    Kernel kernel;     // kernel.lanes == nullptr: the scalar loops
    std::uint64_t seed;
};

/// Whether a Poisson run goes to a lane kernel: a vector kernel is chosen, no provider rule, and
/// continuous billing (the other cases run the scalar loops on the same streams).
bool uses_lane_kernel(const RunSetup& setup);

/// Simulates the `count` paths of batch `batch` into `out` (returns early once `cancel` is set).
void run_batch(const RunSetup& setup, std::size_t batch, std::size_t count, const detail::Columns& out,
               const std::atomic<bool>& cancel);

}  // namespace gputco::spot
