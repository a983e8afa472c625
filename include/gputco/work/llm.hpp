#pragma once
// Large language model jobs described by their arithmetic rather than by a benchmark row: a model
// (parameters, dense or mixture of experts, and its shape when known), tokens, sequence length and
// precision. FLOPs, memory per GPU and layouts follow from formulas stated with their sources in
// docs/models.md ("LLM training and serving"); hours follow from a GPU's peak FLOPs and an achieved
// model FLOPs utilisation (llm_gpus.hpp), costs from an offering (engines/llm_cost.hpp).
//
//   const LlmModel llama70b{.name = "Llama 3 70B", .parameters = 70.6e9, .layers = 80, .hidden_size = 8192,
//                           .attention_heads = 64, .kv_heads = 8};
//   const LlmTraining tune{.model = llama70b, .tokens = 2e9, .sequence_length = 4096,
//                          .method = TrainingMethod::lora};
//   training_flops(tune);                       // (4 N + 6 P + 12 L h s) × D
//   smallest_training_layout(tune, 8, 80, 0.9); // whole 8-GPU nodes, tensor parallel within a node
#include <optional>
#include <string>
#include <string_view>

#include "gputco/core/enum_text.hpp"
#include "gputco/core/error.hpp"

namespace gputco {

/// The number format of the matrix products (and, for serving, of the weights).
enum class LlmPrecision { bf16, fp8, fp4 };
template <>
struct EnumText<LlmPrecision> {
    static constexpr std::array<EnumName<LlmPrecision>, 3> names{{
        {LlmPrecision::bf16, "bf16"},
        {LlmPrecision::fp8, "fp8"},
        {LlmPrecision::fp4, "fp4"},
    }};
    static constexpr std::array<EnumName<LlmPrecision>, 1> aliases{{{LlmPrecision::bf16, "fp16"}}};
};
inline std::string_view to_string(LlmPrecision p) { return to_text(p); }
/// Bytes of one stored weight: 2 (BF16/FP16), 1 (FP8), 0.5 (FP4).
double bytes_per_weight(LlmPrecision precision);

/// A decoder-only transformer. The shape (layers, hidden size, heads) is optional for FLOPs (without
/// it the attention term is left out) and needed for activation and KV-cache memory.
struct LlmModel {
    std::string name;
    double parameters = 0;         ///< N: all parameters, > 0 (a mixture of experts: all experts)
    double active_parameters = 0;  ///< used per token (mixture of experts); 0 = dense, i.e. = parameters
    int layers = 0;                ///< L; 0 = shape not given
    int hidden_size = 0;           ///< h (d_model)
    int attention_heads = 0;       ///< a
    int kv_heads = 0;              ///< key/value heads (grouped-query attention); 0 = attention_heads

    double active() const { return active_parameters > 0 ? active_parameters : parameters; }
    bool has_shape() const { return layers > 0; }
    int head_dim() const { return attention_heads > 0 ? hidden_size / attention_heads : 0; }
    int kv_head_count() const { return kv_heads > 0 ? kv_heads : attention_heads; }
    /// Throws InvalidInput naming `field`.<member>, e.g. "training.model.parameters = 0: must be finite and > 0".
    void validate(std::string_view field = "model") const;
};

/// full: every weight trained (pre-training or a full fine-tune); lora: low-rank adapters on a frozen
/// BF16 model (Hu et al. 2021); qlora: the same on a 4-bit NF4 frozen model (Dettmers et al. 2023).
enum class TrainingMethod { full, lora, qlora };
template <>
struct EnumText<TrainingMethod> {
    static constexpr std::array<EnumName<TrainingMethod>, 3> names{{
        {TrainingMethod::full, "full"},
        {TrainingMethod::lora, "lora"},
        {TrainingMethod::qlora, "qlora"},
    }};
};
inline std::string_view to_string(TrainingMethod m) { return to_text(m); }

/// Bytes per parameter of a QLoRA model's frozen NF4 weights: 4 bits plus 0.127 bits of double-quantised
/// constants (Dettmers et al. 2023, section 3).
inline constexpr double qlora_bytes_per_parameter = (4.0 + 0.127) / 8.0;

struct LlmTraining {
    std::string name;
    LlmModel model;
    double tokens = 0;            ///< D: tokens processed, > 0 (epochs × dataset tokens)
    int sequence_length = 4096;   ///< s
    LlmPrecision precision = LlmPrecision::bf16;
    TrainingMethod method = TrainingMethod::full;
    /// lora/qlora: adapter parameters P as a share of N (rank-16 adapters on every projection of a
    /// 70B model are about 0.3%); ignored for full.
    double trainable_fraction = 0.005;
    bool activation_checkpointing = true;  ///< store only each layer's input, recompute the rest
    int micro_batch_sequences = 1;         ///< b: sequences per GPU per micro-batch
    /// Sequences per optimizer step across all replicas: sets the micro-batches a pipeline fills and how
    /// often gradients are exchanged (llm_scaling.hpp). 256 × 4,096 tokens is 1M tokens a step, an
    /// assumption of the fine-tuning scale; pre-training runs use a few million (Llama 3: 4M-16M).
    int global_batch_sequences = 256;

