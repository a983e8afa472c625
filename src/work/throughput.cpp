// Throughput tables: the CSV reader (validation naming row and field) and the built-in table.
#include "gputco/work/throughput.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "throughput_data.hpp"

namespace gputco {

const std::vector<std::string>& benchmark_gpus() {
    static const std::vector<std::string> names{
        "V100 16GB",      "A10",           "A100 40GB PCIe", "A100 80GB PCIe", "A100 80GB SXM4",
        "RTX 3090",       "RTX 4090",      "RTX A6000",      "RTX 6000 Ada",   "Quadro RTX 8000",
        "H100 80GB PCIe", "H100 80GB SXM5", "GH200 96GB",    "B200 192GB SXM5",
    };
    return names;
}

double benchmark_gpu_memory_gb(std::string_view gpu) {
    static const std::pair<std::string_view, double> memory[] = {
        {"V100 16GB", 16},      {"A10", 24},           {"A100 40GB PCIe", 40}, {"A100 80GB PCIe", 80},
        {"A100 80GB SXM4", 80}, {"RTX 3090", 24},      {"RTX 4090", 24},       {"RTX A6000", 48},
        {"RTX 6000 Ada", 48},   {"Quadro RTX 8000", 48}, {"H100 80GB PCIe", 80}, {"H100 80GB SXM5", 80},
        {"GH200 96GB", 96},     {"B200 192GB SXM5", 192},
    };
    for (const auto& [name, gb] : memory)
        if (name == gpu) return gb;
    fail("gpu", gpu, "not a benchmark GPU");
}

std::string_view model_unit(std::string_view model) {
    if (model == "resnet50" || model == "ssd") return "images";
    if (model.starts_with("bert")) return "sequences";
    if (model == "gnmt" || model.starts_with("transformerxl")) return "tokens";
    if (model == "ncf") return "samples";
    if (model == "tacotron2") return "mel frames";
    if (model == "waveglow") return "audio samples";
    return "units";
}

namespace {

std::string_view trim_field(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view line, char sep) {
    std::vector<std::string_view> out;
    for (;;) {
        const std::size_t at = line.find(sep);
        out.push_back(trim_field(line.substr(0, at)));
        if (at == std::string_view::npos) return out;
        line.remove_prefix(at + 1);
    }
}

// The benchmark's spellings that differ from the canonical name.
std::string_view canonical_gpu(std::string_view written) {
    if (written == "H100 80GB PCIe Gen5") return "H100 80GB PCIe";
    return written;
}

bool is_count_token(std::string_view token) {
    if (token.size() < 2 || token.back() != 'x') return false;
    return std::all_of(token.begin(), token.end() - 1, [](char c) { return c >= '0' && c <= '9'; });
}

struct ParsedName {
    std::string gpu, system;
    int count = 0;  // from an "Nx" prefix; 0 if none
};

// "[system ][Nx ]<gpu>" (the benchmark also writes "4xV100 16GB"); false if no known GPU ends the name.
bool parse_name(std::string_view name, ParsedName& out) {
    std::vector<std::string> candidates = benchmark_gpus();
    candidates.emplace_back("H100 80GB PCIe Gen5");
    std::string_view best;
    for (const std::string& c : candidates) {
        if (name.size() < c.size() || name.substr(name.size() - c.size()) != c) continue;
        const std::string_view rest = name.substr(0, name.size() - c.size());
        const bool boundary = rest.empty() || rest.back() == ' ' ||
                              is_count_token(rest.substr(rest.find_last_of(' ') + 1));
        if (boundary && c.size() > best.size()) best = c;
    }
    if (best.empty()) return false;
    out.gpu = std::string(canonical_gpu(best));
    std::vector<std::string_view> tokens;
    for (std::string_view t : split(trim_field(name.substr(0, name.size() - best.size())), ' '))
        if (!t.empty()) tokens.push_back(t);
    if (!tokens.empty() && is_count_token(tokens.back())) {
        const std::string_view t = tokens.back();
        std::from_chars(t.data(), t.data() + t.size() - 1, out.count);
        tokens.pop_back();
    }
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (i > 0) out.system.push_back(' ');
        out.system.append(tokens[i]);
    }
    return true;
}

double parse_number(std::string_view cell, const std::string& field) {
    double value = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (ec != std::errc() || end != cell.data() + cell.size()) fail(field, cell, "must be a number");
    return value;
}

std::string known_gpus() {
    std::string out;
    for (const std::string& g : benchmark_gpus()) {
        if (!out.empty()) out.append(", ");
        out.append(g);
    }
    return out;
}

}  // namespace

