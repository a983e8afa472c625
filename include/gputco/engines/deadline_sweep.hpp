#pragma once
// Every policy over every window of a long availability trace (e.g. a real trace read with
// SpotAvailability::from_json), summarised the way the Can't Be Late paper reports it.
//
//   const auto trace = SpotAvailability::from_json(text);            // 10-minute ticks, weeks long
//   const DeadlineJob job{.compute_hours = 48, .deadline_hours = 70, .changeover_hours = 0.2, .tick_hours = 0.2};
//   const WindowSweep sweep = sweep_windows(job, trace, 0.9731, 3.06, {.stride_ticks = 6});
//   sweep.policies[1].cost.mean; sweep.policies[1].deadline_misses; sweep.policies[1].gap_closed;
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "gputco/engines/deadline.hpp"
#include "gputco/results/statistics.hpp"

namespace gputco {

struct WindowSweepOptions {
    std::size_t stride_ticks = 1;  ///< trace ticks between window starts, > 0
    std::vector<DeadlinePolicy> policies{DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress,
                                         DeadlinePolicy::on_demand_only};
    bool omniscient = true;     ///< also the exact optimum per window (needed for gap_closed)
    double confidence = 0.95;   ///< of every Summary, in (0, 1)
    /// Optional, polled about every 50 ms; returning true stops the sweep and throws Cancelled.
    std::function<bool()> should_stop;
};

struct WindowPolicyOutcome {
    DeadlinePolicy policy = DeadlinePolicy::greedy;
    std::vector<double> cost_samples;  ///< one per window, in window order
    Summary cost;                      ///< mean, p95, ...
    std::size_t deadline_misses = 0;   ///< windows finished after the deadline
    /// Share of the Greedy-to-optimum gap this policy closes, on mean costs:
    /// (greedy mean - mean) / (greedy mean - optimum mean), "greedy" being DeadlinePolicy::greedy.
    /// 1 = as good as the optimum, 0 = as Greedy, < 0 = worse. NaN without omniscient or a zero gap.
    double gap_closed = 0;
};

struct WindowSweep {
    std::vector<std::size_t> window_starts;  ///< in trace ticks
    std::size_t window_trace_ticks = 0;      ///< ticks of the trace in one window: ceil(R0 / trace tick)
    double trace_tick_hours = 0;             ///< the trace's tick
    double job_tick_hours = 0;               ///< the job's tick, to which each window is resampled
    std::vector<WindowPolicyOutcome> policies;  ///< in the order asked for
    std::vector<double> omniscient_samples;     ///< if options.omniscient
    std::optional<Summary> omniscient_cost;
    double greedy_mean = 0;  ///< DeadlinePolicy::greedy's mean cost (run even when not asked for)
};

/// Windows of ceil(deadline_hours / trace tick) trace ticks starting at 0, stride, 2 stride, ... that
/// fit in the trace; each is resampled to the job's tick (SpotAvailability::resampled: a changeover
/// that is not whole trace ticks needs a finer job tick, see common_tick_hours()) and every policy
/// runs on it. A trace with no stated tick is taken in the job's ticks. Single-threaded and exact:
/// the result depends only on the inputs. Throws InvalidInput for a trace shorter than one window
/// ("trace.ticks = 50: must hold one window of 70 ticks"), bad options or prices; Cancelled if
/// should_stop says so.
WindowSweep sweep_windows(const DeadlineJob& job, const SpotAvailability& trace, double spot_price_per_hour,
                          double on_demand_price_per_hour, const WindowSweepOptions& options = {});

}  // namespace gputco
