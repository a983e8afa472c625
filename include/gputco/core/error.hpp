#pragma once
// Bad input is reported, never clamped: every check throws InvalidInput with a message of the form
//   "<field> = <value>: <rule>"      e.g. "reserved.fraction = 1.4: must be in [0, 1]"
// so a user can find the field, see what was given and learn what is allowed.
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

namespace gputco {

/// Thrown for any input that breaks a documented rule. Python sees it as ValueError.
class InvalidInput : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

namespace detail {
template <class T>
std::string format_value(const T& value) {
    if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        return fmt::format("\"{}\"", std::string_view(value));
    } else {
        return fmt::format("{}", value);
    }
}
}  // namespace detail

/// Throws InvalidInput("<field> = <value>: <rule>").
template <class T>
[[noreturn]] void fail(std::string_view field, const T& value, std::string_view rule) {
    throw InvalidInput(fmt::format("{} = {}: {}", field, detail::format_value(value), rule));
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
/// value must lie in [0, 1] (NaN fails).
inline double require_fraction(std::string_view field, double value) {
    require(value >= 0.0 && value <= 1.0, field, value, "must be in [0, 1]");
    return value;
}

}  // namespace gputco
