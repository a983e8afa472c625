#pragma once
// The columns of each result a scenario gives, declared once: name, unit, dtype and getter. The
// command's table, CSV, JSON and Markdown and Python's DataFrames (run_spot_jobs, run_plans, ...)
// render these lists; neither names a column of its own. Statistics are named one way everywhere:
// <figure>_mean, _standard_error, _p5, _p50, _p95, _cvar95.
//
//   for (const auto& c : spot_job_columns()) row[c.name] = c.get(result.spot_jobs[0]);
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gputco/engines/deadline_sweep.hpp"
#include "gputco/scenario/scenario.hpp"
#include "gputco/engines/llm_cost.hpp"

namespace gputco {

/// One cell: none (a figure that does not apply: empty in CSV, null in JSON, NaN/<NA> in pandas),
/// a yes/no, a number, a whole number or text.
using Cell = std::variant<std::monostate, bool, double, long long, std::string>;

enum class Dtype { text, float64, int64, boolean };

inline std::string_view dtype_name(Dtype d) {
    switch (d) {
        case Dtype::text: return "object";
        case Dtype::float64: return "float64";
        case Dtype::int64: return "int64";
        case Dtype::boolean: return "bool";
    }
    return "object";
}

template <class Row>
struct Column {
    std::string_view name;  ///< CSV header, JSON key, DataFrame column
    std::string_view unit;  ///< "currency", "hours", "GPU-hours", "fraction", "count", "" for text
    Dtype dtype;
    std::function<Cell(const Row&)> get;
};

/// A deadline job's policies (and the omniscient bound) as rows.
struct DeadlineRow {
    const DeadlineJobResult* job;
    std::string policy;
    const Summary* cost;
    double deadline_miss_probability;
};
inline std::vector<DeadlineRow> deadline_rows(const DeadlineJobResult& j) {
    std::vector<DeadlineRow> rows;
    for (const DeadlinePolicyOutcome& p : j.comparison.policies)
        rows.push_back({&j, std::string(to_string(p.policy)), &p.cost, p.deadline_miss_probability});
    if (j.comparison.omniscient_cost) rows.push_back({&j, "omniscient", &*j.comparison.omniscient_cost, 0.0});
    return rows;
}

/// A service's search as rows: per policy its cheapest candidate meeting the target (else its most
/// available one), then the omniscient bound; `chosen` marks the plan's best.
struct ServiceRow {
    const ServiceResult* service;
    std::string policy;
    const ServingCandidate* candidate;  ///< null for the bound
    const ServingResult* result;
    bool chosen;
};
inline std::vector<ServiceRow> service_rows(const ServiceResult& s) {
    std::vector<ServiceRow> rows;
    const auto& candidates = s.plan.candidates;
    std::vector<ServingPolicy> policies;
    for (const auto& c : candidates)
        if (std::find(policies.begin(), policies.end(), c.policy) == policies.end()) policies.push_back(c.policy);
    for (const ServingPolicy p : policies) {
        const ServingCandidate* pick = nullptr;
        for (const auto& c : candidates) {
            if (c.policy != p) continue;
            const bool better = !pick || (c.meets_target && !pick->meets_target) ||
                                (c.meets_target == pick->meets_target &&
                                 (c.meets_target ? c.result.cost < pick->result.cost
                                                 : c.result.availability > pick->result.availability));
            if (better) pick = &c;
        }
        const bool chosen = s.plan.best && &candidates[*s.plan.best] == pick;
        rows.push_back({&s, std::string(to_string(p)), pick, &pick->result, chosen});
    }
    rows.push_back({&s, "omniscient_bound", nullptr, &s.plan.lower_bound, false});
    return rows;
}

/// A workload's ranking rows, each with the workload's name.
struct WorkloadRow {
    const std::string* workload;
    const WorkCostRow* row;
};
inline std::vector<WorkloadRow> workload_rows(const WorkloadResult& w) {
    std::vector<WorkloadRow> rows;
    for (const WorkCostRow& r : w.ranking.rows) rows.push_back({&w.name, &r});
    return rows;
}

namespace columns_detail {
inline Cell optional(const std::optional<double>& v) { return v ? Cell(*v) : Cell(); }
}  // namespace columns_detail

/// A strategy's figures; a scenario's `outputs` pick among those after strategy and currency.
inline const std::vector<Column<StrategyResult>>& strategy_columns() {
    using R = StrategyResult;
    static const std::vector<Column<R>> c{
        {"strategy", "", Dtype::text, [](const R& r) { return Cell(r.name); }},
        {"currency", "", Dtype::text, [](const R& r) { return Cell(r.report.currency); }},
        {"total", "currency", Dtype::float64, [](const R& r) { return Cell(r.report.total); }},
        {"npv", "currency", Dtype::float64, [](const R& r) { return Cell(r.report.npv); }},
        {"savings", "currency", Dtype::float64, [](const R& r) { return Cell(r.report.savings); }},
        {"savings_fraction", "fraction", Dtype::float64, [](const R& r) { return Cell(r.report.savings_fraction); }},
        {"baseline_total", "currency", Dtype::float64, [](const R& r) { return Cell(r.report.baseline_total); }},
        {"cost_per_used_gpu_hour", "currency per GPU-hour", Dtype::float64,
         [](const R& r) { return columns_detail::optional(r.report.effective_cost_per_used_gpu_hour); }},
        {"break_even_utilisation", "fraction", Dtype::float64,
         [](const R& r) { return columns_detail::optional(r.report.break_even_utilisation); }},
        {"p95", "currency", Dtype::float64,
         [](const R& r) { return Cell(r.report.spread ? r.report.spread->p95 : r.report.total); }},
    };
    return c;
}

/// A spot job's run, with the checkpoint interval and billing it ran with.
inline const std::vector<Column<SpotJobResult>>& spot_job_columns() {
    using R = SpotJobResult;
    static const std::vector<Column<R>> c{
        {"job", "", Dtype::text, [](const R& r) { return Cell(r.name); }},
        {"checkpoint_interval_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.checkpoint_interval_hours); }},
        {"price_per_hour", "currency per GPU-hour", Dtype::float64, [](const R& r) { return Cell(r.pricing.price_per_hour); }},
        {"billing_increment_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.pricing.billing_increment_hours); }},
        {"minimum_billed_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.pricing.minimum_billed_hours); }},
        {"paths", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.result.paths); }},
        {"seed", "", Dtype::int64, [](const R& r) { return Cell((long long)r.result.seed); }},
        {"wall_hours_mean", "hours", Dtype::float64, [](const R& r) { return Cell(r.result.wall_hours.mean); }},
        {"billed_hours_mean", "hours", Dtype::float64, [](const R& r) { return Cell(r.result.billed_hours.mean); }},
        {"charged_hours_mean", "hours", Dtype::float64, [](const R& r) { return Cell(r.result.charged_hours.mean); }},
        {"cost_mean", "currency", Dtype::float64, [](const R& r) { return Cell(r.result.cost.mean); }},
        {"cost_standard_error", "currency", Dtype::float64, [](const R& r) { return Cell(r.result.cost.standard_error); }},
        {"cost_p50", "currency", Dtype::float64, [](const R& r) { return Cell(r.result.cost.p50); }},
        {"cost_p95", "currency", Dtype::float64, [](const R& r) { return Cell(r.result.cost.p95); }},
        {"interruptions_mean", "count", Dtype::float64, [](const R& r) { return Cell(r.result.interruptions.mean); }},
        {"deadline_miss_probability", "fraction", Dtype::float64,
         [](const R& r) { return Cell(r.result.deadline_miss_probability); }},
    };
    return c;
}

/// A plan over the scenario's futures: statistics of its total, means of the rest.
inline const std::vector<Column<PlanDistribution>>& plan_columns() {
    using R = PlanDistribution;
    static const std::vector<Column<R>> c{
        {"plan", "", Dtype::text, [](const R& r) { return Cell(r.plan); }},
        {"currency", "", Dtype::text, [](const R& r) { return Cell(r.currency); }},
        {"futures", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.futures.size()); }},
        {"total_mean", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.mean); }},
        {"total_standard_error", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.standard_error); }},
        {"total_p5", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.p5); }},
        {"total_p50", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.p50); }},
        {"total_p95", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.p95); }},
        {"total_cvar95", "currency", Dtype::float64, [](const R& r) { return Cell(r.total.cvar95); }},
        {"npv_mean", "currency", Dtype::float64, [](const R& r) { return Cell(r.npv.mean); }},
        {"regret_mean", "currency", Dtype::float64, [](const R& r) { return Cell(r.regret.mean); }},
        {"best_fraction", "fraction", Dtype::float64, [](const R& r) { return Cell(r.best_fraction); }},
        {"committed_utilisation", "fraction", Dtype::float64, [](const R& r) { return Cell(r.committed_utilisation); }},
    };
    return c;
}

