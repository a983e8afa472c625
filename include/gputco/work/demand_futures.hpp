#pragma once
// Demand that is not known in advance: seeded futures of GPUs needed per hour. A future is a level
// per month (GPUs held) times an hourly shape of that month (fraction of them busy each hour), so
// 10,000 futures × 36 months take 36 levels each, not 26,280 hours, and the cost of any capacity
// against a month is a binary search in the month's sorted shape (see served_up_to).
//
//   DemandModel model{.base_gpus = 8};
//   model.events.push_back({.gpus = 8, .probability = 0.6, .first_month = 0, .last_month = 11});
//   const DemandFutures futures = DemandFutures::generate(model, Horizon::years(3), 10'000, 42);
#include <cstdint>
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "gputco/core/time.hpp"
#include "gputco/work/demand.hpp"

namespace gputco {

/// With `probability`, `gpus` more GPUs are needed from a month drawn uniformly from
/// [first_month, last_month] to the end of the horizon ("a new project adds 8 GPUs between months
/// 6 and 12 with probability 0.6").
struct DemandEvent {
    double gpus = 0;
    double probability = 1;
    int first_month = 0;
    int last_month = 0;
};

/// How demand may evolve. Level of month m: (base_gpus × G_m + events started by m) × seasonality[m % 12],
/// where G_0 = 1 and G_m = G_{m-1} × exp(ε_m): ε_m normal(monthly_log_growth, monthly_log_volatility)
/// (lognormal growth), or, when `history_monthly_gpus` is given, drawn with replacement from the
/// history's month-to-month log changes (a bootstrap of the user's own usage). Each hour of the month
/// the level is multiplied by hour_of_week[(hour since the horizon's start) % 168] (1 when empty).
struct DemandModel {
    double base_gpus = 0;
    double monthly_log_growth = 0;
    double monthly_log_volatility = 0;
    std::vector<DemandEvent> events;
    std::vector<double> seasonality;   ///< empty, or 12 factors >= 0 indexed by month % 12
    std::vector<double> hour_of_week;  ///< empty, or 168 factors >= 0 (hour 0 = the horizon's first hour)
    std::vector<double> history_monthly_gpus;  ///< empty, or >= 2 monthly mean levels, all > 0

    /// A model bootstrapping `history` (whole months, mean > 0 each): base = its last month's mean,
    /// growth from its month-to-month changes, hour_of_week = its mean hourly level relative to the
    /// month's mean. Add events or seasonality afterwards if wanted.
    static DemandModel from_history(const DemandProfile& history);

    /// Throws InvalidInput naming the field ("demand_model.events[0].probability = 1.5: must be in [0, 1]").
    /// Every parameter has a range (core/limits.hpp), and over `horizon` the level without noise —
    /// (base_gpus × e^(monthly_log_growth × month) + all events) × the largest seasonality and
    /// hour-of-week factors — must stay within limits::max_gpus (else an error naming
    /// monthly_log_growth, or base_gpus when there is no growth), so every level stays finite.
    void validate(Horizon horizon) const;
    /// The checks that do not depend on a horizon (ranges of every parameter; events' months >= 0).
    void validate_parameters() const;
};

/// The sorted hours of one month's shape with prefix sums: Σ_h min(level × s_h, c) in O(log 730).
struct MonthShape {
    std::vector<double> sorted;  ///< 730 factors, ascending
    std::vector<double> prefix;  ///< prefix[j] = sorted[0] + ... + sorted[j-1], 731 entries
    double total() const { return prefix.back(); }
    /// Σ_h min(level × sorted[h], capacity) for level, capacity >= 0.
    double served_up_to(double level, double capacity) const;
    static MonthShape of(const double* hours);  ///< from 730 hourly factors (sorts them)
    /// Month m of a profile's sorted months: a copy, no sort (the same sums as of() would make).
    static MonthShape of(const SortedMonths& months, int m);
};

/// N futures of hourly demand over one horizon.
class DemandFutures {
public:
    /// One future: exactly `profile` (level 1, each month its own shape).
    static DemandFutures from_profile(const DemandProfile& profile);
    /// Explicit scenarios, one future each; all on the same horizon. Each month's shape is copied
    /// from the profile's sorted months (DemandProfile::sorted_months), not sorted again.
    static DemandFutures from_profiles(const std::vector<DemandProfile>& profiles);
    /// `count` futures of `model`; future i draws from a stream that depends only on (seed, i). A future
    /// whose level times the busiest hour's factor passes limits::max_gpus (a volatility or a
    /// bootstrapped history that compounds far) is an error naming that parameter, the future and the month.
    static DemandFutures generate(const DemandModel& model, Horizon horizon, std::size_t count, std::uint64_t seed);

