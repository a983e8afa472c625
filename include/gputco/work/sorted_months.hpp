#pragma once
// Each month's hourly demand sorted, with prefix sums. What a month costs depends only on how its
// hours are distributed, not on their order, so a tier of capacity serves
//   S(c) = Σ_h min(d_h, c) = P_j + c (730 − j),  j = #{d_h <= c}
// GPU-hours: one binary search instead of a pass over the hours. Built once with the profile
// (DemandProfile::sorted_months) and read by every evaluation of it.
#include <cstddef>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace gputco {

class SortedMonths {
public:
    SortedMonths() = default;
    /// From an hourly series of whole 730-hour months.
    explicit SortedMonths(const Eigen::ArrayXd& gpus_per_hour);

    /// The same months with every hour multiplied by `factor` >= 0 (the order holds: no sort).
    SortedMonths scaled(double factor) const;

    int month_count() const { return int(prefix_.size() / (hours + 1)); }
    /// Every accessor taking a month m checks it: outside [0, month_count()) is InvalidInput naming it.
    /// Month m's hours in ascending order.
    std::span<const double> sorted(int m) const { return {sorted_.data() + offset(m) * hours, hours}; }
    /// Month m's 731 prefix sums: prefix(m)[j] = sorted(m)[0] + ... + sorted(m)[j − 1].
    std::span<const double> prefix(int m) const { return {prefix_.data() + offset(m) * (hours + 1), hours + 1}; }
    /// GPU-hours demanded in month m.
    double total(int m) const { return prefix_[offset(m) * (hours + 1) + hours]; }
    /// The month's largest hourly demand.
    double peak(int m) const { return sorted_[offset(m) * hours + hours - 1]; }
    /// Σ_h min(d_h, capacity): the GPU-hours `capacity` GPUs serve in month m (capacity >= 0).
    double served_up_to(int m, double capacity) const;
    /// Σ_h clamp(d_h − low, 0, high − low): what a tier holding the GPUs from `low` to `high` serves
    /// when the tiers below it hold `low` (0 <= low <= high; high may be +infinity).
    double served_between(int m, double low, double high) const;

    static constexpr std::size_t hours = 730;

private:
    /// m as an index, checked against the months held.
    std::size_t offset(int m) const {
        if (m < 0 || std::size_t(m) * (hours + 1) >= prefix_.size()) [[unlikely]] fail_month(m);
        return std::size_t(m);
    }
    [[noreturn]] void fail_month(int m) const;
    std::vector<double> sorted_;  ///< month after month, each ascending
    std::vector<double> prefix_;  ///< per month 731 sums: prefix[j] = sorted[0] + ... + sorted[j−1]
};

}  // namespace gputco
