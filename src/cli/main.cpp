// gputco: run, compare and check scenario files; browse the catalog; simulate a spot job.
//
// Exit codes: 0 success; 1 unexpected error; 2 bad input (a scenario that does not load, bad flags);
// 3 compare: a figure moved beyond a --fail-above limit; 130 stopped by Ctrl-C.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <gputco/gputco.hpp>
#include <gputco/scenario/scenario.hpp>

#include "output.hpp"
#include "progress.hpp"
#include "threshold.hpp"

using namespace gputco;
using gputco::cli::Table;

namespace {

std::atomic<bool> interrupted{false};
extern "C" void on_sigint(int) { interrupted.store(true); }

std::string money(double v) { return std::isfinite(v) ? fmt::format("{:.2f}", v) : fmt::format("{}", v); }
std::string ratio(double v) { return std::isfinite(v) ? fmt::format("{:.4f}", v) : fmt::format("{}", v); }

double p95(const CostReport& r) { return r.spread ? r.spread->p95 : r.total; }

std::string cell(const CostReport& r, const std::string& output) {
    if (output == "total") return money(r.total);
    if (output == "npv") return money(r.npv);
    if (output == "savings") return money(r.savings);
    if (output == "savings_fraction") return ratio(r.savings_fraction);
    if (output == "baseline_total") return money(r.baseline_total);
    // A figure that does not apply is an empty cell (null in JSON).
    if (output == "cost_per_used_gpu_hour") return r.effective_cost_per_used_gpu_hour ? ratio(*r.effective_cost_per_used_gpu_hour) : "";
    if (output == "break_even_utilisation") return r.break_even_utilisation ? ratio(*r.break_even_utilisation) : "";
    return money(p95(r));  // p95
}

Table strategy_table(const Scenario& s, const ScenarioResult& result) {
    const std::vector<std::string> outputs =
        s.outputs.empty() ? std::vector<std::string>{"total", "npv", "savings", "savings_fraction", "p95"} : s.outputs;
    Table t;
    t.columns = {"strategy", "currency"};
    t.columns.insert(t.columns.end(), outputs.begin(), outputs.end());
    for (const auto& [name, report] : result.strategies) {
        std::vector<std::string> row{name, report.currency};
        for (const auto& o : outputs) row.push_back(cell(report, o));
        t.rows.push_back(std::move(row));
    }
    return t;
}

Table spot_table(const std::vector<SpotJobResult>& jobs) {
    Table t;
    t.columns = {"job", "checkpoint_interval_hours", "paths", "seed", "wall_hours_mean", "billed_hours_mean",
                 "cost_mean", "cost_std_error", "cost_p95", "interruptions_mean", "deadline_miss_probability"};
    for (const auto& j : jobs) {
        const SpotResult& r = j.result;
        t.rows.push_back({j.name, ratio(j.checkpoint_interval_hours), std::to_string(r.paths), std::to_string(r.seed),
                          ratio(r.wall_hours.mean), ratio(r.billed_hours.mean), money(r.cost.mean),
                          ratio(r.cost.standard_error), money(r.cost.p95), ratio(r.interruptions.mean),
                          ratio(r.deadline_miss_probability)});
    }
    return t;
}

Table deadline_table(const std::vector<DeadlineJobResult>& jobs) {
    Table t;
    t.columns = {"deadline_job", "policy", "paths", "seed", "cost_mean", "cost_std_error", "cost_p95",
                 "deadline_miss_probability"};
    for (const DeadlineJobResult& j : jobs) {
        const DeadlineComparison& c = j.comparison;
        for (const DeadlinePolicyOutcome& p : c.policies)
            t.rows.push_back({j.name, std::string(to_string(p.policy)), std::to_string(c.paths), std::to_string(c.seed),
                              money(p.cost.mean), ratio(p.cost.standard_error), money(p.cost.p95),
                              ratio(p.deadline_miss_probability)});
        if (c.omniscient_cost)
            t.rows.push_back({j.name, "omniscient", std::to_string(c.paths), std::to_string(c.seed),
                              money(c.omniscient_cost->mean), ratio(c.omniscient_cost->standard_error),
                              money(c.omniscient_cost->p95), ratio(0)});
    }
    return t;
}

Table plan_table(const std::vector<PlanDistribution>& plans) {
    Table t;
    t.columns = {"plan", "currency", "futures", "total_mean", "total_std_error", "total_p5", "total_p50", "total_p95",
                 "total_cvar95", "npv_mean", "regret_mean", "best_fraction", "committed_utilisation"};
    for (const PlanDistribution& d : plans)
        t.rows.push_back({d.plan, d.currency, std::to_string(d.futures.size()), money(d.total.mean),
                          money(d.total.standard_error), money(d.total.p5), money(d.total.p50), money(d.total.p95),
                          money(d.total.cvar95), money(d.npv.mean), money(d.regret.mean), ratio(d.best_fraction),
                          ratio(d.committed_utilisation)});
    return t;
}

/// Cost per unit of work: one row per workload and way of running it, cheapest run first.
Table workload_table(const std::vector<WorkloadResult>& workloads) {
    Table t;
    t.columns = {"workload", "provider", "region", "instance_type", "gpus", "buying", "terms", "currency",
                 "price_per_hour", "throughput_per_second", "run_hours", "run_hours_p95", "cost_per_epoch",
                 "cost_per_run", "cost_per_run_p95", "cost_per_run_std_error", "cost_per_million",
                 "probability_within_deadline"};
    for (const WorkloadResult& w : workloads)
        for (const WorkCostRow& r : w.ranking.rows)
            t.rows.push_back({w.name, r.provider, r.region, r.instance_type, std::to_string(r.gpus),
                              std::string(to_text(r.buying)), r.terms, r.currency, ratio(r.price_per_hour),
                              ratio(r.throughput_per_second), ratio(r.run_hours), ratio(r.run_hours_p95),
                              money(r.cost_per_epoch), money(r.cost_per_run), money(r.cost_per_run_p95),
                              ratio(r.cost_per_run_standard_error), ratio(r.cost_per_million),
                              ratio(r.probability_within_deadline)});
    return t;
}

bool should_stop() { return interrupted.load(); }

/// run_scenario with a progress bar on stderr when it is a terminal; the bar's line is cleared after.
ScenarioResult run_with_progress(const Scenario& s) {
    cli::ProgressBar bar(stderr);
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

void print(const std::string& text) { std::fputs(text.c_str(), stdout); }

int run(const std::string& path, const std::string& format) {
    const Scenario s = load_scenario(path);
    const ScenarioResult result = run_with_progress(s);
    const Table strategies = strategy_table(s, result);
    const Table spot = spot_table(result.spot_jobs);
    const Table plans = plan_table(result.plans);
    const Table deadline = deadline_table(result.deadline_jobs);
    const Table workloads = workload_table(result.workloads);
    if (format == "json") {
        print(fmt::format("{{\"scenario\": \"{}\",\n\"spot_jobs\": {},\n\"deadline_jobs\": {},\n\"strategies\": {},\n"
                          "\"plans\": {},\n\"workloads\": {}}}\n",
                          s.name, cli::render(spot, "json"), cli::render(deadline, "json"), cli::render(strategies, "json"),
                          cli::render(plans, "json"), cli::render(workloads, "json")));
    } else if (format == "csv") {  // one table: strategies, else plans, else spot jobs, else deadline jobs, else workloads
        print(cli::render(!result.strategies.empty()    ? strategies
                          : !result.plans.empty()         ? plans
                          : !result.spot_jobs.empty()     ? spot
                          : !result.deadline_jobs.empty() ? deadline
                                                          : workloads,
                          "csv"));
    } else {
        if (format == "table") print(fmt::format("{}\n\n", s.name));
        std::vector<std::string> parts;
        if (!result.spot_jobs.empty()) parts.push_back(cli::render(spot, format));
        if (!result.deadline_jobs.empty()) parts.push_back(cli::render(deadline, format));
        if (!result.strategies.empty()) parts.push_back(cli::render(strategies, format));
        if (!result.plans.empty()) parts.push_back(cli::render(plans, format));
        if (!result.workloads.empty()) parts.push_back(cli::render(workloads, format));
        print(fmt::format("{}", fmt::join(parts, "\n")));
    }
    return 0;
}

/// What compare compares: total, NPV and P95 of each strategy, and of each plan (means over its
/// futures, P95 of its total), the plans under "plan <name>".
struct Figures {
    std::string name;
    double total = 0, npv = 0, p95 = 0;
};

std::vector<Figures> figures(const ScenarioResult& result) {
    std::vector<Figures> out;
    for (const auto& [name, report] : result.strategies) out.push_back({name, report.total, report.npv, p95(report)});
    for (const PlanDistribution& d : result.plans)
        out.push_back({"plan " + d.plan, d.total.mean, d.npv.mean, d.total.p95});
    return out;
}

int compare(const std::string& before_path, const std::string& after_path, const std::string& format,
            const std::vector<std::string>& fail_above) {
    std::vector<cli::ChangeLimit> limits;
    for (const auto& text : fail_above) limits.push_back(cli::ChangeLimit::parse(text));
    const std::vector<Figures> before = figures(run_with_progress(load_scenario(before_path)));
    const std::vector<Figures> after = figures(run_with_progress(load_scenario(after_path)));
    const auto find = [](const std::vector<Figures>& list, const std::string& name) {
        const auto it = std::find_if(list.begin(), list.end(), [&](const Figures& f) { return f.name == name; });
        return it == list.end() ? nullptr : &*it;
    };
    Table t;
    t.columns = {"strategy", "total_before", "total_after", "total_change", "npv_change", "p95_change"};
    std::vector<cli::LimitBreach> breaches;
    for (const Figures& a : after) {
        const Figures* b = find(before, a.name);
        if (!b) continue;
        t.rows.push_back({a.name, money(b->total), money(a.total), money(a.total - b->total), money(a.npv - b->npv),
                          money(a.p95 - b->p95)});
        const std::pair<std::string, std::pair<double, double>> moves[] = {
            {"total", {b->total, a.total}}, {"npv", {b->npv, a.npv}}, {"p95", {b->p95, a.p95}}};
        for (const auto& [metric, values] : moves)
            for (const auto& limit : limits)
                if (std::find(limit.metrics.begin(), limit.metrics.end(), metric) != limit.metrics.end() &&
                    limit.exceeded(values.first, values.second))
                    breaches.push_back({a.name, metric, values.first, values.second, limit.shown()});
    }
    // Rows in only one of the two files have nothing to compare: they never breach a limit.
    for (const Figures& a : after)
        if (!find(before, a.name)) t.rows.push_back({a.name + " (new)", "", money(a.total), "", "", ""});
    for (const Figures& b : before)
        if (!find(after, b.name)) t.rows.push_back({b.name + " (removed)", money(b.total), "", "", "", ""});
    print(cli::render(t, format));
    for (const auto& breach : breaches) fmt::print(stderr, "gputco: {}\n", cli::describe(breach));
    return breaches.empty() ? 0 : 3;
}

int catalog(const std::string& gpu, const std::string& provider, const std::string& region, double min_memory,
            const std::string& file, const std::string& format) {
    const Catalog cat = file.empty() ? Catalog::builtin() : Catalog::builtin().overridden_by(Catalog::from_json_file(file));
    std::vector<Offering> rows;
    for (const Offering& o : cat.find(provider, gpu, region)) {
        double memory = 0;
        for (const GpuSpec& g : cat.gpus())
            if (g.name == o.gpu) memory = g.memory_gb;
        if (memory >= min_memory) rows.push_back(o);
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Offering& a, const Offering& b) {
        return a.on_demand_per_gpu_hour() < b.on_demand_per_gpu_hour();
    });
    Table t;
    t.columns = {"provider", "region", "instance_type", "gpu", "gpus", "currency", "on_demand_per_gpu_hour",
                 "spot_per_gpu_hour", "as_of"};
    for (const Offering& o : rows) {
        const auto spot = o.spot_per_gpu_hour();
        t.rows.push_back({o.provider, o.region, o.instance_type, o.gpu, std::to_string(o.gpus_per_instance), o.currency,
                          ratio(o.on_demand_per_gpu_hour()), spot ? ratio(*spot) : "", o.source.as_of});
    }
    print(cli::render(t, format));
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"gputco: the total cost of renting GPUs, from scenario files"};
    app.require_subcommand(1);
    app.footer("Exit codes: 0 success, 1 unexpected error, 2 bad input, 3 compare: a change beyond --fail-above, "
               "130 stopped by Ctrl-C.");
    std::string format = "table";
    const auto add_format = [&](CLI::App* sub) {
        sub->add_option("--format", format, "table, json, csv or markdown")
            ->check(CLI::IsMember({"table", "json", "csv", "markdown"}));
    };

