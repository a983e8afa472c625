// gputco.report(): the HTML page of the `gputco report` command, made by the same C++ (report/).
#include "register.hpp"

#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include <gputco/core/atomic_file.hpp>
#include <gputco/report/scenario_report.hpp>

namespace gputco::python {

void register_report(py::module_& m) {
    m.def(
        "_report_html",
        [](const std::vector<std::pair<std::string, std::string>>& scenarios, const std::string& command,
           const std::string& output) {
            if (scenarios.empty()) fail("scenarios", scenarios.size(), "must name at least one scenario");
            py::gil_scoped_release release;
            std::vector<ReportInput> inputs;
            for (const auto& [text, file] : scenarios) {
                Scenario s = parse_scenario(text, file);
                ScenarioResult result = run_scenario(s);
                inputs.push_back({file, std::move(s), std::move(result)});
            }
            std::string page = scenario_report(inputs, GPUTCO_VERSION, command);
            if (!output.empty()) write_file_atomically(output, page);
            return page;
        },
        py::arg("scenarios"), py::arg("command"), py::arg("output") = "",
        "The HTML report of (text, file) scenarios, written to `output` (atomically) unless it is empty; returns the page.");
}

}  // namespace gputco::python
