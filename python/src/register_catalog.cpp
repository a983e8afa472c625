// Catalog: GPUs, offerings and their prices. Values are exposed read-only; new offerings are built
// with keyword arguments and validated on construction, as in C++.
#include "register.hpp"

#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/catalog/catalog.hpp>
#include <gputco/core/date.hpp>

namespace gputco::python {

namespace {

// Text from Python may arrive as bytes: only valid UTF-8 is kept, so every getter and repr can return a str.
Source make_source(const std::string& name, const std::string& as_of) {
    return Source{require_utf8("source.name", name), require_utf8("source.as_of", as_of), ""};
}

Date to_date(const py::object& value) { return Date::parse(py::str(value).cast<std::string>(), "date"); }

std::string repr(const Offering& o) {
    return fmt::format("Offering(provider='{}', region='{}', instance_type='{}', gpu='{}', "
                       "gpus_per_instance={}, on_demand_hourly={} {})",
                       o.provider, o.region, o.instance_type, o.gpu, o.gpus_per_instance,
                       o.on_demand_hourly, o.currency);
}

}  // namespace

void register_catalog(py::module_& m) {
    m.def("today", [] { return Date::today().iso(); },
          "Today's date (ISO) as the library ages prices: UTC by the system clock, or GPUTCO_TODAY when set.");

    py::class_<Source>(m, "Source", "Where a figure comes from and when it was true.")
        .def(py::init(&make_source), py::arg("name") = "", py::arg("as_of") = "")
        .def_readonly("name", &Source::name)
        .def_readonly("as_of", &Source::as_of)
        .def_readonly("row", &Source::row, "Where in the file, for imported rows ('line 12', '/Items/3').")
        .def("__repr__", [](const Source& s) {
            return fmt::format("Source(name='{}', as_of='{}')", s.name, s.as_of);
        });

    py::class_<GpuSpec>(m, "GpuSpec", "Hardware facts of one GPU model (per card).")
        .def(py::init([](std::string name, std::string vendor, double memory_gb,
                         double memory_bandwidth_gbps, double fp16_tflops, double fp32_tflops,
                         double tdp_watts, Source source) {
                 require_utf8("gpu.name", name);
                 require_utf8("gpu.vendor", vendor);
                 return GpuSpec{std::move(name), std::move(vendor), memory_gb, memory_bandwidth_gbps,
                                fp16_tflops, fp32_tflops, tdp_watts, std::move(source)};
             }),
             py::kw_only(), py::arg("name"), py::arg("vendor") = "", py::arg("memory_gb") = 0.0,
             py::arg("memory_bandwidth_gbps") = 0.0, py::arg("fp16_tflops") = 0.0,
             py::arg("fp32_tflops") = 0.0, py::arg("tdp_watts") = 0.0, py::arg("source") = Source{})
        .def_readonly("name", &GpuSpec::name)
        .def_readonly("vendor", &GpuSpec::vendor)
        .def_readonly("memory_gb", &GpuSpec::memory_gb)
        .def_readonly("memory_bandwidth_gbps", &GpuSpec::memory_bandwidth_gbps)
        .def_readonly("fp16_tflops", &GpuSpec::fp16_tflops)
        .def_readonly("fp32_tflops", &GpuSpec::fp32_tflops)
        .def_readonly("tdp_watts", &GpuSpec::tdp_watts)
        .def_readonly("source", &GpuSpec::source)
        .def_readonly("notes", &GpuSpec::notes)
        .def_readonly("interconnect", &GpuSpec::interconnect)
        .def("__repr__", [](const GpuSpec& g) {
            return fmt::format("GpuSpec(name='{}', vendor='{}', memory_gb={})", g.name, g.vendor,
                               g.memory_gb);
        });

    py::class_<ReservedPrice>(m, "ReservedPrice",
                              "A reservation price per instance: `upfront` at the start of the term "
                              "and `hourly` for every hour of the term, used or not.")
        .def(py::init([](int term_years, std::string_view payment, double upfront, double hourly,
                         Source source) {
                 return ReservedPrice{term_years, parse_payment(payment), upfront, hourly,
                                      std::move(source)};
             }),
             py::kw_only(), py::arg("term_years") = 1, py::arg("payment") = "no_upfront",
             py::arg("upfront") = 0.0, py::arg("hourly") = 0.0, py::arg("source") = Source{})
        .def_readonly("term_years", &ReservedPrice::term_years)
        .def_property_readonly("payment",
                               [](const ReservedPrice& r) { return std::string(to_string(r.payment)); })
        .def_readonly("upfront", &ReservedPrice::upfront)
        .def_readonly("hourly", &ReservedPrice::hourly)
        .def_readonly("source", &ReservedPrice::source)
        .def_readonly("convertible", &ReservedPrice::convertible)
        .def("effective_hourly", &ReservedPrice::effective_hourly,
             "hourly + upfront / (term_years * 8760), per instance-hour")
        .def("__repr__", [](const ReservedPrice& r) {
            return fmt::format("ReservedPrice(term_years={}, payment='{}', upfront={}, hourly={})",
                               r.term_years, to_string(r.payment), r.upfront, r.hourly);
        });

    py::class_<PriceSnapshot>(m, "PriceSnapshot", "The prices of an offering from one date on.")
        .def_property_readonly("effective_from", [](const PriceSnapshot& s) { return s.effective_from.iso(); })
        .def_readonly("on_demand_hourly", &PriceSnapshot::on_demand_hourly)
        .def_readonly("spot_hourly", &PriceSnapshot::spot_hourly)
        .def_readonly("reserved", &PriceSnapshot::reserved)
        .def_readonly("source", &PriceSnapshot::source)
        .def_readonly("notes", &PriceSnapshot::notes)
        .def_readonly("spot_only", &PriceSnapshot::spot_only)
        .def("__repr__", [](const PriceSnapshot& s) {
            return fmt::format("PriceSnapshot(effective_from='{}', on_demand_hourly={})", s.effective_from.iso(), s.on_demand_hourly);
        });

    py::class_<SavingsPlanRate>(m, "SavingsPlanRate",
                                "A Savings Plan rate per instance-hour for a plan type, term and payment.")
        .def(py::init([](std::string_view type, int term_years, std::string_view payment, double hourly, Source source) {
                 return SavingsPlanRate{parse<SavingsPlanType>(type, "savings_plan_rate.type"), term_years,
                                        parse_payment(payment, "savings_plan_rate.payment"), hourly, std::move(source)};
             }),
             py::kw_only(), py::arg("type"), py::arg("term_years") = 1, py::arg("payment") = "no_upfront",
             py::arg("hourly"), py::arg("source") = Source{})
        .def_property_readonly("type", [](const SavingsPlanRate& r) { return std::string(to_text(r.type)); })
        .def_readonly("term_years", &SavingsPlanRate::term_years)
        .def_property_readonly("payment", [](const SavingsPlanRate& r) { return std::string(to_string(r.payment)); })
        .def_readonly("hourly", &SavingsPlanRate::hourly)
        .def_readonly("source", &SavingsPlanRate::source);

    py::class_<Offering>(m, "Offering", "One rentable instance type of one provider in one region.")
        .def(py::init([](std::string provider, std::string instance_type, std::string gpu,
                         double on_demand_hourly, int gpus_per_instance, std::string region,
                         std::string currency, std::optional<double> spot_hourly,
                         std::vector<ReservedPrice> reserved, double billing_increment_seconds,
                         double minimum_billed_seconds, Source source, std::string notes,
                         std::vector<SavingsPlanRate> savings_plans) {
                 Offering o;
                 o.savings_plans = std::move(savings_plans);
                 o.provider = std::move(provider);
                 o.region = std::move(region);
                 o.instance_type = std::move(instance_type);
                 o.gpu = std::move(gpu);
                 o.gpus_per_instance = gpus_per_instance;
                 o.currency = std::move(currency);
                 o.on_demand_hourly = on_demand_hourly;
                 o.spot_hourly = spot_hourly;
                 o.reserved = std::move(reserved);
                 o.billing_increment_seconds = billing_increment_seconds;
                 o.minimum_billed_seconds = minimum_billed_seconds;
                 o.source = std::move(source);
                 o.notes = std::move(notes);
                 o.validate();
                 return o;
             }),
             py::kw_only(), py::arg("provider"), py::arg("instance_type"), py::arg("gpu"),
             py::arg("on_demand_hourly"), py::arg("gpus_per_instance") = 1, py::arg("region") = "",
             py::arg("currency") = "USD", py::arg("spot_hourly") = py::none(),
             py::arg("reserved") = std::vector<ReservedPrice>{},
             py::arg("billing_increment_seconds") = 3600.0, py::arg("minimum_billed_seconds") = 0.0,
             py::arg("source") = Source{}, py::arg("notes") = "",
             py::arg("savings_plans") = std::vector<SavingsPlanRate>{})
        .def_readonly("provider", &Offering::provider)
        .def_readonly("savings_plans", &Offering::savings_plans)
        .def_readonly("region", &Offering::region)
        .def_readonly("instance_type", &Offering::instance_type)
        .def_readonly("gpu", &Offering::gpu)
        .def_readonly("gpus_per_instance", &Offering::gpus_per_instance)
        .def_readonly("currency", &Offering::currency)
        .def_readonly("on_demand_hourly", &Offering::on_demand_hourly)
        .def_readonly("spot_hourly", &Offering::spot_hourly)
        .def_readonly("reserved", &Offering::reserved)
        .def_readonly("billing_increment_seconds", &Offering::billing_increment_seconds)
        .def_readonly("minimum_billed_seconds", &Offering::minimum_billed_seconds)
        .def_readonly("source", &Offering::source)
        .def_readonly("notes", &Offering::notes)
        .def_readonly("zone", &Offering::zone)
        .def_property_readonly("effective_from",
                               [](const Offering& o) -> std::optional<std::string> {
                                   if (!o.effective_from) return std::nullopt;
                                   return o.effective_from->iso();
                               })
        .def_readonly("history", &Offering::history)
        // Sold one way only (an on_demand_hourly of 0 then means "not sold").
        .def_readonly("spot_only", &Offering::spot_only)
        .def_readonly("reservation_only", &Offering::reservation_only)
        // The EC2 Capacity Block rate per instance-hour (None where not known) and its own source and date.
        .def_readonly("capacity_block_hourly", &Offering::capacity_block_hourly)
        .def_property_readonly("capacity_block_source", &Offering::capacity_block_rate_source)
        .def("sells_on_demand", &Offering::sells_on_demand)
        .def(
            "price_at", [](const Offering& o, const py::object& date) { return o.price_at(to_date(date)); }, py::arg("date"),
            "This offering with the prices in force at `date` (ISO text or datetime.date).")
        .def(
            "has_price_at", [](const Offering& o, const py::object& date) { return o.has_price_at(to_date(date)); },
            py::arg("date"))
        .def_property_readonly("key", &Offering::key)
        .def("on_demand_per_gpu_hour", &Offering::on_demand_per_gpu_hour)
        .def("spot_per_gpu_hour", &Offering::spot_per_gpu_hour)
        .def(
            "reserved_price",
            [](const Offering& o, int term_years, std::string_view payment, bool convertible) {
                return o.reserved_price(term_years, parse_payment(payment), convertible);
            },
            py::arg("term_years"), py::arg("payment") = "no_upfront", py::arg("convertible") = false,
            "The reservation price for this term and payment, or None if unknown.")
        .def("converted", &Offering::converted, py::arg("to_currency"), py::arg("rate"),
             "All prices multiplied by `rate` (units of `to_currency` per unit of `currency`).")
        .def("validate", &Offering::validate)
        .def("__repr__", [](const Offering& o) { return repr(o); });

    py::class_<Catalog>(m, "Catalog", "GPUs and offerings, looked up by name.")
        .def(py::init<>())
        .def(py::init<std::vector<GpuSpec>, std::vector<Offering>>(), py::arg("gpus"),
             py::arg("offerings"))
        .def_static("builtin", &Catalog::builtin, py::return_value_policy::reference,
                    "The catalog compiled into the library.")
        .def_static(
            "from_json",
            [](std::string_view text) {
                return without_gil_until_ctrl_c([&] { return Catalog::from_json(text, &ctrl_c_pressed); });
            },
            py::arg("text"), "Parses the catalog JSON format (at most 16 MiB). Releases the GIL; Ctrl-C stops a large file.")
        .def_static(
            "from_json_file",
            [](const py::object& path) {
                const auto file = py::module_::import("os").attr("fspath")(path).cast<std::string>();
                return without_gil_until_ctrl_c([&] { return Catalog::from_json_file(file, &ctrl_c_pressed); });
            },
            py::arg("path"))
        .def("to_json", &Catalog::to_json)
        .def("overridden_by", &Catalog::overridden_by, py::arg("other"))
        .def("with_snapshots", &Catalog::with_snapshots, py::arg("other"),
             "This catalog with `other`'s prices kept as dated history.")
        .def(
            "as_of", [](const Catalog& c, const py::object& date) { return c.as_of(to_date(date)); }, py::arg("date"),
            "The catalog as it was at `date`: every offering at its price then.")
        .def_property_readonly("gpus", &Catalog::gpus, py::return_value_policy::reference_internal)
        .def_property_readonly("offerings", &Catalog::offerings,
                               py::return_value_policy::reference_internal)
        .def("gpu", &Catalog::gpu, py::arg("name"), py::return_value_policy::reference_internal)
        .def("knows_gpu", &Catalog::knows_gpu, py::arg("name"),
             "Whether `name` is a GPU with a spec or a share \"<card>/<n>\" of one.")
        .def("offering", &Catalog::offering, py::arg("provider"), py::arg("instance_type"),
             py::arg("region") = "", py::return_value_policy::reference_internal)
        .def(
            "find",
            [](const Catalog& c, const std::optional<std::string>& provider,
               const std::optional<std::string>& gpu, const std::optional<std::string>& region) {
                return c.find(provider.value_or(""), gpu.value_or(""), region.value_or(""));
            },
            py::arg("provider") = py::none(), py::arg("gpu") = py::none(),
            py::arg("region") = py::none(), "Offerings matching every given criterion.")
        .def("__len__", [](const Catalog& c) { return c.offerings().size(); })
        .def("__repr__", [](const Catalog& c) {
            return fmt::format("Catalog({} GPUs, {} offerings)", c.gpus().size(), c.offerings().size());
        });
}

}  // namespace gputco::python
