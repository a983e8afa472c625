// Strategies: how capacity is bought. Plain values with keyword constructors; enums are strings
// ("no_upfront", "renew", ...) as everywhere in the Python API.
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/strategy/strategy.hpp>

namespace gputco::python {

namespace {

using Kind = std::variant<Reserved, Owned, SpotTranche, OnDemand>;

Tranche to_tranche(const py::handle& item, std::size_t index) {
    if (py::isinstance<Tranche>(item)) return item.cast<Tranche>();
    const std::string field = fmt::format("mix.tranches[{}]", index);
    if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item) || py::isinstance<py::bytes>(item)) {
        throw py::type_error(fmt::format("{} = {}: must be a Tranche or a (fraction, kind) pair, not {}", field,
                                         printable_utf8(py::repr(item).cast<std::string>(), 60),
                                         Py_TYPE(item.ptr())->tp_name));
    }
    const auto pair = item.cast<py::sequence>();
    require(pair.size() == 2, field + ".size", pair.size(), "must be 2 (fraction, kind)");
    return Tranche{cast_argument<double>(pair[0], field + ".fraction", "a number"),
                   cast_argument<Kind>(pair[1], field + ".kind", "Reserved, Owned, SpotTranche or OnDemand")};
}

std::string repr_kind(const Kind& kind) {
    return std::visit([](const auto& k) { return std::string(py::str(py::repr(py::cast(k)))); }, kind);
}

}  // namespace

