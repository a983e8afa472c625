// Which deadline policy to run on spot, judged on availability traces: every policy over every window
// of a trace in the Can't Be Late authors' JSON format ({"metadata": {"gap_seconds": N}, "data": [...]}),
// the summary table the paper reports (mean, P95, deadline misses, share of the Greedy-to-optimum gap
// closed), and, given two or more traces (one per region or zone), the multi-region policies on the
// first window of all of them.
//
// Job: 10 h of compute, 20 h deadline, 1 h changeover, on p3.2xlarge at the authors' prices ($0.9731/h
// spot, $3.06/h on demand; later regions' spot 10% dearer each, an ASSUMPTION for the example).
//
// Usage: deadline_sweep [--json] trace.json [more-traces.json ...]
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gputco/engines/deadline_regions.hpp"
#include "gputco/engines/deadline_sweep.hpp"

namespace {

/// A figure for JSON: null when it is not finite.
nlohmann::ordered_json number(double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(); }

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
    std::vector<const char*> paths;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = true;
        else paths.push_back(argv[i]);
    }
    if (paths.empty()) {
        fmt::print(stderr, "usage: {} [--json] trace.json [more-traces.json ...]\n", argv[0]);
        return 2;
    }
    using namespace gputco;
    std::vector<SpotAvailability> traces;
    for (const char* path : paths) traces.push_back(read_trace(path));

    const double tick = traces[0].tick_hours;
    const DeadlineJob job{.compute_hours = 10, .deadline_hours = 20, .changeover_hours = 1,
                          .tick_hours = common_tick_hours(tick, 1.0)};
    WindowSweepOptions options;
    options.policies = all_deadline_policies();
    const WindowSweep sweep = sweep_windows(job, traces[0], spot_per_hour, on_demand_per_hour, options);
    nlohmann::ordered_json doc;
    doc["trace"] = paths[0];
    doc["windows"] = sweep.window_starts.size();
    doc["policies"] = nlohmann::ordered_json::array();
    for (const auto& o : sweep.policies)
        doc["policies"].push_back({{"policy", to_string(o.policy)}, {"cost_mean", number(o.cost.mean)},
                                   {"cost_p95", number(o.cost.p95)}, {"deadline_misses", o.deadline_misses},
                                   {"gap_closed", number(o.gap_closed)}});
    doc["omniscient"] = {{"cost_mean", number(sweep.omniscient_cost->mean)}, {"cost_p95", number(sweep.omniscient_cost->p95)}};

    if (!json) {
        fmt::print("{}: {} ticks of {} h, spot available in {} of them\n", paths[0], traces[0].ticks(), tick,
                   traces[0].available_ticks());
        fmt::print("job: {} h compute, {} h deadline, {} h changeover; {} windows\n\n", job.compute_hours,
                   job.deadline_hours, job.changeover_hours, sweep.window_starts.size());
        fmt::print("{:<24}{:>10}{:>10}{:>8}{:>12}\n", "policy", "mean $", "P95 $", "misses", "gap closed");
        for (const auto& o : sweep.policies)
            fmt::print("{:<24}{:>10.2f}{:>10.2f}{:>8}{:>12.3f}\n", to_string(o.policy), o.cost.mean, o.cost.p95,
                       o.deadline_misses, o.gap_closed);
        fmt::print("{:<24}{:>10.2f}{:>10.2f}\n", "omniscient", sweep.omniscient_cost->mean, sweep.omniscient_cost->p95);
    }

    if (traces.size() >= 2) {
        std::vector<SpotRegion> regions;
        for (std::size_t i = 0; i < traces.size(); ++i) {
            SpotAvailability first = traces[i].window(0, sweep.window_trace_ticks);
            if (first.tick_hours != job.tick_hours) first = first.resampled(job.tick_hours);
            regions.push_back({paths[i], first, spot_per_hour * (1 + 0.1 * static_cast<double>(i))});
        }
        if (!json) fmt::print("\nfirst window, {} regions:\n", regions.size());
        doc["regions"] = nlohmann::ordered_json::array();
        for (const RegionPolicy p : {RegionPolicy::skypilot_failover, RegionPolicy::skypilot_eager_next_region,
                                     RegionPolicy::uniform_progress}) {
            const auto r = simulate_multi_region(job, regions, p, on_demand_per_hour);
            doc["regions"].push_back({{"policy", to_string(p)}, {"cost", number(r.run.cost)}, {"moves", r.moves},
                                      {"finish_hours", number(r.run.finish_hours)}, {"met_deadline", r.run.met_deadline}});
            if (!json)
                fmt::print("{:<28}${:>8.2f}  {} moves, finished at {} h{}\n", to_string(p), r.run.cost, r.moves,
                           r.run.finish_hours, r.run.met_deadline ? "" : " (LATE)");
        }
        const double omniscient = omniscient_multi_region_cost(job, regions, on_demand_per_hour);
        doc["regions_omniscient_cost"] = number(omniscient);
        if (!json) fmt::print("{:<28}${:>8.2f}\n", "omniscient", omniscient);
    }
    if (json) fmt::print("{}\n", doc.dump(1));
    return 0;
}
