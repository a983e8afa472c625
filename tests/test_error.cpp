#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "gputco/core/error.hpp"

using namespace gputco;

TEST_CASE("messages name the field, the value and the rule") {
    CHECK_THROWS_WITH_AS(fail("reserved.fraction", 1.4, "must be in [0, 1]"), "reserved.fraction = 1.4: must be in [0, 1]",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(fail("provider", std::string("foo"), "unknown provider"), "provider = \"foo\": unknown provider",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(fail("provider", "bar", "unknown provider"), "provider = \"bar\": unknown provider",
                         InvalidInput);
    CHECK_THROWS_AS(fail("x", 1, "r"), std::invalid_argument);  // InvalidInput is an invalid_argument
}

TEST_CASE("the common rules accept what they allow and return it") {
    CHECK(require_positive("p", 2.5) == 2.5);
    CHECK(require_non_negative("p", 0.0) == 0.0);
    CHECK(require_fraction("f", 1.0) == 1.0);
    CHECK(require_finite("x", -3.0) == -3.0);
    CHECK_NOTHROW(require(true, "x", 1, "never"));
}

TEST_CASE("the common rules reject NaN, infinities and out-of-range values") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH_AS(require_positive("p", 0.0), "p = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(require_positive("p", inf), "p = inf: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(require_non_negative("p", -0.5), "p = -0.5: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(require_non_negative("p", std::nan("")), "p = nan: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(require_fraction("f", std::nan("")), "f = nan: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(require_fraction("f", -0.1), "f = -0.1: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(require_finite("x", -inf), "x = -inf: must be a finite number", InvalidInput);
}

TEST_CASE("messages are valid UTF-8: cut between characters, stray bytes shown as \\xNN") {
    CHECK(printable_utf8("plain") == "plain");
    CHECK(printable_utf8("h\xC3\xA9llo") == "h\xC3\xA9llo");                // é kept whole
    CHECK(printable_utf8("ab\xC3\xA9", 3) == "ab...");                     // é does not fit: cut before it
    CHECK(printable_utf8("\xFF" "a\xC3") == "\\xFFa\\xC3");                 // stray and truncated bytes
    CHECK(printable_utf8("\xED\xA0\x80") == "\\xED\\xA0\\x80");            // a UTF-16 surrogate is not UTF-8
    CHECK(printable_utf8("\xC0\xAF") == "\\xC0\\xAF");                     // an overlong form neither
    CHECK(printable_utf8("\xF0\x9F\x98\x80!") == "\xF0\x9F\x98\x80!");    // 4-byte character
    CHECK(printable_utf8(std::string(300, 'x')) == std::string(200, 'x') + "...");
    CHECK(printable_utf8(std::string("a\0b\n", 4)) == "a\\x00b\\x0A");  // a NUL would end what()
    CHECK_THROWS_WITH_AS(fail("provider", std::string("a\xFF"), "unknown provider"),
                         "provider = \"a\\xFF\": unknown provider", InvalidInput);
}

TEST_CASE("limits: require_at_most and require_duration keep the plain rules' messages below the limit") {
    CHECK(require_at_most("g", 5.0, 10.0) == 5.0);
    CHECK_THROWS_WITH_AS(require_at_most("g", -1.0, 10.0), "g = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(require_at_most("g", 11.0, 10.0), "g = 11: must be <= 10", InvalidInput);
    CHECK(require_duration("h", 1e-9) == 1e-9);
    CHECK_THROWS_WITH_AS(require_duration("h", 0.0), "h = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(require_duration("h", 2e9), "h = 2000000000: must be in [1e-09, 1e+09] hours", InvalidInput);
}

TEST_CASE("a rule that quotes input is cleaned like the field and the value") {
    // Control bytes (a NUL would end what(), a newline split the message) and invalid UTF-8.
    CHECK_THROWS_WITH_AS(fail("f", 1, std::string("differs from \"a\0b\n\xFF\xC3\"", 21)),
                         "f = 1: differs from \"a\\x00b\\x0A\\xFF\\xC3\"", InvalidInput);
    CHECK_THROWS_WITH_AS(fail("f", 1, "ends in h\xC3\xA9"), "f = 1: ends in h\xC3\xA9", InvalidInput);  // é kept
    // Cut only past 2,000 bytes, between characters.
    CHECK_THROWS_WITH_AS(fail("f", 1, std::string(1'999, 'x') + "\xC3\xA9"), ("f = 1: " + std::string(1'999, 'x') + "...").c_str(),
                         InvalidInput);
    const std::string long_rule(2'000, 'y');
    CHECK_THROWS_WITH_AS(fail("f", 1, long_rule), ("f = 1: " + long_rule).c_str(), InvalidInput);
}
