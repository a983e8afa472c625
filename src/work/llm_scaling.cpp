// Pipeline bubbles, gradient all-reduce and the links each offering's GPUs have (docs/models.md,
// "Pipelines and multi-node scaling"). Every bandwidth row names its source and date.
#include "gputco/work/llm_scaling.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "gputco/core/error.hpp"

namespace gputco {

namespace {

/// NVLink (AMD: Infinity Fabric) per GPU, one direction: half the datasheet's bidirectional total.
struct NvlinkRow {
    std::string_view gpu;
    double gb_per_second;
    std::string_view source;
};
constexpr NvlinkRow nvlink_rows[] = {
    {"A100-40GB", 300, "NVLink 3, 600 GB/s bidirectional (NVIDIA A100 datasheet, 2021-06)"},
    {"A100-80GB", 300, "NVLink 3, 600 GB/s bidirectional (NVIDIA A100 datasheet, 2021-06)"},
    {"H100", 450, "NVLink 4, 900 GB/s bidirectional (NVIDIA H100 datasheet, 2023)"},
    {"H200", 450, "NVLink 4, 900 GB/s bidirectional (NVIDIA H200 datasheet, 2024)"},
    {"B200", 900, "NVLink 5, 1.8 TB/s bidirectional (NVIDIA HGX B200 datasheet, 2024)"},
    {"MI300X", 448, "Infinity Fabric, 896 GB/s peer bidirectional (AMD Instinct MI300X datasheet, 2023-12)"},
};

/// Scale-out network of an instance type, Gbit/s per instance (one direction).
struct NetworkRow {
    std::string_view provider, instance_type;
    double gbit_per_instance;
    std::string_view source;
};
constexpr NetworkRow network_rows[] = {
    {"aws", "p4d.24xlarge", 400, "EFA 400 Gbit/s per instance (AWS EC2 P4d instances page, 2020-11)"},
    {"aws", "p4de.24xlarge", 400, "EFA 400 Gbit/s per instance (AWS EC2 P4 instances page, 2022)"},
    {"aws", "p5.48xlarge", 3200, "EFA 3,200 Gbit/s per instance (AWS EC2 P5 instances page, 2023-07)"},
    {"aws", "p5en.48xlarge", 3200, "EFAv3 3,200 Gbit/s per instance (AWS EC2 P5en instances page, 2024)"},
    {"azure", "Standard_ND96asr_v4", 1600, "HDR InfiniBand 200 Gbit/s per GPU (Microsoft Learn, ND A100 v4 series, 2021)"},
    {"azure", "Standard_ND96amsr_A100_v4", 1600,
     "HDR InfiniBand 200 Gbit/s per GPU (Microsoft Learn, NDm A100 v4 series, 2021)"},
    {"azure", "Standard_ND96isr_H100_v5", 3200,
     "NDR InfiniBand 400 Gbit/s per GPU (Microsoft Learn, ND H100 v5 series, 2023)"},
    {"azure", "Standard_ND96isr_H200_v5", 3200,
     "NDR InfiniBand 400 Gbit/s per GPU (Microsoft Learn, ND H200 v5 series, 2024)"},
    {"azure", "Standard_ND96is_MI300X_v5", 3200,
     "NDR InfiniBand 400 Gbit/s per GPU (Microsoft Learn, ND MI300X v5 series, 2024)"},
    {"nebius", "gpu-h100-sxm_8gpu-128vcpu-1600gb", 3200, "InfiniBand 3.2 Tbit/s per host (Nebius AI Cloud docs, 2024)"},
    {"nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb", 3200, "InfiniBand 3.2 Tbit/s per host (Nebius AI Cloud docs, 2024)"},
    {"nebius", "gpu-b200-sxm_8gpu-160vcpu-1792gb", 3200, "InfiniBand 3.2 Tbit/s per host (Nebius AI Cloud docs, 2025)"},
};

}  // namespace

double pipeline_bubble_fraction(int stages, int micro_batches) {
    require(stages >= 1, "pipeline.stages", stages, "must be >= 1");
    require(micro_batches >= 1, "pipeline.micro_batches", micro_batches, "must be >= 1");
    return double(stages - 1) / double(micro_batches + stages - 1);
}

double allreduce_seconds(double bytes, int replicas, double gb_per_second) {
    require_non_negative("allreduce.bytes", bytes);
    require(replicas >= 1, "allreduce.replicas", replicas, "must be >= 1");
    if (replicas == 1) return 0.0;
    require_positive("allreduce.gb_per_second", gb_per_second);
    return 2.0 * (replicas - 1) / replicas * bytes / (gb_per_second * 1e9);
}

GpuLinks links_of(const Offering& o) {
    GpuLinks links;
    std::string nvlink = "no NVLink listed (PCIe)";
    for (const NvlinkRow& r : nvlink_rows)
        if (r.gpu == o.gpu) {
            links.nvlink_gb_per_second = r.gb_per_second;
            nvlink = fmt::format("NVLink {:g} GB/s per GPU: {}", r.gb_per_second, r.source);
        }
    std::string network;
    for (const NetworkRow& r : network_rows)
        if (r.provider == o.provider && r.instance_type == o.instance_type) {
            links.network_gb_per_second = r.gbit_per_instance / 8.0 / o.gpus_per_instance;
            links.network_listed = true;
            network = fmt::format("network {:g} GB/s per GPU: {}", links.network_gb_per_second, r.source);
        }
    if (!links.network_listed) {
        links.network_gb_per_second = unlisted_network_gbit_per_instance / 8.0 / o.gpus_per_instance;
        network = fmt::format("network {:g} GB/s per GPU: no cluster network listed, {:g} Gbit/s Ethernet per "
                              "instance assumed",
                              links.network_gb_per_second, unlisted_network_gbit_per_instance);
    }
    links.basis = nvlink + "; " + network;
    return links;
}

StepTime training_step(const LlmTraining& t, const TrainingLayout& layout, double achieved_flops_per_gpu,
                       double gb_per_second) {
    require_positive("achieved_flops_per_gpu", achieved_flops_per_gpu);
    StepTime step;
    const double step_tokens = double(t.global_batch_sequences) * t.sequence_length;
    step.compute_seconds = step_tokens * training_flops_per_token(t) / (layout.gpus() * achieved_flops_per_gpu);
    const int micro_batches =
        std::max(1, t.global_batch_sequences / (layout.data_parallel * t.micro_batch_sequences));
    step.bubble_fraction = pipeline_bubble_fraction(layout.pipeline_parallel, micro_batches);
    const double split = double(layout.tensor_parallel) * layout.pipeline_parallel;
    const double gradient_bytes = 2.0 * t.trainable_parameters() / split;
    const int n = layout.data_parallel;
    if (n == 1) return step;
    if (layout.sharding != Sharding::zero3) {
        step.allreduce_seconds = allreduce_seconds(gradient_bytes, n, gb_per_second);
        return step;
    }
    // ZeRO-3: the gradients reduce-scattered once ((n − 1)/n × bytes) and every weight, frozen ones
    // included, all-gathered for the forward and again for the backward pass.
    const double frozen = t.method == TrainingMethod::full ? 0.0
                          : t.model.parameters * (t.method == TrainingMethod::qlora ? qlora_bytes_per_parameter : 2.0);
    const double weight_bytes = (2.0 * t.trainable_parameters() + frozen) / split;
    require_positive("allreduce.gb_per_second", gb_per_second);
    step.allreduce_seconds = double(n - 1) / n * (gradient_bytes + 2.0 * weight_bytes) / (gb_per_second * 1e9);
    return step;
}

double scaling_factor(const LlmTraining& t, const TrainingLayout& layout, int gpus_per_instance,
                      double achieved_flops_per_gpu, const GpuLinks& links) {
    // Within one instance the replicas exchange over NVLink (PCIe when none is listed: the network
    // figure stands in); across instances the slowest hop, each GPU's share of the network, sets it.
    const bool one_instance = layout.gpus() <= gpus_per_instance;
    const double within = links.nvlink_gb_per_second > 0 ? links.nvlink_gb_per_second : links.network_gb_per_second;
    const double here = one_instance ? within : links.network_gb_per_second;
    const double reference = one_instance ? within : reference_network_gb_per_second;
    // A fabric faster than the reference is not assumed to beat the measured MFU.
    return std::min(1.0, training_step(t, layout, achieved_flops_per_gpu, here).efficiency() /
                             training_step(t, layout, achieved_flops_per_gpu, reference).efficiency());
}

}  // namespace gputco
