// Escaping, number text, tables and the page shell of the HTML report.
#include "gputco/report/html.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gputco::html {

std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

namespace {

/// "1303157.69" -> "1,303,157.69" (fmt has no grouping without a locale; the page must not depend on one).
std::string grouped(const std::string& plain) {
    const std::size_t start = plain[0] == '-' ? 1 : 0;
    const std::size_t point = std::min(plain.find('.'), plain.size());
    std::string out = plain.substr(0, start);
    for (std::size_t i = start; i < point; ++i) {
        out += plain[i];
        const std::size_t left = point - i - 1;
        if (left > 0 && left % 3 == 0) out += ',';
    }
    return out + plain.substr(point);
}

}  // namespace

std::string number(double value, std::string_view unit) {
    if (!std::isfinite(value)) return fmt::format("{}", value);
    if (unit == "currency") return grouped(fmt::format("{:.2f}", value));
    if (std::abs(value) < 1) return fmt::format("{:.4g}", value);
    return grouped(fmt::format("{:.4f}", value));
}

std::string cell_text(const Cell& cell, std::string_view unit) {
    if (const auto* s = std::get_if<std::string>(&cell)) return *s;
    if (const auto* b = std::get_if<bool>(&cell)) return *b ? "yes" : "no";
    if (const auto* i = std::get_if<long long>(&cell)) return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&cell)) return number(*d, unit);
    return "\u2014";
}

std::string exact(double value) { return fmt::format("{}", value); }

std::string render(const Table& t) {
    std::string out = fmt::format("<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"{}\">\n<table>\n",
                                  escape(t.caption));
    out += fmt::format("<caption>{}</caption>\n<thead><tr>", escape(t.caption));
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        out += fmt::format("<th scope=\"col\">{}", escape(t.columns[c]));
        if (!t.units[c].empty()) out += fmt::format("<br><span class=\"unit\">{}</span>", escape(t.units[c]));
        out += "</th>";
    }
    out += "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
        out += "<tr>";
        for (std::size_t c = 0; c < row.size(); ++c) {
            const bool numeric = std::holds_alternative<double>(row[c]) || std::holds_alternative<long long>(row[c]);
            const std::string text = escape(cell_text(row[c], t.units[c]));
            if (c == 0) out += fmt::format("<th scope=\"row\">{}</th>", text);
            else if (numeric) out += fmt::format("<td class=\"num\">{}</td>", text);
            else if (text.size() > 80) out += fmt::format("<td class=\"long\">{}</td>", text);  // a note: wide, not tall
            else out += fmt::format("<td>{}</td>", text);
        }
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table>\n</div>\n";
}

namespace {

// One style sheet, inline: readable from a 360 px phone to a 1280 px screen, and in print.
constexpr std::string_view style = R"(
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --rule: #d0d7de; --panel: #f6f8fa; --accent: #0550ae; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--ink); background: #fff; }
main { max-width: 76rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: 0.5rem 0; }
h2 { font-size: 1.3rem; margin: 2rem 0 0.5rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
.meta, .unit, figcaption { color: var(--muted); font-size: 0.875rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr)); gap: 0.75rem; padding: 0; list-style: none; }
.card { border: 1px solid var(--rule); border-radius: 6px; padding: 0.75rem 1rem; background: var(--panel); }
.card h3 { margin: 0 0 0.25rem; font-size: 1rem; }
.card dl { display: grid; grid-template-columns: auto 1fr; gap: 0.1rem 0.75rem; margin: 0.5rem 0 0; }
.card dt { color: var(--muted); }
.card dd { margin: 0; font-variant-numeric: tabular-nums; font-weight: 600; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll > table { width: max-content; }
code { overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; margin: 0.5rem 0 1rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid var(--rule); padding: 0.25rem 0.5rem; vertical-align: top; max-width: 22rem; }
thead th { background: var(--panel); text-align: left; }
tbody th { text-align: left; font-weight: 600; min-width: 8rem; }
td.num { text-align: right; white-space: nowrap; }
td.long { min-width: 26rem; max-width: 40rem; font-size: 0.8rem; }
figure { margin: 1rem 0; }
figure svg { width: 100%; max-width: 44rem; height: auto; display: block; }
details { margin: 0.25rem 0 1rem; }
summary { cursor: pointer; color: var(--accent); }
pre { background: var(--panel); padding: 0.75rem; overflow-x: auto; font-size: 0.8rem; }
.up { background: #ffebe9; } .down { background: #dafbe1; }
ins { background: #dafbe1; text-decoration: none; } del { background: #ffebe9; text-decoration: none; }
@media print { .scroll { overflow: visible; } details { display: block; } }
)";

}  // namespace

std::string page(std::string_view title, std::string_view body) {
    return fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                       "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n{}</main>\n</body>\n</html>\n",
                       escape(title), style, body);
}

}  // namespace gputco::html
