// The gputco command's work, from its arguments to its exit code (main.cpp only wires it to the process).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <gputco/app/bill_plan.hpp>
#include <gputco/app/columns.hpp>
#include <gputco/app/spot_job.hpp>
#include <gputco/core/atomic_file.hpp>
#include <gputco/gputco.hpp>
#include <gputco/report/compare_report.hpp>
#include <gputco/report/scenario_report.hpp>
#include <gputco/scenario/scenario.hpp>

#include "bill_commands.hpp"
#include "command.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "threshold.hpp"

using namespace gputco;
using gputco::cli::Table;

namespace {

// Where run_command() writes and what stops it (one command at a time).
std::FILE* out_file = stdout;
std::FILE* err_file = stderr;
StopCheck stop_check;

/// The tables of a scenario's results, in the columns the library declares (app/columns.hpp).
struct ResultTables {
    Table strategies, spot, plans, deadline, workloads;
    Table services;
    Table llm_training, llm_serving;
    Table recommend_summary, recommend_baselines, recommend_frontier;  // the `recommend` section's study
};

ResultTables tables_of(const Scenario& s, const ScenarioResult& result) {
    static const std::vector<std::string> default_outputs{"total", "npv", "savings", "savings_fraction", "p95"};
    std::vector<std::string> strategy_outputs{"strategy", "currency"};
    for (const auto& o : s.outputs.empty() ? default_outputs : s.outputs) strategy_outputs.push_back(o);
    std::vector<DeadlineRow> deadline;
    for (const auto& j : result.deadline_jobs)
        for (auto& r : deadline_rows(j)) deadline.push_back(std::move(r));
    std::vector<WorkloadRow> workloads;
    for (const auto& w : result.workloads)
        for (const auto& r : workload_rows(w)) workloads.push_back(r);
    std::vector<ServiceRow> services;
    for (const auto& v : result.services)
        for (auto& r : service_rows(v)) services.push_back(std::move(r));
    ResultTables t{cli::table_of(strategy_columns(), result.strategies, strategy_outputs),
            cli::table_of(spot_job_columns(), result.spot_jobs), cli::table_of(plan_columns(), result.plans),
            cli::table_of(deadline_columns(), deadline), cli::table_of(workload_columns(), workloads),
            cli::table_of(service_columns(), services),
            cli::table_of(llm_training_job_columns(), llm_job_rows(result.llm_training)),
            cli::table_of(llm_serving_job_columns(), llm_job_rows(result.llm_serving))};
    if (result.recommend) {  // the tables of `gputco recommend` (app/recommend_study.hpp)
        t.recommend_summary = cli::table_of(study_summary_columns(), std::vector<RecommendStudy>{*result.recommend});
        t.recommend_baselines = cli::table_of(study_baseline_columns(), result.recommend->baselines);
        t.recommend_frontier = cli::table_of(study_frontier_columns(), result.recommend->frontier);
    }
    return t;
}

bool should_stop() { return stop_check && stop_check(); }

/// run_scenario with a progress bar on stderr when it is a terminal; the bar's line is cleared after.
ScenarioResult run_with_progress(const Scenario& s) {
    cli::ProgressBar bar(err_file);
    try {
        ScenarioResult result = run_scenario(s, should_stop,
                                             [&](const std::string& task, std::size_t done, std::size_t total,
                                                 std::string_view unit) { bar.update(task, done, total, unit); });
        bar.finish();
        return result;
    } catch (...) {
        bar.finish();
        throw;
    }
}

void print(const std::string& text) { std::fputs(text.c_str(), out_file); }

/// The defaults that change a scenario's answer, said above its tables: how capacity is bought and
/// how each mix rounds its shares.
std::string assumptions_line(const Scenario& s) {
    std::string line = fmt::format("Bought in: {}", to_text(s.units));
    std::vector<std::string> mixes;
    for (const NamedStrategy& named : s.strategies)
        if (const Mix* mix = std::get_if<Mix>(&named.strategy))
            mixes.push_back(fmt::format("{} ({})", to_text(mix->rounding), named.name));
    if (!mixes.empty()) line += fmt::format("; mix shares rounded: {}", fmt::join(mixes, ", "));
    return line;
}

/// A scenario file, or standard input for "-".
Scenario load(const std::string& path) {
    if (path != "-") return load_scenario(path);
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return parse_scenario(text, "<stdin>");
}

/// Every file's results; JSON: one object per file (an array when several are given).
int run(const std::vector<std::string>& paths, const std::string& format) {
    nlohmann::ordered_json documents = nlohmann::ordered_json::array();
    bool first = true;
    for (const std::string& path : paths) {
        const Scenario s = load(path);
        const ScenarioResult result = run_with_progress(s);
        const ResultTables t = tables_of(s, result);
        if (format == "json") {
            nlohmann::ordered_json doc;
            doc["scenario"] = s.name;
            doc["file"] = path;
            doc["units"] = std::string(to_text(s.units));
            doc["spot_jobs"] = cli::to_json(t.spot);
            doc["deadline_jobs"] = cli::to_json(t.deadline);
            doc["strategies"] = cli::to_json(t.strategies);
            doc["plans"] = cli::to_json(t.plans);
            doc["workloads"] = cli::to_json(t.workloads);
            if (!result.services.empty()) doc["services"] = cli::to_json(t.services);
            if (!result.llm_training.empty()) doc["llm_training"] = cli::to_json(t.llm_training);
            if (!result.llm_serving.empty()) doc["llm_serving"] = cli::to_json(t.llm_serving);
            if (result.recommend) {
                nlohmann::ordered_json rec;
                rec["summary"] = cli::to_json(t.recommend_summary)[0];
                rec["baselines"] = cli::to_json(t.recommend_baselines);
                rec["frontier"] = cli::to_json(t.recommend_frontier);
                doc["recommend"] = std::move(rec);
            }
            documents.push_back(std::move(doc));
        } else {
            // Every table the scenario has, one blank line between tables and between files. CSV keeps
            // the order in which it used to print only the first (strategies, plans, spot jobs, deadline
            // jobs, services, workloads, LLM training, LLM serving), so its first table is unchanged;
            // it has no name or assumptions line.
            if (!first) print("\n");
            if (format == "table") print(fmt::format("{}\n", s.name));
            if (format != "csv") print(assumptions_line(s) + "\n\n");
            const std::vector<std::pair<bool, const Table*>> all =
                format == "csv" ? std::vector<std::pair<bool, const Table*>>{
                                      {!result.strategies.empty(), &t.strategies},
                                      {!result.plans.empty(), &t.plans},
                                      {!result.spot_jobs.empty(), &t.spot},
                                      {!result.deadline_jobs.empty(), &t.deadline},
                                      {!result.services.empty(), &t.services},
                                      {!result.workloads.empty(), &t.workloads},
                                      {!result.llm_training.empty(), &t.llm_training},
                                      {!result.llm_serving.empty(), &t.llm_serving},
                                      {result.recommend != nullptr, &t.recommend_summary},
                                      {result.recommend != nullptr, &t.recommend_baselines},
                                      {result.recommend && !result.recommend->frontier.empty(), &t.recommend_frontier}}
                                : std::vector<std::pair<bool, const Table*>>{
                                      {!result.spot_jobs.empty(), &t.spot},
                                      {!result.deadline_jobs.empty(), &t.deadline},
                                      {!result.strategies.empty(), &t.strategies},
                                      {!result.plans.empty(), &t.plans},
                                      {!result.workloads.empty(), &t.workloads},
                                      {!result.services.empty(), &t.services},
                                      {!result.llm_training.empty(), &t.llm_training},
                                      {!result.llm_serving.empty(), &t.llm_serving},
                                      {result.recommend != nullptr, &t.recommend_summary},
                                      {result.recommend != nullptr, &t.recommend_baselines},
                                      {result.recommend && !result.recommend->frontier.empty(), &t.recommend_frontier}};
            std::vector<std::string> parts;
            for (const auto& [present, table] : all)
                if (present) parts.push_back(cli::render(*table, format));
            print(fmt::format("{}", fmt::join(parts, "\n")));
        }
        first = false;
    }
    if (format == "json") print((paths.size() == 1 ? documents[0] : documents).dump(1) + "\n");
    return 0;
}

/// The scenarios' HTML report, to `output` (written whole or not at all) or standard output for "-".
int report(const std::vector<std::string>& paths, const std::string& output) {
    std::vector<ReportInput> inputs;
    for (const std::string& path : paths) {
        Scenario s = load(path);
        ScenarioResult result = run_with_progress(s);
        inputs.push_back({path, std::move(s), std::move(result)});
    }
    std::string command = "gputco report";
    for (const std::string& path : paths) command += " " + path;
    command += " -o " + output;
    const std::string page = scenario_report(inputs, GPUTCO_VERSION, command);
    if (output == "-") print(page);
    else write_file_atomically(output, page);
    return 0;
}

/// What moves between two scenarios (compare_results: every strategy and plan in both). The table,
/// JSON and CSV list the figures; markdown and html are the forms for a pull request
/// (compare_report.hpp), to `output` or standard output.
int compare(const std::string& before_path, const std::string& after_path, const std::string& format,
            const std::vector<std::string>& fail_above, const std::string& output) {
    std::vector<cli::ChangeLimit> limits;
    for (const auto& text : fail_above) limits.push_back(cli::ChangeLimit::parse(text));
    ReportInput before{before_path, load(before_path), {}};
    before.result = run_with_progress(before.scenario);
    ReportInput after{after_path, load(after_path), {}};
    after.result = run_with_progress(after.scenario);
    Table t;
    t.columns = {"strategy", "total_before", "total_after", "total_change", "npv_change", "p95_change"};
    std::vector<cli::LimitBreach> breaches;
    for (const ComparedRow& row : compare_results(before.result, after.result)) {
        if (!row.before) {  // rows in only one of the two files have nothing to compare: they never breach a limit
            t.rows.push_back({row.name + " (new)", Cell(), row.after->total, Cell(), Cell(), Cell()});
            continue;
        }
        if (!row.after) {
            t.rows.push_back({row.name + " (removed)", row.before->total, Cell(), Cell(), Cell(), Cell()});
            continue;
        }
        const auto& b = *row.before;
        const auto& a = *row.after;
        t.rows.push_back({row.name, b.total, a.total, a.total - b.total, a.npv - b.npv, a.p95 - b.p95});
        const std::pair<std::string, std::pair<double, double>> moves[] = {
            {"total", {b.total, a.total}}, {"npv", {b.npv, a.npv}}, {"p95", {b.p95, a.p95}}};
        for (const auto& [metric, values] : moves)
            for (const auto& limit : limits)
                if (std::find(limit.metrics.begin(), limit.metrics.end(), metric) != limit.metrics.end() &&
                    limit.exceeded(values.first, values.second))
                    breaches.push_back({row.name, metric, values.first, values.second, limit.shown()});
    }
    std::string text;
    if (format == "html") {
        text = compare_html(before, after, GPUTCO_VERSION,
                            fmt::format("gputco compare {} {} --format html -o {}", before_path, after_path, output));
    } else if (format == "markdown") {
        text = compare_markdown(before, after, GPUTCO_VERSION);
    } else {
        text = cli::render(t, format);
    }
    if (output == "-") print(text);
    else write_file_atomically(output, text);
    for (const auto& breach : breaches) fmt::print(err_file, "gputco: {}\n", cli::describe(breach));
    return breaches.empty() ? 0 : 3;
}

/// Today's date (UTC), the default date of the exchange rates.
Date today() { return Date::today(); }

/// The offerings Catalog.query finds (GPU names in any provider's spelling, by family), ranked by
/// on-demand price per GPU-hour in one currency at the dated rate shown in `conversion`.
int catalog(const OfferingQuery& criteria, const std::string& currency, const std::string& date, const std::string& file,
            const std::string& format, bool spread, bool every_region) {
    Catalog cat = Catalog::builtin();
    if (!file.empty()) {
        const Catalog mine = Catalog::from_json_file(file);
        // Two sources of one offering: the file's row replaces the built-in one; say so when they disagree.
        for (const PriceDisagreement& d : cross_check(Catalog::builtin(), mine)) {
            PriceDisagreement used = d;
            used.used = "second";  // overridden_by: the file wins, whatever the dates
            fmt::print(err_file, "gputco: warning: {} (the file's row replaces the built-in one)\n", used.message());
        }
        cat = cat.overridden_by(mine);
    }
    const Date at = date.empty() ? today() : Date::parse(date, "--rates-date");
    // Every region of an instance type only when a region is named or asked for: otherwise its cheapest.
    std::vector<Offering> found = gputco::query(cat, criteria);
    if (!every_region && criteria.region.empty()) found = cheapest_region_per_instance(found);
    const std::vector<RankedOffering> ranked = rank_by_gpu_hour_price(found, currency, ExchangeRates::builtin(), at);
    if (spread) {  // one row per GPU: min, median and max per GPU-hour across the offerings found
        Table t;
        t.columns = {"gpu", "offerings", "min_per_gpu_hour", "median_per_gpu_hour", "max_per_gpu_hour", "cheapest", "dearest",
                     "currency"};
        for (const GpuPriceSpread& g : price_spread(ranked))
            t.rows.push_back({g.gpu, (long long)g.offerings, g.min, g.median, g.max, g.cheapest, g.dearest, currency});
        if (format == "table") print(fmt::format("Price spread per GPU-hour in {} at the rates in force on {}\n", currency, at.iso()));
        print(cli::render(t, format));
        return 0;
    }
    Table t;
    t.columns = {"provider", "kind", "region", "instance_type", "gpu", "gpus", "currency", "on_demand_per_gpu_hour",
                 "spot_per_gpu_hour", "as_of", "price_age_days", "stale", "ranked_currency", "ranked_per_gpu_hour", "conversion"};
    std::size_t stale = 0;
    for (const RankedOffering& r : ranked) {
        const Offering& o = r.offering;
        // Per whole GPU-hour in the offering's currency, as the ranked column (a share's price is not one GPU's).
        const double gpus = whole_gpus_per_instance(o);
        stale += r.stale;
        t.rows.push_back({o.provider, std::string(to_string(provider_kind(o.provider))), o.region, o.instance_type, o.gpu,
                          (long long)o.gpus_per_instance, o.currency, o.on_demand_hourly / gpus,
                          o.spot_hourly ? Cell(*o.spot_hourly / gpus) : Cell(),
                          o.source.as_of, r.price_age_days ? Cell(*r.price_age_days) : Cell(), std::string(r.stale ? "yes" : ""),
                          r.currency, r.per_gpu_hour, r.conversion});
    }
    if (format == "table") print(fmt::format("Ranked in {} at the rates in force on {}\n", currency, at.iso()));
    print(cli::render(t, format));
    if (format == "table" && stale > 0)
        print(fmt::format("{} of {} prices are stale: older than {} days on {}, or undated\n", stale, ranked.size(),
                          stale_price_age_days, at.iso()));
    return 0;
}

/// One spot job from flags: Poisson interruptions, priced by the flags alone (continuous billing).
int spot(const SpotJobRequest& request, const std::string& format) {
    SpotJobRequest r = request;
    r.options.should_stop = should_stop;
    cli::ProgressBar bar(err_file);
    r.options.progress = [&](std::size_t done, std::size_t total) { bar.update("spot job spot", done, total, "paths"); };  // named as a scenario names its job
    SpotJobRun run = [&] {
        try {
            SpotJobRun out = run_spot_job(r);
            bar.finish();
            return out;
        } catch (...) {
            bar.finish();
            throw;
        }
    }();
    const std::vector<SpotJobResult> jobs{{"spot", run.checkpoint_interval_hours, std::move(run.result), run.pricing}};
    print(cli::render(cli::table_of(spot_job_columns(), jobs), format));
    return 0;
}

/// Standard output was not fully written (a full disk, a closed pipe): an error, not a success.
int finish_output(int code) {
    if (std::fflush(out_file) != 0 || std::ferror(out_file)) {
        fmt::print(err_file, "gputco: error: cannot write to standard output\n");
        return code == 0 ? 1 : code;
    }
    return code;
}

}  // namespace

