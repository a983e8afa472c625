#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <boost/math/special_functions/gamma.hpp>

#include "gputco/core/error.hpp"
#include "gputco/engines/interruption.hpp"
#include "gputco/engines/spot.hpp"

using gputco::InvalidInput;
using gputco::Poisson;
using gputco::PriceDriven;
using gputco::ProviderRules;
using gputco::Trace;
using gputco::Weibull;

namespace {
const std::string trace_path = std::string(GPUTCO_SOURCE_DIR) + "/tests/data/parcae_aws_p3_node_events.csv";
}

TEST_CASE("provider presets carry the documented notice, protection and lifetime") {
    CHECK(gputco::aws_rules().notice_hours == doctest::Approx(2.0 / 60));       // 2 min
    CHECK(gputco::aws_rules().emergency_checkpoint);
    CHECK(gputco::gcp_preemptible_rules().notice_hours == doctest::Approx(30.0 / 3600));  // 30 s
    CHECK(gputco::gcp_preemptible_rules().max_lifetime_hours == 24.0);
    CHECK(gputco::alibaba_rules().notice_hours == doctest::Approx(5.0 / 60));   // 5 min
    CHECK(gputco::alibaba_rules().protection_hours == 1.0);
    CHECK(ProviderRules{}.max_lifetime_hours == std::numeric_limits<double>::infinity());
}

TEST_CASE("AWS Spot Advisor buckets convert to a Poisson MTBF via p = 1 - exp(-730 / M)") {
    CHECK(gputco::advisor_bucket_fraction(0) == 0.025);
    CHECK(gputco::advisor_bucket_fraction(1) == 0.075);
    CHECK(gputco::advisor_bucket_fraction(2) == 0.125);
    CHECK(gputco::advisor_bucket_fraction(3) == 0.175);
    CHECK(gputco::advisor_bucket_fraction(4) == 0.25);
    // M = -730 / ln(1 - 0.125) = 730 / 0.133531 = 5466.88 h
    CHECK(gputco::mtbf_from_monthly_interruption_fraction(0.125) == doctest::Approx(5466.88).epsilon(1e-6));
    // >20% bucket at 25%: 730 / 0.287682 = 2537.52 h
    CHECK(gputco::advisor_bucket(4).mtbf_hours == doctest::Approx(2537.523).epsilon(1e-6));
    // Round trip: the share of instances interrupted within 730 running hours is p.
    for (double p : {0.01, 0.2, 0.6}) {
        const double m = gputco::mtbf_from_monthly_interruption_fraction(p);
        CHECK(1.0 - std::exp(-730.0 / m) == doctest::Approx(p));
    }
    // Less frequent buckets mean longer MTBF; the default rules are AWS's.
    for (int b = 0; b < 4; ++b) CHECK(gputco::advisor_bucket(b).mtbf_hours > gputco::advisor_bucket(b + 1).mtbf_hours);
    CHECK(gputco::advisor_bucket(1).rules.notice_hours == gputco::aws_rules().notice_hours);
    CHECK(gputco::advisor_bucket(1, {}).rules.notice_hours == 0.0);

    CHECK_THROWS_WITH_AS(gputco::advisor_bucket(5), "advisor_bucket_index = 5: must be in 0..4", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::advisor_bucket(-1), "advisor_bucket_index = -1: must be in 0..4", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::advisor_bucket_fraction(7), "advisor_bucket_index = 7: must be in 0..4",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::mtbf_from_monthly_interruption_fraction(1.5),
                         "monthly_interruption_fraction = 1.5: must be in (0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::mtbf_from_monthly_interruption_fraction(-0.1),
                         "monthly_interruption_fraction = -0.1: must be in (0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::mtbf_from_monthly_interruption_fraction(0.0),
                         "monthly_interruption_fraction = 0: must be in (0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::mtbf_from_monthly_interruption_fraction(1.0),
                         "monthly_interruption_fraction = 1: must be in (0, 1)", InvalidInput);
}