/// A sweep point: the scenario run at one point of a grid, one row per strategy and plan, each giving
/// the same figures so a sweep can ask all of them for an output. A plan's total and NPV are its means
/// over the futures, its statistics those of its total; a strategy's statistics are those of its
/// total (its spot spread's where it has one; a figure the spread does not carry is none).
struct SweepPointRow {
    std::string name;  ///< the strategy's name, or "plan " and the plan's name
    const StrategyResult* strategy = nullptr;
    const PlanDistribution* plan = nullptr;
};
inline std::vector<SweepPointRow> sweep_point_rows(const ScenarioResult& result) {
    std::vector<SweepPointRow> rows;
    for (const StrategyResult& s : result.strategies) rows.push_back({s.name, &s, nullptr});
    for (const PlanDistribution& p : result.plans) rows.push_back({"plan " + p.plan, nullptr, &p});
    return rows;
}

inline const std::vector<Column<SweepPointRow>>& sweep_point_columns() {
    using R = SweepPointRow;
    // A strategy's figure as strategy_columns() gives it (one rule for its p95).
    const auto strategy = [](std::string_view name) {
        const auto& all = strategy_columns();
        const auto it = std::find_if(all.begin(), all.end(), [name](const auto& c) { return c.name == name; });
        return it->get;
    };
    const auto figure = [strategy](std::string_view name, double Distribution::*stat, Distribution PlanDistribution::*of) {
        return [get = strategy(name), stat, of](const R& r) {
            if (r.strategy) return get(*r.strategy);
            return of ? Cell(r.plan->*of.*stat) : Cell();
        };
    };
    // The total's statistics: a plan's over its futures; a strategy's from its spread, or its total
    // (a total without a spread is certain: no standard error, every quantile the total).
    const auto statistic = [](double Distribution::*stat, double CostSpread::*spread) {
        return [stat, spread](const R& r) {
            if (r.plan) return Cell(r.plan->total.*stat);
            const CostReport& report = r.strategy->report;
            if (!report.spread) return Cell(stat == &Distribution::standard_error ? 0.0 : report.total);
            return spread ? Cell(*report.spread.*spread) : Cell();
        };
    };
    using D = Distribution;
    using P = PlanDistribution;
    static const std::vector<Column<R>> c{
        {"name", "", Dtype::text, [](const R& r) { return Cell(r.name); }},
        {"total", "currency", Dtype::float64, figure("total", &D::mean, &P::total)},
        {"npv", "currency", Dtype::float64, figure("npv", &D::mean, &P::npv)},
        {"savings", "currency", Dtype::float64, figure("savings", nullptr, nullptr)},
        {"savings_fraction", "fraction", Dtype::float64, figure("savings_fraction", nullptr, nullptr)},
        {"baseline_total", "currency", Dtype::float64, figure("baseline_total", nullptr, nullptr)},
        {"cost_per_used_gpu_hour", "currency per GPU-hour", Dtype::float64, figure("cost_per_used_gpu_hour", nullptr, nullptr)},
        {"break_even_utilisation", "fraction", Dtype::float64, figure("break_even_utilisation", nullptr, nullptr)},
        {"standard_error", "currency", Dtype::float64, statistic(&D::standard_error, nullptr)},
        {"p5", "currency", Dtype::float64, statistic(&D::p5, &CostSpread::p05)},
        {"p50", "currency", Dtype::float64, statistic(&D::p50, &CostSpread::p50)},
        {"p95", "currency", Dtype::float64, figure("p95", &D::p95, &P::total)},
        {"cvar95", "currency", Dtype::float64, statistic(&D::cvar95, nullptr)},
    };
    return c;
}

