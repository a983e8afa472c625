// Scenario files: deadline jobs under deadline policies.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

using test::scenarios;

/// One deadline job; `line9` and `line10` vary (line numbers matter below).
std::string deadline(std::string_view line9 = "    compute_hours: 10",
                     std::string_view line10 = "    availability: {mean_up_hours: 5, mean_down_hours: 2}") {
    return fmt::format(
        "version: 1\n"                                                                   // 1
        "name: t\n"                                                                      // 2
        "horizon_months: 1\n"                                                            // 3
        "offering: {{provider: aws, instance_type: p3.2xlarge, region: us-east-1}}\n"    // 4
        "demand: {{kind: constant, gpus: 1}}\n"                                          // 5
        "deadline_jobs:\n"                                                               // 6
        "  - name: d\n"                                                                  // 7
        "    deadline_hours: 20\n"                                                       // 8
        "{}\n"                                                                           // 9
        "{}\n"                                                                           // 10
        "    paths: 50\n",                                                               // 11
        line9, line10);
}

}  // namespace

TEST_CASE("a deadline job of a scenario gives compare_deadline_policies' numbers for the job's seed") {
    const Scenario s = load_scenario(scenarios + "/deadline_job.yaml");
    REQUIRE(s.deadline_jobs.size() == 1);
    CHECK(s.strategies.empty());
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.deadline_jobs.size() == 1);
    const DeadlineComparison direct = compare_deadline_policies(
        {.compute_hours = 48, .deadline_hours = 72, .changeover_hours = 1}, {.mean_up_hours = 10, .mean_down_hours = 3},
        0.9701, 3.06, {.paths = 1000, .seed = 3, .omniscient = true});
    const DeadlineComparison& c = r.deadline_jobs[0].comparison;
    REQUIRE(c.policies.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(c.policies[i].policy == direct.policies[i].policy);
        CHECK(c.policies[i].cost.mean == direct.policies[i].cost.mean);
        CHECK(c.policies[i].deadline_miss_probability == direct.policies[i].deadline_miss_probability);
    }
    // on demand from the first tick: (48 compute + 1 changeover) h × $3.06 = $149.94 on every trace
    CHECK(c.policies[2].cost.mean == doctest::Approx(49 * 3.06).epsilon(1e-12));
    REQUIRE(c.omniscient_cost.has_value());
    CHECK(c.omniscient_cost->mean == direct.omniscient_cost->mean);
    CHECK(c.omniscient_cost->mean <= c.policies[0].cost.mean);  // a lower bound for every policy
}

TEST_CASE("a deadline job without prices takes the offering's per-instance spot and on-demand prices") {
    const Scenario s = parse_scenario(deadline(), "plan.yaml");
    const ScenarioResult r = run_scenario(s);
    const Offering& p3 = Catalog::builtin().offering("aws", "p3.2xlarge", "us-east-1");
    CHECK(r.deadline_jobs[0].spot_price_per_hour == *p3.spot_hourly);
    CHECK(r.deadline_jobs[0].on_demand_price_per_hour == p3.on_demand_hourly);
    // the default policies: greedy, uniform_progress, on_demand_only; seed 0 for job 0
    CHECK(r.deadline_jobs[0].comparison.policies.size() == 3);
    CHECK(r.deadline_jobs[0].comparison.seed == 0);
}

TEST_CASE("deadline job errors name file, line, column, field, value and rule") {
    // the library's rule, at the job: 10 compute + 25 changeover ticks do not fit in 20
    CHECK_THROWS_WITH_AS(parse_scenario(deadline("    compute_hours: 10\n    changeover_hours: 11"), "plan.yaml"),
                         "plan.yaml:7:5: deadline_job.deadline_hours = 20: must be >= compute_hours + changeover_hours "
                         "= 21 (infeasible even on demand)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(deadline("    compute_hours: 0"), "plan.yaml"),
                         "plan.yaml:9:20: deadline_jobs[0].compute_hours = 0: must be > 0", InvalidInput);
    // "    availability: {mean_up_hours: 5, mean_down_hours: " is 4 + 14 + 1 + 18 + 17 = 54 characters
    CHECK_THROWS_WITH_AS(parse_scenario(deadline("    compute_hours: 10",
                                                 "    availability: {mean_up_hours: 5, mean_down_hours: 0.5}"),
                                        "plan.yaml"),
                         "plan.yaml:10:19: markov.mean_down_hours = 0.5: must be >= tick_hours = 1", InvalidInput);
    // "    policies: [greedy, " is 4 + 10 + 1 + 8 = 23 characters
    CHECK_THROWS_WITH_AS(parse_scenario(deadline("    compute_hours: 10\n    policies: [greedy, uniform_progres]"),
                                        "plan.yaml"),
                         "plan.yaml:10:24: deadline_jobs[0].policies[1] = \"uniform_progres\": must be one of greedy, "
                         "uniform_progress, on_demand_only, greedy_simple, uniform_progress_prose; did you mean "
                         "\"uniform_progress\"?",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(deadline("    compute_hours: 10", "    tick_hours: 1"), "plan.yaml"),
                         "plan.yaml:7:5: deadline_jobs[0].availability = (missing): required", InvalidInput);
}

TEST_CASE("random deadline jobs round-trip through YAML exactly") {
    std::mt19937_64 rng(3014);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const auto policies = all_deadline_policies();
    for (int n = 0; n < 200; ++n) {
        Scenario s;
        s.name = fmt::format("random {}", n);
        s.horizon_months = 1;
        s.offering = {"aws", "p3.2xlarge", "us-east-1"};
        s.demand.gpus = 1;
        DeadlineJobSpec d{.name = "deadline"};
        d.job.tick_hours = rng() % 2 ? 1 : 0.25;
        d.job.compute_hours = d.job.tick_hours * double(1 + rng() % 40);
        d.job.changeover_hours = d.job.tick_hours * double(rng() % 3);
        d.job.deadline_hours = d.job.compute_hours + d.job.changeover_hours + d.job.tick_hours * double(rng() % 20);
        d.availability = {.mean_up_hours = 1 + unit(rng) * 20, .mean_down_hours = 1 + unit(rng) * 5};
        d.policies = {policies[rng() % policies.size()]};
        if (rng() % 2) d.spot_price_per_hour = 0.1 + unit(rng);
        if (rng() % 2) d.on_demand_price_per_hour = 2 + unit(rng);
        d.paths = 1 + rng() % 5000;
        d.omniscient = rng() % 2 == 0;
        s.deadline_jobs.push_back(d);
        const std::string written = to_yaml(s);
        CAPTURE(written);
        CHECK(to_yaml(parse_scenario(written, "random.yaml")) == written);
    }
}
