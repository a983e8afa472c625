#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <boost/random/uniform_01.hpp>

#include "gputco/core/random.hpp"
#include "gputco/work/demand_futures.hpp"

using namespace gputco;
using doctest::Approx;

TEST_CASE("served_up_to equals the hour-by-hour sum of min(demand, capacity) over random shapes") {
    Xoshiro256pp engine(17);
    boost::random::uniform_01<double> u;
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<double> hours(730);
        for (auto& h : hours) h = u(engine) < 0.1 ? 0.0 : 2.0 * u(engine);
        const MonthShape shape = MonthShape::of(hours.data());
        const double level = 10.0 * u(engine), capacity = 25.0 * u(engine);
        double brute = 0;
        for (double h : hours) brute += std::min(level * h, capacity);
        CHECK(shape.served_up_to(level, capacity) == Approx(brute).epsilon(1e-12));
    }
}

TEST_CASE("a profile is one exact future") {
    const Horizon horizon = Horizon::months(3);
    const DemandProfile demand = DemandProfile::linear_growth(2, 8, horizon);
    const DemandFutures futures = DemandFutures::from_profile(demand);
    CHECK(futures.count() == 1);
    for (int m = 0; m < 3; ++m) {
        const double month = demand.gpus_per_hour().segment(m * 730, 730).sum();
        CHECK(futures.gpu_hours(0, m) == Approx(month));
        CHECK(futures.served_up_to(0, m, 1e9) == Approx(month));
    }
    CHECK(futures.profile(0).total_gpu_hours() == Approx(demand.total_gpu_hours()));
}

TEST_CASE("events happen with their probability, in their month range; lognormal growth has its closed-form mean") {
    DemandModel model;
    model.base_gpus = 8;
    model.monthly_log_growth = 0.02;
    model.monthly_log_volatility = 0.1;
    model.events.push_back({.gpus = 8, .probability = 0.6, .first_month = 6, .last_month = 12});
    const Horizon horizon = Horizon::years(2);
    const std::size_t n = 40000;
    const DemandFutures futures = DemandFutures::generate(model, horizon, n, 99);
    // Without growth noise the event's share would be exact; here compare month 5 (no event yet) and
    // the last month against E[level] within 4 standard errors.
    for (int m : {0, 5, 9, 23}) {
        CAPTURE(m);
        const Eigen::ArrayXd row = futures.levels().row(m).transpose();
        const double mean = row.mean();
        const double se = std::sqrt((row - mean).square().sum() / double(n - 1) / double(n));
        CHECK(std::abs(mean - expected_level(model, m)) <= 4.0 * se + 1e-12);
    }
    // The event alone: P(started by month 9) = 0.6 × 4/7, a binomial proportion.
    DemandModel event_only;
    event_only.events = model.events;
    const DemandFutures steps = DemandFutures::generate(event_only, horizon, n, 7);
    double started = 0, before = 0;
    for (std::size_t f = 0; f < n; ++f) {
        started += steps.level(f, 9) > 0 ? 1 : 0;
        before += steps.level(f, 5) > 0 ? 1 : 0;
    }
    const double p = 0.6 * 4.0 / 7.0;
    CHECK(std::abs(started / double(n) - p) <= 4.0 * std::sqrt(p * (1 - p) / double(n)));
    CHECK(before == 0.0);
}

TEST_CASE("a bootstrap of a history that grows 5% a month grows 5% a month") {
    const Horizon months = Horizon::months(6);
    Eigen::ArrayXd hours(Eigen::Index(months.hour_count()));
    for (Eigen::Index h = 0; h < hours.size(); ++h) hours[h] = 4.0 * std::pow(1.05, double(h / 730)) * (h % 2 == 0 ? 0.5 : 1.5);
    const DemandModel model = DemandModel::from_history(DemandProfile::hourly(hours));
    CHECK(model.base_gpus == Approx(4.0 * std::pow(1.05, 5)));
    const DemandFutures futures = DemandFutures::generate(model, Horizon::years(1), 50, 3);
    for (std::size_t f = 0; f < 50; ++f) CHECK(futures.level(f, 11) == Approx(model.base_gpus * std::pow(1.05, 11)));
    // The alternating hours survive as the hour-of-week shape: half the hours at 0.5, half at 1.5.
    CHECK(futures.shape(0, 0).total() == Approx(730.0));
    CHECK(futures.shape(0, 0).sorted.front() == Approx(0.5));
}

