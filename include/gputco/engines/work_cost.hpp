#pragma once
// Cost per unit of work: time to train a Workload and what it costs on each offering, for each way of
// buying GPU time, ranked in one currency. "A cheap hour on a slow GPU is an expensive epoch."
//
//   const Workload resnet{.name = "ResNet-50", .model = "resnet50", .work_per_epoch = 1'281'167, .epochs = 90};
//   const WorkRanking r = rank_offerings(resnet, Catalog::builtin(), ThroughputTable::builtin());
//   r.rows[0].cost_per_run;       // cheapest way, in r.currency
//   r.skipped;                    // every offering left out, with the reason
//
// Per offering (one instance, all its GPUs training one data-parallel job):
//   throughput  = the benchmark row of its GPU and count (scaling.hpp) × workload.utilisation
//   run hours   = total work / throughput / 3,600; hours per epoch = run hours / epochs
//   on-demand   = the run billed as one launch: rounded up to the billing increment and minimum
//   spot        = simulate_spot on the run (Poisson interruptions of the whole instance, checkpoints at
//                 the optimal interval), mean and P95 of cost and wall time
//   reserved    = run hours × the offering's lowest effective reserved rate (the reservation is
//                 assumed busy all its term with other work: its hours cost the same either way)
//   owned       = per benchmark machine, run hours × the hourly cost of owning it at full use
//                 (capex from the benchmark's list price, straight line to the residual, power, ...)
// Cost per epoch = cost per run / epochs; per million units = cost per run / (total work / 1e6).
// Prices in another currency are converted through RankOptions::exchange_rates (each row says at which
// rate); the owned machines' USD list prices likewise.
#include <optional>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/currency.hpp"
#include "gputco/catalog/price_trust.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/strategy/strategy.hpp"
#include "gputco/work/gpu_match.hpp"
#include "gputco/work/throughput.hpp"
#include "gputco/work/workload.hpp"
#include "gputco/core/cancel.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// capacity_block: a block of instances bought for whole days and paid in full (LLM training rows,
/// engines/llm_cost.hpp; rank_offerings does not price it).
enum class BuyingWay { on_demand, spot, reserved, owned, capacity_block };
template <>
struct EnumText<BuyingWay> {
    static constexpr std::array<EnumName<BuyingWay>, 5> names{{
        {BuyingWay::on_demand, "on_demand"},
        {BuyingWay::spot, "spot"},
        {BuyingWay::reserved, "reserved"},
        {BuyingWay::owned, "owned"},
        {BuyingWay::capacity_block, "capacity_block"},
    }};
};
inline std::string_view to_string(BuyingWay way) { return to_text(way); }

/// How a run on spot is interrupted and protected.
struct SpotAssumptions {
    double mtbf_hours = 20;                     ///< Poisson interruptions of the instance, > 0
    double checkpoint_write_hours = 5.0 / 60;   ///< delta
    double restart_hours = 10.0 / 60;           ///< R, billed
    double capacity_wait_hours = 0;             ///< D, not billed
    SimulationOptions simulation{.paths = 20'000, .seed = 42};
};

struct RankOptions {
    std::string currency = "USD";  ///< every row in this currency
    /// Offerings in another currency are converted through this table at the rate in force at
    /// `rates_as_of` (empty: the latest rate of the table); each converted row's note names the rate.
    /// An offering without a rate is skipped, with the reason.
    ExchangeRates exchange_rates = ExchangeRates::builtin();
    std::string rates_as_of;
    bool on_demand = true, spot = true, reserved = true, owned = true;
    /// false: each provider's instance type is ranked in its cheapest region per way of buying only
    /// (cheapest_region_per_instance: the built-in catalog lists every region); true: every region.
    bool every_region = false;
    /// Use the peak-TFLOPS estimates of gpu_match.hpp (labelled "estimate"); off: such GPUs are skipped.
    bool allow_estimates = false;
    /// The price-age limit: an offering whose price (price_trust.hpp: price_date) is older than
    /// max_price_age_days at `prices_as_of` (ISO date; empty: Date::today()), or undated, is left out
    /// and listed among the skipped with its age, so the ranking runs on today's prices; with
    /// include_stale_prices it is ranked and its rows say stale.
    std::string prices_as_of;
    long long max_price_age_days = stale_price_age_days;
    bool include_stale_prices = false;
    std::vector<GpuMatch> gpu_matches;  ///< the user's matches, before the built-in ones
    SpotAssumptions spot_assumptions;
    /// Owning: capex_per_gpu 0 = the benchmark's hardware list price; watts_per_gpu 0 = its board power.
    Owned ownership{.capex_per_gpu = 0, .life_years = 3, .residual_fraction = 0.1, .watts_per_gpu = 0};
    /// For probability_within_deadline; infinity = no deadline.
    double deadline_hours = std::numeric_limits<double>::infinity();
    /// Called before each offering and by each spot run (unless spot_assumptions.simulation has its
    /// own); true throws Cancelled and nothing is returned. Empty: never.
    StopCheck should_stop;
    /// For a progress bar: (offerings done, offerings in all, owned machines counting as one), called
    /// on the calling thread after each; empty: no reports. Results do not depend on it.
    ProgressReport progress;

