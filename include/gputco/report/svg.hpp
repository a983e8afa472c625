#pragma once
// The report's charts as inline SVG, each with the table of the numbers it draws (the accessible
// version of the plot: screen readers and anyone who wants the figures read the table). Written here
// rather than through matplotlib so the command needs no Python: one renderer for the command and
// Python alike. Four shapes cover the results: lines with bands (cost fans, cumulative cost), bars
// with a marker (totals and P95, regret), points (cost-risk frontier, cost against time), a histogram
// (Monte Carlo cost samples).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gputco/report/html.hpp"

namespace gputco::svg {

/// A chart: the <svg> (role img, <title> and <desc> naming it and saying what it shows) and its table.
struct Figure {
    std::string svg;
    html::Table table;
    std::string caption;
};

/// A <figure>: the chart, its caption, then its table inside <details> (open without script).
std::string render(const Figure& figure);

/// What every chart has: an id unique in the page (for aria-labelledby), a title, a description
/// (the alternative text), axis labels and the units of the table's columns.
struct Labels {
    std::string id, title, description, x_label, y_label, x_unit, y_unit;
};

struct Series {
    std::string name;
    std::vector<double> x, y;
    std::vector<double> low, high;  ///< a band around y (both empty: none), e.g. P5 to P95
    std::string low_name = "p5", high_name = "p95";
};
Figure line_chart(const Labels& labels, const std::vector<Series>& series);

struct Bar {
    std::string label;
    double value = 0;
    std::optional<double> marker;  ///< e.g. the P95 beside a mean
};
/// Horizontal bars, each label above its bar (long names stay whole on a phone).
Figure bar_chart(const Labels& labels, const std::vector<Bar>& bars, const std::string& marker_name = "");

struct Point {
    std::string label;
    double x = 0, y = 0;
};
/// Numbered points (the table gives each number's label); `frontier`: joins the points no other
/// point beats on both x and y (lower is better on both).
Figure scatter_chart(const Labels& labels, const std::vector<Point>& points, bool frontier = false);

/// `bins` equal bins from the least to the largest sample.
Figure histogram(const Labels& labels, std::span<const double> samples, int bins = 30);

}  // namespace gputco::svg
