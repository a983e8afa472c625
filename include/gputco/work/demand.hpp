#pragma once
// What must be served: the number of GPUs needed in every hour of a planning horizon.
// Hourly resolution, because reservations are billed per hour whether used or not and seasonality
// (nights, weekends) is what decides how much of a fleet is worth reserving.
//
//   auto demand = DemandProfile::linear_growth(4, 16, Horizon::years(3))
//                     .with_weekly_pattern({1, 1, 1, 1, 1, 0.3, 0.3});
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"
#include "gputco/core/time.hpp"
#include "gputco/work/sorted_months.hpp"

namespace gputco {

/// From `start_month` (0-based) on, `gpus` are needed (until the next step).
struct DemandStep {
    int start_month = 0;
    double gpus = 0;
};

/// GPUs needed per hour over a whole number of 730-hour months. Values are finite and in
/// [0, limits::max_gpus] (1e9), so every cost formed from them is finite.
class DemandProfile {
public:
    /// `gpus` every hour.
    static DemandProfile constant(double gpus, Horizon horizon) {
        require_gpus("demand.gpus", gpus);
        return DemandProfile(Eigen::ArrayXd::Constant(Eigen::Index(horizon.hour_count()), gpus), horizon);
    }

    /// Grows linearly from `start_gpus` in the first hour to `end_gpus` in the last.
    static DemandProfile linear_growth(double start_gpus, double end_gpus, Horizon horizon) {
        require_gpus("demand.start_gpus", start_gpus);
        require_gpus("demand.end_gpus", end_gpus);
        return DemandProfile(Eigen::ArrayXd::LinSpaced(Eigen::Index(horizon.hour_count()), start_gpus, end_gpus),
                             horizon);
    }

    /// start_gpus × (1 + annual_growth_rate)^(t / 8760 h), t the hour's start; rate > -1, and the
    /// last hour's demand must stay within limits::max_gpus.
    static DemandProfile compound_growth(double start_gpus, double annual_growth_rate, Horizon horizon) {
        require_gpus("demand.start_gpus", start_gpus);
        require(std::isfinite(annual_growth_rate) && annual_growth_rate > -1.0, "demand.annual_growth_rate",
                annual_growth_rate, "must be finite and > -1");
        const auto hours = Eigen::Index(horizon.hour_count());
        const double log_growth_per_hour = std::log1p(annual_growth_rate) / hours_per_year;
        Eigen::ArrayXd gpus = start_gpus * (Eigen::ArrayXd::LinSpaced(hours, 0.0, double(hours - 1)) *
                                            log_growth_per_hour).exp();
        // 0 × inf is NaN: with start_gpus = 0 every hour is 0 whatever the growth.
        if (start_gpus == 0.0) gpus.setZero();
        require_peak("demand.annual_growth_rate", annual_growth_rate, gpus);
        return DemandProfile(std::move(gpus), horizon);
    }

