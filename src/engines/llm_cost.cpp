// LLM training and serving ranked across a catalog (formulas in llm_cost.hpp).
#include "gputco/engines/llm_cost.hpp"
#include "gputco/work/llm_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <variant>

#include <fmt/format.h>

#include "gputco/catalog/gpu_names.hpp"
#include "pricing.hpp"
#include "serving_checks.hpp"

#include "gputco/catalog/cheapest_region.hpp"
#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/serving.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco {

void LlmRankOptions::validate() const {
    require(!currency.empty(), "options.currency", currency, "must not be empty");
    gpu.validate();
    require(min_gpus >= 0, "options.min_gpus", min_gpus, "must be >= 0");
    require(max_gpus >= 1 && max_gpus <= 1'048'576, "options.max_gpus", max_gpus, "must be in [1, 1048576]");
    require(min_gpus <= max_gpus, "options.min_gpus", min_gpus, fmt::format("must be <= options.max_gpus ({})", max_gpus));
    require_positive("options.spot_assumptions.mtbf_hours", spot_assumptions.mtbf_hours);
    require_non_negative("options.spot_assumptions.restart_hours", spot_assumptions.restart_hours);
    require_non_negative("options.spot_assumptions.capacity_wait_hours", spot_assumptions.capacity_wait_hours);
    spot_assumptions.simulation.validate();
    require_positive("options.storage_gb_per_second_per_instance", storage_gb_per_second_per_instance);
    if (!rates_as_of.empty()) Date::parse(rates_as_of, "options.rates_as_of");
    const LlmSpotServing& sp = spot_serving;
    require(sp.zones >= 1 && sp.zones <= int(ServingLimits::max_zones), "options.spot_serving.zones", sp.zones,
            fmt::format("must be in [1, {}]", ServingLimits::max_zones));
    require_positive("options.spot_serving.mean_down_hours", sp.mean_down_hours);
    require_non_negative("options.spot_serving.launch_hours", sp.launch_hours);
    require_positive("options.spot_serving.tick_hours", sp.tick_hours);
    require_positive("options.spot_serving.days", sp.days);
    require(sp.days * 24 / sp.tick_hours <= 1e6, "options.spot_serving.days", sp.days,
            fmt::format("must be at most 1,000,000 ticks of {:g} h", sp.tick_hours));
    require(sp.availability_target > 0 && sp.availability_target <= 1, "options.spot_serving.availability_target",
            sp.availability_target, "must be in (0, 1]");
    require(sp.max_extra >= 0 && sp.max_extra <= 100, "options.spot_serving.max_extra", sp.max_extra,
            "must be in [0, 100]");
}

