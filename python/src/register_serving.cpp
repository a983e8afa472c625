// Serving on spot across zones: replicas, extra spot, on-demand fallback and the plan search, on the
// zones' traces (SpotRegion); and on-demand capacity that may not be there (capacity_risk.hpp). Policies are strings ("static_spread", "even_spread_fallback",
// "spot_hedge"). The search runs without the GIL.
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gputco/engines/capacity_risk.hpp>
#include <gputco/engines/serving.hpp>
#include <gputco/engines/serving_commitment.hpp>

namespace gputco::python {

namespace {

// The config from keywords; without tick_hours, the zones' stated tick (else ServingConfig's default).
ServingConfig serving_config(const std::vector<SpotRegion>& zones, std::size_t target_replicas, std::size_t extra_spot,
                             std::size_t on_demand_base, double on_demand_price_per_hour, double launch_hours,
                             double notice_hours, std::optional<double> tick_hours) {
    ServingConfig config{.target_replicas = target_replicas, .extra_spot = extra_spot, .on_demand_base = on_demand_base,
                         .on_demand_price_per_hour = on_demand_price_per_hour, .launch_hours = launch_hours,
                         .notice_hours = notice_hours};
    if (tick_hours) config.tick_hours = *tick_hours;
    else if (!zones.empty() && zones[0].availability.tick_hours > 0) config.tick_hours = zones[0].availability.tick_hours;
    return config;
}

// Binds `name` (committed_base_cost or cheapest_with_committed_base): its first argument `first` of type First,
// then the offering and the keywords of the run's config and the committed base, bound once for both.
template <class First, class Price>
void def_committed_base(py::module_& m, const char* name, const char* first, Price price, const char* doc) {
    m.def(
        name,
        [price](const First& x, const Offering& offering, std::size_t target_replicas, double on_demand_price_per_hour,
                int term_years, std::string_view payment, std::optional<double> reservation_discount) {
            // The config the candidates were run with, as far as the pricing needs it.
            ServingConfig config;
            config.target_replicas = target_replicas;
            config.on_demand_price_per_hour = on_demand_price_per_hour;
            const CommittedBase base{term_years, parse_payment(payment, "base.payment"), reservation_discount};
            return price(x, config, offering, base);
        },
        py::arg(first), py::arg("offering"), py::kw_only(), py::arg("target_replicas"),
        py::arg("on_demand_price_per_hour"), py::arg("term_years") = 1, py::arg("payment") = "all_upfront",
        py::arg("reservation_discount") = std::nullopt, doc);
}

}  // namespace

void register_serving(py::module_& m) {
    py::class_<ServingResult>(m, "ServingResult", "One serving run: cost, availability and ready replicas.")
        .def_readonly("cost", &ServingResult::cost)
        .def_readonly("on_demand_only_cost", &ServingResult::on_demand_only_cost)
        .def_readonly("saving", &ServingResult::saving)
        .def_readonly("spot_hours", &ServingResult::spot_hours)
        .def_readonly("on_demand_hours", &ServingResult::on_demand_hours)
        .def_readonly("hours", &ServingResult::hours)
        .def_readonly("availability", &ServingResult::availability)
        .def_readonly("ready_histogram", &ServingResult::ready_histogram)
        .def_readonly("launches", &ServingResult::launches)
        .def_readonly("preemptions", &ServingResult::preemptions)
        .def_property_readonly("ready", [](const ServingResult& r) {
            return py::array_t<std::uint32_t>(py::ssize_t(r.ready.size()), r.ready.data());
        })
        .def("__repr__", [](const ServingResult& r) {
            return fmt::format("ServingResult(cost={:.6g}, availability={:.6g}, saving={:.6g}, on_demand_hours={:.6g})",
                               r.cost, r.availability, r.saving, r.on_demand_hours);
        });

    py::class_<ServingCandidate>(m, "ServingCandidate", "One configuration of the plan search and its run.")
        .def_property_readonly("policy", [](const ServingCandidate& c) { return std::string(to_string(c.policy)); })
        .def_readonly("extra_spot", &ServingCandidate::extra_spot)
        .def_readonly("on_demand_base", &ServingCandidate::on_demand_base)
        .def_readonly("result", &ServingCandidate::result)
        .def_readonly("meets_target", &ServingCandidate::meets_target)
        .def("__repr__", [](const ServingCandidate& c) {
            return fmt::format("ServingCandidate(policy=\"{}\", extra_spot={}, on_demand_base={}, cost={:.6g}, "
                               "availability={:.6g})",
                               to_string(c.policy), c.extra_spot, c.on_demand_base, c.result.cost, c.result.availability);
        });

    py::class_<ServingPlan>(m, "ServingPlan", "Every candidate of the search, the cheapest meeting the target, the bound.")
        .def_readonly("candidates", &ServingPlan::candidates)
        .def_readonly("best", &ServingPlan::best)
        .def_readonly("lower_bound", &ServingPlan::lower_bound);

    m.def("serving_frontier", &serving_frontier, py::arg("plan"),
          "Indices of the candidates on the frontier of cost against availability, cheapest first.");
    m.def("serving_policies", [] {
        std::vector<std::string> names;
        for (const ServingPolicy p : all_serving_policies()) names.emplace_back(to_string(p));
        return names;
    }, "The serving policies' names, in the library's order.");

    m.def(
        "simulate_serving",
        [](const std::vector<SpotRegion>& zones, std::string_view policy, std::size_t target_replicas,
           double on_demand_price_per_hour, std::size_t extra_spot, std::size_t on_demand_base, double launch_hours,
           double notice_hours, std::optional<double> tick_hours, std::optional<SpotAvailability> on_demand) {
            const auto config = serving_config(zones, target_replicas, extra_spot, on_demand_base,
                                               on_demand_price_per_hour, launch_hours, notice_hours, tick_hours);
            if (on_demand) return simulate_serving(zones, *on_demand, config, parse_serving_policy(policy));
            return simulate_serving(zones, config, parse_serving_policy(policy));
        },
        py::arg("zones"), py::arg("policy"), py::kw_only(), py::arg("target_replicas"),
        py::arg("on_demand_price_per_hour"), py::arg("extra_spot") = std::size_t{0},
        py::arg("on_demand_base") = std::size_t{0}, py::arg("launch_hours") = 0.0, py::arg("notice_hours") = 0.0,
        py::arg("tick_hours") = std::nullopt, py::arg("on_demand") = std::nullopt,
        "Runs a serving policy over the zones' traces (tick_hours defaults to the traces' stated tick); "
        "on_demand, a trace, says when on-demand has capacity (default: always).");

    m.def(
        "serving_lower_bound",
        [](const std::vector<SpotRegion>& zones, std::size_t target_replicas, double on_demand_price_per_hour,
           std::optional<double> tick_hours) {
            const auto config =
                serving_config(zones, target_replicas, 0, 0, on_demand_price_per_hour, 0, 0, tick_hours);
            return serving_lower_bound(zones, config);
        },
        py::arg("zones"), py::kw_only(), py::arg("target_replicas"), py::arg("on_demand_price_per_hour"),
        py::arg("tick_hours") = std::nullopt,
        "The omniscient bound: N replicas at the cheapest price on offer in each tick.");

    m.def(
        "choose_serving_plan",
        [](const std::vector<SpotRegion>& zones, std::size_t target_replicas, double on_demand_price_per_hour,
           double availability_target, std::optional<std::vector<std::string>> policies, std::size_t max_extra,
           std::size_t max_on_demand_base, double launch_hours, double notice_hours, std::optional<double> tick_hours,
           unsigned threads) {
            const auto config = serving_config(zones, target_replicas, 0, 0, on_demand_price_per_hour, launch_hours,
                                               notice_hours, tick_hours);
            ServingSearch search{.max_extra = max_extra, .max_on_demand_base = max_on_demand_base,
                                 .availability_target = availability_target, .threads = threads};
            if (policies) {
                search.policies.clear();
                for (std::size_t i = 0; i < policies->size(); ++i)
                    search.policies.push_back(parse_serving_policy((*policies)[i], fmt::format("policies[{}]", i)));
            }
            py::gil_scoped_release release;
            return choose_serving_plan(zones, config, search);
        },
        py::arg("zones"), py::kw_only(), py::arg("target_replicas"), py::arg("on_demand_price_per_hour"),
        py::arg("availability_target") = 0.999, py::arg("policies") = std::nullopt, py::arg("max_extra") = std::size_t{4},
        py::arg("max_on_demand_base") = std::size_t{0}, py::arg("launch_hours") = 0.0, py::arg("notice_hours") = 0.0,
        py::arg("tick_hours") = std::nullopt, py::arg("threads") = 0u,
        "The cheapest (policy, extra spot, on-demand base) keeping >= target_replicas ready for availability_target "
        "of the ticks, with every candidate's figures.");

    // ------------------------------------------------------------------ a committed base plus spot on top
    py::class_<CommittedServingCost>(m, "CommittedServingCost",
                                     "A serving configuration over one commitment term with its on-demand base committed.")
        .def_readonly("hours", &CommittedServingCost::hours)
        .def_readonly("base_replicas", &CommittedServingCost::base_replicas)
        .def_readonly("base_commitment_cost", &CommittedServingCost::base_commitment_cost)
        .def_readonly("base_on_demand_cost", &CommittedServingCost::base_on_demand_cost)
        .def_readonly("spot_and_fallback_cost", &CommittedServingCost::spot_and_fallback_cost)
        .def_readonly("total", &CommittedServingCost::total)
        .def_readonly("on_demand_total", &CommittedServingCost::on_demand_total)
        .def_readonly("on_demand_only_cost", &CommittedServingCost::on_demand_only_cost)
        .def_readonly("saving", &CommittedServingCost::saving);
    def_committed_base<ServingCandidate>(
        m, "committed_base_cost", "candidate",
        [](const ServingCandidate& candidate, const ServingConfig& config, const Offering& offering,
           const CommittedBase& base) { return committed_base_cost(candidate, config, offering, base); },
        "The candidate's on-demand base bought as a commitment of the offering (priced by the plan engine over its "
        "term), spot and the fallback from its trace run scaled to the term.");
    def_committed_base<ServingPlan>(
        m, "cheapest_with_committed_base", "plan",
        [](const ServingPlan& plan, const ServingConfig& config, const Offering& offering, const CommittedBase& base) {
            return cheapest_with_committed_base(plan, config, offering, base);
        },
        "The index of the candidate meeting the target that costs least with its base committed (None if none does).");

    // ------------------------------------------------------------------ on-demand capacity risk
    py::class_<OnDemandCapacity>(m, "OnDemandCapacity",
                                 "Share of time on-demand has no capacity and the mean wait (stated assumptions).")
        .def(py::init([](double unavailable_share, double mean_wait_hours, std::string source) {
                 OnDemandCapacity c{unavailable_share, mean_wait_hours, std::move(source)};
                 c.validate();
                 return c;
             }),
             py::kw_only(), py::arg("unavailable_share"), py::arg("mean_wait_hours") = 1.0, py::arg("source") = "")
        .def_readonly("unavailable_share", &OnDemandCapacity::unavailable_share)
        .def_readonly("mean_wait_hours", &OnDemandCapacity::mean_wait_hours)
        .def_readonly("source", &OnDemandCapacity::source)
        .def("process", &OnDemandCapacity::process);

    py::class_<DeadlineCapacityRisk>(m, "DeadlineCapacityRisk", "A deadline policy when on-demand may not be there.")
        .def_readonly("deadline_met_probability", &DeadlineCapacityRisk::deadline_met_probability)
        .def_readonly("capacity_found_probability", &DeadlineCapacityRisk::capacity_found_probability)
        .def_readonly("mean_cost", &DeadlineCapacityRisk::mean_cost)
        .def_readonly("cost_standard_error", &DeadlineCapacityRisk::cost_standard_error)
        .def_readonly("paths", &DeadlineCapacityRisk::paths)
        .def("__repr__", [](const DeadlineCapacityRisk& r) {
            return fmt::format("DeadlineCapacityRisk(deadline_met_probability={:.6g}, capacity_found_probability={:.6g}, "
                               "mean_cost={:.6g})",
                               r.deadline_met_probability, r.capacity_found_probability, r.mean_cost);
        });

    m.def(
        "simulate_deadline_with_capacity",
        [](const DeadlineJob& job, const SpotAvailability& spot, const SpotAvailability& on_demand,
           std::string_view policy, double spot_price_per_hour, double on_demand_price_per_hour) {
            return simulate_deadline_with_capacity(job, spot, on_demand, parse_deadline_policy(policy),
                                                   spot_price_per_hour, on_demand_price_per_hour);
        },
        py::arg("job"), py::arg("spot"), py::arg("on_demand"), py::arg("policy"), py::arg("spot_price_per_hour"),
        py::arg("on_demand_price_per_hour"),
        "A deadline policy where an on-demand launch needs capacity in the on-demand trace (else the tick idles).");

    m.def(
        "deadline_capacity_risk",
        [](const DeadlineJob& job, const MarkovAvailability& spot, const OnDemandCapacity& capacity,
           std::string_view policy, double spot_price_per_hour, double on_demand_price_per_hour, std::size_t paths,
           std::uint64_t seed) {
            const DeadlinePolicy p = parse_deadline_policy(policy);
            py::gil_scoped_release release;
            return deadline_capacity_risk(job, spot, capacity, p, spot_price_per_hour, on_demand_price_per_hour,
                                          {.paths = paths, .seed = seed});
        },
        py::arg("job"), py::arg("spot"), py::arg("capacity"), py::arg("policy"), py::arg("spot_price_per_hour"),
        py::arg("on_demand_price_per_hour"), py::kw_only(), py::arg("paths") = std::size_t{1000},
        py::arg("seed") = std::uint64_t{0},
        "P(deadline met), P(every on-demand launch found capacity) and the mean cost over generated traces.");
}

}  // namespace gputco::python
