// The FP8/FP4 peaks and training MFU rows (see llm_gpus.hpp). Peaks are the datasheets' dense figures:
// NVIDIA and AMD quote low-precision tensor rates with 2:4 sparsity, so each is half the quoted one.
#include "gputco/work/llm_gpus.hpp"

#include <cmath>
#include <exception>
#include <string>

#include <fmt/format.h>

namespace gputco {

const std::vector<LowPrecisionPeaks>& builtin_low_precision_peaks() {
    static const std::vector<LowPrecisionPeaks> rows{
        {"A100-40GB", 0, 0, {"NVIDIA A100 datasheet: no FP8 or FP4 tensor cores (Ampere)", "2021-06", ""}},
        {"A100-80GB", 0, 0, {"NVIDIA A100 datasheet: no FP8 or FP4 tensor cores (Ampere)", "2021-06", ""}},
        {"A100-80GB-PCIe", 0, 0, {"NVIDIA A100 datasheet: no FP8 or FP4 tensor cores (Ampere)", "2021-06", ""}},
        {"H100", 1978.9, 0, {"NVIDIA H100 datasheet, SXM column: FP8 3,958 TFLOPS with sparsity; no FP4", "2023", ""}},
        {"H100-NVL", 1670.5, 0, {"NVIDIA H100 datasheet, NVL column: FP8 3,341 TFLOPS with sparsity; no FP4", "2023", ""}},
        {"H200", 1978.9, 0, {"NVIDIA H200 datasheet, SXM column: FP8 3,958 TFLOPS with sparsity; no FP4", "2024", ""}},
        {"B200", 4500, 9000,
         {"NVIDIA HGX B200 datasheet, per GPU: FP8 9 and FP4 18 PFLOPS with sparsity", "2025", ""}},
        {"MI300X", 2614.9, 0,
         {"AMD Instinct MI300X data sheet: FP8 5,229.8 TFLOPS with sparsity; no FP4", "2023-12", ""}},
        {"L4", 242.5, 0, {"NVIDIA L4 datasheet: FP8 485 TFLOPS with sparsity", "2023", ""}},
        {"RTX-6000-Ada", 728.5, 0, {"NVIDIA Ada GPU architecture whitepaper: FP8 1,457 TFLOPS with sparsity", "2023", ""}},
    };
    return rows;
}

const std::vector<MfuRow>& builtin_training_mfu() {
    using enum MatchKind;
    const Source llama3{"Meta, The Llama 3 Herd of Models (arXiv 2407.21783), Table 4", "2024-07", ""};
    const Source opt{"Zhang et al., OPT: Open Pre-trained Transformer Language Models (arXiv 2205.01068), section 2.4",
                     "2022-05", ""};
    const Source megatron{"Shoeybi et al., Megatron-LM (arXiv 1909.08053), abstract", "2019-09", ""};
    static const std::vector<MfuRow> rows{
        {"H100", LlmPrecision::bf16, 0.41, measured,
         "Llama 3 405B pre-training on 16,384 H100s at 8K tokens: 400 TFLOP/s per GPU, 41% BF16 MFU "
         "(38-43% over the paper's three layouts)", llama3},
        {"H100-NVL", LlmPrecision::bf16, 0.41, proxy,
         "H100 SXM's Llama 3 figure; the NVL card runs at 350-400 W instead of 700 W, so this errs high", llama3},
        {"H200", LlmPrecision::bf16, 0.41, proxy,
         "H100 SXM's Llama 3 figure: same compute, more memory and bandwidth (errs low if anything)", llama3},
        {"B200", LlmPrecision::bf16, 0.41, proxy,
         "H100 SXM's Llama 3 figure; no full-scale B200 run's MFU is in this table, and a 2.3x higher peak is "
         "harder to keep fed, so this likely errs high", llama3},
        {"MI300X", LlmPrecision::bf16, 0.41, proxy,
         "H100 SXM's Llama 3 figure; no large MI300X run's MFU is in this table and its software stack is "
         "less mature, so this likely errs high", llama3},
        {"A100-80GB", LlmPrecision::bf16, 0.471, measured,
         "OPT-175B on 992 A100 80GB: 147 TFLOP/s per GPU = 47.1% of 312", opt},
        {"A100-40GB", LlmPrecision::bf16, 0.471, proxy, "the A100 80GB's OPT figure: same chip and clocks", opt},
        {"A100-80GB-PCIe", LlmPrecision::bf16, 0.471, proxy,
         "the A100 80GB SXM's OPT figure; the PCIe card runs at 300 W and lacks NVLink switches, so this errs high", opt},
        {"V100", LlmPrecision::bf16, 0.236, measured,
         "Megatron-LM 8.3B on 512 V100s: 15.1 PFLOP/s in all = 29.5 TFLOP/s per GPU = 23.6% of 125 (FP16)", megatron},
        {"V100-32GB", LlmPrecision::bf16, 0.236, proxy, "the V100's Megatron-LM figure (same chip; Lambda-era 32 GB part)",
         megatron},
    };
    return rows;
}

namespace {

// The CSV lines after `header`: each split into `columns` - 1 fields and the rest of the line.
std::vector<std::vector<std::string>> csv_rows(std::string_view csv, std::string_view field, std::string_view header,
                                               std::size_t columns) {
    require(is_utf8(std::string(csv)), field, std::string(""), "must be valid UTF-8 text");
    std::vector<std::string> lines;
    for (std::size_t start = 0; start <= csv.size();) {
        std::size_t end = csv.find('\n', start);
        if (end == std::string_view::npos) end = csv.size();
        std::string line(csv.substr(start, end - start));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) lines.push_back(std::move(line));
        start = end + 1;
    }
    require(!lines.empty() && lines[0] == header, fmt::format("{}.header", field),
            lines.empty() ? std::string() : lines[0], fmt::format("must be \"{}\"", header));
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::vector<std::string> cells;
        std::string_view rest = lines[i];
        while (cells.size() + 1 < columns) {
            const std::size_t comma = rest.find(',');
            require(comma != std::string_view::npos, fmt::format("{}.rows[{}]", field, i - 1), lines[i],
                    fmt::format("must have {} columns ({})", columns, header));
            cells.emplace_back(rest.substr(0, comma));
            rest.remove_prefix(comma + 1);
        }
        cells.emplace_back(rest);
        rows.push_back(std::move(cells));
    }
    return rows;
}

