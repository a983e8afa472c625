// Scenario files: the same loader as the gputco command. Python hands over the text (YAML or JSON);
// results come back as plain rows for gputco/_scenario.py to turn into DataFrames.
#include "register.hpp"

#include <pybind11/stl.h>

#include <gputco/scenario/scenario.hpp>

namespace gputco::python {

namespace {

py::dict strategy_row(const StrategyResult& s) {
    const CostReport& r = s.report;
    py::dict row;
    row["strategy"] = s.name;
    row["currency"] = r.currency;
    row["total"] = r.total;
    row["npv"] = r.npv;
    row["savings"] = r.savings;
    row["savings_fraction"] = r.savings_fraction;
    row["baseline_total"] = r.baseline_total;
    row["cost_per_used_gpu_hour"] = r.effective_cost_per_used_gpu_hour ? py::object(py::float_(*r.effective_cost_per_used_gpu_hour)) : py::none();
    row["break_even_utilisation"] = r.break_even_utilisation ? py::object(py::float_(*r.break_even_utilisation)) : py::none();
    row["p95"] = r.spread ? r.spread->p95 : r.total;
    return row;
}

py::dict spot_row(const SpotJobResult& j) {
    const SpotResult& r = j.result;
    py::dict row;
    row["job"] = j.name;
    row["checkpoint_interval_hours"] = j.checkpoint_interval_hours;
    row["paths"] = r.paths;
    row["seed"] = r.seed;
    row["wall_hours_mean"] = r.wall_hours.mean;
    row["billed_hours_mean"] = r.billed_hours.mean;
    row["cost_mean"] = r.cost.mean;
    row["cost_standard_error"] = r.cost.standard_error;
    row["cost_p95"] = r.cost.p95;
    row["interruptions_mean"] = r.interruptions.mean;
    row["deadline_miss_probability"] = r.deadline_miss_probability;
    return row;
}

py::list deadline_rows(const DeadlineJobResult& j) {
    py::list rows;
    const DeadlineComparison& c = j.comparison;
    const auto row = [&](const std::string& policy, const Summary& cost, double miss) {
        py::dict r;
        r["deadline_job"] = j.name;
        r["policy"] = policy;
        r["paths"] = c.paths;
        r["seed"] = c.seed;
        r["cost_mean"] = cost.mean;
        r["cost_standard_error"] = cost.standard_error;
        r["cost_p95"] = cost.p95;
        r["deadline_miss_probability"] = miss;
        rows.append(r);
    };
    for (const DeadlinePolicyOutcome& p : c.policies) row(std::string(to_string(p.policy)), p.cost, p.deadline_miss_probability);
    if (c.omniscient_cost) row("omniscient", *c.omniscient_cost, 0.0);
    return rows;
}

py::dict plan_row(const PlanDistribution& d) {
    py::dict row;
    row["plan"] = d.plan;
    row["currency"] = d.currency;
    row["futures"] = d.futures.size();
    row["total"] = d.total.mean;  // the figures compare and sweep use: means over the futures, P95 of the total
    row["npv"] = d.npv.mean;
    row["p95"] = d.total.p95;
    row["total_std_error"] = d.total.standard_error;
    row["total_p5"] = d.total.p5;
    row["total_p50"] = d.total.p50;
    row["total_cvar95"] = d.total.cvar95;
    row["regret_mean"] = d.regret.mean;
    row["best_fraction"] = d.best_fraction;
    row["committed_utilisation"] = d.committed_utilisation;
    return row;
}

/// One row per workload and way of running it, in the columns of gputco.rank_offerings, with the
/// workload's name first.
py::list workload_rows(const WorkloadResult& w) {
    py::list rows;
    for (const WorkCostRow& r : w.ranking.rows) {
        py::dict row;
        row["workload"] = w.name;
        row["provider"] = r.provider;
        row["region"] = r.region;
        row["instance_type"] = r.instance_type;
        row["gpus"] = r.gpus;
        row["catalog_gpu"] = r.catalog_gpu;
        row["benchmark_gpu"] = r.benchmark_gpu;
        row["match"] = std::string(to_text(r.match));
        row["buying"] = std::string(to_text(r.buying));
        row["terms"] = r.terms;
        row["currency"] = r.currency;
        row["price_per_hour"] = r.price_per_hour;
        row["throughput_per_second"] = r.throughput_per_second;
        row["throughput_basis"] = r.throughput_basis;
        row["hours_per_epoch"] = r.hours_per_epoch;
        row["run_hours"] = r.run_hours;
        row["run_hours_p95"] = r.run_hours_p95;
        row["cost_per_epoch"] = r.cost_per_epoch;
        row["cost_per_run"] = r.cost_per_run;
        row["cost_per_run_p95"] = r.cost_per_run_p95;
        row["cost_per_run_standard_error"] = r.cost_per_run_standard_error;
        row["cost_per_million"] = r.cost_per_million;
        row["probability_within_deadline"] = r.probability_within_deadline;
        row["note"] = r.note;
        rows.append(row);
    }
    return rows;
}

}  // namespace

void register_scenario(py::module_& m) {
    m.def(
        "_read_scenario_file",
        [](const std::string& path) {
            std::string text;
            {
                py::gil_scoped_release release;
                text = read_scenario_file(path);
            }
            return py::bytes(text);
        },
        py::arg("path"), "The scenario file's bytes, up to the scenario size limit (ValueError naming the file otherwise).");
    m.def(
        "_scenario_canonical",
        [](const std::string& text, const std::string& file) { return to_yaml(parse_scenario(text, file)); },
        py::arg("text"), py::arg("file") = "<scenario>",
        "The scenario as canonical YAML (every field, the schema's order); raises ValueError where it does not load.");
    m.def(
        "_run_scenario",
        [](const std::string& text, const std::string& file) {
            ScenarioResult result;
            {
                py::gil_scoped_release release;  // sweeps run points on many threads
                result = run_scenario(parse_scenario(text, file));
            }
            py::list strategies, spot, plans, deadline, workloads;
            for (const auto& s : result.strategies) strategies.append(strategy_row(s));
            for (const auto& j : result.spot_jobs) spot.append(spot_row(j));
            for (const auto& d : result.plans) plans.append(plan_row(d));
            for (const auto& j : result.deadline_jobs)
                for (const auto& r : deadline_rows(j)) deadline.append(r);
            for (const auto& w : result.workloads)
                for (const auto& r : workload_rows(w)) workloads.append(r);
            return py::make_tuple(strategies, spot, plans, deadline, workloads);
        },
        py::arg("text"), py::arg("file") = "<scenario>",
        "Runs a scenario: (strategy rows, spot job rows, plan rows, deadline job rows, workload rows) as lists of dicts.");
}

}  // namespace gputco::python