/// One commitment of a plan (held, bought, or started by an exchange): its paid, used and unused GPU-hours.
struct CommitmentUseRow {
    const PlanDistribution* plan;
    const CommitmentUse* use;
};

inline std::vector<CommitmentUseRow> commitment_use_rows(const std::vector<PlanDistribution>& plans) {
    std::vector<CommitmentUseRow> rows;
    for (const PlanDistribution& p : plans)
        for (const CommitmentUse& u : p.commitment_use) rows.push_back({&p, &u});
    return rows;
}

inline const std::vector<Column<CommitmentUseRow>>& commitment_use_columns() {
    using R = CommitmentUseRow;
    static const std::vector<Column<R>> c{
        {"plan", "", Dtype::text, [](const R& r) { return Cell(r.plan->plan); }},
        {"commitment", "", Dtype::text, [](const R& r) { return Cell(r.use->name); }},
        {"held", "", Dtype::text, [](const R& r) { return Cell(std::string(r.use->held ? "held" : "bought")); }},
        {"gpus", "count", Dtype::float64, [](const R& r) { return Cell(r.use->gpus); }},
        {"first_month", "month", Dtype::int64, [](const R& r) { return Cell((long long)r.use->first_month); }},
        {"end_month", "month", Dtype::int64, [](const R& r) { return Cell((long long)r.use->end_month); }},
        {"paid_gpu_hours", "GPU-hours", Dtype::float64, [](const R& r) { return Cell(r.use->paid_gpu_hours); }},
        {"used_gpu_hours", "GPU-hours", Dtype::float64, [](const R& r) { return Cell(r.use->used_gpu_hours); }},
        {"unused_gpu_hours", "GPU-hours", Dtype::float64, [](const R& r) { return Cell(r.use->unused_gpu_hours); }},
    };
    return c;
}

