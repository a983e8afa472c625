// Spot Monte Carlo: simulate_spot() runs without the GIL and stops on Ctrl-C; its samples reach
// NumPy and pandas as read-only views of the result's own vectors (no copy).
#include "register.hpp"
#include "register_fields.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <span>

#include <fmt/format.h>
#include <gputco/app/spot_job.hpp>
#include <gputco/engines/spot.hpp>
#include <gputco/results/statistics.hpp>

namespace gputco::python {

namespace {

using Samples = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::span<const double> as_span(const Samples& samples) {
    require(samples.ndim() == 1, "samples.ndim", samples.ndim(), "must be 1");
    return {samples.data(), std::size_t(samples.size())};
}

/// A read-only 1-D view of `values`, kept alive by `owner`.
py::array_t<double> view_of(const SampleColumn& values, const py::handle& owner) {
    py::array_t<double> view({py::ssize_t(values.size())}, {py::ssize_t(sizeof(double))}, values.data(),
                             owner);
    py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return view;
}

py::dict as_dict(const Summary& s) { return fields_dict(s, summary_fields); }

SpotResult run(const Job& job, const InterruptionModel& model, const SpotPricing& pricing,
               SimulationOptions options) {
    options.validate();
    options.should_stop = &ctrl_c_pressed;  // polled by the calling thread with the GIL taken back
    return without_gil_until_ctrl_c([&] { return simulate_spot(job, model, pricing, options); });
}

}  // namespace

void register_spot(py::module_& m) {
    py::class_<Summary>(m, "Summary", "Mean with standard error, confidence interval and quantiles.")
        .def_readonly("mean", &Summary::mean)
        .def_readonly("standard_error", &Summary::standard_error)
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
            return fmt::format("Summary(mean={:.6g}, standard_error={:.3g}, p50={:.6g}, p95={:.6g}, count={})", s.mean,
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
                      "The path loop that ran: 'avx512', 'avx2' or 'portable' (a lane kernel: Poisson, Weibull, "
                      "trace) or 'scalar' (chosen, or the price-driven model).")
        .def("__len__", [](const SpotResult& r) { return r.samples.cost.size(); })
        .def("__repr__", [](const SpotResult& r) {
            return fmt::format("SpotResult(paths={}, seed={}, cost.mean={:.6g}, cost.p95={:.6g}, "
                               "wall_hours.mean={:.6g})",
                               r.paths, r.seed, r.cost.mean, r.cost.p95, r.wall_hours.mean);
        });

    m.def("spot_kernels", &spot_kernels,
          "The Poisson path loops this CPU runs: 'scalar', 'portable', then 'avx2', 'avx512' where the CPU has "
          "them. simulate_spot uses default_spot_kernel() unless the environment variable GPUTCO_SPOT_KERNEL names "
          "another; every kernel gives the same samples bit for bit.");

    py::class_<SpotPricing>(m, "SpotPricing",
                            "Spot price and billing granularity: each launch's running time rounded up to "
                            "billing_increment_hours, at least minimum_billed_hours (both 0 = continuous).")
        .def(py::init([](double price_per_hour, double on_demand_price_per_hour, double billing_increment_hours,
                         double minimum_billed_hours) {
                 const SpotPricing pricing{price_per_hour, on_demand_price_per_hour, billing_increment_hours,
                                           minimum_billed_hours};
                 pricing.validate();
                 return pricing;
             }),
             py::kw_only(), py::arg("price_per_hour") = 1.0, py::arg("on_demand_price_per_hour") = 0.0,
             py::arg("billing_increment_hours") = 0.0, py::arg("minimum_billed_hours") = 0.0)
        .def_static("from_offering", &SpotPricing::from_offering, py::arg("offering"),
                    "The offering's per-GPU spot and on-demand prices and its billing increment and minimum.")
        .def_readonly("price_per_hour", &SpotPricing::price_per_hour)
        .def_readonly("on_demand_price_per_hour", &SpotPricing::on_demand_price_per_hour)
        .def_readonly("billing_increment_hours", &SpotPricing::billing_increment_hours)
        .def_readonly("minimum_billed_hours", &SpotPricing::minimum_billed_hours)
        .def("__repr__", [](const SpotPricing& p) {
            return fmt::format("SpotPricing(price_per_hour={}, on_demand_price_per_hour={}, "
                               "billing_increment_hours={}, minimum_billed_hours={})",
                               p.price_per_hour, p.on_demand_price_per_hour, p.billing_increment_hours,
                               p.minimum_billed_hours);
        });

    py::class_<SimulationOptions>(m, "SimulationOptions",
                                  "Paths, seed, threads and the adaptive target of a spot Monte Carlo run.")
        .def(py::init([](std::size_t paths, std::uint64_t seed, unsigned threads, double target_half_width,
                         std::size_t max_paths, double confidence, bool keep_samples) {
                 SimulationOptions options;
                 options.paths = paths;
                 options.seed = seed;
                 options.threads = threads;
                 options.target_half_width = target_half_width;
                 options.max_paths = max_paths;
                 options.confidence = confidence;
                 options.keep_samples = keep_samples;
                 options.validate();
                 return options;
             }),
             py::kw_only(), py::arg("paths") = std::size_t{100000}, py::arg("seed") = std::uint64_t{0},
             py::arg("threads") = 0u, py::arg("target_half_width") = 0.0, py::arg("max_paths") = std::size_t{0},
             py::arg("confidence") = 0.95, py::arg("keep_samples") = true)
        .def_readonly("paths", &SimulationOptions::paths)
        .def_readonly("seed", &SimulationOptions::seed)
        .def_readonly("threads", &SimulationOptions::threads)
        .def_readonly("target_half_width", &SimulationOptions::target_half_width)
        .def_readonly("max_paths", &SimulationOptions::max_paths)
        .def_readonly("confidence", &SimulationOptions::confidence)
        .def_readonly("keep_samples", &SimulationOptions::keep_samples)
        .def("__repr__", [](const SimulationOptions& o) {
            return fmt::format("SimulationOptions(paths={}, seed={}, threads={}, target_half_width={}, "
                               "max_paths={}, confidence={}, keep_samples={})",
                               o.paths, o.seed, o.threads, o.target_half_width, o.max_paths, o.confidence,
                               o.keep_samples ? "True" : "False");
        });
    m.attr("spot_max_paths") = spot_max_paths;
    m.attr("spot_max_streamed_paths") = spot_max_streamed_paths;
    m.attr("spot_quantile_subsample") = spot_quantile_subsample;
    m.def("default_spot_kernel", &default_spot_kernel,
          "The kernel simulate_spot uses unless GPUTCO_SPOT_KERNEL names another: the widest lane kernel.");

    py::class_<SpotWorkEstimate>(m, "SpotWorkEstimate",
                                 "Lower bounds on one path's launches (1 + interruptions) and price steps.")
        .def_readonly("launches_per_path", &SpotWorkEstimate::launches_per_path)
        .def_readonly("price_steps_per_path", &SpotWorkEstimate::price_steps_per_path)
        .def("__repr__", [](const SpotWorkEstimate& w) {
            return fmt::format("SpotWorkEstimate(launches_per_path={:.6g}, price_steps_per_path={:.6g})",
                               w.launches_per_path, w.price_steps_per_path);
        });
    m.def("estimate_spot_work", &estimate_spot_work, py::arg("job"), py::arg("model"),
          py::arg("pricing") = SpotPricing{},
          "The work simulate_spot checks against its limits before a run, after the same validation: a run "
          "takes about paths x (launches_per_path + price_steps_per_path) events.");

    m.def("checkpoint_interval_or_default", &checkpoint_interval_or_default, py::arg("interval_hours"),
          py::arg("checkpoint_write_hours"), py::arg("model"),
          "The interval a spot job runs with: interval_hours if > 0, else the optimal interval for the model's "
          "mean lifetime (Poisson, Weibull, Trace; a price-driven model needs one given).");
    m.def(
        "_spot_job_pricing",
        [](std::optional<Offering> offering, std::optional<double> price, std::optional<double> on_demand,
           std::optional<double> increment, std::optional<double> minimum) {
            return spot_job_pricing({std::move(offering), price, on_demand, increment, minimum});
        },
        py::arg("offering"), py::arg("price_per_hour"), py::arg("on_demand_price_per_hour"),
        py::arg("billing_increment_hours"), py::arg("minimum_billed_hours"),
        "A spot job's pricing: the figures given, else the offering's (per-GPU prices, billing), else 1 per hour "
        "billed continuously.");
    m.def("_simulate_spot", &run, py::arg("job"), py::arg("model"), py::arg("pricing") = SpotPricing{},
          py::arg("options") = SimulationOptions{},
          "simulate_spot(job, model, pricing, options) of the C++ library; releases the GIL; Ctrl-C stops it.");
}

}  // namespace gputco::python
