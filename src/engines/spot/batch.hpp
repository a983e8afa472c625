#pragma once
// One batch of paths: each lane's path generator feeds the path pricer, and every path's outcome
// goes to its slot (the accumulator's). A lane kernel runs the lifetime
// models without provider rules under continuous billing; the scalar loops run the rest.
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

/// Whether a run goes to a lane kernel: a vector kernel is chosen, a lifetime model (Poisson, Weibull,
/// trace) without provider rules, and continuous billing (the other cases run the scalar loops on the
/// same streams).
bool uses_lane_kernel(const RunSetup& setup);

/// Simulates the `count` paths of batch `batch` into `out` (returns early once `cancel` is set).
void run_batch(const RunSetup& setup, std::size_t batch, std::size_t count, const detail::Columns& out,
               const std::atomic<bool>& cancel);

}  // namespace gputco::spot
