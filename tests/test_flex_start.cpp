// Flex-start (GCP Dynamic Workload Scheduler) for a deadline job: two cases worked by hand, the
// deadline met in every outcome over random jobs, and the rules' messages.
#include <doctest/doctest.h>

#include "plan_fixtures.hpp"
#include "gputco/engines/flex_start.hpp"

using namespace gputco;
using doctest::Approx;

TEST_CASE("one run: 5 requests fit the slack, all fail with probability 1/32, worked by hand") {
    // 100 h of work, deadline 110 h, no launch time, requests of 2 h granted half the time, 30% off $10/h.
    // A request is made while 2 f + 2 + 100 <= 110 (f failed so far): f = 0..4, five requests.
    //   granted by one of them (31/32): 100 h × 7.00 = 700; all fail (1/32): 100 h on demand × 10 = 1,000
    //   expected 31/32 × 700 + 1/32 × 1,000 = 709.375; sd 300 × sqrt(31/32 × 1/32) = 52.1978...
    const FlexStartResult r = flex_start_job({.compute_hours = 100, .deadline_hours = 110},
                                             {.discount = 0.3, .request_valid_hours = 2, .grant_probability = 0.5}, 10);
    CHECK(r.runs == 1);
    CHECK(r.most_requests == 5);
    CHECK(r.all_flex_cost == Approx(700).epsilon(1e-12));
    CHECK(r.all_on_demand_cost == Approx(1000).epsilon(1e-12));
    CHECK(r.expected_cost == Approx(709.375).epsilon(1e-12));
    CHECK(r.cost_standard_deviation == Approx(300 * std::sqrt(31.0 / 1024)).epsilon(1e-9));
    CHECK(r.fallback_probability == Approx(1.0 / 32).epsilon(1e-12));
    CHECK(r.worst_finish_hours == Approx(110).epsilon(1e-12));
}

TEST_CASE("two runs of at most 7 days with a 2 h launch each, worked by hand") {
    // 300 h of work, launch 2 h, deadline 312 h, requests of 2 h granted 80% of the time, 7.00 vs 10.00.
    // A run holds 168 − 2 = 166 h of work: runs of 166 and 134 h, 304 h billed if both are flex-start.
    // A request is made while (time so far) + 2 + (work left) + 2 × 2 <= 312: before any run while
    // 2 f + 306 <= 312 (f <= 3), after the first run while 170 + 2 f + 140 <= 312 (f <= 1); then the
    // rest runs on demand (its work + one launch). With g = granted (0.8), x = failed (0.2):
    //   gg .64, gxg .128, xgg .128: 304 × 7 = 2,128
    //   gxx, xgx, xxg .032 each, xxxg .0064: 168 × 7 + 136 × 10 = 2,536
    //   xxxx .0016: 302 × 10 = 3,020
    //   expected .896 × 2,128 + .1024 × 2,536 + .0016 × 3,020 = 2,171.2064; falls back with .104
    //   latest finish: xxxg, 4 windows + 168 + 136 = 312
    const FlexStartResult r =
        flex_start_job({.compute_hours = 300, .deadline_hours = 312, .changeover_hours = 2},
                       {.discount = 0.3, .request_valid_hours = 2, .grant_probability = 0.8}, 10);
    CHECK(r.runs == 2);
    CHECK(r.most_requests == 4);
    CHECK(r.all_flex_cost == Approx(2128).epsilon(1e-12));
    CHECK(r.expected_cost == Approx(2171.2064).epsilon(1e-12));
    CHECK(r.fallback_probability == Approx(0.104).epsilon(1e-12));
    CHECK(r.expected_flex_hours == Approx(0.896 * 304 + 0.1024 * 168).epsilon(1e-12));
    CHECK(r.worst_finish_hours == Approx(312).epsilon(1e-12));
}

TEST_CASE("over 300 random jobs the deadline holds in the worst outcome and the cost lies between flex-start's "
          "and on demand's") {
    Xoshiro256pp engine(31);
    for (int trial = 0; trial < 300; ++trial) {
        const double work = test::uniform_int(engine, 1, 400), launch = test::uniform_int(engine, 0, 3);
        const DeadlineJob job{.compute_hours = work, .deadline_hours = work + launch + test::uniform_int(engine, 0, 40),
                              .changeover_hours = launch};
        const FlexStart flex{.discount = test::uniform(engine, 0, 0.7), .request_valid_hours = test::uniform(engine, 0.1, 2),
                             .grant_probability = test::uniform(engine, 0.05, 1)};
        const FlexStartResult r = flex_start_job(job, flex, 10);
        CAPTURE(trial);
        CHECK(r.worst_finish_hours <= job.deadline_hours + 1e-9);
        CHECK(r.expected_cost >= (1 - flex.discount) * 10 * work - 1e-9);  // at least the work at the lower price
        CHECK(r.expected_cost <= r.all_flex_cost + r.all_on_demand_cost + 1e-9);
        CHECK(r.fallback_probability >= 0);
        CHECK(r.fallback_probability <= 1 + 1e-12);
    }
}

TEST_CASE("flex-start's rules: errors name the field and the rule") {
    const DeadlineJob job{.compute_hours = 10, .deadline_hours = 20};
    CHECK_THROWS_WITH_AS(flex_start_job(job, {.discount = 0.3, .request_valid_hours = 3}, 10),
                         "flex_start.request_valid_hours = 3: must be in (0, 2] (a flex-start request waits at most two "
                         "hours)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(flex_start_job(job, {.discount = 1}, 10), "flex_start.discount = 1: must be in [0, 1)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(flex_start_job(job, {.discount = 0.2, .grant_probability = 0}, 10),
                         "flex_start.grant_probability = 0: must be in (0, 1]", InvalidInput);
}
