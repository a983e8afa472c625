#pragma once
// Time conventions of every model (reference: AWS, Azure and Infracost):
// 1 year = 8,760 h, 1 month = 730 h, so a 3-year horizon is 36 months = 26,280 h.
#include <cstddef>

#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"

namespace gputco {

inline constexpr double hours_per_year = 8760.0;
inline constexpr double hours_per_month = 730.0;
inline constexpr int months_per_year = 12;
inline constexpr std::size_t whole_hours_per_month = 730;

/// A planning horizon of whole months, starting at month 0.
class Horizon {
public:
    /// n whole months, 0 < n <= 1200 (limits::max_horizon_months).
    static Horizon months(int n) {
        require(n > 0, "horizon.months", n, "must be > 0");
        require(n <= limits::max_horizon_months, "horizon.months", n,
                fmt::format("must be <= {} (100 years)", limits::max_horizon_months));
        return Horizon(n);
    }
    /// n whole years, 0 < n <= 100, 12 months each.
    static Horizon years(int n) {
        require(n > 0, "horizon.years", n, "must be > 0");
        require(n <= limits::max_horizon_years, "horizon.years", n,
                fmt::format("must be <= {}", limits::max_horizon_years));
        return Horizon(n * months_per_year);
    }
    int month_count() const { return months_; }
    std::size_t hour_count() const { return static_cast<std::size_t>(months_) * whole_hours_per_month; }
    double hours() const { return months_ * hours_per_month; }
    double years_span() const { return months_ / double(months_per_year); }
    bool operator==(const Horizon&) const = default;

private:
    explicit Horizon(int months) : months_(months) {}
    int months_;
};

}  // namespace gputco
