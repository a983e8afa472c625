// Interruption models of spot capacity and the provider rules around them. Each model validates on
// construction, so a bad parameter is reported where it is written.
#include "register.hpp"

#include <pybind11/stl.h>

#include <limits>

#include <fmt/format.h>
#include <gputco/engines/interruption.hpp>

namespace gputco::python {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

template <class Model>
Model validated(Model model) {
    validate(InterruptionModel{model});
    return model;
}

std::string rules_repr(const ProviderRules& r) {
    return fmt::format("ProviderRules(notice_hours={}, emergency_checkpoint={}, protection_hours={}, "
                       "max_lifetime_hours={})",
                       r.notice_hours, r.emergency_checkpoint ? "True" : "False", r.protection_hours,
                       r.max_lifetime_hours);
}

}  // namespace

void register_interruption(py::module_& m) {
    py::class_<ProviderRules>(m, "ProviderRules",
                              "Provider behaviour around an interruption: notice, emergency checkpoint, "
                              "protection period, maximum lifetime.")
        .def(py::init([](double notice_hours, bool emergency_checkpoint, double protection_hours,
                         double max_lifetime_hours) {
                 ProviderRules r{notice_hours, emergency_checkpoint, protection_hours, max_lifetime_hours};
                 r.validate();
                 return r;
             }),
             py::kw_only(), py::arg("notice_hours") = 0.0, py::arg("emergency_checkpoint") = false,
             py::arg("protection_hours") = 0.0, py::arg("max_lifetime_hours") = inf)
        .def_readonly("notice_hours", &ProviderRules::notice_hours)
        .def_readonly("emergency_checkpoint", &ProviderRules::emergency_checkpoint)
        .def_readonly("protection_hours", &ProviderRules::protection_hours)
        .def_readonly("max_lifetime_hours", &ProviderRules::max_lifetime_hours)
        .def("__repr__", &rules_repr);

    m.def("aws_rules", &aws_rules, "AWS spot: 2-minute notice, emergency checkpoint when it fits.");
    m.def("gcp_preemptible_rules", &gcp_preemptible_rules,
          "GCP preemptible VM: 30-second notice, emergency checkpoint when it fits, stopped at 24 h.");
    m.def("alibaba_rules", &alibaba_rules,
          "Alibaba Cloud spot: 5-minute notice, emergency checkpoint, 1-hour protection period.");

    py::class_<Poisson>(m, "Poisson", "Interruptions as a Poisson process: exponential lifetimes.")
        .def(py::init([](double mtbf_hours, const ProviderRules& rules) {
                 return validated(Poisson{mtbf_hours, rules});
             }),
             py::arg("mtbf_hours"), py::kw_only(), py::arg("rules") = ProviderRules{})
        .def_readonly("mtbf_hours", &Poisson::mtbf_hours)
        .def_readonly("rules", &Poisson::rules)
        .def("__repr__", [](const Poisson& p) {
            return fmt::format("Poisson(mtbf_hours={}, rules={})", p.mtbf_hours, rules_repr(p.rules));
        });

    py::class_<Weibull>(m, "Weibull", "Weibull(shape, scale_hours) instance lifetimes since launch.")
        .def(py::init([](double shape, double scale_hours, const ProviderRules& rules) {
                 return validated(Weibull{shape, scale_hours, rules});
             }),
             py::arg("shape"), py::arg("scale_hours"), py::kw_only(), py::arg("rules") = ProviderRules{})
        .def_readonly("shape", &Weibull::shape)
        .def_readonly("scale_hours", &Weibull::scale_hours)
        .def_readonly("rules", &Weibull::rules)
        .def("__repr__", [](const Weibull& w) {
            return fmt::format("Weibull(shape={}, scale_hours={}, rules={})", w.shape, w.scale_hours,
                               rules_repr(w.rules));
        });

    py::class_<Trace>(m, "Trace", "Replay of measured instance lifetimes (bootstrap).")
        .def(py::init([](std::vector<double> lifetimes_hours, std::string source, std::size_t censored_count,
                         const ProviderRules& rules) {
                 return validated(Trace{std::move(lifetimes_hours), std::move(source), censored_count, rules});
             }),
             py::arg("lifetimes_hours"), py::kw_only(), py::arg("source") = "",
             py::arg("censored_count") = 0, py::arg("rules") = ProviderRules{})
        .def_static("parse_lifetimes", &Trace::parse_lifetimes, py::arg("text"), py::arg("source") = "")
        .def_static("from_node_events", &Trace::from_node_events, py::arg("text"),
                    py::arg("hours_per_time_unit") = 1.0 / 3.6e6, py::arg("source") = "")
        .def_static(
            "load",
            [](const py::object& path) {
                return Trace::load(py::module_::import("os").attr("fspath")(path).cast<std::string>());
            },
            py::arg("path"))
        .def_readonly("lifetimes_hours", &Trace::lifetimes_hours)
        .def_readonly("source", &Trace::source)
        .def_readonly("censored_count", &Trace::censored_count)
        .def_readonly("rules", &Trace::rules)
        .def("mean_lifetime_hours", &Trace::mean_lifetime_hours)
        .def("__repr__", [](const Trace& t) {
            return fmt::format("Trace(<{} lifetimes>, source='{}', censored_count={})", t.lifetimes_hours.size(),
                               t.source, t.censored_count);
        });

    py::class_<PriceDriven>(m, "PriceDriven",
                            "Mean-reverting log spot price; the instance stops while price > cap.")
        .def(py::init([](double reversion_per_hour, double volatility_per_sqrt_hour, double price_cap_per_hour,
                         double step_hours, const ProviderRules& rules) {
                 return validated(PriceDriven{reversion_per_hour, volatility_per_sqrt_hour, price_cap_per_hour,
                                              step_hours, rules});
             }),
             py::kw_only(), py::arg("reversion_per_hour") = 0.1, py::arg("volatility_per_sqrt_hour") = 0.1,
             py::arg("price_cap_per_hour") = inf, py::arg("step_hours") = 1.0 / 12,
             py::arg("rules") = ProviderRules{})
        .def_readonly("reversion_per_hour", &PriceDriven::reversion_per_hour)
        .def_readonly("volatility_per_sqrt_hour", &PriceDriven::volatility_per_sqrt_hour)
        .def_readonly("price_cap_per_hour", &PriceDriven::price_cap_per_hour)
        .def_readonly("step_hours", &PriceDriven::step_hours)
        .def_readonly("rules", &PriceDriven::rules)
        .def("__repr__", [](const PriceDriven& p) {
            return fmt::format("PriceDriven(reversion_per_hour={}, volatility_per_sqrt_hour={}, "
                               "price_cap_per_hour={}, step_hours={}, rules={})",
                               p.reversion_per_hour, p.volatility_per_sqrt_hour, p.price_cap_per_hour,
                               p.step_hours, rules_repr(p.rules));
        });

    m.def("mtbf_from_monthly_interruption_fraction", &mtbf_from_monthly_interruption_fraction,
          py::arg("fraction"), "MTBF of a Poisson model from the share of instances interrupted per month.");
    m.def("advisor_bucket_fraction", &advisor_bucket_fraction, py::arg("bucket_index"),
          "Representative monthly interruption fraction of an AWS Spot Advisor bucket (0..4).");
    m.def("advisor_bucket", &advisor_bucket, py::arg("bucket_index"), py::arg("rules") = aws_rules(),
          "Poisson model of an AWS Spot Advisor bucket (0..4), AWS rules by default.");
}

}  // namespace gputco::python
