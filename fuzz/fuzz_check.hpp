#pragma once
// What every fuzz target checks: a call either returns a well-formed answer or throws
// gputco::InvalidInput with a message of the form "<field> = <value>: <rule>". Any other exception,
// a NaN or infinite figure, or a message that is not valid UTF-8 is a finding:
// the target aborts, and libFuzzer saves the input that did it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "gputco/core/error.hpp"
#include "gputco/engines/spot.hpp"
#include "known_findings.hpp"

namespace gputco::fuzz {

[[noreturn]] inline void finding(std::string_view what, std::string_view detail = {}) {
    std::fprintf(stderr, "gputco fuzz finding: %.*s %.*s\n", int(what.size()), what.data(), int(detail.size()),
                 detail.data());
    std::abort();
}

/// True if `text` is well-formed UTF-8 (no stray continuation bytes, no cut or overlong sequences,
/// no surrogates, nothing above U+10FFFF).
inline bool valid_utf8(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t n = 0;
        unsigned code = 0;
        if (c < 0x80) { ++i; continue; }
        if (c >= 0xC2 && c <= 0xDF) { n = 1; code = c & 0x1Fu; }
        else if (c >= 0xE0 && c <= 0xEF) { n = 2; code = c & 0x0Fu; }
        else if (c >= 0xF0 && c <= 0xF4) { n = 3; code = c & 0x07u; }
        else return false;
        if (i + n >= text.size()) return false;  // cut short
        for (std::size_t k = 1; k <= n; ++k) {
            const auto cc = static_cast<unsigned char>(text[i + k]);
            if ((cc & 0xC0u) != 0x80u) return false;
            code = (code << 6) | (cc & 0x3Fu);
        }
        if ((n == 2 && code < 0x800) || (n == 3 && code < 0x10000) || code > 0x10FFFF ||
            (code >= 0xD800 && code <= 0xDFFF))
            return false;
        i += n + 1;
    }
    return true;
}

/// Runs `call`; InvalidInput is an answer (its message must have the documented shape), anything
/// else thrown is a finding. Returns true if `call` returned normally.
template <class Call>
bool returns_or_rejects(std::string_view input, Call&& call) {
    try {
        call();
        return true;
    } catch (const InvalidInput& e) {
        const std::string_view message = e.what();
        const bool cut_at_nul = known::message_cut_at_nul && input.find('\0') != std::string_view::npos;
        const bool shaped =
            message.find(" = ") != std::string_view::npos && message.find(": ") != std::string_view::npos;
        if (!cut_at_nul && !shaped) finding("InvalidInput message not \"<field> = <value>: <rule>\":", message);
        // Whatever the input's bytes, a message must be showable (a Python str, a terminal).
        if (!known::message_not_utf8 && !valid_utf8(message))
            finding("InvalidInput message is not valid UTF-8:", message);
        return false;
    } catch (const Cancelled&) {
        throw;  // asked for by the target (a time budget), not an error of the input
    } catch (const std::exception& e) {
        if (known::json_exception_escapes && std::string_view(e.what()).starts_with("[json.exception.")) return false;
        finding("exception other than InvalidInput:", e.what());
    } catch (...) {
        finding("non-standard exception");
    }
}

/// A figure handed back to the user must be a number.
inline void check_finite(std::string_view name, double value) {
    if (!std::isfinite(value)) finding("not finite:", name);
}

}  // namespace gputco::fuzz
