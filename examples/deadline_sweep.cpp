// Which deadline policy to run on spot, judged on availability traces: every policy over every window
// of a trace in the Can't Be Late authors' JSON format ({"metadata": {"gap_seconds": N}, "data": [...]}),
// the summary table the paper reports (mean, P95, deadline misses, share of the Greedy-to-optimum gap
// closed), and, given two or more traces (one per region or zone), the multi-region policies on the
// first window of all of them.
//
// Job: 10 h of compute, 20 h deadline, 1 h changeover, on p3.2xlarge at the authors' prices ($0.9731/h
// spot, $3.06/h on demand; later regions' spot 10% dearer each, an ASSUMPTION for the example).
//
// Usage: deadline_sweep trace.json [more-traces.json ...]
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gputco/engines/deadline_regions.hpp"
#include "gputco/engines/deadline_sweep.hpp"

namespace {

constexpr double spot_per_hour = 0.9731, on_demand_per_hour = 3.06;

gputco::SpotAvailability read_trace(const char* path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("cannot open {}", path));
    std::stringstream text;
    text << in.rdbuf();
    // The authors' traces count the spot instances available in each tick and do not say so; this
    // job runs on one instance, so a tick with at least one is available.
    return gputco::SpotAvailability::from_json(
        text.str(), {.values = gputco::TraceValues::available_nodes, .nodes_needed = 1});
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        fmt::print(stderr, "usage: {} trace.json [more-traces.json ...]\n", argv[0]);
        return 2;
    }
    using namespace gputco;
    std::vector<SpotAvailability> traces;
    for (int i = 1; i < argc; ++i) traces.push_back(read_trace(argv[i]));

    const double tick = traces[0].tick_hours;
    const DeadlineJob job{.compute_hours = 10, .deadline_hours = 20, .changeover_hours = 1,
                          .tick_hours = common_tick_hours(tick, 1.0)};
    WindowSweepOptions options;
    options.policies = all_deadline_policies();
    const WindowSweep sweep = sweep_windows(job, traces[0], spot_per_hour, on_demand_per_hour, options);

    fmt::print("{}: {} ticks of {} h, spot available in {} of them\n", argv[1], traces[0].ticks(), tick,
               traces[0].available_ticks());
    fmt::print("job: {} h compute, {} h deadline, {} h changeover; {} windows\n\n", job.compute_hours,
               job.deadline_hours, job.changeover_hours, sweep.window_starts.size());
    fmt::print("{:<24}{:>10}{:>10}{:>8}{:>12}\n", "policy", "mean $", "P95 $", "misses", "gap closed");
    for (const auto& o : sweep.policies)
        fmt::print("{:<24}{:>10.2f}{:>10.2f}{:>8}{:>12.3f}\n", to_string(o.policy), o.cost.mean, o.cost.p95,
                   o.deadline_misses, o.gap_closed);
    fmt::print("{:<24}{:>10.2f}{:>10.2f}\n", "omniscient", sweep.omniscient_cost->mean, sweep.omniscient_cost->p95);

    if (traces.size() < 2) return 0;
    std::vector<SpotRegion> regions;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        SpotAvailability first = traces[i].window(0, sweep.window_trace_ticks);
        if (first.tick_hours != job.tick_hours) first = first.resampled(job.tick_hours);
        regions.push_back({argv[i + 1], first, spot_per_hour * (1 + 0.1 * static_cast<double>(i))});
    }
    fmt::print("\nfirst window, {} regions:\n", regions.size());
    for (const RegionPolicy p : {RegionPolicy::skypilot_failover, RegionPolicy::skypilot_eager_next_region,
                                 RegionPolicy::uniform_progress}) {
        const auto r = simulate_multi_region(job, regions, p, on_demand_per_hour);
        fmt::print("{:<28}${:>8.2f}  {} moves, finished at {} h{}\n", to_string(p), r.run.cost, r.moves,
                   r.run.finish_hours, r.run.met_deadline ? "" : " (LATE)");
    }
    fmt::print("{:<28}${:>8.2f}\n", "omniscient", omniscient_multi_region_cost(job, regions, on_demand_per_hour));
    return 0;
}
