#pragma once
// A scenario: everything one cost question needs, as data a planner can keep in a file, review, diff
// and rerun (YAML, or JSON with the same schema, schema/scenario-v1.json). One loader for every front
// end. Errors name the file, line, column and field path:
//   plan.yaml:14:9: strategies[1].reserved.term_years = 2: must be 1 or 3
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/price_dynamics.hpp"
#include "gputco/engines/cost.hpp"
#include "gputco/engines/deadline.hpp"
#include "gputco/engines/serving.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/engines/work_cost.hpp"
#include "gputco/optimise/recommend.hpp"
#include "gputco/scenario/llm_jobs.hpp"
#include "gputco/results/plan_distribution.hpp"
#include "gputco/strategy/plan.hpp"
#include "gputco/work/demand_window.hpp"
#include "gputco/strategy/strategy.hpp"
#include "gputco/work/demand.hpp"
#include "gputco/work/demand_futures.hpp"
#include "gputco/work/job.hpp"

namespace gputco {

inline constexpr int scenario_schema_version = 1;

/// Which catalog row the strategies are priced on.
struct OfferingRef {
    std::string provider, instance_type, region;
    std::string zone;  ///< imported rows priced per zone; empty = the row without a zone, else the first zone listed

    /// The row of `catalog` this names (an empty region: the first listed), or nullptr.
    const Offering* in(const Catalog& catalog) const;
    /// "provider/region/instance_type[/zone]", as Offering::key().
    std::string key() const;
};

/// A provider's own price file read by one of the importers (gputco/catalog/importers.hpp); its rows
/// override the built-in catalog and the scenario's catalog file.
struct PriceFileImport {
    std::string file;    ///< relative to the scenario file's folder
    std::string format;  ///< one of price_file_formats()
    std::string published;                   ///< ISO date of the data, if the file does not say
    std::string provider;                    ///< skypilot_csv only: aws, azure, gcp, lambda, ...
    std::string currency = "USD";            ///< skypilot_csv only
    std::string operating_system = "linux";  ///< aws_*, azure_retail_prices, ec2instances_json

    bool operator==(const PriceFileImport&) const = default;
};

/// skypilot_csv, azure_retail_prices, aws_get_products, aws_offer_file, gcp_skus, cyclenerd_pricing_yml,
/// ec2instances_json.
const std::vector<std::string>& price_file_formats();

/// The offerings of one price file, its path resolved against `base_dir` (unless absolute).
Catalog import_price_file(const PriceFileImport& price_file, const std::string& base_dir);

/// Demand as data; build() turns it into a DemandProfile over the scenario's horizon.
struct DemandSpec {
    std::string kind = "constant";  ///< constant, linear_growth, compound_growth, steps
    double gpus = 0;                ///< constant
    double start_gpus = 0;          ///< linear_growth, compound_growth
    double end_gpus = 0;            ///< linear_growth
    double annual_growth_rate = 0;  ///< compound_growth
    std::vector<DemandStep> steps;  ///< steps
    std::optional<std::array<double, 24>> daily_pattern;
    std::optional<std::array<double, 7>> weekly_pattern;
    double scale = 1;

    DemandProfile build(Horizon horizon) const;
};

/// A spot job's interruption model when it is not plain Poisson (`mtbf_hours`): Poisson, Weibull, an
/// AWS Spot Advisor bucket, a trace file of lifetimes or node events, or a mean-reverting spot price,
/// each with provider rules (a preset or the rules themselves).
struct InterruptionSpec {
    InterruptionModel model;            ///< a trace holds the lifetimes read from trace_file on loading
    std::optional<int> advisor_bucket;  ///< the model is advisor_bucket(bucket, rules)
    std::string trace_file;             ///< trace: the file as written, relative to the scenario's folder
    std::string rules_preset;           ///< "aws", "gcp_preemptible", "alibaba"; "" = the rules in the model

    /// The model's mean time to an interruption, for the optimal checkpoint interval: Poisson's MTBF,
    /// Weibull's mean lifetime, the trace's mean lifetime; none for a price-driven model.
    std::optional<double> mean_lifetime_hours() const;
};

/// A spot job run by the Monte Carlo engine. Without a checkpoint interval the optimal one for the
/// model's mean lifetime is used (Poisson: exact for its closed forms; otherwise an approximation).
struct SpotJobSpec {
    std::string name;
    Job job;                         ///< checkpoint_interval_hours 0 = optimal_checkpoint_interval()
    double mtbf_hours = 0;           ///< Poisson interruptions, unless `interruptions` is given
    std::optional<InterruptionSpec> interruptions;
    std::optional<double> price_per_gpu_hour;  ///< default: the offering's spot price per GPU
    std::size_t paths = 20000;

