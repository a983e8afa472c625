// The catalog-to-benchmark GPU table (see gpu_match.hpp). Each proxy says what differs.
#include "gputco/work/gpu_match.hpp"

namespace gputco {

const std::vector<GpuMatch>& builtin_gpu_matches() {
    using enum MatchKind;
    static const std::vector<GpuMatch> table{
        {"A100-40GB", proxy, "A100 80GB SXM4",
         "the catalog's A100 40GB is the SXM4 part (p4d, ND96asr_v4, a2-highgpu), never benchmarked; the "
         "A100 80GB SXM4 rows are taken: same chip, clocks and 400 W, but 1,555 vs 2,039 GB/s, so "
         "memory-bound models run up to a few per cent slower than shown (the only 40GB row, PCIe at "
         "250 W, is 1-GPU only and 12% slower on ResNet-50)"},
        {"A100-80GB", measured, "A100 80GB SXM4", ""},
        {"A100-80GB-PCIe", measured, "A100 80GB PCIe", ""},
        {"H100", measured, "H100 80GB SXM5", ""},
        {"H100-NVL", none, "", "H100 NVL (94 GB, 400 W) was not benchmarked; the H100 PCIe rows are a different card"},
        {"H100-PCIe", measured, "H100 80GB PCIe", ""},
        {"H200", none, "", "not benchmarked"},
        {"GH200", measured, "GH200 96GB", ""},
        {"B200", measured, "B200 192GB SXM5",
         "the benchmark row names 192 GB; the rented HGX B200 GPUs expose 180 GB: same chip and clocks"},
        {"B300", none, "", "not benchmarked (Blackwell Ultra); no sibling measured at its clocks"},
        {"GB200", none, "", "not benchmarked (GB200 NVL72: a B200-class GPU at a higher power limit in a 72-GPU NVLink domain)"},
        {"L40S", proxy, "RTX 6000 Ada",
         "the RTX 6000 Ada was benchmarked: same AD102 chip and 48 GB, 864 vs 960 GB/s, so memory-bound models "
         "run a few per cent slower than shown"},
        {"RTX-PRO-6000", none, "", "not benchmarked (Blackwell workstation/server card)"},
        {"T4", estimate, "V100",
         "not benchmarked; estimate from the V100 rows by peak TFLOPS (65/125 mixed, 8.1/15.7 FP32); "
         "T4's memory bandwidth ratio is lower (320/900), so the estimate is optimistic"},
        {"V100", measured, "V100 16GB", "Lambda's V100 16GB machines (SXM2)"},
        {"V100-PCIe", proxy, "V100 16GB", "the SXM2 part was benchmarked; the PCIe card (250 W, peak 112 vs 125 TFLOPS) is up to about 10% slower"},
        {"V100-32GB", proxy, "V100 16GB",
         "the 16 GB SXM2 part was benchmarked: same chip and clocks, so the same throughput for models that fit"},
        {"V100S", estimate, "V100", "not benchmarked; estimate from the V100 rows by peak TFLOPS"},
        {"A10", measured, "A10", ""},
        {"A10G", estimate, "A10",
         "AWS's A10 variant was not benchmarked; estimate from the A10 rows by peak TFLOPS (tensor 70 "
         "vs 125, FP32 35 vs 31.2)"},
        {"L4", estimate, "A10", "not benchmarked; estimate from the A10 rows by peak TFLOPS (L4 has half the bandwidth)"},
        {"RTX-6000-Ada", measured, "RTX 6000 Ada", ""},
        {"RTX-A6000", measured, "RTX A6000", ""},
        {"MI250X", none, "", "AMD GPUs were not benchmarked (another software stack: no fair peak-FLOPS estimate)"},
        {"MI300X", none, "", "AMD GPUs were not benchmarked (another software stack: no fair peak-FLOPS estimate)"},
        {"MI325X", none, "", "AMD GPUs were not benchmarked (another software stack: no fair peak-FLOPS estimate)"},
        {"MI25", none, "", "AMD GPUs were not benchmarked (another software stack: no fair peak-FLOPS estimate)"},
        {"A40", none, "",
         "not benchmarked; the RTX A6000 rows are the same GA102 chip and 48 GB but at 768 vs 696 GB/s and "
         "higher clocks, so they are not taken for it"},
        {"RTX-3090", measured, "RTX 3090", ""},
        {"RTX-4090", measured, "RTX 4090", ""},
        {"L40", estimate, "RTX-6000-Ada",
         "not benchmarked; estimate from the RTX 6000 Ada rows by peak TFLOPS (181.05/364.2 mixed, 90.5/91.1 "
         "FP32): the same AD102 chip and 48 GB at 864 vs 960 GB/s, with half the tensor rate"},
        {"RTX-A5000", estimate, "RTX-A6000",
         "not benchmarked; estimate from the RTX A6000 rows by peak TFLOPS (111.1/154.8 mixed, 27.8/38.7 FP32), "
         "the same 768 GB/s"},
        {"RTX-A4000", estimate, "RTX-A6000",
         "not benchmarked; estimate from the RTX A6000 rows by peak TFLOPS (76.7/154.8 mixed, 19.2/38.7 FP32); "
         "its bandwidth ratio is lower (448/768), so the estimate is optimistic for memory-bound models"},
        {"Quadro-RTX-6000", proxy, "Quadro RTX 8000",
         "the Quadro RTX 8000 was benchmarked: the same TU102 chip, clocks and 672 GB/s with 48 vs 24 GB, so the "
         "same throughput for models that fit in 24 GB"},
        {"A30", estimate, "A100-80GB-PCIe",
         "not benchmarked; estimate from the A100 80GB PCIe rows by peak TFLOPS (165/312 mixed, 10.3/19.5 FP32): "
         "the same GA100 chip with fewer units; its bandwidth ratio is lower (933/1935), so the estimate is "
         "optimistic for memory-bound models"},
        {"L20", estimate, "RTX-6000-Ada",
         "not benchmarked; estimate from the RTX 6000 Ada rows by peak TFLOPS (119/364.2 mixed, 59.35/91.1 FP32): "
         "the same AD102 chip and 48 GB at 864 vs 960 GB/s, with a third of the tensor rate"},
        {"RTX-5090", none, "",
         "not benchmarked (Blackwell consumer card); the RTX 4090 rows are an older architecture with 56% of its "
         "memory bandwidth (1008/1792 GB/s), so they are not taken for it"},
        {"K80", none, "", "not benchmarked (Kepler, no tensor cores and no FP16 arithmetic)"},
        {"RTX-A4500", estimate, "RTX-A6000",
         "not benchmarked; estimate from the RTX A6000 rows by peak TFLOPS (94.6/154.8 mixed, 23.7/38.7 FP32); "
         "its bandwidth ratio is lower (640/768), so the estimate is optimistic for memory-bound models"},
        {"A100-40GB-PCIe", measured, "A100 40GB PCIe", "Lambda's 1 x A100 40GB PCIe machine (250 W)"},
        {"M60", none, "", "not benchmarked (Maxwell, no tensor cores and no fast FP16 arithmetic)"},
        {"P100", none, "", "not benchmarked (Pascal, no tensor cores)"},
        {"P40", none, "", "not benchmarked (Pascal inference card, no tensor cores)"},
        {"P4", none, "", "not benchmarked (Pascal inference card, no tensor cores)"},
    };
    return table;
}

GpuMatch match_gpu(std::string_view catalog_gpu, const std::vector<GpuMatch>& extra) {
    for (const GpuMatch& m : extra)
        if (m.catalog_gpu == catalog_gpu) return m;
    for (const GpuMatch& m : builtin_gpu_matches())
        if (m.catalog_gpu == catalog_gpu) return m;
    return {std::string(catalog_gpu), MatchKind::none, "", "not in the GPU match table"};
}

}  // namespace gputco
