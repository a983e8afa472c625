// Spot Monte Carlo: simulate_spot() runs without the GIL and stops on Ctrl-C; its samples reach
// NumPy and pandas as read-only views of the result's own vectors (no copy).
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <span>

#include <fmt/format.h>
#include <gputco/engines/spot.hpp>
#include <gputco/results/statistics.hpp>

namespace gputco::python {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

using Samples = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::span<const double> as_span(const Samples& samples) {
    require(samples.ndim() == 1, "samples.ndim", samples.ndim(), "must be 1");
    return {samples.data(), std::size_t(samples.size())};
}

/// A read-only 1-D view of `values`, kept alive by `owner`.
py::array_t<double> view_of(const std::vector<double>& values, const py::handle& owner) {
    py::array_t<double> view({py::ssize_t(values.size())}, {py::ssize_t(sizeof(double))}, values.data(),
                             owner);
    py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return view;
}

py::dict as_dict(const Summary& s) {
    py::dict d;
    d["mean"] = s.mean;
    d["stderr"] = s.standard_error;
    d["ci_low"] = s.ci_low;
    d["ci_high"] = s.ci_high;
    d["p50"] = s.p50;
    d["p90"] = s.p90;
    d["p95"] = s.p95;
    d["p99"] = s.p99;
    d["min"] = s.min;
    d["max"] = s.max;
    d["count"] = s.count;
    return d;
}

/// Ctrl-C while the workers run: the calling thread looks at Python's signal flag with the GIL held;
/// a pending KeyboardInterrupt (or any error a signal handler raised) stops the run.
bool python_signal_pending() {
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
}

SpotResult run(const Job& job, const InterruptionModel& model, const SpotPricing& pricing,
               SimulationOptions options) {
    options.should_stop = &python_signal_pending;
    std::optional<SpotResult> result;
    bool cancelled = false;
    {
        py::gil_scoped_release release;
        try {
            result = simulate_spot(job, model, pricing, options);
        } catch (const Cancelled&) {
            cancelled = true;
        }
    }
    if (cancelled) {
        if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    }
    return std::move(*result);
}

}  // namespace

