// Provider GPU names → canonical names, and the GPUs of instance types whose price files omit them.
#include "gputco/catalog/gpu_names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <iterator>
#include <utility>

namespace gputco {
namespace {

std::string upper_compact(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    }
    return out;
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// G6f and Gr6f rent a fraction of one NVIDIA L4 (24 GB): one unit is the share (gpu_share_name).
// AWS's What's New of 2026-08-06 (amazon-ecs-fractional-gpu, as public digests quote it): L4
// fractions down to 1/8 with 3 GB. Per size, the driver's product name in Karpenter's DRA instance
// table (aws/karpenter-provider-aws): g6f.large and xlarge "NVIDIA L4-3Q" (3 GB = 1/8), 2xlarge
// "L4-6Q" (1/4), 4xlarge and gr6f.4xlarge "L4-12Q" (1/2); tsaol/aws-gpu's gpuCount 0.125, 0.125,
// 0.25, 0.5, 0.5 agrees, though it names the g6f card "NVIDIA L40" (48 GB) and the gr6f one "NVIDIA L4".
// Its families are the ones sold_in_shares names for AWS.
struct AwsShare {
    std::string_view family, size, card;
    int share_of;
};
constexpr AwsShare aws_shares[] = {
    {"g6f", "large", "L4", 8},   {"g6f", "xlarge", "L4", 8},  {"g6f", "2xlarge", "L4", 4},
    {"g6f", "4xlarge", "L4", 2}, {"gr6f", "4xlarge", "L4", 2},
};

}  // namespace

std::string normalise_gpu_name(std::string_view provider_name, double memory_gib) {
    // Compare on upper-case letters and digits only, vendor words removed: "Nvidia Tesla A100" → "A100".
    std::string key = upper_compact(provider_name);
    for (std::string_view noise : {"NVIDIA", "TESLA", "AMD", "INSTINCT", "GPU"}) {
        for (std::size_t at = key.find(noise); at != std::string::npos; at = key.find(noise)) key.erase(at, noise.size());
    }
    if (key.empty()) return std::string(provider_name);
    if (key.starts_with("A100")) {
        const bool pcie = contains(key, "PCIE");
        if (contains(key, "80") || memory_gib > 60) return pcie ? "A100-80GB-PCIe" : "A100-80GB";
        return pcie ? "A100-40GB-PCIe" : "A100-40GB";  // the PCIe 40 GB card (250 W) is not the SXM4 part
    }
    if (key.starts_with("H100")) {
        // "H100 NVL" is its own card (94 GB); "H100-80G-PCIe-NVLink" (Hyperstack) is PCIe cards
        // joined by NVLink bridges, not an NVL.
        if (contains(key, "NVL") && !contains(key, "NVLINK")) return "H100-NVL";
        if (contains(key, "PCIE")) return "H100-PCIe";
        return "H100";  // SXM5; H100-MEGA (GCP a3-mega) is the same SXM card with more network
    }
    if (key.starts_with("GB200")) return "GB200";
    if (key.starts_with("B200")) return "B200";
    if (key.starts_with("B300")) return "B300";
    if (key.starts_with("RTXPRO6000")) return "RTX-PRO-6000";
    if (key.starts_with("H200")) return "H200";
    if (key == "V100" || key == "V10016GB") return memory_gib > 20 ? "V100-32GB" : "V100";
    if (key.starts_with("V100") && contains(key, "32")) return "V100-32GB";
    if (key == "V100S") return "V100S";
    static const std::array<std::pair<std::string_view, std::string_view>, 15> same{{
        {"T4", "T4"}, {"L4", "L4"}, {"A10G", "A10G"}, {"A10", "A10"}, {"L40S", "L40S"}, {"K80", "K80"},
        {"M60", "M60"}, {"P100", "P100"}, {"P4", "P4"}, {"MI300X", "MI300X"}, {"MI250X", "MI250X"},
        {"GH200", "GH200"}, {"MI325X", "MI325X"}, {"A30", "A30"}, {"L20", "L20"}}};
    for (auto [from, to] : same) {
        if (key == from) return std::string(to);
    }
    if (key == "MI25" || key == "RADEONMI25") return "MI25";  // Azure NVv4's "MI25", AMD's "Radeon Instinct MI25"
    if (key == "A6000" || key == "RTXA6000") return "RTX-A6000";
    if (key == "A5000" || key == "RTXA5000") return "RTX-A5000";  // RunPod, Vast.ai "RTXA5000"
    if (key == "A4000" || key == "RTXA4000") return "RTX-A4000";  // Paperspace "A4000", RunPod "RTXA4000"
    if (key == "A4500" || key == "RTXA4500") return "RTX-A4500";  // RunPod "RTXA4500"
    if (key == "RTX4090" || key == "GEFORCERTX4090") return "RTX-4090";
    if (key == "RTX3090" || key == "GEFORCERTX3090") return "RTX-3090";
    if (key == "RTX5090" || key == "GEFORCERTX5090") return "RTX-5090";  // Vast.ai "RTX5090"
    if (key == "L40") return "L40";  // the Ada data-centre card, not the L40S
    if (key == "RTX6000ADA" || key == "RTX6000ADAGENERATION") return "RTX-6000-Ada";
    // "RTX 6000" alone is the Turing Quadro RTX 6000 (Lambda's gpu_1x_rtx6000), a third card.
    if (key == "RTX6000" || key == "QUADRORTX6000") return "Quadro-RTX-6000";
    return std::string(provider_name);
}

std::string gpu_share_name(std::string_view card, int share_of) {
    return std::string(card) + "/" + std::to_string(share_of);
}

std::optional<GpuShare> parse_gpu_share(std::string_view gpu) {
    const std::size_t slash = gpu.rfind('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == gpu.size()) return std::nullopt;
    int n = 0;
    const std::string_view digits = gpu.substr(slash + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc{} || end != digits.data() + digits.size() || n < 2) return std::nullopt;
    return GpuShare{std::string(gpu.substr(0, slash)), n};
}

double gpu_fraction(std::string_view gpu) {
    const auto share = parse_gpu_share(gpu);
    return share ? 1.0 / share->share_of : 1.0;
}

std::optional<std::string> share_refusal(std::string_view gpu) {
    const auto share = parse_gpu_share(gpu);
    if (!share) return std::nullopt;
    return "a 1/" + std::to_string(share->share_of) + " share of one " + share->card +
           ": throughput and memory are known per whole card, and a share is never ranked as one";
}

std::optional<InstanceGpus> instance_gpus(std::string_view provider, std::string_view instance_type, double memory_gib) {
    if (provider == "aws") {
        const std::size_t dot = instance_type.find('.');
        if (dot == std::string_view::npos) return std::nullopt;
        const std::string_view family = instance_type.substr(0, dot);
        const std::string_view size = instance_type.substr(dot + 1);
        struct Family {
            std::string_view family, gpu;
        };
        // AWS accelerated-computing instance pages: the GPU model of each family.
        static constexpr Family families[] = {
            {"p2", "K80"},   {"p3", "V100"},    {"p3dn", "V100-32GB"}, {"p4d", "A100-40GB"}, {"p4de", "A100-80GB"},
            {"p5", "H100"},  {"p5e", "H200"},   {"p5en", "H200"},      {"g3", "M60"},        {"g4dn", "T4"},
            {"g5", "A10G"},  {"g6", "L4"},      {"g6e", "L40S"},       {"p6-b200", "B200"},  {"p6-b300", "B300"},
            {"p6e-gb200", "GB200"}, {"gr6", "L4"}, {"g7e", "RTX-PRO-6000"},
        };
        // Not placed: g5g (NVIDIA T4G: AWS names it apart from the T4 — accelerator names "t4g" and "t4" —
        // and no datasheet or source tying it to the T4's figures was found) and g4ad (AMD Radeon Pro V520:
        // no vendor figure of its FP16 rate, bandwidth or power at hand).
        // GPUs per size (AWS instance type pages).
        struct Size {
            std::string_view family, size;
            int gpus;
        };
        static constexpr Size sizes[] = {
            {"p2", "xlarge", 1},      {"p2", "8xlarge", 8},     {"p2", "16xlarge", 16},   {"p3", "2xlarge", 1},
            {"p3", "8xlarge", 4},     {"p3", "16xlarge", 8},    {"p3dn", "24xlarge", 8},  {"p4d", "24xlarge", 8},
            {"p4de", "24xlarge", 8},  {"p5", "48xlarge", 8},    {"p5e", "48xlarge", 8},   {"p5en", "48xlarge", 8},
            {"g3", "4xlarge", 1},     {"g3", "8xlarge", 2},     {"g3", "16xlarge", 4},    {"g4dn", "xlarge", 1},
            {"g4dn", "2xlarge", 1},   {"g4dn", "4xlarge", 1},   {"g4dn", "8xlarge", 1},   {"g4dn", "16xlarge", 1},
            {"g4dn", "12xlarge", 4},  {"g4dn", "metal", 8},     {"g5", "xlarge", 1},      {"g5", "2xlarge", 1},
            {"g5", "4xlarge", 1},     {"g5", "8xlarge", 1},     {"g5", "16xlarge", 1},    {"g5", "12xlarge", 4},
            {"g5", "24xlarge", 4},    {"g5", "48xlarge", 8},    {"g6", "xlarge", 1},      {"g6", "2xlarge", 1},
            {"g6", "4xlarge", 1},     {"g6", "8xlarge", 1},     {"g6", "16xlarge", 1},    {"g6", "12xlarge", 4},
            {"g6", "24xlarge", 4},    {"g6", "48xlarge", 8},    {"g6e", "xlarge", 1},     {"g6e", "2xlarge", 1},
            {"g6e", "12xlarge", 4},   {"g6e", "24xlarge", 4},   {"g6e", "48xlarge", 8},   {"p5", "4xlarge", 1},
            {"p6-b200", "48xlarge", 8}, {"p6-b300", "48xlarge", 8}, {"p6e-gb200", "36xlarge", 4},
            // g6e.4x/8x/16xlarge: one L40S each (torchx's AWS named resources, pull request 969, 2024-11;
            // tsaol/aws-gpu gpuCount). gr6: one L4 (AWS SDK release 1.51.15, 2024-04-04: "Gr6 instances also
            // feature NVIDIA L4 GPUs"; RAPIDS deployment docs: gr6.8xlarge 1 x L4). g7e: RTX PRO 6000
            // Blackwell Server Edition, 96 GB (dstack pull request 3752, 2026-04: 1..8 per instance), counts
            // as tsaol/aws-gpu data/all_gpu_instances.js lists them (commit 7412fd2, 2026-01-21).
            {"g6e", "4xlarge", 1},    {"g6e", "8xlarge", 1},    {"g6e", "16xlarge", 1},   {"gr6", "4xlarge", 1},
            {"gr6", "8xlarge", 1},    {"g7e", "2xlarge", 1},    {"g7e", "4xlarge", 1},    {"g7e", "8xlarge", 1},
            {"g7e", "12xlarge", 2},   {"g7e", "24xlarge", 4},   {"g7e", "48xlarge", 8},
        };
        for (const Family& f : families) {
            if (f.family != family) continue;
            for (const Size& s : sizes) {
                if (s.family == family && s.size == size) return InstanceGpus{std::string(f.gpu), s.gpus, 0, 0};
            }
        }
        for (const AwsShare& s : aws_shares) {
            if (s.family == family && s.size == size) return InstanceGpus{gpu_share_name(s.card, s.share_of), 1, 0, 0};
        }
        return std::nullopt;
    }
    if (provider == "gcp") {
        // GCP accelerator-optimized machine types: GPUs, vCPUs and memory (GiB) of each shape.
        struct Shape {
            std::string_view type, gpu;
            int gpus;
            double vcpus, memory_gib;
        };
        static constexpr Shape shapes[] = {
            {"a2-highgpu-1g", "A100-40GB", 1, 12, 85},     {"a2-highgpu-2g", "A100-40GB", 2, 24, 170},
            {"a2-highgpu-4g", "A100-40GB", 4, 48, 340},    {"a2-highgpu-8g", "A100-40GB", 8, 96, 680},
            {"a2-megagpu-16g", "A100-40GB", 16, 96, 1360}, {"a2-ultragpu-1g", "A100-80GB", 1, 12, 170},
            {"a2-ultragpu-2g", "A100-80GB", 2, 24, 340},   {"a2-ultragpu-4g", "A100-80GB", 4, 48, 680},
            {"a2-ultragpu-8g", "A100-80GB", 8, 96, 1360},  {"a3-highgpu-8g", "H100", 8, 208, 1872},
            {"a3-megagpu-8g", "H100", 8, 208, 1872},       {"a3-highgpu-1g", "H100", 1, 26, 234},
            {"a3-highgpu-2g", "H100", 2, 52, 468},         {"a3-highgpu-4g", "H100", 4, 104, 936},
            {"a3-edgegpu-8g", "H100", 8, 208, 1872},       {"a3-ultragpu-8g", "H200", 8, 224, 2952},
            {"a4-highgpu-8g", "B200", 8, 224, 3968},       {"a4x-highgpu-4g", "GB200", 4, 140, 884},
            {"g4-standard-48", "RTX-PRO-6000", 1, 48, 180}, {"g4-standard-96", "RTX-PRO-6000", 2, 96, 360},
            {"g4-standard-192", "RTX-PRO-6000", 4, 192, 720}, {"g4-standard-384", "RTX-PRO-6000", 8, 384, 1440},
            {"g2-standard-4", "L4", 1, 4, 16},
            {"g2-standard-8", "L4", 1, 8, 32},             {"g2-standard-12", "L4", 1, 12, 48},
            {"g2-standard-16", "L4", 1, 16, 64},           {"g2-standard-24", "L4", 2, 24, 96},
            {"g2-standard-32", "L4", 1, 32, 128},          {"g2-standard-48", "L4", 4, 48, 192},
            {"g2-standard-96", "L4", 8, 96, 384},
        };
        for (const Shape& s : shapes) {
            if (s.type == instance_type) return InstanceGpus{std::string(s.gpu), s.gpus, s.vcpus, s.memory_gib};
        }
    }
    if (provider == "azure") {
        // Azure GPU VM size pages: the GPUs of each size (the NV A10 v5 shares are written as shares in the
        // price files and read from there; the NVv4 ones are below).
        struct Size {
            std::string_view size, gpu;
            int gpus;
        };
        static constexpr Size sizes[] = {
            {"Standard_NC24ads_A100_v4", "A100-80GB-PCIe", 1}, {"Standard_NC48ads_A100_v4", "A100-80GB-PCIe", 2},
            {"Standard_NC96ads_A100_v4", "A100-80GB-PCIe", 4}, {"Standard_ND96asr_v4", "A100-40GB", 8},
            {"Standard_ND96amsr_A100_v4", "A100-80GB", 8},     {"Standard_ND96isr_H100_v5", "H100", 8},
            {"Standard_ND96isr_H200_v5", "H200", 8},           {"Standard_NC40ads_H100_v5", "H100-NVL", 1},
            {"Standard_NC80adis_H100_v5", "H100-NVL", 2},      {"Standard_NC4as_T4_v3", "T4", 1},
            {"Standard_NC8as_T4_v3", "T4", 1},                 {"Standard_NC16as_T4_v3", "T4", 1},
            {"Standard_NC64as_T4_v3", "T4", 4},                {"Standard_NC6s_v3", "V100-PCIe", 1},
            {"Standard_NC12s_v3", "V100-PCIe", 2},             {"Standard_NC24s_v3", "V100-PCIe", 4},
            {"Standard_NC24rs_v3", "V100-PCIe", 4},            {"Standard_ND40rs_v2", "V100-32GB", 8},
            {"Standard_NV36ads_A10_v5", "A10", 1},             {"Standard_NV72ads_A10_v5", "A10", 2},
            {"Standard_ND96is_MI300X_v5", "MI300X", 8},        {"Standard_ND96isr_MI300X_v5", "MI300X", 8},
            {"Standard_ND128isr_NDR_GB200_v6", "GB200", 4}, {"Standard_NV32as_v4", "MI25", 1},
        };
        for (const Size& s : sizes) {
            if (s.size == instance_type) return InstanceGpus{std::string(s.gpu), s.gpus, 0, 0};
        }
        // NVv4 sizes rent part of one AMD Radeon Instinct MI25 (Microsoft's NVv4-series size table,
        // MicrosoftDocs/azure-docs articles/virtual-machines/nvv4-series.md, 2020-02-03: GPU 1/8, 1/4, 1/2, 1
        // with 2, 4, 8, 16 GiB); the price files write one whole MI25 for each, so the share is this table's.
        struct Share {
            std::string_view size, card;
            int share_of;
        };
        static constexpr Share shares[] = {
            {"Standard_NV4as_v4", "MI25", 8}, {"Standard_NV8as_v4", "MI25", 4}, {"Standard_NV16as_v4", "MI25", 2},
        };
        for (const Share& s : shares) {
            if (s.size == instance_type) return InstanceGpus{gpu_share_name(s.card, s.share_of), 1, 0, 0};
        }
    }
    if (provider == "tencent") {
        // Tencent Cloud GPU computing instance types (cloud.tencent.com/document/product/560/19701): the
        // card of each family. The SkyPilot-format file writes "V100" with no memory, but GN10X and GN10Xp
        // carry the V100 NVLink 32 GB; GT4 carries the A100 NVLink 40 GB. Sizes are many and the price
        // file gives each one's count, so the count here is 0: the file's stands.
        struct Family {
            std::string_view family, gpu;
        };
        static constexpr Family families[] = {
            {"GN10X", "V100-32GB"}, {"GN10Xp", "V100-32GB"}, {"GT4", "A100-40GB"}, {"GN7", "T4"},
            {"GN7vi", "T4"},        {"GI3X", "T4"},          {"GNV4", "A10"},      {"PNV4", "A10"},
        };
        const std::string_view family = instance_type.substr(0, instance_type.find('.'));
        for (const Family& f : families) {
            if (f.family == family) return InstanceGpus{std::string(f.gpu), 0, 0, 0};
        }
        return std::nullopt;
    }
    if (provider == "vast") {
        // Vast.ai types are "<n>x-<card>-<vCPUs>-<MiB>"; the card names a variant the GPU column does not
        // ("H100_NVL", "A100_PCIE" are written "H100", "A100"). Only such variants are placed here.
        const std::size_t x = instance_type.find("x-");
        if (x == std::string_view::npos) return std::nullopt;
        int count = 0;
        const auto [end, ec] = std::from_chars(instance_type.data(), instance_type.data() + x, count);
        if (ec != std::errc{} || end != instance_type.data() + x || count < 1) return std::nullopt;
        const std::string_view rest = instance_type.substr(x + 2);
        const std::string card(rest.substr(0, rest.find('-')));
        if (!contains(card, "NVL") && !contains(card, "PCIE")) return std::nullopt;
        std::string gpu = normalise_gpu_name(card, memory_gib);
        if (contains(card, "PCIE") && !gpu.ends_with("PCIe")) gpu += "-PCIe";  // a PCIe card is never the SXM part
        return InstanceGpus{gpu, count, 0, 0};
    }
    if (provider == "lambda") {
        // lambda.ai/instances: the one type whose file name ("H100", 80 GB) is not the card (PCIe, not SXM5).
        if (instance_type == "gpu_1x_h100_pcie") return InstanceGpus{"H100-PCIe", 1, 0, 0};
    }
    if (provider == "runpod") {
        // "<n>x_<card>_<SECURE|COMMUNITY>": RunPod sells "A100-80GB" and "H100" beside "A100-80GB-SXM",
        // "H100-SXM" and "H100-NVL"; the plain names are the PCIe cards (SkyPilot's v8 RunPod catalog
        // writes them "A100 PCIe", "H100 PCIe").
        const std::size_t x = instance_type.find("x_");
        const std::size_t tail = instance_type.rfind('_');
        int count = 0;
        if (x == std::string_view::npos || tail <= x + 2) return std::nullopt;
        const auto [end, ec] = std::from_chars(instance_type.data(), instance_type.data() + x, count);
        if (ec != std::errc{} || end != instance_type.data() + x || count < 1) return std::nullopt;
        const std::string_view card = instance_type.substr(x + 2, tail - x - 2);
        if (card == "A100-80GB") return InstanceGpus{"A100-80GB-PCIe", count, 0, 0};
        if (card == "H100") return InstanceGpus{"H100-PCIe", count, 0, 0};
    }
    return std::nullopt;
}

bool sold_in_shares(std::string_view provider, std::string_view instance_type) {
    if (provider == "aws") {
        const std::string_view family = instance_type.substr(0, instance_type.find('.'));
        return std::any_of(std::begin(aws_shares), std::end(aws_shares),
                           [&](const AwsShare& s) { return s.family == family; });
    }
    if (provider == "azure") return instance_type.starts_with("Standard_NV") && instance_type.ends_with("as_v4");
    return false;
}

}  // namespace gputco
