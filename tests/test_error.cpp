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
