// simulate_spot with SimulationOptions::keep_samples = false: summaries streamed batch by batch.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/results/statistics.hpp"

using gputco::InvalidInput;
using gputco::Job;
using gputco::Poisson;
using gputco::SimulationOptions;
using gputco::SpotPricing;
using gputco::SpotResult;
using gputco::Summary;

namespace {

Job job_with_deadline() {
    return Job{.work_hours = 40, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
               .restart_hours = 0.25, .capacity_wait_hours = 0.5, .deadline_hours = 60};
}

// Every engine path: the Poisson lane kernel, the scalar loop with rules, Weibull, a trace, the price grid.
std::vector<gputco::InterruptionModel> every_model() {
    return {Poisson{.mtbf_hours = 5},
            Poisson{.mtbf_hours = 5, .rules = gputco::aws_rules()},
            gputco::Weibull{.shape = 0.7, .scale_hours = 5},
            gputco::Trace{.lifetimes_hours = {1.0, 4.0, 9.0, 30.0}},
            gputco::PriceDriven{.reversion_per_hour = 0.5, .volatility_per_sqrt_hour = 0.3,
                                .price_cap_per_hour = 1.3, .step_hours = 0.25}};
}

// Relative difference, for figures that agree to rounding (the streamed ones sum in another order).
bool same_to_rounding(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

void check_same_moments(const Summary& streamed, const Summary& sampled, const char* what) {
    INFO(what << ": streamed mean " << streamed.mean << " se " << streamed.standard_error << ", sampled mean "
              << sampled.mean << " se " << sampled.standard_error);
    CHECK(streamed.count == sampled.count);
    CHECK(same_to_rounding(streamed.mean, sampled.mean));
    CHECK(same_to_rounding(streamed.standard_error, sampled.standard_error));
    CHECK(same_to_rounding(streamed.ci_low, sampled.ci_low));
    CHECK(same_to_rounding(streamed.ci_high, sampled.ci_high));
    CHECK(streamed.min == sampled.min);  // min and max are exact either way
    CHECK(streamed.max == sampled.max);
}

void check_same_quantiles(const Summary& streamed, const Summary& sampled) {
    CHECK(streamed.p50 == sampled.p50);
    CHECK(streamed.p90 == sampled.p90);
    CHECK(streamed.p95 == sampled.p95);
    CHECK(streamed.p99 == sampled.p99);
}

struct Pair {
    SpotResult sampled, streamed;
};

Pair both(const gputco::InterruptionModel& model, SimulationOptions options, const SpotPricing& pricing = {}) {
    const Job job = job_with_deadline();
    SimulationOptions streamed = options;
    streamed.keep_samples = false;
    return {gputco::simulate_spot(job, model, pricing, options), gputco::simulate_spot(job, model, pricing, streamed)};
}

}  // namespace

TEST_CASE("keep_samples = false: no samples; mean and standard error equal the sampled run's to rounding") {
    // 20,000 paths (under spot_quantile_subsample): the quantiles are of all paths, so exactly equal too.
    const SpotPricing hourly{.price_per_hour = 1.2, .billing_increment_hours = 1};
    for (const SpotPricing& pricing : {SpotPricing{.price_per_hour = 1.2}, hourly}) {
        for (const gputco::InterruptionModel& model : every_model()) {
            const auto [sampled, streamed] = both(model, {.paths = 20'000, .seed = 11, .threads = 2}, pricing);
            CHECK(streamed.samples.cost.empty());
            CHECK(streamed.samples.wall_hours.empty());
            CHECK(streamed.samples.charged_hours.empty());
            CHECK(streamed.paths == sampled.paths);
            CHECK(streamed.kernel == sampled.kernel);
            const std::pair<const Summary*, const Summary*> columns[] = {
                {&streamed.wall_hours, &sampled.wall_hours},       {&streamed.billed_hours, &sampled.billed_hours},
                {&streamed.cost, &sampled.cost},                   {&streamed.interruptions, &sampled.interruptions},
                {&streamed.lost_work_hours, &sampled.lost_work_hours},
                {&streamed.charged_hours, &sampled.charged_hours}};
            for (const auto& [s, full] : columns) {
                check_same_moments(*s, *full, "column");
                check_same_quantiles(*s, *full);
            }
            CHECK(streamed.deadline_miss_probability == sampled.deadline_miss_probability);
            CHECK(same_to_rounding(streamed.effective_price_per_useful_hour, sampled.effective_price_per_useful_hour));
        }
    }
}

TEST_CASE("keep_samples = false: the same summaries, bit for bit, on 1, 2 and 8 threads") {
    for (const gputco::InterruptionModel& model : every_model()) {
        std::vector<SpotResult> runs;
        for (const unsigned threads : {1u, 2u, 8u})
            runs.push_back(gputco::simulate_spot(job_with_deadline(), model, {},
                                                 {.paths = 70'000, .seed = 5, .threads = threads, .keep_samples = false}));
        for (const SpotResult& r : runs) {
            CHECK(r.cost.mean == runs[0].cost.mean);
            CHECK(r.cost.standard_error == runs[0].cost.standard_error);
            CHECK(r.cost.p95 == runs[0].cost.p95);
            CHECK(r.wall_hours.p99 == runs[0].wall_hours.p99);
            CHECK(r.interruptions.mean == runs[0].interruptions.mean);
            CHECK(r.deadline_miss_probability == runs[0].deadline_miss_probability);
        }
    }
}

TEST_CASE("keep_samples = false beyond 65,536 paths: exact moments, quantiles of every k-th path") {
    // 300,000 paths: every ceil(300,000 / 65,536) = 5th path is kept for the quantiles, 60,000 of them.
    const auto [sampled, streamed] = both(Poisson{.mtbf_hours = 5}, {.paths = 300'000, .seed = 8});
    check_same_moments(streamed.cost, sampled.cost, "cost");
    check_same_moments(streamed.wall_hours, sampled.wall_hours, "wall");
    CHECK(streamed.deadline_miss_probability == sampled.deadline_miss_probability);
    // The subsample's quantiles are exact quantiles of paths 0, 5, 10, ...: the sampled run's paths.
    std::vector<double> every_fifth;
    for (std::size_t i = 0; i < sampled.samples.cost.size(); i += 5) every_fifth.push_back(sampled.samples.cost[i]);
    REQUIRE(every_fifth.size() == 60'000);
    CHECK(streamed.cost.p95 == gputco::quantile(every_fifth, 0.95));
    CHECK(streamed.cost.p50 == gputco::quantile(every_fifth, 0.50));
    // And each is where it should be among all paths: the share of all costs at or below the streamed
    // quantile q is within 4 binomial standard errors sqrt(q (1 - q) / 60,000) of q (p95: 4 x 0.00089).
    for (const auto& q_value : {std::pair{0.5, streamed.cost.p50}, std::pair{0.9, streamed.cost.p90},
                                std::pair{0.95, streamed.cost.p95}, std::pair{0.99, streamed.cost.p99}}) {
        const double q = q_value.first;  // not a structured binding: clang 14 cannot capture one (INFO)
        const double value = q_value.second;
        const auto below = std::count_if(sampled.samples.cost.begin(), sampled.samples.cost.end(),
                                         [v = value](double c) { return c <= v; });
        const double share = static_cast<double>(below) / 300'000.0;
        INFO("q = " << q << ": share of all paths at or below " << value << " = " << share);
        CHECK(std::abs(share - q) <= 4.0 * std::sqrt(q * (1.0 - q) / 60'000.0));
    }
}

TEST_CASE("keep_samples = false with target_half_width: the same rounds as a sampled run") {
    const Poisson model{.mtbf_hours = 5};
    const auto first = gputco::simulate_spot(job_with_deadline(), model, {}, {.paths = 1000, .seed = 1});
    const double target = first.cost.half_width() / 4;  // needs about 16x the paths
    const SimulationOptions adaptive{.paths = 1000, .seed = 1, .target_half_width = target, .max_paths = 100'000};
    const auto [sampled, streamed] = both(model, adaptive);
    CHECK(streamed.paths == sampled.paths);
    CHECK(streamed.paths > 10'000);
    CHECK(streamed.cost.half_width() <= target);
    check_same_moments(streamed.cost, sampled.cost, "cost");
    SimulationOptions two_threads = adaptive;
    two_threads.keep_samples = false;
    two_threads.threads = 2;
    const auto threaded = gputco::simulate_spot(job_with_deadline(), model, {}, two_threads);
    CHECK(threaded.paths == streamed.paths);
    CHECK(threaded.cost.mean == streamed.cost.mean);
    CHECK(threaded.cost.p95 == streamed.cost.p95);
}

TEST_CASE("keep_samples = false: the sample-memory limit does not apply; the time limit does") {
    SimulationOptions many{.paths = 1'000'000'000, .keep_samples = false};
    CHECK_NOTHROW(many.validate());
    CHECK(many.max_paths_allowed() == gputco::spot_max_streamed_paths);
    many.paths = 2'000'000'000'000;
    CHECK_THROWS_WITH_AS(many.validate(),
                         "options.paths = 2000000000000: must be <= 1000000000000 (with options.keep_samples = false)",
                         InvalidInput);
    many.paths = 1000;
    many.target_half_width = 1;
    many.max_paths = 500'000'000;  // allowed without samples, refused with them
    CHECK_NOTHROW(many.validate());
    many.keep_samples = true;
    CHECK_THROWS_WITH_AS(many.validate(),
                         "options.max_paths = 500000000: must be <= 100000000 (each path keeps 48 bytes of samples; "
                         "options.keep_samples = false keeps none)",
                         InvalidInput);
}

TEST_CASE("Moments: merged batches equal one pass to rounding; min and max exactly") {
    // Over seeded random sample sets cut into random batches.
    gputco::Xoshiro256pp engine(2024);
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t n = 1 + engine() % 5000;
        std::vector<double> x(n);
        const double scale = std::ldexp(1.0, static_cast<int>(engine() % 40) - 20);
        for (double& v : x) v = 1000.0 + scale * static_cast<double>(engine() >> 11) * 0x1p-53;
        gputco::Moments merged;
        for (std::size_t begin = 0; begin < n;) {
            const std::size_t size = std::min<std::size_t>(n - begin, 1 + engine() % 1024);
            merged.merge(gputco::Moments::of(std::span(x).subspan(begin, size)));
            begin += size;
        }
        const gputco::Moments whole = gputco::Moments::of(x);
        INFO("trial " << trial << ", n = " << n);
        CHECK(merged.count == n);
        CHECK(same_to_rounding(merged.mean, whole.mean));
        // Squared deviations: relative to their size, or to n x (scale 2^-40)^2 when the spread is tiny.
        CHECK(std::abs(merged.squared_deviations - whole.squared_deviations) <=
              1e-9 * whole.squared_deviations + 1e-20 * static_cast<double>(n) * 1e6);
        CHECK(merged.min == *std::min_element(x.begin(), x.end()));
        CHECK(merged.max == *std::max_element(x.begin(), x.end()));
    }
}

TEST_CASE("summarize(Moments, quantile samples) rejects bad input with exact messages") {
    const std::vector<double> x{1, 2, 3};
    const gputco::Moments m = gputco::Moments::of(x);
    const std::vector<double> none;
    const std::vector<double> bad{1, std::nan("")};
    CHECK_THROWS_WITH_AS(gputco::summarize(gputco::Moments{}, x), "samples.size = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::summarize(m, none), "quantile_samples.size = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::summarize(m, bad), "samples[1] = nan: must be a finite number", InvalidInput);
    CHECK(gputco::summarize(m, x).p50 == 2.0);
}

TEST_CASE("keep_samples = false: should_stop is polled and throws Cancelled") {
    // 10^7 paths of about 9 launches each take seconds; the first poll (about 50 ms in) stops the run.
    SimulationOptions options{.paths = 10'000'000, .seed = 1, .threads = 2, .keep_samples = false};
    int polls = 0;
    options.should_stop = [&polls] { return ++polls >= 1; };
    CHECK_THROWS_AS(gputco::simulate_spot(job_with_deadline(), Poisson{.mtbf_hours = 5}, {}, options), gputco::Cancelled);
    CHECK(polls >= 1);
}