namespace detail {

ThroughputTable parse_throughput_csv(std::string_view csv, Precision precision, const Source& source,
                                     bool zero_means_not_run, const std::vector<std::string>& systems) {
    std::vector<std::string_view> lines;
    for (std::string_view line : split(csv, '\n'))
        if (!trim_field(line).empty()) lines.push_back(line);
    require(!lines.empty(), "throughput.header", csv, "the file is empty");
    // Model and system names become text in reports and Python strings: the file must be UTF-8.
    for (std::size_t r = 0; r < lines.size(); ++r)
        require(is_utf8(lines[r]), r == 0 ? std::string("throughput.header") : fmt::format("throughput.rows[{}]", r - 1),
                lines[r], "must be UTF-8 text");
    const std::vector<std::string_view> header = split(lines[0], ',');
    const std::string header_text(lines[0]);
    auto column = [&](std::string_view name) -> std::ptrdiff_t {
        const auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : it - header.begin();
    };
    for (std::string_view required : {"name_gpu", "num_gpu"})
        require(column(required) >= 0, "throughput.header", header_text,
                fmt::format("needs the column {}", required));
    std::vector<std::size_t> model_columns;
    std::set<std::string_view> seen;
    for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string_view h = header[c];
        require(!h.empty(), "throughput.header", header_text, fmt::format("column {} has no name", c));
        require(seen.insert(h).second, "throughput.header", header_text,
                fmt::format("the column {} appears twice", printable_utf8(h)));
        if (h != "name_gpu" && h != "num_gpu" && h != "watt" && h != "price") model_columns.push_back(c);
    }
    require(!model_columns.empty(), "throughput.header", header_text, "needs at least one model column");

    ThroughputTable table;
    std::vector<ThroughputRow> rows;
    std::vector<std::pair<std::string, int>> machines;  // (gpu, count) of each data row, for duplicates
    for (std::size_t r = 1; r < lines.size(); ++r) {
        const std::string at = fmt::format("throughput.rows[{}]", r - 1);
        const std::vector<std::string_view> cells = split(lines[r], ',');
        require(cells.size() == header.size(), at, lines[r],
                fmt::format("has {} cells, the header has {}", cells.size(), header.size()));
        const std::string_view name = cells[static_cast<std::size_t>(column("name_gpu"))];
        ParsedName parsed;
        if (!parse_name(name, parsed))
            fail(at + ".name_gpu", name, fmt::format("unknown GPU (known: {})", known_gpus()));
        const double count = parse_number(cells[static_cast<std::size_t>(column("num_gpu"))], at + ".num_gpu");
        require(std::isfinite(count) && count >= 1 && count <= 1024 && count == std::floor(count),
                at + ".num_gpu", count, "must be a whole number in [1, 1024]");
        const int gpus = static_cast<int>(count);
        require(parsed.count == 0 || parsed.count == gpus, at + ".name_gpu", name,
                fmt::format("says {} GPUs but num_gpu is {}", parsed.count, gpus));
        auto optional_figure = [&](std::string_view col) {
            const std::ptrdiff_t c = column(col);
            if (c < 0 || cells[static_cast<std::size_t>(c)].empty()) return 0.0;
            return require_non_negative(at + "." + std::string(col),
                                        parse_number(cells[static_cast<std::size_t>(c)], at + "." + std::string(col)));
        };
        const double watts = optional_figure("watt");
        const double price = optional_figure("price");
        if (!systems.empty() && std::find(systems.begin(), systems.end(), parsed.system) == systems.end())
            continue;
        const auto earlier = std::find(machines.begin(), machines.end(), std::pair{parsed.gpu, gpus});
        if (earlier != machines.end()) {
            // The built-in tables list some machines twice (a plain and a LambdaCloud row): the later
            // row is taken. A user's file must not.
            require(zero_means_not_run, at + ".name_gpu", name,
                    fmt::format("repeats rows[{}] (same GPU and num_gpu)", earlier - machines.begin()));
            std::erase_if(rows, [&](const ThroughputRow& x) { return x.gpu == parsed.gpu && x.gpus == gpus; });
        }
        machines.emplace_back(parsed.gpu, gpus);
        for (std::size_t c : model_columns) {
            if (cells[c].empty()) continue;
            const std::string field = at + "." + std::string(header[c]);
            const double value = parse_number(cells[c], field);
            if (zero_means_not_run && value == 0.0) continue;
            require_positive(field, value);
            rows.push_back({parsed.gpu, parsed.system, gpus, precision, watts, price, std::string(header[c]),
                            value, source});
        }
    }
    return ThroughputTable(std::move(rows));
}

}  // namespace detail

