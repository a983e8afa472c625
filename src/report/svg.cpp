// The report's charts: axes with round ticks, lines and bands, bars, points, histograms, as SVG text.
#include "gputco/report/svg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace gputco::svg {
namespace {

using html::escape;

// A 560-unit-wide drawing with 13-unit text: about 8 px text on a 360 px phone, 13 px at full size.
constexpr double width = 560, left = 64, right = 16, top = 12, font = 13;
// Okabe–Ito colours: told apart with the common colour-vision deficiencies.
constexpr const char* palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
const char* colour(std::size_t i) { return palette[i % std::size(palette)]; }

/// Round tick values covering [lo, hi]: steps of 1, 2 or 5 times a power of ten, about `count` of them.
std::vector<double> ticks(double& lo, double& hi, int count = 5) {
    if (!(hi > lo)) {
        const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
        lo -= pad;
        hi += pad;
    }
    const double raw = (hi - lo) / count;
    const double power = std::pow(10, std::floor(std::log10(raw)));
    const double fraction = raw / power;
    const double step = power * (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10);
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    std::vector<double> out;
    for (double v = lo; v <= hi + step * 1e-9; v += step) out.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
    return out;
}

/// A tick's text: 1.2M, 250k, 0.25.
std::string tick_text(double v) {
    const double a = std::abs(v);
    if (a >= 1e9) return fmt::format("{:g}G", v / 1e9);
    if (a >= 1e6) return fmt::format("{:g}M", v / 1e6);
    if (a >= 1e4) return fmt::format("{:g}k", v / 1e3);
    return fmt::format("{:g}", v);
}

/// A linear scale from data to drawing.
struct Scale {
    double lo, hi, from, to;
    double operator()(double v) const { return from + (v - lo) / (hi - lo) * (to - from); }
};

std::string open_svg(const Labels& l, double height) {
    return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" role=\"img\" "
                       "aria-labelledby=\"{}-title {}-desc\" font-family=\"system-ui, sans-serif\" font-size=\"{}\">\n"
                       "<title id=\"{}-title\">{}</title>\n<desc id=\"{}-desc\">{}</desc>\n",
                       width, height, l.id, l.id, font, l.id, escape(l.title), l.id, escape(l.description));
}

std::string text(double x, double y, std::string_view content, std::string_view anchor = "start",
                 std::string_view extra = "") {
    return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\"{}>{}</text>\n", x, y, anchor, extra,
                       escape(content));
}

/// Gridlines and tick labels of both axes, and the axis titles.
std::string axes(const Labels& l, const Scale& x, const std::vector<double>& xt, const Scale& y,
                 const std::vector<double>& yt) {
    std::string out = "<g stroke=\"#d0d7de\" stroke-width=\"1\">\n";
    for (const double v : yt) out += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>\n", x.from, x.to, y(v), y(v));
    out += "</g>\n<g fill=\"#57606a\">\n";
    for (const double v : yt) out += text(x.from - 6, y(v) + 4, tick_text(v), "end");
    for (const double v : xt) out += text(x(v), y.from + 16, tick_text(v), "middle");
    out += "</g>\n";
    out += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#57606a\"/>\n", x.from, x.to, y.from, y.from);
    out += text((x.from + x.to) / 2, y.from + 34, l.x_label, "middle");
    out += text(14, (y.from + y.to) / 2, l.y_label, "middle",
                fmt::format(" transform=\"rotate(-90 14 {:.1f})\"", (y.from + y.to) / 2));
    return out;
}

/// Legend rows under the plot, one entry a row (long names stay whole); returns the height used.
double legend(std::string& out, const std::vector<std::pair<std::string, std::string>>& entries, double at) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const double x = left, y = at + double(i) * 20;
        out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"14\" height=\"10\" fill=\"{}\"/>\n", x, y - 9, entries[i].second);
        out += text(x + 20, y, entries[i].first);
    }
    return double(entries.size()) * 20.0;
}

void range_of(double v, double& lo, double& hi) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
}

/// v[i], or NaN past its end (a series shorter than the first).
double at(const std::vector<double>& v, std::size_t i) { return i < v.size() ? v[i] : std::nan(""); }

constexpr double inf = std::numeric_limits<double>::infinity();

}  // namespace

std::string render(const Figure& f) {
    return fmt::format("<figure>\n{}<figcaption>{}</figcaption>\n<details><summary>Table of this plot</summary>\n{}</details>\n</figure>\n",
                       f.svg, escape(f.caption), html::render(f.table));
}

