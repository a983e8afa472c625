#include <doctest/doctest.h>

#include "gputco/core/time.hpp"

using namespace gputco;

TEST_CASE("horizons count whole 730-hour months") {
    const Horizon three_years = Horizon::years(3);
    CHECK(three_years.month_count() == 36);
    CHECK(three_years.hour_count() == 26280);  // 36 × 730
    CHECK(three_years.hours() == 26280.0);
    CHECK(three_years.years_span() == 3.0);
    CHECK(Horizon::months(18).years_span() == 1.5);
    CHECK(Horizon::months(12) == Horizon::years(1));
    CHECK(hours_per_year == 12 * hours_per_month);  // 8,760 = 12 × 730
}

TEST_CASE("non-positive horizons are rejected") {
    CHECK_THROWS_WITH_AS(Horizon::years(-1), "horizon.years = -1: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Horizon::months(0), "horizon.months = 0: must be > 0", InvalidInput);
}

TEST_CASE("horizons longer than 100 years are rejected before any month count overflows") {
    CHECK(Horizon::years(100).month_count() == 1200);
    CHECK(Horizon::months(1200).hour_count() == 876000);  // 1,200 × 730
    // 2^31 − 1 years × 12 used to overflow int to a negative month count.
    CHECK_THROWS_WITH_AS(Horizon::years(2147483647), "horizon.years = 2147483647: must be <= 100", InvalidInput);
    CHECK_THROWS_WITH_AS(Horizon::years(101), "horizon.years = 101: must be <= 100", InvalidInput);
    CHECK_THROWS_WITH_AS(Horizon::months(1201), "horizon.months = 1201: must be <= 1200 (100 years)", InvalidInput);
}
