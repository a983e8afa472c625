#pragma once
// What the cost engine returns: monthly cash flows by category and the figures planners ask for
// (totals, NPV, savings vs all on-demand, break-even), with every assumption spelled out.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "gputco/results/fields.hpp"

namespace gputco {

/// 1234567.891 → "1,234,567.89" (`decimals` after the point): money with thousands separators.
std::string format_money(double value, int decimals = 2);

/// Cash paid at the start of one month, by category, in the report's currency.
struct MonthlyCashFlow {
    int month = 0;                  ///< 0-based month index
    double upfront = 0;             ///< reservation upfront payments
    double reserved_recurring = 0;  ///< reservation hourly fees, used or not
    double on_demand = 0;
    double spot = 0;
    double credits = 0;             ///< free hours, on-demand discounts, vouchers (<= 0)
    double capex = 0;               ///< purchases of owned GPUs
    double operating = 0;           ///< owned GPUs' power, colocation, maintenance and staff
    double resale = 0;              ///< owned hardware sold at end of life or credited at book value (<= 0)
    double total = 0;               ///< sum of the above
    double used_gpu_hours = 0;      ///< demand served this month
    double reserved_gpu_hours = 0;  ///< reserved GPU-hours paid for this month
    double reserved_used_gpu_hours = 0;
    double spot_gpu_hours = 0;      ///< useful GPU-hours served on spot
    double on_demand_gpu_hours = 0; ///< demand served on demand
    /// GPU-hours paid for: in whole instances, a part-filled instance is paid in full (= the served
    /// hours when counted in GPUs). Spot's before its overhead.
    double spot_paid_gpu_hours = 0;
    double on_demand_paid_gpu_hours = 0;
    double owned_gpu_hours = 0;     ///< owned GPU-hours available this month
    double owned_used_gpu_hours = 0;
    /// Commitments held before the horizon (part of the reserved hours above): paid and used GPU-hours.
    double held_gpu_hours = 0;
    double held_used_gpu_hours = 0;
    /// Changes of commitments: exchange true-ups paid (> 0), resale proceeds and refunds (< 0), at the
    /// share of cloud charges the plan pays itself (× the voucher price factor).
    double commitment_changes = 0;
};

/// MonthlyCashFlow's fields in the order of the CSV columns and the DataFrame (JSON, CSV, Python).
inline constexpr auto monthly_cash_flow_fields = std::to_array<ResultField<MonthlyCashFlow>>({
    {"month", &MonthlyCashFlow::month, "month"},
    {"upfront", &MonthlyCashFlow::upfront, "currency"},
    {"reserved_recurring", &MonthlyCashFlow::reserved_recurring, "currency"},
    {"on_demand", &MonthlyCashFlow::on_demand, "currency"},
    {"spot", &MonthlyCashFlow::spot, "currency"},
    {"credits", &MonthlyCashFlow::credits, "currency"},
    {"total", &MonthlyCashFlow::total, "currency"},
    {"used_gpu_hours", &MonthlyCashFlow::used_gpu_hours, "GPU-hours"},
    {"reserved_gpu_hours", &MonthlyCashFlow::reserved_gpu_hours, "GPU-hours"},
    {"reserved_used_gpu_hours", &MonthlyCashFlow::reserved_used_gpu_hours, "GPU-hours"},
    {"spot_gpu_hours", &MonthlyCashFlow::spot_gpu_hours, "GPU-hours"},
    {"on_demand_gpu_hours", &MonthlyCashFlow::on_demand_gpu_hours, "GPU-hours"},
    {"capex", &MonthlyCashFlow::capex, "currency"},
    {"operating", &MonthlyCashFlow::operating, "currency"},
    {"resale", &MonthlyCashFlow::resale, "currency"},
    {"owned_gpu_hours", &MonthlyCashFlow::owned_gpu_hours, "GPU-hours"},
    {"owned_used_gpu_hours", &MonthlyCashFlow::owned_used_gpu_hours, "GPU-hours"},
    {"spot_paid_gpu_hours", &MonthlyCashFlow::spot_paid_gpu_hours, "GPU-hours"},
    {"on_demand_paid_gpu_hours", &MonthlyCashFlow::on_demand_paid_gpu_hours, "GPU-hours"},
    {"held_gpu_hours", &MonthlyCashFlow::held_gpu_hours, "GPU-hours"},
    {"held_used_gpu_hours", &MonthlyCashFlow::held_used_gpu_hours, "GPU-hours"},
    {"commitment_changes", &MonthlyCashFlow::commitment_changes, "currency"},
});
// Every member is listed: `month` (an int padded to 8 bytes) and one double per other field. A member
// added to the struct but not to the list fails here, not in a sum that silently leaves it at 0.
static_assert(sizeof(MonthlyCashFlow) == sizeof(double) * monthly_cash_flow_fields.size(),
              "MonthlyCashFlow has a member missing from monthly_cash_flow_fields");

/// Spread of a total cost (from spot overhead samples).
struct CostSpread {
    double mean = 0, p05 = 0, p50 = 0, p95 = 0, p99 = 0;
};

inline constexpr auto cost_spread_fields = std::to_array<ResultField<CostSpread>>({
    {"mean", &CostSpread::mean, "currency"},
    {"p05", &CostSpread::p05, "currency"},
    {"p50", &CostSpread::p50, "currency"},
    {"p95", &CostSpread::p95, "currency"},
    {"p99", &CostSpread::p99, "currency"},
});

/// A figure of a strategy's cost, listed once (cost_figure_fields) for every output that lists them:
/// the JSON writer, the text table (its label), Python's CostReport.summary() and the columns of
/// evaluate_batch. `Row` is CostReport or CostFigures (engines/cost.hpp), whose members share names.
template <class Row>
struct CostFigureField {
    using Member = std::variant<double Row::*, std::optional<double> Row::*, std::optional<int> Row::*>;
    std::string_view name;   ///< JSON key, Python attribute, dict key and column
    Member member;
    std::string_view unit;
    std::string_view label;  ///< its line in the text table; empty when the table leaves it out

