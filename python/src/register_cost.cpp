// Cost engine: evaluate(strategy, demand, offering) -> CostReport. Monthly flows go to NumPy columns
// (gputco/_cost.py turns them into a DataFrame); text, JSON and CSV renderings come from C++.
#include "register.hpp"
#include "register_fields.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/engines/cost.hpp>

namespace gputco::python {

namespace {

/// A cost figure in Python: float, int for the break-even month, None where it does not apply.
template <class Row>
py::object figure_object(const Row& row, const CostFigureField<Row>& f) {
    return std::visit([&row](auto m) -> py::object {
        const auto& v = row.*m;
        if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(v)>>) return py::float_(v);
        else return v ? py::object(py::cast(*v)) : py::object(py::none());
    }, f.member);
}

/// The figures' Python dtypes: float64, or pandas' nullable Float64 / Int64 where a figure may not apply.
template <class Row>
std::string_view figure_dtype(const CostFigureField<Row>& f) {
    return f.integer() ? "Int64" : f.optional() ? "Float64" : "float64";
}

}  // namespace

void register_cost(py::module_& m) {
    py::class_<MonthlyCashFlow> month(m, "MonthlyCashFlow", "Cash paid at the start of one month, by category.");
    def_fields(month, monthly_cash_flow_fields);
    month.def("_asdict", [](const MonthlyCashFlow& f) { return fields_dict(f, monthly_cash_flow_fields); })
        .def("__repr__", [](const MonthlyCashFlow& f) {
            return fmt::format("MonthlyCashFlow(month={}, total={})", f.month, f.total);
        });

    py::class_<CostSpread> spread(m, "CostSpread", "Spread of a total cost from spot overhead samples.");
    def_fields(spread, cost_spread_fields);
    spread.def("_asdict", [](const CostSpread& s) { return fields_dict(s, cost_spread_fields); });

    py::class_<CostReport> report(m, "CostReport", "Monthly cash flows by category and the totals planners compare.");
    py::list figure_names, figure_dtypes;
    for (const auto& f : cost_figure_fields<CostReport>) {  // total, npv, savings, ...: one attribute each
        report.def_property_readonly(std::string(f.name).c_str(), [f](const CostReport& r) { return figure_object(r, f); },
                                     fmt::format("{} ({})", f.name, f.unit).c_str());
        figure_names.append(py::str(f.name));
        figure_dtypes.append(py::str(figure_dtype(f)));
    }
    report.attr("_figures") = py::tuple(figure_names);
    report.attr("_figure_dtypes") = py::tuple(figure_dtypes);
    report.def_readonly("strategy", &CostReport::strategy)
        .def_readonly("offering", &CostReport::offering)
        .def_readonly("currency", &CostReport::currency)
        .def_readonly("horizon_months", &CostReport::horizon_months)
        .def_readonly("units", &CostReport::units)
        .def_readonly("gpus_per_unit", &CostReport::gpus_per_unit)
        .def_readonly("months", &CostReport::months)
        .def_readonly("spread", &CostReport::spread)
        .def_readonly("assumptions", &CostReport::assumptions)
        .def("to_json", &CostReport::to_json)
        .def("to_csv", &CostReport::to_csv)
        .def("to_table", &CostReport::to_table)
        .def("__str__", &CostReport::to_table)
        .def("__repr__",
             [](const CostReport& r) {
                 return fmt::format("CostReport(strategy='{}', offering='{}', total={:.2f} {}, savings={:.1f}%)",
                                    r.strategy, r.offering, r.total, r.currency, 100.0 * r.savings_fraction);
             })
        .def("_month_columns", [](const CostReport& r) { return fields_columns(r.months, monthly_cash_flow_fields); });

    m.def(
        "spot_tranche",
        [](const SpotResult& result, const py::object& job, double availability,
           std::optional<double> price_per_gpu_hour) {
            Job j;
            if (py::isinstance<Job>(job)) {
                j = job.cast<Job>();
            } else {  // only the work matters: overhead = billed hours / work hours
                j.work_hours = cast_argument<double>(job, "job", "a Job or a number of work hours");
                j.checkpoint_interval_hours = j.work_hours;
            }
            SpotTranche tranche = spot_tranche(result, j, availability);
            tranche.price_per_gpu_hour = price_per_gpu_hour;
            return tranche;
        },
        py::arg("result"), py::arg("job"), py::arg("availability") = 1.0,
        py::arg("price_per_gpu_hour") = py::none(),
        "A SpotTranche whose overhead (billed / useful hours, mean and per path) comes from a "
        "simulate_spot result; `job` is the simulated Job or just its work_hours.");

    m.def(
        "evaluate",
        [](const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
           const std::optional<Discounts>& discounts, double annual_discount_rate, std::string_view units) {
            EvaluationOptions options = evaluation_options(discounts, annual_discount_rate);
            options.units = parse_units(units);
            py::gil_scoped_release release;
            return evaluate(strategy, demand, offering, options);
        },
        py::arg("strategy"), py::arg("demand"), py::arg("offering"), py::kw_only(),
        py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0, py::arg("units") = "instances",
        "Cash flows of buying `demand` on `offering` as `strategy`, with savings against all "
        "on-demand under the same discounts. units=\"instances\" buys whole instances of the offering "
        "(reserved and spot shares rounded to instances, part-filled ones paid in full); \"gpus\" is the "
        "GPU-level view.");

    m.def(
        "_evaluate_batch",
        [](const std::vector<Strategy>& strategies, const DemandProfile& demand, const Offering& offering,
           const std::optional<Discounts>& discounts, double annual_discount_rate, std::string_view units) {
            EvaluationOptions options = evaluation_options(discounts, annual_discount_rate);
            options.units = parse_units(units);
            std::vector<CostFigures> rows;
            {
                py::gil_scoped_release release;
                rows = evaluate_batch(strategies, demand, offering, options);
            }
            // Columns for gputco.evaluate_batch's DataFrame, one per listed figure; None where a figure
            // does not apply.
            py::dict d;
            const auto optional = [&](const char* name, auto get) {
                py::list out;
                for (const CostFigures& row : rows) {
                    const auto value = get(row);
                    out.append(value ? py::cast(*value) : py::none());
                }
                d[name] = out;
            };
            py::list names;
            for (const Strategy& s : strategies) names.append(describe(s));
            d["strategy"] = names;
            for (const auto& f : cost_figure_fields<CostFigures>) {
                if (f.optional()) {
                    py::list out;
                    for (const CostFigures& row : rows) out.append(figure_object(row, f));
                    d[py::str(f.name)] = out;
                } else {
                    py::array_t<double> out(py::ssize_t(rows.size()));
                    for (std::size_t i = 0; i < rows.size(); ++i) out.mutable_at(py::ssize_t(i)) = *f.value(rows[i]);
                    d[py::str(f.name)] = out;
                }
            }
            optional("spread_p05", [](const CostFigures& r) { return r.spread ? std::optional(r.spread->p05) : std::nullopt; });
            optional("spread_p50", [](const CostFigures& r) { return r.spread ? std::optional(r.spread->p50) : std::nullopt; });
            optional("spread_p95", [](const CostFigures& r) { return r.spread ? std::optional(r.spread->p95) : std::nullopt; });
            return d;
        },
        py::arg("strategies"), py::arg("demand"), py::arg("offering"), py::kw_only(),
        py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0, py::arg("units") = "instances",
        "evaluate_batch's columns: one row per strategy, the figures of evaluate() bit for bit, the "
        "baseline costed once (see gputco.evaluate_batch).");
}

}  // namespace gputco::python
