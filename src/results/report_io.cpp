// Text, JSON and CSV views of a CostReport.
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gputco/results/report.hpp"

namespace gputco {
namespace {

constexpr std::size_t months_per_table_year = 12;

std::string money(double value) { return format_money(value, 2); }

/// A figure that does not apply (std::optional without a value) in the text table.
constexpr std::string_view missing_text = "none";

nlohmann::json optional_json(const auto& value) {
    if (value) return nlohmann::json(*value);
    return nullptr;
}

/// One JSON object per row, a key per field of the row's list.
template <class Row, class Integer, std::size_t N>
nlohmann::json row_json(const Row& row, const std::array<ResultField<Row, Integer>, N>& fields) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& f : fields) {
        if (f.integer()) j[std::string(f.name)] = f.integer_value(row);
        else j[std::string(f.name)] = f.value(row);
    }
    return j;
}

/// A cost figure as JSON: a number (whole for the break-even month), null where it does not apply.
template <class Row>
nlohmann::json figure_json(const Row& row, const CostFigureField<Row>& f) {
    return std::visit([&row](auto m) {
        const auto& v = row.*m;
        if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(v)>>) return nlohmann::json(v);
        else return optional_json(v);
    }, f.member);
}

/// The text-table label of a listed figure; a name not in cost_figure_fields does not compile.
consteval std::string_view label(std::string_view name) {
    for (const auto& f : cost_figure_fields<CostReport>)
        if (f.name == name) return f.label;
    throw "not a cost figure";  // reached only at compile time: an error there
}

}  // namespace

std::string format_money(double value, int decimals) {
    if (!std::isfinite(value)) return fmt::format("{}", value);
    const std::string digits = fmt::format("{:.{}f}", std::abs(value), std::max(decimals, 0));
    const std::size_t point = std::min(digits.find('.'), digits.size());
    std::string grouped;
    for (std::size_t i = 0; i < point; ++i) {
        if (i > 0 && (point - i) % 3 == 0) grouped += ',';
        grouped += digits[i];
    }
    const bool zero = digits.find_first_not_of("0.") == std::string::npos;
    return (value < 0 && !zero ? "-" : "") + grouped + digits.substr(point);
}

std::string CostReport::to_table() const {
    std::string out;
    auto line = [&out](std::string_view text) { out.append(text).push_back('\n'); };
    line(fmt::format("Strategy: {}", strategy));
    line(fmt::format("Offering: {} ({}), horizon {} months", offering, currency, horizon_months));
    line(units == "instances" ? fmt::format("Bought in: whole instances of {} GPUs", gpus_per_unit)
                              : std::string("Bought in: single GPUs"));
    line("Assumptions:");
    for (const auto& a : assumptions) line(fmt::format("  - {}", a));
    // The figures' labels come from cost_figure_fields; the order and which lines show are the table's.
    line(fmt::format("{:<34}{:>18}", label("total"), money(total)));
    if (annual_discount_rate != 0) line(fmt::format("{:<34}{:>18}", label("npv"), money(npv)));
    line(fmt::format("{:<34}{:>18}", label("baseline_total"), money(baseline_total)));
    line(fmt::format("{:<34}{:>18}  ({:.1f}%)", label("savings"), money(savings), 100 * savings_fraction));
    line(fmt::format("{:<34}{:>18}", fmt::format("{} ({})", label("effective_cost_per_used_gpu_hour"), currency),
                     effective_cost_per_used_gpu_hour ? fmt::format("{:.4f}", *effective_cost_per_used_gpu_hour)
                                                      : std::string(missing_text)));
    if (break_even_utilisation) {
        line(fmt::format("{:<34}{:>17.1f}%", label("break_even_utilisation"), 100 * *break_even_utilisation));
        if (reserved_utilisation > 0)
            line(fmt::format("{:<34}{:>17.1f}%", label("reserved_utilisation"), 100 * reserved_utilisation));
        if (owned_utilisation > 0)
            line(fmt::format("{:<34}{:>17.1f}%", label("owned_utilisation"), 100 * owned_utilisation));
    }
    line(fmt::format("{:<34}{:>18}", label("break_even_month"),
                     break_even_month ? fmt::format("{}", *break_even_month) : std::string("never")));
    if (spread) {
        line(fmt::format("{:<34}{:>18}", "Spot spread P5", money(spread->p05)));
        line(fmt::format("{:<34}{:>18}", "Spot spread P50", money(spread->p50)));
        line(fmt::format("{:<34}{:>18}", "Spot spread P95", money(spread->p95)));
    }
    line(fmt::format("{:>5}{:>15}{:>15}{:>15}{:>15}{:>15}{:>15}{:>15}", "year", "upfront", "reserved", "on-demand",
                     "spot", "credits", "owned", "total"));
    for (std::size_t start = 0; start < months.size(); start += months_per_table_year) {
        MonthlyCashFlow year;
        double owned = 0;  // capex + operating + resale: one column in the yearly table
        for (std::size_t m = start; m < std::min(months.size(), start + months_per_table_year); ++m) {
            year.upfront += months[m].upfront;
            year.reserved_recurring += months[m].reserved_recurring;
            year.on_demand += months[m].on_demand;
            year.spot += months[m].spot;
            year.credits += months[m].credits;
            owned += months[m].capex + months[m].operating + months[m].resale;
            year.total += months[m].total;
        }
        line(fmt::format("{:>5}{:>15}{:>15}{:>15}{:>15}{:>15}{:>15}{:>15}", start / months_per_table_year + 1,
                         money(year.upfront), money(year.reserved_recurring), money(year.on_demand), money(year.spot),
                         money(year.credits), money(owned), money(year.total)));
    }
    return out;
}

std::string CostReport::to_json() const {
    nlohmann::json flows = nlohmann::json::array();
    for (const auto& f : months) flows.push_back(row_json(f, monthly_cash_flow_fields));
    const nlohmann::json spread_json = spread ? row_json(*spread, cost_spread_fields) : nlohmann::json(nullptr);
    nlohmann::json j = {
        {"strategy", strategy},
        {"offering", offering},
        {"currency", currency},
        {"horizon_months", horizon_months},
        {"units", units},
        {"gpus_per_unit", gpus_per_unit},
        {"spread", spread_json},
        {"assumptions", assumptions},
        {"months", flows},
    };
    for (const auto& f : cost_figure_fields<CostReport>) j[std::string(f.name)] = figure_json(*this, f);
    return j.dump(2);  // keys sorted (nlohmann::json's std::map), so the list's order does not show
}

std::string CostReport::to_csv() const {
    std::string out;
    for (const auto& field : monthly_cash_flow_fields) {
        if (!out.empty()) out += ',';
        out += field.name;
    }
    out += '\n';
    for (const auto& f : months) {
        for (std::size_t i = 0; i < monthly_cash_flow_fields.size(); ++i) {
            const auto& field = monthly_cash_flow_fields[i];
            if (i) out += ',';
            out += field.integer() ? fmt::format("{}", field.integer_value(f)) : fmt::format("{}", field.value(f));
        }
        out += '\n';
    }
    return out;
}

}  // namespace gputco