double csv_number(const std::string& text, const std::string& field) {
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    require(used > 0 && used == text.size() && std::isfinite(value), field, text, "must be a finite number");
    return value;
}

}  // namespace

std::vector<MfuRow> mfu_rows_from_csv(std::string_view csv) {
    std::vector<MfuRow> out;
    const auto rows = csv_rows(csv, "mfu_csv", "gpu,precision,mfu,kind,as_of,source", 6);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& c = rows[i];
        const std::string f = fmt::format("mfu_csv.rows[{}]", i);
        MfuRow r;
        r.gpu = c[0];
        require(!r.gpu.empty(), f + ".gpu", r.gpu, "must not be empty");
        r.precision = parse<LlmPrecision>(c[1], f + ".precision");
        r.mfu = csv_number(c[2], f + ".mfu");
        require(r.mfu > 0.0 && r.mfu <= 1.0, f + ".mfu", r.mfu, "must be in (0, 1]");
        r.kind = parse<MatchKind>(c[3], f + ".kind");
        require(r.kind != MatchKind::none, f + ".kind", c[3], "must be measured, proxy or estimate");
        r.source = {c[5], c[4], fmt::format("line {}", i + 2)};
        require(!r.source.name.empty(), f + ".source", c[5], "must name where the figure comes from");
        r.basis = fmt::format("the user's mfu_csv row {}", i);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<LowPrecisionPeaks> peak_rows_from_csv(std::string_view csv) {
    std::vector<LowPrecisionPeaks> out;
    const auto rows = csv_rows(csv, "peaks_csv", "gpu,fp8_tflops,fp4_tflops,as_of,source", 5);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& c = rows[i];
        const std::string f = fmt::format("peaks_csv.rows[{}]", i);
        LowPrecisionPeaks r;
        r.gpu = c[0];
        require(!r.gpu.empty(), f + ".gpu", r.gpu, "must not be empty");
        r.fp8_tflops = require_non_negative(f + ".fp8_tflops", csv_number(c[1], f + ".fp8_tflops"));
        r.fp4_tflops = require_non_negative(f + ".fp4_tflops", csv_number(c[2], f + ".fp4_tflops"));
        r.source = {c[4], c[3], fmt::format("line {}", i + 2)};
        require(!r.source.name.empty(), f + ".source", c[4], "must name where the figures come from");
        out.push_back(std::move(r));
    }
    return out;
}

