#pragma once
// How many GPUs an inference service needs, from a roofline of each decode step and each prefill
// (docs/models.md, "LLM serving"). A replica is t GPUs of one node with the weights split t ways.
//
//   decode step (batch B, mean context c = input + output / 2):
//     memory time  = (weight bytes + B × c × KV bytes per token) / (t × bandwidth × efficiency)
//     compute time = B × (2 N_active + 4 L h c) / (t × peak × MFU)
//     step         = max(memory time, compute time)            (bandwidth-bound when the first is larger)
//   prefill of one request (i input tokens) = i × (2 N_active + 2 L h i) / (t × peak × MFU)
//   replica time per request = prefill + output tokens × step / B
//   replicas = ceil(requests per second × replica time per request)
// B is the largest batch whose step meets the per-token latency target and whose KV cache at full
// context (input + output) fits beside the weights; t the divisor of the node's GPU count that holds
// the weights with one sequence, meets both latency targets and needs the fewest GPUs for the rate
// (on a tie, the smaller t).
#include <optional>
#include <string>

#include "gputco/work/llm.hpp"
#include "gputco/work/llm_gpus.hpp"

namespace gputco {

struct ServingEstimate {
    int tensor_parallel = 1;
    int batch = 1;
    std::string batch_limit;        ///< "memory", "latency" or "max_batch": what stopped a larger batch
    double step_seconds = 0;        ///< one decode step = time per output token
    bool bandwidth_bound = true;    ///< the step is set by memory bandwidth, not FLOPs
    double prefill_seconds = 0;     ///< one request's prefill on the replica = time to first token (no queue)
    double replica_seconds_per_request = 0;
    double requests_per_second_per_replica = 0;
    int replicas = 0;
    int gpus = 0;                   ///< replicas × tensor_parallel
    double decode_tokens_per_second_per_gpu = 0;   ///< B / step / t, while decoding
    double prefill_tokens_per_second_per_gpu = 0;  ///< input tokens / prefill / t
    double prefill_share = 0;       ///< share of replica time spent on prefill (prices input tokens)
    double weight_gb_per_gpu = 0, kv_cache_gb_per_gpu = 0;
};

/// The estimate on `gpu` (figures at serving.precision), replicas within one node of `gpus_per_node`;
/// std::nullopt when no tensor-parallel degree up to a whole node fits or meets the latency targets.
std::optional<ServingEstimate> estimate_serving(const LlmServing& serving, const LlmGpu& gpu, int gpus_per_node,
                                                const LlmGpuOptions& options = {});

}  // namespace gputco
