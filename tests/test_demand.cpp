#include <doctest/doctest.h>

#include "gputco/work/demand.hpp"

using namespace gputco;

TEST_CASE("constant demand covers every hour of the horizon") {
    const auto d = DemandProfile::constant(4, Horizon::years(3));
    CHECK(d.gpus_per_hour().size() == 26280);  // 36 months × 730 h
    CHECK(d.total_gpu_hours() == doctest::Approx(105120));  // 4 × 26,280
    CHECK(d.peak_gpus() == 4);
    CHECK(d.mean_gpus() == doctest::Approx(4));
    CHECK(d.horizon() == Horizon::months(36));
}

TEST_CASE("linear growth runs from the first to the last hour") {
    const auto d = DemandProfile::linear_growth(2, 10, Horizon::months(2));
    CHECK(d.gpus_per_hour()[0] == 2);
    CHECK(d.gpus_per_hour()[1459] == doctest::Approx(10));  // 2 × 730 − 1
    CHECK(d.mean_gpus() == doctest::Approx(6));              // (2 + 10) / 2
}

TEST_CASE("compound growth doubles after a year at 100% per year") {
    const auto d = DemandProfile::compound_growth(3, 1.0, Horizon::years(2));
    CHECK(d.gpus_per_hour()[0] == doctest::Approx(3));
    CHECK(d.gpus_per_hour()[8760] == doctest::Approx(6));  // 3 × 2^(8760/8760)
    CHECK(d.gpus_per_hour()[4380] == doctest::Approx(3 * std::sqrt(2.0)));
}

TEST_CASE("steps are piecewise constant by month") {
    const auto d = DemandProfile::steps({{0, 2}, {6, 8}}, Horizon::years(1));
    CHECK(d.gpus_per_hour()[6 * 730 - 1] == 2);
    CHECK(d.gpus_per_hour()[6 * 730] == 8);
    CHECK(d.total_gpu_hours() == doctest::Approx(6 * 730 * 2 + 6 * 730 * 8));  // 8,760 + 35,040
}

TEST_CASE("daily and weekly patterns multiply the hours they name") {
    std::array<double, 24> daily{};
    daily.fill(1.0);
    for (int h = 0; h < 8; ++h) daily[std::size_t(h)] = 0.25;  // nights at a quarter
    const auto d = DemandProfile::constant(4, Horizon::months(1)).with_daily_pattern(daily);
    CHECK(d.gpus_per_hour()[0] == 1);
    CHECK(d.gpus_per_hour()[8] == 4);
    CHECK(d.gpus_per_hour()[24 + 7] == 1);

    const auto w = DemandProfile::constant(4, Horizon::months(1)).with_weekly_pattern({1, 1, 1, 1, 1, 0, 0});
    CHECK(w.gpus_per_hour()[5 * 24] == 0);      // day 5, Saturday
    CHECK(w.gpus_per_hour()[7 * 24] == 4);      // day 7 is day 0 of the next week
    CHECK(w.scaled(0.5).gpus_per_hour()[0] == 2);
}

TEST_CASE("an hourly series becomes a profile of whole months") {
    Eigen::ArrayXd series = Eigen::ArrayXd::Constant(1460, 3.0);
    const auto d = DemandProfile::hourly(series);
    CHECK(d.horizon().month_count() == 2);
    CHECK(d.total_gpu_hours() == doctest::Approx(4380));  // 1,460 × 3
}