void LlmGpuOptions::validate() const {
    require(mfu_override == 0.0 || (mfu_override > 0.0 && mfu_override <= 1.0), "options.gpu.mfu_override",
            mfu_override, "must be 0 (the table's) or in (0, 1]");
    require(decode_bandwidth_efficiency > 0.0 && decode_bandwidth_efficiency <= 1.0,
            "options.gpu.decode_bandwidth_efficiency", decode_bandwidth_efficiency, "must be in (0, 1]");
    require(usable_memory_fraction > 0.0 && usable_memory_fraction <= 1.0, "options.gpu.usable_memory_fraction",
            usable_memory_fraction, "must be in (0, 1]");
    for (std::size_t i = 0; i < peaks.size(); ++i) {
        require(!peaks[i].gpu.empty(), fmt::format("options.gpu.peaks[{}].gpu", i), peaks[i].gpu, "must not be empty");
        require_non_negative(fmt::format("options.gpu.peaks[{}].fp8_tflops", i), peaks[i].fp8_tflops);
        require_non_negative(fmt::format("options.gpu.peaks[{}].fp4_tflops", i), peaks[i].fp4_tflops);
        require(!peaks[i].source.name.empty(), fmt::format("options.gpu.peaks[{}].source", i), peaks[i].source.name,
                "must name where the figures come from");
    }
    for (std::size_t i = 0; i < mfu.size(); ++i) {
        require(!mfu[i].gpu.empty(), fmt::format("options.gpu.mfu[{}].gpu", i), mfu[i].gpu, "must not be empty");
        require(mfu[i].mfu > 0.0 && mfu[i].mfu <= 1.0, fmt::format("options.gpu.mfu[{}].mfu", i), mfu[i].mfu,
                "must be in (0, 1]");
        require(!mfu[i].source.name.empty(), fmt::format("options.gpu.mfu[{}].source", i), mfu[i].source.name,
                "must name where the figure comes from");
    }
}

namespace {

std::string describe(const Source& s) { return s.as_of.empty() ? s.name : fmt::format("{}, {}", s.name, s.as_of); }

const LowPrecisionPeaks* find_peaks(const std::string& gpu, const LlmGpuOptions& o) {
    for (const auto& r : o.peaks)
        if (r.gpu == gpu) return &r;
    for (const auto& r : builtin_low_precision_peaks())
        if (r.gpu == gpu) return &r;
    return nullptr;
}

const MfuRow* find_mfu(const std::string& gpu, LlmPrecision p, const LlmGpuOptions& o) {
    for (const auto* rows : {&o.mfu, &builtin_training_mfu()})
        for (const auto& r : *rows)
            if (r.gpu == gpu && r.precision == p) return &r;
    return nullptr;
}

}  // namespace

std::variant<LlmGpu, std::string> llm_gpu(const GpuSpec& spec, LlmPrecision precision, const LlmGpuOptions& options) {
    LlmGpu g;
    g.name = spec.name;
    g.memory_gb = spec.memory_gb;
    g.memory_bandwidth_gbps = spec.memory_bandwidth_gbps;
    g.peak_tflops = spec.fp16_tflops;
    g.peak_source = fmt::format("catalog: {}", describe(spec.source));
    if (precision != LlmPrecision::bf16) {
        const LowPrecisionPeaks* peaks = find_peaks(spec.name, options);
        if (peaks == nullptr) return fmt::format("no {} peak known for {}", to_string(precision), spec.name);
        g.peak_tflops = precision == LlmPrecision::fp8 ? peaks->fp8_tflops : peaks->fp4_tflops;
        if (g.peak_tflops <= 0) return fmt::format("{} has no {} tensor cores ({})", spec.name, to_string(precision),
                                                   describe(peaks->source));
        g.peak_source = describe(peaks->source);
    }
    if (options.mfu_override > 0) {
        g.mfu = options.mfu_override;
        g.mfu_kind = MatchKind::estimate;
        g.mfu_basis = fmt::format("given: MFU {:g}", options.mfu_override);
        return g;
    }
    if (const MfuRow* row = find_mfu(spec.name, precision, options)) {
        g.mfu = row->mfu;
        g.mfu_kind = row->kind;
        g.mfu_basis = fmt::format("{}: {} ({})", to_string(row->kind), row->basis, describe(row->source));
        return g;
    }
    const MfuRow* bf16 = find_mfu(spec.name, LlmPrecision::bf16, options);
    if (bf16 == nullptr)
        return fmt::format("no MFU row for {} (give one in options.gpu.mfu, or options.gpu.mfu_override)", spec.name);
    // No measurement at this precision: the BF16 run's achieved FLOP/s, i.e. no speed-up assumed.
    g.mfu = bf16->mfu * spec.fp16_tflops / g.peak_tflops;
    g.mfu_kind = MatchKind::estimate;
    g.mfu_basis = fmt::format("estimate: the BF16 row's achieved {:.0f} TFLOP/s over the {} peak {:g} (no speed-up "
                              "assumed); BF16 row {}: {} ({})",
                              bf16->mfu * spec.fp16_tflops, to_string(precision), g.peak_tflops, to_string(bf16->kind),
                              bf16->basis, describe(bf16->source));
    return g;
}

}  // namespace gputco
