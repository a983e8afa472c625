// simulate_spot: validates, packs the job once (path pricer), runs rounds of batches on the executor
// (each batch: path generators feeding the pricer, see batch.cpp) and lets the accumulator summarise.
// See spot.hpp for the contract and docs/design.md for the split.
#include "gputco/engines/spot.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <thread>
#include <vector>
#include <variant>

#include <fmt/format.h>

#include "accumulator.hpp"
#include "batch.hpp"
#include "executor.hpp"
#include "gputco/core/error.hpp"
#include "kernels.hpp"
#include "limits.hpp"
#include "path_pricer.hpp"

namespace gputco {

void SimulationOptions::validate() const {
    const std::size_t most = max_paths_allowed();
    const auto ceiling = keep_samples ? fmt::format("must be <= {} (each path keeps {} bytes of samples; "
                                                    "options.keep_samples = false keeps none)",
                                                    most, spot::sample_bytes(1))
                                      : fmt::format("must be <= {} (with options.keep_samples = false)", most);
    require(paths > 0, "options.paths", paths, "must be > 0");
    require(paths <= most, "options.paths", paths, ceiling);
    require(max_paths == 0 || max_paths >= paths, "options.max_paths", max_paths,
            fmt::format("must be 0 (16 x paths) or >= options.paths = {}", paths));
    require(max_paths <= most, "options.max_paths", max_paths, ceiling);
    require_non_negative("options.target_half_width", target_half_width);
    require(confidence > 0.0 && confidence < 1.0, "options.confidence", confidence, "must be in (0, 1)");
}

std::size_t SimulationOptions::path_cap() const {
    return max_paths != 0 ? max_paths : std::min(max_paths_allowed(), 16 * paths);
}

std::size_t SimulationOptions::max_paths_allowed() const {
    return keep_samples ? spot_max_paths : spot_max_streamed_paths;
}

void SpotPricing::validate() const {
    require_positive("pricing.price_per_hour", price_per_hour);
    require_at_most("pricing.price_per_hour", price_per_hour, limits::max_money);
    require_on_demand_price("pricing.on_demand_price_per_hour", on_demand_price_per_hour);
    require_at_most("pricing.billing_increment_hours", billing_increment_hours, limits::max_hours);
    require_at_most("pricing.minimum_billed_hours", minimum_billed_hours, limits::max_hours);
}

SpotPricing SpotPricing::from_offering(const Offering& offering) {
    const auto spot = offering.spot_per_gpu_hour();
    if (!spot) fail("offering.spot_hourly", "none", fmt::format("offering {} lists no spot price", offering.key()));
    return billed_as(offering, *spot, offering.on_demand_per_gpu_hour());
}

SpotPricing SpotPricing::billed_as(const Offering& offering, double price_per_hour, double on_demand_price_per_hour) {
    SpotPricing pricing;
    pricing.price_per_hour = price_per_hour;
    pricing.on_demand_price_per_hour = on_demand_price_per_hour;
    pricing.billing_increment_hours = offering.billing_increment_seconds / 3600.0;
    pricing.minimum_billed_hours = offering.minimum_billed_seconds / 3600.0;
    return pricing;
}

namespace {

const ProviderRules& model_rules(const InterruptionModel& model) {
    return std::visit([](const auto& m) -> const ProviderRules& { return m.rules; }, model);
}

// Simulates paths [first, last) (whole batches, except a short final one) into `samples`.
void run_round(const spot::RunSetup& setup, const SimulationOptions& options, unsigned threads,
               SpotSamples& samples, std::size_t first, std::size_t last) {
    const std::size_t first_batch = first / spot_batch_paths;
    const std::size_t end_batch = (last + spot_batch_paths - 1) / spot_batch_paths;
    // The progress callback rides on the executor's should_stop polling (same thread, same cadence).
    std::atomic<std::size_t> paths_done{first};
    std::function<bool()> poll = options.should_stop;
    if (options.progress) {
        poll = [&] {
            options.progress(paths_done.load(std::memory_order_relaxed), last);
            return options.should_stop && options.should_stop();
        };
    }
    spot::run_batches(first_batch, end_batch, threads, poll,
                      [&](std::size_t batch, const std::atomic<bool>& cancel) {
                          const std::size_t begin = batch * spot_batch_paths;
                          const std::size_t count = std::min(last, begin + spot_batch_paths) - begin;
                          spot::run_batch(setup, batch, count, spot::columns_from(samples, begin), cancel);
                          paths_done.fetch_add(count, std::memory_order_relaxed);
                      });
    if (options.progress) options.progress(last, last);
}

// Without samples: paths [first, last) in chunks of batches, each batch into a buffer of its own and
// tallied on its thread; the chunk's tallies are added in batch order, so the memory stays bounded
// however many paths the run has.
void run_round_streamed(const spot::RunSetup& setup, const SimulationOptions& options, unsigned threads,
                        double deadline_hours, spot::StreamedSummaries& stream, std::size_t first,
                        std::size_t last) {
    constexpr std::size_t chunk_batches = 1024;
    const std::size_t first_batch = first / spot_batch_paths;
    const std::size_t end_batch = (last + spot_batch_paths - 1) / spot_batch_paths;
    std::vector<spot::BatchTally> tallies;
    for (std::size_t chunk = first_batch; chunk < end_batch; chunk += chunk_batches) {
        const std::size_t chunk_end = std::min(end_batch, chunk + chunk_batches);
        tallies.assign(chunk_end - chunk, {});
        spot::run_batches(chunk, chunk_end, threads, options.should_stop,
                          [&](std::size_t batch, const std::atomic<bool>& cancel) {
                              const std::size_t begin = batch * spot_batch_paths;
                              const std::size_t count = std::min(last, begin + spot_batch_paths) - begin;
                              spot::BatchBuffer buffer;
                              spot::run_batch(setup, batch, count, buffer.columns(), cancel);
                              if (cancel.load(std::memory_order_relaxed)) return;  // outcomes unfinished
                              // A round that starts inside a batch (after a short first round) reruns
                              // the batch from its start; its paths before `first` are counted already.
                              const std::size_t done = std::max(first, begin) - begin;
                              const detail::Columns outcomes = buffer.columns(done);
                              tallies[batch - chunk] =
                                  spot::StreamedSummaries::tally(outcomes, count - done, deadline_hours);
                              stream.keep_subsample(outcomes, begin + done, count - done);
                          });
        for (const spot::BatchTally& t : tallies) stream.add(t);
    }
}

// The path count of the next adaptive round: what the current variance says the target needs, with
// 10% margin, in whole batches, at most the cap.
std::size_t next_round_end(const Summary& cost, const SimulationOptions& options, std::size_t total) {
    const double ratio = cost.half_width() / options.target_half_width;
    const double needed = 1.1 * static_cast<double>(total) * ratio * ratio;
    const std::size_t cap = options.path_cap();
    std::size_t next = total + spot_batch_paths;
    if (std::isfinite(needed) && needed > static_cast<double>(next))
        next = static_cast<std::size_t>(std::min(needed, static_cast<double>(cap)));
    else if (!std::isfinite(needed))
        next = cap;
    return std::min(cap, (next + spot_batch_paths - 1) / spot_batch_paths * spot_batch_paths);
}

}  // namespace

SpotWorkEstimate estimate_spot_work(const Job& job, const InterruptionModel& model, const SpotPricing& pricing) {
    job.validate();
    validate(model);
    pricing.validate();
    return spot::check_limits(job, model, pricing);
}

SpotResult simulate_spot(const Job& job, const InterruptionModel& model, const SpotPricing& pricing,
                         const SimulationOptions& options) {
    job.validate();
    validate(model);
    pricing.validate();
    options.validate();
    spot::check_limits(job, model, pricing);
    const Poisson* poisson = std::get_if<Poisson>(&model);
    const spot::RunSetup setup{.model = model,
                               .pricer = spot::PathPricer(job, model_rules(model), pricing,
                                                          poisson ? poisson->mtbf_hours : 0.0),
                               .kernel = spot::choose_kernel(),
                               .seed = options.seed};
    const unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());

