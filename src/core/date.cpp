// ISO date parsing and day counts (Howard Hinnant's days_from_civil).
#include "gputco/core/date.hpp"

#include <charconv>
#include <chrono>
#include <cstdlib>

#include <fmt/format.h>

#include "gputco/core/error.hpp"

namespace gputco {
namespace {

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
    constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/// Reads exactly `width` digits at `pos`; false when they are not all digits.
bool digits(std::string_view text, std::size_t pos, std::size_t width, int& out) {
    if (pos + width > text.size()) return false;
    for (std::size_t i = pos; i < pos + width; ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
    }
    std::from_chars(text.data() + pos, text.data() + pos + width, out);
    return true;
}

bool try_parse(std::string_view text, Date& out) {
    Date d;
    if (!digits(text, 0, 4, d.year)) return false;
    if (text.size() == 4) {
        out = d;
        return true;
    }
    if (text.size() < 7 || text[4] != '-' || !digits(text, 5, 2, d.month)) return false;
    if (d.month < 1 || d.month > 12) return false;
    if (text.size() == 7) {
        out = d;
        return true;
    }
    if (text.size() != 10 || text[7] != '-' || !digits(text, 8, 2, d.day)) return false;
    if (d.day < 1 || d.day > days_in_month(d.year, d.month)) return false;
    out = d;
    return true;
}

}  // namespace

Date Date::parse(std::string_view text, std::string_view field) {
    Date d;
    if (!try_parse(text, d)) {
        fail(field, text, "must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY that exists");
    }
    return d;
}

bool Date::is_date(std::string_view text) {
    Date d;
    return try_parse(text, d);
}

long long Date::days_since_epoch() const {
    const long long y = month <= 2 ? year - 1 : year;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const long long yoe = y - era * 400;
    const long long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

Date Date::from_days_since_epoch(long long days) {
    // Civil from days (H. Hinnant), the inverse of days_since_epoch.
    const long long z = days + 719468;
    const long long era = (z >= 0 ? z : z - 146096) / 146097;
    const long long doe = z - era * 146097;
    const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const long long mp = (5 * doy + 2) / 153;
    const int day = int(doy - (153 * mp + 2) / 5 + 1);
    const int month = int(mp < 10 ? mp + 3 : mp - 9);
    return Date{int(yoe + era * 400 + (month <= 2 ? 1 : 0)), month, day};
}

std::string iso_utc(long long seconds) {
    const long long days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    const long long rest = seconds - days * 86400;
    return fmt::format("{}T{:02}:{:02}:{:02}Z", Date::from_days_since_epoch(days).iso(), rest / 3600, rest % 3600 / 60,
                       rest % 60);
}

Date Date::today() {
    if (const char* pinned = std::getenv("GPUTCO_TODAY"); pinned && *pinned) return parse(pinned, "GPUTCO_TODAY");
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    const long long s = seconds.count();
    return from_days_since_epoch(s >= 0 ? s / 86400 : -((-s + 86399) / 86400));
}

std::string Date::iso() const { return fmt::format("{:04}-{:02}-{:02}", year, month, day); }

}  // namespace gputco