inline const std::vector<Column<DeadlineRow>>& deadline_columns() {
    using R = DeadlineRow;
    static const std::vector<Column<R>> c{
        {"deadline_job", "", Dtype::text, [](const R& r) { return Cell(r.job->name); }},
        {"policy", "", Dtype::text, [](const R& r) { return Cell(r.policy); }},
        {"paths", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.job->comparison.paths); }},
        {"seed", "", Dtype::int64, [](const R& r) { return Cell((long long)r.job->comparison.seed); }},
        {"cost_mean", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->mean); }},
        {"cost_standard_error", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->standard_error); }},
        {"cost_p95", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->p95); }},
        {"deadline_miss_probability", "fraction", Dtype::float64, [](const R& r) { return Cell(r.deadline_miss_probability); }},
    };
    return c;
}

/// A deadline sweep's summary as rows: one per policy, then "omniscient" when computed (no misses,
/// the whole Greedy-to-optimum gap closed by definition).
struct SweepSummaryRow {
    std::string policy;
    const Summary* cost;
    long long deadline_misses;
    double miss_rate;  ///< misses / windows
    double gap_closed;
};
inline std::vector<SweepSummaryRow> sweep_summary_rows(const WindowSweep& sweep) {
    std::vector<SweepSummaryRow> rows;
    const double windows = double(sweep.window_starts.size());
    for (const WindowPolicyOutcome& o : sweep.policies)
        rows.push_back({std::string(to_text(o.policy)), &o.cost, (long long)o.deadline_misses,
                        windows > 0 ? double(o.deadline_misses) / windows : 0.0, o.gap_closed});
    if (sweep.omniscient_cost) rows.push_back({"omniscient", &*sweep.omniscient_cost, 0, 0.0, 1.0});
    return rows;
}

inline const std::vector<Column<SweepSummaryRow>>& sweep_summary_columns() {
    using R = SweepSummaryRow;
    static const std::vector<Column<R>> c{
        {"policy", "", Dtype::text, [](const R& r) { return Cell(r.policy); }},
        {"mean", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->mean); }},
        {"standard_error", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->standard_error); }},
        {"p50", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->p50); }},
        {"p95", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->p95); }},
        {"max", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost->max); }},
        {"deadline_misses", "count", Dtype::int64, [](const R& r) { return Cell(r.deadline_misses); }},
        {"miss_rate", "fraction", Dtype::float64, [](const R& r) { return Cell(r.miss_rate); }},
        {"gap_closed", "fraction", Dtype::float64, [](const R& r) { return Cell(r.gap_closed); }},
    };
    return c;
}

