// The recommender's limit on the probability that a spot-run job misses its deadline: options above
// it are not tried, and the answer says so.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <boost/random/uniform_01.hpp>

#include "plan_fixtures.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/interruption.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;

namespace {

/// Busy all day on weekdays, 40% at weekends: two hourly levels, so the programme is exact.
DemandModel weekday_model(double base_gpus, double volatility) {
    DemandModel model;
    model.base_gpus = base_gpus;
    model.monthly_log_growth = 0.01;
    model.monthly_log_volatility = volatility;
    model.hour_of_week.assign(168, 1.0);
    for (std::size_t h = 120; h < 168; ++h) model.hour_of_week[h] = 0.4;
    return model;
}

SpotOption option(std::string name, double overhead, double availability, std::optional<double> miss) {
    return {.name = std::move(name), .overhead = overhead, .availability = availability, .price_per_gpu_hour = {},
            .deadline_miss_probability = miss};
}

/// The plan's parts, whatever its name.
std::string parts(Plan plan) {
    plan.name.clear();
    return describe(plan);
}

/// The same answer: plan, in-sample distribution, solver objective, and each solved candidate.
void check_same_answer(const Recommendation& a, const Recommendation& b) {
    CHECK(parts(a.plan) == parts(b.plan));
    CHECK(a.plan.name == b.plan.name);
    CHECK(a.in_sample.total.mean == b.in_sample.total.mean);
    CHECK(a.in_sample.total.cvar95 == b.in_sample.total.cvar95);
    CHECK(a.solver_objective == b.solver_objective);
    CHECK(a.proven_optimal == b.proven_optimal);
}

}  // namespace

TEST_CASE("a deadline-miss limit gives exactly the plan that removing the excluded spot options gives") {
    const Offering offering = test::plan_test_offering();
    Xoshiro256pp engine(31);
    boost::random::uniform_01<double> u;
    for (int trial = 0; trial < 8; ++trial) {
        // One draw a statement (the later argument first, as GCC drew them) so every compiler draws the same model.
        const double spread = 0.1 * u(engine);
        const double level = 2 + 10 * u(engine);
        const DemandFutures futures =
            DemandFutures::generate(weekday_model(level, spread), Horizon::months(12), 8, std::uint64_t(100 + trial));
        RecommendOptions options;
        options.review_months = 6;
        const int count = 1 + int(3 * u(engine));
        for (int i = 0; i < count; ++i)
            options.spot.push_back(option(fmt::format("spot {}", i), 1 + 0.3 * u(engine), 0.5 + 0.5 * u(engine),
                                          0.3 * u(engine)));
        const double limit = 0.3 * u(engine);
        RecommendOptions limited = options, removed = options;
        limited.limits.deadline_miss_probability = limit;
        removed.spot.clear();
        std::string exclusions;
        for (const SpotOption& s : options.spot) {
            if (*s.deadline_miss_probability <= limit) removed.spot.push_back(s);
            else
                exclusions += fmt::format("; spot option \"{}\" not tried: deadline-miss probability {:g} > "
                                          "limits.deadline_miss_probability = {:g}",
                                          s.name, *s.deadline_miss_probability, limit);
        }
        if (removed.spot.empty()) exclusions += "; every spot option excluded: the plan runs without spot";
        const Recommendation a = recommend_plan(futures, offering, limited);
        const Recommendation b = recommend_plan(futures, offering, removed);
        INFO("trial " << trial << ": limit " << limit << ", " << removed.spot.size() << " of " << count << " options kept");
        check_same_answer(a, b);
        CHECK(a.status == b.status + exclusions);
        // Every option has a candidate in order: solved as without the limit, or excluded with the reason.
        REQUIRE(a.candidates.size() == options.spot.size() + 1);
        std::size_t solved = 0;
        for (std::size_t i = 0; i < a.candidates.size(); ++i) {
            const CandidateResult& c = a.candidates[i];
            CHECK(c.spot_option == (i == 0 ? std::string("none") : options.spot[i - 1].name));
            if (!c.excluded.empty()) {
                CHECK(c.excluded == fmt::format("deadline-miss probability {:g} > limits.deadline_miss_probability = {:g}",
                                                *options.spot[i - 1].deadline_miss_probability, limit));
                CHECK(c.plan.commitments.empty());
                continue;
            }
            REQUIRE(solved < b.candidates.size());
            CHECK(c.spot_option == b.candidates[solved].spot_option);
            CHECK(c.engine_objective == b.candidates[solved].engine_objective);
            ++solved;
        }
        CHECK(solved == b.candidates.size());
        // A limit at or above every option's probability changes nothing.
        RecommendOptions loose = options;
        loose.limits.deadline_miss_probability = 0.3;
        const Recommendation c = recommend_plan(futures, offering, loose);
        const Recommendation free = recommend_plan(futures, offering, options);
        check_same_answer(c, free);
        CHECK(c.status == free.status);
        CHECK(c.candidates.size() == free.candidates.size());
    }
}

