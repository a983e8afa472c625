#pragma once
// The accumulator: per-path sample slots filled by the batches, then the run's summaries.
#include <cstddef>

#include "gputco/engines/spot.hpp"
#include "gputco/work/job.hpp"
#include "spot_lanes.hpp"

namespace gputco::spot {

/// Bytes of per-path samples a run of `paths` paths keeps (six columns of doubles).
constexpr std::size_t sample_bytes(std::size_t paths) { return paths * 6 * sizeof(double); }

/// Sizes the six sample columns to `paths`. Zero-filling fresh memory is mostly the kernel's page
/// faults (about 30 ms for 10^6 paths), so with several threads the columns are sized in parallel.
/// std::bad_alloc reaches the caller (on its own thread) when the machine cannot hold them.
void resize_samples(SpotSamples& samples, std::size_t paths, unsigned threads);

/// The slots of paths [begin, ...) of every column.
detail::Columns columns_from(SpotSamples& samples, std::size_t begin);

/// The slots of lane `lane` of spot_lanes interleaved lanes: its k-th path is element k * spot_lanes.
detail::Columns lane_of(const detail::Columns& out, std::size_t lane);

/// Writes a path's outcome into slot k of every column.
inline void record(const detail::Columns& out, std::size_t k, double wall_hours, double billed_hours,
                   double charged_hours, double cost_paid, double interruption_count, double lost_hours) {
    const std::size_t i = k * out.stride;
    out.wall[i] = wall_hours;
    out.billed[i] = billed_hours;
    out.charged[i] = charged_hours;
    out.cost[i] = cost_paid;
    out.interruptions[i] = interruption_count;
    out.lost[i] = lost_hours;
}

/// Fills the summaries and derived figures of `result` from its samples (the five summaries in
/// parallel; with continuous billing the charged summary is the billed one, bit for bit).
void summarize_run(SpotResult& result, const Job& job, const SpotPricing& pricing, double confidence,
                   unsigned threads);

}  // namespace gputco::spot
