#pragma once
// Measured training throughput: how much work (images, sequences, tokens, ...) per second a machine of
// N GPUs of one kind trains, per model and precision. The built-in table is the public Lambda
// deep-learning benchmark (data/throughput/, embedded at build time); a user's own measurements in the
// same CSV shape override its rows ("measure, don't trust").
//
//   const ThroughputTable& table = ThroughputTable::builtin();
//   const ThroughputRow* row = table.find("A100 80GB SXM4", 8, Precision::mixed, "resnet50");
//   row->per_second;                                     // 11,439 images/s
//   ThroughputTable mine = table.overridden_by(ThroughputTable::from_csv(text, Precision::mixed,
//                                              {"my benchmark", "2026-11"}));
#include <string>
#include <string_view>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// The precision of a measurement: `mixed` = FP16/BF16 automatic mixed precision; `fp32` = FP32, which
/// on Ampere and later GPUs runs matrix products in TF32 (the benchmark's FP32 column).
enum class Precision { fp32, mixed };

template <>
struct EnumText<Precision> {
    static constexpr std::array<EnumName<Precision>, 2> names{{
        {Precision::fp32, "fp32"},
        {Precision::mixed, "mixed"},
    }};
    static constexpr std::array<EnumName<Precision>, 3> aliases{{
        {Precision::fp32, "tf32"},
        {Precision::mixed, "fp16"},
        {Precision::mixed, "amp"},
    }};
};
inline std::string_view to_string(Precision precision) { return to_text(precision); }
/// Parses "fp32" or "mixed" (also "tf32", "fp16", "amp" as aliases); throws InvalidInput naming `field`.
inline Precision parse_precision(std::string_view text, std::string_view field = "precision") {
    return parse<Precision>(text, field);
}

/// GPU names the throughput table knows (as the benchmark writes them, without system or count prefix),
/// e.g. "A100 80GB SXM4", "H100 80GB SXM5", "V100 16GB".
const std::vector<std::string>& benchmark_gpus();

/// Memory per card of a benchmark GPU, GB (e.g. 24 for "A10"); throws InvalidInput for another name.
double benchmark_gpu_memory_gb(std::string_view gpu);

/// The unit of a built-in model's throughput ("images", "sequences", "tokens", ...); "units" otherwise.
std::string_view model_unit(std::string_view model);

/// One measurement: `gpus` GPUs of kind `gpu` train `model` at `per_second` units per second.
struct ThroughputRow {
    std::string gpu;        ///< one of benchmark_gpus()
    std::string system;     ///< the prefix of the row's name, e.g. "LambdaCloud"; empty if none
    int gpus = 1;
    Precision precision = Precision::mixed;
    double watts = 0;       ///< board power of the `gpus` GPUs, W (0 = not given)
    double price = 0;       ///< hardware list price of the `gpus` GPUs, USD (0 = not given)
    std::string model;
    double per_second = 0;  ///< in the model's unit, all `gpus` GPUs together
    Source source;

    bool operator==(const ThroughputRow&) const = default;
};

/// Rows keyed by (gpu, gpus, precision, model), in the order they were loaded.
class ThroughputTable {
public:
    ThroughputTable() = default;
    /// Validates every row (known GPU, gpus in [1, 1024], a model name, per_second finite and > 0,
    /// watts and price >= 0) and rejects a repeated (gpu, gpus, precision, model).
    explicit ThroughputTable(std::vector<ThroughputRow> rows);

    /// The Lambda benchmark tables compiled into the library: the 2025-12 tables (csv_v1_v2) over the
    /// 2024-07 ones (which add ncf and transformerxl*). Only rows of Lambda's cloud and of plain cards
    /// are taken; the OEM servers' rows (Dell, SMC, 1CC, RAIDZ1) are left out (see docs/design.md).
    static const ThroughputTable& builtin();

    /// Parses a CSV in the benchmark's shape: a header `name_gpu,num_gpu,watt,price,<model>...` (watt
    /// and price optional) and one row per machine. name_gpu is "[system ][Nx ]<gpu>" with <gpu> one of
    /// benchmark_gpus(); an "Nx" prefix must agree with num_gpu. An empty model cell means "not
    /// measured"; every given figure must be finite and > 0 (watt and price >= 0). A row repeating an
    /// earlier (gpu, num_gpu) is an error. Errors name the row and field:
    /// `throughput.rows[3].resnet50 = -5: must be finite and > 0` (rows counted from 0 after the header).
    static ThroughputTable from_csv(std::string_view csv, Precision precision, Source source);
    static ThroughputTable from_csv_file(const std::string& path, Precision precision, Source source);

    /// This table with `other`'s rows added; a row of `other` replaces the one with the same
    /// (gpu, gpus, precision, model).
    ThroughputTable overridden_by(const ThroughputTable& other) const;

    const std::vector<ThroughputRow>& rows() const { return rows_; }
    /// The row, or nullptr.
    const ThroughputRow* find(std::string_view gpu, int gpus, Precision precision,
                              std::string_view model) const;
    /// Model names, sorted, each once.
    std::vector<std::string> models() const;

    bool operator==(const ThroughputTable&) const = default;

private:
    std::vector<ThroughputRow> rows_;
};

namespace detail {
/// Parses one CSV (see from_csv); `zero_means_not_run` reads 0 as an empty cell (the benchmark's v1
/// files); `systems`, if not empty, keeps only rows whose system prefix is listed ("" = none).
ThroughputTable parse_throughput_csv(std::string_view csv, Precision precision, const Source& source,
                                     bool zero_means_not_run, const std::vector<std::string>& systems);
}  // namespace detail

}  // namespace gputco
