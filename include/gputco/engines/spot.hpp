#pragma once
// Monte Carlo of a checkpointed job on spot capacity. Event-driven: a path jumps from one launch to
// the next (one random lifetime per launch, for Poisson one exponential draw per interruption) and
// skips the whole segments finished in between with O(1) arithmetic, never stepping hour by hour.
// Paths are split into fixed batches of 1,024 whose random stream depends only on (seed, batch index),
// so a seed gives the same samples, bit for bit, on any number of threads.
//
//   const Job job{.work_hours = 2000, .checkpoint_interval_hours = 2,
//                 .checkpoint_write_hours = 0.1, .restart_hours = 0.25};
//   const SpotResult r = simulate_spot(job, Poisson{.mtbf_hours = 20}, {.price_per_hour = 1.2},
//                                      {.paths = 100'000, .seed = 42});
//   r.cost.mean; r.cost.p95; r.deadline_miss_probability;
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/core/cancel.hpp"  // Cancelled
#include "gputco/core/sample_column.hpp"
#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/interruption.hpp"
#include "gputco/work/job.hpp"
#include "gputco/results/statistics.hpp"

namespace gputco {

/// The most paths one run keeps samples for: 10^8 paths hold 4.8 GB (six columns of doubles). More
/// is an InvalidInput naming options.paths or options.max_paths, raised before anything is allocated.
inline constexpr std::size_t spot_max_paths = 100'000'000;

/// The most paths of a run that keeps no samples (SimulationOptions::keep_samples = false): a bound on
/// time, not memory (about three days of one core on a 2,000-hour job).
inline constexpr std::size_t spot_max_streamed_paths = 1'000'000'000'000;

/// Paths whose outcomes a run without samples keeps for its quantiles (a systematic subsample of
/// every k-th path, k = ceil(the run's most paths / this); all paths when the run has no more).
inline constexpr std::size_t spot_quantile_subsample = 65'536;

struct SimulationOptions {
    std::size_t paths = 100000;   ///< paths of the first round, in (0, spot_max_paths]
    std::uint64_t seed = 0;
    /// Worker threads; 0 = all cores. If the system cannot create that many, the run goes on with
    /// those it could (the results do not depend on the count).
    unsigned threads = 0;
    /// > 0: after the first round, keep adding paths until the confidence-interval half-width of the
    /// mean cost is <= this (or max_paths is reached). Each further round aims at the path count the
    /// current variance says is needed (x1.1, whole batches), so the stopping point depends only on
    /// the samples, not on the thread count.
    double target_half_width = 0;
    /// Cap for target_half_width: 0 (the default) = 16 x paths, at most spot_max_paths (or
    /// spot_max_streamed_paths without samples); else >= paths and at most that.
    std::size_t max_paths = 0;
    double confidence = 0.95;            ///< of every Summary, in (0, 1)
    /// false: keep no per-path samples (SpotResult::samples stays empty), so memory does not grow with
    /// the paths and the run may have up to spot_max_streamed_paths. Each batch is summarised where it
    /// ran and the batches are merged in order: mean, standard error, interval, min, max and the
    /// deadline-miss share are those of all paths (equal to a sampled run's to rounding; the same on
    /// any thread count); the quantiles are exact quantiles of every k-th path (see
    /// spot_quantile_subsample), so of all paths when the run has at most 65,536, and otherwise
    /// estimates whose rank is off by about sqrt(q (1 - q) / 65,536), 0.09 percentile points at p95.
    bool keep_samples = true;
    /// Optional. Called only on the calling thread, about every 50 ms while workers run; returning
    /// true stops the run and throws Cancelled.
    std::function<bool()> should_stop;
    /// Optional, for a progress bar: called on the calling thread about every 50 ms while workers run,
    /// and once when a round ends, with (paths done, paths of the run so far including this round).
    std::function<void(std::size_t done, std::size_t total)> progress;

    void validate() const;
    /// max_paths with its default resolved: 16 x paths (at most max_paths_allowed()) when 0.
    std::size_t path_cap() const;
    /// spot_max_paths, or spot_max_streamed_paths when keep_samples is false.
    std::size_t max_paths_allowed() const;
};

/// Prices and billing granularity. Each launch (instance start to stop, restart included, capacity
/// wait excluded) is billed on its own: its running time is rounded up to a whole number of
/// `billing_increment_hours`, then raised to `minimum_billed_hours`; a launch within a relative 1e-9
/// above a whole number of increments is taken as that number (so 60 s steps, inexact in hours, do
/// not add a step to an exact multiple). The charged hours of a path sum its launches'. With both 0
/// (the default) charged = billed running time exactly, and results are those of continuous billing.
struct SpotPricing {
    double price_per_hour = 1.0;            ///< spot price (PriceDriven: the median of its price), > 0
    double on_demand_price_per_hour = 0;    ///< for effective_discount; 0 = unknown
    double billing_increment_hours = 0;     ///< >= 0; 0 = continuous, 1.0 / 3600 = per second, 1 = hourly
    double minimum_billed_hours = 0;        ///< >= 0; least charge of one launch, e.g. 1.0 / 60
    void validate() const;