TEST_CASE("bad demand is rejected with the field, value and rule") {
    CHECK_THROWS_WITH_AS(DemandProfile::constant(-1, Horizon::years(1)), "demand.gpus = -1: must be finite and >= 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::constant(std::nan(""), Horizon::years(1)),
                         "demand.gpus = nan: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Horizon::years(0), "horizon.years = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Horizon::months(-3), "horizon.months = -3: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::hourly(Eigen::ArrayXd()), "demand.hours = 0: must be a positive multiple of 730 (whole months)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::hourly(Eigen::ArrayXd::Ones(1000)),
                         "demand.hours = 1000: must be a positive multiple of 730 (whole months)", InvalidInput);
    Eigen::ArrayXd series = Eigen::ArrayXd::Ones(730);
    series[17] = -2;
    CHECK_THROWS_WITH_AS(DemandProfile::hourly(series), "demand.gpus_per_hour[17] = -2: must be finite and >= 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::compound_growth(1, -1.5, Horizon::years(1)),
                         "demand.annual_growth_rate = -1.5: must be finite and > -1", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({}, Horizon::years(1)), "demand.steps.size = 0: must be >= 1",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{1, 2}}, Horizon::years(1)),
                         "demand.steps[0].start_month = 1: must be 0 for the first step", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{0, 2}, {0, 3}}, Horizon::years(1)),
                         "demand.steps[1].start_month = 0: must be greater than the previous step's start_month",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{0, 2}, {12, 3}}, Horizon::years(1)),
                         "demand.steps[1].start_month = 12: must be < horizon months (12)", InvalidInput);
    std::array<double, 7> weekly{1, 1, 1, 1, 1, -0.5, 1};
    CHECK_THROWS_WITH_AS(DemandProfile::constant(1, Horizon::years(1)).with_weekly_pattern(weekly),
                         "demand.weekly_pattern[5] = -0.5: must be finite and >= 0", InvalidInput);
}

TEST_CASE("a step starting after the horizon is rejected before anything is written") {
    // Used to write the first step's 4 months into a 3-month array (heap overflow) before the check.
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{0, 1.0}, {4, 2.0}}, Horizon::months(3)),
                         "demand.steps[1].start_month = 4: must be < horizon months (3)", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{0, 1.0}, {2147483647, 2.0}}, Horizon::months(3)),
                         "demand.steps[1].start_month = 2147483647: must be < horizon months (3)", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{0, 1.0}, {1, 2.0}, {5, 3.0}}, Horizon::months(3)),
                         "demand.steps[2].start_month = 5: must be < horizon months (3)", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{0, 1.0}, {1, -2.0}}, Horizon::months(3)),
                         "demand.steps[1].gpus = -2: must be finite and >= 0", InvalidInput);
}

TEST_CASE("demand above 1e9 GPUs per hour is rejected, so no total overflows") {
    const Horizon h = Horizon::months(1);
    CHECK(DemandProfile::constant(1e9, h).peak_gpus() == 1e9);
    CHECK_THROWS_WITH_AS(DemandProfile::constant(1e308, h), "demand.gpus = 1e+308: must be <= 1e+09", InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::linear_growth(0, 2e9, h), "demand.end_gpus = 2000000000: must be <= 1e+09",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::steps({{0, 1e10}}, h), "demand.steps[0].gpus = 10000000000: must be <= 1e+09",
                         InvalidInput);
    Eigen::ArrayXd hours = Eigen::ArrayXd::Ones(730);
    hours[5] = 1e308;
    CHECK_THROWS_WITH_AS(DemandProfile::hourly(hours), "demand.gpus_per_hour[5] = 1e+308: must be <= 1e+09",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::hourly(Eigen::ArrayXd::Ones(730 * 1201)),
                         "demand.hours = 876730: must be <= 876000 (100 years)", InvalidInput);
    // Derived profiles: growth, scale and patterns must keep the peak within the limit too.
    CHECK_THROWS_WITH_AS(DemandProfile::compound_growth(1, 1e300, Horizon::years(2)),
                         "demand.annual_growth_rate = 1e+300: makes the peak demand inf GPUs, more than 1e+09",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(DemandProfile::constant(1, h).scaled(1e300),
                         "demand.scale = 1e+300: makes the peak demand 1e+300 GPUs, more than 1e+09", InvalidInput);
    std::array<double, 7> week{1, 1, 1, 1, 1, 1, 1e200};
    CHECK_THROWS_WITH_AS(DemandProfile::constant(1e9, h).with_weekly_pattern(week),
                         "demand.weekly_pattern = 1e+200: makes the peak demand 1e+209 GPUs, more than 1e+09",
                         InvalidInput);
}

TEST_CASE("compound growth from zero GPUs is zero every hour, whatever the rate") {
    // 0 × e^{huge} used to be 0 × inf = NaN in the late hours.
    const auto d = DemandProfile::compound_growth(0, 1e300, Horizon::years(100));
    CHECK(d.peak_gpus() == 0);
    CHECK(d.total_gpu_hours() == 0);
}
