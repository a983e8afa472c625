// Scenario files: the same loader as the gputco command. Python hands over the text (YAML or JSON);
// results come back as plain rows for gputco/_scenario.py to turn into DataFrames.
#include "register.hpp"

#include <pybind11/stl.h>

#include <gputco/app/columns.hpp>
#include <gputco/app/bill_plan.hpp>
#include <gputco/app/recommend_study.hpp>
#include <gputco/scenario/scenario.hpp>

#include "register_columns.hpp"

namespace gputco::python {

void register_scenario(py::module_& m) {
    m.def(
        "_sweep_summary_rows", [](const WindowSweep& sweep) { return rows_of(sweep_summary_columns(), sweep_summary_rows(sweep)); },
        py::arg("sweep"), "A deadline sweep's summary rows in the library's columns (app/columns.hpp).");
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
        "_price_model_yaml", [](const PriceDynamics& model) { return price_model_yaml(model); }, py::arg("model"),
        "A price model (a fitted PriceDynamics) as a scenario's price_model key, in the YAML scenario files take.");
    m.def(
        "_run_scenario",
        [](const std::string& text, const std::string& file) {
            ScenarioResult result;
            {
                py::gil_scoped_release release;  // sweeps run points on many threads
                result = run_scenario(parse_scenario(text, file));
            }
            std::vector<DeadlineRow> deadline;
            for (const auto& j : result.deadline_jobs)
                for (auto& r : deadline_rows(j)) deadline.push_back(std::move(r));
            std::vector<WorkloadRow> workloads;
            for (const auto& w : result.workloads)
                for (const auto& r : workload_rows(w)) workloads.push_back(r);
            const py::list strategies = rows_of(strategy_columns(), result.strategies);
            const py::list spot = rows_of(spot_job_columns(), result.spot_jobs);
            const py::list plans = rows_of(plan_columns(), result.plans);
            return py::make_tuple(strategies, spot, plans, rows_of(deadline_columns(), deadline),
                                  rows_of(workload_columns(), workloads));
        },
        py::arg("text"), py::arg("file") = "<scenario>",
        "Runs a scenario: (strategy rows, spot job rows, plan rows, deadline job rows, workload rows) as lists of dicts.");
    m.def(
        "_run_sweep_point",
        [](const std::string& text, const std::string& file) {
            ScenarioResult result;
            {
                py::gil_scoped_release release;  // sweeps run points on many threads
                result = run_scenario(parse_scenario(text, file));
            }
            return rows_of(sweep_point_columns(), sweep_point_rows(result));
        },
        py::arg("text"), py::arg("file") = "<scenario>",
        "Runs a scenario at a sweep point: one row per strategy and plan in the sweep point's columns.");
    m.def(
        "_run_scenario_services",
        [](const std::string& text, const std::string& file) {
            ScenarioResult result;
            {
                py::gil_scoped_release release;
                result = run_scenario(parse_scenario(text, file));
            }
            std::vector<ServiceRow> rows;
            for (const auto& v : result.services)
                for (auto& r : service_rows(v)) rows.push_back(std::move(r));
            return rows_of(service_columns(), rows);
        },
        py::arg("text"), py::arg("file") = "<scenario>",
        "Runs a scenario: its services' rows (per policy its best candidate, the bound) as a list of dicts.");
    m.def(
        "_run_scenario_llm",
        [](const std::string& text, const std::string& file) {
            ScenarioResult result;
            {
                py::gil_scoped_release release;
                result = run_scenario(parse_scenario(text, file));
            }
            return py::make_tuple(rows_of(llm_training_job_columns(), llm_job_rows(result.llm_training)),
                                  rows_of(llm_serving_job_columns(), llm_job_rows(result.llm_serving)));
        },
        py::arg("text"), py::arg("file") = "<scenario>",
        "Runs a scenario: (its LLM training rows, its LLM serving rows) as lists of dicts.");
    m.def(
        "_columns",
        [](const std::string& result) -> py::list {
            if (result == "strategies") return describe(strategy_columns());
            if (result == "spot_jobs") return describe(spot_job_columns());
            if (result == "plans") return describe(plan_columns());
            if (result == "deadline_jobs") return describe(deadline_columns());
            if (result == "workloads") return describe(workload_columns());
            if (result == "ranking") return describe(ranking_columns());
            if (result == "recommend_summary") return describe(study_summary_columns());
            if (result == "recommend_baselines") return describe(study_baseline_columns());
            if (result == "recommend_frontier") return describe(study_frontier_columns());
            if (result == "deadline_sweep_summary") return describe(sweep_summary_columns());
            if (result == "services") return describe(service_columns());
            if (result == "bill_figures") return describe(bill_figures_columns());
            if (result == "bill_series") return describe(bill_series_columns());
            if (result == "bill_unmatched") return describe(bill_unmatched_columns());
            if (result == "bill_commitments") return describe(bill_commitment_columns());
            if (result == "sweep_points") return describe(sweep_point_columns());
            if (result == "llm_training") return describe(llm_training_columns());
            if (result == "llm_serving") return describe(llm_serving_columns());
            if (result == "scenario_llm_training") return describe(llm_training_job_columns());
            if (result == "scenario_llm_serving") return describe(llm_serving_job_columns());
            fail("result", result,
                 "must be one of strategies, spot_jobs, plans, deadline_jobs, workloads, ranking, recommend_summary, "
                 "recommend_baselines, recommend_frontier, deadline_sweep_summary, services, bill_figures, bill_series, "
                 "bill_unmatched, bill_commitments, llm_training, llm_serving, scenario_llm_training, "
                 "scenario_llm_serving, sweep_points");
        },
        py::arg("result"), "The columns of a scenario's result, as the library declares them: (name, unit, dtype).");
}

}  // namespace gputco::python
