#pragma once
// One function per concern, each defined in its own register_<concern>.cpp.
#include <optional>
#include <string_view>

#include <pybind11/pybind11.h>

#include <gputco/engines/cost.hpp>

namespace gputco::python {

namespace py = pybind11;

/// The options of evaluate() from the keyword arguments every cost entry point takes.
inline EvaluationOptions evaluation_options(const std::optional<Discounts>& discounts, double annual_discount_rate) {
    EvaluationOptions options;
    if (discounts) options.discounts = *discounts;
    options.annual_discount_rate = annual_discount_rate;
    return options;
}

/// The `units` keyword of the cost entry points: "instances" (whole instances) or "gpus".
inline Units parse_units(std::string_view text) {
    if (text == "instances") return Units::instances;
    if (text == "gpus") return Units::gpus;
    fail("units", text, "must be \"instances\" or \"gpus\"");
}

void register_errors(py::module_& m);
void register_catalog(py::module_& m);
void register_currency(py::module_& m);
void register_import(py::module_& m);
void register_checkpoint(py::module_& m);
void register_interruption(py::module_& m);
void register_spot(py::module_& m);
void register_deadline(py::module_& m);
void register_demand(py::module_& m);
void register_strategy(py::module_& m);
void register_cost(py::module_& m);
void register_optimise(py::module_& m);
void register_work(py::module_& m);
void register_plan(py::module_& m);
void register_recommend(py::module_& m);
void register_scenario(py::module_& m);

}  // namespace gputco::python
