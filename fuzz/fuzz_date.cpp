// Date::parse on arbitrary text: a date that exists, or InvalidInput. is_date() agrees with parse(),
// iso() parses back to the same date, and the day count is consistent with the calendar.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/core/date.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Date date;
    const bool parsed = fuzz::returns_or_rejects(text, [&] { date = Date::parse(text, "date"); });
    if (parsed != Date::is_date(text)) fuzz::finding("is_date() disagrees with parse()");
    if (!parsed) return 0;
    if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31) fuzz::finding("a date that cannot exist");
    const std::string iso = date.iso();
    Date again;
    if (!fuzz::returns_or_rejects(iso, [&] { again = Date::parse(iso); })) fuzz::finding("iso() is not a date:", iso);
    if (again != date) fuzz::finding("parse(iso()) differs:", iso);
    // The next day is one day later: 1 after the month's last day rolls over to the 1st.
    const Date next_month_start{date.month == 12 ? date.year + 1 : date.year, date.month == 12 ? 1 : date.month + 1, 1};
    const long long days_left = next_month_start.days_since_epoch() - date.days_since_epoch();
    if (days_left < 1 || days_left > 31) fuzz::finding("the day count puts the next month's first day out of reach");
    const Date last{date.year, date.month, date.day + int(days_left) - 1};
    if (!Date::is_date(last.iso())) fuzz::finding("the day count gives a month a day it does not have:", last.iso());
    if (last.day < 28) fuzz::finding("a month of fewer than 28 days:", last.iso());
    if (Date::is_date(Date{last.year, last.month, last.day + 1}.iso())) fuzz::finding("a month goes on past its last day");
    return 0;
}