TEST_CASE("the deadline-miss limit excludes the cheaper spot option; all excluded runs without spot and says so") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = DemandFutures::generate(weekday_model(8, 0.05), Horizon::months(12), 6, 7);
    RecommendOptions options;
    options.review_months = 6;
    // Hourly checkpoints cost more (overhead 1.15) than 4-hourly ones (1.05), which miss the deadline more.
    options.spot = {option("spot, checkpoint every 1 h", 1.15, 0.9, 0.01),
                    option("spot, checkpoint every 4 h", 1.05, 0.9, 0.2)};
    const Recommendation free = recommend_plan(futures, offering, options);
    REQUIRE(free.plan.spot);
    CHECK(free.plan.spot->overhead == 1.05);  // so the limit below binds

    options.limits.deadline_miss_probability = 0.05;
    const Recommendation limited = recommend_plan(futures, offering, options);
    REQUIRE(limited.plan.spot);
    CHECK(limited.plan.spot->overhead == 1.15);
    CHECK(limited.in_sample.total.mean > free.in_sample.total.mean);  // the limit costs something
    CHECK(limited.candidates[2].excluded == "deadline-miss probability 0.2 > limits.deadline_miss_probability = 0.05");
    CHECK(limited.status == "optimal; spot option \"spot, checkpoint every 4 h\" not tried: deadline-miss "
                            "probability 0.2 > limits.deadline_miss_probability = 0.05");

    options.limits.deadline_miss_probability = 0.001;
    const Recommendation none = recommend_plan(futures, offering, options);
    RecommendOptions no_spot = options;
    no_spot.spot.clear();
    check_same_answer(none, recommend_plan(futures, offering, no_spot));
    CHECK(!none.plan.spot);
    CHECK(none.status ==
          "optimal; spot option \"spot, checkpoint every 1 h\" not tried: deadline-miss probability 0.01 > "
          "limits.deadline_miss_probability = 0.001; spot option \"spot, checkpoint every 4 h\" not tried: "
          "deadline-miss probability 0.2 > limits.deadline_miss_probability = 0.001; every spot option excluded: the "
          "plan runs without spot");

    // An option whose probability is not known cannot be shown to meet the limit.
    options.spot[1].deadline_miss_probability.reset();
    options.limits.deadline_miss_probability = 0.05;
    const Recommendation unknown = recommend_plan(futures, offering, options);
    CHECK(unknown.candidates[2].excluded == "deadline-miss probability not given, limits.deadline_miss_probability = 0.05");
    check_same_answer(unknown, limited);
    // Without a limit, unknown is fine.
    options.limits.deadline_miss_probability.reset();
    check_same_answer(recommend_plan(futures, offering, options), free);
}

TEST_CASE("the best plan in hindsight keeps the deadline-miss limit: it is the option's, not the future's") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = DemandFutures::generate(weekday_model(8, 0.05), Horizon::months(12), 3, 9);
    RecommendOptions options;
    options.review_months = 6;
    options.spot = {option("safe", 1.15, 0.9, 0.01), option("risky", 1.05, 0.9, 0.2)};
    options.limits.deadline_miss_probability = 0.05;
    options.limits.cvar95 = 1.0;  // dropped per future, as before
    RecommendOptions safe_only = options;
    safe_only.spot = {options.spot[0]};
    safe_only.limits = {};
    const HindsightBound limited = hindsight_plan_totals(futures, offering, options);
    const HindsightBound safe = hindsight_plan_totals(futures, offering, safe_only);
    CHECK(limited.totals == safe.totals);
    options.limits.deadline_miss_probability.reset();
    const HindsightBound free = hindsight_plan_totals(futures, offering, options);
    for (std::size_t f = 0; f < futures.count(); ++f) CHECK(free.totals[f] < limited.totals[f]);  // risky spot is cheaper
}

TEST_CASE("bad deadline-miss probabilities name the field") {
    const Offering offering = test::plan_test_offering();
    const DemandFutures futures = DemandFutures::generate(weekday_model(4, 0.0), Horizon::months(12), 2, 3);
    RecommendOptions options;
    options.limits.deadline_miss_probability = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "limits.deadline_miss_probability = nan: must be in [0, 1]", InvalidInput);
    options.limits.deadline_miss_probability = -0.1;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "limits.deadline_miss_probability = -0.1: must be in [0, 1]", InvalidInput);
    options.limits.deadline_miss_probability = 1.5;
    CHECK_THROWS_WITH_AS(hindsight_plan_totals(futures, offering, options),
                         "limits.deadline_miss_probability = 1.5: must be in [0, 1]", InvalidInput);
    options.limits.deadline_miss_probability.reset();
    options.spot = {option("bad", 1.1, 1.0, 2.0)};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.spot[0].deadline_miss_probability = 2: must be in [0, 1]", InvalidInput);
}

TEST_CASE("spot_option takes the overhead and the deadline-miss probability from the spot engine") {
    const Job job{.work_hours = 24, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.2, .capacity_wait_hours = 0.5, .deadline_hours = 30};
    const SpotResult simulated = simulate_spot(job, Poisson{.mtbf_hours = 8}, {}, {.paths = 4096, .seed = 5});
    REQUIRE(simulated.deadline_miss_probability > 0.0);  // the deadline binds in some paths
    REQUIRE(simulated.deadline_miss_probability < 1.0);
    const SpotOption s = spot_option("spot, 2 h", simulated, job, 0.8);
    CHECK(s.name == "spot, 2 h");
    CHECK(s.overhead == simulated.charged_hours.mean / 24.0);
    CHECK(s.availability == 0.8);
    CHECK(s.deadline_miss_probability == simulated.deadline_miss_probability);
    CHECK_THROWS_WITH_AS(spot_option("x", simulated, job, 1.5), "spot.availability = 1.5: must be in [0, 1]", InvalidInput);
}