TEST_CASE("model validation names the field, value and rule") {
    using gputco::validate;
    CHECK_NOTHROW(validate(Poisson{.mtbf_hours = 1}));
    CHECK_THROWS_WITH_AS(validate(Poisson{.mtbf_hours = 0}), "poisson.mtbf_hours = 0: must be finite and > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Weibull{.shape = 0, .scale_hours = 1}), "weibull.shape = 0: must be finite and > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Weibull{.shape = 1, .scale_hours = -5}),
                         "weibull.scale_hours = -5: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Poisson{.mtbf_hours = 1, .rules = {.notice_hours = -1}}),
                         "rules.notice_hours = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Poisson{.mtbf_hours = 1, .rules = {.protection_hours = -0.5}}),
                         "rules.protection_hours = -0.5: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Poisson{.mtbf_hours = 1, .rules = {.max_lifetime_hours = 0}}),
                         "rules.max_lifetime_hours = 0: must be > 0 (infinity = no limit)", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Poisson{.mtbf_hours = 1, .rules = {.protection_hours = 2, .max_lifetime_hours = 2}}),
                         "rules.protection_hours = 2: must be < rules.max_lifetime_hours", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(PriceDriven{.reversion_per_hour = 0}),
                         "price_driven.reversion_per_hour = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(PriceDriven{.volatility_per_sqrt_hour = -0.1}),
                         "price_driven.volatility_per_sqrt_hour = -0.1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(PriceDriven{.price_cap_per_hour = 0}),
                         "price_driven.price_cap_per_hour = 0: must be > 0 (infinity = no cap)", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(PriceDriven{.step_hours = 0}), "price_driven.step_hours = 0: must be finite and > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Trace{}), "trace.lifetimes_hours.size = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(validate(Trace{.lifetimes_hours = {1.0, 0.0}}),
                         "trace.lifetimes_hours[1] = 0: must be finite and > 0", InvalidInput);
}

