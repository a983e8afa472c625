#pragma once
// The Poisson lane kernel written with Google Highway (spot_lanes_highway.cpp), for the benchmark.
#include <cstdint>

#include "spot_lanes.hpp"  // src/engines/spot: LaneJob, LaneState

namespace gputco::bench {

/// Same contract and results as detail::poisson_lanes_avx512 and the others; Highway picks the
/// widest target this CPU runs.
bool poisson_lanes_highway(const detail::LaneJob& job, detail::LaneState& state, std::uint64_t iterations);

/// The target Highway dispatched to, e.g. "AVX3" (AVX-512) or "AVX2".
const char* highway_target();

}  // namespace gputco::bench
