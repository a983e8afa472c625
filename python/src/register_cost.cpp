// Cost engine: evaluate(strategy, demand, offering) -> CostReport. Monthly flows go to NumPy columns
// (gputco/_cost.py turns them into a DataFrame); text, JSON and CSV renderings come from C++.
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/engines/cost.hpp>

namespace gputco::python {

namespace {

template <class Field>
py::array_t<double> column(const std::vector<MonthlyCashFlow>& months, Field field) {
    py::array_t<double> out(py::ssize_t(months.size()));
    auto view = out.mutable_unchecked<1>();
    for (std::size_t i = 0; i < months.size(); ++i) view(py::ssize_t(i)) = double(months[i].*field);
    return out;
}

}  // namespace

void register_cost(py::module_& m) {
    py::class_<MonthlyCashFlow>(m, "MonthlyCashFlow", "Cash paid at the start of one month, by category.")
        .def_readonly("month", &MonthlyCashFlow::month)
        .def_readonly("upfront", &MonthlyCashFlow::upfront)
        .def_readonly("reserved_recurring", &MonthlyCashFlow::reserved_recurring)
        .def_readonly("on_demand", &MonthlyCashFlow::on_demand)
        .def_readonly("spot", &MonthlyCashFlow::spot)
        .def_readonly("credits", &MonthlyCashFlow::credits)
        .def_readonly("total", &MonthlyCashFlow::total)
        .def_readonly("used_gpu_hours", &MonthlyCashFlow::used_gpu_hours)
        .def_readonly("reserved_gpu_hours", &MonthlyCashFlow::reserved_gpu_hours)
        .def_readonly("reserved_used_gpu_hours", &MonthlyCashFlow::reserved_used_gpu_hours)
        .def_readonly("spot_gpu_hours", &MonthlyCashFlow::spot_gpu_hours)
        .def_readonly("on_demand_gpu_hours", &MonthlyCashFlow::on_demand_gpu_hours)
        .def_readonly("spot_paid_gpu_hours", &MonthlyCashFlow::spot_paid_gpu_hours)
        .def_readonly("on_demand_paid_gpu_hours", &MonthlyCashFlow::on_demand_paid_gpu_hours)
        .def_readonly("capex", &MonthlyCashFlow::capex)
        .def_readonly("operating", &MonthlyCashFlow::operating)
        .def_readonly("resale", &MonthlyCashFlow::resale)
        .def_readonly("owned_gpu_hours", &MonthlyCashFlow::owned_gpu_hours)
        .def_readonly("owned_used_gpu_hours", &MonthlyCashFlow::owned_used_gpu_hours)
        .def("__repr__", [](const MonthlyCashFlow& f) {
            return fmt::format("MonthlyCashFlow(month={}, total={})", f.month, f.total);
        });

    py::class_<CostSpread>(m, "CostSpread", "Spread of a total cost from spot overhead samples.")
        .def_readonly("mean", &CostSpread::mean)
        .def_readonly("p05", &CostSpread::p05)
        .def_readonly("p50", &CostSpread::p50)
        .def_readonly("p95", &CostSpread::p95)
        .def_readonly("p99", &CostSpread::p99)
        .def("_asdict", [](const CostSpread& s) {
            py::dict d;
            d["mean"] = s.mean;
            d["p05"] = s.p05;
            d["p50"] = s.p50;
            d["p95"] = s.p95;
            d["p99"] = s.p99;
            return d;
        });

    py::class_<CostReport>(m, "CostReport",
                           "Monthly cash flows by category and the totals planners compare.")
        .def_readonly("strategy", &CostReport::strategy)
        .def_readonly("offering", &CostReport::offering)
        .def_readonly("currency", &CostReport::currency)
        .def_readonly("horizon_months", &CostReport::horizon_months)
        .def_readonly("units", &CostReport::units)
        .def_readonly("gpus_per_unit", &CostReport::gpus_per_unit)
        .def_readonly("months", &CostReport::months)
        .def_readonly("total", &CostReport::total)
        .def_readonly("npv", &CostReport::npv)
        .def_readonly("annual_discount_rate", &CostReport::annual_discount_rate)
        .def_readonly("used_gpu_hours", &CostReport::used_gpu_hours)
        .def_readonly("effective_cost_per_used_gpu_hour", &CostReport::effective_cost_per_used_gpu_hour)
        .def_readonly("reserved_utilisation", &CostReport::reserved_utilisation)
        .def_readonly("owned_utilisation", &CostReport::owned_utilisation)
        .def_readonly("baseline_total", &CostReport::baseline_total)
        .def_readonly("savings", &CostReport::savings)
        .def_readonly("savings_fraction", &CostReport::savings_fraction)
        .def_readonly("break_even_utilisation", &CostReport::break_even_utilisation)
        .def_readonly("break_even_month", &CostReport::break_even_month)
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
        .def("_month_columns", [](const CostReport& r) {
            py::dict d;
            py::array_t<long long> month(py::ssize_t(r.months.size()));
            for (std::size_t i = 0; i < r.months.size(); ++i) month.mutable_at(py::ssize_t(i)) = r.months[i].month;
            d["month"] = month;
            d["upfront"] = column(r.months, &MonthlyCashFlow::upfront);
            d["reserved_recurring"] = column(r.months, &MonthlyCashFlow::reserved_recurring);
            d["on_demand"] = column(r.months, &MonthlyCashFlow::on_demand);
            d["spot"] = column(r.months, &MonthlyCashFlow::spot);
            d["credits"] = column(r.months, &MonthlyCashFlow::credits);
            d["total"] = column(r.months, &MonthlyCashFlow::total);
            d["used_gpu_hours"] = column(r.months, &MonthlyCashFlow::used_gpu_hours);
            d["reserved_gpu_hours"] = column(r.months, &MonthlyCashFlow::reserved_gpu_hours);
            d["reserved_used_gpu_hours"] = column(r.months, &MonthlyCashFlow::reserved_used_gpu_hours);
            d["spot_gpu_hours"] = column(r.months, &MonthlyCashFlow::spot_gpu_hours);
            d["on_demand_gpu_hours"] = column(r.months, &MonthlyCashFlow::on_demand_gpu_hours);
            d["capex"] = column(r.months, &MonthlyCashFlow::capex);
            d["operating"] = column(r.months, &MonthlyCashFlow::operating);
            d["resale"] = column(r.months, &MonthlyCashFlow::resale);
            d["owned_gpu_hours"] = column(r.months, &MonthlyCashFlow::owned_gpu_hours);
            d["owned_used_gpu_hours"] = column(r.months, &MonthlyCashFlow::owned_used_gpu_hours);
            d["spot_paid_gpu_hours"] = column(r.months, &MonthlyCashFlow::spot_paid_gpu_hours);
            d["on_demand_paid_gpu_hours"] = column(r.months, &MonthlyCashFlow::on_demand_paid_gpu_hours);
            return d;
        });

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
            // Columns for gputco.evaluate_batch's DataFrame; None where a figure does not apply.
            py::dict d;
            const auto number = [&](const char* name, auto field) {
                py::array_t<double> out(py::ssize_t(rows.size()));
                for (std::size_t i = 0; i < rows.size(); ++i) out.mutable_at(py::ssize_t(i)) = rows[i].*field;
                d[name] = out;
            };
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
            number("total", &CostFigures::total);
            number("npv", &CostFigures::npv);
            number("used_gpu_hours", &CostFigures::used_gpu_hours);
            number("effective_cost_per_used_gpu_hour", &CostFigures::effective_cost_per_used_gpu_hour);
            number("reserved_utilisation", &CostFigures::reserved_utilisation);
            number("owned_utilisation", &CostFigures::owned_utilisation);
            number("baseline_total", &CostFigures::baseline_total);
            number("savings", &CostFigures::savings);
            number("savings_fraction", &CostFigures::savings_fraction);
            optional("break_even_utilisation", [](const CostFigures& r) { return r.break_even_utilisation; });
            optional("break_even_month", [](const CostFigures& r) { return r.break_even_month; });
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
