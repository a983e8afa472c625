#include "output.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gputco::cli {
namespace {

/// A cell's text: in CSV every digit a double needs to be read back exactly (the numbers Python's
/// frames hold), in a table 4 decimals (4 significant digits below 1); "" for a figure that does not
/// apply, "nan"/"inf" as such.
std::string text(const Cell& cell, bool exact) {
    if (const auto* s = std::get_if<std::string>(&cell)) return *s;
    if (const auto* b = std::get_if<bool>(&cell)) return *b ? "true" : "false";
    if (const auto* i = std::get_if<long long>(&cell)) return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&cell)) {
        if (exact || !std::isfinite(*d)) return fmt::format("{}", *d);
        return std::abs(*d) >= 1 ? fmt::format("{:.4f}", *d) : fmt::format("{:.4g}", *d);
    }
    return "";
}

bool is_number(const Cell& cell) { return std::holds_alternative<double>(cell) || std::holds_alternative<long long>(cell); }

std::string csv_cell(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

nlohmann::ordered_json to_json(const Table& t) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : t.rows) {
        nlohmann::ordered_json object = nlohmann::ordered_json::object();
        for (std::size_t c = 0; c < t.columns.size(); ++c) object[t.columns[c]] = cell_json(row[c]);
        rows.push_back(std::move(object));
    }
    return rows;
}

std::string render(const Table& t, const std::string& format) {
    std::string out;
    if (format == "json") return to_json(t).dump(1) + "\n";
    if (format == "csv") {
        // Appended piece by piece: `"," + std::string` trips GCC 12's false -Wrestrict.
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            if (c) out += ',';
            out += csv_cell(t.columns[c]);
        }
        out += "\n";
        for (const auto& row : t.rows) {
            for (std::size_t c = 0; c < row.size(); ++c) {
                if (c) out += ',';
                out += csv_cell(text(row[c], true));
            }
            out += "\n";
        }
        return out;
    }
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : t.rows) {
        std::vector<std::string> line;
        for (const Cell& c : row) line.push_back(text(c, false));
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> width(t.columns.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        width[c] = t.columns[c].size();
        for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
    }
    const bool markdown = format == "markdown";
    const auto line = [&](const std::vector<std::string>& row, const std::vector<Cell>* typed) {
        std::string s = markdown ? "| " : "";
        for (std::size_t c = 0; c < row.size(); ++c) {
            const bool right = typed && is_number((*typed)[c]);
            s += right ? fmt::format("{:>{}}", row[c], width[c]) : fmt::format("{:<{}}", row[c], width[c]);
            s += c + 1 < row.size() ? (markdown ? " | " : "  ") : (markdown ? " |" : "");
        }
        return s + "\n";
    };
    out += line(t.columns, nullptr);
    if (markdown) {
        std::string s = "|";
        for (const std::size_t w : width) s += std::string(w + 2, '-') + "|";
        out += s + "\n";
    } else {
        std::vector<std::string> rule;
        for (const std::size_t w : width) rule.emplace_back(w, '-');
        out += line(rule, nullptr);
    }
    for (std::size_t r = 0; r < cells.size(); ++r) out += line(cells[r], &t.rows[r]);
    return out;
}

}  // namespace gputco::cli