    std::string scenario_path, other_path;
    CLI::App* run_cmd = app.add_subcommand("run", "run a scenario file and report every strategy");
    run_cmd->add_option("scenario", scenario_path, "scenario file (YAML or JSON)")->required();
    add_format(run_cmd);

    CLI::App* compare_cmd = app.add_subcommand("compare", "what changes in total, NPV and P95 between two scenarios");
    compare_cmd->add_option("before", scenario_path, "the scenario as it was")->required();
    compare_cmd->add_option("after", other_path, "the scenario as it is")->required();
    add_format(compare_cmd);
    std::vector<std::string> fail_above;
    compare_cmd->add_option("--fail-above", fail_above,
                            "exit with code 3 when total, NPV or P95 of a strategy moves by more than this: "
                            "an amount (500) or a percentage of the value before (2.5%), for one figure "
                            "with total:, npv: or p95: in front (p95:5%); may be repeated");

    std::vector<std::string> validate_paths;
    CLI::App* validate_cmd = app.add_subcommand("validate", "check scenario files without running them");
    validate_cmd->add_option("scenarios", validate_paths, "scenario files")->required();

    std::string gpu, provider, region, catalog_file;
    double min_memory = 0;
    CLI::App* catalog_cmd = app.add_subcommand("catalog", "list offerings, cheapest per GPU-hour first");
    catalog_cmd->add_option("--gpu", gpu, "GPU name, e.g. A100-40GB");
    catalog_cmd->add_option("--provider", provider, "provider, e.g. aws");
    catalog_cmd->add_option("--region", region, "region, e.g. us-east-1");
    catalog_cmd->add_option("--min-memory-gb", min_memory, "least GPU memory in GB");
    catalog_cmd->add_option("--catalog", catalog_file, "a catalog JSON file overriding the built-in rows");
    add_format(catalog_cmd);