inline const std::vector<Column<ServiceRow>>& service_columns() {
    using R = ServiceRow;
    // Counts as float64: the bound's row has none (NaN in pandas, null in JSON).
    const auto count = [](std::size_t ServingCandidate::*field) {
        return [field](const R& r) { return r.candidate ? Cell(static_cast<double>(r.candidate->*field)) : Cell(); };
    };
    static const std::vector<Column<R>> c{
        {"service", "", Dtype::text, [](const R& r) { return Cell(r.service->name); }},
        {"policy", "", Dtype::text, [](const R& r) { return Cell(r.policy); }},
        {"extra_spot", "count", Dtype::float64, count(&ServingCandidate::extra_spot)},
        {"on_demand_base", "count", Dtype::float64, count(&ServingCandidate::on_demand_base)},
        {"cost", "currency", Dtype::float64, [](const R& r) { return Cell(r.result->cost); }},
        {"on_demand_only_cost", "currency", Dtype::float64, [](const R& r) { return Cell(r.result->on_demand_only_cost); }},
        {"saving", "fraction", Dtype::float64, [](const R& r) { return Cell(r.result->saving); }},
        {"availability", "fraction", Dtype::float64, [](const R& r) { return Cell(r.result->availability); }},
        {"on_demand_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.result->on_demand_hours); }},
        {"spot_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.result->spot_hours); }},
        {"chosen", "", Dtype::text, [](const R& r) { return Cell(std::string(r.chosen ? "yes" : "no")); }},
    };
    return c;
}

/// A way of running a workload (rank_offerings' rows): what it costs per epoch, per run and per
/// million units of work.
inline const std::vector<Column<WorkCostRow>>& ranking_columns() {
    using R = WorkCostRow;
    static const std::vector<Column<R>> c{
        {"provider", "", Dtype::text, [](const R& r) { return Cell(r.provider); }},
        {"region", "", Dtype::text, [](const R& r) { return Cell(r.region); }},
        {"instance_type", "", Dtype::text, [](const R& r) { return Cell(r.instance_type); }},
        {"gpus", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.gpus); }},
        {"catalog_gpu", "", Dtype::text, [](const R& r) { return Cell(r.catalog_gpu); }},
        {"benchmark_gpu", "", Dtype::text, [](const R& r) { return Cell(r.benchmark_gpu); }},
        {"match", "", Dtype::text, [](const R& r) { return Cell(std::string(to_text(r.match))); }},
        {"buying", "", Dtype::text, [](const R& r) { return Cell(std::string(to_text(r.buying))); }},
        {"terms", "", Dtype::text, [](const R& r) { return Cell(r.terms); }},
        {"currency", "", Dtype::text, [](const R& r) { return Cell(r.currency); }},
        {"price_per_hour", "currency", Dtype::float64, [](const R& r) { return Cell(r.price_per_hour); }},
        {"throughput_per_second", "units per second", Dtype::float64, [](const R& r) { return Cell(r.throughput_per_second); }},
        {"throughput_basis", "", Dtype::text, [](const R& r) { return Cell(r.throughput_basis); }},
        {"hours_per_epoch", "hours", Dtype::float64, [](const R& r) { return Cell(r.hours_per_epoch); }},
        {"run_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.run_hours); }},
        {"run_hours_p95", "hours", Dtype::float64, [](const R& r) { return Cell(r.run_hours_p95); }},
        {"cost_per_epoch", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_epoch); }},
        {"cost_per_run", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_run); }},
        {"cost_per_run_p95", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_run_p95); }},
        {"cost_per_run_standard_error", "currency", Dtype::float64,
         [](const R& r) { return Cell(r.cost_per_run_standard_error); }},
        {"cost_per_million", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_million); }},
        {"probability_within_deadline", "fraction", Dtype::float64,
         [](const R& r) { return Cell(r.probability_within_deadline); }},
        {"note", "", Dtype::text, [](const R& r) { return Cell(r.note); }},
    };
    return c;
}

