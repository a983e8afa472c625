// Cost per unit of work: throughput tables, workloads, GPU matches, scaling, the ranking and the seed
// audit. Enums cross as strings ("mixed", "spot", "proxy"); the DataFrames are built in gputco/_work.py.
#include "register.hpp"

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/engines/work_audit.hpp>
#include <gputco/engines/work_cost.hpp>
#include <gputco/work/scaling.hpp>

namespace gputco::python {

namespace {

MatchKind parse_match_kind(const std::string& text) {
    for (MatchKind k : {MatchKind::measured, MatchKind::proxy, MatchKind::estimate, MatchKind::none})
        if (to_string(k) == text) return k;
    fail("kind", text, "must be \"measured\", \"proxy\", \"estimate\" or \"none\"");
}

}  // namespace

void register_work(py::module_& m) {
    py::class_<ThroughputRow>(m, "ThroughputRow", "One measurement: `gpus` GPUs train `model` at `per_second` units/s.")
        .def_readonly("gpu", &ThroughputRow::gpu)
        .def_readonly("system", &ThroughputRow::system)
        .def_readonly("gpus", &ThroughputRow::gpus)
        .def_property_readonly("precision", [](const ThroughputRow& r) { return std::string(to_string(r.precision)); })
        .def_readonly("watts", &ThroughputRow::watts)
        .def_readonly("price", &ThroughputRow::price)
        .def_readonly("model", &ThroughputRow::model)
        .def_readonly("per_second", &ThroughputRow::per_second)
        .def_readonly("source", &ThroughputRow::source)
        .def("__repr__", [](const ThroughputRow& r) {
            return fmt::format("ThroughputRow({}x {}, {}, {} = {:g}/s)", r.gpus, r.gpu, to_string(r.precision), r.model,
                               r.per_second);
        });

    py::class_<ThroughputTable>(m, "ThroughputTable",
                                "Measured training throughput by GPU, GPU count, precision and model. "
                                "ThroughputTable.builtin() is the Lambda benchmark; from_csv reads your own.")
        .def_static("builtin", &ThroughputTable::builtin, py::return_value_policy::reference)
        .def_static(
            "from_csv",
            [](const std::string& csv, const std::string& precision, const std::string& source, const std::string& as_of) {
                return ThroughputTable::from_csv(csv, parse_precision(precision), {source, as_of});
            },
            py::arg("csv"), py::kw_only(), py::arg("precision"), py::arg("source"), py::arg("as_of") = "",
            "Parses `name_gpu,num_gpu[,watt,price],<model>...` (the benchmark's shape); errors name row and field.")
        .def_static(
            "from_csv_file",
            [](const std::string& path, const std::string& precision, const std::string& source, const std::string& as_of) {
                return ThroughputTable::from_csv_file(path, parse_precision(precision), {source, as_of});
            },
            py::arg("path"), py::kw_only(), py::arg("precision"), py::arg("source"), py::arg("as_of") = "")
        .def("overridden_by", &ThroughputTable::overridden_by, py::arg("other"))
        .def_property_readonly("rows", &ThroughputTable::rows)
        .def("models", &ThroughputTable::models)
        .def(
            "find",
            [](const ThroughputTable& t, const std::string& gpu, int gpus, const std::string& precision,
               const std::string& model) -> std::optional<ThroughputRow> {
                const ThroughputRow* row = t.find(gpu, gpus, parse_precision(precision), model);
                if (row == nullptr) return std::nullopt;
                return *row;
            },
            py::arg("gpu"), py::arg("gpus"), py::arg("precision"), py::arg("model"))
        .def("__len__", [](const ThroughputTable& t) { return t.rows().size(); });

    m.def("benchmark_gpus", &benchmark_gpus, "GPU names the throughput table knows.");
    m.def("model_unit", [](const std::string& model) { return std::string(model_unit(model)); }, py::arg("model"));

    py::class_<ScalingCurve>(m, "ScalingCurve", "throughput(n) = n t1 / (1 + alpha log2 n), fitted to measured rows.")
        .def_readonly("single_gpu", &ScalingCurve::single_gpu)
        .def_readonly("alpha", &ScalingCurve::alpha)
        .def_readonly("fitted_counts", &ScalingCurve::fitted_counts)
        .def("efficiency", &ScalingCurve::efficiency, py::arg("gpus"))
        .def("throughput", &ScalingCurve::throughput, py::arg("gpus"));
    m.def(
        "scaling_curve",
        [](const ThroughputTable& t, const std::string& gpu, const std::string& precision, const std::string& model) {
            return scaling_curve(t, gpu, parse_precision(precision), model);
        },
        py::arg("table"), py::arg("gpu"), py::arg("precision"), py::arg("model"));
    m.def(
        "throughput_at",
        [](const ThroughputTable& t, const std::string& gpu, const std::string& precision, const std::string& model,
           int gpus) {
            const ScaledThroughput s = throughput_at(t, gpu, parse_precision(precision), model, gpus);
            return py::dict(py::arg("per_second") = s.per_second, py::arg("measured") = s.measured,
                            py::arg("basis") = s.basis);
        },
        py::arg("table"), py::arg("gpu"), py::arg("precision"), py::arg("model"), py::arg("gpus"),
        "The measured row where there is one, else the fitted curve: dict(per_second, measured, basis).");

    py::class_<Workload>(m, "Workload", "A training job by its work: units per epoch of a model, epochs, precision, memory.")
        .def(py::init([](const std::string& model, double work_per_epoch, double epochs, const std::string& precision,
                         double memory_gb, double utilisation, const std::string& name) {
                 Workload w{name, model, work_per_epoch, epochs, parse_precision(precision, "workload.precision"),
                            memory_gb, utilisation};
                 w.validate();
                 return w;
             }),
             py::kw_only(), py::arg("model"), py::arg("work_per_epoch"), py::arg("epochs") = 1.0,
             py::arg("precision") = "mixed", py::arg("memory_gb") = 0.0, py::arg("utilisation") = 1.0,
             py::arg("name") = "")
        .def_readonly("name", &Workload::name)
        .def_readonly("model", &Workload::model)
        .def_readonly("work_per_epoch", &Workload::work_per_epoch)
        .def_readonly("epochs", &Workload::epochs)
        .def_property_readonly("precision", [](const Workload& w) { return std::string(to_string(w.precision)); })
        .def_readonly("memory_gb", &Workload::memory_gb)
        .def_readonly("utilisation", &Workload::utilisation)
        .def("total_work", &Workload::total_work)
        .def("__repr__", [](const Workload& w) {
            return fmt::format("Workload(model='{}', work_per_epoch={:g}, epochs={:g}, precision='{}')", w.model,
                               w.work_per_epoch, w.epochs, to_string(w.precision));
        });
    m.def("training_memory_gb", &training_memory_gb, py::arg("parameters"), py::arg("bytes_per_parameter") = 16.0,
          py::arg("activations_gb") = 0.0,
          "parameters x bytes_per_parameter / 1e9 + activations_gb (16 B: mixed-precision Adam).");

    py::class_<GpuMatch>(m, "GpuMatch", "Which benchmark GPU stands for a catalog GPU: measured, proxy, estimate or none.")
        .def(py::init([](const std::string& catalog_gpu, const std::string& kind, const std::string& benchmark_gpu,
                         const std::string& note) {
                 return GpuMatch{catalog_gpu, parse_match_kind(kind), benchmark_gpu, note};
             }),
             py::arg("catalog_gpu"), py::arg("kind"), py::arg("benchmark_gpu") = "", py::arg("note") = "")
        .def_readonly("catalog_gpu", &GpuMatch::catalog_gpu)
        .def_property_readonly("kind", [](const GpuMatch& g) { return std::string(to_string(g.kind)); })
        .def_readonly("benchmark_gpu", &GpuMatch::benchmark_gpu)
        .def_readonly("note", &GpuMatch::note);
    m.def("gpu_matches", &builtin_gpu_matches, "The built-in catalog-to-benchmark GPU table.");
    m.def("match_gpu", &match_gpu, py::arg("catalog_gpu"), py::arg("extra") = std::vector<GpuMatch>{});

    py::class_<WorkCostRow>(m, "WorkCostRow", "One way of running a workload on one offering or owned machine.")
        .def_readonly("provider", &WorkCostRow::provider)
        .def_readonly("region", &WorkCostRow::region)
        .def_readonly("instance_type", &WorkCostRow::instance_type)
        .def_readonly("catalog_gpu", &WorkCostRow::catalog_gpu)
        .def_readonly("benchmark_gpu", &WorkCostRow::benchmark_gpu)
        .def_property_readonly("match", [](const WorkCostRow& r) { return std::string(to_string(r.match)); })
        .def_property_readonly("buying", [](const WorkCostRow& r) { return std::string(to_string(r.buying)); })
        .def_readonly("terms", &WorkCostRow::terms)
        .def_readonly("gpus", &WorkCostRow::gpus)
        .def_readonly("currency", &WorkCostRow::currency)
        .def_readonly("price_per_hour", &WorkCostRow::price_per_hour)
        .def_readonly("throughput_per_second", &WorkCostRow::throughput_per_second)
        .def_readonly("throughput_basis", &WorkCostRow::throughput_basis)
        .def_readonly("hours_per_epoch", &WorkCostRow::hours_per_epoch)
        .def_readonly("run_hours", &WorkCostRow::run_hours)
        .def_readonly("run_hours_p95", &WorkCostRow::run_hours_p95)
        .def_readonly("cost_per_epoch", &WorkCostRow::cost_per_epoch)
        .def_readonly("cost_per_run", &WorkCostRow::cost_per_run)
        .def_readonly("cost_per_run_p95", &WorkCostRow::cost_per_run_p95)
        .def_readonly("cost_per_run_standard_error", &WorkCostRow::cost_per_run_standard_error)
        .def_readonly("cost_per_million", &WorkCostRow::cost_per_million)
        .def_readonly("probability_within_deadline", &WorkCostRow::probability_within_deadline)
        .def_readonly("note", &WorkCostRow::note)
        .def_readonly("price_age_days", &WorkCostRow::price_age_days)
        .def_readonly("stale", &WorkCostRow::stale)
        .def("__repr__", [](const WorkCostRow& r) {
            return fmt::format("WorkCostRow({}/{}/{}, {}, cost_per_run={:.4g} {}, run_hours={:.4g})", r.provider,
                               r.region, r.instance_type, to_string(r.buying), r.cost_per_run, r.currency, r.run_hours);
        });
    py::class_<SkippedOffering>(m, "SkippedOffering")
        .def_readonly("offering", &SkippedOffering::offering)
        .def_readonly("reason", &SkippedOffering::reason);
    py::class_<WorkRanking>(m, "WorkRanking", "Every way of running a workload, cheapest first, and what was skipped.")
        .def_readonly("workload", &WorkRanking::workload)
        .def_readonly("unit", &WorkRanking::unit)
        .def_readonly("currency", &WorkRanking::currency)
        .def_readonly("deadline_hours", &WorkRanking::deadline_hours)
        .def_readonly("rows", &WorkRanking::rows)
        .def_readonly("skipped", &WorkRanking::skipped)
        .def_readonly("prices_as_of", &WorkRanking::prices_as_of)
        .def_readonly("max_price_age_days", &WorkRanking::max_price_age_days)
        .def_readonly("stale_left_out", &WorkRanking::stale_left_out)
        .def("frontier", &cost_time_frontier, "Rows no other row beats on both cost and time, fastest first.");

    auto options = [](const std::string& currency, bool on_demand, bool spot, bool reserved, bool owned,
                      bool allow_estimates, const std::vector<GpuMatch>& gpu_matches, double mtbf_hours,
                      double checkpoint_write_hours, double restart_hours, double capacity_wait_hours, std::size_t paths,
                      std::uint64_t seed, unsigned threads, const std::optional<Owned>& ownership, double deadline_hours,
                      const std::optional<ExchangeRates>& exchange_rates, const std::string& rates_as_of) {
        RankOptions o;
        o.currency = currency;
        if (exchange_rates) o.exchange_rates = *exchange_rates;
        o.rates_as_of = rates_as_of;
        o.on_demand = on_demand;
        o.spot = spot;
        o.reserved = reserved;
        o.owned = owned;
        o.allow_estimates = allow_estimates;
        o.gpu_matches = gpu_matches;
        o.spot_assumptions.mtbf_hours = mtbf_hours;
        o.spot_assumptions.checkpoint_write_hours = checkpoint_write_hours;
        o.spot_assumptions.restart_hours = restart_hours;
        o.spot_assumptions.capacity_wait_hours = capacity_wait_hours;
        o.spot_assumptions.simulation.paths = paths;
        o.spot_assumptions.simulation.seed = seed;
        o.spot_assumptions.simulation.threads = threads;
        if (ownership) o.ownership = *ownership;
        o.deadline_hours = deadline_hours;
        return o;
    };
    const double inf = std::numeric_limits<double>::infinity();
    m.def(
        "_rank_offerings",
        [options](const Workload& w, const Catalog& catalog, const ThroughputTable& table, const std::string& currency,
                  bool on_demand, bool spot, bool reserved, bool owned, bool allow_estimates,
                  const std::vector<GpuMatch>& gpu_matches, double mtbf_hours, double checkpoint_write_hours,
                  double restart_hours, double capacity_wait_hours, std::size_t paths, std::uint64_t seed,
                  unsigned threads, const std::optional<Owned>& ownership, double deadline_hours,
                  const std::optional<ExchangeRates>& exchange_rates, const std::string& rates_as_of,
                  const py::object& progress, bool every_region, const std::string& prices_as_of,
                  long long max_price_age_days, bool include_stale_prices) {
            RankOptions o = options(currency, on_demand, spot, reserved, owned, allow_estimates, gpu_matches,
                                    mtbf_hours, checkpoint_write_hours, restart_hours, capacity_wait_hours, paths, seed,
                                    threads, ownership, deadline_hours, exchange_rates, rates_as_of);
            o.every_region = every_region;
            o.prices_as_of = prices_as_of;
            o.max_price_age_days = max_price_age_days;
            o.include_stale_prices = include_stale_prices;
            o.should_stop = &ctrl_c_pressed;
            o.progress = progress_of(progress);
            return without_gil_until_ctrl_c([&] { return rank_offerings(w, catalog, table, o); });
        },
        py::arg("workload"), py::arg("catalog"), py::arg("throughput"), py::kw_only(), py::arg("currency") = "USD",
        py::arg("on_demand") = true, py::arg("spot") = true, py::arg("reserved") = true, py::arg("owned") = true,
        py::arg("allow_estimates") = false, py::arg("gpu_matches") = std::vector<GpuMatch>{},
        py::arg("mtbf_hours") = 20.0, py::arg("checkpoint_write_hours") = 5.0 / 60, py::arg("restart_hours") = 10.0 / 60,
        py::arg("capacity_wait_hours") = 0.0, py::arg("paths") = 20000, py::arg("seed") = 42, py::arg("threads") = 0,
        py::arg("ownership") = py::none(), py::arg("deadline_hours") = inf, py::arg("exchange_rates") = py::none(),
        py::arg("rates_as_of") = "", py::arg("progress") = py::none(), py::arg("every_region") = false,
        py::arg("prices_as_of") = "", py::arg("max_price_age_days") = RankOptions{}.max_price_age_days,
        py::arg("include_stale_prices") = false);

    py::class_<WorkAuditRow>(m, "WorkAuditRow", "A seed claim beside the measured figure.")
        .def_readonly("claim", &WorkAuditRow::claim)
        .def_readonly("source", &WorkAuditRow::source)
        .def_readonly("seed_figure", &WorkAuditRow::seed_figure)
        .def_readonly("measured_figure", &WorkAuditRow::measured_figure)
        .def_readonly("unit", &WorkAuditRow::unit)
        .def_readonly("verdict", &WorkAuditRow::verdict)
        .def_readonly("basis", &WorkAuditRow::basis)
        .def_readonly("reason", &WorkAuditRow::reason);
    m.def("audit_seed_work_claims", &audit_seed_work_claims, py::arg("catalog"), py::arg("throughput"));
}

}  // namespace gputco::python
