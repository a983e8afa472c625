// Money and dated exchange rates. Dates are ISO strings or datetime.date objects (read through str()).
#include "register.hpp"

#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/catalog/currency.hpp>

namespace gputco::python {

namespace {

Date to_date(const py::object& value, std::string_view field) {
    return Date::parse(py::str(value).cast<std::string>(), field);
}

}  // namespace

void register_currency(py::module_& m) {
    py::class_<Money>(m, "Money", "An amount in one currency; mixing currencies without a rate raises ValueError.")
        .def(py::init([](double amount, std::string currency) { return Money{amount, std::move(currency)}; }),
             py::arg("amount"), py::arg("currency") = "USD")
        .def_readonly("amount", &Money::amount)
        .def_readonly("currency", &Money::currency)
        .def(py::self + py::self)
        .def(py::self - py::self)
        .def(py::self == py::self)
        .def("__lt__", [](const Money& a, const Money& b) { return a < b; })
        .def("__le__", [](const Money& a, const Money& b) { return a <= b; })
        .def("__gt__", [](const Money& a, const Money& b) { return a > b; })
        .def("__ge__", [](const Money& a, const Money& b) { return a >= b; })
        .def("__repr__", [](const Money& x) { return fmt::format("Money({}, '{}')", x.amount, x.currency); });

    py::class_<ExchangeRate>(m, "ExchangeRate", "`rate` units of `to` per unit of `from`, in force from `date`.")
        .def(py::init([](std::string from, std::string to, double rate, const py::object& date, Source source) {
                 ExchangeRate r{std::move(from), std::move(to), rate, to_date(date, "date"), std::move(source)};
                 r.validate();
                 return r;
             }),
             py::kw_only(), py::arg("from_currency"), py::arg("to_currency"), py::arg("rate"), py::arg("date"),
             py::arg("source"))
        .def_readonly("from_currency", &ExchangeRate::from)
        .def_readonly("to_currency", &ExchangeRate::to)
        .def_readonly("rate", &ExchangeRate::rate)
        .def_property_readonly("date", [](const ExchangeRate& r) { return r.date.iso(); })
        .def_readonly("source", &ExchangeRate::source)
        .def("__repr__", [](const ExchangeRate& r) {
            return fmt::format("ExchangeRate(1 {} = {} {} from {})", r.from, r.rate, r.to, r.date.iso());
        });

    py::class_<ExchangeRates>(m, "ExchangeRates", "A dated table of exchange rates, each with its source.")
        .def(py::init<>())
        .def(py::init<std::vector<ExchangeRate>>(), py::arg("rates"))
        .def_static("builtin", &ExchangeRates::builtin, py::return_value_policy::reference,
                    "The table compiled into the library (ECB reference rates).")
        .def_static("from_ecb_csv", &ExchangeRates::from_ecb_csv, py::arg("text"),
                    py::arg("file") = "eurofxref.csv", "Rates of the ECB reference-rate CSV (units per EUR).")
        .def("merged_with", &ExchangeRates::merged_with, py::arg("other"))
        .def_property_readonly("rates", &ExchangeRates::rates, py::return_value_policy::reference_internal)
        .def(
            "rate",
            [](const ExchangeRates& fx, std::string_view from, std::string_view to, const py::object& date) {
                return fx.rate(from, to, to_date(date, "date"));
            },
            py::arg("from_currency"), py::arg("to_currency"), py::arg("date"),
            "Units of `to_currency` per unit of `from_currency` in force at `date`.")
        .def(
            "describe",
            [](const ExchangeRates& fx, std::string_view from, std::string_view to, const py::object& date) {
                return fx.quote(from, to, to_date(date, "date")).describe();
            },
            py::arg("from_currency"), py::arg("to_currency"), py::arg("date"),
            "The table entries the rate is made from, with their sources.")
        .def(
            "convert",
            [](const ExchangeRates& fx, const Money& money, std::string_view to, const py::object& date) {
                return fx.convert(money, to, to_date(date, "date"));
            },
            py::arg("money"), py::arg("to_currency"), py::arg("date"))
        .def(
            "convert",
            [](const ExchangeRates& fx, const Offering& offering, std::string_view to, const py::object& date) {
                return fx.convert(offering, to, to_date(date, "date"));
            },
            py::arg("offering"), py::arg("to_currency"), py::arg("date"))
        .def("__len__", [](const ExchangeRates& fx) { return fx.rates().size(); })
        .def("__repr__", [](const ExchangeRates& fx) { return fmt::format("ExchangeRates({} rates)", fx.rates().size()); });
}

}  // namespace gputco::python
