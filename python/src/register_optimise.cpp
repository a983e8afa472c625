// Optimisers: optimal_reservation(demand, offering, reserved) -> ReservationAdvice.
#include "register.hpp"

#include <optional>

#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/optimise/optimise.hpp>

namespace gputco::python {

void register_optimise(py::module_& m) {
    py::class_<ReservationAdvice>(m, "ReservationAdvice",
                                  "How many GPUs to reserve: the newsvendor answer and its cost report.")
        .def_readonly("reserved_gpus", &ReservationAdvice::reserved_gpus)
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
           const std::optional<Discounts>& discounts, double annual_discount_rate) {
            const EvaluationOptions options = evaluation_options(discounts, annual_discount_rate);
            py::gil_scoped_release release;
            return optimal_reservation(demand, offering, reserved, options);
        },
        py::arg("demand"), py::arg("offering"), py::arg("reserved"), py::kw_only(),
        py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0,
        "Whole GPUs to reserve so that hourly cost r*c_r + p*E[(D - r)+] is least: the smallest r with "
        "F(r) >= 1 - c_r/p, F the distribution of hourly demand. The rest is bought on demand.");
}

}  // namespace gputco::python
