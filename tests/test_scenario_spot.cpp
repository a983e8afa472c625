// Scenario files: spot jobs under interruption models other than plain Poisson.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "gputco/engines/checkpoint.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

using test::scenarios;

/// One spot job whose interruption model is `line10` (and `line11`); line numbers matter below.
std::string job(std::string_view line10, std::string_view line11 = "", std::string_view write_hours = "0.1") {
    return fmt::format(
        "version: 1\n"                                                                      // 1
        "name: t\n"                                                                         // 2
        "horizon_months: 1\n"                                                               // 3
        "offering: {{provider: aws, instance_type: p4d.24xlarge, region: us-east-1}}\n"     // 4
        "demand: {{kind: constant, gpus: 8}}\n"                                             // 5
        "spot_jobs:\n"                                                                      // 6
        "  - name: j\n"                                                                     // 7
        "    work_hours: 10\n"                                                              // 8
        "    checkpoint_write_hours: {}\n"                                                  // 9
        "{}\n"                                                                              // 10
        "{}\n"                                                                              // 11
        "    price_per_gpu_hour: 1.5\n"                                                     // 12
        "    paths: 2000\n"                                                                 // 13
        "strategies: []\n",                                                                 // 14
        write_hours, line10, line11);
}

}  // namespace

TEST_CASE("every interruption model of a scenario gives simulate_spot's numbers for the job's seed") {
    const Scenario s = load_scenario(scenarios + "/spot_interruption_models.yaml");
    REQUIRE(s.spot_jobs.size() == 4);
    const ScenarioResult r = run_scenario(s);
    const Offering& p3 = Catalog::builtin().offering("aws", "p3.16xlarge", "us-east-1");
    for (std::size_t i = 0; i < s.spot_jobs.size(); ++i) {
        CAPTURE(s.spot_jobs[i].name);
        const SpotJobSpec& spec = s.spot_jobs[i];
        Job j = spec.job;
        j.checkpoint_interval_hours = optimal_checkpoint_interval(j.checkpoint_write_hours, *spec.interruptions->mean_lifetime_hours());
        // priced as run_scenario prices a job (as simulate_spot(..., offering=p3) does): its own spot
        // price, the offering's on-demand price per GPU and its billing increment and minimum
        SpotPricing pricing = SpotPricing::from_offering(p3);
        pricing.price_per_hour = 0.918;
        const SpotResult direct = simulate_spot(j, spec.model(), pricing, {.paths = 4000, .seed = 7 + i});  // job i: seed + i
        CHECK(r.spot_jobs[i].result.cost.mean == direct.cost.mean);
        CHECK(r.spot_jobs[i].result.cost.p95 == direct.cost.p95);
    }
    // the trace replay holds the 167 completed lifetimes of the file; the others are what was written
    const auto& trace = std::get<Trace>(s.spot_jobs[0].interruptions->model);
    CHECK(trace.lifetimes_hours.size() == 167);
    CHECK(trace.censored_count == 10);
    CHECK(std::get<Weibull>(s.spot_jobs[2].interruptions->model).shape == 0.7);
    CHECK(std::get<Poisson>(s.spot_jobs[3].interruptions->model).rules.notice_hours == aws_rules().notice_hours);
    // Weibull(0.7, 1.155): mean 1.155 Γ(1 + 1/0.7) = 1.155 × 1.26582 = 1.4620 h, the trace's mean
    CHECK(*s.spot_jobs[2].interruptions->mean_lifetime_hours() == doctest::Approx(1.462).epsilon(1e-3));
}

