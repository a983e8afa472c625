// Progress and stopping on every long Monte Carlo run of a scenario: spot jobs, deadline jobs, plans
// over futures, workloads' spot rows, through the one ScenarioProgress callback and should_stop.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gputco/engines/deadline.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

using test::example;

struct Report {
    std::string task, unit;
    std::size_t done = 0, total = 0;
};

/// Runs the scenario and keeps every progress report.
std::vector<Report> reports_of(const Scenario& s) {
    std::vector<Report> reports;
    run_scenario(s, {}, [&](const std::string& task, std::size_t done, std::size_t total, std::string_view unit) {
        reports.push_back({task, std::string(unit), done, total});
    });
    return reports;
}

/// Within one task the count never goes back, never passes the total, and ends at the total.
void check_task(const std::vector<Report>& reports, const std::string& task, const std::string& unit, std::size_t total) {
    CAPTURE(task);
    std::size_t last = 0, seen = 0;
    for (const Report& r : reports) {
        if (r.task != task) continue;
        ++seen;
        CHECK(r.unit == unit);
        CHECK(r.total == total);
        CHECK(r.done >= last);
        CHECK(r.done <= r.total);
        last = r.done;
    }
    CHECK(seen >= 1);
    CHECK(last == total);
}

}  // namespace

TEST_CASE("plans over futures report futures done over every plan, ending at plans × futures") {
    const Scenario s = load_scenario(example("plans_under_uncertain_demand.yaml"));
    REQUIRE(s.plans.size() == 3);
    REQUIRE(s.futures->count == 2000);
    check_task(reports_of(s), "plans", "futures", 3 * 2000);
}

TEST_CASE("deadline jobs report traces done, ending at their paths") {
    const Scenario s = load_scenario(example("deadline_job.yaml"));
    check_task(reports_of(s), "deadline job train-48h", "traces", 1000);
}

TEST_CASE("spot jobs and workloads' spot rows report paths done") {
    check_task(reports_of(load_scenario(example("spot_training_job.yaml"))), "spot job train-500h", "paths", 20000);
    const std::vector<Report> work = reports_of(load_scenario(example("resnet50_cost_per_run.yaml")));
    CHECK_FALSE(work.empty());
    for (const Report& r : work) {
        CHECK(r.task == "workload resnet50-imagenet on spot");
        CHECK(r.unit == "paths");
        CHECK(r.done <= r.total);
    }
}

TEST_CASE("a stop asked for during plans, deadline jobs or workloads ends the run with Cancelled") {
    for (const char* name : {"plans_under_uncertain_demand.yaml", "deadline_job.yaml", "resnet50_cost_per_run.yaml",
                             "spot_training_job.yaml"}) {
        CAPTURE(name);
        const Scenario s = load_scenario(example(name));
        CHECK_THROWS_AS(run_scenario(s, [] { return true; }), Cancelled);
    }
}

TEST_CASE("the engines report on the calling thread: compare_plans counts all plans, the deadline policies all traces") {
    const Scenario s = load_scenario(example("plans_under_uncertain_demand.yaml"));
    const DemandFutures futures = scenario_futures(s);
    PlanOptions options;
    options.threads = 2;
    std::vector<std::pair<std::size_t, std::size_t>> seen;
    // not thread-safe, and need not be: reports come on the calling thread only
    options.progress = [&](std::size_t done, std::size_t total) { seen.emplace_back(done, total); };
    const Catalog catalog = scenario_catalog(s);
    const Offering* offering = s.offering.in(catalog);
    REQUIRE(offering != nullptr);
    const std::vector<PlanDistribution> with = compare_plans(s.plans, futures, *offering, {}, options);
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.back() == std::pair<std::size_t, std::size_t>(3 * 2000, 3 * 2000));
    options.progress = {};
    const std::vector<PlanDistribution> without = compare_plans(s.plans, futures, *offering, {}, options);
    for (std::size_t i = 0; i < with.size(); ++i) CHECK(with[i].total.mean == without[i].total.mean);  // reports change nothing

    DeadlineSimulationOptions deadline;
    deadline.paths = 300;
    std::size_t last = 0;
    deadline.progress = [&](std::size_t done, std::size_t total) {
        CHECK(total == 300);
        last = done;
    };
    const Scenario with_deadline = load_scenario(example("deadline_job.yaml"));
    const DeadlineJobSpec& job = with_deadline.deadline_jobs.at(0);
    compare_deadline_policies(job.job, job.availability, 0.9701, 3.06, deadline, job.policies);
    CHECK(last == 300);
}
