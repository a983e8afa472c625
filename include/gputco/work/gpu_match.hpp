#pragma once
// Which benchmark GPU stands for which catalog GPU: an explicit table, never a guess by name.
//   measured  the same part was benchmarked
//   proxy     a sibling part was benchmarked; the note says what differs and which way it errs
//   estimate  no sibling: throughput = the reference's × peak-TFLOPS ratio (FP16 tensor for mixed
//             precision, FP32 otherwise); used only when asked for, and labelled
//   none      nothing to go on: the GPU is reported as unmeasured
#include <string>
#include <string_view>
#include <vector>
#include "gputco/core/enum_text.hpp"

namespace gputco {

enum class MatchKind { measured, proxy, estimate, none };
template <>
struct EnumText<MatchKind> {
    static constexpr std::array<EnumName<MatchKind>, 4> names{{
        {MatchKind::measured, "measured"},
        {MatchKind::proxy, "proxy"},
        {MatchKind::estimate, "estimate"},
        {MatchKind::none, "none"},
    }};
};
inline std::string_view to_string(MatchKind kind) { return to_text(kind); }

struct GpuMatch {
    std::string catalog_gpu;     ///< GpuSpec::name
    MatchKind kind = MatchKind::none;
    /// measured/proxy: the benchmark GPU (benchmark_gpus()); estimate: the catalog GPU whose
    /// throughput is scaled (itself measured or proxied).
    std::string benchmark_gpu;
    std::string note;
};

/// The built-in table for the built-in catalog's GPUs.
const std::vector<GpuMatch>& builtin_gpu_matches();

/// The match for `catalog_gpu`: from `extra` first (the user's), then the built-in table; kind none
/// (note "not in the GPU match table") for any other name.
GpuMatch match_gpu(std::string_view catalog_gpu, const std::vector<GpuMatch>& extra = {});

}  // namespace gputco