ThroughputTable::ThroughputTable(std::vector<ThroughputRow> rows) : rows_(std::move(rows)) {
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const ThroughputRow& row = rows_[i];
        const std::string at = fmt::format("throughput.rows[{}]", i);
        const auto& known = benchmark_gpus();
        if (std::find(known.begin(), known.end(), row.gpu) == known.end())
            fail(at + ".gpu", row.gpu, fmt::format("unknown GPU (known: {})", known_gpus()));
        require(row.gpus >= 1 && row.gpus <= 1024, at + ".gpus", row.gpus, "must be in [1, 1024]");
        require(!row.model.empty(), at + ".model", row.model, "must not be empty");
        require_positive(at + ".per_second", row.per_second);
        require_non_negative(at + ".watts", row.watts);
        require_non_negative(at + ".price", row.price);
        for (std::size_t j = 0; j < i; ++j) {
            const ThroughputRow& other = rows_[j];
            require(!(other.gpu == row.gpu && other.gpus == row.gpus && other.precision == row.precision &&
                      other.model == row.model),
                    at + ".gpu", row.gpu, fmt::format("repeats rows[{}] (same GPU, gpus, precision, model)", j));
        }
    }
}

ThroughputTable ThroughputTable::from_csv(std::string_view csv, Precision precision, Source source) {
    require(!source.name.empty(), "throughput.source.name", source.name, "must not be empty");
    return detail::parse_throughput_csv(csv, precision, source, false, {});
}

ThroughputTable ThroughputTable::from_csv_file(const std::string& path, Precision precision, Source source) {
    std::ifstream in(path, std::ios::binary);
    require(in.good(), "path", path, "cannot be opened");
    std::ostringstream text;
    text << in.rdbuf();
    return from_csv(text.str(), precision, std::move(source));
}

ThroughputTable ThroughputTable::overridden_by(const ThroughputTable& other) const {
    std::vector<ThroughputRow> rows = rows_;
    for (const ThroughputRow& mine : other.rows_) {
        std::erase_if(rows, [&](const ThroughputRow& x) {
            return x.gpu == mine.gpu && x.gpus == mine.gpus && x.precision == mine.precision &&
                   x.model == mine.model;
        });
        rows.push_back(mine);
    }
    ThroughputTable out;
    out.rows_ = std::move(rows);
    return out;
}

const ThroughputRow* ThroughputTable::find(std::string_view gpu, int gpus, Precision precision,
                                           std::string_view model) const {
    for (const ThroughputRow& row : rows_)
        if (row.gpu == gpu && row.gpus == gpus && row.precision == precision && row.model == model) return &row;
    return nullptr;
}

std::vector<std::string> ThroughputTable::models() const {
    std::set<std::string> names;
    for (const ThroughputRow& row : rows_) names.insert(row.model);
    return {names.begin(), names.end()};
}

namespace {

ThroughputTable make_builtin() {
    const Source v1{"Lambda deeplearning-benchmark pytorch/ train throughput (github lambdal/deeplearning-benchmark)",
                    "2024-07"};
    const Source v1v2{"Lambda deeplearning-benchmark pytorch/csv_v1_v2 train throughput (commit aa5addb)",
                      "2025-12"};
    // Lambda's cloud machines and plain cards; the OEM servers' rows are left out.
    const std::vector<std::string> systems{"", "LambdaCloud"};
    ThroughputTable table = detail::parse_throughput_csv(embedded::lambda_fp16_v1, Precision::mixed, v1, true, systems);
    table = table.overridden_by(
        detail::parse_throughput_csv(embedded::lambda_fp32_v1, Precision::fp32, v1, true, systems));
    table = table.overridden_by(
        detail::parse_throughput_csv(embedded::lambda_fp16_v1v2, Precision::mixed, v1v2, true, systems));
    return table.overridden_by(
        detail::parse_throughput_csv(embedded::lambda_fp32_v1v2, Precision::fp32, v1v2, true, systems));
}

}  // namespace

const ThroughputTable& ThroughputTable::builtin() {
    static const ThroughputTable table = make_builtin();
    return table;
}

}  // namespace gputco
