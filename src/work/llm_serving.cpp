// The serving roofline (formulas in llm_serving.hpp).
#include "gputco/work/llm_serving.hpp"

#include <algorithm>
#include <cmath>

#include "gputco/core/limits.hpp"

namespace gputco {

namespace {

struct Step {
    double seconds = 0;
    bool bandwidth_bound = true;
};

Step decode_step(const LlmServing& s, const LlmGpu& g, const LlmGpuOptions& o, int tp, int batch) {
    const LlmModel& m = s.model;
    const double context = s.input_tokens + s.output_tokens / 2.0;
    const double bytes = m.parameters * bytes_per_weight(s.precision) +
                         batch * context * kv_cache_bytes_per_token(m, s.kv_bytes_per_value);
    const double memory = bytes / (tp * g.memory_bandwidth_gbps * 1e9 * o.decode_bandwidth_efficiency);
    const double flops = batch * (2.0 * m.active() + 4.0 * m.layers * double(m.hidden_size) * context);
    const double compute = flops / (tp * g.peak_tflops * 1e12 * g.mfu);
    return {std::max(memory, compute), memory >= compute};
}

double prefill_seconds(const LlmServing& s, const LlmGpu& g, int tp) {
    const LlmModel& m = s.model;
    // Causal attention over i tokens: on average i / 2 earlier tokens, 4 L h per token of context.
    const double flops = s.input_tokens * (2.0 * m.active() + 2.0 * m.layers * double(m.hidden_size) * s.input_tokens);
    return flops / (tp * g.peak_tflops * 1e12 * g.mfu);
}

}  // namespace

std::optional<ServingEstimate> estimate_serving(const LlmServing& s, const LlmGpu& g, int gpus_per_node,
                                                const LlmGpuOptions& o) {
    s.validate();
    o.validate();
    require(gpus_per_node >= 1 && gpus_per_node <= 1024, "gpus_per_node", gpus_per_node, "must be in [1, 1024]");
    require_positive("gpu.memory_bandwidth_gbps", g.memory_bandwidth_gbps);
    require_positive("gpu.peak_tflops", g.peak_tflops);
    require(g.mfu > 0 && g.mfu <= 1, "gpu.mfu", g.mfu, "must be in (0, 1]");
    const double kv_per_sequence = (s.input_tokens + s.output_tokens) * kv_cache_bytes_per_token(s.model, s.kv_bytes_per_value);
    const double weights = s.model.parameters * bytes_per_weight(s.precision);
    std::optional<ServingEstimate> best;
    for (int tp = 1; tp <= gpus_per_node; ++tp) {
        if (gpus_per_node % tp != 0) continue;
        const double usable = tp * g.memory_gb * 1e9 * o.usable_memory_fraction;
        if (weights + kv_per_sequence > usable) continue;
        const double prefill = prefill_seconds(s, g, tp);
        if (prefill > s.max_seconds_to_first_token) continue;
        if (decode_step(s, g, o, tp, 1).seconds > s.max_seconds_per_output_token) continue;
        // Largest batch: memory, latency (the step grows with the batch) and max_batch.
        const int by_memory = int(std::min<double>(s.max_batch, std::floor((usable - weights) / kv_per_sequence)));
        int batch = 1;
        for (int b = 2; b <= by_memory; ++b) {
            if (decode_step(s, g, o, tp, b).seconds > s.max_seconds_per_output_token) break;
            batch = b;
        }
        ServingEstimate e;
        e.tensor_parallel = tp;
        e.batch = batch;
        e.batch_limit = batch == s.max_batch ? "max_batch" : batch == by_memory ? "memory" : "latency";
        const Step step = decode_step(s, g, o, tp, batch);
        e.step_seconds = step.seconds;
        e.bandwidth_bound = step.bandwidth_bound;
        e.prefill_seconds = prefill;
        e.replica_seconds_per_request = prefill + s.output_tokens * step.seconds / batch;
        e.requests_per_second_per_replica = 1.0 / e.replica_seconds_per_request;
        // The relative slack keeps an exact multiple (e.g. 50 × 0.02) from rounding up on its last bit.
        const double replicas = std::ceil(s.requests_per_second * e.replica_seconds_per_request * (1 - 1e-12));
        if (replicas * tp > limits::max_gpus) continue;  // more GPUs than any answer may hold
        e.replicas = std::max(1, int(replicas));
        e.gpus = e.replicas * tp;
        e.decode_tokens_per_second_per_gpu = batch / step.seconds / tp;
        e.prefill_tokens_per_second_per_gpu = s.input_tokens / prefill / tp;
        e.prefill_share = prefill / e.replica_seconds_per_request;
        e.weight_gb_per_gpu = weights / tp / 1e9;
        e.kv_cache_gb_per_gpu = batch * kv_per_sequence / tp / 1e9;
        // The degree needing the fewest GPUs for the rate; on a tie the smaller (less communication).
        if (!best || e.gpus < best->gpus) best = e;
    }
    return best;
}

}  // namespace gputco