int gputco::cli::run_command(int argc, const char* const* argv, std::FILE* out, std::FILE* err, StopCheck should_stop) {
    out_file = out;
    err_file = err;
    stop_check = std::move(should_stop);
    CLI::App app{"gputco: the total cost of renting GPUs, from scenario files"};
    app.set_version_flag("--version", std::string("gputco ") + GPUTCO_VERSION);
    app.require_subcommand(1);
    app.option_defaults()->always_capture_default();
    app.footer("A file \"-\" is standard input. Exit codes: 0 success, 1 unexpected error (or output that "
               "could not be written), 2 bad input, 3 compare: a change beyond --fail-above, 130 stopped by Ctrl-C.");
    std::string format = "table";
    const auto add_format = [&](CLI::App* sub) {
        sub->add_option("--format", format, "table, json, csv or markdown")
            ->check(CLI::IsMember({"table", "json", "csv", "markdown"}));
    };

    std::string scenario_path, other_path;
    std::vector<std::string> run_paths;
    CLI::App* run_cmd = app.add_subcommand("run", "run scenario files and report every strategy");
    run_cmd->add_option("scenarios", run_paths, "scenario files (YAML or JSON); - reads standard input")->required();
    add_format(run_cmd);

    CLI::App* compare_cmd = app.add_subcommand("compare", "what changes in total, NPV and P95 between two scenarios");
    compare_cmd->add_option("before", scenario_path, "the scenario as it was")->required();
    compare_cmd->add_option("after", other_path, "the scenario as it is")->required();
    compare_cmd->add_option("--format", format, "table, json, csv, markdown (a pull request comment, changes in bold) "
                                                "or html (a page, changes shaded)")
        ->check(CLI::IsMember({"table", "json", "csv", "markdown", "html"}));
    std::string compare_output = "-";
    compare_cmd->add_option("-o,--output", compare_output, "the file to write; - for standard output");
    std::vector<std::string> fail_above;
    compare_cmd->add_option("--fail-above", fail_above,
                            "exit with code 3 when total, NPV or P95 of a strategy moves by more than this: "
                            "an amount (500) or a percentage of the value before (2.5%), for one figure "
                            "with total:, npv: or p95: in front (p95:5%); may be repeated");

    std::vector<std::string> report_paths;
    std::string report_output = "-";
    CLI::App* report_cmd = app.add_subcommand("report", "run scenario files and write one self-contained HTML page "
                                                        "(summary, tables, charts, prices with their sources)");
    report_cmd->add_option("scenarios", report_paths, "scenario files; - reads standard input")->required();
    report_cmd->add_option("-o,--output", report_output, "the HTML file to write; - for standard output");

    std::vector<std::string> validate_paths;
    CLI::App* validate_cmd = app.add_subcommand("validate", "check scenario files without running them");
    validate_cmd->add_option("scenarios", validate_paths, "scenario files; - reads standard input")->required();

    OfferingQuery query;
    double min_memory = 0;
    std::string catalog_file, currency = "USD", rates_date;
    CLI::App* catalog_cmd = app.add_subcommand("catalog", "list offerings, cheapest per GPU-hour first, in one currency");
    catalog_cmd->add_option("--gpu", query.gpu, "GPU name in any spelling, matched by family: a100, A100-80GB, Tesla T4");
    catalog_cmd->add_option("--provider", query.provider, "provider, e.g. aws");
    catalog_cmd->add_option("--region", query.region, "region, e.g. us-east-1");
    std::string provider_kind_text;
    catalog_cmd->add_option("--provider-kind", provider_kind_text, "hyperscaler, neocloud or marketplace");
    catalog_cmd->add_option("--min-memory-gb", min_memory, "least GPU memory in GB");
    catalog_cmd->add_option("--catalog", catalog_file, "a catalog JSON file overriding the built-in rows");
    catalog_cmd->add_option("--currency", currency, "rank every price in this currency");
    catalog_cmd->add_option("--rates-date", rates_date, "convert at the exchange rates in force on this date "
                                                       "(YYYY-MM-DD; default today)");
    bool spread = false;
    catalog_cmd->add_flag("--spread", spread, "one row per GPU: min, median and max per GPU-hour across the offerings");
    bool every_region = false;
    catalog_cmd->add_flag("--every-region", every_region,
                          "list every region of an instance type (default: its cheapest region, unless --region is given)");
    add_format(catalog_cmd);

    SpotJobRequest spot_request;
    double mtbf_hours = 0, price = 0;
    CLI::App* spot_cmd = app.add_subcommand("spot", "simulate one spot job (Poisson interruptions), priced by the "
                                                    "flags alone, billed continuously");
    spot_cmd->add_option("--work-hours", spot_request.job.work_hours, "useful work, hours")->required()->default_str("");
    spot_cmd->add_option("--mtbf-hours", mtbf_hours, "mean time between interruptions, hours")->required()->default_str("");
    spot_cmd->add_option("--price", price, "spot price per hour")->required()->default_str("");
    spot_cmd->add_option("--checkpoint-write-hours", spot_request.job.checkpoint_write_hours, "time to write a checkpoint");
    spot_cmd->add_option("--checkpoint-interval-hours", spot_request.job.checkpoint_interval_hours,
                         "work between checkpoints (0: the optimal interval for the MTBF)");
    spot_cmd->add_option("--restart-hours", spot_request.job.restart_hours, "reload after an interruption, billed");
    spot_cmd->add_option("--capacity-wait-hours", spot_request.job.capacity_wait_hours, "wait for capacity, not billed");
    spot_request.options.paths = 20000;
    spot_cmd->add_option("--paths", spot_request.options.paths, "Monte Carlo paths");
    spot_cmd->add_option("--seed", spot_request.options.seed, "random seed");
    add_format(spot_cmd);

    std::string bill_path;
    CLI::App* bill_cmd = app.add_subcommand("bill", "read a FOCUS cost export (CSV, gzip or not): FinOps figures, "
                                                    "GPU series, commitments, unmatched SKUs");
    bill_cmd->add_option("file", bill_path, "the FOCUS 1.0-1.3 export")->required();
    std::string contracts_path;
    bill_cmd->add_option("--contracts", contracts_path, "a FOCUS 1.3 Contract Commitment file: the commitments' terms");
    bill_cmd->add_option("--catalog", catalog_file, "a catalog JSON file overriding the built-in rows");
    add_format(bill_cmd);

    std::string offering_text;
    std::vector<std::string> commitment_texts;
    RecommendOptions recommend_options;
    BillPlanOptions bill_plan;
    double cvar95_limit = 0;
    double capacity_assurance = 0;
    std::string baseline_payment = std::string(to_text(bill_plan.baseline_payment));
    CLI::App* recommend_cmd = app.add_subcommand(
        "recommend", "recommend a plan from a FOCUS bill: futures fitted to its GPU history, judged on fresh ones "
                     "beside all on demand and the providers' 7/30/60-day advice");
    recommend_cmd->add_option("--bill", bill_path, "the FOCUS export the history comes from")->required();
    recommend_cmd->add_option("--contracts", contracts_path,
                              "a FOCUS 1.3 Contract Commitment file: the held commitments' real terms");
    recommend_cmd->add_option("--offering", offering_text, "provider/instance_type[/region], e.g. aws/p4d.24xlarge/us-east-1")
        ->required();
    recommend_cmd->add_option("--catalog", catalog_file, "a catalog JSON file overriding the built-in rows");
    recommend_cmd->add_option("--gpu", bill_plan.gpu, "the history's GPU (default: the offering's)");
    recommend_cmd->add_option("--horizon-months", bill_plan.horizon_months, "months ahead to plan");
    recommend_cmd->add_option("--futures", bill_plan.futures, "futures the plan is fitted to");
    recommend_cmd->add_option("--held-out", bill_plan.held_out, "fresh futures it is judged on");
    recommend_cmd->add_option("--seed", bill_plan.seed, "random seed (fitted futures; held out: seed + 1)");
    recommend_cmd->add_flag("--bill-rates", bill_plan.bill_rates, "price the offering at what the bill paid for it");
    recommend_cmd->add_option("--commitment", commitment_texts,
                              "a commitment the plan may buy, <years>y:<payment> (1y:all_upfront); may be repeated; "
                              "default: every reservation the offering lists");
    recommend_cmd->add_option("--review-months", recommend_options.review_months, "commitments may start every this many months");
    double resale_price_share = 0;
    std::vector<std::string> exchange_texts;
    recommend_cmd->add_option("--resale-price-share", resale_price_share,
                              "sell a standard reservation held on the Reserved Instance Marketplace where it pays, "
                              "asking this share of its prorated upfront left")
        ->default_str("none");  // applied only when given
    recommend_cmd->add_option("--exchange-into", exchange_texts,
                              "exchange a convertible reservation held for one of <years>y:<payment> where it pays; "
                              "may be repeated");
    recommend_cmd->add_flag("--refund", recommend_options.changes.refund,
                            "refund a reservation held (Azure, within its yearly cap) where it pays");
    std::vector<std::string> azure_exchange_texts;
    recommend_cmd->add_option("--azure-exchange-into", azure_exchange_texts,
                              "exchange a reservation held the Azure way (its upfront left refunded, the new one bought "
                              "in full) for one of <years>y:<payment> where it pays; may be repeated");
    recommend_cmd->add_option("--cvar95-limit", cvar95_limit, "at most this mean cost of the worst 5% of futures")
        ->default_str("none");  // applied only when given
    recommend_cmd->add_option("--capacity-assurance", capacity_assurance,
                              "at least this share of demanded GPU-hours served by capacity that is there")
        ->default_str("none");  // applied only when given
    recommend_cmd->add_option("--on-demand-unavailable", recommend_options.on_demand_capacity.unavailable_share,
                              "share of time on-demand capacity is not there (an assumption)");
    recommend_cmd->add_option("--baseline-term-years", bill_plan.baseline_term_years, "the baselines' reservation term");
    recommend_cmd->add_option("--baseline-payment", baseline_payment, "the baselines' payment");
    add_format(recommend_cmd);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::ostringstream out_text, err_text;  // help, version or the error, to out and err
        const int code = app.exit(e, out_text, err_text);
        std::fputs(out_text.str().c_str(), out_file);
        std::fputs(err_text.str().c_str(), err_file);
        return finish_output(code == 0 ? 0 : 2);
    }
    int code = 1;
    try {
        if (run_cmd->parsed()) code = run(run_paths, format);
        else if (report_cmd->parsed()) code = report(report_paths, report_output);
        else if (compare_cmd->parsed()) code = compare(scenario_path, other_path, format, fail_above, compare_output);
        else if (catalog_cmd->parsed()) {
            if (min_memory > 0) query.min_gpu_memory_gb = min_memory;
            if (!provider_kind_text.empty()) query.provider_kind = parse<ProviderKind>(provider_kind_text, "--provider-kind");
            code = catalog(query, currency, rates_date, catalog_file, format, spread, every_region);
        } else if (validate_cmd->parsed()) {
            code = 0;
            for (const auto& path : validate_paths) {
                try {
                    load(path);
                    fmt::print(out_file, "{}: ok\n", path);
                } catch (const InvalidInput& e) {
                    fmt::print(err_file, "{}\n", e.what());
                    code = 2;
                }
            }
        } else if (bill_cmd->parsed()) {
            code = cli::bill_command(bill_path, contracts_path, catalog_file, format, out_file);
        } else if (recommend_cmd->parsed()) {
            for (const auto& text : commitment_texts) recommend_options.commitments.push_back(cli::commitment_option(text));
            for (const auto& text : exchange_texts)
                recommend_options.changes.exchange_into.push_back(cli::commitment_option(text, "--exchange-into"));
            for (const auto& text : azure_exchange_texts)
                recommend_options.changes.azure_exchange_into.push_back(
                    cli::commitment_option(text, "--azure-exchange-into"));
            if (recommend_cmd->count("--resale-price-share") > 0)
                recommend_options.changes.resale_price_share = resale_price_share;
            if (recommend_cmd->count("--cvar95-limit") > 0) recommend_options.limits.cvar95 = cvar95_limit;
            if (recommend_cmd->count("--capacity-assurance") > 0)
                recommend_options.limits.capacity_assurance = capacity_assurance;
            bill_plan.baseline_payment = parse_payment(baseline_payment, "--baseline-payment");
            recommend_options.plan_options.should_stop = stop_check;
            code = cli::recommend_command(bill_path, contracts_path, offering_text, catalog_file, recommend_options,
                                          bill_plan, format, out_file, err_file);
        } else if (spot_cmd->parsed()) {
            spot_request.model = Poisson{.mtbf_hours = mtbf_hours};
            spot_request.prices.price_per_hour = price;
            code = spot(spot_request, format);
        }
    } catch (const Cancelled&) {
        fmt::print(err_file, "gputco: stopped\n");
        code = 130;
    } catch (const InvalidInput& e) {
        fmt::print(err_file, "gputco: {}\n", e.what());
        code = 2;
    } catch (const std::exception& e) {
        fmt::print(err_file, "gputco: error: {}\n", e.what());
        code = 1;
    }
    return finish_output(code);
}
