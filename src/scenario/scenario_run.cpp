// Turns a scenario into numbers: the catalog it prices on, its demand, its spot jobs, its strategies.
#include <cmath>

#include <fmt/format.h>

#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/scenario/scenario.hpp"

namespace gputco {

DemandProfile DemandSpec::build(Horizon horizon) const {
    DemandProfile profile = kind == "constant"        ? DemandProfile::constant(gpus, horizon)
                            : kind == "linear_growth" ? DemandProfile::linear_growth(start_gpus, end_gpus, horizon)
                            : kind == "compound_growth"
                                ? DemandProfile::compound_growth(start_gpus, annual_growth_rate, horizon)
                                : DemandProfile::steps(steps, horizon);
    if (daily_pattern) profile = profile.with_daily_pattern(*daily_pattern);
    if (weekly_pattern) profile = profile.with_weekly_pattern(*weekly_pattern);
    if (scale != 1.0) profile = profile.scaled(scale);
    return profile;
}

std::optional<double> InterruptionSpec::mean_lifetime_hours() const {
    if (const auto* p = std::get_if<Poisson>(&model)) return p->mtbf_hours;
    if (const auto* w = std::get_if<Weibull>(&model)) return w->scale_hours * std::tgamma(1 + 1 / w->shape);
    if (const auto* t = std::get_if<Trace>(&model)) return t->mean_lifetime_hours();
    return std::nullopt;
}

InterruptionModel SpotJobSpec::model() const {
    return interruptions ? interruptions->model : InterruptionModel(Poisson{.mtbf_hours = mtbf_hours});
}

Catalog scenario_catalog(const Scenario& s) {
    Catalog catalog = Catalog::builtin();
    if (s.catalog_file) {
        const std::string path = !s.catalog_file->empty() && s.catalog_file->front() == '/'
                                     ? *s.catalog_file
                                     : s.base_dir + "/" + *s.catalog_file;
        catalog = catalog.overridden_by(Catalog::from_json_file(path));
    }
    if (!s.offerings.empty()) catalog = catalog.overridden_by(Catalog({}, s.offerings));
    return catalog;
}

DemandFutures scenario_futures(const Scenario& s) {
    const Horizon horizon = Horizon::months(s.horizon_months);
    if (!s.futures) return DemandFutures::from_profile(s.demand.build(horizon));
    return DemandFutures::generate(s.futures->model, horizon, s.futures->count, s.seed);
}

ScenarioResult run_scenario(const Scenario& s, std::function<bool()> should_stop) {
    const Catalog catalog = scenario_catalog(s);
    const Offering& offering = catalog.offering(s.offering.provider, s.offering.instance_type, s.offering.region);
    const DemandProfile demand = s.demand.build(Horizon::months(s.horizon_months));
    ScenarioResult result;
    result.scenario = s.name;

    for (std::size_t i = 0; i < s.spot_jobs.size(); ++i) {
        const SpotJobSpec& spec = s.spot_jobs[i];
        Job job = spec.job;
        if (job.checkpoint_interval_hours <= 0) {
            const auto mean = spec.interruptions ? spec.interruptions->mean_lifetime_hours() : spec.mtbf_hours;
            job.checkpoint_interval_hours = optimal_checkpoint_interval(job.checkpoint_write_hours, mean.value());
        }
        SpotPricing pricing;
        const auto spot_price = spec.price_per_gpu_hour ? spec.price_per_gpu_hour : offering.spot_per_gpu_hour();
        if (!spot_price) fail("spot_jobs.price_per_gpu_hour", spec.name, fmt::format("is needed: {} has no spot price", offering.key()));
        pricing.price_per_hour = *spot_price;
        pricing.on_demand_price_per_hour = offering.on_demand_per_gpu_hour();
        SimulationOptions options;
        options.paths = spec.paths;
        options.seed = s.seed + i;  // one stream per job, fixed by the scenario's seed
        options.should_stop = should_stop;
        result.spot_jobs.push_back({spec.name, job.checkpoint_interval_hours,
                                    simulate_spot(job, spec.model(), pricing, options)});
    }

    EvaluationOptions options;
    options.discounts = s.discounts;
    options.annual_discount_rate = s.annual_discount_rate;
    options.units = s.units;
    for (const NamedStrategy& named : s.strategies) {
        Strategy strategy = named.strategy;
        if (Mix* mix = std::get_if<Mix>(&strategy)) {
            for (std::size_t t = 0; t < mix->tranches.size(); ++t) {
                const std::string& job_name = t < named.spot_jobs.size() ? named.spot_jobs[t] : std::string();
                if (job_name.empty()) continue;
                for (std::size_t j = 0; j < s.spot_jobs.size(); ++j) {
                    if (s.spot_jobs[j].name != job_name) continue;
                    auto& spot = std::get<SpotTranche>(mix->tranches[t].kind);
                    Job job = s.spot_jobs[j].job;
                    job.checkpoint_interval_hours = result.spot_jobs[j].checkpoint_interval_hours;
                    SpotTranche simulated = spot_tranche(result.spot_jobs[j].result, job, spot.availability);
                    simulated.price_per_gpu_hour = spot.price_per_gpu_hour;
                    spot = std::move(simulated);
                }
            }
        }
        result.strategies.push_back({named.name, evaluate(strategy, demand, offering, options)});
    }

    if (!s.plans.empty()) {
        if (should_stop && should_stop()) throw Cancelled("run_scenario: stopped");
        PlanOptions plan_options;
        plan_options.discounts = s.discounts;
        plan_options.annual_discount_rate = s.annual_discount_rate;
        result.plans = compare_plans(s.plans, scenario_futures(s), offering, {}, plan_options);
    }
    return result;
}

}  // namespace gputco