TEST_CASE("interruptions: poisson is the same job as mtbf_hours, and an advisor bucket its Poisson model") {
    const ScenarioResult a = run_scenario(parse_scenario(job("    mtbf_hours: 5"), "plan.yaml"));
    const ScenarioResult b = run_scenario(parse_scenario(job("    interruptions:", "      poisson: {mtbf_hours: 5}"), "plan.yaml"));
    CHECK(a.spot_jobs[0].result.cost.mean == b.spot_jobs[0].result.cost.mean);
    CHECK(a.spot_jobs[0].checkpoint_interval_hours == b.spot_jobs[0].checkpoint_interval_hours);
    const Scenario c = parse_scenario(job("    interruptions:", "      advisor_bucket: 2"), "plan.yaml");
    // bucket 2 is 12.5% a month: M = -730 / ln(0.875) = 5,466.8 h, with AWS's rules by default
    const auto& p = std::get<Poisson>(c.spot_jobs[0].interruptions->model);
    CHECK(p.mtbf_hours == doctest::Approx(-730 / std::log(0.875)).epsilon(1e-12));
    CHECK(p.rules.emergency_checkpoint);
    CHECK(c.spot_jobs[0].interruptions->rules_preset == "aws");
}

TEST_CASE("interruption model errors name file, line, column, field, value and rule") {
    const auto fails = [](std::string_view line10, std::string_view line11, const std::string& message) {
        CAPTURE(line11);
        CHECK_THROWS_WITH_AS(parse_scenario(job(line10, line11), "/data/plan.yaml"), message.c_str(), InvalidInput);
    };
    fails("    interruptions:", "      advisor_bucket: 5",
          "/data/plan.yaml:11:23: spot_jobs[0].interruptions.advisor_bucket = 5: must be in [0, 4] (<5%, 5-10%, "
          "10-15%, 15-20%, >20% a month)");
    // "      weibull: {shape: " is 23 characters
    fails("    interruptions:", "      weibull: {shape: 0, scale_hours: 3}",
          "/data/plan.yaml:11:24: spot_jobs[0].interruptions.weibull.shape = 0: must be > 0");
    fails("    interruptions:", "      {poisson: {mtbf_hours: 5}, weibull: {shape: 1, scale_hours: 3}}",
          "/data/plan.yaml:11:7: spot_jobs[0].interruptions = {...}: has 2 models (poisson, weibull); give exactly one");
    fails("    interruptions:", "      rules: aws",
          "/data/plan.yaml:11:7: spot_jobs[0].interruptions = {...}: needs one of poisson, weibull, advisor_bucket, "
          "trace, price_driven");
    // "      {poisson: {mtbf_hours: 5}, rules: " is 6 + 1 + 24 + 2 + 7 = 40 characters
    fails("    interruptions:", "      {poisson: {mtbf_hours: 5}, rules: awz}",
          "/data/plan.yaml:11:41: spot_jobs[0].interruptions.rules = \"awz\": must be one of aws, gcp_preemptible, "
          "alibaba; did you mean \"aws\"?");
    // ... and "{notice_hours: " 15 more: 55
    fails("    interruptions:", "      {poisson: {mtbf_hours: 5}, rules: {notice_hours: -1}}",
          "/data/plan.yaml:11:56: spot_jobs[0].interruptions.rules.notice_hours = -1: must be >= 0");
    // a trace file is read relative to the scenario's folder; the library's message follows the place
    fails("    interruptions:", "      trace: {file: missing.csv}",
          "/data/plan.yaml:11:21: trace.path = \"/data/missing.csv\": cannot be opened");
    // without an interval the optimal one needs a write cost: "    checkpoint_write_hours: " is 28 characters
    CHECK_THROWS_WITH_AS(parse_scenario(job("    mtbf_hours: 5", "", "0"), "p.yaml"),
                         "p.yaml:9:29: spot_jobs[0].checkpoint_write_hours = 0: must be > 0 for the optimal checkpoint "
                         "interval (or give checkpoint_interval_hours)",
                         InvalidInput);
    fails("    mtbf_hours: 5", "    interruptions: {poisson: {mtbf_hours: 5}}",
          "/data/plan.yaml:10:17: spot_jobs[0].mtbf_hours = 5: give either mtbf_hours or interruptions, not both");
    // no mean lifetime: the interval must be given; reported at the job's first key
    fails("    interruptions:", "      price_driven: {price_cap_per_hour: 3}",
          "/data/plan.yaml:7:5: spot_jobs[0].checkpoint_interval_hours = (missing): required with price_driven "
          "interruptions (no mean lifetime for the optimal interval)");
    fails("    interruptions:", "      price_driven: {reversion_per_hour: 0}",
          "/data/plan.yaml:11:42: spot_jobs[0].interruptions.price_driven.reversion_per_hour = 0: must be > 0");
}

