// Deadline-aware spot policies (Greedy, Uniform Progress, on-demand only and the named variants), the
// omniscient optimum, availability traces, window sweeps and several regions. Policies and decisions
// are strings in Python ("greedy", "spot", ...), like the other enumerations. Long runs release the GIL
// and stop on Ctrl-C (KeyboardInterrupt) through should_stop.
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gputco/engines/deadline.hpp>
#include <gputco/core/enum_text.hpp>
#include <gputco/engines/deadline_regions.hpp>
#include <gputco/engines/deadline_sweep.hpp>
#include <gputco/engines/flex_start.hpp>

namespace gputco::python {

namespace {

DeadlinePolicy parse_policy(std::string_view text, std::string_view field = "policy") {
    return parse_deadline_policy(text, field);
}

std::vector<DeadlinePolicy> parse_policies(const std::vector<std::string>& names) {
    std::vector<DeadlinePolicy> chosen;
    for (std::size_t i = 0; i < names.size(); ++i) chosen.push_back(parse_policy(names[i], fmt::format("policies[{}]", i)));
    return chosen;
}

py::list policy_names(const std::vector<DeadlinePolicy>& policies) {
    py::list names;
    for (const DeadlinePolicy p : policies) names.append(std::string(to_string(p)));
    return names;
}

py::array_t<double> double_array(const std::vector<double>& values) {
    return py::array_t<double>(py::ssize_t(values.size()), values.data());
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

/// The tick log's columns (gputco/_deadline.py makes them the DataFrame view).
py::dict tick_columns(const DeadlineResult& r) {
    std::vector<double> start_hours(r.decisions.size());
    for (std::size_t k = 0; k < start_hours.size(); ++k) start_hours[k] = static_cast<double>(k) * r.tick_hours;
    py::dict columns;
    columns["start_hours"] = double_array(start_hours);
    columns["spot_available"] = bool_array(r.spot_available);
    columns["decision"] = decision_names(r.decisions);
    columns["progress_hours"] = double_array(r.progress_hours);
    return columns;
}

}  // namespace

void register_deadline(py::module_& m) {
    // The tick log's decision categories, in table order (gputco/_deadline.py).
    m.attr("_tick_decisions") = py::tuple(py::cast(text_names<TickDecision>()));
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
        .def(py::init([](const std::vector<bool>& available, double tick_hours) {
                 require_non_negative("tick_hours", tick_hours);
                 return SpotAvailability{available, tick_hours};
             }),
             py::arg("available"), py::arg("tick_hours") = 0.0,
             "tick_hours = 0: not stated, the trace takes the job's tick.")
        .def_property_readonly("available", [](const SpotAvailability& a) { return bool_array(a.available); })
        .def_readonly("tick_hours", &SpotAvailability::tick_hours)
        .def_readonly_static("max_ticks", &SpotAvailability::max_ticks)
        .def_readonly("layout", &SpotAvailability::layout,
                      "How from_json read the file's values (single node, available nodes with a threshold, "
                      "preempted flags); empty for other traces.")
        .def_static(
            "_from_json_text",
            [](std::string_view text, const std::string& values, std::size_t nodes_needed) {
                return SpotAvailability::from_json(
                    text, TraceReadOptions{parse<TraceValues>(values, "options.values"), nodes_needed});
            },
            py::arg("text"), py::arg("values") = "unstated", py::arg("nodes_needed") = 0)
        .def("window", &SpotAvailability::window, py::arg("start"), py::arg("length"),
             "Ticks [start, start + length), same tick length.")
        .def("resampled", &SpotAvailability::resampled, py::arg("tick_hours"),
             "In ticks of tick_hours (a whole multiple or divisor of this trace's stated tick): finer repeats "
             "ticks; coarser is available only if every fine tick is.")
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
            return fmt::format("SpotAvailability(ticks={}, available_ticks={}, tick_hours={})", a.ticks(),
                               a.available_ticks(), a.tick_hours);
        });

