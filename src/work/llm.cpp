// LLM FLOPs, memory and layouts (formulas and sources in llm.hpp and docs/models.md).
#include "gputco/work/llm.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

namespace gputco {

namespace {
// Bounds that keep every product finite and every layout search short.
constexpr double max_parameters = 1e14;   // 100 trillion
constexpr double max_tokens = 1e17;
constexpr int max_sequence_length = 10'000'000;
constexpr int max_layers = 10'000;
constexpr int max_hidden_size = 1'000'000;
constexpr double bytes_per_trained_parameter = 16;  // 2 weights + 2 gradients + 12 optimizer (FP32 master, m, v)
constexpr double activation_values_per_layer = 34;  // Korthikanti et al. 2022, per s b h, 2-byte values

std::string member(std::string_view field, std::string_view name) { return fmt::format("{}.{}", field, name); }
}  // namespace

double bytes_per_weight(LlmPrecision precision) {
    switch (precision) {
        case LlmPrecision::bf16: return 2.0;
        case LlmPrecision::fp8: return 1.0;
        case LlmPrecision::fp4: return 0.5;
    }
    return 2.0;
}

void LlmModel::validate(std::string_view field) const {
    require_positive(member(field, "parameters"), parameters);
    require_at_most(member(field, "parameters"), parameters, max_parameters);
    require_at_most(member(field, "active_parameters"), active_parameters, parameters);
    const bool any_shape = layers != 0 || hidden_size != 0 || attention_heads != 0 || kv_heads != 0;
    if (!any_shape) return;
    require(layers >= 1 && layers <= max_layers, member(field, "layers"), layers,
            fmt::format("must be in [1, {}] when the shape is given", max_layers));
    require(hidden_size >= 1 && hidden_size <= max_hidden_size, member(field, "hidden_size"), hidden_size,
            fmt::format("must be in [1, {}] when the shape is given", max_hidden_size));
    require(attention_heads >= 1 && hidden_size % attention_heads == 0, member(field, "attention_heads"),
            attention_heads, fmt::format("must be >= 1 and divide hidden_size ({})", hidden_size));
    require(kv_heads >= 0 && (kv_heads == 0 || attention_heads % kv_heads == 0), member(field, "kv_heads"), kv_heads,
            fmt::format("must be 0 (= attention_heads) or divide attention_heads ({})", attention_heads));
}

void LlmTraining::validate() const {
    model.validate("training.model");
    require_positive("training.tokens", tokens);
    require_at_most("training.tokens", tokens, max_tokens);
    require(sequence_length >= 1 && sequence_length <= max_sequence_length, "training.sequence_length",
            sequence_length, fmt::format("must be in [1, {}]", max_sequence_length));
    require(micro_batch_sequences >= 1 && micro_batch_sequences <= 65'536, "training.micro_batch_sequences",
            micro_batch_sequences, "must be in [1, 65536]");
    require(global_batch_sequences >= 1 && global_batch_sequences <= 16'777'216, "training.global_batch_sequences",
            global_batch_sequences, "must be in [1, 16777216]");
    if (method != TrainingMethod::full)
        require(trainable_fraction > 0.0 && trainable_fraction <= 1.0, "training.trainable_fraction",
                trainable_fraction, "must be in (0, 1] for lora and qlora");
    if (method == TrainingMethod::qlora)
        require(precision == LlmPrecision::bf16, "training.precision", std::string(to_string(precision)),
                "must be bf16 for qlora (the 4-bit weights are dequantised to BF16 for each product)");
}

double training_flops_per_token(const LlmTraining& t) {
    const LlmModel& m = t.model;
    // Attention scores and their weighted sum: 2 products of s × h per token and layer, 2 FLOPs per
    // multiply-add, ×3 for forward and backward (Narayanan et al. 2021; PaLM appendix B: 12 L H Q T).
    const double attention = m.has_shape() ? 12.0 * m.layers * double(m.hidden_size) * t.sequence_length : 0.0;
    if (t.method == TrainingMethod::full) return 6.0 * m.active() + attention;
    // Frozen weights: forward 2 N, backward only the input gradients 2 N (no weight gradients); the
    // adapters train in full (6 P). Attention has no weights: its backward is unchanged.
    return 4.0 * m.active() + 6.0 * t.trainable_parameters() + attention;
}

double training_flops(const LlmTraining& t) { return training_flops_per_token(t) * t.tokens; }

TrainingMemory training_memory(const LlmTraining& t, const TrainingLayout& layout) {
    require(layout.tensor_parallel >= 1, "layout.tensor_parallel", layout.tensor_parallel, "must be >= 1");
    require(layout.data_parallel >= 1, "layout.data_parallel", layout.data_parallel, "must be >= 1");
    require(layout.pipeline_parallel >= 1 && (!t.model.has_shape() || layout.pipeline_parallel <= t.model.layers),
            "layout.pipeline_parallel", layout.pipeline_parallel, "must be in [1, layers]");
    // Tensor parallel splits each layer, pipeline stages split the layers: t × p ways for the states.
    const double tp = double(layout.tensor_parallel) * layout.pipeline_parallel, dp = layout.data_parallel;
    const Sharding s = layout.sharding;
    const double p = t.trainable_parameters() / tp;  // trained parameters per tensor-parallel rank
    TrainingMemory m;
    m.weights = 2.0 * p;
    m.gradients = 2.0 * p;
    m.optimizer = (bytes_per_trained_parameter - 4.0) * p;
    if (t.method != TrainingMethod::full) {
        const double frozen = t.model.parameters / tp;
        m.weights += frozen * (t.method == TrainingMethod::qlora ? qlora_bytes_per_parameter : 2.0);
    }
    if (s != Sharding::none) m.optimizer /= dp;
    if (s == Sharding::zero2 || s == Sharding::zero3) m.gradients /= dp;
    if (s == Sharding::zero3) m.weights /= dp;
    if (t.model.has_shape()) {
        const double sbh = double(t.sequence_length) * t.micro_batch_sequences * t.model.hidden_size;
        const double t_only = layout.tensor_parallel;  // activations are split by t only (see the header)
        const double layer = activation_values_per_layer * sbh / t_only;
        m.activations =
            t.activation_checkpointing ? t.model.layers * 2.0 * sbh / t_only + layer : t.model.layers * layer;
    }
    return m;
}

double checkpoint_bytes(const LlmTraining& t) {
    return (bytes_per_trained_parameter - 2.0) * t.trainable_parameters();
}

std::optional<TrainingLayout> smallest_training_layout(const LlmTraining& t, int gpus_per_node, double memory_gb,
                                                       double usable_fraction, int min_gpus, int max_gpus) {
    t.validate();
    require(gpus_per_node >= 1 && gpus_per_node <= 1024, "gpus_per_node", gpus_per_node, "must be in [1, 1024]");
    require_positive("memory_gb", memory_gb);
    require(usable_fraction > 0.0 && usable_fraction <= 1.0, "usable_fraction", usable_fraction, "must be in (0, 1]");
    require(min_gpus >= 0, "min_gpus", min_gpus, "must be >= 0");
    require(max_gpus >= 1 && max_gpus <= 1'048'576, "max_gpus", max_gpus, "must be in [1, 1048576]");
    const double usable = memory_gb * 1e9 * usable_fraction;
    const int heads = t.model.attention_heads > 0 ? t.model.attention_heads : gpus_per_node;
    const int first_nodes = std::max(1, (min_gpus + gpus_per_node - 1) / gpus_per_node);
    for (int nodes = first_nodes; nodes * gpus_per_node <= max_gpus; ++nodes) {
        for (int tp = 1; tp <= gpus_per_node && tp <= heads; ++tp) {
            if (gpus_per_node % tp != 0 || heads % tp != 0) continue;
            for (Sharding s : {Sharding::none, Sharding::zero1, Sharding::zero2, Sharding::zero3}) {
                const TrainingLayout layout{tp, nodes * gpus_per_node / tp, s};
                if (training_memory(t, layout).total() <= usable) return layout;
            }
        }
    }
    return std::nullopt;
}

void LlmServing::validate() const {
    model.validate("serving.model");
    require(model.has_shape(), "serving.model.layers", model.layers,
            "the model's shape (layers, hidden_size, attention_heads) is needed for the KV cache");
    require(kv_bytes_per_value > 0.0 && kv_bytes_per_value <= 4.0, "serving.kv_bytes_per_value", kv_bytes_per_value,
            "must be in (0, 4]");
    require_positive("serving.input_tokens", input_tokens);
    require_at_most("serving.input_tokens", input_tokens, 1e7);
    require_positive("serving.output_tokens", output_tokens);
    require_at_most("serving.output_tokens", output_tokens, 1e7);
    require_positive("serving.requests_per_second", requests_per_second);
    require_at_most("serving.requests_per_second", requests_per_second, 1e7);
    require_positive("serving.max_seconds_per_output_token", max_seconds_per_output_token);
    require_positive("serving.max_seconds_to_first_token", max_seconds_to_first_token);
    require(max_batch >= 1 && max_batch <= 4096, "serving.max_batch", max_batch, "must be in [1, 4096]");
}

double kv_cache_bytes_per_token(const LlmModel& m, double bytes_per_value) {
    return 2.0 * m.layers * double(m.kv_head_count()) * m.head_dim() * bytes_per_value;
}

}  // namespace gputco
