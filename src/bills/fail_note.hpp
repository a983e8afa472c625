#pragma once
// An InvalidInput whose "value" is a description rather than the input's text ("(missing)",
// "19 fields", "(end of file)"): written without the quotes the input's own values get.
#include <string_view>

#include <fmt/format.h>

#include "gputco/core/error.hpp"

namespace gputco::bills {

[[noreturn]] inline void fail_note(std::string_view field, std::string_view note, std::string_view rule) {
    throw InvalidInput(fmt::format("{} = {}: {}", printable_utf8(field), note, printable_utf8(rule, 2'000)));
}

}  // namespace gputco::bills