TEST_CASE("lifetime traces: one lifetime in hours per line") {
    const Trace t = Trace::parse_lifetimes("# measured\n1.5\n\n  2.5  \n0.25\n", "test");
    CHECK(t.lifetimes_hours == std::vector<double>{1.5, 2.5, 0.25});
    CHECK(t.source == "test");
    CHECK(t.mean_lifetime_hours() == doctest::Approx(4.25 / 3));
    CHECK_THROWS_WITH_AS(Trace::parse_lifetimes("1\nabc\n"), "trace line 2 = \"abc\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::parse_lifetimes("1.5h\n"), "trace line 1 = \"1.5h\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::parse_lifetimes("-1\n"), "trace line 1 = \"-1\": lifetime must be finite and > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::parse_lifetimes("# nothing\n\n"), "trace.lifetimes_hours.size = 0: must be > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::parse_lifetimes(""), "trace.lifetimes_hours.size = 0: must be > 0", InvalidInput);
}

TEST_CASE("node event traces: lifetimes from add to remove, censored nodes left out") {
    // a: 0 -> 1 h; b never removed (censored); a again: 2 h -> 2.5 h. Times in ms.
    const Trace t = Trace::from_node_events("0,add,a\n0,add,b\n3600000,remove,a\n7200000,add,a\n9000000,remove,a\n");
    REQUIRE(t.lifetimes_hours.size() == 2);
    CHECK(t.lifetimes_hours[0] == doctest::Approx(1.0));
    CHECK(t.lifetimes_hours[1] == doctest::Approx(0.5));
    CHECK(t.censored_count == 1);
    // Other time units: seconds.
    const Trace s = Trace::from_node_events("0,add,x\n5400,remove,x\n", 1.0 / 3600);
    REQUIRE(s.lifetimes_hours.size() == 1);
    CHECK(s.lifetimes_hours[0] == doctest::Approx(1.5));

    CHECK_THROWS_WITH_AS(Trace::from_node_events("0,add\n"), "trace line 1 = \"0,add\": must be \"time,add|remove,node\"",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("0,add,a,b\n"),
                         "trace line 1 = \"0,add,a,b\": must be \"time,add|remove,node\"", InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("x,add,a\n"), "trace line 1 = \"x,add,a\": time must be a finite number",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("10,add,a\n5,remove,a\n"),
                         "trace line 2 = \"5,remove,a\": time must not go backwards", InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("0,start,a\n"),
                         "trace line 1 = \"0,start,a\": action must be add or remove", InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("0,remove,a\n"), "trace line 1 = \"0,remove,a\": node is not running",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("0,add,a\n1,add,a\n"),
                         "trace line 2 = \"1,add,a\": node is already running", InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("0,add,a\n1,add,b\n"), "trace.lifetimes_hours.size = 0: must be > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::from_node_events("0,add,a\n1,remove,a\n", 0.0),
                         "hours_per_time_unit = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Trace::load("/nonexistent/trace.csv"),
                         "trace.path = \"/nonexistent/trace.csv\": cannot be opened", InvalidInput);
}

TEST_CASE("the shipped Parcae AWS p3 trace loads: 167 lifetimes, 10 censored") {
    const Trace t = Trace::load(trace_path);
    CHECK(t.lifetimes_hours.size() == 167);
    CHECK(t.censored_count == 10);
    CHECK(t.mean_lifetime_hours() == doctest::Approx(1.46198).epsilon(1e-5));  // 244.15 h / 167
    CHECK(t.source == trace_path);
}

TEST_CASE("trace replay and Weibull lifetimes agree with the one-segment renewal formula") {
    // One segment of length L, no restart: attempts are i.i.d.; an attempt succeeds if the lifetime X >= L,
    // so E[N] = 1/P(X >= L) - 1 and E[T] = E[min(X, L)] / P(X >= L).
    const gputco::Job job{.work_hours = 1, .checkpoint_interval_hours = 1, .checkpoint_write_hours = 0.1};
    const double length = 1.1;
    SUBCASE("trace: empirical survival of the shipped lifetimes") {
        const Trace t = Trace::load(trace_path);
        double survive = 0, truncated = 0;
        for (double x : t.lifetimes_hours) {
            survive += x >= length ? 1.0 : 0.0;
            truncated += std::min(x, length);
        }
        const double n = static_cast<double>(t.lifetimes_hours.size());
        const auto r = gputco::simulate_spot(job, t, {}, {.paths = 20000, .seed = 12});
        INFO("mean " << r.billed_hours.mean << " se " << r.billed_hours.standard_error);
        CHECK(std::abs(r.billed_hours.mean - (truncated / n) / (survive / n)) <= 4 * r.billed_hours.standard_error);
        CHECK(std::abs(r.interruptions.mean - (n / survive - 1)) <= 4 * r.interruptions.standard_error);
    }
    SUBCASE("Weibull: S(t) = exp(-(t/lambda)^k), E[min(X, L)] = lambda Gamma(1 + 1/k) P(1/k, (L/lambda)^k)") {
        const double k = 0.6, lambda = 2.0;
        const double z = std::pow(length / lambda, k);
        const double survive = std::exp(-z);
        const double truncated = lambda * std::tgamma(1.0 + 1.0 / k) * boost::math::gamma_p(1.0 / k, z);
        const auto r = gputco::simulate_spot(job, Weibull{.shape = k, .scale_hours = lambda}, {},
                                             {.paths = 20000, .seed = 13});
        INFO("mean " << r.billed_hours.mean << " se " << r.billed_hours.standard_error);
        CHECK(std::abs(r.billed_hours.mean - truncated / survive) <= 4 * r.billed_hours.standard_error);
        CHECK(std::abs(r.interruptions.mean - (1 / survive - 1)) <= 4 * r.interruptions.standard_error);
    }
}

TEST_CASE("the GCP 24-hour limit interrupts long launches even without random interruptions") {
    // W = 30 h, tau = 4 h, no write or restart; launches end at 24 h: 6 segments (24 h) then 6 h more.
    const gputco::Job job{.work_hours = 30, .checkpoint_interval_hours = 4};
    ProviderRules rules = gputco::gcp_preemptible_rules();
    rules.emergency_checkpoint = false;
    const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = 1e15, .rules = rules}, {}, {.paths = 10});
    CHECK(r.interruptions.mean == 1.0);
    CHECK(r.billed_hours.mean == doctest::Approx(30.0));  // the kill at 24 h lands on a checkpoint: 24 + 6
    CHECK(r.lost_work_hours.mean == doctest::Approx(0.0));
}

TEST_CASE("a monthly fraction so small its MTBF would be infinite is rejected") {
    // A denormal fraction used to give MTBF = 730 / 5e-324 = inf.
    CHECK_THROWS_WITH_AS(gputco::mtbf_from_monthly_interruption_fraction(5e-324),
                         "monthly_interruption_fraction = 5e-324: must be >= 7.3e-28 (an MTBF of at most 1e+30 hours)",
                         InvalidInput);
    // 730 / -log(1 − 1e-20) = 7.3e22 h: tiny but allowed, and finite.
    CHECK(gputco::mtbf_from_monthly_interruption_fraction(1e-20) == doctest::Approx(7.3e22));
    CHECK(std::isfinite(gputco::mtbf_from_monthly_interruption_fraction(1.0 - 1e-16)));
}
