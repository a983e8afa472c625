#pragma once
// `gputco compare --fail-above`: limits on how far total, NPV or P95 may move between two versions
// of a scenario, so that a CI job fails when a change to a plan moves its cost too much.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gputco::cli {

/// One limit: "500" (an amount in the scenario's currency), "2.5%" (of the value before), either
/// after "total:", "npv:" or "p95:" to apply to that figure only (otherwise to all three).
struct ChangeLimit {
    std::vector<std::string> metrics;  ///< of total, npv, p95
    double amount = 0;                 ///< >= 0
    bool percent = false;              ///< amount is a percentage of |before|

    /// Throws InvalidInput("--fail-above = \"x\": ...") naming the rule it breaks.
    static ChangeLimit parse(std::string_view text);
    /// True if moving from `before` to `after` goes beyond the limit (|after - before| > limit;
    /// for a percentage of a zero `before`, any change does).
    bool exceeded(double before, double after) const;
    /// "2.5%" or "500".
    std::string shown() const;
};

/// One figure of one strategy that moved beyond a limit.
struct LimitBreach {
    std::string strategy, metric;
    double before = 0, after = 0;
    std::string limit;
};

/// "on-demand: total moved by +1234.00 (+2.10%), beyond the limit 1000".
std::string describe(const LimitBreach& breach);

}  // namespace gputco::cli