Figure line_chart(const Labels& l, const std::vector<Series>& series) {
    double xlo = inf, xhi = -inf, ylo = 0, yhi = -inf;
    for (const Series& s : series)
        for (std::size_t i = 0; i < s.x.size(); ++i) {
            range_of(s.x[i], xlo, xhi);
            range_of(s.y[i], ylo, yhi);
            if (!s.high.empty()) range_of(s.high[i], ylo, yhi), range_of(s.low[i], ylo, yhi);
        }
    if (xlo == inf) xlo = 0, xhi = 1;
    if (yhi == -inf) yhi = 1;
    const std::vector<double> xt = ticks(xlo, xhi), yt = ticks(ylo, yhi);
    const double plot_bottom = top + 260;
    const Scale x{xlo, xhi, left, width - right}, y{ylo, yhi, plot_bottom, top};
    std::vector<std::pair<std::string, std::string>> keys;
    for (std::size_t k = 0; k < series.size(); ++k)
        keys.emplace_back(series[k].high.empty() ? series[k].name
                                                 : fmt::format("{}: mean, band {} to {}", series[k].name,
                                                               series[k].low_name, series[k].high_name),
                          colour(k));
    std::string body = axes(l, x, xt, y, yt);
    for (std::size_t k = 0; k < series.size(); ++k) {
        const Series& s = series[k];
        if (!s.high.empty() && !s.x.empty()) {
            std::string points;
            for (std::size_t i = 0; i < s.x.size(); ++i) points += fmt::format("{:.1f},{:.1f} ", x(s.x[i]), y(s.high[i]));
            for (std::size_t i = s.x.size(); i-- > 0;) points += fmt::format("{:.1f},{:.1f} ", x(s.x[i]), y(s.low[i]));
            body += fmt::format("<polygon points=\"{}\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"none\"/>\n", points, colour(k));
        }
        std::string points;
        for (std::size_t i = 0; i < s.x.size(); ++i) points += fmt::format("{:.1f},{:.1f} ", x(s.x[i]), y(s.y[i]));
        body += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n", points, colour(k));
    }
    std::string legend_svg;
    const double used = legend(legend_svg, keys, plot_bottom + 58);
    Figure f;
    f.svg = open_svg(l, plot_bottom + 50 + used) + body + legend_svg + "</svg>\n";
    f.caption = l.description;
    // The table: one row per x, for each series its line (and band).
    f.table.caption = l.title;
    f.table.columns.push_back(l.x_label);
    f.table.units.push_back(l.x_unit);
    for (const Series& s : series) {
        f.table.columns.push_back(s.high.empty() ? s.name : s.name + " mean");
        f.table.units.push_back(l.y_unit);
        if (!s.high.empty()) {
            f.table.columns.push_back(s.name + " " + s.low_name);
            f.table.columns.push_back(s.name + " " + s.high_name);
            f.table.units.push_back(l.y_unit);
            f.table.units.push_back(l.y_unit);
        }
    }
    const std::size_t rows = series.empty() ? 0 : series[0].x.size();
    for (std::size_t i = 0; i < rows; ++i) {
        std::vector<Cell> row{series[0].x[i]};
        for (const Series& s : series) {
            row.emplace_back(at(s.y, i));
            if (!s.high.empty()) {
                row.emplace_back(at(s.low, i));
                row.emplace_back(at(s.high, i));
            }
        }
        f.table.rows.push_back(std::move(row));
    }
    return f;
}

Figure bar_chart(const Labels& l, const std::vector<Bar>& bars, const std::string& marker_name) {
    double lo = 0, hi = -inf;
    for (const Bar& b : bars) {
        range_of(b.value, lo, hi);
        if (b.marker) range_of(*b.marker, lo, hi);
    }
    if (hi == -inf) hi = 1;
    const std::vector<double> xt = ticks(lo, hi);
    constexpr double row = 40, bar_left = 16;
    const double plot_bottom = top + row * double(bars.size()) + 4;
    const Scale x{lo, hi, bar_left, width - right - 70};
    std::string body = "<g stroke=\"#d0d7de\">\n";
    for (const double v : xt) body += fmt::format("<line x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>\n", x(v), x(v), top, plot_bottom);
    body += "</g>\n<g fill=\"#57606a\">\n";
    for (const double v : xt) body += text(x(v), plot_bottom + 16, tick_text(v), "middle");
    body += "</g>\n";
    body += text((x.from + x.to) / 2, plot_bottom + 34, l.x_label, "middle");
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const Bar& b = bars[i];
        const double y0 = top + row * double(i);
        body += text(bar_left, y0 + 13, b.label);
        const double a = x(std::min(0.0, b.value)), e = x(std::max(0.0, b.value));
        body += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"14\" fill=\"{}\"/>\n", a, y0 + 18,
                            std::max(e - a, 0.5), colour(0));
        body += text(std::max(e, x(b.marker.value_or(0))) + 6, y0 + 30, html::number(b.value, l.x_unit), "start",
                     " fill=\"#1b1f24\"");
        if (b.marker)
            body += fmt::format("<path d=\"M{0:.1f} {1:.1f} l5 7 l-5 7 l-5 -7 z\" fill=\"{2}\" stroke=\"#fff\"/>\n",
                                x(*b.marker), y0 + 18, colour(1));
    }
    std::string legend_svg;
    double used = 0;
    const bool markers = std::any_of(bars.begin(), bars.end(), [](const Bar& b) { return b.marker.has_value(); });
    if (!marker_name.empty() && markers) used = legend(legend_svg, {{l.y_label, colour(0)}, {marker_name, colour(1)}}, plot_bottom + 58);
    Figure f;
    f.svg = open_svg(l, plot_bottom + 44 + used + (used > 0 ? 8 : 0)) + body + legend_svg + "</svg>\n";
    f.caption = l.description;
    f.table.caption = l.title;
    f.table.columns = {"label", l.y_label};
    f.table.units = {"", l.x_unit};
    if (!marker_name.empty()) f.table.columns.push_back(marker_name), f.table.units.push_back(l.x_unit);
    for (const Bar& b : bars) {
        std::vector<Cell> r{b.label, b.value};
        if (!marker_name.empty()) r.push_back(b.marker ? Cell(*b.marker) : Cell());
        f.table.rows.push_back(std::move(r));
    }
    return f;
}

