#include <doctest/doctest.h>

#include <limits>

#include "gputco/core/error.hpp"
#include "gputco/work/job.hpp"

using gputco::InvalidInput;
using gputco::Job;

TEST_CASE("a valid job passes; deadline defaults to none") {
    const Job job{.work_hours = 100, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25, .capacity_wait_hours = 1};
    CHECK_NOTHROW(job.validate());
    CHECK(job.deadline_hours == std::numeric_limits<double>::infinity());
}

TEST_CASE("every bad job field is rejected with an exact message") {
    const Job ok{.work_hours = 100, .checkpoint_interval_hours = 2};
    Job j = ok;
    j.work_hours = -1;
    CHECK_THROWS_WITH_AS(j.validate(), "job.work_hours = -1: must be finite and > 0", InvalidInput);
    j.work_hours = 0;
    CHECK_THROWS_WITH_AS(j.validate(), "job.work_hours = 0: must be finite and > 0", InvalidInput);
    j.work_hours = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH_AS(j.validate(), "job.work_hours = inf: must be finite and > 0", InvalidInput);
    j = ok;
    j.checkpoint_interval_hours = 0;
    CHECK_THROWS_WITH_AS(j.validate(), "job.checkpoint_interval_hours = 0: must be finite and > 0", InvalidInput);
    j = ok;
    j.checkpoint_write_hours = -0.5;
    CHECK_THROWS_WITH_AS(j.validate(), "job.checkpoint_write_hours = -0.5: must be finite and >= 0", InvalidInput);
    j = ok;
    j.restart_hours = -1;
    CHECK_THROWS_WITH_AS(j.validate(), "job.restart_hours = -1: must be finite and >= 0", InvalidInput);
    j = ok;
    j.capacity_wait_hours = -2;
    CHECK_THROWS_WITH_AS(j.validate(), "job.capacity_wait_hours = -2: must be finite and >= 0", InvalidInput);
    j = ok;
    j.deadline_hours = 0;
    CHECK_THROWS_WITH_AS(j.validate(), "job.deadline_hours = 0: must be > 0 (infinity = no deadline)", InvalidInput);
    j.deadline_hours = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(j.validate(), "job.deadline_hours = nan: must be > 0 (infinity = no deadline)", InvalidInput);
}
