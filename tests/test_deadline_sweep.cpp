#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/engines/deadline_sweep.hpp"

using gputco::Cancelled;
using gputco::DeadlineJob;
using gputco::DeadlinePolicy;
using gputco::InvalidInput;
using gputco::SpotAvailability;
using gputco::WindowSweepOptions;

namespace {

constexpr double spot_hourly = 0.9731, on_demand_hourly = 3.06;

std::string read_text_file(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return sum / double(v.size());
}

}  // namespace

TEST_CASE("a sweep runs every policy on every window, exactly as one run on that window") {
    // The reproduction trace followed by two more ticks; C0 = 3, R0 = 9, d = 1: windows of 9
    // ticks start at 0, 1 and 2.
    const SpotAvailability trace{{1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1}, 1.0};
    const DeadlineJob job{.compute_hours = 3, .deadline_hours = 9, .changeover_hours = 1};
    const auto sweep = sweep_windows(job, trace, spot_hourly, on_demand_hourly);
    CHECK(sweep.window_starts == std::vector<std::size_t>{0, 1, 2});
    CHECK(sweep.window_trace_ticks == 9);
    REQUIRE(sweep.policies.size() == 3);
    REQUIRE(sweep.omniscient_samples.size() == 3);
    // Window 0 is the reproduction: Uniform Progress $13.2131 (see test_deadline.cpp).
    CHECK(sweep.policies[1].cost_samples[0] == doctest::Approx(13.2131).epsilon(1e-12));
    for (std::size_t w = 0; w < 3; ++w) {
        const auto window = trace.window(w, 9);
        for (const auto& outcome : sweep.policies)
            CHECK(outcome.cost_samples[w] == simulate_deadline(job, window, outcome.policy, spot_hourly, on_demand_hourly).cost);
        CHECK(sweep.omniscient_samples[w] == omniscient_cost(job, window, spot_hourly, on_demand_hourly));
    }
    const double greedy = mean(sweep.policies[0].cost_samples), best = mean(sweep.omniscient_samples);
    CHECK(sweep.greedy_mean == greedy);
    for (const auto& outcome : sweep.policies) {
        CAPTURE(to_string(outcome.policy));
        CHECK(outcome.cost.mean == doctest::Approx(mean(outcome.cost_samples)).epsilon(1e-15));
        CHECK(outcome.cost.p95 == gputco::quantile(outcome.cost_samples, 0.95));
        CHECK(outcome.deadline_misses == 0);
        CHECK(outcome.gap_closed == doctest::Approx((greedy - outcome.cost.mean) / (greedy - best)).epsilon(1e-12));
    }
    CHECK(sweep.policies[0].gap_closed == 0);  // Greedy closes none of its own gap
    // On-demand only: (3 + 1) x $3.06 = $12.24 in every window.
    CHECK(sweep.policies[2].cost_samples == std::vector<double>(3, 4 * on_demand_hourly));

    // Stride 2: windows at 0 and 2.
    WindowSweepOptions every_other;
    every_other.stride_ticks = 2;
    CHECK(sweep_windows(job, trace, spot_hourly, on_demand_hourly, every_other).window_starts == std::vector<std::size_t>{0, 2});
}

TEST_CASE("a changeover shorter than the trace's tick: windows resampled to the job's tick") {
    // Hourly trace, d = 0.5 h: the job runs in 0.5 h ticks (common_tick_hours(1, 0.5) = 0.5). A window
    // of R0 = 5 h is 5 trace ticks, resampled to 10 job ticks.
    const SpotAvailability trace{{1, 0, 1, 1, 0, 1, 1, 1}, 1.0};
    const DeadlineJob job{.compute_hours = 2, .deadline_hours = 5, .changeover_hours = 0.5,
                          .tick_hours = gputco::common_tick_hours(1.0, 0.5)};
    WindowSweepOptions options;
    options.policies = gputco::all_deadline_policies();
    const auto sweep = sweep_windows(job, trace, spot_hourly, on_demand_hourly, options);
    CHECK(sweep.window_starts == std::vector<std::size_t>{0, 1, 2, 3});
    CHECK(sweep.window_trace_ticks == 5);
    CHECK(sweep.job_tick_hours == 0.5);
    for (std::size_t w = 0; w < 4; ++w) {
        const auto window = trace.window(w, 5).resampled(0.5);
        REQUIRE(window.ticks() == 10);
        for (const auto& outcome : sweep.policies)
            CHECK(outcome.cost_samples[w] == simulate_deadline(job, window, outcome.policy, spot_hourly, on_demand_hourly).cost);
        CHECK(sweep.omniscient_samples[w] == omniscient_cost(job, window, spot_hourly, on_demand_hourly));
    }
}