    /// P: adapter parameters (lora/qlora), or N (full).
    double trainable_parameters() const {
        return method == TrainingMethod::full ? model.parameters : trainable_fraction * model.parameters;
    }
    /// Throws InvalidInput naming the first field that breaks its rule, e.g.
    /// "training.tokens = 0: must be finite and > 0".
    void validate() const;
};

/// Model FLOPs per token (no recomputation counted: MFU is defined on these):
///   full:       6 N_active + 12 L h s
///   lora/qlora: 4 N_active + 6 P + 12 L h s   (the frozen weights need no weight gradients)
/// The attention term is 0 when the shape is not given.
double training_flops_per_token(const LlmTraining& training);
/// training_flops_per_token × tokens.
double training_flops(const LlmTraining& training);

/// How the optimizer state, gradients and weights are split across the data-parallel GPUs
/// (Rajbhandari et al. 2020): none (plain data parallel), ZeRO-1 (optimizer), ZeRO-2 (+ gradients),
/// ZeRO-3 (+ weights; PyTorch FSDP's full sharding is the same split).
enum class Sharding { none, zero1, zero2, zero3 };
template <>
struct EnumText<Sharding> {
    static constexpr std::array<EnumName<Sharding>, 4> names{{
        {Sharding::none, "none"},
        {Sharding::zero1, "zero1"},
        {Sharding::zero2, "zero2"},
        {Sharding::zero3, "zero3"},
    }};
    static constexpr std::array<EnumName<Sharding>, 1> aliases{{{Sharding::zero3, "fsdp"}}};
};
inline std::string_view to_string(Sharding s) { return to_text(s); }

struct TrainingLayout {
    int tensor_parallel = 1;  ///< t: GPUs splitting each layer (within one node), with sequence parallelism
    int data_parallel = 1;    ///< d: replicas
    Sharding sharding = Sharding::none;
    int pipeline_parallel = 1;  ///< p: stages, each holding L / p consecutive layers (1F1B schedule)
    int gpus() const { return tensor_parallel * pipeline_parallel * data_parallel; }
    bool operator==(const TrainingLayout&) const = default;
};

/// Bytes held by each GPU during training.
struct TrainingMemory {
    double weights = 0, gradients = 0, optimizer = 0, activations = 0;
    double total() const { return weights + gradients + optimizer + activations; }
};

/// Memory per GPU (docs/models.md): trained parameters take 2 B (BF16 weights) + 2 B (gradients) +
/// 12 B (FP32 master weights, Adam's two moments) each, 16 B in all; frozen weights 2 B (lora) or
/// qlora_bytes_per_parameter. All of it is split t ways by tensor parallelism, then d ways by the
/// sharding; pipeline stages split the layers' weights, gradients and optimizer state p ways too.
/// Activations per layer and micro-batch, 2-byte values with sequence parallelism and
/// FlashAttention (Korthikanti et al. 2022, without the 5 a s / h score term): 34 s b h / t; with
/// activation checkpointing 2 s b h / t per layer kept plus one layer's 34 s b h / t being recomputed.
/// A 1F1B pipeline's first stage holds p micro-batches in flight over L / p layers: L layers' worth, so
/// the activations do not shrink with p (Korthikanti et al. 2022, section 4.2.3).
TrainingMemory training_memory(const LlmTraining& training, const TrainingLayout& layout);

/// Bytes of a checkpoint: trained parameters × 14 B (BF16 weights, FP32 master weights and Adam
/// moments; gradients are not saved). A LoRA checkpoint holds only the adapters.
double checkpoint_bytes(const LlmTraining& training);

/// The smallest layout that fits on whole nodes of `gpus_per_node` GPUs of `memory_gb` each, of which
/// `usable_fraction` is available to the job: the fewest nodes (at least ceil(min_gpus / gpus_per_node)),
/// then the smallest tensor parallel degree (a divisor of gpus_per_node, at most the head count), then
/// the lightest sharding. std::nullopt if nothing fits within max_gpus. Pipeline stages are not
/// searched: in this memory model ZeRO-3 over the same GPUs holds the same states with no bubble; a
/// pipeline pays off in communication, which training_step (llm_scaling.hpp) prices for a given layout.
std::optional<TrainingLayout> smallest_training_layout(const LlmTraining& training, int gpus_per_node,
                                                       double memory_gb, double usable_fraction,
                                                       int min_gpus = 0, int max_gpus = 65'536);

/// An inference service: a model served at a request rate under latency targets.
struct LlmServing {
    std::string name;
    LlmModel model;                               ///< the shape is required (KV cache)
    LlmPrecision precision = LlmPrecision::bf16;  ///< weights and matrix products
    double kv_bytes_per_value = 2;                ///< KV-cache element size: 2 (BF16) or 1 (FP8)
    double input_tokens = 1000;                   ///< per request, > 0
    double output_tokens = 200;                   ///< per request, > 0
    double requests_per_second = 1;               ///< > 0
    double max_seconds_per_output_token = 0.05;   ///< latency target of one decode step, > 0
    double max_seconds_to_first_token = 2;        ///< prefill latency target, > 0
    int max_batch = 256;                          ///< sequences decoded together, in [1, 4096]

    void validate() const;
};

/// KV cache per token: 2 (K and V) × layers × kv_heads × head_dim × bytes per value.
double kv_cache_bytes_per_token(const LlmModel& model, double bytes_per_value);

}  // namespace gputco