    /// The model simulate_spot() runs: `interruptions`, else Poisson{mtbf_hours}.
    InterruptionModel model() const;
};

/// A job with a deadline run under deadline policies (gputco/engines/deadline.hpp) over `paths`
/// traces of a Markov spot-availability process. Prices default to the offering's per-instance
/// spot and on-demand prices (the job runs on one instance).
struct DeadlineJobSpec {
    std::string name;
    DeadlineJob job;
    MarkovAvailability availability;
    std::vector<DeadlinePolicy> policies{DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress,
                                         DeadlinePolicy::on_demand_only};
    std::optional<double> spot_price_per_hour, on_demand_price_per_hour;
    std::size_t paths = 1000;
    bool omniscient = false;  ///< also the cost of the schedule that knows each trace in advance
};

/// A service kept at `replicas` ready replicas on spot over zones, each with an availability trace in
/// the Can't Be Late JSON format (read as available-instance counts with one needed) and a spot price;
/// choose_serving_plan() finds the cheapest policy, extra spot E and on-demand base meeting
/// `search.availability_target`. The tick is the traces'; on-demand is priced at the offering's
/// per-instance price unless given.
struct ServiceZoneSpec {
    std::string name;
    std::string trace_file;          ///< as written, relative to the scenario's folder
    double spot_price_per_hour = 0;  ///< > 0
    SpotAvailability availability;   ///< read from trace_file (or generated) on loading
    /// A generated zone instead of a trace (trace_file empty): capacity lasts a Poisson period of this
    /// mean, then is gone an exponential `mean_down_hours` (generate_zone_availability).
    std::optional<double> mtbf_hours;
    double mean_down_hours = 1;
};
struct ServiceSpec {
    std::string name;
    std::vector<ServiceZoneSpec> zones;
    std::size_t replicas = 1;
    double launch_hours = 0;
    double notice_hours = 0;
    std::optional<double> on_demand_price_per_hour;
    ServingSearch search;
    /// Generated zones: one run of `days` in ticks of `tick_hours`, losses correlated by `correlation`,
    /// drawn from `seed` (generate_zone_availability).
    double days = 30;
    double tick_hours = 0.05;
    double correlation = 0;
    std::uint64_t seed = 0;

    /// The zones as the serving engine takes them, and the config (without E and base, which the search sets).
    std::vector<SpotRegion> regions() const;
    ServingConfig config(double on_demand_price) const;
};

/// A strategy under a name. A spot tranche may name a spot job (`job`): its overhead then comes from
/// that job's simulation (spot_tranche()).
struct NamedStrategy {
    std::string name;
    Strategy strategy;
    std::vector<std::string> spot_jobs;  ///< per tranche: the spot job it takes its overhead from, or ""
};

/// Uncertain demand: `count` futures of `model`, drawn with the scenario's seed. The plans are
/// evaluated over them (without futures, over the one future of the scenario's demand).
struct FuturesSpec {
    DemandModel model;
    std::size_t count = 1000;
};

/// A training job described by its work (gputco/work/workload.hpp), costed per unit of work by
/// rank_offerings() on the offerings named (none: the scenario's offering), and on every offering of
/// the scenario's catalog with one of `gpus`. Spot rows are simulated with the scenario's seed
/// (workload i with seed + i); prices in another currency are converted to the scenario's.
struct WorkloadSpec {
    Workload workload;                      ///< its name is the workload's name in the scenario
    std::vector<OfferingRef> offerings;     ///< empty (and no gpus): the scenario's offering
    std::vector<std::string> gpus;          ///< catalog GPU names: every offering with one of them
    std::vector<BuyingWay> buying{BuyingWay::on_demand, BuyingWay::spot, BuyingWay::reserved};
    std::optional<double> deadline_hours;   ///< for the probability of finishing within it
    bool allow_estimates = false;           ///< use the peak-TFLOPS estimates (labelled) for unmeasured GPUs
    double mtbf_hours = 20;                 ///< spot: Poisson interruptions of the instance
    double checkpoint_write_hours = 5.0 / 60;
    double restart_hours = 10.0 / 60;
    double capacity_wait_hours = 0;
    std::size_t paths = 20000;              ///< spot: Monte Carlo paths per offering

