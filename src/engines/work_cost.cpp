// Cost per unit of work (see work_cost.hpp for the formulas).
#include "gputco/engines/work_cost.hpp"

#include "gputco/catalog/cheapest_region.hpp"
#include "gputco/catalog/gpu_names.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <variant>

#include <fmt/format.h>

#include "pricing.hpp"

#include "gputco/engines/checkpoint.hpp"
#include "gputco/work/scaling.hpp"

namespace gputco {

void RankOptions::validate() const {
    require(!currency.empty(), "options.currency", currency, "must not be empty");
    require_positive("options.spot_assumptions.mtbf_hours", spot_assumptions.mtbf_hours);
    require_positive("options.spot_assumptions.checkpoint_write_hours", spot_assumptions.checkpoint_write_hours);
    require_non_negative("options.spot_assumptions.restart_hours", spot_assumptions.restart_hours);
    require_non_negative("options.spot_assumptions.capacity_wait_hours", spot_assumptions.capacity_wait_hours);
    spot_assumptions.simulation.validate();
    ownership.validate();
    if (!rates_as_of.empty()) Date::parse(rates_as_of, "options.rates_as_of");
    if (!prices_as_of.empty()) Date::parse(prices_as_of, "options.prices_as_of");
    require(max_price_age_days >= 0, "options.max_price_age_days", max_price_age_days, "must be >= 0");
    require(deadline_hours > 0.0, "options.deadline_hours", deadline_hours, "must be > 0 (infinity = no deadline)");
}

namespace {

struct Rate {
    double per_second = 0;
    std::string basis, benchmark_gpu;
};

double peak_tflops(const GpuSpec& gpu, Precision precision) {
    return precision == Precision::mixed ? gpu.fp16_tflops : gpu.fp32_tflops;
}

// The throughput of `gpus` cards of catalog GPU `gpu`, or the reason there is none (thrown as InvalidInput
// by the scaling functions, or returned here).
std::variant<Rate, std::string> rate_for(const GpuMatch& match, const Catalog& catalog, const ThroughputTable& table,
                                         const Workload& w, int gpus, const RankOptions& options) {
    auto measured = [&](const std::string& bench) -> std::variant<Rate, std::string> {
        try {
            const ScaledThroughput t = throughput_at(table, bench, w.precision, w.model, gpus);
            return Rate{t.per_second, t.basis, bench};
        } catch (const InvalidInput& e) {
            return std::string(e.what());
        }
    };
    switch (match.kind) {
        case MatchKind::measured:
            return measured(match.benchmark_gpu);
        case MatchKind::proxy: {
            auto r = measured(match.benchmark_gpu);
            if (Rate* rate = std::get_if<Rate>(&r)) rate->basis = fmt::format("proxy {}: {}", match.benchmark_gpu, rate->basis);
            return r;
        }
        case MatchKind::estimate: {
            if (!options.allow_estimates)
                return fmt::format("no measurement ({}); a peak-FLOPS estimate exists (allow_estimates)", match.note);
            const GpuMatch reference = match_gpu(match.benchmark_gpu, options.gpu_matches);
            if (reference.kind != MatchKind::measured && reference.kind != MatchKind::proxy)
                return fmt::format("the estimate's reference {} has no measurement", match.benchmark_gpu);
            auto r = measured(reference.benchmark_gpu);
            if (Rate* rate = std::get_if<Rate>(&r)) {
                const double ratio = peak_tflops(catalog.gpu(match.catalog_gpu), w.precision) /
                                     peak_tflops(catalog.gpu(match.benchmark_gpu), w.precision);
                rate->per_second *= ratio;
                rate->basis = fmt::format("estimate: {} × {:.3f} (peak TFLOPS ratio to {}): {}",
                                          reference.benchmark_gpu, ratio, match.benchmark_gpu, rate->basis);
            }
            return r;
        }
        case MatchKind::none: break;
    }
    return fmt::format("no measurement: {}", match.note);
}

void finish(WorkCostRow& row, const Workload& w, double deadline_hours) {
    row.cost_per_epoch = row.cost_per_run / w.epochs;
    row.cost_per_million = row.cost_per_run / (w.total_work() / 1e6);
    if (row.buying != BuyingWay::spot) {
        row.run_hours_p95 = row.run_hours;
        row.cost_per_run_p95 = row.cost_per_run;
        row.probability_within_deadline = row.run_hours <= deadline_hours ? 1.0 : 0.0;
    }
}

WorkCostRow spot_row(WorkCostRow row, const Offering& o, double compute_hours, const RankOptions& options) {
    const SpotAssumptions& s = options.spot_assumptions;
    Job job;
    job.work_hours = compute_hours;
    job.checkpoint_write_hours = s.checkpoint_write_hours;
    job.checkpoint_interval_hours = optimal_checkpoint_interval(s.checkpoint_write_hours, s.mtbf_hours);
    job.restart_hours = s.restart_hours;
    job.capacity_wait_hours = s.capacity_wait_hours;
    job.deadline_hours = options.deadline_hours;
    const SpotPricing pricing = SpotPricing::billed_as(o, *o.spot_hourly, o.on_demand_hourly);
    SimulationOptions simulation = s.simulation;
    if (!simulation.should_stop) simulation.should_stop = options.should_stop;
    const SpotResult r = simulate_spot(job, Poisson{.mtbf_hours = s.mtbf_hours}, pricing, simulation);
    row.buying = BuyingWay::spot;
    row.terms = fmt::format("MTBF {:g} h, checkpoint every {:.2f} h", s.mtbf_hours, job.checkpoint_interval_hours);
    row.price_per_hour = *o.spot_hourly;
    row.run_hours = r.wall_hours.mean;
    row.run_hours_p95 = r.wall_hours.p95;
    row.cost_per_run = r.cost.mean;
    row.cost_per_run_p95 = r.cost.p95;
    row.cost_per_run_standard_error = r.cost.standard_error;
    row.probability_within_deadline = 1.0 - r.deadline_miss_probability;
    return row;
}

std::string key(const WorkCostRow& r) {
    return fmt::format("{}/{}/{}/{}/{}", r.provider, r.region, r.instance_type, to_string(r.buying), r.terms);
}

// The date of conversion: the given one, or the latest rate of the table.
Date rates_date(const RankOptions& options) {
    if (!options.rates_as_of.empty()) return Date::parse(options.rates_as_of, "options.rates_as_of");
    Date latest{1970, 1, 1};
    for (const ExchangeRate& r : options.exchange_rates.rates()) latest = std::max(latest, r.date);
    return latest;
}

void add_priced(WorkRanking& out, const Offering& o, const std::string& conversion, const Catalog& catalog,
                const ThroughputTable& table, const RankOptions& options);

// Memory and currency first; the offering, in the ranking's currency, goes on to add_priced.
void add_offering(WorkRanking& out, const Offering& o, const Catalog& catalog, const ThroughputTable& table,
                  const RankOptions& options) {
    const Workload& w = out.workload;
    if (const auto refusal = share_refusal(o.gpu)) {
        out.skipped.push_back({o.key(), *refusal});
        return;
    }
    // An offering of a GPU the catalog has no spec for (an imported row) is reported, not fatal.
    const auto known = std::find_if(catalog.gpus().begin(), catalog.gpus().end(),
                                    [&](const GpuSpec& g) { return g.name == o.gpu; });
    if (known == catalog.gpus().end()) {
        out.skipped.push_back({o.key(), fmt::format("{}: no GPU spec in the catalog (memory and peak TFLOPS unknown)", o.gpu)});
        return;
    }
    const GpuSpec& spec = *known;
    if (w.memory_gb > spec.memory_gb) {
        out.skipped.push_back({o.key(), fmt::format("needs {:g} GB per GPU; {} has {:g} GB", w.memory_gb, o.gpu, spec.memory_gb)});
        return;
    }
    std::string conversion;
    Offering priced = o;
    if (o.currency != options.currency) {
        const Date date = rates_date(options);
        try {
            const RateQuote q = options.exchange_rates.quote(o.currency, options.currency, date);
            priced = o.converted(options.currency, q.rate);
            conversion = fmt::format("prices converted from {} at {:.6g} {} per {} ({})", o.currency, q.rate,
                                     options.currency, o.currency, q.describe());
        } catch (const InvalidInput& e) {
            out.skipped.push_back({o.key(), fmt::format("priced in {}: {}", o.currency, e.what())});
            return;
        }
    }
    add_priced(out, priced, conversion, catalog, table, options);
}

// Every way of buying one offering whose prices are in the ranking's currency.
void add_priced(WorkRanking& out, const Offering& o, const std::string& conversion, const Catalog& catalog,
                const ThroughputTable& table, const RankOptions& options) {
    const Workload& w = out.workload;
    const GpuMatch match = match_gpu(o.gpu, options.gpu_matches);
    const auto rate = rate_for(match, catalog, table, w, o.gpus_per_instance, options);
    if (const std::string* reason = std::get_if<std::string>(&rate)) {
        out.skipped.push_back({o.key(), fmt::format("{}: {}", o.gpu, *reason)});
        return;
    }
    const Rate& r = std::get<Rate>(rate);
    WorkCostRow base;
    base.provider = o.provider;
    base.region = o.region;
    base.instance_type = o.instance_type;
    base.catalog_gpu = o.gpu;
    base.benchmark_gpu = r.benchmark_gpu;
    base.match = match.kind;
    base.gpus = o.gpus_per_instance;
    base.currency = o.currency;
    base.throughput_per_second = r.per_second * w.utilisation;
    base.throughput_basis = r.basis;
    base.note = match.note;
    const Date prices_at = Date::parse(out.prices_as_of);
    base.price_age_days = price_age_days(o, prices_at);
    base.stale = is_stale(o, prices_at, out.max_price_age_days);
    // The GPU match's caveat, the currency conversion and the catalog's own notes (audits included).
    for (const std::string& part : {conversion, o.notes.empty() ? std::string() : "catalog: " + o.notes})
        if (!part.empty()) base.note = base.note.empty() ? part : base.note + "; " + part;
    const double compute_hours = w.total_work() / base.throughput_per_second / 3600.0;
    base.hours_per_epoch = compute_hours / w.epochs;
    base.run_hours = compute_hours;

    if (options.on_demand && !o.sells_on_demand()) {
        // Its 0 on-demand price means "not sold": no row, and the reason listed.
        out.skipped.push_back({o.key() + "/on_demand", std::string(o.no_on_demand_reason())});
    } else if (options.on_demand) {
        WorkCostRow row = base;
        row.buying = BuyingWay::on_demand;
        row.price_per_hour = o.on_demand_hourly;
        row.cost_per_run = pricing::charged_hours(compute_hours, o) * o.on_demand_hourly;
        finish(row, w, options.deadline_hours);
        out.rows.push_back(row);
    }
    if (options.spot && o.spot_hourly) {
        WorkCostRow row = spot_row(base, o, compute_hours, options);
        finish(row, w, options.deadline_hours);
        out.rows.push_back(row);
    }
    if (options.reserved && !o.reserved.empty()) {
        const auto best = std::min_element(o.reserved.begin(), o.reserved.end(), [](const auto& a, const auto& b) {
            return a.effective_hourly() < b.effective_hourly();
        });
        WorkCostRow row = base;
        row.buying = BuyingWay::reserved;
        row.terms = fmt::format("{}-year {}", best->term_years, to_string(best->payment));
        row.price_per_hour = best->effective_hourly();
        row.cost_per_run = compute_hours * row.price_per_hour;
        finish(row, w, options.deadline_hours);
        out.rows.push_back(row);
    }
}

// Owned machines: one per benchmark GPU and measured count of this model and precision.
void add_owned(WorkRanking& out, const ThroughputTable& table, const RankOptions& options) {
    const Workload& w = out.workload;
    double usd = 1;  // units of options.currency per USD, for the benchmark's USD list prices
    std::string conversion;
    if (options.currency != "USD") {
        const Date date = rates_date(options);
        try {
            const RateQuote q = options.exchange_rates.quote("USD", options.currency, date);
            usd = q.rate;
            conversion = fmt::format("; list price converted at {:.6g} {} per USD ({})", usd, options.currency, q.describe());
        } catch (const InvalidInput& e) {
            out.skipped.push_back({"owned", fmt::format("hardware list prices are in USD: {}", e.what())});
            return;
        }
    }
    const Owned& own = options.ownership;
    for (const ThroughputRow& t : table.rows()) {
        if (t.model != w.model || t.precision != w.precision) continue;
        const std::string name = fmt::format("owned/{}x {}", t.gpus, t.gpu);
        const double memory = benchmark_gpu_memory_gb(t.gpu);
        if (w.memory_gb > memory) {
            out.skipped.push_back({name, fmt::format("needs {:g} GB per GPU; {} has {:g} GB", w.memory_gb, t.gpu, memory)});
            continue;
        }
        const double capex = own.capex_per_gpu > 0 ? own.capex_per_gpu : usd * t.price / t.gpus;
        const double watts = own.watts_per_gpu > 0 ? own.watts_per_gpu : t.watts / t.gpus;
        if (capex <= 0 || watts <= 0) {
            out.skipped.push_back({name, "no hardware price or board power in the throughput row"});
            continue;
        }
        // Per GPU-hour at full use: depreciation to the residual, maintenance, colocation, power.
        const double per_gpu_hour = capex * (1.0 - own.residual_fraction) / (own.life_years * hours_per_year) +
                                    capex * own.maintenance_fraction_per_year / hours_per_year +
                                    own.colocation_per_gpu_month / hours_per_month +
                                    watts / 1000.0 * own.pue * own.electricity_per_kwh;
        WorkCostRow row;
        row.provider = "owned";
        row.region = "on-premises";
        row.instance_type = fmt::format("{}x {}", t.gpus, t.gpu);
        row.benchmark_gpu = t.gpu;
        row.match = MatchKind::measured;
        row.buying = BuyingWay::owned;
        row.terms = fmt::format("{}-year life, {:g}% residual, at full use", own.life_years, 100 * own.residual_fraction);
        row.gpus = t.gpus;
        row.currency = options.currency;
        row.price_per_hour = t.gpus * per_gpu_hour + own.staff_per_month / hours_per_month;
        row.throughput_per_second = t.per_second * w.utilisation;
        row.throughput_basis = fmt::format("measured {}-GPU row", t.gpus);
        row.note = fmt::format("capex {:.0f} {} per GPU ({}), {:.0f} W per GPU{}", capex, options.currency,
                               own.capex_per_gpu > 0 ? "given" : "benchmark list price", watts,
                               own.capex_per_gpu > 0 ? "" : conversion);
        const double compute_hours = w.total_work() / row.throughput_per_second / 3600.0;
        row.hours_per_epoch = compute_hours / w.epochs;
        row.run_hours = compute_hours;
        row.cost_per_run = compute_hours * row.price_per_hour;
        finish(row, w, options.deadline_hours);
        out.rows.push_back(row);
    }
}

}  // namespace

WorkRanking rank_offerings(const Workload& workload, const Catalog& catalog, const ThroughputTable& table,
                           const RankOptions& options) {
    workload.validate();
    options.validate();
    const std::vector<std::string> models = table.models();
    if (std::find(models.begin(), models.end(), workload.model) == models.end()) {
        std::string known;
        for (const std::string& m : models) {
            if (!known.empty()) known.append(", ");
            known.append(m);
        }
        fail("workload.model", workload.model, fmt::format("not in the throughput table (known: {})", known));
    }
    if (workload.memory_gb > 0) {
        double largest = 0;
        std::string largest_name;
        for (const GpuSpec& g : catalog.gpus())
            if (g.memory_gb > largest) largest = g.memory_gb, largest_name = g.name;
        require(workload.memory_gb <= largest, "workload.memory_gb", workload.memory_gb,
                fmt::format("fits no GPU of the catalog (the largest, {}, has {:g} GB)", largest_name, largest));
    }
    WorkRanking out;
    out.workload = workload;
    out.unit = std::string(model_unit(workload.model));
    out.currency = options.currency;
    out.deadline_hours = options.deadline_hours;
    out.spot_assumptions = options.spot_assumptions;
    const Date prices_at = options.prices_as_of.empty() ? Date::today() : Date::parse(options.prices_as_of);
    out.prices_as_of = prices_at.iso();
    out.max_price_age_days = options.max_price_age_days;
    const StopPoll poll(options.should_stop, 1, "rank_offerings: stopped");
    // Stale prices out first, so an instance type's cheapest region is chosen among today's prices.
    std::vector<Offering> dated;
    for (const Offering& o : catalog.offerings()) {
        if (options.include_stale_prices || !is_stale(o, prices_at, options.max_price_age_days)) {
            dated.push_back(o);
            continue;
        }
        // Say which: an undated row (a price file with no date) is not known to be old, only not known to be new.
        const bool undated = !price_age_days(o, prices_at);
        out.skipped.push_back(
            {o.key(), undated ? fmt::format("price undated: its source gives no date, so it is left out as if older than "
                                            "the price-age limit of {} days (include_stale_prices ranks it)",
                                            options.max_price_age_days)
                              : fmt::format("price {}: older than the price-age limit of {} days (include_stale_prices "
                                            "ranks it)",
                                            describe_price_age(o, prices_at), options.max_price_age_days)});
        ++out.stale_left_out;
    }
    const std::vector<Offering> offerings = options.every_region ? std::move(dated) : cheapest_region_per_instance(dated);
    const std::size_t steps = offerings.size() + (options.owned ? 1 : 0);
    std::size_t done = 0;
    const auto report = [&] {
        if (options.progress) options.progress(++done, steps);
    };
    for (const Offering& o : offerings) {
        poll.check();
        add_offering(out, o, catalog, table, options);
        report();
    }
    poll.check();
    if (options.owned) {
        add_owned(out, table, options);
        report();
    }
    require(!out.rows.empty(), "workload.model", workload.model,
            fmt::format("no offering could be costed ({} skipped; see the reasons in skipped)", out.skipped.size()));
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const WorkCostRow& a, const WorkCostRow& b) {
        return std::tuple(a.cost_per_run, a.run_hours, key(a)) < std::tuple(b.cost_per_run, b.run_hours, key(b));
    });
    return out;
}

std::optional<WorkCostRow> cheapest_within(const Workload& workload, const Catalog& catalog,
                                           const ThroughputTable& table, double deadline_hours, double probability,
                                           RankOptions options) {
    require_positive("deadline_hours", deadline_hours);
    require(probability > 0.0 && probability <= 1.0, "probability", probability, "must be in (0, 1]");
    options.deadline_hours = deadline_hours;
    const WorkRanking ranking = rank_offerings(workload, catalog, table, options);
    for (const WorkCostRow& row : ranking.rows)
        if (row.probability_within_deadline >= probability) return row;
    return std::nullopt;
}

std::vector<WorkCostRow> cost_time_frontier(const WorkRanking& ranking) {
    std::vector<WorkCostRow> rows = ranking.rows;
    std::stable_sort(rows.begin(), rows.end(), [](const WorkCostRow& a, const WorkCostRow& b) {
        return std::tuple(a.run_hours, a.cost_per_run) < std::tuple(b.run_hours, b.cost_per_run);
    });
    std::vector<WorkCostRow> frontier;
    for (const WorkCostRow& row : rows)
        if (frontier.empty() || row.cost_per_run < frontier.back().cost_per_run) frontier.push_back(row);
    return frontier;
}

}  // namespace gputco
