// Deadline-aware spot policies (Greedy, Uniform Progress, on-demand only) and the omniscient optimum.
// Policies and decisions are strings in Python ("greedy", "spot", ...), like the other enumerations.
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include <fmt/format.h>
#include <gputco/engines/deadline.hpp>

namespace gputco::python {

namespace {

DeadlinePolicy parse_policy(std::string_view text, std::string_view field = "policy") {
    for (const DeadlinePolicy p :
         {DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress, DeadlinePolicy::on_demand_only}) {
        if (text == to_string(p)) return p;
    }
    fail(field, text, "must be one of greedy, uniform_progress, on_demand_only");
}

py::array_t<bool> bool_array(const std::vector<bool>& values) {
    py::array_t<bool> out(py::ssize_t(values.size()));
    auto view = out.mutable_unchecked<1>();
    for (std::size_t i = 0; i < values.size(); ++i) view(py::ssize_t(i)) = values[i];
    return out;
}

py::list decision_names(const std::vector<TickDecision>& decisions) {
    py::list names;
    for (const TickDecision d : decisions) names.append(std::string(to_string(d)));
    return names;
}

/// The tick log as a DataFrame indexed by tick (pandas is imported only here).
py::object tick_frame(const DeadlineResult& r) {
    const py::module_ pd = py::module_::import("pandas");
    std::vector<double> start_hours(r.decisions.size());
    for (std::size_t k = 0; k < start_hours.size(); ++k) start_hours[k] = static_cast<double>(k) * r.tick_hours;
    py::dict columns;
    columns["start_hours"] = py::array_t<double>(py::ssize_t(start_hours.size()), start_hours.data());
    columns["spot_available"] = bool_array(r.spot_available);
    columns["decision"] = pd.attr("Categorical")(decision_names(r.decisions),
                                                 py::arg("categories") = py::make_tuple("none", "spot", "on_demand"));
    columns["progress_hours"] = py::array_t<double>(py::ssize_t(r.progress_hours.size()), r.progress_hours.data());
    py::object frame = pd.attr("DataFrame")(columns);
    frame.attr("index").attr("name") = "tick";
    return frame;
}

}  // namespace

void register_deadline(py::module_& m) {
    py::class_<DeadlineJob>(m, "DeadlineJob",
                            "Compute hours needed before a deadline; launches cost changeover_hours (whole ticks).")
        .def(py::init([](double compute_hours, double deadline_hours, double changeover_hours, double tick_hours) {
                 DeadlineJob job{compute_hours, deadline_hours, changeover_hours, tick_hours};
                 job.validate();
                 return job;
             }),
             py::kw_only(), py::arg("compute_hours"), py::arg("deadline_hours"), py::arg("changeover_hours") = 0.0,
             py::arg("tick_hours") = 1.0)
        .def_readonly("compute_hours", &DeadlineJob::compute_hours)
        .def_readonly("deadline_hours", &DeadlineJob::deadline_hours)
        .def_readonly("changeover_hours", &DeadlineJob::changeover_hours)
        .def_readonly("tick_hours", &DeadlineJob::tick_hours)
        .def_property_readonly("compute_ticks", &DeadlineJob::compute_ticks)
        .def_property_readonly("deadline_ticks", &DeadlineJob::deadline_ticks)
        .def_property_readonly("changeover_ticks", &DeadlineJob::changeover_ticks)
        .def("__repr__", [](const DeadlineJob& j) {
            return fmt::format("DeadlineJob(compute_hours={}, deadline_hours={}, changeover_hours={}, tick_hours={})",
                               j.compute_hours, j.deadline_hours, j.changeover_hours, j.tick_hours);
        });

    py::class_<MarkovAvailability>(m, "MarkovAvailability",
                                   "Spot up and down periods, geometric in ticks with the given mean hours.")
        .def(py::init([](double mean_up_hours, double mean_down_hours) {
                 return MarkovAvailability{mean_up_hours, mean_down_hours};
             }),
             py::kw_only(), py::arg("mean_up_hours") = 10.0, py::arg("mean_down_hours") = 2.0)
        .def_readonly("mean_up_hours", &MarkovAvailability::mean_up_hours)
        .def_readonly("mean_down_hours", &MarkovAvailability::mean_down_hours)
        .def("availability_fraction", &MarkovAvailability::availability_fraction)
        .def("__repr__", [](const MarkovAvailability& p) {
            return fmt::format("MarkovAvailability(mean_up_hours={}, mean_down_hours={})", p.mean_up_hours,
                               p.mean_down_hours);
        });

    py::class_<SpotAvailability>(m, "SpotAvailability", "Whether spot capacity is available in each tick.")
        .def(py::init([](const std::vector<bool>& available) { return SpotAvailability{available}; }),
             py::arg("available"))
        .def_property_readonly("available", [](const SpotAvailability& a) { return bool_array(a.available); })
        .def_property_readonly("ticks", &SpotAvailability::ticks)
        .def("available_ticks", &SpotAvailability::available_ticks)
        .def("__len__", &SpotAvailability::ticks)
        .def_static("from_text", &SpotAvailability::from_text, py::arg("text"),
                    "One tick per line: 0 or 1, or CSV rows whose last field is 0/1 (a first CSV row that is "
                    "not is a header); blank lines and '#' comments are skipped.")
        .def_static("markov", &SpotAvailability::markov, py::arg("process"), py::arg("ticks"),
                    py::arg("tick_hours") = 1.0, py::arg("seed") = std::uint64_t{0},
                    "A trace generated from `process`; the same seed gives the same trace.")
        .def_static("always_available", &SpotAvailability::always_available, py::arg("ticks"))
        .def("__repr__", [](const SpotAvailability& a) {
            return fmt::format("SpotAvailability(ticks={}, available_ticks={})", a.ticks(), a.available_ticks());
        });

    py::class_<DeadlineResult>(m, "DeadlineResult", "Cost, hours and the tick log of one policy on one trace.")
        .def_readonly("cost", &DeadlineResult::cost)
        .def_readonly("spot_hours", &DeadlineResult::spot_hours)
        .def_readonly("on_demand_hours", &DeadlineResult::on_demand_hours)
        .def_readonly("idle_hours", &DeadlineResult::idle_hours)
        .def_readonly("changeovers", &DeadlineResult::changeovers)
        .def_readonly("preemptions", &DeadlineResult::preemptions)
        .def_readonly("finish_hours", &DeadlineResult::finish_hours)
        .def_readonly("met_deadline", &DeadlineResult::met_deadline)
        .def_property_readonly("decisions", [](const DeadlineResult& r) { return decision_names(r.decisions); })
        .def_property_readonly("spot_available", [](const DeadlineResult& r) { return bool_array(r.spot_available); })
        .def_property_readonly("progress_hours", [](const DeadlineResult& r) {
            return py::array_t<double>(py::ssize_t(r.progress_hours.size()), r.progress_hours.data());
        })
        .def_readonly("tick_hours", &DeadlineResult::tick_hours)
        .def("to_frame", [](const DeadlineResult& r) { return tick_frame(r); },
            "One row per tick (index `tick`): start_hours, spot_available, decision, progress_hours.")
        .def("__repr__", [](const DeadlineResult& r) {
            return fmt::format("DeadlineResult(cost={:.6g}, spot_hours={}, on_demand_hours={}, idle_hours={}, "
                               "changeovers={}, finish_hours={}, met_deadline={})",
                               r.cost, r.spot_hours, r.on_demand_hours, r.idle_hours, r.changeovers, r.finish_hours,
                               r.met_deadline ? "True" : "False");
        });

    m.def(
        "simulate_deadline",
        [](const DeadlineJob& job, const SpotAvailability& availability, std::string_view policy,
           double spot_price_per_hour, double on_demand_price_per_hour) {
            return simulate_deadline(job, availability, parse_policy(policy), spot_price_per_hour,
                                     on_demand_price_per_hour);
        },
        py::arg("job"), py::arg("availability"), py::arg("policy"), py::arg("spot_price_per_hour"),
        py::arg("on_demand_price_per_hour"),
        "Runs policy 'greedy', 'uniform_progress' or 'on_demand_only' tick by tick over the trace.");

    m.def("omniscient_cost", &omniscient_cost, py::arg("job"), py::arg("availability"),
          py::arg("spot_price_per_hour"), py::arg("on_demand_price_per_hour"),
          "Least cost of any schedule that knows the whole trace and meets the deadline (exact).");

    py::class_<DeadlinePolicyOutcome>(m, "DeadlinePolicyOutcome", "One policy over many generated traces.")
        .def_property_readonly("policy", [](const DeadlinePolicyOutcome& o) { return std::string(to_string(o.policy)); })
        .def_readonly("cost", &DeadlinePolicyOutcome::cost)
        .def_readonly("deadline_miss_probability", &DeadlinePolicyOutcome::deadline_miss_probability)
        .def_property_readonly("cost_samples", [](const DeadlinePolicyOutcome& o) {
            return py::array_t<double>(py::ssize_t(o.cost_samples.size()), o.cost_samples.data());
        })
        .def("__repr__", [](const DeadlinePolicyOutcome& o) {
            return fmt::format("DeadlinePolicyOutcome(policy=\"{}\", cost.mean={:.6g}, deadline_miss_probability={})",
                               to_string(o.policy), o.cost.mean, o.deadline_miss_probability);
        });

    py::class_<DeadlineComparison>(m, "DeadlineComparison", "Policies compared on the same generated traces.")
        .def_readonly("policies", &DeadlineComparison::policies)
        .def_readonly("omniscient_cost", &DeadlineComparison::omniscient_cost)
        .def_readonly("paths", &DeadlineComparison::paths)
        .def_readonly("seed", &DeadlineComparison::seed)
        .def(
            "__getitem__",
            [](const DeadlineComparison& c, std::string_view policy) {
                const DeadlinePolicy wanted = parse_policy(policy);
                for (const auto& o : c.policies)
                    if (o.policy == wanted) return o;
                fail("policy", policy, "was not compared in this run");
            },
            py::arg("policy"))
        .def("__repr__", [](const DeadlineComparison& c) {
            std::string text = fmt::format("DeadlineComparison(paths={}, seed={}", c.paths, c.seed);
            for (const auto& o : c.policies) text += fmt::format(", {}.cost.mean={:.6g}", to_string(o.policy), o.cost.mean);
            return text + ")";
        });

    m.def(
        "compare_deadline_policies",
        [](const DeadlineJob& job, const MarkovAvailability& process, double spot_price_per_hour,
           double on_demand_price_per_hour, std::size_t paths, std::uint64_t seed, double confidence, bool omniscient,
           const std::vector<std::string>& policies) {
            std::vector<DeadlinePolicy> chosen;
            for (std::size_t i = 0; i < policies.size(); ++i)
                chosen.push_back(parse_policy(policies[i], fmt::format("policies[{}]", i)));
            DeadlineSimulationOptions options;
            options.paths = paths;
            options.seed = seed;
            options.confidence = confidence;
            options.omniscient = omniscient;
            py::gil_scoped_release release;
            return compare_deadline_policies(job, process, spot_price_per_hour, on_demand_price_per_hour, options,
                                             chosen);
        },
        py::arg("job"), py::arg("process"), py::arg("spot_price_per_hour"), py::arg("on_demand_price_per_hour"),
        py::kw_only(), py::arg("paths") = std::size_t{1000}, py::arg("seed") = std::uint64_t{0},
        py::arg("confidence") = 0.95, py::arg("omniscient") = false,
        py::arg("policies") = std::vector<std::string>{"greedy", "uniform_progress", "on_demand_only"},
        "Monte Carlo over generated traces (single-threaded; path i depends only on seed and i): cost Summary "
        "and deadline-miss probability per policy, and the omniscient optimum's if omniscient=True.");
}

}  // namespace gputco::python
