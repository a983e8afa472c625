#include "output.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace gputco::cli {
namespace {

bool is_number(const std::string& s) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", int(c));
        else out += c;
    }
    return out + "\"";
}

std::string csv_cell(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string render(const Table& t, const std::string& format) {
    std::string out;
    if (format == "json") {
        out = "[";
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            out += r ? ",\n {" : "\n {";
            for (std::size_t c = 0; c < t.columns.size(); ++c) {
                const std::string& cell = t.rows[r][c];
                out += fmt::format("{}{}: {}", c ? ", " : "", json_string(t.columns[c]),
                                   is_number(cell) ? cell : cell == "nan" || cell == "inf" || cell.empty() ? "null" : json_string(cell));
            }
            out += "}";
        }
        return out + "\n]\n";
    }
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
                out += csv_cell(row[c]);
            }
            out += "\n";
        }
        return out;
    }
    std::vector<std::size_t> width(t.columns.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        width[c] = t.columns[c].size();
        for (const auto& row : t.rows) width[c] = std::max(width[c], row[c].size());
    }
    const bool markdown = format == "markdown";
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string s = markdown ? "| " : "";
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const bool right = is_number(cells[c]);
            s += right ? fmt::format("{:>{}}", cells[c], width[c]) : fmt::format("{:<{}}", cells[c], width[c]);
            s += c + 1 < cells.size() ? (markdown ? " | " : "  ") : (markdown ? " |" : "");
        }
        return s + "\n";
    };
    out += line(t.columns);
    std::vector<std::string> rule;
    for (const std::size_t w : width) rule.emplace_back(w, '-');
    if (markdown) {
        std::string s = "|";
        for (const std::size_t w : width) s += std::string(w + 2, '-') + "|";
        out += s + "\n";
    } else {
        out += line(rule);
    }
    for (const auto& row : t.rows) out += line(row);
    return out;
}

}  // namespace gputco::cli
