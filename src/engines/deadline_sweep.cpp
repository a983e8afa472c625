// Window sweeps over a long availability trace. See deadline_sweep.hpp.
#include "gputco/engines/deadline_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "deadline_rules.hpp"
#include "gputco/core/error.hpp"

namespace gputco {

WindowSweep sweep_windows(const DeadlineJob& job, const SpotAvailability& trace, double spot_price_per_hour,
                          double on_demand_price_per_hour, const WindowSweepOptions& options) {
    job.validate();
    require_positive_price("spot_price_per_hour", spot_price_per_hour);
    require_positive_price("on_demand_price_per_hour", on_demand_price_per_hour);
    require(options.stride_ticks > 0, "options.stride_ticks", options.stride_ticks, "must be > 0");
    require(!options.policies.empty(), "options.policies.size", 0, "must be >= 1");
    require(options.confidence > 0.0 && options.confidence < 1.0, "options.confidence", options.confidence,
            "must be in (0, 1)");
    require(trace.ticks() <= SpotAvailability::max_ticks, "trace.ticks", trace.ticks(),
            fmt::format("must be at most {}", SpotAvailability::max_ticks));

    WindowSweep sweep;
    sweep.trace_tick_hours = trace.tick_hours > 0 ? trace.tick_hours : job.tick_hours;
    sweep.job_tick_hours = job.tick_hours;
    // Whole trace ticks covering the deadline (a relative 1e-9 absorbs binary fractions like 0.1).
    const double ratio = job.deadline_hours / sweep.trace_tick_hours;
    sweep.window_trace_ticks = static_cast<std::size_t>(std::ceil(ratio - 1e-9 * ratio));
    require(trace.ticks() >= sweep.window_trace_ticks, "trace.ticks", trace.ticks(),
            fmt::format("must hold one window of {} ticks", sweep.window_trace_ticks));
    for (std::size_t start = 0; start + sweep.window_trace_ticks <= trace.ticks(); start += options.stride_ticks)
        sweep.window_starts.push_back(start);

    const std::size_t n = sweep.window_starts.size();
    const auto greedy_at = std::find(options.policies.begin(), options.policies.end(), DeadlinePolicy::greedy);
    const bool extra_greedy = greedy_at == options.policies.end();
    std::vector<DeadlinePolicy> run = options.policies;
    if (extra_greedy) run.push_back(DeadlinePolicy::greedy);
    std::vector<std::vector<double>> costs(run.size());
    std::vector<std::size_t> misses(run.size(), 0);
    for (auto& c : costs) c.reserve(n);
    if (options.omniscient) sweep.omniscient_samples.reserve(n);

    deadline_rules::StopPoll poll(options.should_stop, "sweep_windows");
    for (const std::size_t start : sweep.window_starts) {
        poll();
        SpotAvailability window = trace.window(start, sweep.window_trace_ticks);
        window.tick_hours = sweep.trace_tick_hours;
        if (std::abs(window.tick_hours - job.tick_hours) > 1e-9 * job.tick_hours) window = window.resampled(job.tick_hours);
        else window.tick_hours = job.tick_hours;
        for (std::size_t i = 0; i < run.size(); ++i) {
            const DeadlineResult r = simulate_deadline(job, window, run[i], spot_price_per_hour, on_demand_price_per_hour);
            costs[i].push_back(r.cost);
            if (!r.met_deadline) ++misses[i];
        }
        if (options.omniscient)
            sweep.omniscient_samples.push_back(
                omniscient_cost(job, window, spot_price_per_hour, on_demand_price_per_hour, options.should_stop));
    }

    const auto mean = [](const std::vector<double>& v) {
        double sum = 0;
        for (const double x : v) sum += x;
        return sum / static_cast<double>(v.size());
    };
    const std::size_t greedy_index =
        extra_greedy ? run.size() - 1 : static_cast<std::size_t>(greedy_at - options.policies.begin());
    sweep.greedy_mean = mean(costs[greedy_index]);
    const double optimum_mean = options.omniscient ? mean(sweep.omniscient_samples) : std::nan("");
    if (options.omniscient) sweep.omniscient_cost = summarize(sweep.omniscient_samples, options.confidence);
    for (std::size_t i = 0; i < options.policies.size(); ++i) {
        WindowPolicyOutcome outcome;
        outcome.policy = options.policies[i];
        outcome.cost = summarize(costs[i], options.confidence);
        outcome.deadline_misses = misses[i];
        const double gap = sweep.greedy_mean - optimum_mean;
        outcome.gap_closed = options.omniscient && gap > 0 ? (sweep.greedy_mean - mean(costs[i])) / gap
                                                           : std::numeric_limits<double>::quiet_NaN();
        outcome.cost_samples = std::move(costs[i]);
        sweep.policies.push_back(std::move(outcome));
    }
    return sweep;
}

}  // namespace gputco
