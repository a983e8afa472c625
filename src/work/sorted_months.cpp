// Each month's hours sorted with prefix sums (sorted_months.hpp).
#include "gputco/work/sorted_months.hpp"

#include <algorithm>
#include <cmath>

#include "gputco/core/error.hpp"

namespace gputco {
namespace {

void fill_prefix(const double* sorted, double* prefix) {
    prefix[0] = 0;
    for (std::size_t h = 0; h < SortedMonths::hours; ++h) prefix[h + 1] = prefix[h] + sorted[h];
}

}  // namespace

SortedMonths::SortedMonths(const Eigen::ArrayXd& gpus_per_hour)
    : sorted_(gpus_per_hour.begin(), gpus_per_hour.end()) {
    const std::size_t months = sorted_.size() / hours;
    prefix_.resize(months * (hours + 1));
    for (std::size_t m = 0; m < months; ++m) {
        double* first = sorted_.data() + m * hours;
        // Growth profiles are sorted already; checking is a pass, sorting is not.
        if (!std::is_sorted(first, first + hours)) std::sort(first, first + hours);
        fill_prefix(first, prefix_.data() + m * (hours + 1));
    }
}

SortedMonths SortedMonths::scaled(double factor) const {
    SortedMonths out;
    out.sorted_.resize(sorted_.size());
    // x ↦ factor × x is monotone in floating point for factor >= 0, so each month stays sorted.
    std::transform(sorted_.begin(), sorted_.end(), out.sorted_.begin(), [factor](double x) { return x * factor; });
    out.prefix_.resize(prefix_.size());
    for (std::size_t m = 0, months = sorted_.size() / hours; m < months; ++m) {
        fill_prefix(out.sorted_.data() + m * hours, out.prefix_.data() + m * (hours + 1));
    }
    return out;
}

void SortedMonths::fail_month(int m) const {
    fail("month", m, fmt::format("must be in [0, {}) (the months held)", month_count()));
}

double SortedMonths::served_up_to(int m, double capacity) const {
    const std::size_t month = offset(m);
    const double* first = sorted_.data() + month * hours;
    const double* prefix = prefix_.data() + month * (hours + 1);
    if (capacity >= first[hours - 1]) return prefix[hours];  // serves every hour in full (and +infinity)
    if (capacity <= 0.0) return 0.0;
    const auto below = std::size_t(std::upper_bound(first, first + hours, capacity) - first);
    return prefix[below] + capacity * double(hours - below);
}

double SortedMonths::served_between(int m, double low, double high) const {
    if (!(high > low)) return 0.0;
    return served_up_to(m, high) - served_up_to(m, low);
}

}  // namespace gputco