void register_spot(py::module_& m) {
    py::class_<Summary>(m, "Summary", "Mean with standard error, confidence interval and quantiles.")
        .def_readonly("mean", &Summary::mean)
        .def_readonly("standard_error", &Summary::standard_error)
        .def_property_readonly("stderr", [](const Summary& s) { return s.standard_error; })
        .def_readonly("ci_low", &Summary::ci_low)
        .def_readonly("ci_high", &Summary::ci_high)
        .def_readonly("p50", &Summary::p50)
        .def_readonly("p90", &Summary::p90)
        .def_readonly("p95", &Summary::p95)
        .def_readonly("p99", &Summary::p99)
        .def_readonly("min", &Summary::min)
        .def_readonly("max", &Summary::max)
        .def_readonly("count", &Summary::count)
        .def("half_width", &Summary::half_width)
        .def("_asdict", &as_dict)
        .def("__repr__", [](const Summary& s) {
            return fmt::format("Summary(mean={:.6g}, stderr={:.3g}, p50={:.6g}, p95={:.6g}, count={})", s.mean,
                               s.standard_error, s.p50, s.p95, s.count);
        });

    m.def(
        "summarize", [](const Samples& samples, double confidence) { return summarize(as_span(samples), confidence); },
        py::arg("samples"), py::arg("confidence") = 0.95,
        "Mean, standard error, Student-t confidence interval and quantiles of a 1-D sample.");
    m.def(
        "quantile", [](const Samples& samples, double q) { return quantile(as_span(samples), q); },
        py::arg("samples"), py::arg("q"), "Sample quantile, Hyndman & Fan type 7 (NumPy's default).");

    py::class_<SpotSamples>(m, "SpotSamples", "One value per simulated path, as read-only NumPy views.")
        .def_property_readonly("wall_hours",
                               [](const py::object& self) { return view_of(self.cast<const SpotSamples&>().wall_hours, self); })
        .def_property_readonly("billed_hours",
                               [](const py::object& self) { return view_of(self.cast<const SpotSamples&>().billed_hours, self); })
        .def_property_readonly("cost",
                               [](const py::object& self) { return view_of(self.cast<const SpotSamples&>().cost, self); })
        .def_property_readonly("interruptions",
                               [](const py::object& self) { return view_of(self.cast<const SpotSamples&>().interruptions, self); })
        .def_property_readonly("lost_work_hours", [](const py::object& self) {
            return view_of(self.cast<const SpotSamples&>().lost_work_hours, self);
        })
        .def_property_readonly("charged_hours", [](const py::object& self) {
            return view_of(self.cast<const SpotSamples&>().charged_hours, self);
        });

    py::class_<SpotResult>(m, "SpotResult", "Samples and summaries of a spot Monte Carlo run.")
        .def_readonly("samples", &SpotResult::samples)  // reference_internal: keeps the result alive
        .def_readonly("wall_hours", &SpotResult::wall_hours)
        .def_readonly("billed_hours", &SpotResult::billed_hours)
        .def_readonly("cost", &SpotResult::cost)
        .def_readonly("interruptions", &SpotResult::interruptions)
        .def_readonly("lost_work_hours", &SpotResult::lost_work_hours)
        .def_readonly("charged_hours", &SpotResult::charged_hours)
        .def_readonly("deadline_miss_probability", &SpotResult::deadline_miss_probability)
        .def_readonly("effective_price_per_useful_hour", &SpotResult::effective_price_per_useful_hour)
        .def_readonly("effective_discount", &SpotResult::effective_discount)
        .def_readonly("paths", &SpotResult::paths)
        .def_readonly("seed", &SpotResult::seed)
        .def_readonly("kernel", &SpotResult::kernel,
                      "The path loop that ran: 'avx512', 'avx2' or 'portable' (Poisson lane kernel) or 'scalar'.")
        .def("__len__", [](const SpotResult& r) { return r.samples.cost.size(); })
        .def("__repr__", [](const SpotResult& r) {
            return fmt::format("SpotResult(paths={}, seed={}, cost.mean={:.6g}, cost.p95={:.6g}, "
                               "wall_hours.mean={:.6g})",
                               r.paths, r.seed, r.cost.mean, r.cost.p95, r.wall_hours.mean);
        });

    m.def("spot_kernels", &spot_kernels,
          "The Poisson lane kernels this CPU runs, narrowest first ('portable', then 'avx2', 'avx512' where the CPU "
          "has them). simulate_spot uses the last unless the environment variable GPUTCO_SPOT_KERNEL names another; "
          "every kernel gives the same samples bit for bit.");

    m.def(
        "simulate_spot",
        [](double work_hours, std::optional<double> mtbf_hours, std::optional<double> checkpoint_interval_hours,
           double checkpoint_write_hours, double restart_hours, double capacity_wait_hours,
           std::optional<double> price_per_hour, std::size_t paths, std::uint64_t seed, unsigned threads,
           std::optional<double> on_demand_price_per_hour, double deadline_hours,
           std::optional<InterruptionModel> model, double target_half_width, std::optional<std::size_t> max_paths,
           double confidence, std::optional<double> billing_increment_hours,
           std::optional<double> minimum_billed_hours, const std::optional<Offering>& offering) {
            if (model && mtbf_hours)
                fail("mtbf_hours", *mtbf_hours, "give either mtbf_hours or model, not both");
            if (!model && !mtbf_hours) throw InvalidInput("mtbf_hours = None: required unless model is given");
            const InterruptionModel chosen = model ? *model : InterruptionModel{Poisson{*mtbf_hours, {}}};
            Job job;
            job.work_hours = work_hours;
            job.checkpoint_write_hours = checkpoint_write_hours;
            job.restart_hours = restart_hours;
            job.capacity_wait_hours = capacity_wait_hours;
            job.deadline_hours = deadline_hours;
            if (checkpoint_interval_hours) {
                job.checkpoint_interval_hours = *checkpoint_interval_hours;
            } else {
                const Poisson* poisson = std::get_if<Poisson>(&chosen);
                if (poisson == nullptr)
                    throw InvalidInput("checkpoint_interval_hours = None: required unless the model is Poisson");
                job.checkpoint_interval_hours = optimal_checkpoint_interval(checkpoint_write_hours, poisson->mtbf_hours);
            }
            // The offering fills what the keywords leave out; without one the defaults are $1/h,
            // unknown on-demand price and continuous billing.
            SpotPricing pricing;
            if (offering && !price_per_hour) {
                pricing = SpotPricing::from_offering(*offering);  // needs the offering's spot price
            } else if (offering) {
                pricing.on_demand_price_per_hour = offering->on_demand_per_gpu_hour();
                pricing.billing_increment_hours = offering->billing_increment_seconds / 3600.0;
                pricing.minimum_billed_hours = offering->minimum_billed_seconds / 3600.0;
            }
            if (price_per_hour) pricing.price_per_hour = *price_per_hour;
            if (on_demand_price_per_hour) pricing.on_demand_price_per_hour = *on_demand_price_per_hour;
            if (billing_increment_hours) pricing.billing_increment_hours = *billing_increment_hours;
            if (minimum_billed_hours) pricing.minimum_billed_hours = *minimum_billed_hours;
            SimulationOptions options;
            options.paths = paths;
            options.seed = seed;
            options.threads = threads;
            options.target_half_width = target_half_width;
            if (max_paths) options.max_paths = *max_paths;
            else options.max_paths = std::max(options.max_paths, paths);
            options.confidence = confidence;
            return run(job, chosen, pricing, options);
        },
        py::arg("work_hours"), py::arg("mtbf_hours") = py::none(),
        py::arg("checkpoint_interval_hours") = py::none(), py::arg("checkpoint_write_hours") = 0.0,
        py::arg("restart_hours") = 0.0, py::arg("capacity_wait_hours") = 0.0, py::arg("price_per_hour") = py::none(),
        py::arg("paths") = std::size_t{100000}, py::arg("seed") = std::uint64_t{0}, py::arg("threads") = 0u,
        py::kw_only(), py::arg("on_demand_price_per_hour") = py::none(), py::arg("deadline_hours") = inf,
        py::arg("model") = py::none(), py::arg("target_half_width") = 0.0,
        py::arg("max_paths") = py::none(), py::arg("confidence") = 0.95,
        py::arg("billing_increment_hours") = py::none(), py::arg("minimum_billed_hours") = py::none(),
        py::arg("offering") = py::none(),
        "Monte Carlo of a checkpointed job on spot capacity. Interruptions are Poisson(mtbf_hours) unless "
        "`model` (Poisson, Weibull, Trace, PriceDriven) is given; without checkpoint_interval_hours the "
        "optimal interval for the Poisson MTBF is used. Each launch is charged its running time rounded up "
        "to billing_increment_hours, at least minimum_billed_hours (both 0 = continuous, the default). "
        "`offering` supplies the per-GPU spot and on-demand prices and the billing increment and minimum; "
        "keywords given as well override it. Without either, price_per_hour is 1. Releases the GIL; Ctrl-C "
        "stops it.");
}

}  // namespace gputco::python