Figure scatter_chart(const Labels& l, const std::vector<Point>& points, bool frontier) {
    double xlo = inf, xhi = -inf, ylo = inf, yhi = -inf;
    for (const Point& p : points) range_of(p.x, xlo, xhi), range_of(p.y, ylo, yhi);
    if (xlo == inf) xlo = 0, xhi = 1, ylo = 0, yhi = 1;
    const double xpad = (xhi - xlo) * 0.08, ypad = (yhi - ylo) * 0.08;
    xlo -= xpad, xhi += xpad, ylo -= ypad, yhi += ypad;
    const std::vector<double> xt = ticks(xlo, xhi), yt = ticks(ylo, yhi);
    const double plot_bottom = top + 260;
    const Scale x{xlo, xhi, left, width - right}, y{ylo, yhi, plot_bottom, top};
    std::string body = axes(l, x, xt, y, yt);
    if (frontier) {
        std::vector<const Point*> sorted;
        for (const Point& p : points) sorted.push_back(&p);
        std::sort(sorted.begin(), sorted.end(), [](const Point* a, const Point* b) { return a->x < b->x || (a->x == b->x && a->y < b->y); });
        std::string line;
        double best = inf;
        for (const Point* p : sorted)
            if (p->y < best) {
                best = p->y;
                line += fmt::format("{:.1f},{:.1f} ", x(p->x), y(p->y));
            }
        body += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n", line, colour(1));
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        body += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"{}\" fill-opacity=\"0.8\"/>\n", x(points[i].x), y(points[i].y), colour(0));
        // A few points carry their names too; many would overlap, so they carry their numbers only.
        const std::string name = points.size() <= 6 ? std::to_string(i + 1) + " " + points[i].label : std::to_string(i + 1);
        const bool right_half = x(points[i].x) > (x.from + x.to) / 2;
        body += text(x(points[i].x) + (right_half ? -7 : 7), y(points[i].y) - 7, name, right_half ? "end" : "start");
    }
    Figure f;
    f.svg = open_svg(l, plot_bottom + 44) + body + "</svg>\n";
    f.caption = l.description + (frontier ? " The dashed line joins the points no other point beats on both." : "") +
                " Numbers are the rows of the table.";
    f.table.caption = l.title;
    f.table.columns = {"#", "label", l.x_label, l.y_label};
    f.table.units = {"", "", l.x_unit, l.y_unit};
    for (std::size_t i = 0; i < points.size(); ++i)
        f.table.rows.push_back({(long long)(i + 1), points[i].label, points[i].x, points[i].y});
    return f;
}

Figure histogram(const Labels& l, std::span<const double> samples, int bins) {
    double lo = inf, hi = -inf;
    for (const double v : samples) range_of(v, lo, hi);
    if (lo == inf) lo = 0, hi = 1;
    if (!(hi > lo)) hi = lo + 1;
    std::vector<long long> counts(bins, 0);
    const double w = (hi - lo) / bins;
    for (const double v : samples)
        if (std::isfinite(v)) ++counts[std::min<std::size_t>(bins - 1, std::size_t((v - lo) / w))];
    double xlo = lo, xhi = hi, ylo = 0, yhi = double(*std::max_element(counts.begin(), counts.end()));
    const std::vector<double> xt = ticks(xlo, xhi), yt = ticks(ylo, yhi);
    const double plot_bottom = top + 240;
    const Scale x{xlo, xhi, left, width - right}, y{ylo, yhi, plot_bottom, top};
    std::string body = axes(l, x, xt, y, yt);
    for (int b = 0; b < bins; ++b) {
        const double a = x(lo + b * w), e = x(lo + (b + 1) * w);
        body += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.5\"/>\n",
                            a, y(double(counts[b])), std::max(e - a, 0.5), plot_bottom - y(double(counts[b])), colour(0));
    }
    Figure f;
    f.svg = open_svg(l, plot_bottom + 44) + body + "</svg>\n";
    f.caption = l.description;
    f.table.caption = l.title;
    f.table.columns = {"from", "to", "count"};
    f.table.units = {l.x_unit, l.x_unit, "count"};
    for (int b = 0; b < bins; ++b) f.table.rows.push_back({lo + b * w, lo + (b + 1) * w, counts[b]});
    return f;
}

}  // namespace gputco::svg
