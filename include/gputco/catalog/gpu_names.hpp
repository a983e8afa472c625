#pragma once
// One name per GPU model across providers: AWS, Azure, GCP and SkyPilot spell the same card
// differently ("A100", "a100", "Nvidia Tesla A100", "A100-80GB", "nvidia-tesla-a100"), and the
// instance family often is the only hint (AWS p4d = A100 40 GB SXM4). The canonical names are
// GpuSpec names of the built-in catalog ("A100-40GB", "A100-80GB", "H100", "L4", ...).
#include <optional>
#include <string>
#include <string_view>

namespace gputco {

/// The canonical name of a provider's GPU name, e.g. "A100" → "A100-40GB", "Nvidia Tesla T4" → "T4",
/// "a100-80gb" → "A100-80GB", "H100-MEGA" → "H100". `memory_gib` (0 = unknown) tells A100 40 GB from
/// 80 GB where the name does not. Names it does not know are returned unchanged.
std::string normalise_gpu_name(std::string_view provider_name, double memory_gib = 0);

/// A share of one GPU (a VM with 1/n of a card, e.g. Azure's NV12ads_A10_v5 with a third of an A10) is
/// an offering of its own unit: its `gpu` is "<card>/<n>" ("A10/3") and gpus_per_instance counts
/// those units, so prices per unit-hour stay honest (a third of an A10 is not an A10) and nothing that
/// needs the card's throughput or memory mistakes it for a whole card.
std::string gpu_share_name(std::string_view card, int share_of);
/// The card and n of a share name ("A10/3" → {"A10", 3}); nullopt for a whole GPU's name.
struct GpuShare {
    std::string card;
    int share_of = 0;
};
std::optional<GpuShare> parse_gpu_share(std::string_view gpu);
/// The GPUs one unit of `gpu` is: 1/n for a share "<card>/<n>", 1 for a whole GPU. A share's
/// GPU-hours are fraction × its hours, so its price per GPU-hour is its price per share-hour / fraction.
double gpu_fraction(std::string_view gpu);
/// Why a ranking of work per GPU (training throughput, LLM layouts) leaves out an offering of a
/// share, e.g. "a 1/3 share of one A10: throughput and memory are known per whole card, and a share is
/// never ranked as one"; nullopt for a whole GPU. The rankings list it among the skipped.
std::optional<std::string> share_refusal(std::string_view gpu);

/// The GPU model and count of a cloud instance type whose price file does not name its GPU:
/// AWS families (p3, p3dn, p4d, p4de, p5, p5e, p5en, p6-b200, p6-b300, p6e-gb200, g4dn, g5, g6, g6e, p2,
/// g3, gr6, g7e; g6f and gr6f rent a share of one L4: gpu "L4/8", "L4/4" or "L4/2", count 1), GCP machine
/// types (a2-highgpu-Ng, a2-ultragpu-Ng, a2-megagpu-16g, a3-highgpu-Ng, a3-edgegpu-8g, a3-megagpu-8g,
/// a3-ultragpu-8g, a4-highgpu-8g, a4x-highgpu-4g, g2-standard-N, g4-standard-N) and Azure sizes (NC A100
/// v4, ND A100 v4, ND H100/H200 v5, NC H100 v5, NC T4 v3, NCv3, NDv2, NV A10 v5, ND MI300X v5, ND GB200
/// v6; NVv4 rents 1/8, 1/4 or 1/2 of one MI25, or a whole one: "MI25/8", "MI25/4", "MI25/2", "MI25"),
/// and the RunPod and Lambda types whose file names the card ambiguously (RunPod "<n>x_A100-80GB_..."
/// and "<n>x_H100_..." are PCIe cards).
/// Tencent's families (GN10X, GN10Xp = V100 32 GB, GT4 = A100 40 GB, GN7, GN7vi, GI3X = T4, GNV4,
/// PNV4 = A10) give the card only: count 0, the price file's count stands.
/// The count is from the provider's instance documentation; nullopt when the type is not known.
struct InstanceGpus {
    std::string gpu;  ///< canonical name
    int count = 0;    ///< 0: the family names the card, not the count (Tencent)
    double vcpus = 0;       ///< GCP machine shape (for joining per-vCPU and per-GiB SKUs); 0 for AWS
    double memory_gib = 0;  ///< GCP machine shape
};
/// `memory_gib`: one card's memory as the price file gives it (0: unknown), for types whose name gives the
/// variant but not the memory (Vast.ai's "A100_PCIE" is the 40 GB or the 80 GB card).
std::optional<InstanceGpus> instance_gpus(std::string_view provider, std::string_view instance_type,
                                          double memory_gib = 0);

/// Whether `instance_type` is of a family that rents shares of one GPU whose price files may write a
/// whole card for every size (Azure NVv4 "Standard_NV<n>as_v4", AWS g6f and gr6f). A size of such a
/// family that instance_gpus does not know has an unknown share: importers report it, never taking it
/// for a whole card.
bool sold_in_shares(std::string_view provider, std::string_view instance_type);

}  // namespace gputco
