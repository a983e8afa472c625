#pragma once
// What LLM estimates need of a GPU beyond the catalog's GpuSpec (which holds memory, bandwidth and the
// dense 16-bit peak, each with its source): the dense FP8 and FP4 peaks, and the model FLOPs
// utilisation (MFU) a real training run reached. Every row carries its source and date and says
// whether its MFU was measured on that GPU, taken from a sibling (proxy) or estimated.
//
//   const auto g = llm_gpu(Catalog::builtin().gpu("H100"), LlmPrecision::bf16);
//   std::get<LlmGpu>(g).mfu;      // 0.41, measured (Llama 3, 16,384 H100s)
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/work/gpu_match.hpp"
#include "gputco/work/llm.hpp"

namespace gputco {

/// Dense (no sparsity) FP8 and FP4 tensor peaks of one GPU, TFLOPS; 0 = not supported.
struct LowPrecisionPeaks {
    std::string gpu;  ///< GpuSpec::name
    double fp8_tflops = 0;
    double fp4_tflops = 0;
    Source source;
};
/// Built-in rows for the built-in catalog's GPUs and B200 (whose offerings a user catalog may add).
const std::vector<LowPrecisionPeaks>& builtin_low_precision_peaks();

/// Achieved model FLOPs utilisation of training on one GPU and precision: model FLOPs per second per
/// GPU (6 N + 12 L h s per token) / the dense peak of that precision.
struct MfuRow {
    std::string gpu;  ///< GpuSpec::name
    LlmPrecision precision = LlmPrecision::bf16;
    double mfu = 0;   ///< in (0, 1]
    MatchKind kind = MatchKind::measured;  ///< measured on this GPU, proxy (a sibling's), estimate
    std::string basis;                     ///< what was measured, or why the figure stands in
    Source source;
};
/// Built-in BF16 rows. A precision without a row of its own takes the BF16 row's achieved FLOP/s
/// (MFU × BF16 peak / that precision's peak): no speed-up from FP8 or FP4 is assumed without a
/// measurement.
const std::vector<MfuRow>& builtin_training_mfu();

/// The user's MFU rows as CSV, one per line after the header `gpu,precision,mfu,kind,as_of,source`:
/// precision bf16/fp8/fp4, mfu in (0, 1], kind measured/proxy/estimate, source the rest of the line
/// (commas allowed), not empty. Empty lines are skipped. Errors name the row (counted from 0 after the
/// header) and the field: `mfu_csv.rows[1].mfu = 1.5: must be in (0, 1]`.
std::vector<MfuRow> mfu_rows_from_csv(std::string_view csv);
/// The user's FP8/FP4 peaks as CSV after the header `gpu,fp8_tflops,fp4_tflops,as_of,source` (dense
/// TFLOPS >= 0, 0 = not supported; source the rest of the line). Errors as mfu_rows_from_csv's.
std::vector<LowPrecisionPeaks> peak_rows_from_csv(std::string_view csv);

/// Assumptions of the estimates, each overridable.
struct LlmGpuOptions {
    std::vector<LowPrecisionPeaks> peaks;  ///< the user's rows, before the built-in ones
    std::vector<MfuRow> mfu;               ///< the user's rows, before the built-in ones
    double mfu_override = 0;               ///< > 0: this MFU on every GPU (labelled "given")
    /// Share of peak memory bandwidth a decode step reaches. An assumption, not a measurement: decode
    /// kernels stream weights and KV cache at well under peak; 0.7 is a round middle of what serving
    /// engines report. Overridable.
    double decode_bandwidth_efficiency = 0.7;
    /// Share of each GPU's memory the job may fill (the rest: CUDA context, allocator fragmentation,
    /// communication buffers). An assumption; overridable.
    double usable_memory_fraction = 0.9;

    void validate() const;
};

/// One GPU's figures for one precision, each with where it came from.
struct LlmGpu {
    std::string name;
    double memory_gb = 0, memory_bandwidth_gbps = 0;
    double peak_tflops = 0;      ///< dense, at the precision
    double mfu = 0;
    MatchKind mfu_kind = MatchKind::measured;  ///< estimate also for "given" overrides and derived precisions
    std::string mfu_basis;       ///< e.g. "measured: ... (Meta, The Llama 3 Herd of Models, 2024-07)"
    std::string peak_source;
};

/// The figures of catalog GPU `spec` at `precision`, or the reason there are none (no FP8/FP4 support,
/// no MFU row). The 16-bit peak is the catalog's fp16_tflops; FP8/FP4 from the peaks table.
std::variant<LlmGpu, std::string> llm_gpu(const GpuSpec& spec, LlmPrecision precision,
                                          const LlmGpuOptions& options = {});

}  // namespace gputco