    std::size_t count() const { return std::size_t(levels_.cols()); }
    Horizon horizon() const { return horizon_; }
    int month_count() const { return horizon_.month_count(); }
    /// Every accessor taking (future, month) checks both: future < count(), month in [0, month_count());
    /// outside, InvalidInput naming the argument ("month = 36: must be in [0, 36) (the horizon's months)").
    double level(std::size_t future, int month) const {
        check_index(future, month);
        return levels_(month, Eigen::Index(future));
    }
    const MonthShape& shape(std::size_t future, int month) const {
        check_index(future, month);
        const Eigen::Index column = shape_index_.cols() == 1 ? 0 : Eigen::Index(future);
        return shapes_[std::size_t(shape_index_(month, column))];
    }
    /// GPU-hours demanded in `month` of `future`.
    double gpu_hours(std::size_t future, int month) const { return level(future, month) * shape(future, month).total(); }
    /// Σ over the month's hours of min(demand, capacity): the GPU-hours `capacity` GPUs can serve.
    double served_up_to(std::size_t future, int month, double capacity) const {
        return shape(future, month).served_up_to(level(future, month), capacity);
    }
    /// Levels, months × futures (one column per future).
    const Eigen::ArrayXXd& levels() const { return levels_; }
    /// The hourly profile of one future, its hours sorted within each month (costs depend only on
    /// each month's hours, not their order): for plots and checks against evaluate().
    DemandProfile profile(std::size_t future) const;
    /// Future `future` alone, as a set of one (same levels and shapes): for per-future optima.
    DemandFutures future(std::size_t future) const;
    /// The same futures with each hour's GPUs x replaced by hourly(x), for a non-decreasing `hourly`
    /// (each month's hours stay in order, so nothing is sorted again): level 1 and one shape per future
    /// and month (730 values and their prefix sums each), e.g. the GPU-hours whole instances are paid.
    DemandFutures with_hours_mapped(const std::function<double(double)>& hourly) const;

private:
    void check_index(std::size_t future, int month) const {
        if (future >= count() || month < 0 || month >= month_count()) [[unlikely]] fail_index(future, month);
    }
    [[noreturn]] void fail_index(std::size_t future, int month) const;
    DemandFutures(Horizon horizon, Eigen::ArrayXXd levels, std::vector<MonthShape> shapes, Eigen::ArrayXXi shape_index)
        : horizon_(horizon), levels_(std::move(levels)), shapes_(std::move(shapes)), shape_index_(std::move(shape_index)) {}
    Horizon horizon_;
    Eigen::ArrayXXd levels_;
    std::vector<MonthShape> shapes_;
    Eigen::ArrayXXi shape_index_;  ///< months × (1 or futures) indexes into shapes_
};

/// The expected level of month m under `model` without a history (closed form, for checks):
/// base × exp(m (μ + σ²/2)) + Σ p × P(start <= m), times the month's seasonality. `month` must be in
/// [0, limits::max_horizon_months) and the result at most limits::max_gpus (else an error naming the
/// growth or the volatility, whichever term is larger).
double expected_level(const DemandModel& model, int month);

}  // namespace gputco
