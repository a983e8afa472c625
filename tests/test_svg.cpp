#include <doctest/doctest.h>

#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gputco/core/random.hpp"
#include "gputco/report/svg.hpp"

using namespace gputco;

namespace {
const svg::Labels labels{"c1", "Title <1>", "What it shows", "x", "y", "hours", "currency"};
std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}
}  // namespace

TEST_CASE("every chart is an image named by its title and description") {
    const svg::Figure f = svg::bar_chart(labels, {{"a", 1, 2}, {"b", 3, std::nullopt}}, "p95");
    CHECK(f.svg.find("role=\"img\" aria-labelledby=\"c1-title c1-desc\"") != std::string::npos);
    CHECK(f.svg.find("<title id=\"c1-title\">Title &lt;1&gt;</title>") != std::string::npos);
    CHECK(f.svg.find("<desc id=\"c1-desc\">What it shows</desc>") != std::string::npos);
    const std::string shown = svg::render(f);
    CHECK(shown.find("<details><summary>Table of this plot</summary>") != std::string::npos);
}

TEST_CASE("bar chart: one bar per row, a marker where given, the table holds both") {
    const svg::Figure f = svg::bar_chart(labels, {{"a", 1, 2}, {"b", -3, std::nullopt}, {"c", 0, 1}}, "p95");
    CHECK(count(f.svg, "<rect") == 3 + 2);  // bars, then the legend's two keys
    CHECK(count(f.svg, "<path") == 2);
    REQUIRE(f.table.rows.size() == 3);
    CHECK(f.table.rows[0] == std::vector<Cell>{std::string("a"), 1.0, 2.0});
    CHECK(std::holds_alternative<std::monostate>(f.table.rows[1][2]));
}

TEST_CASE("histogram: the counts add up to the samples, for many seeded sample sets") {
    Xoshiro256pp rng(35);
    for (int trial = 0; trial < 200; ++trial) {
        const int n = 1 + int(rng() % 5000), bins = 1 + int(rng() % 60);
        std::lognormal_distribution<double> cost(std::uniform_real_distribution<double>(0, 8)(rng), 0.5);
        std::vector<double> samples(n);
        for (double& v : samples) v = trial % 10 == 0 ? 42.0 : cost(rng);  // every tenth: all equal
        const svg::Figure f = svg::histogram(labels, samples, bins);
        REQUIRE(f.table.rows.size() == std::size_t(bins));
        long long total = 0;
        for (const auto& row : f.table.rows) total += std::get<long long>(row[2]);
        CHECK(total == n);
        // Bins tile the range: each starts where the last ended.
        for (std::size_t b = 1; b < f.table.rows.size(); ++b)
            CHECK(std::get<double>(f.table.rows[b][0]) == doctest::Approx(std::get<double>(f.table.rows[b - 1][1])));
        CHECK(count(f.svg, "<rect") == std::size_t(bins));
    }
}

TEST_CASE("line chart: a row per x, a column per series and its band") {
    const svg::Series with_band{"plan", {1, 2, 3}, {10, 20, 30}, {5, 15, 25}, {15, 25, 35}};
    const svg::Series plain{"other", {1, 2, 3}, {1, 2, 3}, {}, {}};
    const svg::Figure f = svg::line_chart(labels, {with_band, plain});
    CHECK(f.table.columns == std::vector<std::string>{"x", "plan mean", "plan p5", "plan p95", "other"});
    REQUIRE(f.table.rows.size() == 3);
    CHECK(f.table.rows[2] == std::vector<Cell>{3.0, 30.0, 25.0, 35.0, 3.0});
    CHECK(count(f.svg, "<polygon") == 1);
    CHECK(count(f.svg, "<polyline") == 2);
}

TEST_CASE("scatter: numbered points, the frontier through the points nothing beats on both axes") {
    const std::vector<svg::Point> points{{"a", 1, 5}, {"b", 2, 3}, {"c", 3, 4}, {"d", 4, 1}};
    const svg::Figure f = svg::scatter_chart(labels, points, true);
    CHECK(count(f.svg, "<circle") == 4);
    // a, b and d are on the frontier; c is beaten by b on both.
    const auto line = f.svg.substr(f.svg.find("<polyline points=\""));
    CHECK(count(line.substr(0, line.find("\" fill")), ",") == 3);
    CHECK(f.table.rows[3] == std::vector<Cell>{4LL, std::string("d"), 4.0, 1.0});
}