    /// Piecewise constant by month: each step holds from its start month until the next step.
    /// Steps must start at month 0 and be strictly increasing and inside the horizon.
    static DemandProfile steps(const std::vector<DemandStep>& steps, Horizon horizon) {
        require(!steps.empty(), "demand.steps.size", steps.size(), "must be >= 1");
        // Every step is checked before any is written: a later step's start bounds an earlier one's
        // segment, so writing first would run past the array on a start beyond the horizon.
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const std::string field = fmt::format("demand.steps[{}]", i);
            const int start = steps[i].start_month;
            if (i == 0) require(start == 0, field + ".start_month", start, "must be 0 for the first step");
            else require(start > steps[i - 1].start_month, field + ".start_month", start,
                         "must be greater than the previous step's start_month");
            require(start < horizon.month_count(), field + ".start_month", start,
                    fmt::format("must be < horizon months ({})", horizon.month_count()));
            require_gpus(field + ".gpus", steps[i].gpus);
        }
        Eigen::ArrayXd gpus(Eigen::Index(horizon.hour_count()));
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const int start = steps[i].start_month;
            const int end = i + 1 < steps.size() ? steps[i + 1].start_month : horizon.month_count();
            gpus.segment(Eigen::Index(start) * 730, Eigen::Index(end - start) * 730).setConstant(steps[i].gpus);
        }
        return DemandProfile(std::move(gpus), horizon);
    }

    /// Any hourly series (e.g. from monitoring or a forecast); its length must be whole 730-hour months.
    static DemandProfile hourly(Eigen::ArrayXd gpus_per_hour) {
        const auto hours = std::size_t(gpus_per_hour.size());
        require(hours > 0 && hours % whole_hours_per_month == 0, "demand.hours", hours,
                "must be a positive multiple of 730 (whole months)");
        require(hours <= std::size_t(limits::max_horizon_months) * whole_hours_per_month, "demand.hours", hours,
                fmt::format("must be <= {} (100 years)", std::size_t(limits::max_horizon_months) * whole_hours_per_month));
        for (Eigen::Index h = 0; h < gpus_per_hour.size(); ++h) {
            const double value = gpus_per_hour[h];
            if (!(value >= 0.0 && value <= limits::max_gpus)) require_gpus(fmt::format("demand.gpus_per_hour[{}]", h), value);
        }
        const Horizon horizon = Horizon::months(int(hours / whole_hours_per_month));
        return DemandProfile(std::move(gpus_per_hour), horizon);
    }

    /// Multiplies hour h of each day (hour 0 = midnight, the horizon starts at midnight) by factors[h].
    DemandProfile with_daily_pattern(const std::array<double, 24>& factors) const {
        check_factors("demand.daily_pattern", factors);
        Eigen::ArrayXd gpus = gpus_per_hour_;
        for (Eigen::Index h = 0; h < gpus.size(); ++h) gpus[h] *= factors[std::size_t(h % 24)];
        require_peak("demand.daily_pattern", *std::max_element(factors.begin(), factors.end()), gpus);
        return DemandProfile(std::move(gpus), horizon_);
    }

    /// Multiplies day d of each week (the horizon starts on day 0, e.g. a Monday) by factors[d].
    DemandProfile with_weekly_pattern(const std::array<double, 7>& factors) const {
        check_factors("demand.weekly_pattern", factors);
        Eigen::ArrayXd gpus = gpus_per_hour_;
        for (Eigen::Index h = 0; h < gpus.size(); ++h) gpus[h] *= factors[std::size_t((h / 24) % 7)];
        require_peak("demand.weekly_pattern", *std::max_element(factors.begin(), factors.end()), gpus);
        return DemandProfile(std::move(gpus), horizon_);
    }

    /// Every hour multiplied by `factor` (>= 0), e.g. a utilisation.
    DemandProfile scaled(double factor) const {
        require_non_negative("demand.scale", factor);
        Eigen::ArrayXd gpus = gpus_per_hour_ * factor;
        require_peak("demand.scale", factor, gpus);
        return DemandProfile(std::move(gpus), horizon_, sorted_months_.scaled(factor));
    }

    const Eigen::ArrayXd& gpus_per_hour() const { return gpus_per_hour_; }
    Horizon horizon() const { return horizon_; }
    double peak_gpus() const {  // the largest of the months' peaks: one read per month
        double peak = 0;
        for (int m = 0; m < sorted_months_.month_count(); ++m) peak = std::max(peak, sorted_months_.peak(m));
        return peak;
    }
    double mean_gpus() const { return gpus_per_hour_.mean(); }
    double total_gpu_hours() const { return gpus_per_hour_.sum(); }
    /// Each month's hours sorted with prefix sums, built with the profile: the cost engine reads a
    /// month's cost from it in a few binary searches.
    const SortedMonths& sorted_months() const { return sorted_months_; }

private:
    DemandProfile(Eigen::ArrayXd gpus, Horizon horizon)
        : gpus_per_hour_(std::move(gpus)), horizon_(horizon), sorted_months_(gpus_per_hour_) {}
    DemandProfile(Eigen::ArrayXd gpus, Horizon horizon, SortedMonths sorted)
        : gpus_per_hour_(std::move(gpus)), horizon_(horizon), sorted_months_(std::move(sorted)) {}

    static double require_gpus(std::string_view field, double gpus) {
        return require_at_most(field, gpus, limits::max_gpus);
    }
    /// A derived profile (growth, pattern, scale) must stay within the GPU limit too.
    template <class T>
    static void require_peak(std::string_view field, const T& value, const Eigen::ArrayXd& gpus) {
        const double peak = gpus.size() > 0 ? gpus.maxCoeff() : 0.0;
        require(peak <= limits::max_gpus, field, value,
                fmt::format("makes the peak demand {:g} GPUs, more than {:g}", peak, limits::max_gpus));
    }

    template <std::size_t N>
    static void check_factors(std::string_view field, const std::array<double, N>& factors) {
        for (std::size_t i = 0; i < N; ++i)
            require_non_negative(fmt::format("{}[{}]", field, i), factors[i]);
    }

    Eigen::ArrayXd gpus_per_hour_;
    Horizon horizon_;
    SortedMonths sorted_months_;
};

}  // namespace gputco
