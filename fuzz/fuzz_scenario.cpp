// parse_scenario on arbitrary YAML or JSON text: a scenario or InvalidInput. A scenario survives its
// own canonical YAML: parse_scenario(to_yaml(s)) is accepted and writes the same YAML again. Small
// scenarios without spot jobs are also run, and every total they report must be finite.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    // An llm_serving section is ranked over the whole catalog while the file loads (the serving planner
    // per offering): seconds per input, past the fuzzer's timeout under the sanitizers. Its fields are
    // checked by test_scenario_llm; the other keys are fuzzed here.
    if (text.find("llm_serving") != std::string_view::npos) return 0;
    Scenario scenario;
    if (!fuzz::returns_or_rejects(text, [&] { scenario = parse_scenario(text, "scenario.yaml"); })) return 0;

    const std::string yaml = to_yaml(scenario);
    Scenario again;
    if (!fuzz::returns_or_rejects(yaml, [&] { again = parse_scenario(yaml, "scenario.yaml"); }))
        fuzz::finding("to_yaml() wrote a scenario parse_scenario() rejects:", yaml);
    const std::string yaml_again = to_yaml(again);
    if (yaml_again != yaml) fuzz::finding("to_yaml(parse_scenario(to_yaml(s))) != to_yaml(s):", yaml + "\n---\n" + yaml_again);

    // Running is the engines' target's job; here only what a scenario adds (demand kinds, inline
    // offerings, named strategies), so only small runs without a Monte Carlo.
    if (!scenario.spot_jobs.empty() || !scenario.workloads.empty() || scenario.strategies.size() > 4 ||
        scenario.horizon_months > 120)
        return 0;
    ScenarioResult result;
    if (!fuzz::returns_or_rejects(text, [&] { result = run_scenario(scenario); })) return 0;
    for (const StrategyResult& s : result.strategies) {
        fuzz::check_finite("report.total", s.report.total);
        fuzz::check_finite("report.npv", s.report.npv);
        fuzz::check_finite("report.baseline_total", s.report.baseline_total);
        fuzz::check_finite("report.savings", s.report.savings);
    }
    return 0;
}
