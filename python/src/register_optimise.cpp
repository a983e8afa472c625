// Optimisers: optimal_reservation(demand, offering, reserved) -> ReservationAdvice.
#include "register.hpp"

#include <optional>
#include <string_view>

#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/optimise/optimise.hpp>

namespace gputco::python {

void register_optimise(py::module_& m) {
    py::class_<ReservationAdvice>(m, "ReservationAdvice",
                                  "How many GPUs to reserve: the newsvendor answer and its cost report.")
        .def_readonly("reserved_gpus", &ReservationAdvice::reserved_gpus)
        .def_readonly("gpus_per_unit", &ReservationAdvice::gpus_per_unit)
        .def_readonly("critical_fraction", &ReservationAdvice::critical_fraction)
        .def_readonly("demand_covered_fraction", &ReservationAdvice::demand_covered_fraction)
        .def_readonly("effective_reserved_rate", &ReservationAdvice::effective_reserved_rate)
        .def_readonly("on_demand_rate", &ReservationAdvice::on_demand_rate)
        .def_readonly("report", &ReservationAdvice::report)
        .def("__repr__", [](const ReservationAdvice& a) {
            return fmt::format("ReservationAdvice(reserved_gpus={:g}, critical_fraction={:.3f}, total={:.2f})",
                               a.reserved_gpus, a.critical_fraction, a.report.total);
        });

    m.def(
        "optimal_reservation",
        [](const DemandProfile& demand, const Offering& offering, const Reserved& reserved,
           const std::optional<Discounts>& discounts, double annual_discount_rate, std::string_view units) {
            EvaluationOptions options = evaluation_options(discounts, annual_discount_rate);
            options.units = parse_units(units);
            py::gil_scoped_release release;
            return optimal_reservation(demand, offering, reserved, options);
        },
        py::arg("demand"), py::arg("offering"), py::arg("reserved"), py::kw_only(),
        py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0, py::arg("units") = "instances",
        "GPUs to reserve, in whole units (instances, or GPUs with units=\"gpus\"): the newsvendor start (the "
        "smallest r with F(r) >= 1 - c_r/p, p the on-demand price paid) refined through evaluate() to a "
        "count no worse than one unit more or fewer, nor than all on-demand. The rest is bought on demand.");
}

}  // namespace gputco::python
