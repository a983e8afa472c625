// "Last quarter's bill → next three years' plan": a team's AWS cost export for a quarter (FOCUS 1.2,
// hourly, gzip) goes in; out come the bill's FinOps figures, its GPU series, and the plan of least
// expected cost for the next 36 months on p4d.24xlarge (1- and 3-year all-upfront reservations, the
// rest on demand) fitted to futures bootstrapped from the bill's own history, judged on fresh futures
// beside all on demand and the providers' 7/30/60-day lookback advice on the same history. One call
// does it, recommend_from_bill (app/bill_plan.hpp), the one `gputco recommend --bill` and Python's
// gputco.recommend_from_bill run; every table is printed in the library's columns. The plan starts from
// the commitments the bill shows in force: its Compute Savings Plan, held with its upfront sunk.
//
//   bill_to_plan [FILE] [--contracts FILE] [--futures N] [--held-out M] [--seed S] [--json]
//
// FILE defaults to examples/data/focus_aws_quarter.csv.gz (made by examples/data/make_focus_quarter.py);
// --contracts reads a FOCUS 1.3 Contract Commitment file (examples/data/focus_aws_contract_commitments.csv
// gives the Savings Plan its real term, bought 2026-03-01, instead of one assumed from its first row).
// The defaults (200 fitted, 400 held-out futures) run in well under a second; more narrow the error bars.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gputco/app/bill_plan.hpp>
#include <gputco/gputco.hpp>

#include "json_rows.hpp"

using namespace gputco;

#ifndef GPUTCO_EXAMPLE_DATA_DIR
#define GPUTCO_EXAMPLE_DATA_DIR "examples/data"
#endif

namespace {

/// A cell as text: money and counts whole above 1,000, fractions to 4 places, none as "-".
template <class Row>
std::string cell_text(const Column<Row>& column, const Cell& cell) {
    if (const auto* s = std::get_if<std::string>(&cell)) return *s;
    if (const auto* b = std::get_if<bool>(&cell)) return *b ? "yes" : "no";
    if (const auto* i = std::get_if<long long>(&cell)) return fmt::format("{}", *i);
    if (const auto* d = std::get_if<double>(&cell)) {
        if (column.unit == "fraction") return fmt::format("{:.4f}", *d);
        return std::abs(*d) >= 1000 ? fmt::format("{:.0f}", *d) : fmt::format("{:.4g}", *d);
    }
    return "-";
}

/// A table of few rows, one line per column: name, unit, a value per row.
template <class Row>
void print_by_column(std::FILE* out, const std::vector<Column<Row>>& columns, const std::vector<Row>& rows) {
    for (const auto& c : columns) {
        std::string line = fmt::format("  {:<46}", fmt::format("{}{}", c.name, c.unit.empty() ? "" : fmt::format(" ({})", c.unit)));
        for (const Row& r : rows) line += fmt::format(" {:>24}", cell_text(c, c.get(r)));
        fmt::print(out, "{}\n", line);
    }
}

/// A table of many rows, one line per row; text columns last (they are the long ones).
template <class Row>
void print_by_row(std::FILE* out, const std::vector<Column<Row>>& columns, const std::vector<Row>& rows) {
    std::vector<const Column<Row>*> order;
    for (const auto& c : columns)
        if (c.dtype != Dtype::text) order.push_back(&c);
    for (const auto& c : columns)
        if (c.dtype == Dtype::text) order.push_back(&c);
    std::vector<std::size_t> width;
    for (const auto* c : order) {
        std::size_t w = c->name.size();
        for (const Row& r : rows) w = std::max(w, cell_text(*c, c->get(r)).size());
        width.push_back(w);
    }
    std::string header = " ";
    for (std::size_t i = 0; i < order.size(); ++i)
        header += order[i]->dtype == Dtype::text ? fmt::format(" {:<{}}", order[i]->name, width[i])
                                                : fmt::format(" {:>{}}", order[i]->name, width[i]);
    while (!header.empty() && header.back() == ' ') header.pop_back();
    fmt::print(out, "{}\n", header);
    for (const Row& r : rows) {
        std::string line = " ";
        for (std::size_t i = 0; i < order.size(); ++i)
            line += order[i]->dtype == Dtype::text ? fmt::format(" {:<{}}", cell_text(*order[i], order[i]->get(r)), width[i])
                                                  : fmt::format(" {:>{}}", cell_text(*order[i], order[i]->get(r)), width[i]);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        fmt::print(out, "{}\n", line);
    }
}

/// What a plan buys ("3y all_upfront × 4 instances @0 + ... + on-demand"), whatever its name.
std::string parts(const Plan& plan) {
    Plan unnamed = plan;
    unnamed.name.clear();
    return describe(unnamed);
}

}  // namespace

