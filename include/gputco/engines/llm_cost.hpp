#pragma once
// What an LLM training run or inference service costs on each offering of a catalog, ranked: the
// siblings of rank_offerings (work_cost.hpp) for jobs given in tokens rather than benchmark units.
//
//   const LlmTrainingRanking r = rank_llm_training(tune, Catalog::builtin());
//   r.rows[0].cost_per_run;    // cheapest way, in r.currency
//   r.skipped;                 // offerings left out, each with the reason (no MFU row, no FP8, ...)
//
// Training, per offering (docs/models.md, "LLM training and serving"):
//   layout      = smallest_training_layout on whole instances (at least options.min_gpus GPUs)
//   GPU-hours   = training FLOPs / (peak × MFU × 3,600); wall hours = GPU-hours / GPUs / scaling, where
//                 scaling = scaling_factor (llm_scaling.hpp): the step's efficiency on the offering's
//                 links over the same layout's on the 400 Gbit/s-per-GPU fabric the MFU rows were
//                 measured on (1 within one instance or on such a fabric)
//   on-demand   = wall hours × instances × hourly price, billed as one launch per instance
//   spot        = simulate_spot on the wall hours: the run stops when any of its n instances is
//                 interrupted (Poisson, MTBF per instance / n), checkpoints at the optimal interval,
//                 each written in checkpoint_bytes / (n × storage bandwidth per instance)
//   reserved    = wall hours × instances × the lowest effective reserved rate (the reservation assumed
//                 busy with other work for the rest of its term)
//   capacity block (offerings with a capacity-block rate) = instances × 24 h × days × the rate, paid in
//                 full: days = the shortest length sold (CapacityBlock: 1-14 days, or whole weeks up to
//                 182) whose usable hours (the last 30 minutes stopped) hold the wall hours; skipped with
//                 the reason past 64 instances or 182 days
// Serving, per offering: estimate_serving (llm_serving.hpp) on the offering's GPU, the GPUs bought in
// whole instances, running all the time. $ per million input tokens = hourly cost × prefill share /
// input tokens per hour × 1e6; output tokens likewise with the rest. Spot serving runs the serving
// planner (engines/serving.hpp, choose_serving_plan): the fleet's instances as replicas over generated
// zones whose spot capacity comes and goes (LlmSpotServing), the cheapest policy, extra spot replicas
// and on-demand base keeping them all ready for the availability target; an offering none meets is
// skipped with the reason.
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/currency.hpp"
#include "gputco/core/cancel.hpp"
#include "gputco/engines/work_cost.hpp"
#include "gputco/work/llm.hpp"
#include "gputco/work/llm_gpus.hpp"
#include "gputco/work/llm_serving.hpp"