TEST_CASE("futures depend on (seed, future) only") {
    DemandModel model{.base_gpus = 3, .monthly_log_growth = 0, .monthly_log_volatility = 0.2, .events = {}, .seasonality = {},
                      .hour_of_week = {}, .history_monthly_gpus = {}};
    const auto a = DemandFutures::generate(model, Horizon::years(1), 100, 5);
    const auto b = DemandFutures::generate(model, Horizon::years(1), 300, 5);
    CHECK((a.levels() == b.levels().leftCols(100)).all());
}

TEST_CASE("one future alone has that future's levels and shapes, generated or explicit") {
    DemandModel model{.base_gpus = 3, .monthly_log_growth = 0, .monthly_log_volatility = 0.2, .events = {}, .seasonality = {},
                      .hour_of_week = {}, .history_monthly_gpus = {}};
    const auto generated = DemandFutures::generate(model, Horizon::years(1), 10, 5);
    const Horizon horizon = Horizon::months(2);
    const auto explicit_ =
        DemandFutures::from_profiles({DemandProfile::constant(2, horizon), DemandProfile::linear_growth(0, 10, horizon)});
    for (const DemandFutures* set : {&generated, &explicit_}) {
        const std::size_t f = set->count() - 1;
        const DemandFutures one = set->future(f);
        REQUIRE(one.count() == 1);
        for (int m = 0; m < set->month_count(); ++m) {
            CHECK(one.level(0, m) == set->level(f, m));
            CHECK(one.shape(0, m).sorted == set->shape(f, m).sorted);
        }
    }
    CHECK_THROWS_WITH_AS(explicit_.future(2), "future = 2: must be < 2 (the number of futures)", InvalidInput);
}

TEST_CASE("bad demand models name the field") {
    DemandModel model;
    model.events.push_back({.gpus = 8, .probability = 1.5, .first_month = 0, .last_month = 3});
    CHECK_THROWS_WITH_AS(DemandFutures::generate(model, Horizon::years(1), 10, 1),
                         "demand_model.events[0].probability = 1.5: must be in [0, 1]", InvalidInput);
    model.events[0] = {.gpus = 8, .probability = 0.5, .first_month = 6, .last_month = 14};
    CHECK_THROWS_WITH_AS(DemandFutures::generate(model, Horizon::years(1), 10, 1),
                         "demand_model.events[0].last_month = 14: must be in [first_month, 12) (the horizon's months)",
                         InvalidInput);
    DemandModel seasonal;
    seasonal.seasonality = {1.0, 2.0};
    CHECK_THROWS_WITH_AS(DemandFutures::generate(seasonal, Horizon::years(1), 10, 1),
                         "demand_model.seasonality.size = 2: must be 0 or 12", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandFutures::generate(DemandModel{}, Horizon::years(1), 0, 1), "futures = 0: must be >= 1",
                         InvalidInput);
}

TEST_CASE("explicit scenarios are one future each, on one horizon") {
    const Horizon horizon = Horizon::months(2);
    const DemandFutures futures =
        DemandFutures::from_profiles({DemandProfile::constant(2, horizon), DemandProfile::linear_growth(0, 10, horizon)});
    CHECK(futures.count() == 2);
    CHECK(futures.gpu_hours(0, 1) == Approx(2 * 730.0));
    CHECK(futures.gpu_hours(1, 1) == Approx(DemandProfile::linear_growth(0, 10, horizon).gpus_per_hour().tail(730).sum()));
    CHECK(futures.served_up_to(0, 0, 1.0) == Approx(730.0));
    CHECK_THROWS_WITH_AS(DemandFutures::from_profiles({DemandProfile::constant(2, horizon),
                                                       DemandProfile::constant(2, Horizon::months(3))}),
                         "profiles[1].months = 3: must be 2 (the first profile's)", InvalidInput);
}

