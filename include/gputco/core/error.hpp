#pragma once
// Bad input is reported, never clamped: every check throws InvalidInput with a message of the form
//   "<field> = <value>: <rule>"      e.g. "reserved.fraction = 1.4: must be in [0, 1]"
// so a user can find the field, see what was given and learn what is allowed.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "gputco/core/limits.hpp"

namespace gputco {

/// Thrown for any input that breaks a documented rule. Python sees it as ValueError.
class InvalidInput : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

namespace detail {
/// Length in bytes of the valid UTF-8 sequence starting at text[i], or 0 if none starts there.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return 1;
    std::size_t n = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) n = 2;
    else if (lead == 0xE0) n = 3, low = 0xA0;                    // no overlong forms
    else if (lead == 0xED) n = 3, high = 0x9F;                   // no surrogates
    else if (lead >= 0xE1 && lead <= 0xEF) n = 3;
    else if (lead == 0xF0) n = 4, low = 0x90;
    else if (lead == 0xF4) n = 4, high = 0x8F;                   // <= U+10FFFF
    else if (lead >= 0xF1 && lead <= 0xF3) n = 4;
    else return 0;
    if (i + n > text.size()) return 0;
    if (byte(i + 1) < low || byte(i + 1) > high) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}
}  // namespace detail

/// `text` as valid UTF-8 of at most `max_bytes` bytes (plus "..." when cut): cut only between
/// characters, each byte that starts no valid character, and each control character, shown as \xNN. Error messages go through it,
/// so they can always be shown (a Python str, a terminal) whatever bytes the input held.
inline std::string printable_utf8(std::string_view text, std::size_t max_bytes = 200) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        // Control characters too: a NUL would end the C string of what(), a newline split the message.
        const std::size_t n = byte < 0x20 || byte == 0x7F ? 0 : detail::utf8_sequence_length(text, i);
        const std::string piece = n > 0 ? std::string(text.substr(i, n)) : fmt::format("\\x{:02X}", byte);
        if (out.size() + piece.size() > max_bytes) return out + "...";
        out += piece;
        i += n > 0 ? n : 1;
    }
    return out;
}

/// True if `text` is valid UTF-8 (no stray, truncated or overlong bytes, no surrogates).
inline bool is_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = detail::utf8_sequence_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

namespace detail {
template <class T>
std::string format_value(const T& value) {
    if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        return fmt::format("\"{}\"", printable_utf8(std::string_view(value)));
    } else {
        return fmt::format("{}", value);
    }
}
}  // namespace detail

/// Throws InvalidInput("<field> = <value>: <rule>"). All three parts go through printable_utf8: a
/// rule may quote input too ("differs from an earlier item of <size>"); it is cut only past 2,000 bytes.
template <class T>
[[noreturn]] void fail(std::string_view field, const T& value, std::string_view rule) {
    throw InvalidInput(
        fmt::format("{} = {}: {}", printable_utf8(field), detail::format_value(value), printable_utf8(rule, 2'000)));
}

/// Throws InvalidInput("<field> = <value>: <rule>") unless ok.
template <class T>
void require(bool ok, std::string_view field, const T& value, std::string_view rule) {
    if (!ok) fail(field, value, rule);
}

/// value must be a finite number (not NaN or infinite).
inline double require_finite(std::string_view field, double value) {
    require(std::isfinite(value), field, value, "must be a finite number");
    return value;
}
/// value must be finite and > 0.
inline double require_positive(std::string_view field, double value) {
    require(std::isfinite(value) && value > 0.0, field, value, "must be finite and > 0");
    return value;
}
/// value must be finite and >= 0.
inline double require_non_negative(std::string_view field, double value) {
    require(std::isfinite(value) && value >= 0.0, field, value, "must be finite and >= 0");
    return value;
}
/// value must be finite, >= 0 and <= max (a documented limit, see limits.hpp). A negative or
/// non-finite value gets require_non_negative's message; only a too-large one names the limit.
inline double require_at_most(std::string_view field, double value, double max) {
    require_non_negative(field, value);
    require(value <= max, field, value, fmt::format("must be <= {:g}", max));
    return value;
}
/// Text (names, sources, ...) must be valid UTF-8, so it can be shown and written anywhere.
inline const std::string& require_utf8(std::string_view field, const std::string& text) {
    require(is_utf8(text), field, text, "must be valid UTF-8 text");
    return text;
}
/// A duration that must be > 0: finite and in [limits::min_hours, max_hours] (by default 1e-9 .. 1e9 h).
/// require_positive's message for zero and negatives, so existing rules read the same.
inline double require_duration(std::string_view field, double hours, double max_hours = limits::max_hours) {
    require_positive(field, hours);
    require(hours >= limits::min_hours && hours <= max_hours, field, hours,
            fmt::format("must be in [{:g}, {:g}] hours", limits::min_hours, max_hours));
    return hours;
}
/// A yearly NPV discount rate: in [limits::min_annual_discount_rate, max_annual_discount_rate] (NaN fails).
inline double require_discount_rate(std::string_view field, double rate) {
    require(rate >= limits::min_annual_discount_rate && rate <= limits::max_annual_discount_rate, field, rate,
            fmt::format("must be in [{:g}, {:g}] (a fraction a year: 0.05 for 5%)", limits::min_annual_discount_rate,
                        limits::max_annual_discount_rate));
    return rate;
}
/// An on-demand price per hour: 0 (free) or in [limits::min_on_demand_price, limits::max_money].
inline double require_on_demand_price(std::string_view field, double price) {
    require_at_most(field, price, limits::max_money);
    require(price == 0.0 || price >= limits::min_on_demand_price, field, price,
            fmt::format("must be 0 or >= {:g}", limits::min_on_demand_price));
    return price;
}
/// A price per hour that must be > 0: finite and at most limits::max_money (require_positive's message
/// for zero and negatives).
inline double require_positive_price(std::string_view field, double price) {
    require_positive(field, price);
    require(price <= limits::max_money, field, price, fmt::format("must be <= {:g}", limits::max_money));
    return price;
}
/// value must lie in [0, 1] (NaN fails).
inline double require_fraction(std::string_view field, double value) {
    require(value >= 0.0 && value <= 1.0, field, value, "must be in [0, 1]");
    return value;
}

}  // namespace gputco