void register_strategy(py::module_& m) {
    py::class_<OnDemand>(m, "OnDemand", "Pay the list price for every GPU-hour used.")
        .def(py::init<>())
        .def("__repr__", [](const OnDemand&) { return std::string("OnDemand()"); })
        .def("__str__", [](const OnDemand& s) { return describe(Strategy{s}); });

    py::class_<Reserved>(m, "Reserved",
                         "A 1- or 3-year reservation: upfront at the start of each term plus an hourly "
                         "fee for every hour of the term, used or not.")
        .def(py::init([](int term_years, std::string_view payment, std::optional<double> reservation_discount,
                         std::string_view renewal, std::optional<double> discount) {
                 return Reserved{term_years, parse_payment(payment, "reserved.payment"),
                                 renamed_keyword(reservation_discount, discount, "reservation_discount", "discount"),
                                 parse<Renewal>(renewal, "reserved.renewal")};
             }),
             py::kw_only(), py::arg("term_years") = 1, py::arg("payment") = "no_upfront",
             py::arg("reservation_discount") = py::none(), py::arg("renewal") = "renew",
             py::arg("discount") = py::none())
        .def_readonly("term_years", &Reserved::term_years)
        .def_property_readonly("payment", [](const Reserved& r) { return std::string(to_string(r.payment)); })
        .def_readonly("reservation_discount", &Reserved::reservation_discount)
        .def_property_readonly("discount", [](const Reserved& c) {  // the old spelling
            warn_renamed_attribute("discount", "reservation_discount");
            return c.reservation_discount;
        })
        .def_property_readonly("renewal", [](const Reserved& r) { return std::string(to_text(r.renewal)); })
        .def("__repr__",
             [](const Reserved& r) {
                 return fmt::format("Reserved(term_years={}, payment='{}', reservation_discount={}, renewal='{}')",
                                    r.term_years, to_string(r.payment),
                                    r.reservation_discount ? fmt::format("{}", *r.reservation_discount) : "None",
                                    to_text(r.renewal));
             })
        .def("__str__", [](const Reserved& s) { return describe(Strategy{s}); });

    py::class_<Owned>(m, "Owned",
                      "Owning the GPUs (buy vs rent): capex per GPU, straight-line depreciation to a residual "
                      "value over `life_years`, power by utilisation and PUE, colocation, maintenance and staff. "
                      "Amounts in the offering's currency.")
        .def(py::init([](double capex_per_gpu, int life_years, double residual_fraction, double watts_per_gpu,
                         double idle_power_fraction, double pue, double electricity_per_kwh,
                         double colocation_per_gpu_month, double maintenance_fraction_per_year,
                         double staff_per_month) {
                 Owned o{capex_per_gpu,           life_years,           residual_fraction,
                         watts_per_gpu,           idle_power_fraction,  pue,
                         electricity_per_kwh,     colocation_per_gpu_month, maintenance_fraction_per_year,
                         staff_per_month};
                 o.validate();
                 return o;
             }),
             py::kw_only(), py::arg("capex_per_gpu"), py::arg("life_years") = 4, py::arg("residual_fraction") = 0.1,
             py::arg("watts_per_gpu") = 400.0, py::arg("idle_power_fraction") = 0.3, py::arg("pue") = 1.3,
             py::arg("electricity_per_kwh") = 0.12, py::arg("colocation_per_gpu_month") = 0.0,
             py::arg("maintenance_fraction_per_year") = 0.0, py::arg("staff_per_month") = 0.0)
        .def_readonly("capex_per_gpu", &Owned::capex_per_gpu)
        .def_readonly("life_years", &Owned::life_years)
        .def_readonly("residual_fraction", &Owned::residual_fraction)
        .def_readonly("watts_per_gpu", &Owned::watts_per_gpu)
        .def_readonly("idle_power_fraction", &Owned::idle_power_fraction)
        .def_readonly("pue", &Owned::pue)
        .def_readonly("electricity_per_kwh", &Owned::electricity_per_kwh)
        .def_readonly("colocation_per_gpu_month", &Owned::colocation_per_gpu_month)
        .def_readonly("maintenance_fraction_per_year", &Owned::maintenance_fraction_per_year)
        .def_readonly("staff_per_month", &Owned::staff_per_month)
        .def("__repr__",
             [](const Owned& o) {
                 return fmt::format("Owned(capex_per_gpu={}, life_years={}, residual_fraction={}, pue={})",
                                    o.capex_per_gpu, o.life_years, o.residual_fraction, o.pue);
             })
        .def("__str__", [](const Owned& s) { return describe(Strategy{s}); });

    py::class_<SpotTranche>(m, "SpotTranche",
                            "Spot capacity inside a Mix: each useful GPU-hour costs `overhead` billed "
                            "hours; hours without spot capacity fall to on-demand.")
        .def(py::init([](std::optional<double> price_per_gpu_hour, double overhead, double availability,
                         const py::array_t<double, py::array::c_style | py::array::forcecast>& samples) {
                 require(samples.ndim() == 1, "spot.overhead_samples.ndim", samples.ndim(), "must be 1");
                 SpotTranche s;
                 s.price_per_gpu_hour = price_per_gpu_hour;
                 s.overhead = overhead;
                 s.availability = availability;
                 s.overhead_samples.assign(samples.data(), samples.data() + samples.size());
                 s.validate();
                 return s;
             }),
             py::kw_only(), py::arg("price_per_gpu_hour") = py::none(), py::arg("overhead") = 1.0,
             py::arg("availability") = 1.0,
             py::arg("overhead_samples") = py::array_t<double>(0))
        .def_readonly("price_per_gpu_hour", &SpotTranche::price_per_gpu_hour)
        .def_readonly("overhead", &SpotTranche::overhead)
        .def_readonly("availability", &SpotTranche::availability)
        .def_property_readonly("overhead_samples",
                               [](const SpotTranche& s) {
                                   return py::array_t<double>(py::ssize_t(s.overhead_samples.size()),
                                                              s.overhead_samples.data());
                               })
        .def("__repr__", [](const SpotTranche& s) {
            return fmt::format("SpotTranche(price_per_gpu_hour={}, overhead={}, availability={}, "
                               "overhead_samples=<{} values>)",
                               s.price_per_gpu_hour ? fmt::format("{}", *s.price_per_gpu_hour) : "None",
                               s.overhead, s.availability, s.overhead_samples.size());
        });

    py::class_<Tranche>(m, "Tranche", "One share of a Mix: `fraction` of the fleet bought as `kind`.")
        .def(py::init([](double fraction, Kind kind) { return Tranche{fraction, std::move(kind)}; }),
             py::arg("fraction"), py::arg("kind"))
        .def_readonly("fraction", &Tranche::fraction)
        .def_readonly("kind", &Tranche::kind)
        .def("__repr__", [](const Tranche& t) {
            return fmt::format("Tranche({}, {})", t.fraction, repr_kind(t.kind));
        });

    py::class_<Mix>(m, "Mix",
                    "A hybrid fleet, e.g. Mix([(0.7, Reserved(term_years=3)), (0.3, OnDemand())]). "
                    "Fractions are of the fleet (default: peak demand) and sum to 1.")
        .def(py::init([](const py::iterable& tranches, std::optional<double> fleet_gpus,
                         std::string_view rounding) {
                 Mix mix;
                 for (const py::handle item : tranches)
                     mix.tranches.push_back(to_tranche(item, mix.tranches.size()));
                 mix.fleet_gpus = fleet_gpus;
                 mix.rounding = parse<Rounding>(rounding, "mix.rounding");
                 mix.validate();
                 return mix;
             }),
             py::arg("tranches"), py::kw_only(), py::arg("fleet_gpus") = py::none(),
             py::arg("rounding") = std::string(to_text(Mix{}.rounding)),  // the C++ default
             "tranches: Tranche objects or (fraction, kind) pairs; rounding of each share's GPU count: "
             "\"nearest\" (default), \"down\", \"up\" or \"none\" (fractional GPUs)")
        .def_readonly("tranches", &Mix::tranches)
        .def_readonly("fleet_gpus", &Mix::fleet_gpus)
        .def_property_readonly("rounding", [](const Mix& mix) { return std::string(to_text(mix.rounding)); })
        .def("__repr__",
             [](const Mix& mix) {
                 std::string parts;
                 for (const Tranche& t : mix.tranches) {
                     if (!parts.empty()) parts += ", ";
                     parts += fmt::format("({}, {})", t.fraction, repr_kind(t.kind));
                 }
                 return fmt::format("Mix([{}], fleet_gpus={}, rounding='{}')", parts,
                                    mix.fleet_gpus ? fmt::format("{}", *mix.fleet_gpus) : "None",
                                    to_text(mix.rounding));
             })
        .def("__str__", [](const Mix& s) { return describe(Strategy{s}); });

    py::class_<Discounts>(m, "Discounts",
                          "Price adjustments: on-demand discount, free GPU-hours, vouchers, region factor.")
        .def(py::init([](std::optional<double> on_demand_discount, double free_gpu_hours, double voucher_price_factor,
                         double region_price_factor, std::optional<double> plan_discount) {
                 Discounts d{renamed_keyword(on_demand_discount, plan_discount, "on_demand_discount", "plan_discount")
                                 .value_or(0.0),
                             free_gpu_hours, voucher_price_factor, region_price_factor};
                 d.validate();
                 return d;
             }),
             py::kw_only(), py::arg("on_demand_discount") = py::none(), py::arg("free_gpu_hours") = 0.0,
             py::arg("voucher_price_factor") = 1.0, py::arg("region_price_factor") = 1.0,
             py::arg("plan_discount") = py::none())
        .def_readonly("on_demand_discount", &Discounts::on_demand_discount)
        .def_property_readonly("plan_discount", [](const Discounts& d) {  // the old spelling
            warn_renamed_attribute("plan_discount", "on_demand_discount");
            return d.on_demand_discount;
        })
        .def_readonly("free_gpu_hours", &Discounts::free_gpu_hours)
        .def_readonly("voucher_price_factor", &Discounts::voucher_price_factor)
        .def_readonly("region_price_factor", &Discounts::region_price_factor)
        .def("__repr__", [](const Discounts& d) {
            return fmt::format("Discounts(on_demand_discount={}, free_gpu_hours={}, voucher_price_factor={}, "
                               "region_price_factor={})",
                               d.on_demand_discount, d.free_gpu_hours, d.voucher_price_factor,
                               d.region_price_factor);
        });

    m.def("describe", [](const Strategy& s) { return describe(s); }, py::arg("strategy"),
          "A short human name, e.g. '70% reserved 3y all_upfront + 30% on-demand'.");
}

}  // namespace gputco::python