TEST_CASE("explicit scenarios take the profiles' sorted months: the shapes a re-sort would make") {
    // from_profiles copies each month from DemandProfile::sorted_months instead of sorting it again;
    // over random hourly profiles (zeros and ties included), their scaled copies and a daily pattern,
    // every shape must equal MonthShape::of(the month's hours), which sorts.
    Xoshiro256pp engine(29);
    boost::random::uniform_01<double> u;
    const Horizon horizon = Horizon::months(3);
    for (int trial = 0; trial < 30; ++trial) {
        Eigen::ArrayXd hours(Eigen::Index(horizon.hour_count()));
        for (auto& h : hours) h = u(engine) < 0.1 ? 0.0 : u(engine) < 0.1 ? 4.0 : 8.0 * u(engine);
        const DemandProfile hourly = DemandProfile::hourly(hours);
        std::array<double, 24> day{};
        for (auto& h : day) h = u(engine);
        const std::vector<DemandProfile> profiles{hourly, hourly.scaled(0.1 + 3 * u(engine)),
                                                  DemandProfile::linear_growth(1, 9, horizon).with_daily_pattern(day)};
        const DemandFutures futures = DemandFutures::from_profiles(profiles);
        for (std::size_t f = 0; f < profiles.size(); ++f) {
            for (int m = 0; m < horizon.month_count(); ++m) {
                const MonthShape resorted = MonthShape::of(profiles[f].gpus_per_hour().data() + std::size_t(m) * 730);
                CHECK(futures.shape(f, m).sorted == resorted.sorted);
                CHECK(futures.shape(f, m).prefix == resorted.prefix);
            }
        }
    }
}

TEST_CASE("every (future, month) accessor checks both indices and names the one out of range") {
    const DemandFutures futures = DemandFutures::generate(DemandModel{.base_gpus = 8}, Horizon::years(3), 10, 1);
    CHECK(futures.gpu_hours(9, 35) == Approx(8 * 730.0));
    const char* month36 = "month = 36: must be in [0, 36) (the horizon's months)";
    const char* month_minus1 = "month = -1: must be in [0, 36) (the horizon's months)";
    const char* future10 = "future = 10: must be < 10 (the number of futures)";
    CHECK_THROWS_WITH_AS(futures.gpu_hours(0, 36), month36, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.gpu_hours(0, -1), month_minus1, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.gpu_hours(10, 0), future10, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.gpu_hours(10, 36), future10, InvalidInput);  // the future is named first
    CHECK_THROWS_WITH_AS(futures.level(0, 36), month36, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.level(10, 0), future10, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.shape(0, -1), month_minus1, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.shape(10, 0), future10, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.served_up_to(0, 36, 1.0), month36, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.served_up_to(10, 0, 1.0), future10, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.profile(10), future10, InvalidInput);
    CHECK_THROWS_WITH_AS(futures.future(10), future10, InvalidInput);
    // Explicit scenarios keep a shape per (future, month): the same checks.
    const DemandFutures explicit_ = DemandFutures::from_profile(DemandProfile::constant(2, Horizon::months(2)));
    CHECK_THROWS_WITH_AS(explicit_.shape(1, 0), "future = 1: must be < 1 (the number of futures)", InvalidInput);
    CHECK_THROWS_WITH_AS(explicit_.shape(0, 2), "month = 2: must be in [0, 2) (the horizon's months)", InvalidInput);
}

