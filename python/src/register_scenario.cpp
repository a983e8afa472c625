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

}  // namespace

void register_scenario(py::module_& m) {
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
            py::list strategies, spot;
            for (const auto& s : result.strategies) strategies.append(strategy_row(s));
            for (const auto& j : result.spot_jobs) spot.append(spot_row(j));
            return py::make_tuple(strategies, spot);
        },
        py::arg("text"), py::arg("file") = "<scenario>",
        "Runs a scenario: (strategy rows, spot job rows) as lists of dicts.");
}

}  // namespace gputco::python