namespace {

// Interruptions a spot path may expect before the simulation is not worth running (each path walks
// every launch): beyond this the row is skipped with the reason.
constexpr double max_spot_interruptions = 20'000;

bool wanted(const Offering& o, const LlmRankOptions& options) {
    return options.gpus.empty() || std::find(options.gpus.begin(), options.gpus.end(), o.gpu) != options.gpus.end();
}

template <class Row>
void place(Row& row, const Offering& o) {
    row.provider = o.provider;
    row.region = o.region;
    row.instance_type = o.instance_type;
    row.gpu = o.gpu;
    row.currency = o.currency;
    row.note = o.notes.empty() ? std::string() : "catalog: " + o.notes;
}

template <class Row>
std::string key(const Row& r) {
    return fmt::format("{}/{}/{}/{}", r.provider, r.region, r.instance_type, to_string(r.buying));
}

const ReservedPrice* cheapest_reservation(const Offering& o) {
    if (o.reserved.empty()) return nullptr;
    return &*std::min_element(o.reserved.begin(), o.reserved.end(),
                              [](const auto& a, const auto& b) { return a.effective_hourly() < b.effective_hourly(); });
}

// The run on a capacity block of its instances: the shortest block whose usable hours hold its wall
// hours, paid in full at the offering's block rate; or why no block holds it.
std::variant<LlmTrainingRow, std::string> capacity_block_row(const LlmTrainingRow& base, const Offering& o) {
    if (base.instances > CapacityBlock::max_instances)
        return fmt::format("the run needs {} instances; a capacity block holds at most {}", base.instances,
                           CapacityBlock::max_instances);
    const std::optional<int> days = CapacityBlock::shortest_days_for(base.run_hours);
    if (!days)
        return fmt::format("the run's {:.1f} h exceed the longest capacity block ({} days, {:g} usable hours)",
                           base.run_hours, CapacityBlock::max_weekly_days,
                           CapacityBlock{.days = CapacityBlock::max_weekly_days}.usable_hours());
    const CapacityBlock block{.instances = base.instances, .days = *days};
    LlmTrainingRow row = base;
    row.buying = BuyingWay::capacity_block;
    const Source& rate = o.capacity_block_rate_source();
    row.terms = fmt::format("{}-day block of {} instance{}: {:g} h paid, {:g} h usable (stopped 30 min before the "
                            "end), {:.1f} h used; block rate: {} ({})",
                            block.days, block.instances, block.instances == 1 ? "" : "s", 24.0 * block.days,
                            block.usable_hours(), base.run_hours, rate.name, rate.as_of);
    row.price_per_hour = base.instances * *o.capacity_block_hourly;
    row.cost_per_run = 24.0 * block.days * row.price_per_hour;
    return row;
}

void add_training(LlmTrainingRanking& out, const Offering& o, const Catalog& catalog, const LlmRankOptions& options) {
    const LlmTraining& t = out.training;
    const auto figures = llm_gpu(catalog.gpu(o.gpu), t.precision, options.gpu);
    if (const auto* reason = std::get_if<std::string>(&figures)) {
        out.skipped.push_back({o.key(), *reason});
        return;
    }
    const LlmGpu& g = std::get<LlmGpu>(figures);
    const auto layout = smallest_training_layout(t, o.gpus_per_instance, g.memory_gb, options.gpu.usable_memory_fraction,
                                                 options.min_gpus, options.max_gpus);
    if (!layout) {
        out.skipped.push_back({o.key(), fmt::format("no layout fits within {} GPUs of {:g} GB ({:.0f}% usable)",
                                                    options.max_gpus, g.memory_gb, 100 * options.gpu.usable_memory_fraction)});
        return;
    }
    LlmTrainingRow base;
    place(base, o);
    base.layout = *layout;
    base.gpus = layout->gpus();
    base.instances = base.gpus / o.gpus_per_instance;
    base.memory_gb_per_gpu = training_memory(t, *layout).total() / 1e9;
    base.peak_tflops = g.peak_tflops;
    base.mfu = g.mfu;
    base.mfu_kind = g.mfu_kind;
    base.mfu_basis = g.mfu_basis;
    base.peak_source = g.peak_source;
    base.gpu_hours = out.flops / (g.peak_tflops * 1e12 * g.mfu * 3600.0);
    const GpuLinks links = links_of(o);
    base.scaling_efficiency = scaling_factor(t, *layout, o.gpus_per_instance, g.peak_tflops * 1e12 * g.mfu, links);
    base.interconnect_basis = links.basis;
    base.run_hours = base.run_hours_p95 = base.gpu_hours / base.gpus / base.scaling_efficiency;
    base.checkpoint_gb = checkpoint_bytes(t) / 1e9;
    base.checkpoint_write_hours =
        base.checkpoint_gb / (options.storage_gb_per_second_per_instance * base.instances) / 3600.0;
    const auto finish = [&](LlmTrainingRow& row) {
        row.cost_per_million_tokens = row.cost_per_run / (t.tokens / 1e6);
        if (row.buying != BuyingWay::spot) row.cost_per_run_p95 = row.cost_per_run;
        out.rows.push_back(row);
    };
    if (options.on_demand && !o.sells_on_demand()) {
        out.skipped.push_back({o.key() + "/on_demand", std::string(o.no_on_demand_reason())});
    } else if (options.on_demand) {
        LlmTrainingRow row = base;
        row.buying = BuyingWay::on_demand;
        row.price_per_hour = base.instances * o.on_demand_hourly;
        row.cost_per_run = base.instances * pricing::charged_hours(base.run_hours, o) * o.on_demand_hourly;
        finish(row);
    }
    if (options.reserved) {
        if (const ReservedPrice* r = cheapest_reservation(o)) {
            LlmTrainingRow row = base;
            row.buying = BuyingWay::reserved;
            row.terms = fmt::format("{}-year {}", r->term_years, to_string(r->payment));
            row.price_per_hour = base.instances * r->effective_hourly();
            row.cost_per_run = base.run_hours * row.price_per_hour;
            finish(row);
        }
    }
    if (options.capacity_block && o.capacity_block_hourly) {
        auto row = capacity_block_row(base, o);
        if (auto* r = std::get_if<LlmTrainingRow>(&row)) finish(*r);
        else out.skipped.push_back({o.key() + "/capacity_block", std::get<std::string>(row)});
    }
    if (options.spot && o.spot_hourly) {
        const SpotAssumptions& s = options.spot_assumptions;
        const double cluster_mtbf = s.mtbf_hours / base.instances;  // any instance's interruption stops the run
        if (base.run_hours / cluster_mtbf > max_spot_interruptions) {
            out.skipped.push_back({o.key() + "/spot",
                                   fmt::format("{:.0f} expected interruptions ({} instances, MTBF {:g} h each): too "
                                               "many to simulate, and no run this size should be on spot",
                                               base.run_hours / cluster_mtbf, base.instances, s.mtbf_hours)});
            return;
        }
        Job job;
        job.work_hours = base.run_hours;
        job.checkpoint_write_hours = base.checkpoint_write_hours;
        job.checkpoint_interval_hours =
            std::min(base.run_hours, optimal_checkpoint_interval(base.checkpoint_write_hours, cluster_mtbf));
        job.restart_hours = s.restart_hours;
        job.capacity_wait_hours = s.capacity_wait_hours;
        const SpotPricing pricing =
            SpotPricing::billed_as(o, base.instances * *o.spot_hourly, base.instances * o.on_demand_hourly);
        SimulationOptions simulation = s.simulation;
        if (!simulation.should_stop) simulation.should_stop = options.should_stop;
        try {
            const SpotResult r = simulate_spot(job, Poisson{.mtbf_hours = cluster_mtbf}, pricing, simulation);
            LlmTrainingRow row = base;
            row.buying = BuyingWay::spot;
            row.terms = fmt::format("MTBF {:g} h per instance ({:.3g} h for {}), checkpoint {:.0f} GB every {:.2f} h",
                                    s.mtbf_hours, cluster_mtbf, base.instances, base.checkpoint_gb,
                                    job.checkpoint_interval_hours);
            row.price_per_hour = pricing.price_per_hour;
            row.run_hours = r.wall_hours.mean;
            row.run_hours_p95 = r.wall_hours.p95;
            row.cost_per_run = r.cost.mean;
            row.cost_per_run_p95 = r.cost.p95;
            row.cost_per_run_standard_error = r.cost.standard_error;
            finish(row);
        } catch (const InvalidInput& e) {
            out.skipped.push_back({o.key() + "/spot", e.what()});
        }
    }
}

// A ranking's spot fleets: every offering's zones have the same generated traces (the options' seed)
// and one spot price, so a fleet of N replicas gives the same counts on every offering
// (serving_detail::ServingTally): the traces are generated once and each fleet size simulated once per
// ranking, then priced per offering — bit for bit choose_serving_plan's figures.
class SpotFleets {
public:
    explicit SpotFleets(const LlmSpotServing& sp, double mtbf_hours) : sp_(sp), mtbf_hours_(mtbf_hours) {}

