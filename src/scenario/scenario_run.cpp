// Turns a scenario into numbers: the catalog it prices on, its demand, its spot jobs, its strategies.
#include <cmath>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gputco/app/spot_job.hpp"
#include "gputco/catalog/importers.hpp"
#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_recommend.hpp"

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

std::optional<double> InterruptionSpec::mean_lifetime_hours() const { return gputco::mean_lifetime_hours(model); }

InterruptionModel SpotJobSpec::model() const {
    return interruptions ? interruptions->model : InterruptionModel(Poisson{.mtbf_hours = mtbf_hours});
}

namespace {
std::string resolved(const std::string& path, const std::string& base_dir) {
    return !path.empty() && path.front() == '/' ? path : base_dir + "/" + path;
}
}  // namespace

const std::vector<std::string>& price_file_formats() {
    static const std::vector<std::string> formats{"skypilot_csv",  "azure_retail_prices",   "aws_get_products",
                                                  "aws_offer_file", "gcp_skus", "cyclenerd_pricing_yml",
                                                  "ec2instances_json"};
    return formats;
}

Catalog import_price_file(const PriceFileImport& p, const std::string& base_dir) {
    const std::string path = resolved(p.file, base_dir);
    ImportOptions options;
    options.file = p.file;
    options.published = p.published;
    options.provider = p.provider;
    options.currency = p.currency;
    options.operating_system = p.operating_system;
    if (p.format == "aws_offer_file") {  // streamed: the bulk file may be gigabytes
        return import_aws_offer_file(path, options).catalog();
    }
    const std::string text = read_text_file(path);
    if (p.format == "skypilot_csv") return import_skypilot_csv(text, options).catalog();
    if (p.format == "azure_retail_prices") return import_azure_retail_prices(text, options).catalog();
    if (p.format == "aws_get_products") return import_aws_get_products(text, options).catalog();
    if (p.format == "gcp_skus") return import_gcp_skus(text, options).catalog();
    if (p.format == "cyclenerd_pricing_yml") return import_cyclenerd_pricing_yml(text, options).catalog();
    if (p.format == "ec2instances_json") return import_ec2instances_json(text, options).catalog();
    fail("format", p.format, fmt::format("must be one of {}", fmt::join(price_file_formats(), ", ")));
}

const Offering* OfferingRef::in(const Catalog& catalog) const {
    const Offering* first_zone = nullptr;
    for (const Offering& o : catalog.offerings()) {
        if (o.provider != provider || o.instance_type != instance_type || (!region.empty() && o.region != region)) continue;
        if (o.zone == zone) return &o;
        if (zone.empty() && !first_zone) first_zone = &o;
    }
    return first_zone;
}

std::string OfferingRef::key() const {
    return fmt::format("{}/{}/{}{}", provider, region, instance_type, zone.empty() ? "" : "/" + zone);
}

Catalog scenario_catalog(const Scenario& s) {
    const auto& read = s.file_rows;
    Catalog catalog;
    if (read && read->catalog_file == s.catalog_file && read->imports == s.imports && read->base_dir == s.base_dir) {
        catalog = read->catalog;  // read when the scenario was loaded
    } else {
        catalog = Catalog::builtin();
        if (s.catalog_file) catalog = catalog.overridden_by(Catalog::from_json_file(resolved(*s.catalog_file, s.base_dir)));
        for (const PriceFileImport& p : s.imports) catalog = catalog.overridden_by(import_price_file(p, s.base_dir));
    }
    if (!s.offerings.empty()) catalog = catalog.overridden_by(Catalog({}, s.offerings));
    return catalog;
}

DemandFutures scenario_futures(const Scenario& s) {
    if (!s.futures) return DemandFutures::from_profile(s.demand.build(Horizon::months(s.horizon_months)));
    return DemandFutures::generate(s.futures->model, Horizon::months(s.horizon_months), s.futures->count, s.seed);
}

DemandFutures scenario_futures(const Scenario& s, const DemandProfile& demand) {
    if (!s.futures) return DemandFutures::from_profile(demand);
    return scenario_futures(s);
}