/// A scenario's workloads: the workload's name, then ranking_columns().
inline const std::vector<Column<WorkloadRow>>& workload_columns() {
    static const std::vector<Column<WorkloadRow>> c = [] {
        std::vector<Column<WorkloadRow>> out{
            {"workload", "", Dtype::text, [](const WorkloadRow& r) { return Cell(*r.workload); }}};
        for (const Column<WorkCostRow>& ranking : ranking_columns())
            out.push_back({ranking.name, ranking.unit, ranking.dtype,
                           [get = ranking.get](const WorkloadRow& r) { return get(*r.row); }});
        return out;
    }();
    return c;
}

/// An LLM training run on one offering and way of buying (rank_llm_training's rows): layout, MFU with
/// its basis, hours and cost per run. Python's llm_training_cost frame has these columns.
inline const std::vector<Column<LlmTrainingRow>>& llm_training_columns() {
    using R = LlmTrainingRow;
    static const std::vector<Column<R>> c{
        {"provider", "", Dtype::text, [](const R& r) { return Cell(r.provider); }},
        {"region", "", Dtype::text, [](const R& r) { return Cell(r.region); }},
        {"instance_type", "", Dtype::text, [](const R& r) { return Cell(r.instance_type); }},
        {"gpu", "", Dtype::text, [](const R& r) { return Cell(r.gpu); }},
        {"buying", "", Dtype::text, [](const R& r) { return Cell(std::string(to_text(r.buying))); }},
        {"terms", "", Dtype::text, [](const R& r) { return Cell(r.terms); }},
        {"instances", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.instances); }},
        {"gpus", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.gpus); }},
        {"tensor_parallel", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.layout.tensor_parallel); }},
        {"data_parallel", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.layout.data_parallel); }},
        {"sharding", "", Dtype::text, [](const R& r) { return Cell(std::string(to_text(r.layout.sharding))); }},
        {"memory_gb_per_gpu", "GB", Dtype::float64, [](const R& r) { return Cell(r.memory_gb_per_gpu); }},
        {"peak_tflops", "TFLOPS", Dtype::float64, [](const R& r) { return Cell(r.peak_tflops); }},
        {"mfu", "fraction", Dtype::float64, [](const R& r) { return Cell(r.mfu); }},
        {"mfu_kind", "", Dtype::text, [](const R& r) { return Cell(std::string(to_text(r.mfu_kind))); }},
        {"mfu_basis", "", Dtype::text, [](const R& r) { return Cell(r.mfu_basis); }},
        {"scaling_efficiency", "fraction", Dtype::float64, [](const R& r) { return Cell(r.scaling_efficiency); }},
        {"interconnect_basis", "", Dtype::text, [](const R& r) { return Cell(r.interconnect_basis); }},
        {"gpu_hours", "GPU-hours", Dtype::float64, [](const R& r) { return Cell(r.gpu_hours); }},
        {"run_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.run_hours); }},
        {"run_hours_p95", "hours", Dtype::float64, [](const R& r) { return Cell(r.run_hours_p95); }},
        {"currency", "", Dtype::text, [](const R& r) { return Cell(r.currency); }},
        {"price_per_hour", "currency", Dtype::float64, [](const R& r) { return Cell(r.price_per_hour); }},
        {"cost_per_run", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_run); }},
        {"cost_per_run_p95", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_run_p95); }},
        {"cost_per_run_standard_error", "currency", Dtype::float64,
         [](const R& r) { return Cell(r.cost_per_run_standard_error); }},
        {"cost_per_million_tokens", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_million_tokens); }},
        {"checkpoint_gb", "GB", Dtype::float64, [](const R& r) { return Cell(r.checkpoint_gb); }},
        {"checkpoint_write_hours", "hours", Dtype::float64, [](const R& r) { return Cell(r.checkpoint_write_hours); }},
        {"note", "", Dtype::text, [](const R& r) { return Cell(r.note); }},
    };
    return c;
}