    m.def("common_tick_hours", &common_tick_hours, py::arg("a_hours"), py::arg("b_hours"),
          "Longest tick dividing both into whole numbers, e.g. (1, 0.2) -> 0.2: the job tick for a trace of "
          "tick a and a changeover of b hours.");

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
        .def("_tick_columns", &tick_columns, "The columns of to_frame() (gputco/_deadline.py).")
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
        "Runs a policy tick by tick over the trace: 'greedy' and 'uniform_progress' (as the Can't Be Late "
        "authors run them), 'on_demand_only', or the variants 'greedy_simple' and 'uniform_progress_prose'.");

    m.def("deadline_policies", [] { return policy_names(all_deadline_policies()); }, "Every policy name.");

    m.def(
        "omniscient_cost",
        [](const DeadlineJob& job, const SpotAvailability& availability, double spot, double on_demand) {
            return without_gil_until_ctrl_c(
                [&] { return omniscient_cost(job, availability, spot, on_demand, &ctrl_c_pressed); });
        },
        py::arg("job"), py::arg("availability"), py::arg("spot_price_per_hour"), py::arg("on_demand_price_per_hour"),
        "Least cost of any schedule that knows the whole trace and meets the deadline (exact). Ctrl-C stops it.");

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
        .def_property_readonly("omniscient_samples",
                               [](const DeadlineComparison& c) { return double_array(c.omniscient_samples); })
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
            const std::vector<DeadlinePolicy> chosen = parse_policies(policies);
            DeadlineSimulationOptions options;
            options.paths = paths;
            options.seed = seed;
            options.confidence = confidence;
            options.omniscient = omniscient;
            options.should_stop = &ctrl_c_pressed;
            return without_gil_until_ctrl_c([&] {
                return compare_deadline_policies(job, process, spot_price_per_hour, on_demand_price_per_hour, options,
                                                 chosen);
            });
        },
        py::arg("job"), py::arg("process"), py::arg("spot_price_per_hour"), py::arg("on_demand_price_per_hour"),
        py::kw_only(), py::arg("paths") = std::size_t{1000}, py::arg("seed") = std::uint64_t{0},
        py::arg("confidence") = 0.95, py::arg("omniscient") = false,
        py::arg("policies") = std::vector<std::string>{"greedy", "uniform_progress", "on_demand_only"},
        "Monte Carlo over generated traces (single-threaded; path i depends only on seed and i): cost Summary "
        "and deadline-miss probability per policy, and the omniscient optimum's if omniscient=True. Ctrl-C stops it.");

    m.def(
        "deadline_tranche",
        [](const std::vector<double>& cost_samples, const DeadlineJob& job, double spot_price_per_hour) {
            return deadline_tranche(cost_samples, job, spot_price_per_hour);
        },
        py::arg("cost_samples"), py::arg("job"), py::arg("spot_price_per_hour"),
        "A SpotTranche from a deadline job's per-trace costs (e.g. outcome.cost_samples): priced at the spot "
        "price with overhead = cost / (compute_hours x spot price) per sample; availability 1.");

    // ------------------------------------------------------------------ window sweeps
    py::class_<WindowPolicyOutcome>(m, "WindowPolicyOutcome", "One policy over every window of a trace.")
        .def_property_readonly("policy", [](const WindowPolicyOutcome& o) { return std::string(to_string(o.policy)); })
        .def_property_readonly("cost_samples", [](const WindowPolicyOutcome& o) { return double_array(o.cost_samples); })
        .def_readonly("cost", &WindowPolicyOutcome::cost)
        .def_readonly("deadline_misses", &WindowPolicyOutcome::deadline_misses)
        .def_readonly("gap_closed", &WindowPolicyOutcome::gap_closed)
        .def("__repr__", [](const WindowPolicyOutcome& o) {
            return fmt::format("WindowPolicyOutcome(policy=\"{}\", cost.mean={:.6g}, cost.p95={:.6g}, "
                               "deadline_misses={}, gap_closed={:.4g})",
                               to_string(o.policy), o.cost.mean, o.cost.p95, o.deadline_misses, o.gap_closed);
        });

    py::class_<WindowSweep>(m, "WindowSweep", "Every policy over every window of a trace.")
        .def_property_readonly("window_starts", [](const WindowSweep& w) {
            return py::array_t<std::size_t>(py::ssize_t(w.window_starts.size()), w.window_starts.data());
        })
        .def_readonly("window_trace_ticks", &WindowSweep::window_trace_ticks)
        .def_readonly("trace_tick_hours", &WindowSweep::trace_tick_hours)
        .def_readonly("job_tick_hours", &WindowSweep::job_tick_hours)
        .def_readonly("policies", &WindowSweep::policies)
        .def_property_readonly("omniscient_samples", [](const WindowSweep& w) { return double_array(w.omniscient_samples); })
        .def_readonly("omniscient_cost", &WindowSweep::omniscient_cost)
        .def_readonly("greedy_mean", &WindowSweep::greedy_mean)
        .def("__repr__", [](const WindowSweep& w) {
            std::string text = fmt::format("WindowSweep(windows={}", w.window_starts.size());
            for (const auto& o : w.policies) text += fmt::format(", {}.cost.mean={:.6g}", to_string(o.policy), o.cost.mean);
            return text + ")";
        });

    m.def(
        "sweep_windows",
        [](const DeadlineJob& job, const SpotAvailability& trace, double spot_price_per_hour,
           double on_demand_price_per_hour, std::size_t stride_ticks, const std::vector<std::string>& policies,
           bool omniscient, double confidence) {
            WindowSweepOptions options;
            options.stride_ticks = stride_ticks;
            options.policies = parse_policies(policies);
            options.omniscient = omniscient;
            options.confidence = confidence;
            options.should_stop = &ctrl_c_pressed;
            return without_gil_until_ctrl_c(
                [&] { return sweep_windows(job, trace, spot_price_per_hour, on_demand_price_per_hour, options); });
        },
        py::arg("job"), py::arg("trace"), py::arg("spot_price_per_hour"), py::arg("on_demand_price_per_hour"),
        py::kw_only(), py::arg("stride_ticks") = std::size_t{1},
        py::arg("policies") = std::vector<std::string>{"greedy", "uniform_progress", "on_demand_only"},
        py::arg("omniscient") = true, py::arg("confidence") = 0.95,
        "Every policy over every window of ceil(deadline / trace tick) trace ticks (starts 0, stride, ...), each "
        "resampled to the job's tick. .summary() and .to_frame() give DataFrames. Ctrl-C stops it.");

    // ------------------------------------------------------------------ several regions
    py::class_<SpotRegion>(m, "SpotRegion", "A region or zone: its spot availability trace and spot price.")
        .def(py::init([](std::string name, SpotAvailability availability, double spot_price_per_hour) {
                 return SpotRegion{std::move(name), std::move(availability), spot_price_per_hour};
             }),
             py::arg("name"), py::arg("availability"), py::arg("spot_price_per_hour"))
        .def_readonly("name", &SpotRegion::name)
        .def_readonly("availability", &SpotRegion::availability)
        .def_readonly("spot_price_per_hour", &SpotRegion::spot_price_per_hour)
        .def("__repr__", [](const SpotRegion& r) {
            return fmt::format("SpotRegion(name=\"{}\", ticks={}, spot_price_per_hour={})", r.name,
                               r.availability.ticks(), r.spot_price_per_hour);
        });

    py::class_<MultiRegionResult>(m, "MultiRegionResult", "One run across regions: the run and each tick's region.")
        .def_readonly("run", &MultiRegionResult::run)
        .def_property_readonly("region", [](const MultiRegionResult& r) {
            return py::array_t<std::int32_t>(py::ssize_t(r.region.size()), r.region.data());
        })
        .def_readonly("moves", &MultiRegionResult::moves)
        .def("__repr__", [](const MultiRegionResult& r) {
            return fmt::format("MultiRegionResult(cost={:.6g}, moves={}, finish_hours={}, met_deadline={})", r.run.cost,
                               r.moves, r.run.finish_hours, r.run.met_deadline ? "True" : "False");
        });

    m.def(
        "simulate_multi_region",
        [](const DeadlineJob& job, const std::vector<SpotRegion>& regions, std::string_view policy,
           double on_demand_price_per_hour) {
            return simulate_multi_region(job, regions, parse_region_policy(policy), on_demand_price_per_hour);
        },
        py::arg("job"), py::arg("regions"), py::arg("policy"), py::arg("on_demand_price_per_hour"),
        "Runs 'skypilot_failover', 'skypilot_eager_next_region' or 'uniform_progress' over the regions' traces.");

    m.def(
        "omniscient_multi_region_cost",
        [](const DeadlineJob& job, const std::vector<SpotRegion>& regions, double on_demand_price_per_hour) {
            return without_gil_until_ctrl_c(
                [&] { return omniscient_multi_region_cost(job, regions, on_demand_price_per_hour, &ctrl_c_pressed); });
        },
        py::arg("job"), py::arg("regions"), py::arg("on_demand_price_per_hour"),
        "Exact least cost knowing every region's trace (dynamic programming; at most 16 regions, 2e7 states per "
        "tick and 1e11 updates).");

    // Flex-start (GCP Dynamic Workload Scheduler) for a deadline job.
    py::class_<FlexStart>(m, "FlexStart",
                          "GCP DWS flex-start: requests wait up to request_valid_hours (<= 2), runs last up to 7 days.")
        .def(py::init([](double discount, double request_valid_hours, double grant_probability) {
                 FlexStart f{discount, request_valid_hours, grant_probability};
                 f.validate();
                 return f;
             }),
             py::kw_only(), py::arg("discount"), py::arg("request_valid_hours") = 2.0, py::arg("grant_probability") = 1.0)
        .def_readonly("discount", &FlexStart::discount)
        .def_readonly("request_valid_hours", &FlexStart::request_valid_hours)
        .def_readonly("grant_probability", &FlexStart::grant_probability);
    py::class_<FlexStartResult>(m, "FlexStartResult", "A deadline job run by flex-start with on-demand fallback.")
        .def_readonly("runs", &FlexStartResult::runs)
        .def_readonly("most_requests", &FlexStartResult::most_requests)
        .def_readonly("all_flex_cost", &FlexStartResult::all_flex_cost)
        .def_readonly("all_on_demand_cost", &FlexStartResult::all_on_demand_cost)
        .def_readonly("expected_cost", &FlexStartResult::expected_cost)
        .def_readonly("cost_standard_deviation", &FlexStartResult::cost_standard_deviation)
        .def_readonly("fallback_probability", &FlexStartResult::fallback_probability)
        .def_readonly("expected_flex_hours", &FlexStartResult::expected_flex_hours)
        .def_readonly("worst_finish_hours", &FlexStartResult::worst_finish_hours);
    m.def("flex_start_job", &flex_start_job, py::arg("job"), py::arg("flex"), py::arg("on_demand_price_per_hour"),
          "The job by flex-start with on-demand fallback: the deadline always met, the cost summed exactly over "
          "the requests' outcomes.");
}

}  // namespace gputco::python
