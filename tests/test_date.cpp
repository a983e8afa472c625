#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>

#include "gputco/core/date.hpp"
#include "gputco/core/error.hpp"

using gputco::Date;
using gputco::InvalidInput;

TEST_CASE("Date::parse reads full dates, months and years") {
    CHECK(Date::parse("2025-06-01") == Date{2025, 6, 1});
    CHECK(Date::parse("2025-06") == Date{2025, 6, 1});
    CHECK(Date::parse("2017") == Date{2017, 1, 1});
    CHECK(Date::parse("2024-02-29") == Date{2024, 2, 29});
    CHECK(Date::parse("2025-05-31") < Date::parse("2025-06"));
    CHECK(Date::parse("2025-06-01").iso() == "2025-06-01");
}

TEST_CASE("Date::parse rejects what is not an existing ISO date") {
    CHECK_THROWS_WITH_AS(Date::parse("2025-02-29", "as_of"),
                         "as_of = \"2025-02-29\": must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY that exists",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Date::parse("2025-H1"),
                         "date = \"2025-H1\": must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY that exists",
                         InvalidInput);
    for (const char* bad : {"", "25-01-01", "2025-13", "2025-00-10", "2025-1-1", "2025-01-32", "undated",
                            "2025-06-01T00:00", "2025/06/01"}) {
        CAPTURE(bad);
        CHECK_FALSE(Date::is_date(bad));
        CHECK_THROWS_AS(Date::parse(bad), InvalidInput);
    }
}

TEST_CASE("days_since_epoch: known days, and consecutive days differ by one over 1900-2100") {
    CHECK(Date{1970, 1, 1}.days_since_epoch() == 0);
    CHECK(Date{2000, 3, 1}.days_since_epoch() == 11017);  // 30 years: 10957 days to 2000-01-01, + 31 + 29
    CHECK(Date{1969, 12, 31}.days_since_epoch() == -1);
    long long previous = Date{1899, 12, 31}.days_since_epoch();
    for (int y = 1900; y <= 2100; ++y) {
        for (int m = 1; m <= 12; ++m) {
            for (int d = 1; d <= 31; ++d) {
                char text[16];
                std::snprintf(text, sizeof text, "%04d-%02d-%02d", y, m, d);
                if (!Date::is_date(text)) continue;
                const Date date = Date::parse(text);
                REQUIRE(date.days_since_epoch() == previous + 1);
                REQUIRE(date.iso() == text);
                previous = date.days_since_epoch();
            }
        }
    }
}

TEST_CASE("from_days_since_epoch inverts days_since_epoch; iso_utc writes FOCUS times") {
    for (long long days = -800000; days <= 800000; days += 997) {
        CAPTURE(days);
        CHECK(Date::from_days_since_epoch(days).days_since_epoch() == days);
    }
    CHECK(Date::from_days_since_epoch(0) == Date{1970, 1, 1});
    CHECK(Date::from_days_since_epoch(20089) == Date{2025, 1, 1});  // 55 years, 13 of them leap: 55 × 365 + 14
    CHECK(Date::from_days_since_epoch(-1) == Date{1969, 12, 31});
    CHECK(gputco::iso_utc(1735689600) == "2025-01-01T00:00:00Z");
    CHECK(gputco::iso_utc(1735689600 + 3 * 3600 + 61) == "2025-01-01T03:01:01Z");
    CHECK(gputco::iso_utc(-1) == "1969-12-31T23:59:59Z");
}

TEST_CASE("Date::today: the system clock's UTC day, or GPUTCO_TODAY when set (a date, else a clear error)") {
    // ctest pins GPUTCO_TODAY for every case (tests/CMakeLists.txt); keep it to restore it.
    const char* before = std::getenv("GPUTCO_TODAY");
    const std::string kept = before ? before : "";
    ::unsetenv("GPUTCO_TODAY");
    // The clock's day, read on both sides of the call so a run across midnight cannot fail.
    const auto clock_day = [] {
        const long long s = std::chrono::duration_cast<std::chrono::seconds>(
                                std::chrono::system_clock::now().time_since_epoch()).count();
        return Date::from_days_since_epoch(s / 86400);
    };
    const Date first = clock_day();
    const Date today = Date::today();
    CHECK((today == first || today == clock_day()));
    ::setenv("GPUTCO_TODAY", "", 1);  // empty: the clock
    CHECK((Date::today() == first || Date::today() == clock_day()));
    ::setenv("GPUTCO_TODAY", "2030-01-02", 1);
    CHECK(Date::today() == Date{2030, 1, 2});
    ::setenv("GPUTCO_TODAY", "soon", 1);
    CHECK_THROWS_WITH_AS(Date::today(), "GPUTCO_TODAY = \"soon\": must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY that exists",
                         InvalidInput);
    if (before) ::setenv("GPUTCO_TODAY", kept.c_str(), 1);
    else ::unsetenv("GPUTCO_TODAY");
}
