#pragma once
// How an LLM training run scales beyond one GPU: the pipeline's bubble, the gradient all-reduce over
// the links an offering has (NVLink within an instance, InfiniBand/EFA between instances), and the
// share of step time left for compute. Formulas and sources in docs/models.md ("Pipelines and
// multi-node scaling").
//
//   pipeline_bubble_fraction(8, 64);                  // 7 / 71: idle share of each step
//   allreduce_seconds(5.5e9, 168, 50);                // ring: 2 (n − 1)/n × bytes / (GB/s × 1e9)
//   links_of(offering, "H100");                       // NVLink 450 GB/s, EFA 50 GB/s per GPU, with sources
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/work/llm.hpp"

namespace gputco {

/// Idle share of a pipeline's step: (p − 1) / (m + p − 1) for p stages and m micro-batches per step
/// (the fill and drain of a GPipe or 1F1B schedule: Huang et al. 2019; Narayanan et al. 2021,
/// section 2.2.1, whose (p − 1)/m is the same bubble relative to the ideal time). 0 for p = 1.
double pipeline_bubble_fraction(int stages, int micro_batches);

/// Seconds of a ring all-reduce of `bytes` over `replicas` GPUs, each sending and receiving
/// 2 (n − 1)/n × bytes through a link of `gb_per_second` (one direction): Patarasuk and Yuan 2009;
/// NCCL's "bus bandwidth" is the same factor. 0 for one replica.
double allreduce_seconds(double bytes, int replicas, double gb_per_second);

/// The links one GPU of an offering has, each figure with its source: NVLink (or AMD Infinity
/// Fabric) within an instance, and the scale-out network between instances, both per GPU and one
/// direction, in GB/s.
struct GpuLinks {
    double nvlink_gb_per_second = 0;   ///< 0: none listed (PCIe only)
    double network_gb_per_second = 0;  ///< between instances
    bool network_listed = false;       ///< false: network_gb_per_second is the stated assumption
    std::string basis;                 ///< "NVLink 450 GB/s (source, date); EFA 50 GB/s (source, date)"
};

/// Network per GPU assumed for an offering whose cluster network is not in the table: 100 Gbit/s
/// Ethernet per instance shared by its GPUs (an assumption, said in each row's basis).
inline constexpr double unlisted_network_gbit_per_instance = 100;
/// The scale-out fabric the MFU rows were measured on: 400 Gbit/s per GPU (Llama 3's RoCE and
/// InfiniBand clusters; Meta, The Llama 3 Herd of Models, section 3.3.1, 2024-07).
inline constexpr double reference_network_gb_per_second = 50;

/// The links of `offering`'s GPUs: NVLink by GPU model, the network by provider and instance type.
GpuLinks links_of(const Offering& offering);

/// Seconds per optimizer step of one layout, split into what the row's hours rest on.
struct StepTime {
    double compute_seconds = 0;     ///< model FLOPs of the step / (GPUs × peak × MFU)
    double bubble_fraction = 0;     ///< pipeline idle share
    double allreduce_seconds = 0;   ///< gradient exchange across the data-parallel replicas, not overlapped
    double seconds() const { return compute_seconds / (1 - bubble_fraction) + allreduce_seconds; }
    double efficiency() const { return compute_seconds / seconds(); }
};

/// One step of `training` on `layout` at `achieved_flops_per_gpu` (peak × MFU), with gradients exchanged
/// over `gb_per_second` per GPU. Gradients are BF16 (2 B per trained parameter), split t × p ways and
/// all-reduced; ZeRO-3 instead reduce-scatters them and all-gathers the weights (frozen ones included)
/// twice, (n − 1)/n × (gradients + 2 × weights): 1.5 × the all-reduce for full training (Rajbhandari et
/// al. 2020, section 7), far more for a LoRA run whose frozen weights are sharded. The exchange is counted
/// as not overlapped with compute: an upper bound on what it costs.
StepTime training_step(const LlmTraining& training, const TrainingLayout& layout, double achieved_flops_per_gpu,
                       double gb_per_second);

/// The share of the MFU row's speed a layout keeps on `links`: step efficiency over these links over
/// the same layout's on the fabric the MFU was measured on (the network reference_network_gb_per_second
/// when the layout spans instances, the same NVLink within one). 1 within one instance; < 1 on a network
/// slower than the reference.
double scaling_factor(const LlmTraining& training, const TrainingLayout& layout, int gpus_per_instance,
                      double achieved_flops_per_gpu, const GpuLinks& links);

}  // namespace gputco
