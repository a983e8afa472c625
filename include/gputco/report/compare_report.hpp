#pragma once
// `gputco compare`: what moves between two scenarios, per strategy and plan, as the command's table
// and as a page or a Markdown comment for a pull request with the changes marked.
#include <optional>
#include <string>
#include <vector>

#include "gputco/report/scenario_report.hpp"

namespace gputco {

/// One strategy's (or plan's, named "plan <name>": mean total, mean NPV, P95 of the total) figures
/// before and after; a side is empty when the row is in one file only.
struct ComparedRow {
    std::string name;
    struct Figures {
        double total = 0, npv = 0, p95 = 0;
    };
    std::optional<Figures> before, after;
};

/// The rows in both files (in the after file's order), then those only after, then those only before.
std::vector<ComparedRow> compare_results(const ScenarioResult& before, const ScenarioResult& after);

/// The comparison as Markdown for a pull request comment: a table of before, after and change of each
/// figure, changes in bold with ▲ (up) or ▼ (down), rows in one file only marked new or removed.
std::string compare_markdown(const ReportInput& before, const ReportInput& after, const std::string& version);

/// The same as a self-contained page: both scenarios' summaries side by side, the table with each
/// change shaded (up or down), and the lines of the scenarios' inputs that differ.
std::string compare_html(const ReportInput& before, const ReportInput& after, const std::string& version,
                         const std::string& command);

}  // namespace gputco