ScenarioResult run_scenario(const Scenario& s, std::function<bool()> should_stop, const ScenarioProgress& progress) {
    const Catalog catalog = scenario_catalog(s);
    const Offering* found = s.offering.in(catalog);
    if (!found) fail("offering", s.offering.key(), "not in the catalog");
    const Offering& offering = *found;
    const DemandProfile demand = s.demand.build(Horizon::months(s.horizon_months));
    ScenarioResult result;
    result.scenario = s.name;

    for (std::size_t i = 0; i < s.spot_jobs.size(); ++i) {
        const SpotJobSpec& spec = s.spot_jobs[i];
        // The job's defaults and the offering's billing, as simulate_spot(..., offering=o) has them.
        SpotJobRequest request{.job = spec.job, .model = spec.model()};
        request.prices.offering = offering;
        request.prices.price_per_hour = spec.price_per_gpu_hour;
        request.prices.price_field = "spot_jobs.price_per_gpu_hour";
        SimulationOptions& options = request.options;
        options.paths = spec.paths;
        options.seed = s.seed + i;  // one stream per job, fixed by the scenario's seed
        options.should_stop = should_stop;
        if (progress) {
            const std::string task = "spot job " + spec.name;
            options.progress = [&progress, task](std::size_t done, std::size_t total) { progress(task, done, total, "paths"); };
        }
        SpotJobRun run = run_spot_job(request);
        result.spot_jobs.push_back({spec.name, run.checkpoint_interval_hours, std::move(run.result), run.pricing});
    }

    for (std::size_t i = 0; i < s.deadline_jobs.size(); ++i) {
        const DeadlineJobSpec& spec = s.deadline_jobs[i];
        DeadlineJobResult r;
        r.name = spec.name;
        if (!spec.spot_price_per_hour && !offering.spot_hourly)
            fail("deadline_jobs.spot_price_per_hour", spec.name, fmt::format("is needed: {} has no spot price", offering.key()));
        r.spot_price_per_hour = spec.spot_price_per_hour ? *spec.spot_price_per_hour : *offering.spot_hourly;
        if (!spec.on_demand_price_per_hour) offering.require_on_demand(fmt::format("deadline job {}'s on-demand failover", spec.name));
        r.on_demand_price_per_hour = spec.on_demand_price_per_hour ? *spec.on_demand_price_per_hour : offering.on_demand_hourly;
        DeadlineSimulationOptions options;
        options.paths = spec.paths;
        options.seed = s.seed + i;  // one stream per job, fixed by the scenario's seed
        options.omniscient = spec.omniscient;
        options.should_stop = should_stop;
        if (progress) {
            const std::string task = "deadline job " + spec.name;
            options.progress = [&progress, task](std::size_t done, std::size_t total) { progress(task, done, total, "traces"); };
        }
        r.comparison = compare_deadline_policies(spec.job, spec.availability, r.spot_price_per_hour,
                                                 r.on_demand_price_per_hour, options, spec.policies);
        result.deadline_jobs.push_back(std::move(r));
    }

    for (const ServiceSpec& spec : s.services) {
        ServiceResult r;
        r.name = spec.name;
        if (!spec.on_demand_price_per_hour) offering.require_on_demand(fmt::format("service {}'s on-demand replicas", spec.name));
        r.on_demand_price_per_hour = spec.on_demand_price_per_hour.value_or(offering.on_demand_hourly);
        if (should_stop && should_stop()) throw Cancelled("run_scenario: stopped");
        r.plan = choose_serving_plan(spec.regions(), spec.config(r.on_demand_price_per_hour), spec.search);
        if (progress) progress("service " + spec.name, 1, 1, "searches");
        result.services.push_back(std::move(r));
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
        plan_options.should_stop = should_stop;
        if (progress)
            plan_options.progress = [&progress](std::size_t done, std::size_t total) { progress("plans", done, total, "futures"); };
        plan_options.windows = s.demand_windows;
        plan_options.seed = s.seed;  // flex-start grants, per future
        const DemandFutures futures = scenario_futures(s, demand);
        // Under a price model, one price path per future (the scenario's seed), both reservation terms
        // drawn so that each commitment pays its own term's factor.
        PricePaths prices;
        if (s.price_model)
            simulate_price_paths(*s.price_model, Horizon::months(s.horizon_months), futures.count(), s.seed, 0, prices);
        result.plans = compare_plans(s.plans, futures, offering, prices, plan_options);
    }
    if (s.recommend) {
        if (should_stop && should_stop()) throw Cancelled("run_scenario: stopped");
        result.recommend = std::make_shared<const RecommendStudy>(
            detail::run_scenario_recommend(s, offering, demand, should_stop, progress));
    }

    const std::string currency = s.currency.value_or(offering.currency);
    for (std::size_t i = 0; i < s.workloads.size(); ++i) {
        const WorkloadSpec& spec = s.workloads[i];
        RankOptions rank = spec.rank_options(currency);
        SimulationOptions& simulation = rank.spot_assumptions.simulation;
        simulation.seed = s.seed + i;  // one stream per workload, fixed by the scenario's seed
        simulation.should_stop = should_stop;
        rank.should_stop = should_stop;  // also between offerings, for the rows without a spot run
        if (progress) {
            const std::string task = "workload " + spec.workload.name + " on spot";
            simulation.progress = [&progress, task](std::size_t done, std::size_t total) { progress(task, done, total, "paths"); };
        }
        if (should_stop && should_stop()) throw Cancelled("run_scenario: stopped");
        result.workloads.push_back({spec.workload.name, rank_offerings(spec.workload, spec.offerings_in(catalog, offering),
                                                                       ThroughputTable::builtin(), rank)});
    }
    for (std::size_t i = 0; i < s.llm_training.size(); ++i) {
        const LlmTrainingSpec& spec = s.llm_training[i];
        LlmRankOptions rank = spec.rank_options(currency, s.seed + i);  // one stream per run
        rank.should_stop = should_stop;
        rank.spot_assumptions.simulation.should_stop = should_stop;
        if (progress) {
            const std::string task = "llm_training " + spec.training.name + " on spot";
            rank.spot_assumptions.simulation.progress = [&progress, task](std::size_t done, std::size_t total) {
                progress(task, done, total, "paths");
            };
        }
        if (should_stop && should_stop()) throw Cancelled("run_scenario: stopped");
        result.llm_training.push_back({spec.training.name, rank_llm_training(spec.training, catalog, rank)});
    }
    for (const LlmServingSpec& spec : s.llm_serving) {
        LlmRankOptions rank = spec.rank_options(currency);
        rank.should_stop = should_stop;
        if (should_stop && should_stop()) throw Cancelled("run_scenario: stopped");
        result.llm_serving.push_back({spec.serving.name, rank_llm_serving(spec.serving, catalog, rank)});
    }
    return result;
}

}  // namespace gputco
