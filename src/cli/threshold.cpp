#include "threshold.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include <gputco/core/error.hpp>

namespace gputco::cli {
namespace {
constexpr std::string_view rule =
    "must be an amount (500) or a percentage (2.5%), >= 0, optionally after total:, npv: or p95:";
}

ChangeLimit ChangeLimit::parse(std::string_view text) {
    ChangeLimit limit;
    std::string_view value = text;
    if (const auto colon = text.find(':'); colon != std::string_view::npos) {
        const std::string metric(text.substr(0, colon));
        if (metric != "total" && metric != "npv" && metric != "p95") fail("--fail-above", text, rule);
        limit.metrics = {metric};
        value = text.substr(colon + 1);
    } else {
        limit.metrics = {"total", "npv", "p95"};
    }
    if (!value.empty() && value.back() == '%') {
        limit.percent = true;
        value.remove_suffix(1);
    }
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), limit.amount);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !std::isfinite(limit.amount) ||
        limit.amount < 0)
        fail("--fail-above", text, rule);
    return limit;
}

bool ChangeLimit::exceeded(double before, double after) const {
    const double change = std::abs(after - before);
    if (!percent) return change > amount;
    if (before == 0) return change > 0;
    return change / std::abs(before) * 100 > amount;
}

std::string ChangeLimit::shown() const { return fmt::format("{}{}", amount, percent ? "%" : ""); }

std::string describe(const LimitBreach& b) {
    const double change = b.after - b.before;
    const std::string relative = b.before != 0 ? fmt::format(" ({:+.2f}%)", change / std::abs(b.before) * 100) : "";
    return fmt::format("{}: {} moved by {:+.2f}{}, beyond the limit {}", b.strategy, b.metric, change, relative, b.limit);
}

}  // namespace gputco::cli
