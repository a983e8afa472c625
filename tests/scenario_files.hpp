#pragma once
// Shared by the scenario suites (tests/test_scenario*.cpp): where the example scenarios are, and the
// message a scenario's parse fails with. One copy, so the suites can share a unity batch
// (cmake/test_groups.cmake).
#include <string>
#include <string_view>

#include "gputco/core/error.hpp"
#include "gputco/scenario/scenario.hpp"

namespace gputco::test {

/// The example scenarios' directory (examples/scenarios).
inline const std::string scenarios = std::string(GPUTCO_SOURCE_DIR) + "/examples/scenarios";

/// The path of the example scenario `name`.
inline std::string example(std::string_view name) { return scenarios + "/" + std::string(name); }

/// What parsing `text` as plan.yaml throws (InvalidInput's message), or "no error".
inline std::string message(const std::string& text) {
    try {
        parse_scenario(text, "plan.yaml");
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace gputco::test