    /// choose_serving_plan(zones, config, search) without the lower bound.
    ServingPlan plan(const std::vector<SpotRegion>& zones, const ServingConfig& config, const ServingSearch& search) {
        auto found = tallies_.find(config.target_replicas);
        if (found == tallies_.end())
            found = tallies_.emplace(config.target_replicas, serving_detail::tally_candidates(zones, config, search)).first;
        return serving_detail::plan_from_tallies(zones, config, search, found->second);
    }

    const std::vector<SpotAvailability>& traces() {
        if (!traces_) {
            const std::size_t ticks = std::size_t(std::llround(sp_.days * 24 / sp_.tick_hours));
            const std::vector<ZoneProcess> processes(std::size_t(sp_.zones),
                                                     ZoneProcess{Poisson{.mtbf_hours = mtbf_hours_}, sp_.mean_down_hours});
            traces_ = generate_zone_availability(processes, 0.0, ticks, sp_.tick_hours, sp_.seed);
        }
        return *traces_;
    }

private:
    const LlmSpotServing& sp_;
    double mtbf_hours_;
    std::optional<std::vector<SpotAvailability>> traces_;
    std::map<std::size_t, std::vector<serving_detail::ServingTally>> tallies_;  // by target replicas
};

void add_serving(LlmServingRanking& out, const Offering& o, const Catalog& catalog, const LlmRankOptions& options,
                 SpotFleets& fleets) {
    const LlmServing& s = out.serving;
    const auto figures = llm_gpu(catalog.gpu(o.gpu), s.precision, options.gpu);
    if (const auto* reason = std::get_if<std::string>(&figures)) {
        out.skipped.push_back({o.key(), *reason});
        return;
    }
    const LlmGpu& g = std::get<LlmGpu>(figures);
    const auto estimate = estimate_serving(s, g, o.gpus_per_instance, options.gpu);
    if (!estimate) {
        out.skipped.push_back({o.key(), fmt::format("no replica within one instance of {} x {} ({:g} GB) holds the "
                                                    "model and meets the latency targets",
                                                    o.gpus_per_instance, o.gpu, g.memory_gb)});
        return;
    }
    LlmServingRow base;
    place(base, o);
    base.estimate = *estimate;
    base.instances = (estimate->gpus + o.gpus_per_instance - 1) / o.gpus_per_instance;
    base.peak_tflops = g.peak_tflops;
    base.mfu = g.mfu;
    base.memory_bandwidth_gbps = g.memory_bandwidth_gbps;
    base.mfu_basis = g.mfu_basis;
    const double input_per_hour = s.requests_per_second * 3600.0 * s.input_tokens;
    const double output_per_hour = s.requests_per_second * 3600.0 * s.output_tokens;
    const auto finish = [&](LlmServingRow row, BuyingWay way, double price, std::string terms, std::string note) {
        row.buying = way;
        row.terms = std::move(terms);
        row.price_per_hour = price;
        row.cost_per_hour = row.instances * price;
        row.cost_per_million_input_tokens = row.cost_per_hour * estimate->prefill_share / input_per_hour * 1e6;
        row.cost_per_million_output_tokens = row.cost_per_hour * (1 - estimate->prefill_share) / output_per_hour * 1e6;
        row.cost_per_request = row.cost_per_hour / (s.requests_per_second * 3600.0);
        if (!note.empty()) row.note = row.note.empty() ? note : note + "; " + row.note;
        out.rows.push_back(row);
    };
    if (options.on_demand && !o.sells_on_demand())
        out.skipped.push_back({o.key() + "/on_demand", std::string(o.no_on_demand_reason())});
    else if (options.on_demand)
        finish(base, BuyingWay::on_demand, o.on_demand_hourly, "", "");
    if (options.reserved)
        if (const ReservedPrice* r = cheapest_reservation(o))
            finish(base, BuyingWay::reserved, r->effective_hourly(),
                   fmt::format("{}-year {}", r->term_years, to_string(r->payment)), "");
    if (options.spot && o.spot_hourly && o.spot_only) {
        // The serving planner keeps on-demand replicas and falls back to on demand, which is not sold.
        out.skipped.push_back({o.key() + "/spot", fmt::format("{}: a serving fleet needs on-demand replicas to fall back to",
                                                              o.no_on_demand_reason())});
    } else if (options.spot && o.spot_hourly) {
        // The fleet's instances are the replicas the serving planner keeps ready across the zones.
        const LlmSpotServing& sp = options.spot_serving;
        ServingConfig config;
        config.target_replicas = std::size_t(base.instances);
        config.on_demand_price_per_hour = o.on_demand_hourly;
        config.tick_hours = sp.tick_hours;
        config.launch_hours = std::ceil(sp.launch_hours / sp.tick_hours - 1e-9) * sp.tick_hours;
        config.record_ready = false;
        ServingSearch search;
        search.max_extra = std::size_t(sp.max_extra);
        search.max_on_demand_base = config.target_replicas;
        search.availability_target = sp.availability_target;
        const auto& traces = fleets.traces();
        std::vector<SpotRegion> zones;
        for (std::size_t z = 0; z < traces.size(); ++z)
            zones.push_back({fmt::format("{}-{}", o.region, z + 1), traces[z], *o.spot_hourly});
        const ServingPlan plan = fleets.plan(zones, config, search);
        if (!plan.best) {
            out.skipped.push_back({o.key() + "/spot", fmt::format("no spot fleet of {} replicas (up to {} extra, any "
                                                                  "on-demand base) is ready {:g}% of the time",
                                                                  base.instances, sp.max_extra,
                                                                  100 * sp.availability_target)});
        } else {
            const ServingCandidate& c = plan.candidates[*plan.best];
            LlmServingRow row = base;
            row.availability = c.result.availability;
            // cost_per_hour is the fleet's: price_per_hour per instance is its average over the run.
            finish(row, BuyingWay::spot, c.result.cost / c.result.hours / base.instances,
                   fmt::format("{}, {} extra spot, {} on demand", to_string(c.policy), c.extra_spot, c.on_demand_base),
                   fmt::format("spot over {} generated zones (MTBF {:g} h, {:g} h down), all {} replicas ready {:.2f}% "
                               "of {:g} days",
                               sp.zones, options.spot_assumptions.mtbf_hours, sp.mean_down_hours, base.instances,
                               100 * c.result.availability, sp.days));
        }
    }
}

template <class Ranking, class Add>
void rank_all(Ranking& out, const Catalog& catalog, const LlmRankOptions& options, Add add) {
    const StopPoll poll(options.should_stop, 1, "rank_llm: stopped");
    // The date of conversion: the given one, or the latest rate of the table.
    Date date{1970, 1, 1};
    if (!options.rates_as_of.empty()) date = Date::parse(options.rates_as_of, "options.rates_as_of");
    else
        for (const ExchangeRate& r : options.exchange_rates.rates()) date = std::max(date, r.date);
    const std::vector<Offering> regional =
        options.every_region ? std::vector<Offering>{} : cheapest_region_per_instance(catalog.offerings());
    for (const Offering& o : options.every_region ? catalog.offerings() : regional) {
        poll.check();
        if (!wanted(o, options)) continue;
        if (const auto refusal = share_refusal(o.gpu)) {
            out.skipped.push_back({o.key(), *refusal});
            continue;
        }
        if (o.currency == options.currency) {
            add(out, o, catalog, options);
            continue;
        }
        std::optional<RateQuote> q;
        try {
            q = options.exchange_rates.quote(o.currency, options.currency, date);
        } catch (const InvalidInput& e) {
            out.skipped.push_back({o.key(), fmt::format("priced in {}: {}", o.currency, e.what())});
            continue;
        }
        const std::size_t before = out.rows.size();
        add(out, o.converted(options.currency, q->rate), catalog, options);
        const std::string conversion = fmt::format("prices converted from {} at {:.6g} {} per {} ({})", o.currency,
                                                   q->rate, options.currency, o.currency, q->describe());
        for (std::size_t i = before; i < out.rows.size(); ++i) {
            std::string& note = out.rows[i].note;
            note = note.empty() ? conversion : conversion + "; " + note;
        }
    }
}

}  // namespace