    /// The options rank_offerings() takes for this workload: currency, buying ways, deadline, spot
    /// assumptions (the seed is the caller's).
    RankOptions rank_options(const std::string& currency) const;
    /// The offerings it is ranked on, from `catalog` (the scenario's), without repeats; `scenario` is
    /// the scenario's own offering. Throws InvalidInput naming an offering or GPU the catalog lacks.
    Catalog offerings_in(const Catalog& catalog, const Offering& scenario) const;
};

/// A recommendation asked of the scenario (`recommend:`): the recommender's options, and what the study
/// judges the plan on. The demand futures, the offering, the prices (price_model), the discounts, the
/// NPV rate and the dated windows are the scenario's own. Every default is the library's: `options`
/// starts as RecommendOptions{} and the study's choices left empty are StudyInputs' defaults
/// (app/recommend_study.hpp).
struct RecommendSpec {
    RecommendOptions options;  ///< plan_options is filled from the scenario when it runs
    /// Fresh futures of the scenario's futures model it is judged on (seed + 1; under a price model at
    /// paths drawn with seed + 1); 0 = judged on the futures it was fitted to.
    std::size_t held_out = 0;
    /// The lookback baselines read the scenario's `demand` as the usage history; false = all on demand
    /// (and the hindsight level) only.
    bool history_from_demand = false;
    std::optional<int> baseline_term_years;
    std::optional<Payment> baseline_payment;
    std::optional<bool> hindsight_bound;
    std::vector<double> cvar95_limits;  ///< the frontier's limits; empty = no frontier
    std::optional<bool> hold_cvar95_limit;
};
struct RecommendStudy;  // app/recommend_study.hpp

struct Scenario {
    int version = scenario_schema_version;
    std::string name;
    std::string description;
    int horizon_months = 36;
    std::optional<std::string> currency;  ///< if given, must be the offering's currency
    double annual_discount_rate = 0;
    Units units = Units::instances;
    std::uint64_t seed = 0;
    std::optional<std::string> catalog_file;  ///< a catalog JSON file overriding the built-in rows
    std::vector<PriceFileImport> imports;     ///< price files overriding the catalog file, in order
    std::vector<Offering> offerings;          ///< inline rows overriding all of these
    OfferingRef offering;
    DemandSpec demand;
    Discounts discounts;
    std::vector<NamedStrategy> strategies;
    std::vector<SpotJobSpec> spot_jobs;
    std::vector<DeadlineJobSpec> deadline_jobs;
    std::vector<ServiceSpec> services;  ///< services on spot across zones
    std::optional<FuturesSpec> futures;
    std::vector<Plan> plans;  ///< plans over time, priced on the offering, over the futures
    /// Prices that move: the plans are priced under this model's paths (simulate_price_paths with the
    /// scenario's seed, one path per future, both reservation terms); none: today's prices throughout.
    std::optional<PriceDynamics> price_model;
    std::vector<DemandWindow> demand_windows;  ///< dated windows of demand on top of the plans' futures
    std::vector<WorkloadSpec> workloads;  ///< cost per unit of work of training jobs
    std::vector<LlmTrainingSpec> llm_training;  ///< LLM training runs, ranked over the catalog
    std::vector<LlmServingSpec> llm_serving;    ///< LLM inference services, ranked over the catalog
    std::optional<RecommendSpec> recommend;     ///< a recommendation over the futures (run_recommend_study)
    std::vector<std::string> outputs;  ///< report columns wanted; empty = the defaults

    /// Where relative paths (catalog_file) are resolved: the scenario file's folder.
    std::string base_dir;