namespace gputco {

/// How spot capacity for serving replicas is generated (assumptions, each overridable): `zones` zones
/// of the offering's region, each losing its capacity after a Poisson period of the spot assumptions'
/// MTBF and getting it back after `mean_down_hours` (engines/serving.hpp, ZoneProcess), over `days` in
/// ticks of `tick_hours`; a replica takes `launch_hours` to boot and load the weights.
struct LlmSpotServing {
    int zones = 3;
    double mean_down_hours = 1;
    double launch_hours = 0.25;
    double tick_hours = 0.05;
    double days = 30;
    double availability_target = 0.999;
    int max_extra = 4;  ///< extra spot replicas tried, 0..max_extra; the on-demand base 0..all
    std::uint64_t seed = 42;
};

struct LlmRankOptions {
    std::string currency = "USD";
    /// Offerings in another currency are converted at the rate in force at `rates_as_of` (empty: the
    /// table's latest), as rank_offerings converts; each converted row's note names the rate, and an
    /// offering without a rate is skipped with the reason.
    ExchangeRates exchange_rates = ExchangeRates::builtin();
    std::string rates_as_of;
    bool on_demand = true, spot = true, reserved = true;
    bool capacity_block = true;  ///< training: a capacity-block row where the offering has a block rate
    /// false: each provider's instance type in its cheapest region per way of buying only
    /// (cheapest_region_per_instance, as rank_offerings); true: every region.
    bool every_region = false;
    LlmGpuOptions gpu;
    std::vector<std::string> gpus;  ///< only offerings of these catalog GPUs; empty = all
    int min_gpus = 0;               ///< training: at least this many GPUs (0 = the smallest layout that fits)
    int max_gpus = 65'536;          ///< training: no layout beyond this
    /// Spot interruptions per instance (MTBF), restart and capacity wait; the checkpoint write time is
    /// derived (checkpoint_write_hours here is ignored).
    SpotAssumptions spot_assumptions{.simulation = {.paths = 4'000, .seed = 42}};
    LlmSpotServing spot_serving;  ///< serving: spot capacity for the replicas
    /// Checkpoint write bandwidth of one instance to storage, GB/s. An assumption (network storage
    /// reaches a few GB/s per node); overridable.
    double storage_gb_per_second_per_instance = 2.0;
    StopCheck should_stop;  ///< called before each offering; true throws Cancelled
    /// No offering costed: return the empty ranking (its skipped say why) instead of throwing, for a
    /// caller that reports the reasons itself (a scenario's check at load).
    bool allow_empty = false;

    void validate() const;
};

struct LlmTrainingRow {
    std::string provider, region, instance_type, gpu;
    BuyingWay buying = BuyingWay::on_demand;
    std::string terms;
    int instances = 0, gpus = 0;
    TrainingLayout layout;
    double memory_gb_per_gpu = 0;   ///< the layout's need (training_memory total / 1e9)
    double peak_tflops = 0, mfu = 0;
    MatchKind mfu_kind = MatchKind::measured;
    std::string mfu_basis, peak_source;
    double scaling_efficiency = 1;  ///< scaling_factor: share of the MFU row's speed kept on these links
    std::string interconnect_basis; ///< NVLink and network per GPU, each with its source (or the assumption)
    double gpu_hours = 0;           ///< compute GPU-hours (no interruptions)
    double run_hours = 0;           ///< wall hours: spot mean
    double run_hours_p95 = 0;
    std::string currency;
    double price_per_hour = 0;      ///< all instances together
    double cost_per_run = 0, cost_per_run_p95 = 0, cost_per_run_standard_error = 0;
    double cost_per_million_tokens = 0;
    double checkpoint_gb = 0, checkpoint_write_hours = 0;
    std::string note;
};

struct LlmTrainingRanking {
    LlmTraining training;
    double flops = 0, flops_per_token = 0;
    std::string currency;
    std::vector<LlmTrainingRow> rows;  ///< by cost_per_run, then run_hours, then key
    std::vector<SkippedOffering> skipped;
};

/// Throws InvalidInput for an invalid training or options, and naming "training" when no offering
/// could be costed (every reason is in the message's count and in no row).
LlmTrainingRanking rank_llm_training(const LlmTraining& training, const Catalog& catalog,
                                     const LlmRankOptions& options = {});

struct LlmServingRow {
    std::string provider, region, instance_type, gpu;
    BuyingWay buying = BuyingWay::on_demand;
    std::string terms;
    ServingEstimate estimate;
    int instances = 0;
    double peak_tflops = 0, mfu = 0, memory_bandwidth_gbps = 0;
    std::string mfu_basis;
    std::string currency;
    double price_per_hour = 0;     ///< one instance
    double cost_per_hour = 0;      ///< the whole fleet
    double cost_per_million_input_tokens = 0, cost_per_million_output_tokens = 0;
    double cost_per_request = 0;
    double availability = 1;        ///< spot: share of ticks with every replica ready (1 otherwise)
    std::string note;
};

struct LlmServingRanking {
    LlmServing serving;
    std::string currency;
    std::vector<LlmServingRow> rows;  ///< by cost_per_hour, then key
    std::vector<SkippedOffering> skipped;
};

LlmServingRanking rank_llm_serving(const LlmServing& serving, const Catalog& catalog,
                                   const LlmRankOptions& options = {});

}  // namespace gputco
