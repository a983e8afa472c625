#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "gputco/results/report.hpp"
#include "rich_report.hpp"

using namespace gputco;

namespace {
/// Two months by hand: 1,000 upfront and 500 on demand, then 500 on demand less a 100 credit.
CostReport two_months() {
    CostReport r;
    r.strategy = "100% reserved 1y all_upfront";
    r.offering = "testcloud/test-1/gpu1";
    r.currency = "USD";
    r.horizon_months = 2;
    r.months = {MonthlyCashFlow{.month = 0, .upfront = 1000, .on_demand = 500, .total = 1500},
                MonthlyCashFlow{.month = 1, .on_demand = 500, .credits = -100, .total = 400}};
    r.total = 1900;
    r.baseline_total = 2500;
    r.savings = 600;
    r.savings_fraction = 0.24;
    r.break_even_utilisation = 0.48;
    r.break_even_month = 2;
    r.assumptions = {"a hand-made report"};
    return r;
}
}  // namespace

TEST_CASE("money is printed with thousands separators") {
    CHECK(format_money(1234567.891) == "1,234,567.89");
    CHECK(format_money(-42000, 0) == "-42,000");
    CHECK(format_money(999.995) == "1,000.00");  // rounds before grouping
    CHECK(format_money(-0.001) == "0.00");       // no negative zero
    CHECK(format_money(12.5, 1) == "12.5");
    CHECK(format_money(std::nan("")) == "nan");
}

TEST_CASE("credits_total sums the credits category") {
    CHECK(two_months().credits_total() == -100.0);
}

TEST_CASE("the table shows assumptions, totals, savings, break-even and yearly flows") {
    const std::string table = fmt::format("{}", two_months());
    CHECK(table.find("Strategy: 100% reserved 1y all_upfront") != std::string::npos);
    CHECK(table.find("  - a hand-made report") != std::string::npos);
    CHECK(table.find("1,900.00") != std::string::npos);
    CHECK(table.find("(24.0%)") != std::string::npos);
    CHECK(table.find("48.0%") != std::string::npos);
    // One yearly row: upfront 1,000, on-demand 1,000, credits −100, total 1,900.
    CHECK(table.find("    1       1,000.00           0.00       1,000.00           0.00        -100.00           0.00       1,900.00") !=
          std::string::npos);
}

TEST_CASE("JSON and CSV carry every month") {
    const CostReport r = two_months();
    const std::string json = r.to_json();
    CHECK(json.find("\"break_even_month\": 2") != std::string::npos);
    CHECK(json.find("\"spread\": null") != std::string::npos);
    CHECK(json.find("\"credits\": -100.0") != std::string::npos);
    const std::string csv = r.to_csv();
    CHECK(csv.find("\n0,1000,0,500,0,0,1500,") != std::string::npos);
    CHECK(csv.find("\n1,0,0,500,0,-100,400,") != std::string::npos);
}

namespace {
std::string read_text(const std::string& name) {
    std::ifstream in(std::string(GPUTCO_SOURCE_DIR) + "/tests/data/" + name, std::ios::binary);
    REQUIRE(in);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}
}  // namespace

TEST_CASE("the writers' output is unchanged by the field lists (golden files)") {
    const CostReport r = rich_report();
    CHECK(r.to_json() == read_text("report_rich.json"));
    CHECK(r.to_csv() == read_text("report_rich.csv"));
    CHECK(r.to_table() == read_text("report_rich.txt"));
}

TEST_CASE("every cost figure is in the JSON, and every labelled one in the table") {
    // The rich report sets every figure (a discount rate, a break-even, reserved and owned use), so
    // every line of the table shows. CSV holds the monthly flows only, no figure.
    const CostReport r = rich_report();
    const std::string json = r.to_json(), table = r.to_table();
    std::vector<std::string_view> unlabelled;
    for (const auto& f : cost_figure_fields<CostReport>) {
        CAPTURE(f.name);
        CHECK(json.find(fmt::format("\"{}\": ", f.name)) != std::string::npos);
        CHECK(f.value(r).has_value());
        if (f.label.empty()) unlabelled.push_back(f.name);
        else CHECK(table.find(fmt::format("\n{}", f.label)) != std::string::npos);
    }
    // Shown elsewhere or not at all: the rate in the assumptions, the fraction beside the savings.
    CHECK(unlabelled == std::vector<std::string_view>{"annual_discount_rate", "used_gpu_hours", "savings_fraction"});
    CHECK(table.find(fmt::format("({:.1f}%)", 100 * r.savings_fraction)) != std::string::npos);
    // A figure that does not apply is null in the JSON.
    CostReport none = r;
    none.break_even_month.reset();
    CHECK(none.to_json().find("\"break_even_month\": null") != std::string::npos);
}

TEST_CASE("every member of a month is in the field list once") {
    // A member added to MonthlyCashFlow without its line in the list changes its size (an int padded
    // to 8 bytes and 18 doubles = 19 fields of 8 bytes).
    CHECK(sizeof(MonthlyCashFlow) == monthly_cash_flow_fields.size() * sizeof(double));
    // Each field reads its own member: give every double member a distinct value through the list.
    MonthlyCashFlow f;
    f.month = 100;
    double v = 1;
    for (const auto& field : monthly_cash_flow_fields)
        if (const auto* member = std::get_if<double MonthlyCashFlow::*>(&field.member)) f.*(*member) = v++;
    std::vector<double> seen;
    for (const auto& field : monthly_cash_flow_fields) seen.push_back(field.value(f));
    std::sort(seen.begin(), seen.end());
    CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
    CHECK(seen.back() == 100);  // the month, read as an integer field
    CHECK(monthly_cash_flow_fields.front().integer());
}