    SpotJobSpec spot;
    std::uint64_t seed = 0;
    CLI::App* spot_cmd = app.add_subcommand("spot", "simulate one spot job (Poisson interruptions)");
    spot_cmd->add_option("--work-hours", spot.job.work_hours, "useful work, hours")->required();
    spot_cmd->add_option("--mtbf-hours", spot.mtbf_hours, "mean time between interruptions, hours")->required();
    spot_cmd->add_option("--price", spot.price_per_gpu_hour, "spot price per hour")->required();
    spot_cmd->add_option("--checkpoint-write-hours", spot.job.checkpoint_write_hours, "time to write a checkpoint");
    spot_cmd->add_option("--checkpoint-interval-hours", spot.job.checkpoint_interval_hours,
                         "work between checkpoints (default: the optimal interval)");
    spot_cmd->add_option("--restart-hours", spot.job.restart_hours, "reload after an interruption, billed");
    spot_cmd->add_option("--capacity-wait-hours", spot.job.capacity_wait_hours, "wait for capacity, not billed");
    spot_cmd->add_option("--paths", spot.paths, "Monte Carlo paths");
    spot_cmd->add_option("--seed", seed, "random seed");
    add_format(spot_cmd);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    std::signal(SIGINT, on_sigint);
    try {
        if (run_cmd->parsed()) return run(scenario_path, format);
        if (compare_cmd->parsed()) return compare(scenario_path, other_path, format, fail_above);
        if (catalog_cmd->parsed()) return catalog(gpu, provider, region, min_memory, catalog_file, format);
        if (validate_cmd->parsed()) {
            int code = 0;
            for (const auto& path : validate_paths) {
                try {
                    load_scenario(path);
                    fmt::print("{}: ok\n", path);
                } catch (const InvalidInput& e) {
                    fmt::print(stderr, "{}\n", e.what());
                    code = 2;
                }
            }
            return code;
        }
        if (spot_cmd->parsed()) {
            Scenario s;
            s.name = "spot";
            s.seed = seed;
            spot.name = "spot";
            s.spot_jobs.push_back(spot);
            // Priced by the flags alone: a built-in offering is only there for the on-demand comparison.
            s.offering = {"aws", "p4d.24xlarge", ""};
            const ScenarioResult result = run_with_progress(s);
            print(cli::render(spot_table(result.spot_jobs), format));
            return 0;
        }
    } catch (const Cancelled&) {
        fmt::print(stderr, "gputco: stopped\n");
        return 130;
    } catch (const InvalidInput& e) {
        fmt::print(stderr, "gputco: {}\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "gputco: error: {}\n", e.what());
        return 1;
    }
    return 1;
}
