#pragma once
// `gputco report` and gputco.report(): scenarios' results as one self-contained HTML page. A summary
// first (per scenario the cheapest strategy, plan, policy or offering: its expected cost, P95 and
// savings against all on-demand), then each result's table in the columns app/columns.hpp declares
// and its chart, then the prices and assumptions with their sources and dates, and the scenario as
// loaded with the gputco version, to reproduce the page. The page is a function of its inputs (no
// clock, no network): the same scenarios give the same bytes.
//
//   std::vector<ReportInput> in{{path, s, run_scenario(s)}};
//   write_file_atomically("report.html", scenario_report(in, "0.4.0", "gputco report a.yaml -o report.html"));
#include <string>
#include <vector>

#include "gputco/scenario/scenario.hpp"

namespace gputco {

/// One number of the summary and where it comes from, so a test can recompute it from the result:
/// `source` is "<result>/<row>/<column>" (result: strategies, spot_jobs, plans, deadline_jobs,
/// workloads; row: its index in that result's table; column: a name from app/columns.hpp), or
/// "A - B" or "(A - B) / A" of two such.
struct SummaryFigure {
    std::string label;  ///< "expected cost", "P95", "all on-demand", "savings", "savings fraction", ...
    double value = 0;
    std::string unit;   ///< "currency", "fraction" (shown as a percentage), "hours"
    std::string source;
};

/// One card of the summary: what was chosen among a result's rows and its figures.
struct Headline {
    std::string result;    ///< strategies, spot_jobs, plans, recommend, deadline_jobs, workloads, services, llm_training, llm_serving
    std::string heading;   ///< "Cheapest strategy", "Spot job train-500h", ...
    std::string choice;    ///< the row chosen: a strategy's or plan's name, a policy, an offering
    std::string currency;
    std::vector<SummaryFigure> figures;
    std::string note;      ///< how it was chosen and what the baseline is
};

/// The summary of a scenario's result: the cheapest strategy (least total) and plan (least mean
/// total; against the plan without commitments, spot or owned GPUs, if one is compared); each spot
/// job's cost; each deadline job's cheapest policy (the omniscient bound aside; against
/// on_demand_only if run); each workload's cheapest way per run (against its cheapest on-demand row).
std::vector<Headline> headlines(const Scenario& scenario, const ScenarioResult& result);

/// The summary of one scenario as the page shows it: a list of cards (<ul class="cards">), each
/// figure a <data> element whose value is the exact number and whose data-source is its source.
std::string summary_cards(const Scenario& scenario, const ScenarioResult& result);

struct ReportInput {
    std::string file;  ///< as given on the command line ("-" for standard input)
    Scenario scenario;
    ScenarioResult result;
};

/// The page. `version`: the gputco version that made it; `command`: the command line that makes it again.
std::string scenario_report(const std::vector<ReportInput>& inputs, const std::string& version, const std::string& command);

}  // namespace gputco
