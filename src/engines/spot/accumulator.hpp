#pragma once
// The accumulator: per-path sample slots filled by the batches, then the run's summaries; or, for a
// run that keeps no samples, each batch's summary where it ran, merged in batch order.
#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "gputco/results/statistics.hpp"

#include "gputco/engines/spot.hpp"
#include "gputco/work/job.hpp"
#include "spot_lanes.hpp"

namespace gputco::spot {

/// Bytes of per-path samples a run of `paths` paths keeps (six columns of doubles).
constexpr std::size_t sample_bytes(std::size_t paths) { return paths * 6 * sizeof(double); }

/// Sizes the six sample columns to `paths`. Zero-filling fresh memory is mostly the kernel's page
/// faults (about 18 ms for 10^6 paths in 4 KiB pages), so on Linux new memory is first hinted to huge
/// pages and faulted in by one call (about 5 ms), and with several threads the columns are sized in
/// parallel, by steps of 2^20 paths with `should_stop` asked between them (Cancelled when it says stop).
/// std::bad_alloc reaches the caller (on its own thread) when the machine cannot hold them.
void resize_samples(SpotSamples& samples, std::size_t paths, unsigned threads,
                    const std::function<bool()>& should_stop = {});

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

/// One batch's outcomes, for a run that keeps no samples: six columns of spot_batch_paths slots.
class BatchBuffer {
public:
    BatchBuffer() : values_(6 * spot_batch_paths) {}
    /// The slots of the batch's paths from `first` on.
    detail::Columns columns(std::size_t first = 0);

private:
    std::vector<double> values_;
};

/// What a batch contributes to a run without samples: the moments of each column (wall, billed,
/// cost, interruptions, lost, charged) and its paths over the deadline.
struct BatchTally {
    std::array<Moments, 6> columns;
    std::size_t missed = 0;
};

/// The summaries of a run that keeps no samples. Batches are tallied on the threads that ran them
/// (tally, keep_subsample: distinct batches may run at once) and added in batch order (add), so the
/// result depends on the seed only.
class StreamedSummaries {
public:
    /// `most_paths`: the most the run can reach; every ceil(most_paths / spot_quantile_subsample)-th
    /// path is kept for the quantiles.
    explicit StreamedSummaries(std::size_t most_paths);

    static BatchTally tally(detail::Columns outcomes, std::size_t count, double deadline_hours);
    /// Keeps the subsampled paths among paths [first, first + count), whose outcomes are `outcomes`.
    void keep_subsample(detail::Columns outcomes, std::size_t first, std::size_t count);
    void add(const BatchTally& batch);

    /// The cost's summary so far (for the adaptive rounds).
    Summary cost(double confidence) const;
    /// Fills the summaries and derived figures of `result`, whose samples stay empty (the six columns'
    /// summaries on up to `threads` threads).
    void summarize_run(SpotResult& result, const Job& job, const SpotPricing& pricing, double confidence,
                       unsigned threads) const;

private:
    Summary summary(std::size_t column, double confidence) const;
    /// The subsample's values so far (every column has as many paths).
    std::size_t kept() const { return (total_.columns[0].count + stride_ - 1) / stride_; }

    std::size_t stride_;
    BatchTally total_;
    std::array<std::vector<double>, 6> subsample_;  // path k x stride_'s outcome at k
};

}  // namespace gputco::spot