LlmTrainingRanking rank_llm_training(const LlmTraining& training, const Catalog& catalog, const LlmRankOptions& options) {
    training.validate();
    options.validate();
    LlmTrainingRanking out;
    out.training = training;
    out.flops_per_token = training_flops_per_token(training);
    out.flops = training_flops(training);
    out.currency = options.currency;
    rank_all(out, catalog, options, add_training);
    require(options.allow_empty || !out.rows.empty(), "training", training.name.empty() ? training.model.name : training.name,
            fmt::format("no offering could be costed ({} skipped; see the reasons in skipped)", out.skipped.size()));
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const LlmTrainingRow& a, const LlmTrainingRow& b) {
        return std::tuple(a.cost_per_run, a.run_hours, key(a)) < std::tuple(b.cost_per_run, b.run_hours, key(b));
    });
    return out;
}

LlmServingRanking rank_llm_serving(const LlmServing& serving, const Catalog& catalog, const LlmRankOptions& options) {
    serving.validate();
    options.validate();
    LlmServingRanking out;
    out.serving = serving;
    out.currency = options.currency;
    SpotFleets fleets(options.spot_serving, options.spot_assumptions.mtbf_hours);
    rank_all(out, catalog, options, [&fleets](LlmServingRanking& r, const Offering& o, const Catalog& c,
                                              const LlmRankOptions& opts) { add_serving(r, o, c, opts, fleets); });
    require(options.allow_empty || !out.rows.empty(), "serving", serving.name.empty() ? serving.model.name : serving.name,
            fmt::format("no offering could be costed ({} skipped; see the reasons in skipped)", out.skipped.size()));
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const LlmServingRow& a, const LlmServingRow& b) {
        return std::tuple(a.cost_per_hour, key(a)) < std::tuple(b.cost_per_hour, key(b));
    });
    return out;
}

}  // namespace gputco
