// Prices that move both ways: the stochastic price model, its simulation into PricePaths, and its
// maximum-likelihood fit to dated price history (catalog/price_dynamics.hpp, catalog/price_fit.hpp).
#include "register.hpp"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <gputco/catalog/price_dynamics.hpp>
#include <gputco/catalog/price_fit.hpp>

namespace gputco::python {

namespace {

std::optional<Date> optional_date(const std::optional<std::string>& text, std::string_view field) {
    if (!text) return std::nullopt;
    return Date::parse(*text, field);
}

FitOptions fit_options(double min_volatility, int max_jumps_per_month, bool jumps, int max_iterations,
                       std::optional<double> fixed_reversion = std::nullopt) {
    return FitOptions{min_volatility, max_jumps_per_month, jumps, max_iterations, fixed_reversion};
}

py::dict process_dict(const LogPriceProcess& p) {
    py::dict d;
    d["reversion"] = p.reversion;
    d["volatility"] = p.volatility;
    d["drift"] = p.drift;
    d["jump_rate"] = p.jump_rate;
    d["jump_mean"] = p.jump_mean;
    d["jump_sd"] = p.jump_sd;
    return d;
}

}  // namespace

void register_price_dynamics(py::module_& m) {
    py::class_<LogPriceProcess>(m, "LogPriceProcess",
                                "One monthly log price: OU around a drifting level plus compound-Poisson jumps "
                                "(docs/models.md, section 12).")
        .def(py::init([](double reversion, double volatility, double drift, double jump_rate, double jump_mean,
                         double jump_sd) {
                 LogPriceProcess p{reversion, volatility, drift, jump_rate, jump_mean, jump_sd};
                 validate(p, "LogPriceProcess");
                 return p;
             }),
             py::kw_only(), py::arg("reversion") = 0.0, py::arg("volatility") = 0.0, py::arg("drift") = 0.0,
             py::arg("jump_rate") = 0.0, py::arg("jump_mean") = 0.0, py::arg("jump_sd") = 0.0)
        .def_readonly("reversion", &LogPriceProcess::reversion)
        .def_readonly("volatility", &LogPriceProcess::volatility)
        .def_readonly("drift", &LogPriceProcess::drift)
        .def_readonly("jump_rate", &LogPriceProcess::jump_rate)
        .def_readonly("jump_mean", &LogPriceProcess::jump_mean)
        .def_readonly("jump_sd", &LogPriceProcess::jump_sd)
        .def("to_dict", &process_dict)
        .def("__repr__", [](const LogPriceProcess& p) {
            return fmt::format("LogPriceProcess(reversion={}, volatility={}, drift={}, jump_rate={}, jump_mean={}, jump_sd={})",
                               p.reversion, p.volatility, p.drift, p.jump_rate, p.jump_mean, p.jump_sd);
        });

    py::class_<PriceDynamics>(m, "PriceDynamics",
                              "An offering's price model: on-demand, spot and 1-/3-year reservation spreads, "
                              "spot correlation, generation launches.")
        .def(py::init([](const LogPriceProcess& on_demand, const LogPriceProcess& spot_spread, double spot_correlation,
                         const LogPriceProcess& reserved_1y_spread, const LogPriceProcess& reserved_3y_spread,
                         std::vector<GenerationLaunch> launches) {
                 return PriceDynamics{on_demand, spot_spread, spot_correlation, reserved_1y_spread, reserved_3y_spread,
                                      std::move(launches)};
             }),
             py::kw_only(), py::arg("on_demand") = LogPriceProcess{}, py::arg("spot_spread") = LogPriceProcess{},
             py::arg("spot_correlation") = 0.0, py::arg("reserved_1y_spread") = LogPriceProcess{},
             py::arg("reserved_3y_spread") = LogPriceProcess{}, py::arg("launches") = std::vector<GenerationLaunch>{})
        .def_readonly("on_demand", &PriceDynamics::on_demand)
        .def_readonly("spot_spread", &PriceDynamics::spot_spread)
        .def_readonly("spot_correlation", &PriceDynamics::spot_correlation)
        .def_readonly("reserved_1y_spread", &PriceDynamics::reserved_1y_spread)
        .def_readonly("reserved_3y_spread", &PriceDynamics::reserved_3y_spread)
        .def_readonly("launches", &PriceDynamics::launches);

    m.def(
        "simulate_price_paths",
        [](const PriceDynamics& d, const Horizon& horizon, std::size_t futures, std::uint64_t seed, int term_years,
           unsigned threads) {
            return without_gil_until_ctrl_c([&] { return simulate_price_paths(d, horizon, futures, seed, term_years, threads); });
        },
        py::arg("dynamics"), py::arg("horizon"), py::arg("futures"), py::arg("seed"), py::kw_only(),
        py::arg("term_years") = 1, py::arg("threads") = 1u,
        "PricePaths of the model (reserved: the factor of `term_years`, 1 or 3; with 0 both: reserved the 1-year "
        "factor, reserved_3y the 3-year one); the same for any thread count.");
    using OneProcess = Eigen::ArrayXXd (*)(const LogPriceProcess&, int, std::size_t, std::uint64_t, double);
    using ProcessPerPath = Eigen::ArrayXXd (*)(const std::vector<LogPriceProcess>&, int, std::uint64_t, double);
    m.def("simulate_log_prices", static_cast<OneProcess>(&simulate_log_prices), py::arg("process"), py::arg("months"),
          py::arg("paths"), py::arg("seed"), py::kw_only(), py::arg("initial_deviation") = 0.0,
          "months × paths log prices of one process (NumPy array), each path from its own (seed, path) stream.");
    m.def("simulate_log_prices_per_path", static_cast<ProcessPerPath>(&simulate_log_prices), py::arg("processes"),
          py::arg("months"), py::arg("seed"), py::kw_only(), py::arg("initial_deviation") = 0.0,
          "months × len(processes) log prices, path j following processes[j] (e.g. draw_processes' sets).");
    m.def("implied_forward_hourly", &implied_forward_hourly, py::arg("one_year_hourly"), py::arg("three_year_hourly"),
          "The hourly price for years 2-3 implied by published 1- and 3-year prices: (3 p3 - p1) / 2.");

    py::class_<ProcessFit>(m, "ProcessFit", "A maximum-likelihood fit: estimates, standard errors (NaN at a bound).")
        .def_readonly("process", &ProcessFit::process)
        .def_readonly("standard_error", &ProcessFit::standard_error)
        .def_readonly("log_likelihood", &ProcessFit::log_likelihood)
        .def_readonly("transitions", &ProcessFit::transitions)
        .def_readonly("series", &ProcessFit::series)
        .def_readonly("covariance", &ProcessFit::covariance);
    m.def(
        "simulate_price_paths_per_future",
        [](const std::vector<PriceDynamics>& per_future, const Horizon& horizon, std::size_t futures, std::uint64_t seed,
           int term_years, unsigned threads) {
            return without_gil_until_ctrl_c([&] {
                PricePaths out;
                simulate_price_paths(per_future, horizon, futures, seed, term_years, out, threads);
                return out;
            });
        },
        py::arg("per_future"), py::arg("horizon"), py::arg("futures"), py::arg("seed"), py::kw_only(),
        py::arg("term_years") = 1, py::arg("threads") = 1u,
        "PricePaths with future f following per_future[f % len(per_future)] (e.g. draw_dynamics' sets).");
    m.def("draw_dynamics", &draw_dynamics, py::arg("fit"), py::arg("count"), py::arg("seed"),
          "PriceDynamics drawn from a DynamicsFit's uncertainty, one per future.");
    m.def("draw_processes", &draw_processes, py::arg("fits"), py::arg("count"), py::arg("seed"),
          "Parameter sets drawn from the fits' approximate posteriors, set j from fits[j % len(fits)].");
    m.def(
        "fit_by_period",
        [](const std::vector<std::vector<double>>& series, const std::vector<int>& first_month, int period_months,
           double min_volatility, int max_jumps_per_month, bool jumps, int max_iterations, std::optional<double> fixed_reversion) {
            const FitOptions options = fit_options(min_volatility, max_jumps_per_month, jumps, max_iterations, fixed_reversion);
            return without_gil_until_ctrl_c([&] { return fit_by_period(series, first_month, period_months, options); });
        },
        py::arg("series"), py::arg("first_month"), py::arg("period_months"), py::kw_only(),
        py::arg("min_volatility") = FitOptions{}.min_volatility, py::arg("max_jumps_per_month") = FitOptions{}.max_jumps_per_month,
        py::arg("jumps") = FitOptions{}.jumps, py::arg("max_iterations") = FitOptions{}.max_iterations,
        py::arg("fixed_reversion") = py::none(), "One fit per period of `period_months` months (periods with < 8 transitions skipped).");
    m.def(
        "fit_log_price_process",
        [](const std::vector<std::vector<double>>& series, double min_volatility, int max_jumps_per_month, bool jumps,
           int max_iterations, std::optional<double> fixed_reversion) {
            const FitOptions options = fit_options(min_volatility, max_jumps_per_month, jumps, max_iterations, fixed_reversion);
            return without_gil_until_ctrl_c([&] { return fit_log_price_process(series, options); });
        },
        py::arg("series"), py::kw_only(), py::arg("min_volatility") = FitOptions{}.min_volatility,
        py::arg("max_jumps_per_month") = FitOptions{}.max_jumps_per_month, py::arg("jumps") = FitOptions{}.jumps,
        py::arg("max_iterations") = FitOptions{}.max_iterations, py::arg("fixed_reversion") = py::none(),
        "Maximum-likelihood fit of one process shared by monthly log-price series (lists of floats).");

    py::class_<PriceRecord>(m, "PriceRecord", "One dated price of a price-history CSV row.")
        .def_property_readonly("series", [](const PriceRecord& r) { return r.observation.series; })
        .def_property_readonly("date", [](const PriceRecord& r) { return r.observation.date.iso(); })
        .def_property_readonly("price", [](const PriceRecord& r) { return r.observation.price; })
        .def_readonly("gpu", &PriceRecord::gpu)
        .def_readonly("option", &PriceRecord::option)
        .def_readonly("source", &PriceRecord::source);
    m.def("read_price_history_csv", &read_price_history_csv, py::arg("path"),
          "The rows of a price-history CSV (data/price_history/*.csv).");

    py::class_<DynamicsFit>(m, "DynamicsFit", "A PriceDynamics fitted to one GPU family, with each component's fit.")
        .def_readonly("dynamics", &DynamicsFit::dynamics)
        .def_readonly("on_demand", &DynamicsFit::on_demand)
        .def_readonly("spot_spread", &DynamicsFit::spot_spread)
        .def_readonly("reserved_1y_spread", &DynamicsFit::reserved_1y_spread)
        .def_readonly("reserved_3y_spread", &DynamicsFit::reserved_3y_spread)
        .def_readonly("spot_correlation_standard_error", &DynamicsFit::spot_correlation_standard_error)
        .def_readonly("notes", &DynamicsFit::notes);
    m.def(
        "fit_price_dynamics",
        [](const std::vector<PriceRecord>& records, const std::string& gpu, const std::optional<std::string>& until,
           double min_volatility, int max_jumps_per_month, int max_iterations) {
            const FitOptions options = fit_options(min_volatility, max_jumps_per_month, true, max_iterations);
            const std::optional<Date> cut = optional_date(until, "until");
            return without_gil_until_ctrl_c([&] { return fit_price_dynamics(records, gpu, options, cut); });
        },
        py::arg("records"), py::arg("gpu"), py::kw_only(), py::arg("until") = py::none(),
        py::arg("min_volatility") = FitOptions{}.min_volatility,
        py::arg("max_jumps_per_month") = FitOptions{}.max_jumps_per_month,
        py::arg("max_iterations") = FitOptions{}.max_iterations,
        "Fit one GPU family's PriceDynamics to price records, from data before `until` (YYYY-MM[-DD]) only if given.");
}

}  // namespace gputco::python