TEST_CASE("durations out of the library's range are reported at their place in the file") {
    // work_hours: 1e308 was refused only by the engine, later, without file:line:column.
    std::string text = job("    mtbf_hours: 5");
    text.replace(text.find("work_hours: 10"), 14, "work_hours: 1e308");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "p.yaml"),
                         "p.yaml:8:17: spot_jobs[0].work_hours = 1e308: must be in [1e-09, 1e+09] hours", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(job("    mtbf_hours: 1e31"), "p.yaml"),
                         "p.yaml:10:17: spot_jobs[0].mtbf_hours = 1e31: must be in [1e-09, 1e+30] hours", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(job("    mtbf_hours: 5", "", "2e9"), "p.yaml"),
                         "p.yaml:9:29: spot_jobs[0].checkpoint_write_hours = 2e9: must be <= 1e+09 hours", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(job("    mtbf_hours: 5", "    restart_hours: 1e308"), "p.yaml"),
                         "p.yaml:11:20: spot_jobs[0].restart_hours = 1e308: must be <= 1e+09 hours", InvalidInput);
}

TEST_CASE("random interruption models round-trip through YAML exactly") {
    std::mt19937_64 rng(2014);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int n = 0; n < 300; ++n) {
        Scenario s;
        s.name = fmt::format("random {}", n);
        s.horizon_months = 1;
        s.offering = {"aws", "p4d.24xlarge", "us-east-1"};
        s.demand.gpus = 1;
        SpotJobSpec j;
        j.name = "j";
        j.job.work_hours = 1 + unit(rng) * 100;
        j.job.checkpoint_interval_hours = 0.5 + unit(rng);
        InterruptionSpec spec;
        ProviderRules rules;
        const int r = int(rng() % 3);
        if (r == 1) spec.rules_preset = "gcp_preemptible", rules = gcp_preemptible_rules();
        if (r == 2) rules = {.notice_hours = unit(rng) * 0.1, .emergency_checkpoint = rng() % 2 == 0,
                             .protection_hours = unit(rng), .max_lifetime_hours = 10 + unit(rng) * 20};
        switch (rng() % 4) {
            case 0: spec.model = Poisson{.mtbf_hours = 1 + unit(rng) * 50, .rules = rules}; break;
            case 1: spec.model = Weibull{.shape = 0.3 + unit(rng), .scale_hours = 1 + unit(rng) * 30, .rules = rules}; break;
            case 2:
                spec.advisor_bucket = int(rng() % 5);
                if (r == 0) spec.rules_preset = "aws", rules = aws_rules();
                spec.model = advisor_bucket(*spec.advisor_bucket, rules);
                break;
            default:
                spec.model = PriceDriven{.reversion_per_hour = 0.01 + unit(rng), .volatility_per_sqrt_hour = unit(rng),
                                         .price_cap_per_hour = rng() % 2 ? 5 + unit(rng) : std::numeric_limits<double>::infinity(),
                                         .step_hours = 0.05 + unit(rng) * 0.2, .rules = rules};
        }
        j.interruptions = spec;
        j.price_per_gpu_hour = 1;
        s.spot_jobs.push_back(j);
        const std::string written = to_yaml(s);
        CAPTURE(written);
        CHECK(to_yaml(parse_scenario(written, "random.yaml")) == written);
    }
}