int main(int argc, char** argv) {
    std::string path = GPUTCO_EXAMPLE_DATA_DIR "/focus_aws_quarter.csv.gz";
    std::string contracts;
    BillPlanOptions plan_options;  // 36 months, 200 fitted futures, 400 held out, seed 1
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = true;
        else if (i + 1 < argc && std::strcmp(argv[i], "--futures") == 0) plan_options.futures = std::stoul(argv[++i]);
        else if (i + 1 < argc && std::strcmp(argv[i], "--held-out") == 0) plan_options.held_out = std::stoul(argv[++i]);
        else if (i + 1 < argc && std::strcmp(argv[i], "--seed") == 0) plan_options.seed = std::stoull(argv[++i]);
        else if (i + 1 < argc && std::strcmp(argv[i], "--contracts") == 0) contracts = argv[++i];
        else path = argv[i];
    }
    std::FILE* const out = example::text_sink(json);  // the text report; nowhere under --json
    try {
        const auto started = std::chrono::steady_clock::now();
        const Catalog& catalog = Catalog::builtin();
        Bill bill = read_bill(path, catalog);
        if (!contracts.empty()) bill.contract_commitments = read_contract_commitments(contracts);
        const double read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        fmt::print(out, "The bill: {} (FOCUS {}, {}), {} rows, {} of them GPU usage; read in {:.2f} s\n\n", bill.file,
                   to_text(bill.version), bill.currency, bill.rows_read, bill.gpu_rows, read_seconds);
        fmt::print(out, "FinOps figures (all rows | GPU rows; definitions in docs/models.md, section 11):\n");
        print_by_column(out, bill_figures_columns(), bill_figures_rows(bill));
        fmt::print(out, "\nGPU series:\n");
        print_by_column(out, bill_series_columns(), bill.series);
        fmt::print(out, "\nCommitments in the bill:\n");
        print_by_column(out, bill_commitment_columns(), bill.commitments);
        fmt::print(out, "\nCompute the plan leaves out (no GPU):\n");
        print_by_row(out, bill_unmatched_columns(), bill.unmatched);

        // The plan: 1- and 3-year all-upfront reservations in whole instances, reviewed every 6 months.
        const Offering& p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1");
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::all_upfront},
                               {.term_years = 3, .payment = Payment::all_upfront}};
        options.unit = CountUnit::instances;
        const auto planning = std::chrono::steady_clock::now();
        const BillPlan plan = recommend_from_bill(bill, p4d, options, plan_options);
        const double plan_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - planning).count();

        const DemandModel& m = plan.model;
        fmt::print(out, "\nHistory: {} whole months, {:.0f} GPU-hours of {}; monthly mean GPUs:", plan.history.horizon().month_count(),
                   plan.history.total_gpu_hours(), p4d.gpu);
        for (const double g : m.history_monthly_gpus) fmt::print(out, " {:.1f}", g);
        fmt::print(out, "\nFitted: {:.1f} GPUs now, month-to-month changes bootstrapped from the history, the history's\n"
                   "hour-of-week shape; {} futures fitted (seed {}), {} held out (seed {}) over {} months.\n",
                   m.base_gpus, plan_options.futures, plan_options.seed, plan_options.held_out, plan_options.seed + 1,
                   plan_options.horizon_months);
        fmt::print(out, "Planned on {} at {:.2f} {}/h on demand; solved and judged in {:.1f} s.\n\n", plan.offering.key(),
                   plan.offering.on_demand_hourly, plan.offering.currency, plan_seconds);
        // What it starts from: the reservations and Savings Plans the bill shows in force (the example's
        // Compute Savings Plan for 4 p4d instances, its upfront already paid), each with why.
        fmt::print(out, "Starting from the bill's commitments in force:\n");
        for (const std::string& note : plan.held_notes) fmt::print(out, "  {}\n", note);
        fmt::print(out, "Recommended: {}\n", parts(plan.study.recommendation.plan));
        fmt::print(out, "Its summary and FinOps figures on the held-out futures:\n");
        print_by_column(out, study_summary_columns(), std::vector<RecommendStudy>{plan.study});
        fmt::print(out, "\nAgainst what one would pick without it (held-out futures, {}):\n", plan.offering.currency);
        print_by_row(out, study_baseline_columns(), plan.study.baselines);

        if (json) {
            nlohmann::ordered_json doc;
            doc["bill"] = bill.file;
            doc["figures"] = example::rows_json(bill_figures_columns(), bill_figures_rows(bill));
            doc["series"] = example::rows_json(bill_series_columns(), bill.series);
            doc["commitments"] = example::rows_json(bill_commitment_columns(), bill.commitments);
            doc["unmatched"] = example::rows_json(bill_unmatched_columns(), bill.unmatched);
            doc["history_monthly_gpus"] = m.history_monthly_gpus;
            doc["offering"] = plan.offering.key();
            doc["horizon_months"] = plan_options.horizon_months;
            doc["futures"] = plan_options.futures;
            doc["held_out"] = plan_options.held_out;
            doc["seed"] = plan_options.seed;
            doc["held"] = plan.held_notes;
            doc["recommended"] = parts(plan.study.recommendation.plan);
            doc["summary"] = example::rows_json(study_summary_columns(), std::vector<RecommendStudy>{plan.study})[0];
            doc["baselines"] = example::rows_json(study_baseline_columns(), plan.study.baselines);
            fmt::print("{}\n", doc.dump(1));
        }
    } catch (const InvalidInput& e) {
        std::fprintf(stderr, "bill_to_plan: %s\n", e.what());
        return 1;
    }
    return 0;
}
