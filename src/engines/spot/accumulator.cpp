// The accumulator (accumulator.hpp): sample columns and the summaries of a run.
#include "accumulator.hpp"

#include <atomic>
#include <thread>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "executor.hpp"
#include "../../results/quantiles.hpp"
#include "path_pricer.hpp"

namespace gputco::spot {

namespace {

// Each column of a batch's outcomes, in the order of BatchTally::columns.
std::array<const double*, 6> column_pointers(const detail::Columns& c) {
    return {c.wall, c.billed, c.cost, c.interruptions, c.lost, c.charged};
}

void finish(SpotResult& result, const Job& job, const SpotPricing& pricing, std::size_t missed) {
    result.deadline_miss_probability = static_cast<double>(missed) / static_cast<double>(result.paths);
    result.effective_price_per_useful_hour = result.cost.mean / job.work_hours;
    result.effective_discount = pricing.on_demand_price_per_hour > 0
                                    ? 1.0 - result.cost.mean / (pricing.on_demand_price_per_hour * job.work_hours)
                                    : std::numeric_limits<double>::quiet_NaN();
}

// Before a column's new memory is written: fresh memory costs a page fault per 4 KiB page touched
// (about 18 ms for the six columns of 10^6 paths, more than a zero-fill of them). On Linux,
// ask for transparent huge pages (2 MiB: 512 times fewer faults; the system's setting decides) and
// fault the range in with one call. Both are hints: where they fail or do not exist nothing changes.
void prepare_pages([[maybe_unused]] void* begin, [[maybe_unused]] std::size_t bytes) {
#if defined(__linux__)
    constexpr std::uintptr_t huge = std::uintptr_t{2} << 20, page = 4096;
    const auto first = reinterpret_cast<std::uintptr_t>(begin), end = first + bytes;
    const std::uintptr_t huge_first = (first + huge - 1) & ~(huge - 1), huge_end = end & ~(huge - 1);
#if defined(MADV_HUGEPAGE)
    if (huge_end > huge_first) ::madvise(reinterpret_cast<void*>(huge_first), huge_end - huge_first, MADV_HUGEPAGE);
#endif
#if defined(MADV_POPULATE_WRITE)
    const std::uintptr_t page_first = (first + page - 1) & ~(page - 1), page_end = end & ~(page - 1);
    if (page_end > page_first)
        ::madvise(reinterpret_cast<void*>(page_first), page_end - page_first, MADV_POPULATE_WRITE);
#endif
    (void)huge_first;
    (void)huge_end;
#endif
}

// The threads for summarising columns of `values` values each: one below 4,096 (measured here: a
// summary of 4,000 values takes about 17 us, starting and joining a thread about 30 us).
unsigned summary_threads(std::size_t values, unsigned threads) { return values < 4096 ? 1 : threads; }

}  // namespace

void resize_samples(SpotSamples& s, std::size_t paths, unsigned threads, const std::function<bool()>& should_stop) {
    SampleColumn* columns[] = {&s.wall_hours,      &s.billed_hours,     &s.cost, &s.interruptions,
                               &s.lost_work_hours, &s.charged_hours};
    const unsigned workers = paths < (1u << 16) ? 1 : threads;
    std::size_t from = s.cost.size();
    for_each_parallel(6, workers, [&](std::size_t c) {
        if (paths > columns[c]->capacity()) columns[c]->reserve(paths);  // address space only
    });
    // The pages are faulted in by steps of 2^20 paths (48 MB over the six columns, about 50 ms),
    // asking should_stop between steps: 10^8 paths took 4.7 s in one call, deaf to Ctrl-C.
    constexpr std::size_t step = std::size_t(1) << 20;
    while (from < paths) {
        if (from > s.cost.size() && should_stop && should_stop()) throw Cancelled("simulate_spot cancelled by should_stop");
        const std::size_t to = std::min(paths, from + step);
        for_each_parallel(6, workers, [&](std::size_t c) {
            prepare_pages(columns[c]->data() + from, (to - from) * sizeof(double));
        });
        from = to;
    }
    for (SampleColumn* column : columns) column->resize(paths);  // no zero-fill (SampleColumn): batches write them
}

detail::Columns columns_from(SpotSamples& s, std::size_t begin) {
    return {s.wall_hours.data() + begin,    s.billed_hours.data() + begin,    s.cost.data() + begin,
            s.interruptions.data() + begin, s.lost_work_hours.data() + begin, s.charged_hours.data() + begin, 1};
}

detail::Columns lane_of(const detail::Columns& out, std::size_t lane) {
    return {out.wall + lane,          out.billed + lane, out.cost + lane, out.interruptions + lane,
            out.lost + lane,          out.charged + lane, detail::spot_lanes};
}

void summarize_run(SpotResult& result, const Job& job, const SpotPricing& pricing, double confidence,
                   unsigned threads) {
    const SpotSamples& s = result.samples;
    // Charged hours are billed hours bit for bit under continuous billing: then five columns, not six.
    const bool charged_apart = !Billing(pricing).continuous();
    const std::size_t columns = charged_apart ? 6 : 5;
    const SampleColumn* series[] = {&s.wall_hours,      &s.billed_hours,   &s.cost, &s.interruptions,
                                    &s.lost_work_hours, &s.charged_hours};
    Summary* targets[] = {&result.wall_hours,      &result.billed_hours,   &result.cost, &result.interruptions,
                          &result.lost_work_hours, &result.charged_hours};
    // Two tasks a column: each column's first pass, then each column's second, so that two threads
    // share the columns evenly (five whole summaries as five tasks left one thread three of them). A
    // second pass waits for its column's first, taken before it and done by then but for a race with
    // the other thread. (confidence was checked by SimulationOptions::validate; the passes do not check
    // it again.)
    Moments first[6];
    std::atomic<bool> first_done[6] = {};
    for_each_parallel(2 * columns, summary_threads(s.cost.size(), threads), [&](std::size_t task) {
        const std::size_t k = task % columns;
        if (task < columns) {
            struct Done {  // set even if the pass throws: the run fails then, and no second pass waits on
                std::atomic<bool>& flag;
                ~Done() { flag.store(true, std::memory_order_release); }
            } done{first_done[k]};
            first[k] = detail::summary_first_pass(*series[k]);
            return;
        }
        while (!first_done[k].load(std::memory_order_acquire)) std::this_thread::yield();
        *targets[k] = detail::summary_second_pass(*series[k], first[k], confidence);
    });
    if (!charged_apart) result.charged_hours = result.billed_hours;
    std::size_t missed = 0;
    if (std::isfinite(job.deadline_hours)) {  // no finite sample is over an infinite deadline: no pass
        for (double w : s.wall_hours) missed += w > job.deadline_hours ? 1 : 0;
    }
    finish(result, job, pricing, missed);
}


detail::Columns BatchBuffer::columns(std::size_t first) {
    double* v = values_.data() + first;
    constexpr std::size_t n = spot_batch_paths;
    return {v, v + n, v + 2 * n, v + 3 * n, v + 4 * n, v + 5 * n, 1};
}

StreamedSummaries::StreamedSummaries(std::size_t most_paths)
    : stride_(std::max<std::size_t>(1, (most_paths + spot_quantile_subsample - 1) / spot_quantile_subsample)) {
    for (auto& column : subsample_) column.resize((most_paths + stride_ - 1) / stride_);
}

BatchTally StreamedSummaries::tally(detail::Columns outcomes, std::size_t count, double deadline_hours) {
    BatchTally t;
    const auto columns = column_pointers(outcomes);
    for (std::size_t c = 0; c < columns.size(); ++c) t.columns[c] = Moments::of({columns[c], count});
    for (std::size_t i = 0; i < count; ++i) t.missed += outcomes.wall[i] > deadline_hours ? 1 : 0;
    return t;
}

void StreamedSummaries::keep_subsample(detail::Columns outcomes, std::size_t first, std::size_t count) {
    const auto columns = column_pointers(outcomes);
    for (std::size_t i = (first + stride_ - 1) / stride_ * stride_; i < first + count; i += stride_) {
        for (std::size_t c = 0; c < columns.size(); ++c) subsample_[c][i / stride_] = columns[c][i - first];
    }
}

void StreamedSummaries::add(const BatchTally& batch) {
    for (std::size_t c = 0; c < batch.columns.size(); ++c) total_.columns[c].merge(batch.columns[c]);
    total_.missed += batch.missed;
}

Summary StreamedSummaries::summary(std::size_t column, double confidence) const {
    return gputco::summarize(total_.columns[column], std::span(subsample_[column]).first(kept()), confidence);
}

Summary StreamedSummaries::cost(double confidence) const { return summary(2, confidence); }

void StreamedSummaries::summarize_run(SpotResult& result, const Job& job, const SpotPricing& pricing,
                                      double confidence, unsigned threads) const {
    Summary* targets[] = {&result.wall_hours, &result.billed_hours,    &result.cost,
                          &result.interruptions, &result.lost_work_hours, &result.charged_hours};
    for_each_parallel(6, summary_threads(kept(), threads),
                      [&](std::size_t c) { *targets[c] = summary(c, confidence); });
    finish(result, job, pricing, total_.missed);
}

}  // namespace gputco::spot