    /// The figure; none where it does not apply (a std::optional without a value).
    std::optional<double> value(const Row& row) const {
        return std::visit([&row](auto m) -> std::optional<double> {
            const auto& v = row.*m;
            if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(v)>>) return v;
            else return v ? std::optional<double>(*v) : std::nullopt;
        }, member);
    }
    /// A figure that may not apply (JSON null, Python None, pandas <NA>).
    bool optional() const { return !std::holds_alternative<double Row::*>(member); }
    /// A whole number (the break-even month): written without a decimal point, an Int64 column.
    bool integer() const { return std::holds_alternative<std::optional<int> Row::*>(member); }
};

/// The figures in the order of Python's CostReport.summary() and evaluate_batch's columns; the JSON
/// writer sorts its keys and the text table keeps its own order, reading the labels from here.
template <class Row>
inline constexpr auto cost_figure_fields = std::to_array<CostFigureField<Row>>({
    {"total", &Row::total, "currency", "Total cost"},
    {"npv", &Row::npv, "currency", "NPV"},
    {"annual_discount_rate", &Row::annual_discount_rate, "fraction per year", ""},
    {"used_gpu_hours", &Row::used_gpu_hours, "GPU-hours", ""},
    {"effective_cost_per_used_gpu_hour", &Row::effective_cost_per_used_gpu_hour, "currency per GPU-hour",
     "Cost per used GPU-hour"},
    {"reserved_utilisation", &Row::reserved_utilisation, "fraction", "Reserved utilisation"},
    {"owned_utilisation", &Row::owned_utilisation, "fraction", "Owned utilisation"},
    {"baseline_total", &Row::baseline_total, "currency", "All on-demand (same demand)"},
    {"savings", &Row::savings, "currency", "Savings vs all on-demand"},
    {"savings_fraction", &Row::savings_fraction, "fraction", ""},  // in the savings line, as a percentage
    {"break_even_utilisation", &Row::break_even_utilisation, "fraction", "Break-even utilisation"},
    {"break_even_month", &Row::break_even_month, "month (1-based)", "Break-even month"},
});

struct CostReport {
    std::string strategy;           ///< describe(strategy)
    std::string offering;           ///< offering key, provider/region/instance_type
    std::string currency;
    int horizon_months = 0;
    std::string units = "gpus";     ///< "instances" (whole instances) or "gpus" (the GPU-level view)
    int gpus_per_unit = 1;          ///< GPUs per unit bought: the instance size, or 1 for "gpus"
    /// One entry per month of the horizon, and beyond it while a reservation term still runs
    /// (a term outlasting the horizon is a liability paid in full).
    std::vector<MonthlyCashFlow> months;

    double total = 0;               ///< undiscounted sum of all cash flows
    double npv = 0;                 ///< at annual_discount_rate, flows at the start of each month
    double annual_discount_rate = 0;
    double used_gpu_hours = 0;
    /// total / used_gpu_hours; none when no GPU-hour is used, or less than limits::min_ratio_divisor
    /// (1e-12 GPU-hours): there is no cost per hour to state.
    std::optional<double> effective_cost_per_used_gpu_hour;
    double reserved_utilisation = 0;   ///< reserved GPU-hours used / paid (0 without reservations)
    double owned_utilisation = 0;      ///< owned GPU-hours used / available (0 without owned GPUs)
    double baseline_total = 0;         ///< the same demand all on-demand, same discounts
    double savings = 0;                ///< baseline_total − total
    /// savings / baseline_total; 0 when the baseline is below limits::min_ratio_divisor (1e-12 of a
    /// currency unit: nothing to compare against).
    double savings_fraction = 0;
    /// Utilisation above which the first committed tranche (reserved or owned GPU) pays off against
    /// on-demand: for a reservation, effective rate / on-demand rate; for an owned GPU, (hourly fixed
    /// cost + idle power) / (on-demand rate − power above idle). The on-demand rate is the one paid:
    /// after the region factor and on-demand discount, and for owned GPUs (which vouchers do not cover) after
    /// the voucher factor. None without a committed tranche, and when it never pays back (an owned GPU
    /// whose power above idle costs at least the on-demand price paid, a free on-demand price, or a
    /// margin so small that the utilisation would exceed a double).
    std::optional<double> break_even_utilisation;
    /// Months after which the cumulative cost stays at or below the baseline's (1-based; none if never).
    std::optional<int> break_even_month;
    std::optional<CostSpread> spread;  ///< present when a spot tranche carries overhead samples
    std::vector<std::string> assumptions;

    /// Sum of the credits category over all months (<= 0).
    double credits_total() const {
        double sum = 0;
        for (const auto& m : months) sum += m.credits;
        return sum;
    }

    /// Aligned text table: assumptions, totals, savings, break-even, then yearly cash flows by category.
    std::string to_table() const;
    /// Everything above as one JSON object (monthly flows included).
    std::string to_json() const;
    /// One row per month: month,upfront,reserved_recurring,on_demand,spot,credits,total,...
    std::string to_csv() const;
};

}  // namespace gputco

template <>
struct fmt::formatter<gputco::CostReport> : fmt::formatter<std::string_view> {
    template <class FormatContext>
    auto format(const gputco::CostReport& report, FormatContext& ctx) const {
        return fmt::formatter<std::string_view>::format(report.to_table(), ctx);
    }
};
