#pragma once
// Enums written or read as text go through one table each: the name of every value, and any aliases a
// reader also accepts. JSON, CSV, tables, scenario files, the command and Python all convert with
// to_text() and parse<E>(), so a spelling cannot differ between two of them.
//
//   template <> struct EnumText<Payment> {          // next to the enum, in its own header
//       static constexpr std::array names{std::pair{Payment::no_upfront, std::string_view("no_upfront")}, ...};
//   };
//   to_text(Payment::all_upfront)                   // "all_upfront"
//   parse<Payment>("monthly", "reserved.payment")   // InvalidInput: reserved.payment = "monthly": must be one of
//                                                   //   no_upfront, partial_upfront, all_upfront
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gputco/core/error.hpp"

namespace gputco {

/// One row of a table: a value and its name (or alias).
template <class E>
using EnumName = std::pair<E, std::string_view>;

/// Specialise with `static constexpr std::array names` of (value, name) pairs, one per value, and
/// optionally `aliases` of (value, other spelling) pairs that parse<E>() accepts too.
template <class E>
struct EnumText;

template <class E>
concept TextEnum = requires { EnumText<E>::names; };

namespace detail {
template <class E>
concept HasAliases = requires { EnumText<E>::aliases; };
}  // namespace detail

/// The value's name; every value has one (the tables are complete, checked by the round-trip tests).
template <TextEnum E>
constexpr std::string_view to_text(E value) {
    for (const auto& [v, name] : EnumText<E>::names)
        if (v == value) return name;
    return "unknown";
}

/// Every value of E, in table order.
template <TextEnum E>
std::vector<E> all_values() {
    std::vector<E> out;
    for (const auto& entry : EnumText<E>::names) out.push_back(entry.first);
    return out;
}

/// The names, in table order (without aliases): for "did you mean" hints and documentation.
template <TextEnum E>
std::vector<std::string> text_names() {
    std::vector<std::string> out;
    for (const auto& entry : EnumText<E>::names) out.emplace_back(entry.second);
    return out;
}

/// The rule quoted when a name is not one of E's: "must be one of a, b, c" (+ " (aliases: x, y)").
template <TextEnum E>
std::string allowed_text() {
    std::string rule = "must be one of ";
    for (std::size_t i = 0; i < EnumText<E>::names.size(); ++i) {
        if (i) rule += ", ";
        rule += EnumText<E>::names[i].second;
    }
    if constexpr (detail::HasAliases<E>) {
        rule += " (aliases: ";
        for (std::size_t i = 0; i < EnumText<E>::aliases.size(); ++i) {
            if (i) rule += ", ";
            rule += EnumText<E>::aliases[i].second;
            rule += " = ";
            rule += to_text(EnumText<E>::aliases[i].first);
        }
        rule += ")";
    }
    return rule;
}

/// The value named `text` (exact, case-sensitive), or InvalidInput("<field> = "<text>": must be one of ...").
template <TextEnum E>
E parse(std::string_view text, std::string_view field) {
    for (const auto& [v, name] : EnumText<E>::names)
        if (text == name) return v;
    if constexpr (detail::HasAliases<E>) {
        for (const auto& [v, name] : EnumText<E>::aliases)
            if (text == name) return v;
    }
    fail(field, text, allowed_text<E>());
}

}  // namespace gputco