    /// The offering's per-GPU spot and on-demand prices and its billing increment and minimum (seconds
    /// converted to hours). Throws InvalidInput naming offering.spot_hourly if it lists no spot price.
    static SpotPricing from_offering(const Offering& offering);
    /// Prices as given, billing (increment and minimum, seconds converted to hours) as `offering` bills.
    static SpotPricing billed_as(const Offering& offering, double price_per_hour, double on_demand_price_per_hour);
};

/// One value per path, in path order (empty when SimulationOptions::keep_samples is false).
struct SpotSamples {
    SampleColumn wall_hours, billed_hours, cost, interruptions, lost_work_hours;
    /// Billed running time after each launch's rounding to the billing increment and minimum.
    SampleColumn charged_hours;
};

/// billed_hours is running time (work, writes, restarts); charged_hours the same after the billing
/// rounding of SpotPricing. cost = charged_hours x price, or for PriceDriven the integral of the price
/// over the running time plus each launch's rounding extra at the price of its last step.
struct SpotResult {
    SpotSamples samples;
    Summary wall_hours, billed_hours, cost, interruptions, lost_work_hours, charged_hours;
    double deadline_miss_probability = 0;        ///< share of paths with wall_hours > job.deadline_hours
    double effective_price_per_useful_hour = 0;  ///< mean cost / work_hours
    double effective_discount = 0;   ///< 1 - mean cost / (on-demand price * work_hours); NaN if unknown
    std::size_t paths = 0;
    std::uint64_t seed = 0;
    /// The path loop that ran: "avx512", "avx2" or "portable" for a lane kernel (the lifetime models:
    /// Poisson, Weibull, trace, with any provider rules and billing), "scalar" for the scalar loop
    /// (chosen, or the price-driven model). Results never depend on it.
    std::string kernel;
};

/// Simulates `options.paths` (or more, see target_half_width) independent runs of `job` under
/// `model`. Validates every input first (InvalidInput), including limits that would exhaust memory or
/// time: more than spot_max_paths paths; a model under which no launch can finish a segment; more than
/// 1e8 expected interruptions (Poisson, closed form) or launches (any model: work / the mean useful
/// running time of a launch) per path. Throws Cancelled if should_stop says so, std::bad_alloc (on
/// the calling thread) if the samples do not fit in memory.
SpotResult simulate_spot(const Job& job, const InterruptionModel& model, const SpotPricing& pricing = {},
                         const SimulationOptions& options = {});

/// What one path of simulate_spot costs, known before a run: lower bounds on a path's expected
/// launches (1 + interruptions) and, for PriceDriven, the price steps it walks. A run's work is about
/// paths x (launches + price steps), so a front end can tell a long run from a quick one up front.
struct SpotWorkEstimate {
    double launches_per_path = 1;
    double price_steps_per_path = 0;
};

/// The work estimates simulate_spot checks against its limits (1e8 launches, 1e7 price steps per
/// path), after the same validation (the same InvalidInput for the same input). For the lifetime
/// models (Poisson, Weibull, trace) the launches are a lower bound on the mean (Daly's closed form for
/// Poisson without rules); for the price-driven model both figures are estimates.
SpotWorkEstimate estimate_spot_work(const Job& job, const InterruptionModel& model, const SpotPricing& pricing = {});

/// Paths per batch: the unit of work of a thread. Each batch has eight random streams; path i of a
/// batch draws from stream i % 8, so results depend on the seed only.
inline constexpr std::size_t spot_batch_paths = 1024;

/// The path loops this CPU can run for the lifetime models: "scalar" and "portable" (the lane kernel for SSE2 or NEON)
/// always, then "avx2" and "avx512" on x86-64 CPUs that have them. simulate_spot uses
/// default_spot_kernel() unless the environment variable GPUTCO_SPOT_KERNEL names another (or "auto");
/// any other value is an InvalidInput. Every kernel gives the same samples bit for bit; the choice
/// changes only the speed.
std::vector<std::string> spot_kernels();

/// The widest lane kernel this CPU runs ("avx512", "avx2" or "portable"): the fastest measured, the
/// portable one included (3.7x the scalar loop per event with SSE2).
std::string default_spot_kernel();

}  // namespace gputco
