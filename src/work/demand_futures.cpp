// Seeded demand futures (see demand_futures.hpp).
#include "gputco/work/demand_futures.hpp"

#include <algorithm>
#include <cmath>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "gputco/core/limits.hpp"
#include "gputco/core/random.hpp"

namespace gputco {
namespace {

constexpr std::size_t month_hours = whole_hours_per_month;
constexpr std::size_t hours_per_week = 168;

void check_factors(std::string_view field, const std::vector<double>& factors, std::size_t size) {
    if (factors.empty()) return;
    require(factors.size() == size, fmt::format("{}.size", field), factors.size(), fmt::format("must be 0 or {}", size));
    for (std::size_t i = 0; i < factors.size(); ++i) {
        require_at_most(fmt::format("{}[{}]", field, i), factors[i], limits::max_demand_factor);
    }
}

/// The largest of a model's factors (1 when there are none).
double largest_factor(const std::vector<double>& factors) {
    return factors.empty() ? 1.0 : *std::max_element(factors.begin(), factors.end());
}

/// Month m's 730 hourly factors of a 168-hour pattern tiled from the horizon's first hour.
std::vector<double> weekly_hours(const std::vector<double>& hour_of_week, int month) {
    std::vector<double> hours(month_hours, 1.0);
    if (hour_of_week.empty()) return hours;
    const std::size_t first = std::size_t(month) * month_hours;
    for (std::size_t h = 0; h < month_hours; ++h) hours[h] = hour_of_week[(first + h) % hours_per_week];
    return hours;
}

/// validate() bounds the level without noise, so a level past the limit comes from the noise: the
/// volatility, or the history's changes drawn again and again.
[[noreturn]] void fail_compounded(const DemandModel& model, std::size_t future, int month, double gpus) {
    const std::string rule = fmt::format("must keep demand within {:g} GPUs: future {} reaches {:.3g} GPUs in month {}",
                                         limits::max_gpus, future, gpus, month);
    if (!model.history_monthly_gpus.empty()) {
        fail("demand_model.history_monthly_gpus.size", model.history_monthly_gpus.size(), rule);
    }
    fail("demand_model.monthly_log_volatility", model.monthly_log_volatility, rule);
}

}  // namespace

MonthShape MonthShape::of(const double* hours) {
    MonthShape shape;
    shape.sorted.assign(hours, hours + month_hours);
    std::sort(shape.sorted.begin(), shape.sorted.end());
    shape.prefix.resize(month_hours + 1);
    shape.prefix[0] = 0;
    for (std::size_t h = 0; h < month_hours; ++h) shape.prefix[h + 1] = shape.prefix[h] + shape.sorted[h];
    return shape;
}

MonthShape MonthShape::of(const SortedMonths& months, int m) {
    const auto sorted = months.sorted(m);
    const auto prefix = months.prefix(m);
    return MonthShape{{sorted.begin(), sorted.end()}, {prefix.begin(), prefix.end()}};
}

double MonthShape::served_up_to(double level, double capacity) const {
    if (level <= 0.0 || capacity <= 0.0) return 0.0;
    // Hours with level × s <= capacity are served in full, the others up to capacity.
    const double threshold = capacity / level;
    const auto below = std::size_t(std::upper_bound(sorted.begin(), sorted.end(), threshold) - sorted.begin());
    return level * prefix[below] + capacity * double(sorted.size() - below);
}

DemandModel DemandModel::from_history(const DemandProfile& history) {
    const Eigen::ArrayXd& hours = history.gpus_per_hour();
    const int months = history.horizon().month_count();
    require(months >= 2, "history.months", months, "must be >= 2 (a bootstrap needs month-to-month changes)");
    DemandModel model;
    std::vector<double> week_sum(hours_per_week, 0.0), week_count(hours_per_week, 0.0);
    for (int m = 0; m < months; ++m) {
        const auto month = hours.segment(Eigen::Index(m) * Eigen::Index(month_hours), Eigen::Index(month_hours));
        const double mean = month.mean();
        require(mean > 0.0, fmt::format("history.month[{}].mean_gpus", m), mean, "must be > 0");
        model.history_monthly_gpus.push_back(mean);
        for (std::size_t h = 0; h < month_hours; ++h) {
            const std::size_t k = (std::size_t(m) * month_hours + h) % hours_per_week;
            week_sum[k] += month[Eigen::Index(h)] / mean;
            week_count[k] += 1.0;
        }
    }
    model.base_gpus = model.history_monthly_gpus.back();
    model.hour_of_week.resize(hours_per_week);
    for (std::size_t k = 0; k < hours_per_week; ++k) model.hour_of_week[k] = week_sum[k] / week_count[k];
    return model;
}

void DemandModel::validate_parameters() const {
    require_at_most("demand_model.base_gpus", base_gpus, limits::max_gpus);
    require_finite("demand_model.monthly_log_growth", monthly_log_growth);
    require(std::abs(monthly_log_growth) <= limits::max_monthly_log_growth, "demand_model.monthly_log_growth",
            monthly_log_growth, fmt::format("must be in [-{0}, {0}]", limits::max_monthly_log_growth));
    require_at_most("demand_model.monthly_log_volatility", monthly_log_volatility, limits::max_monthly_log_volatility);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const DemandEvent& e = events[i];
        const std::string field = fmt::format("demand_model.events[{}]", i);
        require_at_most(field + ".gpus", e.gpus, limits::max_gpus);
        require_fraction(field + ".probability", e.probability);
        require(e.first_month >= 0, field + ".first_month", e.first_month, "must be >= 0");
        require(e.last_month >= e.first_month, field + ".last_month", e.last_month, "must be >= first_month");
    }
    check_factors("demand_model.seasonality", seasonality, 12);
    check_factors("demand_model.hour_of_week", hour_of_week, hours_per_week);
    if (!history_monthly_gpus.empty()) {
        require(history_monthly_gpus.size() >= 2, "demand_model.history_monthly_gpus.size", history_monthly_gpus.size(),
                "must be 0 or >= 2");
        for (std::size_t i = 0; i < history_monthly_gpus.size(); ++i) {
            const std::string field = fmt::format("demand_model.history_monthly_gpus[{}]", i);
            require_positive(field, history_monthly_gpus[i]);
            require_at_most(field, history_monthly_gpus[i], limits::max_gpus);
        }
    }
}

