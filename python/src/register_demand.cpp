// Demand: GPUs needed per hour over a horizon. Hourly series come in from NumPy arrays or pandas
// Series and go out as read-only NumPy views of the profile's own memory (no copy).
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <vector>

#include <fmt/format.h>
#include <gputco/work/demand.hpp>
#include <gputco/core/time.hpp>

namespace gputco::python {

namespace {

template <std::size_t N>
std::array<double, N> to_factors(std::string_view field, const std::vector<double>& values) {
    require(values.size() == N, fmt::format("{}.size", field), values.size(), fmt::format("must be {}", N));
    std::array<double, N> factors{};
    for (std::size_t i = 0; i < N; ++i) factors[i] = values[i];
    return factors;
}

DemandStep to_step(const py::handle& item, std::size_t index) {
    if (py::isinstance<DemandStep>(item)) return item.cast<DemandStep>();
    const std::string field = fmt::format("demand.steps[{}]", index);
    if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item) || py::isinstance<py::bytes>(item)) {
        throw py::type_error(fmt::format("{} = {}: must be a DemandStep or a (start_month, gpus) pair, not {}", field,
                                         printable_utf8(py::repr(item).cast<std::string>(), 60),
                                         Py_TYPE(item.ptr())->tp_name));
    }
    const auto pair = item.cast<py::sequence>();
    require(pair.size() == 2, field + ".size", pair.size(), "must be 2 (start_month, gpus)");
    return DemandStep{cast_argument<int>(pair[0], field + ".start_month", "a whole number in the range of int"),
                      cast_argument<double>(pair[1], field + ".gpus", "a number")};
}

}  // namespace

void register_demand(py::module_& m) {
    py::class_<Horizon>(m, "Horizon", "A planning horizon of whole 730-hour months, starting at month 0.")
        .def_static("years", &Horizon::years, py::arg("n"))
        .def_static("months", &Horizon::months, py::arg("n"))
        .def_property_readonly("month_count", &Horizon::month_count)
        .def_property_readonly("hour_count", &Horizon::hour_count)
        .def_property_readonly("hours", &Horizon::hours)
        .def_property_readonly("years_span", &Horizon::years_span)
        .def("__eq__", [](const Horizon& a, const Horizon& b) { return a == b; })
        .def("__hash__", [](const Horizon& h) { return py::hash(py::int_(h.month_count())); })
        .def("__repr__", [](const Horizon& h) { return fmt::format("Horizon.months({})", h.month_count()); });

    py::class_<DemandStep>(m, "DemandStep", "From `start_month` (0-based) on, `gpus` are needed.")
        .def(py::init([](int start_month, double gpus) { return DemandStep{start_month, gpus}; }),
             py::arg("start_month"), py::arg("gpus"))
        .def_readonly("start_month", &DemandStep::start_month)
        .def_readonly("gpus", &DemandStep::gpus)
        .def("__repr__", [](const DemandStep& s) {
            return fmt::format("DemandStep(start_month={}, gpus={})", s.start_month, s.gpus);
        });

    py::class_<DemandProfile>(m, "DemandProfile",
                              "GPUs needed per hour over a whole number of 730-hour months.")
        .def_static("constant", &DemandProfile::constant, py::arg("gpus"), py::arg("horizon"))
        .def_static("linear_growth", &DemandProfile::linear_growth, py::arg("start_gpus"),
                    py::arg("end_gpus"), py::arg("horizon"))
        .def_static("compound_growth", &DemandProfile::compound_growth, py::arg("start_gpus"),
                    py::arg("annual_growth_rate"), py::arg("horizon"))
        .def_static(
            "steps",
            [](const py::iterable& steps, const Horizon& horizon) {
                std::vector<DemandStep> parsed;
                for (const py::handle item : steps) parsed.push_back(to_step(item, parsed.size()));
                return DemandProfile::steps(parsed, horizon);
            },
            py::arg("steps"), py::arg("horizon"),
            "Piecewise constant by month; steps are DemandStep or (start_month, gpus) pairs.")
        .def_static(
            "hourly",
            [](const py::array_t<double, py::array::c_style | py::array::forcecast>& gpus_per_hour) {
                require(gpus_per_hour.ndim() == 1, "demand.gpus_per_hour.ndim", gpus_per_hour.ndim(),
                        "must be 1");
                Eigen::ArrayXd values(Eigen::Index(gpus_per_hour.size()));
                std::copy_n(gpus_per_hour.data(), gpus_per_hour.size(), values.data());
                return DemandProfile::hourly(std::move(values));
            },
            py::arg("gpus_per_hour"),
            "Any hourly series (NumPy array, pandas Series, list); length a multiple of 730.")
        .def(
            "with_daily_pattern",
            [](const DemandProfile& d, const std::vector<double>& factors) {
                return d.with_daily_pattern(to_factors<24>("demand.daily_pattern", factors));
            },
            py::arg("factors"), "Multiplies hour h of each day by factors[h] (24 factors).")
        .def(
            "with_weekly_pattern",
            [](const DemandProfile& d, const std::vector<double>& factors) {
                return d.with_weekly_pattern(to_factors<7>("demand.weekly_pattern", factors));
            },
            py::arg("factors"), "Multiplies day d of each week by factors[d] (7 factors).")
        .def("scaled", &DemandProfile::scaled, py::arg("factor"))
        .def_property_readonly(
            "gpus_per_hour",
            [](const py::object& self) {
                const Eigen::ArrayXd& values = self.cast<const DemandProfile&>().gpus_per_hour();
                // A view of the profile's memory; `self` is its base, so the profile outlives it.
                py::array_t<double> view({values.size()}, {sizeof(double)}, values.data(), self);
                py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
                return view;
            },
            "GPUs needed in each hour: a read-only NumPy view (no copy).")
        .def_property_readonly("horizon", &DemandProfile::horizon)
        .def_property_readonly("hours", [](const DemandProfile& d) { return d.gpus_per_hour().size(); })
        .def("peak_gpus", &DemandProfile::peak_gpus)
        .def("mean_gpus", &DemandProfile::mean_gpus)
        .def("total_gpu_hours", &DemandProfile::total_gpu_hours)
        .def("__len__", [](const DemandProfile& d) { return d.gpus_per_hour().size(); })
        .def("__repr__", [](const DemandProfile& d) {
            return fmt::format("DemandProfile(months={}, mean_gpus={:.6g}, peak_gpus={:.6g})",
                               d.horizon().month_count(), d.mean_gpus(), d.peak_gpus());
        });
}

}  // namespace gputco::python