TEST_CASE("a sweep over a trace file in the authors' format: the summary table") {
    // Hand-made 72-hour trace (tests/data); a 10 h job, 20 h deadline, 1 h changeover: 53 windows.
    const auto trace = SpotAvailability::from_json(
        read_text_file(std::string(GPUTCO_SOURCE_DIR) + "/tests/data/deadline_trace_zone_a.json"),
        {.values = gputco::TraceValues::available_nodes, .nodes_needed = 1});
    const DeadlineJob job{.compute_hours = 10, .deadline_hours = 20, .changeover_hours = 1};
    WindowSweepOptions options;
    options.policies = gputco::all_deadline_policies();
    const auto sweep = sweep_windows(job, trace, spot_hourly, on_demand_hourly, options);
    CHECK(sweep.window_starts.size() == 72 - 20 + 1);
    for (const auto& outcome : sweep.policies) {
        CAPTURE(to_string(outcome.policy));
        CHECK(outcome.deadline_misses == 0);
        for (std::size_t w = 0; w < outcome.cost_samples.size(); ++w)
            CHECK(outcome.cost_samples[w] >= sweep.omniscient_samples[w] - 1e-9);
        CHECK(outcome.cost.p95 == gputco::quantile(outcome.cost_samples, 0.95));
    }
    const auto& up = sweep.policies[1];
    const auto& od = sweep.policies[2];
    CHECK(od.cost.mean == doctest::Approx(11 * on_demand_hourly).epsilon(1e-12));  // (10 + 1) h on demand
    CHECK(up.cost.mean < od.cost.mean);
    CHECK(od.gap_closed < 0);  // on-demand only is dearer than Greedy here
    CHECK(sweep.omniscient_cost->mean < sweep.greedy_mean);
}

TEST_CASE("sweep inputs are named; a sweep can be stopped") {
    const SpotAvailability trace{{1, 0, 1}, 1.0};
    const DeadlineJob job{.compute_hours = 2, .deadline_hours = 4, .changeover_hours = 1};
    CHECK_THROWS_WITH_AS(sweep_windows(job, trace, spot_hourly, on_demand_hourly), "trace.ticks = 3: must hold one window of 4 ticks",
                         InvalidInput);
    const SpotAvailability longer{{1, 0, 1, 1, 1, 1, 1, 1}, 1.0};
    WindowSweepOptions options;
    options.stride_ticks = 0;
    CHECK_THROWS_WITH_AS(sweep_windows(job, longer, spot_hourly, on_demand_hourly, options), "options.stride_ticks = 0: must be > 0",
                         InvalidInput);
    options.stride_ticks = 1;
    options.policies.clear();
    CHECK_THROWS_WITH_AS(sweep_windows(job, longer, spot_hourly, on_demand_hourly, options), "options.policies.size = 0: must be >= 1",
                         InvalidInput);
    options.policies = {DeadlinePolicy::uniform_progress};
    CHECK_THROWS_WITH_AS(sweep_windows(job, longer, -1, on_demand_hourly, options), "spot_price_per_hour = -1: must be finite and > 0",
                         InvalidInput);
    // A trace in 0.3 h ticks cannot be resampled to the job's 1 h.
    const SpotAvailability odd{std::vector<bool>(20, true), 0.3};
    CHECK_THROWS_WITH_AS(sweep_windows(job, odd, spot_hourly, on_demand_hourly, options),
                         "tick_hours = 1: must divide or be a whole multiple of the trace's tick_hours = 0.3", InvalidInput);
    // Without Greedy among the policies it still runs, for the gap.
    const auto only_up = sweep_windows(job, longer, spot_hourly, on_demand_hourly, options);
    REQUIRE(only_up.policies.size() == 1);
    CHECK(only_up.greedy_mean > 0);
    options.should_stop = [] { return true; };
    CHECK_THROWS_AS(sweep_windows(job, longer, spot_hourly, on_demand_hourly, options), Cancelled);
}