void DemandModel::validate(Horizon horizon) const {
    const int months = horizon.month_count();
    for (std::size_t i = 0; i < events.size(); ++i) {
        const DemandEvent& e = events[i];
        const std::string field = fmt::format("demand_model.events[{}]", i);
        require(e.first_month >= 0 && e.first_month < months, field + ".first_month", e.first_month,
                fmt::format("must be in [0, {}) (the horizon's months)", months));
        require(e.last_month >= e.first_month && e.last_month < months, field + ".last_month", e.last_month,
                fmt::format("must be in [first_month, {}) (the horizon's months)", months));
    }
    validate_parameters();
    // The level without noise is largest in the last month (growth) or the first (decline).
    const int month = monthly_log_growth > 0.0 ? months - 1 : 0;
    double events_gpus = 0.0;
    for (const DemandEvent& e : events) events_gpus += e.gpus;
    const double grown = base_gpus > 0.0 ? base_gpus * std::exp(monthly_log_growth * month) : 0.0;  // not 0 × inf
    const double peak = (grown + events_gpus) * largest_factor(seasonality) *
                        largest_factor(hour_of_week);
    if (peak <= limits::max_gpus) return;
    const std::string rule = fmt::format(
        "must keep demand within {:g} GPUs: (base_gpus × e^(monthly_log_growth × month) + events) × the largest "
        "seasonality and hour-of-week factors reaches {:.3g} GPUs in month {}",
        limits::max_gpus, peak, month);
    if (monthly_log_growth > 0.0) fail("demand_model.monthly_log_growth", monthly_log_growth, rule);
    fail("demand_model.base_gpus", base_gpus, rule);
}

DemandFutures DemandFutures::from_profile(const DemandProfile& profile) { return from_profiles({profile}); }

