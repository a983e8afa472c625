// A scenario's LLM jobs: the options each is ranked with. The rankings themselves are
// rank_llm_training / rank_llm_serving (engines/llm_cost.hpp).
#include <algorithm>

#include "gputco/scenario/llm_jobs.hpp"

namespace gputco {

namespace {

LlmRankOptions common(const std::string& currency, const std::vector<BuyingWay>& buying,
                      const std::vector<std::string>& gpus, double mfu, double usable_memory_fraction) {
    LlmRankOptions options;
    options.currency = currency;
    const auto buys = [&](BuyingWay way) { return std::find(buying.begin(), buying.end(), way) != buying.end(); };
    options.on_demand = buys(BuyingWay::on_demand);
    options.spot = buys(BuyingWay::spot);
    options.reserved = buys(BuyingWay::reserved);
    options.capacity_block = buys(BuyingWay::capacity_block);
    options.gpus = gpus;
    options.gpu.mfu_override = mfu;
    options.gpu.usable_memory_fraction = usable_memory_fraction;
    return options;
}

}  // namespace

LlmRankOptions LlmTrainingSpec::rank_options(const std::string& currency, std::uint64_t seed) const {
    LlmRankOptions options = common(currency, buying, gpus, mfu, usable_memory_fraction);
    options.min_gpus = min_gpus;
    options.max_gpus = max_gpus;
    options.spot_assumptions.mtbf_hours = mtbf_hours;
    options.spot_assumptions.restart_hours = restart_hours;
    options.spot_assumptions.simulation.paths = paths;
    options.spot_assumptions.simulation.seed = seed;
    options.storage_gb_per_second_per_instance = storage_gb_per_second_per_instance;
    return options;
}

LlmRankOptions LlmServingSpec::rank_options(const std::string& currency) const {
    LlmRankOptions options = common(currency, buying, gpus, mfu, usable_memory_fraction);
    options.gpu.decode_bandwidth_efficiency = decode_bandwidth_efficiency;
    return options;
}

}  // namespace gputco