    SpotResult result;
    result.seed = options.seed;
    result.kernel = spot::uses_lane_kernel(setup) ? setup.kernel.name : "scalar";
    std::size_t total = options.paths;
    if (!options.keep_samples) {
        spot::StreamedSummaries stream(options.target_half_width > 0 ? options.path_cap() : options.paths);
        run_round_streamed(setup, options, threads, job.deadline_hours, stream, 0, total);
        while (options.target_half_width > 0) {
            const Summary cost = stream.cost(options.confidence);
            if (cost.half_width() <= options.target_half_width || total >= options.path_cap()) break;
            const std::size_t next = next_round_end(cost, options, total);
            run_round_streamed(setup, options, threads, job.deadline_hours, stream, total, next);
            total = next;
        }
        result.paths = total;
        stream.summarize_run(result, job, pricing, options.confidence, threads);
        return result;
    }
    spot::resize_samples(result.samples, total, threads, options.should_stop);
    run_round(setup, options, threads, result.samples, 0, total);
    if (options.target_half_width > 0) {
        for (;;) {
            const Summary cost = summarize(result.samples.cost, options.confidence);
            if (cost.half_width() <= options.target_half_width || total >= options.path_cap()) break;
            const std::size_t next = next_round_end(cost, options, total);
            spot::resize_samples(result.samples, next, threads, options.should_stop);
            run_round(setup, options, threads, result.samples, total, next);
            total = next;
        }
    }
    result.paths = total;
    spot::summarize_run(result, job, pricing, options.confidence, threads);
    return result;
}

}  // namespace gputco