DemandFutures DemandFutures::from_profiles(const std::vector<DemandProfile>& profiles) {
    require(!profiles.empty(), "profiles.size", profiles.size(), "must be >= 1");
    const Horizon horizon = profiles.front().horizon();
    const int months = horizon.month_count();
    std::vector<MonthShape> shapes;
    Eigen::ArrayXXi index(months, Eigen::Index(profiles.size()));
    for (std::size_t f = 0; f < profiles.size(); ++f) {
        require(profiles[f].horizon() == horizon, fmt::format("profiles[{}].months", f), profiles[f].horizon().month_count(),
                fmt::format("must be {} (the first profile's)", months));
        for (int m = 0; m < months; ++m) {
            index(m, Eigen::Index(f)) = int(shapes.size());
            shapes.push_back(MonthShape::of(profiles[f].sorted_months(), m));  // sorted when the profile was built
        }
    }
    return DemandFutures(horizon, Eigen::ArrayXXd::Ones(months, Eigen::Index(profiles.size())), std::move(shapes),
                         std::move(index));
}

DemandFutures DemandFutures::generate(const DemandModel& model, Horizon horizon, std::size_t count, std::uint64_t seed) {
    model.validate(horizon);
    require(count >= 1, "futures", count, "must be >= 1");
    const int months = horizon.month_count();

    // Shapes depend on the month only: a weekly pattern has a different phase in each 730-hour month.
    std::vector<MonthShape> shapes;
    Eigen::ArrayXXi index(months, 1);
    for (int m = 0; m < months; ++m) {
        index(m, 0) = int(shapes.size());
        shapes.push_back(MonthShape::of(weekly_hours(model.hour_of_week, m).data()));
    }

    std::vector<double> history_changes;
    for (std::size_t i = 1; i < model.history_monthly_gpus.size(); ++i) {
        history_changes.push_back(std::log(model.history_monthly_gpus[i] / model.history_monthly_gpus[i - 1]));
    }
    const double busiest_hour = largest_factor(model.hour_of_week);
    Eigen::ArrayXXd levels(months, Eigen::Index(count));
    for (std::size_t f = 0; f < count; ++f) {
        Xoshiro256pp engine(splitmix64(seed ^ splitmix64(f)));  // one stream per (seed, future)
        boost::random::normal_distribution<double> growth(model.monthly_log_growth, model.monthly_log_volatility);
        boost::random::uniform_int_distribution<std::size_t> pick(0, history_changes.empty() ? 0 : history_changes.size() - 1);
        std::vector<int> starts(model.events.size());
        for (std::size_t e = 0; e < model.events.size(); ++e) {
            const DemandEvent& event = model.events[e];
            const bool happens = boost::random::uniform_01<double>()(engine) < event.probability;
            const int month = boost::random::uniform_int_distribution<int>(event.first_month, event.last_month)(engine);
            starts[e] = happens ? month : months;  // both drawn always: the stream does not depend on the outcome
        }
        double g = 1.0;
        for (int m = 0; m < months; ++m) {
            if (m > 0) {
                if (!history_changes.empty()) g *= std::exp(history_changes[pick(engine)]);
                else if (model.monthly_log_volatility > 0.0 || model.monthly_log_growth != 0.0) g *= std::exp(growth(engine));
            }
            double level = model.base_gpus * g;
            for (std::size_t e = 0; e < model.events.size(); ++e) {
                if (m >= starts[e]) level += model.events[e].gpus;
            }
            if (!model.seasonality.empty()) level *= model.seasonality[std::size_t(m % 12)];
            if (!(level * busiest_hour <= limits::max_gpus)) [[unlikely]] fail_compounded(model, f, m, level * busiest_hour);
            levels(m, Eigen::Index(f)) = level;
        }
    }
    return DemandFutures(horizon, std::move(levels), std::move(shapes), std::move(index));
}

void DemandFutures::fail_index(std::size_t future, int month) const {
    require(future < count(), "future", future, fmt::format("must be < {} (the number of futures)", count()));
    fail("month", month, fmt::format("must be in [0, {}) (the horizon's months)", month_count()));
}

