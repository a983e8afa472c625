#pragma once
// A scenario's LLM jobs (`llm_training:` and `llm_serving:`): a training run or an inference service
// with the options rank_llm_training / rank_llm_serving take, ranked over every offering of the
// scenario's catalog (or those with one of `gpus`). The ranking is the library's (engines/llm_cost.hpp),
// so a scenario and a direct call give the same rows.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gputco/engines/llm_cost.hpp"

namespace gputco {

/// The ways of buying an LLM job may be ranked on (owned machines are not priced for LLM jobs).
inline const std::vector<BuyingWay>& llm_buying_ways() {
    static const std::vector<BuyingWay> ways{BuyingWay::on_demand, BuyingWay::spot, BuyingWay::reserved};
    return ways;
}
/// Training runs may also be priced as capacity blocks (a service runs all the time: no block ends it).
inline const std::vector<BuyingWay>& llm_training_buying_ways() {
    static const std::vector<BuyingWay> ways{BuyingWay::on_demand, BuyingWay::spot, BuyingWay::reserved,
                                             BuyingWay::capacity_block};
    return ways;
}

struct LlmTrainingSpec {
    LlmTraining training;  ///< its name is the job's name in the scenario
    std::vector<std::string> gpus;  ///< catalog GPU names; empty = every offering of the catalog
    std::vector<BuyingWay> buying = llm_training_buying_ways();
    double mfu = 0;                 ///< > 0: this MFU on every GPU instead of the built-in rows
    int min_gpus = 0, max_gpus = 65'536;
    double usable_memory_fraction = 0.9;
    double mtbf_hours = 20;         ///< spot: Poisson interruptions per instance
    double restart_hours = 10.0 / 60;
    double storage_gb_per_second_per_instance = 2;
    std::size_t paths = 4'000;      ///< spot: Monte Carlo paths per offering

    /// rank_llm_training's options in `currency`, spot paths drawn with `seed`.
    LlmRankOptions rank_options(const std::string& currency, std::uint64_t seed) const;
};

struct LlmServingSpec {
    LlmServing serving;  ///< its name is the job's name in the scenario
    std::vector<std::string> gpus;
    std::vector<BuyingWay> buying = llm_buying_ways();
    double mfu = 0;  ///< > 0: this prefill/compute MFU on every GPU
    double decode_bandwidth_efficiency = 0.7;
    double usable_memory_fraction = 0.9;

    LlmRankOptions rank_options(const std::string& currency) const;
};

struct LlmTrainingResult {
    std::string name;
    LlmTrainingRanking ranking;
};
struct LlmServingResult {
    std::string name;
    LlmServingRanking ranking;
};

}  // namespace gputco