TEST_CASE("a profile's sorted months check the month") {
    const DemandProfile demand = DemandProfile::constant(2, Horizon::months(3));
    const SortedMonths& months = demand.sorted_months();
    CHECK(months.total(2) == Approx(2 * 730.0));
    const char* month3 = "month = 3: must be in [0, 3) (the months held)";
    CHECK_THROWS_WITH_AS(months.total(3), month3, InvalidInput);
    CHECK_THROWS_WITH_AS(months.peak(3), month3, InvalidInput);
    CHECK_THROWS_WITH_AS(months.sorted(3), month3, InvalidInput);
    CHECK_THROWS_WITH_AS(months.prefix(-1), "month = -1: must be in [0, 3) (the months held)", InvalidInput);
    CHECK_THROWS_WITH_AS(months.served_up_to(3, 1.0), month3, InvalidInput);
    CHECK_THROWS_WITH_AS(months.served_between(-1, 0.0, 1.0), "month = -1: must be in [0, 3) (the months held)",
                         InvalidInput);
}

TEST_CASE("expected_level checks the month: no read before the seasonality, no infinity past the horizon") {
    DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02};
    model.seasonality.assign(12, 1.0);
    CHECK(expected_level(model, 600) == Approx(8 * std::exp(0.02 * 600)));
    CHECK_THROWS_WITH_AS(expected_level(model, -1), "month = -1: must be in [0, 1200) (the longest horizon's months)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(expected_level(model, 1'000'000'000),
                         "month = 1000000000: must be in [0, 1200) (the longest horizon's months)", InvalidInput);
    model.monthly_log_growth = 0.03;
    CHECK_THROWS_WITH_AS(expected_level(model, 1199),
                         "demand_model.monthly_log_growth = 0.03: must keep the expected level within 1e+09 GPUs: "
                         "base_gpus × e^(month × (monthly_log_growth + monthly_log_volatility²/2)) is 3.35e+16 GPUs in "
                         "month 1199",
                         InvalidInput);
    model.monthly_log_growth = 0.0;
    model.monthly_log_volatility = 1.0;
    CHECK_THROWS_WITH_AS(expected_level(model, 100),
                         "demand_model.monthly_log_volatility = 1: must keep the expected level within 1e+09 GPUs: "
                         "base_gpus × e^(month × (monthly_log_growth + monthly_log_volatility²/2)) is 4.15e+22 GPUs in "
                         "month 100",
                         InvalidInput);
    model.base_gpus = 0;  // nothing grows from nothing: 0, not 0 × infinity
    CHECK(expected_level(model, 1199) == 0.0);
}

TEST_CASE("every demand-model parameter has a range, and a level that would pass the GPU limit names its cause") {
    const auto generate = [](const DemandModel& model, int years) {
        return DemandFutures::generate(model, Horizon::years(years), 10, 1);
    };
    CHECK_THROWS_WITH_AS(generate(DemandModel{.base_gpus = 8, .monthly_log_growth = 10}, 3),
                         "demand_model.monthly_log_growth = 10: must be in [-1, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(generate(DemandModel{.base_gpus = 8, .monthly_log_growth = -1.5}, 3),
                         "demand_model.monthly_log_growth = -1.5: must be in [-1, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(generate(DemandModel{.base_gpus = 8, .monthly_log_volatility = 100}, 3),
                         "demand_model.monthly_log_volatility = 100: must be <= 1", InvalidInput);
    CHECK_THROWS_WITH_AS(generate(DemandModel{.base_gpus = 2e9}, 3), "demand_model.base_gpus = 2000000000: must be <= 1e+09",
                         InvalidInput);
    DemandModel seasonal{.base_gpus = 8};
    seasonal.seasonality.assign(12, 1.0);
    seasonal.seasonality[3] = 1e4;
    CHECK_THROWS_WITH_AS(generate(seasonal, 3), "demand_model.seasonality[3] = 10000: must be <= 1000", InvalidInput);
    DemandModel event{.base_gpus = 8};
    event.events.push_back({.gpus = 1e300, .probability = 1, .first_month = 0, .last_month = 0});
    CHECK_THROWS_WITH_AS(generate(event, 3), "demand_model.events[0].gpus = 1e+300: must be <= 1e+09", InvalidInput);
    // 0.7 a month is in range, but over 100 years it compounds past any double.
    CHECK_THROWS_WITH_AS(generate(DemandModel{.base_gpus = 8, .monthly_log_growth = 0.7}, 100),
                         "demand_model.monthly_log_growth = 0.7: must keep demand within 1e+09 GPUs: (base_gpus × "
                         "e^(monthly_log_growth × month) + events) × the largest seasonality and hour-of-week factors "
                         "reaches inf GPUs in month 1199",
                         InvalidInput);
    CHECK(generate(DemandModel{.base_gpus = 8, .monthly_log_growth = 0.7}, 2).levels().isFinite().all());
    // Within range, noise may still carry a future past the limit: an error naming the volatility.
    CHECK_THROWS_WITH_AS(generate(DemandModel{.base_gpus = 8, .monthly_log_volatility = 1}, 100),
                         "demand_model.monthly_log_volatility = 1: must keep demand within 1e+09 GPUs: future 0 reaches "
                         "2.72e+09 GPUs in month 360",
                         InvalidInput);
}

