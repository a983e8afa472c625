#include <doctest/doctest.h>

#include <random>
#include <string>

#include <fmt/format.h>

#include "gputco/core/random.hpp"
#include "gputco/report/html.hpp"

using namespace gputco;

TEST_CASE("escape: the five characters HTML gives meaning to, nothing else") {
    CHECK(html::escape("a<b>&\"c'd é") == "a&lt;b&gt;&amp;&quot;c&#39;d é");
    CHECK(html::escape("") == "");
}

TEST_CASE("number: thousands grouped, 2 decimals for currency, 4 significant digits below 1") {
    CHECK(html::number(1303157.694) == "1,303,157.69");
    CHECK(html::number(-1234.5) == "-1,234.50");
    CHECK(html::number(999.999) == "1,000.00");
    CHECK(html::number(0) == "0.00");
    CHECK(html::number(0.25, "fraction") == "0.25");
    CHECK(html::number(12345.6, "hours") == "12,345.6000");
    CHECK(html::number(std::nan(""), "hours") == "nan");
    CHECK(html::cell_text(Cell(), "currency") == "\u2014");
    CHECK(html::cell_text(Cell(7LL), "count") == "7");
}

TEST_CASE("number: without its commas it is fmt's fixed text, for any amount") {
    Xoshiro256pp rng(35);
    std::uniform_real_distribution<double> exponent(-3, 12);
    for (int i = 0; i < 2000; ++i) {
        const double v = (rng() % 2 ? -1 : 1) * std::pow(10.0, exponent(rng));
        std::string shown = html::number(v);
        std::erase(shown, ',');
        CHECK(shown == fmt::format("{:.2f}", v));
        // Groups of three digits between the commas.
        const std::string text = html::number(v);
        const auto point = text.find('.');
        for (std::size_t c = text.find(','); c != std::string::npos && c < point; c = text.find(',', c + 1))
            CHECK(text.find_first_of(",.", c + 1) == c + 4);
    }
}

TEST_CASE("exact: the shortest text that reads back as the same double") {
    Xoshiro256pp rng(3);
    for (int i = 0; i < 1000; ++i) {
        const double v = double(rng()) / 1e3;
        CHECK(std::stod(html::exact(v)) == v);
    }
}

struct Row {
    std::string name;
    double cost;
};

TEST_CASE("table_of renders the column list it is given, in its order, with units") {
    const std::vector<Column<Row>> columns{
        {"name", "", Dtype::text, [](const Row& r) { return Cell(r.name); }},
        {"cost", "currency", Dtype::float64, [](const Row& r) { return Cell(r.cost); }},
    };
    const std::vector<Row> rows{{"a<b", 1234.5}, {"c", 2}};
    const html::Table t = html::table_of("Costs", columns, rows);
    CHECK(t.columns == std::vector<std::string>{"name", "cost"});
    CHECK(t.units == std::vector<std::string>{"", "currency"});
    const std::string out = html::render(t);
    CHECK(out.find("<th scope=\"col\">cost<br><span class=\"unit\">currency</span></th>") != std::string::npos);
    CHECK(out.find("<th scope=\"row\">a&lt;b</th><td class=\"num\">1,234.50</td>") != std::string::npos);
    CHECK(html::table_of("Costs", columns, rows, {"cost"}).columns == std::vector<std::string>{"cost"});
}

TEST_CASE("page: a document with its language, viewport and title, and no script") {
    const std::string p = html::page("A & B", "<p>x</p>");
    CHECK(p.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    CHECK(p.find("<title>A &amp; B</title>") != std::string::npos);
    CHECK(p.find("name=\"viewport\"") != std::string::npos);
    CHECK(p.find("<script") == std::string::npos);
    CHECK(p.ends_with("</html>\n"));
}
