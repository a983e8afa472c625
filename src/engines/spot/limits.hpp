#pragma once
// Inputs that are valid one by one but would make simulate_spot run out of memory or never finish,
// rejected before anything is allocated or simulated (InvalidInput naming the field).
#include "gputco/engines/interruption.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/work/job.hpp"

namespace gputco::spot {

/// Throws InvalidInput when: no launch of the model can finish a segment; the Poisson closed form expects more
/// than 1e8 interruptions per path; or a lifetime model needs more than 1e8 launches per path on average
/// by any of its lower bounds (Wald's identity over the work a launch keeps, before and after a restart,
/// in whole segments without an emergency checkpoint; the launches before one makes progress); or a
/// price-driven path walks more than 1e7 price steps or launches more than 1e8 times (an estimate).
/// Returns the largest of those estimates (estimate_spot_work()).
SpotWorkEstimate check_limits(const Job& job, const InterruptionModel& model, const SpotPricing& pricing);

}  // namespace gputco::spot
