// gputco compare's rows, and their Markdown and HTML forms with the changes marked.
#include "gputco/report/compare_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gputco/report/html.hpp"

namespace gputco {
namespace {

using Figures = ComparedRow::Figures;

std::vector<std::pair<std::string, Figures>> figures_of(const ScenarioResult& r) {
    std::vector<std::pair<std::string, Figures>> out;
    for (const StrategyResult& s : r.strategies)
        out.push_back({s.name, {s.report.total, s.report.npv, s.report.spread ? s.report.spread->p95 : s.report.total}});
    for (const PlanDistribution& d : r.plans) out.push_back({"plan " + d.plan, {d.total.mean, d.npv.mean, d.total.p95}});
    return out;
}

const Figures* find(const std::vector<std::pair<std::string, Figures>>& list, const std::string& name) {
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& f) { return f.first == name; });
    return it == list.end() ? nullptr : &it->second;
}

/// "▲ +1,234.56 (+4.93%)", "▼ -3.00", or "0.00" for no change.
std::string change_text(double before, double after) {
    const double d = after - before;
    if (d == 0) return html::number(0);
    std::string out = fmt::format("{} {}{}", d > 0 ? "\u25B2" : "\u25BC", d > 0 ? "+" : "", html::number(d));
    if (before != 0) out += fmt::format(" ({:+.2f}%)", 100 * d / std::abs(before));
    return out;
}

std::string markdown_cell(std::string_view text) {
    std::string out;
    for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string shown_name(const ComparedRow& r) {
    return r.name + (!r.before ? " (new)" : !r.after ? " (removed)" : "");
}

/// Lines of `a` not in `b` and of `b` not in `a`, in order (a longest common subsequence of lines).
std::string line_diff(const std::string& a_text, const std::string& b_text) {
    const auto lines = [](const std::string& text) {
        std::vector<std::string> out;
        std::size_t start = 0;
        while (start < text.size()) {
            const std::size_t end = std::min(text.find('\n', start), text.size());
            out.push_back(text.substr(start, end - start));
            start = end + 1;
        }
        return out;
    };
    const std::vector<std::string> a = lines(a_text), b = lines(b_text);
    std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (std::size_t i = a.size(); i-- > 0;)
        for (std::size_t j = b.size(); j-- > 0;)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::string out;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        if (i < a.size() && j < b.size() && a[i] == b[j]) ++i, ++j;
        else if (j < b.size() && (i == a.size() || lcs[i][j + 1] >= lcs[i + 1][j]))
            out += fmt::format("<ins>+ {}</ins>\n", html::escape(b[j++]));
        else out += fmt::format("<del>- {}</del>\n", html::escape(a[i++]));
    }
    return out;
}

}  // namespace

std::vector<ComparedRow> compare_results(const ScenarioResult& before, const ScenarioResult& after) {
    const auto b = figures_of(before), a = figures_of(after);
    std::vector<ComparedRow> rows;
    for (const auto& [name, f] : a)
        if (const Figures* old = find(b, name)) rows.push_back({name, *old, f});
    for (const auto& [name, f] : a)
        if (!find(b, name)) rows.push_back({name, std::nullopt, f});
    for (const auto& [name, f] : b)
        if (!find(a, name)) rows.push_back({name, f, std::nullopt});
    return rows;
}

std::string compare_markdown(const ReportInput& before, const ReportInput& after, const std::string& version) {
    std::string out = fmt::format("### gputco compare: {} \u2192 {}\n\n`{}` \u2192 `{}` (gputco {})\n\n", before.scenario.name,
                                  after.scenario.name, before.file, after.file, version);
    out += "| strategy | total before | total after | total change | NPV change | P95 change |\n"
           "|---|---:|---:|---:|---:|---:|\n";
    std::size_t changed = 0;
    for (const ComparedRow& r : compare_results(before.result, after.result)) {
        const auto change = [&](double Figures::*f) {
            if (!r.before || !r.after) return std::string("\u2014");
            const double x = (*r.before).*f, y = (*r.after).*f;
            return x == y ? change_text(x, y) : "**" + change_text(x, y) + "**";
        };
        const bool moved = r.before && r.after &&
                           (r.before->total != r.after->total || r.before->npv != r.after->npv || r.before->p95 != r.after->p95);
        changed += moved || !r.before || !r.after;
        out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_cell(shown_name(r)),
                           r.before ? html::number(r.before->total) : "\u2014", r.after ? html::number(r.after->total) : "\u2014",
                           change(&Figures::total), change(&Figures::npv), change(&Figures::p95));
    }
    out += fmt::format("\n{} of the rows changed. Total, NPV and P95 in the scenario's currency; "
                       "plans: mean total, mean NPV and P95 of the total over the futures.\n",
                       changed);
    return out;
}

std::string compare_html(const ReportInput& before, const ReportInput& after, const std::string& version,
                         const std::string& command) {
    using html::escape;
    std::string body = fmt::format("<header>\n<h1>{} \u2192 {}</h1>\n<p class=\"meta\">gputco {} &middot; made by <code>{}</code></p>\n</header>\n",
                                   escape(before.scenario.name), escape(after.scenario.name), escape(version), escape(command));
    body += "<section aria-labelledby=\"changes\">\n<h2 id=\"changes\">What changes</h2>\n";
    body += "<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"What changes\">\n<table>\n"
            "<caption>Total, NPV and P95 before and after (\u25B2 up, shaded red; \u25BC down, shaded green)</caption>\n"
            "<thead><tr><th scope=\"col\">strategy</th><th scope=\"col\">total before</th><th scope=\"col\">total after</th>"
            "<th scope=\"col\">total change</th><th scope=\"col\">NPV change</th><th scope=\"col\">P95 change</th></tr></thead>\n<tbody>\n";
    for (const ComparedRow& r : compare_results(before.result, after.result)) {
        const auto change = [&](double Figures::*f) {
            if (!r.before || !r.after) return std::string("<td class=\"num\">\u2014</td>");
            const double x = (*r.before).*f, y = (*r.after).*f;
            return fmt::format("<td class=\"num{}\">{}</td>", y > x ? " up" : y < x ? " down" : "", escape(change_text(x, y)));
        };
        body += fmt::format("<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td>{}{}{}</tr>\n",
                            escape(shown_name(r)), r.before ? html::number(r.before->total) : "\u2014",
                            r.after ? html::number(r.after->total) : "\u2014", change(&Figures::total), change(&Figures::npv),
                            change(&Figures::p95));
    }
    body += "</tbody>\n</table>\n</div>\n</section>\n";
    body += "<section aria-labelledby=\"sides\">\n<h2 id=\"sides\">Side by side</h2>\n<div class=\"cards\">\n";
    for (const ReportInput* in : {&before, &after})
        body += fmt::format("<div>\n<h3>{}: {}</h3>\n<p class=\"meta\">{}</p>\n{}</div>\n", in == &before ? "Before" : "After",
                            escape(in->scenario.name), escape(in->file), summary_cards(in->scenario, in->result));
    body += "</div>\n</section>\n";
    const std::string diff = line_diff(to_yaml(before.scenario), to_yaml(after.scenario));
    body += fmt::format("<section aria-labelledby=\"inputs\">\n<h2 id=\"inputs\">Inputs that differ</h2>\n"
                        "<p>The lines of the scenarios as loaded (canonical YAML) that are not in both: <del>- before</del>, <ins>+ after</ins>.</p>\n"
                        "<pre>{}</pre>\n</section>\n",
                        diff.empty() ? "(none)" : diff);
    return html::page(before.scenario.name + " \u2192 " + after.scenario.name, body);
}

}  // namespace gputco