DemandProfile DemandFutures::profile(std::size_t future) const {
    require(future < count(), "future", future, fmt::format("must be < {} (the number of futures)", count()));
    // Shapes keep their hours sorted, so rebuild the hourly order only for the exact (level 1) case.
    Eigen::ArrayXd hours(Eigen::Index(horizon_.hour_count()));
    for (int m = 0; m < month_count(); ++m) {
        const MonthShape& s = shape(future, m);
        for (std::size_t h = 0; h < month_hours; ++h) hours[Eigen::Index(std::size_t(m) * month_hours + h)] = level(future, m) * s.sorted[h];
    }
    return DemandProfile::hourly(std::move(hours));
}

DemandFutures DemandFutures::with_hours_mapped(const std::function<double(double)>& hourly) const {
    std::vector<MonthShape> shapes;
    shapes.reserve(count() * std::size_t(month_count()));
    Eigen::ArrayXXi index(month_count(), Eigen::Index(count()));
    for (std::size_t f = 0; f < count(); ++f)
        for (int m = 0; m < month_count(); ++m) {
            const MonthShape& s = shape(f, m);
            const double l = level(f, m);
            MonthShape mapped;
            mapped.sorted.resize(s.sorted.size());
            mapped.prefix.resize(s.sorted.size() + 1);
            mapped.prefix[0] = 0;
            for (std::size_t h = 0; h < s.sorted.size(); ++h) {
                mapped.sorted[h] = hourly(l * s.sorted[h]);
                mapped.prefix[h + 1] = mapped.prefix[h] + mapped.sorted[h];
            }
            index(m, Eigen::Index(f)) = int(shapes.size());
            shapes.push_back(std::move(mapped));
        }
    return DemandFutures(horizon_, Eigen::ArrayXXd::Ones(month_count(), Eigen::Index(count())), std::move(shapes),
                         std::move(index));
}

DemandFutures DemandFutures::future(std::size_t future) const {
    require(future < count(), "future", future, fmt::format("must be < {} (the number of futures)", count()));
    std::vector<MonthShape> shapes;  // only this future's: explicit scenarios have a set each
    Eigen::ArrayXXi index(month_count(), 1);
    for (int m = 0; m < month_count(); ++m) {
        index(m, 0) = int(shapes.size());
        shapes.push_back(shape(future, m));
    }
    return DemandFutures(horizon_, levels_.col(Eigen::Index(future)), std::move(shapes), std::move(index));
}

double expected_level(const DemandModel& model, int month) {
    require(model.history_monthly_gpus.empty(), "demand_model.history_monthly_gpus.size", model.history_monthly_gpus.size(),
            "must be 0 (no closed form for a bootstrap)");
    model.validate_parameters();
    require(month >= 0 && month < limits::max_horizon_months, "month", month,
            fmt::format("must be in [0, {}) (the longest horizon's months)", limits::max_horizon_months));
    const double mu = model.monthly_log_growth, sigma = model.monthly_log_volatility;
    double level = model.base_gpus > 0.0 ? model.base_gpus * std::exp(month * (mu + 0.5 * sigma * sigma)) : 0.0;
    if (!(level <= limits::max_gpus)) {
        const std::string rule = fmt::format(
            "must keep the expected level within {:g} GPUs: base_gpus × e^(month × (monthly_log_growth + "
            "monthly_log_volatility²/2)) is {:.3g} GPUs in month {}",
            limits::max_gpus, level, month);
        if (mu >= 0.5 * sigma * sigma) fail("demand_model.monthly_log_growth", mu, rule);
        fail("demand_model.monthly_log_volatility", sigma, rule);
    }
    for (const DemandEvent& e : model.events) {
        const double span = e.last_month - e.first_month + 1;
        const double started = std::clamp((month - e.first_month + 1) / span, 0.0, 1.0);
        level += e.gpus * e.probability * started;
    }
    if (!model.seasonality.empty()) level *= model.seasonality[std::size_t(month % 12)];
    return level;
}

}  // namespace gputco