    /// The catalog rows read from catalog_file and imports (over the built-in ones) when the scenario
    /// was loaded, with what they were read from. scenario_catalog() takes them while catalog_file,
    /// imports and base_dir are unchanged, so each file is read once; empty for a scenario built in code.
    struct FileRows {
        std::optional<std::string> catalog_file;
        std::vector<PriceFileImport> imports;
        std::string base_dir;
        Catalog catalog;
    };
    std::shared_ptr<const FileRows> file_rows;
};

/// The report columns `outputs` may name.
const std::vector<std::string>& scenario_output_names();

/// Reads a scenario from YAML or JSON text; `file` names it in error messages.
Scenario parse_scenario(std::string_view text, std::string_view file = "<scenario>");
/// A scenario file holds at most this many bytes (16 MiB; the examples are a few KB): a device or
/// pipe without end (/dev/zero) is refused after that much, not read into memory without bound.
inline constexpr std::size_t max_scenario_bytes = std::size_t(16) << 20;
/// A scenario file's text, up to max_scenario_bytes; InvalidInput naming the path when it cannot be
/// read (missing, a folder) or is larger.
std::string read_scenario_file(const std::string& path);
/// Reads a scenario file (YAML or JSON).
Scenario load_scenario(const std::string& path);
/// The scenario as canonical YAML: parse_scenario(to_yaml(s)) gives s back (to_yaml of both is equal).
std::string to_yaml(const Scenario& scenario);
/// A price model (fitted by fit_price_dynamics, or any other) as a scenario's `price_model` key, in
/// the YAML to_yaml writes: a one-key mapping whose value a scenario file or dict takes as it is, so
/// that runs and sweeps of the scenario price its plans under that model's paths.
std::string price_model_yaml(const PriceDynamics& model);

/// The catalog the scenario prices on: the built-in one, overridden by its catalog file, its imported
/// price files and its inline rows, in that order. The files are read again only if the scenario was
/// not loaded from a file or its catalog_file, imports or base_dir changed since (see file_rows).
Catalog scenario_catalog(const Scenario& scenario);

struct StrategyResult {
    std::string name;
    CostReport report;
};
struct SpotJobResult {
    std::string name;
    double checkpoint_interval_hours = 0;
    SpotResult result;
    SpotPricing pricing;  ///< the prices and billing it was charged with (run_spot_job's defaults)
};
struct DeadlineJobResult {
    std::string name;
    double spot_price_per_hour = 0, on_demand_price_per_hour = 0;
    DeadlineComparison comparison;
};
struct ServiceResult {
    std::string name;
    double on_demand_price_per_hour = 0;
    ServingPlan plan;
};
struct WorkloadResult {
    std::string name;
    WorkRanking ranking;  ///< rows cheapest run first, in the scenario's currency; skipped with reasons
};
struct ScenarioResult {
    std::string scenario;
    std::vector<SpotJobResult> spot_jobs;
    std::vector<DeadlineJobResult> deadline_jobs;
    std::vector<ServiceResult> services;
    std::vector<StrategyResult> strategies;
    /// One per plan, in order; with several plans each future's regret is against the cheapest of them.
    std::vector<PlanDistribution> plans;
    std::vector<WorkloadResult> workloads;
    std::vector<LlmTrainingResult> llm_training;
    std::vector<LlmServingResult> llm_serving;
    /// The study of the `recommend` section, as run_recommend_study() gives it; null without one.
    std::shared_ptr<const RecommendStudy> recommend;
};

/// The demand futures the scenario's plans are evaluated over.
DemandFutures scenario_futures(const Scenario& scenario);
/// The same, given the scenario's demand already built (scenario.demand.build): without futures in
/// the scenario that profile is the one future, its sorted months reused.
DemandFutures scenario_futures(const Scenario& scenario, const DemandProfile& demand);

/// Runs the scenario: its spot jobs (job i with seed + i), its deadline jobs (job i with seed + i,
/// through compare_deadline_policies()), every strategy through evaluate(), its plans over its
/// futures through compare_plans(), its `recommend` section through run_recommend_study(), then its workloads through rank_offerings(), its LLM training runs through
/// rank_llm_training() (run i with seed + i) and its LLM services through rank_llm_serving(). should_stop is
/// polled by each engine (spot, deadline, plan); a stop throws Cancelled.
/// For a progress bar: the task running ("spot job train-500h", "deadline job j", "plans", "workload w
/// on spot"), its units done of total and what they count ("paths", "traces", "futures"), called on
/// the calling thread about every 50 ms and when a task ends.
using ScenarioProgress = std::function<void(const std::string& task, std::size_t done, std::size_t total,
                                            std::string_view unit)>;

ScenarioResult run_scenario(const Scenario& scenario, std::function<bool()> should_stop = {},
                            const ScenarioProgress& progress = {});

}  // namespace gputco
