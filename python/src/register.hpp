#pragma once
// One function per concern, each defined in its own register_<concern>.cpp.
#include <pybind11/pybind11.h>

namespace gputco::python {

namespace py = pybind11;

void register_errors(py::module_& m);
void register_catalog(py::module_& m);
void register_checkpoint(py::module_& m);
void register_interruption(py::module_& m);
void register_spot(py::module_& m);
void register_demand(py::module_& m);
void register_strategy(py::module_& m);
void register_cost(py::module_& m);
void register_optimise(py::module_& m);

}  // namespace gputco::python