    void validate() const;
};

/// One way of running the workload on one offering (or one owned machine).
struct WorkCostRow {
    std::string provider, region, instance_type;  ///< provider "owned" for an owned machine
    std::string catalog_gpu, benchmark_gpu;
    MatchKind match = MatchKind::none;
    BuyingWay buying = BuyingWay::on_demand;
    std::string terms;            ///< e.g. "3-year all_upfront" for reserved, "MTBF 20 h" for spot
    int gpus = 1;
    std::string currency;
    double price_per_hour = 0;    ///< instance, effective (spot: the spot price; owned: cost of owning)
    double throughput_per_second = 0;
    std::string throughput_basis;  ///< measured / fitted / proxy / estimate, in words
    double hours_per_epoch = 0;   ///< compute hours (no interruptions)
    double run_hours = 0;         ///< wall hours of the run: spot mean
    double run_hours_p95 = 0;     ///< spot: P95 of wall hours; otherwise = run_hours
    double cost_per_epoch = 0, cost_per_run = 0, cost_per_million = 0;  ///< spot: means
    double cost_per_run_p95 = 0;  ///< spot: P95; otherwise = cost_per_run
    double cost_per_run_standard_error = 0;  ///< spot: Monte Carlo standard error of the mean; else 0
    double probability_within_deadline = 1;  ///< P(wall hours <= RankOptions::deadline_hours)
    std::string note;             ///< the GPU match's caveat, the currency conversion, the catalog's notes
    std::optional<long long> price_age_days;  ///< at WorkRanking::prices_as_of; none: undated (owned: none)
    bool stale = false;           ///< older than the limit or undated (ranked only with include_stale_prices)
};

struct SkippedOffering {
    std::string offering;  ///< "provider/region/instance_type" or "owned/<benchmark GPU>"
    std::string reason;
};

struct WorkRanking {
    Workload workload;
    std::string unit;       ///< model_unit(workload.model)
    std::string currency;
    double deadline_hours = 0;
    SpotAssumptions spot_assumptions;  ///< those the spot rows were simulated with
    std::vector<WorkCostRow> rows;  ///< by cost_per_run, then run_hours, then key (a stable order)
    std::vector<SkippedOffering> skipped;
    std::string prices_as_of;        ///< the date prices were aged at (ISO)
    long long max_price_age_days = 0;  ///< the limit applied (RankOptions)
    std::size_t stale_left_out = 0;  ///< offerings left out by it (each also in skipped)
};

/// Ranks every offering of `catalog` (and owned machines) for `workload`. Throws InvalidInput naming
/// workload.memory_gb when the workload fits no GPU of the catalog, and naming workload.model when
/// no offering can be costed for it; otherwise each offering left out is listed in `skipped`.
WorkRanking rank_offerings(const Workload& workload, const Catalog& catalog, const ThroughputTable& table,
                           const RankOptions& options = {});

/// The cheapest row (by mean cost per run) that finishes within `deadline_hours` with probability >=
/// `probability`; std::nullopt if none does. Ranks with options.deadline_hours = deadline_hours.
std::optional<WorkCostRow> cheapest_within(const Workload& workload, const Catalog& catalog,
                                           const ThroughputTable& table, double deadline_hours,
                                           double probability, RankOptions options = {});

/// The rows no other row beats on both mean cost per run and mean run hours (the cost-time frontier),
/// fastest first.
std::vector<WorkCostRow> cost_time_frontier(const WorkRanking& ranking);

}  // namespace gputco