/// An LLM inference service on one offering and way of buying (rank_llm_serving's rows): replica
/// shape, latency, tokens/s per GPU, fleet cost and $ per million tokens.
inline const std::vector<Column<LlmServingRow>>& llm_serving_columns() {
    using R = LlmServingRow;
    static const std::vector<Column<R>> c{
        {"provider", "", Dtype::text, [](const R& r) { return Cell(r.provider); }},
        {"region", "", Dtype::text, [](const R& r) { return Cell(r.region); }},
        {"instance_type", "", Dtype::text, [](const R& r) { return Cell(r.instance_type); }},
        {"gpu", "", Dtype::text, [](const R& r) { return Cell(r.gpu); }},
        {"buying", "", Dtype::text, [](const R& r) { return Cell(std::string(to_text(r.buying))); }},
        {"terms", "", Dtype::text, [](const R& r) { return Cell(r.terms); }},
        {"tensor_parallel", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.estimate.tensor_parallel); }},
        {"batch", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.estimate.batch); }},
        {"batch_limit", "", Dtype::text, [](const R& r) { return Cell(r.estimate.batch_limit); }},
        {"replicas", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.estimate.replicas); }},
        {"gpus", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.estimate.gpus); }},
        {"instances", "count", Dtype::int64, [](const R& r) { return Cell((long long)r.instances); }},
        {"seconds_per_output_token", "seconds", Dtype::float64, [](const R& r) { return Cell(r.estimate.step_seconds); }},
        {"seconds_to_first_token", "seconds", Dtype::float64, [](const R& r) { return Cell(r.estimate.prefill_seconds); }},
        {"bandwidth_bound", "", Dtype::boolean, [](const R& r) { return Cell(r.estimate.bandwidth_bound); }},
        {"decode_tokens_per_second_per_gpu", "tokens per second", Dtype::float64,
         [](const R& r) { return Cell(r.estimate.decode_tokens_per_second_per_gpu); }},
        {"prefill_tokens_per_second_per_gpu", "tokens per second", Dtype::float64,
         [](const R& r) { return Cell(r.estimate.prefill_tokens_per_second_per_gpu); }},
        {"currency", "", Dtype::text, [](const R& r) { return Cell(r.currency); }},
        {"price_per_hour", "currency", Dtype::float64, [](const R& r) { return Cell(r.price_per_hour); }},
        {"cost_per_hour", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_hour); }},
        {"cost_per_million_input_tokens", "currency", Dtype::float64,
         [](const R& r) { return Cell(r.cost_per_million_input_tokens); }},
        {"cost_per_million_output_tokens", "currency", Dtype::float64,
         [](const R& r) { return Cell(r.cost_per_million_output_tokens); }},
        {"cost_per_request", "currency", Dtype::float64, [](const R& r) { return Cell(r.cost_per_request); }},
        {"mfu", "fraction", Dtype::float64, [](const R& r) { return Cell(r.mfu); }},
        {"mfu_basis", "", Dtype::text, [](const R& r) { return Cell(r.mfu_basis); }},
        {"note", "", Dtype::text, [](const R& r) { return Cell(r.note); }},
    };
    return c;
}

/// A scenario's LLM jobs as rows, each with its job's name.
template <class Row>
struct LlmJobRow {
    const std::string* job;
    const Row* row;
};
template <class Result>
auto llm_job_rows(const std::vector<Result>& results) {
    std::vector<LlmJobRow<std::decay_t<decltype(results[0].ranking.rows[0])>>> rows;
    for (const Result& r : results)
        for (const auto& row : r.ranking.rows) rows.push_back({&r.name, &row});
    return rows;
}

namespace columns_detail {
/// `first` (the job's name), then `columns` read through the row pointer.
template <class Row>
std::vector<Column<LlmJobRow<Row>>> with_job(std::string_view first, const std::vector<Column<Row>>& columns) {
    std::vector<Column<LlmJobRow<Row>>> out{
        {first, "", Dtype::text, [](const LlmJobRow<Row>& r) { return Cell(*r.job); }}};
    for (const Column<Row>& c : columns)
        out.push_back({c.name, c.unit, c.dtype, [get = c.get](const LlmJobRow<Row>& r) { return get(*r.row); }});
    return out;
}
}  // namespace columns_detail

/// A scenario's `llm_training` runs: the run's name, then llm_training_columns().
inline const std::vector<Column<LlmJobRow<LlmTrainingRow>>>& llm_training_job_columns() {
    static const auto c = columns_detail::with_job("llm_training", llm_training_columns());
    return c;
}
/// A scenario's `llm_serving` services: the service's name, then llm_serving_columns().
inline const std::vector<Column<LlmJobRow<LlmServingRow>>>& llm_serving_job_columns() {
    static const auto c = columns_detail::with_job("llm_serving", llm_serving_columns());
    return c;
}

}  // namespace gputco