TEST_CASE("over random models in range, generated levels and expected levels are finite, or an error") {
    Xoshiro256pp engine(2024);
    boost::random::uniform_01<double> u;
    int errors = 0, answers = 0;
    for (int trial = 0; trial < 400; ++trial) {
        DemandModel model;
        model.base_gpus = std::pow(10.0, 9.0 * u(engine));
        model.monthly_log_growth = 2.0 * u(engine) - 1.0;
        model.monthly_log_volatility = u(engine);
        if (u(engine) < 0.5) {
            model.seasonality.resize(12);
            for (double& s : model.seasonality) s = 1e3 * u(engine) * u(engine);
        }
        const int months = 1 + int(u(engine) * 1199);
        const Horizon horizon = Horizon::months(months);
        CAPTURE(trial);
        try {
            const DemandFutures futures = DemandFutures::generate(model, horizon, 5, std::uint64_t(trial));
            CHECK((futures.levels() <= 1e9).all());
            ++answers;
        } catch (const InvalidInput&) {
            ++errors;
        }
        double expected = 0;
        try {
            expected = expected_level(model, int(u(engine) * 1199));
        } catch (const InvalidInput&) {
            continue;
        }
        CHECK((std::isfinite(expected) && expected <= 1e9 * 1e3));  // within the GPU limit × the seasonality
    }
    CHECK(answers > 20);  // both branches are taken
    CHECK(errors > 20);
}

TEST_CASE("futures with their hours mapped: each hour of each future and month mapped, level 1, in order") {
    // 8 GPUs with 60% at weekends, +8 GPUs from a month in the first half year with probability 0.5; each
    // hour rounded up to whole instances of 8 GPUs (a non-decreasing map).
    DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.01, .monthly_log_volatility = 0.1};
    model.events.push_back({.gpus = 8, .probability = 0.5, .first_month = 0, .last_month = 5});
    model.hour_of_week.assign(168, 1.0);
    for (std::size_t h = 120; h < 168; ++h) model.hour_of_week[h] = 0.6;
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(6), 20, 3);
    const auto up = [](double x) { return 8.0 * std::ceil(x / 8.0); };
    const DemandFutures mapped = futures.with_hours_mapped(up);
    REQUIRE(mapped.count() == futures.count());
    for (std::size_t f = 0; f < futures.count(); ++f)
        for (int m = 0; m < futures.month_count(); ++m) {
            CHECK(mapped.level(f, m) == 1.0);
            const MonthShape& was = futures.shape(f, m);
            const MonthShape& now = mapped.shape(f, m);
            double total = 0;
            for (std::size_t h = 0; h < was.sorted.size(); ++h) {
                CHECK(now.sorted[h] == up(futures.level(f, m) * was.sorted[h]));
                total += now.sorted[h];
            }
            CHECK(std::is_sorted(now.sorted.begin(), now.sorted.end()));
            CHECK(mapped.gpu_hours(f, m) == Approx(total).epsilon(1e-12));
            CHECK(mapped.served_up_to(f, m, 8) == Approx(8.0 * 730).epsilon(1e-12));  // every hour needs >= 1 instance
        }
}
