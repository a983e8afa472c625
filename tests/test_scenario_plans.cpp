// Scenario files: the plans and futures sections (plans over time under uncertain demand).
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "gputco/engines/plan_engine.hpp"
#include "gputco/report/scenario_report.hpp"
#include "gputco/scenario/scenario.hpp"

using namespace gputco;

namespace {

/// A small valid scenario with futures and plans; each error case below replaces one line.
std::string with_plans(std::string_view line12 = "  monthly_log_growth: 0.02",
                       std::string_view line17 = "      - {count: 8, term_years: 3, payment: no_upfront}") {
    return fmt::format(
        "version: 1\n"                                  // 1
        "name: t\n"                                     // 2
        "horizon_months: 24\n"                          // 3
        "seed: 5\n"                                     // 4
        "offering: {{provider: gcp, instance_type: a2-highgpu-8g, region: us-central1}}\n"  // 5
        "demand:\n"                                     // 6
        "  kind: constant\n"                            // 7
        "  gpus: 8\n"                                   // 8
        "futures:\n"                                    // 9
        "  count: 50\n"                                 // 10
        "  base_gpus: 8\n"                              // 11
        "{}\n"                                          // 12
        "  events: [{{gpus: 4, probability: 0.5, first_month: 3, last_month: 9}}]\n"  // 13
        "plans:\n"                                      // 14
        "  - name: od\n"                                // 15
        "  - name: base\n"                              // 16
        "    commitments:\n"                            // 17 (replaced with line17 below)
        "{}\n",                                         // 18
        line12, line17);
}

}  // namespace

TEST_CASE("plans in a scenario give compare_plans' numbers over the scenario's seeded futures") {
    const Scenario s = parse_scenario(with_plans(), "plan.yaml");
    REQUIRE(s.plans.size() == 2);
    CHECK(s.plans[1].commitments[0].count == 8);
    CHECK(s.plans[1].commitments[0].unit == CountUnit::gpus);
    REQUIRE(s.futures.has_value());
    CHECK(s.futures->count == 50);
    CHECK(s.strategies.empty());  // plans alone are a question
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.plans.size() == 2);
    // By hand: the same futures (seed 5) and the same plans, through the plan engine.
    DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02};
    model.events.push_back({.gpus = 4, .probability = 0.5, .first_month = 3, .last_month = 9});
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 50, 5);
    const Offering& a2 = Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1");
    const auto direct = compare_plans(s.plans, futures, a2);
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(r.plans[i].total.mean == direct[i].total.mean);
        CHECK(r.plans[i].total.p95 == direct[i].total.p95);
        CHECK(r.plans[i].regret.mean == direct[i].regret.mean);
    }
    CHECK(r.plans[0].plan == "od");
}

TEST_CASE("without futures a plan runs over the scenario's demand: on demand gives evaluate()'s total") {
    std::string text = with_plans();
    text.erase(text.find("futures:"), text.find("plans:") - text.find("futures:"));
    const Scenario s = parse_scenario(text, "plan.yaml");
    CHECK_FALSE(s.futures.has_value());
    const ScenarioResult r = run_scenario(s);
    const Offering& a2 = Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1");
    EvaluationOptions options;
    options.units = Units::gpus;
    // 8 GPUs on demand for 24 × 730 hours: the plan engine matches evaluate() to the cent.
    const CostReport od = evaluate(OnDemand{}, DemandProfile::constant(8, Horizon::months(24)), a2, options);
    CHECK(r.plans[0].total.mean == doctest::Approx(od.total).epsilon(1e-12));
    CHECK(r.plans[0].futures.size() == 1);
}

TEST_CASE("plan and futures errors name file, line, column, field, value and rule") {
    // "      - {count: 8, term_years: " is 31 characters: the 2 is at column 32 of line 18
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_plans("  monthly_log_growth: 0.02", "      - {count: 8, term_years: 2, payment: no_upfront}"),
                       "plan.yaml"),
        "plan.yaml:18:32: plans[1].commitments[0].term_years = 2: must be 1 or 3", InvalidInput);
    // "      - {count: 8, term_years: 1, payment: no_upfront, start_month: " is 6 + 3 + 10 + 15 + 21 + 13 = 68
    // characters
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_plans("  monthly_log_growth: 0.02",
                                  "      - {count: 8, term_years: 1, payment: no_upfront, start_month: 24}"),
                       "plan.yaml"),
        "plan.yaml:18:69: plans[1].commitments[0].start_month = 24: must be in [0, 24) (the horizon's months)",
        InvalidInput);
    // unknown key at the key: "      - {count: 8, " is 19 characters
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_plans("  monthly_log_growth: 0.02", "      - {count: 8, term_year: 1, payment: no_upfront}"),
                       "plan.yaml"),
        "plan.yaml:18:20: plans[1].commitments[0].term_year = 1: unknown key; did you mean \"term_years\"?",
        InvalidInput);
    // missing field, at the mapping that lacks it: its opening brace, column 9
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_plans("  monthly_log_growth: 0.02", "      - {count: 8, payment: no_upfront}"), "plan.yaml"),
        "plan.yaml:18:9: plans[1].commitments[0].term_years = (missing): required", InvalidInput);
    // wrong type in the futures: "  monthly_log_growth: " is 22 characters
    CHECK_THROWS_WITH_AS(parse_scenario(with_plans("  monthly_log_growth: fast"), "plan.yaml"),
                         "plan.yaml:12:23: futures.monthly_log_growth = \"fast\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_plans("  seasonality: [1, 1, 1]"), "plan.yaml"),
                         "plan.yaml:12:16: futures.seasonality = [...]: must have 12 numbers", InvalidInput);
    std::string text = with_plans();
    text.replace(text.find("probability: 0.5"), 16, "probability: 1.5");
    // "  events: [{gpus: 4, probability: " is 34 characters
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"),
                         "plan.yaml:13:35: futures.events[0].probability = 1.5: must be in [0, 1]", InvalidInput);
    text = with_plans();
    text.replace(text.find("last_month: 9"), 13, "last_month: 2");
    // "  events: [{gpus: 4, probability: 0.5, first_month: 3, last_month: " is 67 characters
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"),
                         "plan.yaml:13:68: futures.events[0].last_month = 2: must be >= first_month", InvalidInput);
    text = with_plans();
    text.replace(text.find("- name: base"), 12, "- name: od");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"), "plan.yaml:16:5: plans[1] = {...}: duplicate plan name",
                         InvalidInput);
    // the same rule for spot jobs (it once reported the second job's keys as unknown)
    const std::string two_jobs = "version: 1\nname: t\nhorizon_months: 12\n"
                                 "offering: {provider: aws, instance_type: p4d.24xlarge, region: us-east-1}\n"
                                 "demand: {kind: constant, gpus: 8}\n"
                                 "spot_jobs:\n"
                                 "  - {name: a, work_hours: 10, mtbf_hours: 5, checkpoint_write_hours: 0.1}\n"
                                 "  - {name: a, work_hours: 20, mtbf_hours: 5, checkpoint_write_hours: 0.1}\n"
                                 "strategies: []\n";
    CHECK_THROWS_WITH_AS(parse_scenario(two_jobs, "plan.yaml"), "plan.yaml:8:5: spot_jobs[1] = {...}: duplicate spot job name",
                         InvalidInput);
    // the offering lists no 3-year partial-upfront price: the plan engine's own message, at the plan
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_plans("  monthly_log_growth: 0.02",
                                  "      - {count: 8, term_years: 3, payment: partial_upfront}"),
                       "plan.yaml"),
        "plan.yaml:16:5: plan.commitments[0] = \"3y partial_upfront\": offering gcp/us-central1/a2-highgpu-8g lists "
        "no such reservation price; set reservation_discount",
        InvalidInput);
    text = with_plans();
    text.erase(text.find("plans:"));
    text += "strategies: [{name: od, on_demand: {}}]\n";
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"),
                         "plan.yaml:10:3: futures = {...}: needs plans (or recommend) to evaluate over the futures", InvalidInput);
}

TEST_CASE("random plans and futures round-trip through YAML exactly") {
    std::mt19937_64 rng(1414);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int n = 0; n < 200; ++n) {
        Scenario s;
        s.name = fmt::format("random {}", n);
        s.horizon_months = 1 + int(rng() % 48);
        s.seed = rng() >> 1;
        s.offering = {"aws", "p4d.24xlarge", "us-east-1"};
        s.demand.gpus = unit(rng) * 50;
        FuturesSpec f;
        f.count = 1 + rng() % 5000;
        f.model.base_gpus = unit(rng) * 40;
        f.model.monthly_log_growth = unit(rng) * 0.1 - 0.05;
        f.model.monthly_log_volatility = unit(rng) * 0.2;
        const int first = int(rng() % std::uint64_t(s.horizon_months));
        f.model.events.push_back({unit(rng) * 16, unit(rng), first, first + int(rng() % std::uint64_t(s.horizon_months - first))});
        if (rng() % 2) f.model.seasonality.assign(12, unit(rng) + 0.5);
        s.futures = f;
        Plan p;
        p.name = fmt::format("plan {}", n);
        p.commitments.push_back({.count = unit(rng) * 10, .unit = rng() % 2 ? CountUnit::gpus : CountUnit::instances,
                                 .term_years = rng() % 2 ? 1 : 3, .payment = Payment::all_upfront,
                                 .start_month = int(rng() % std::uint64_t(s.horizon_months)),
                                 .renewal = rng() % 2 ? Renewal::renew : Renewal::lapse});
        if (rng() % 2) p.commitments.back().reservation_discount = unit(rng) * 0.9;
        if (rng() % 2) p.spot = SpotShare{.gpus = unit(rng) * 8, .price_per_gpu_hour = unit(rng) * 3,
                                          .overhead = 1 + unit(rng), .availability = unit(rng), .periods = {}};
        if (rng() % 2) p.owned.push_back({.gpus = unit(rng) * 4, .month = 0, .terms = Owned{.capex_per_gpu = 20000}});
        if (rng() % 2)
            p.savings_plans.push_back({.commitment_per_hour = 0.5 + unit(rng) * 30,
                                       .type = SavingsPlanType(rng() % savings_plan_type_count),
                                       .term_years = rng() % 2 ? 1 : 3, .payment = Payment::partial_upfront,
                                       .start_month = int(rng() % std::uint64_t(s.horizon_months)),
                                       .renewal = rng() % 2 ? Renewal::renew : Renewal::lapse,
                                       .rate_per_gpu_hour = 0.5 + unit(rng) * 3});
        if (rng() % 2) {  // held before the horizon, maybe sold or exchanged
            HeldCommitment h;
            if (rng() % 2) h.id = fmt::format("ri-{}", n);
            h.count = unit(rng) * 6;
            h.start_month = -int(rng() % 24);
            h.end_month = 1 + int(rng() % 36);
            h.hourly_per_gpu = unit(rng) * 3;
            h.upfront_per_gpu = unit(rng) * 1000;
            h.kind = rng() % 2 ? CommitmentClass::convertible : CommitmentClass::standard;
            p.held.push_back(h);
            const int last = std::min(s.horizon_months, h.end_month);  // a change falls in [1, last)
            if (last > 1 && rng() % 2) {
                CommitmentChange change{.kind = h.kind == CommitmentClass::standard ? ChangeKind::resale : ChangeKind::exchange,
                                        .held = true, .index = 0, .month = 1 + int(rng() % std::uint64_t(last - 1)),
                                        .into = {}, .price = 0};
                if (change.kind == ChangeKind::resale) change.price = unit(rng) * 500;
                else change.into = Commitment{.count = 50, .term_years = 3, .reservation_discount = 0.5};  // worth more
                p.changes.push_back(change);
            }
        }
        if (rng() % 2) {  // a flex-start request inside the horizon
            const double days = s.horizon_months * 730.0 / 24.0;
            const double start = unit(rng) * (days - 1);
            p.flex_starts.push_back({.gpus = 0.5 + unit(rng) * 16, .start_day = start,
                                     .days = std::min(days - start, 0.1 + unit(rng) * 6.9), .discount = unit(rng) * 0.9,
                                     .grant_probability = 0.01 + unit(rng) * 0.99});
        }
        s.plans.push_back(p);
        if (rng() % 2) {  // prices that move
            PriceDynamics d;
            auto process = [&] {
                return LogPriceProcess{.reversion = unit(rng), .volatility = unit(rng) * 0.3, .drift = unit(rng) * 0.04 - 0.02,
                                       .jump_rate = unit(rng), .jump_mean = unit(rng) - 0.5, .jump_sd = unit(rng) * 0.3};
            };
            d.on_demand = process();
            d.spot_spread = process();
            d.spot_correlation = 2 * unit(rng) - 1;
            d.reserved_1y_spread = process();
            if (rng() % 2) d.reserved_3y_spread = process();
            const int launch_first = int(rng() % std::uint64_t(s.horizon_months));
            if (rng() % 2)
                d.launches.push_back({.probability = unit(rng), .first_month = launch_first,
                                      .last_month = launch_first + int(rng() % std::uint64_t(s.horizon_months - launch_first)),
                                      .on_demand_factor = 0.5 + unit(rng), .spot_factor = 0.5 + unit(rng), .reserved_factor = 0.5 + unit(rng)});
            s.price_model = d;
        }
        // A recommend section in half the cases, drawn from its own stream (the draws above stay as they were).
        std::mt19937_64 section(7100 + std::uint64_t(n));
        if (section() % 2) {
            RecommendSpec r;
            RecommendOptions& o = r.options;
            o.commitments.push_back({.term_years = section() % 2 ? 1 : 3, .payment = Payment::no_upfront});
            if (section() % 2) o.commitments.back().reservation_discount = unit(section) * 0.9;
            o.start_months = {0, int(section() % std::uint64_t(s.horizon_months))};
            o.review_months = 1 + int(section() % 12);
            if (section() % 2) {
                CapacityBlockOption blocks{.lead_days = int(section() % 57)};
                if (section() % 2) blocks.price_per_instance_hour = 1 + unit(section) * 40;
                blocks.kind = section() % 2 ? BlockKind::gcp_calendar_mode : BlockKind::aws_capacity_block;
                o.capacity_blocks = blocks;
            }
            if (section() % 2)
                o.flex_start = FlexStartOption{.discount = unit(section) * 0.99, .grant_probability = 0.01 + unit(section) * 0.99};
            if (section() % 2) o.limits.cvar95 = unit(section) * 1e7;
            o.max_blocks = 1 + int(section() % 730);
            r.held_out = section() % 100;
            if (section() % 2)
                o.held.push_back({.count = unit(section) * 6, .start_month = -int(section() % 24), .end_month = 1 + int(section() % 36),
                                  .hourly_per_gpu = unit(section) * 3,
                                  .kind = section() % 2 ? CommitmentClass::convertible : CommitmentClass::standard});
            s.recommend = r;
        }
        const std::string written = to_yaml(s);
        CAPTURE(written);
        const Scenario back = parse_scenario(written, "random.yaml");
        CHECK(to_yaml(back) == written);
        REQUIRE(back.recommend.has_value() == s.recommend.has_value());
        if (s.recommend) {  // what to_yaml must not leave out
            const RecommendOptions& o = s.recommend->options;
            const RecommendOptions& b = back.recommend->options;
            REQUIRE(b.flex_start.has_value() == o.flex_start.has_value());
            if (o.flex_start) CHECK(b.flex_start->discount == o.flex_start->discount);
            if (o.flex_start) CHECK(b.flex_start->grant_probability == o.flex_start->grant_probability);
            REQUIRE(b.capacity_blocks.has_value() == o.capacity_blocks.has_value());
            if (o.capacity_blocks) CHECK(b.capacity_blocks->kind == o.capacity_blocks->kind);
            if (o.capacity_blocks) CHECK(b.capacity_blocks->price_per_instance_hour == o.capacity_blocks->price_per_instance_hour);
            REQUIRE(b.held.size() == o.held.size());
            for (std::size_t i = 0; i < o.held.size(); ++i) CHECK(b.held[i].count == o.held[i].count);
        }
    }
}

TEST_CASE("a plan's savings_plans key: the engine's Savings Plan, its errors at their place in the file") {
    const std::string sp = "    savings_plans:\n"
                           "      - {commitment_per_hour: 12, type: aws_compute, term_years: 1, payment: no_upfront, "
                           "rate_per_gpu_hour: 3}";
    std::string text = with_plans();
    text.replace(text.find("    commitments:\n"), std::string("    commitments:\n").size(), "");
    text.replace(text.find("      - {count: 8, term_years: 3, payment: no_upfront}"),
                 std::string("      - {count: 8, term_years: 3, payment: no_upfront}").size(), sp);
    const Scenario s = parse_scenario(text, "plan.yaml");
    REQUIRE(s.plans[1].savings_plans.size() == 1);
    const SavingsPlan& read = s.plans[1].savings_plans[0];
    CHECK(read.commitment_per_hour == 12);
    CHECK(read.type == SavingsPlanType::aws_compute);
    CHECK(read.rate_per_gpu_hour == 3.0);
    CHECK(to_yaml(parse_scenario(to_yaml(s), "again.yaml")) == to_yaml(s));

    std::string bad = text;
    bad.replace(bad.find("type: aws_compute"), 17, "type: aws_compote");
    // "      - {commitment_per_hour: 12, type: " is 40 characters
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:18:41: plans[1].savings_plans[0].type = \"aws_compote\": must be one of aws_ec2_instance, "
                         "aws_compute, aws_sagemaker, azure_compute, gcp_flexible; did you mean \"aws_compute\"?",
                         InvalidInput);
    bad = text;
    bad.replace(bad.find("commitment_per_hour: 12"), 23, "commitment_per_hour: 0");
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:18:31: plans[1].savings_plans[0].commitment_per_hour = 0: must be > 0", InvalidInput);
    // No rate given and the offering lists none: the engine's message, at the plan.
    bad = text;
    bad.replace(bad.find(", rate_per_gpu_hour: 3"), 22, "");
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:16:5: plan.savings_plans[0].rate_per_gpu_hour = \"none\": offering "
                         "gcp/us-central1/a2-highgpu-8g lists no aws_compute 1-year no_upfront Savings Plan rate; set "
                         "plan.savings_plans[0].rate_per_gpu_hour",
                         InvalidInput);
}

TEST_CASE("capacity blocks, short terms and demand windows in a scenario") {
    const std::string text =
        with_plans("  monthly_log_growth: 0.02", "      - {count: 8, term_months: 3, discount: 0.2, payment: no_upfront}") +
        "    capacity_blocks: [{instances: 2, days: 21, start_day: 60, lead_days: 30, price_per_instance_hour: 20}]\n"
        "demand_windows: [{start_day: 60, days: 21, gpus: 16}]\n";
    const Scenario s = parse_scenario(text, "plan.yaml");
    REQUIRE(s.plans.size() == 2);
    CHECK(s.plans[1].commitments[0].term_months == 3);
    REQUIRE(s.plans[1].capacity_blocks.size() == 1);
    CHECK(s.plans[1].capacity_blocks[0].instances == 2);
    CHECK(s.plans[1].capacity_blocks[0].days == 21);
    CHECK(s.plans[1].capacity_blocks[0].lead_days == 30);
    CHECK(*s.plans[1].capacity_blocks[0].price_per_instance_hour == 20);
    REQUIRE(s.demand_windows.size() == 1);
    CHECK(s.demand_windows[0].gpus == 16);
    const ScenarioResult r = run_scenario(s);
    DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02};
    model.events.push_back({.gpus = 4, .probability = 0.5, .first_month = 3, .last_month = 9});
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 50, 5);
    PlanOptions options;
    options.windows = s.demand_windows;
    const auto direct = compare_plans(s.plans, futures, Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1"),
                                      {}, options);
    for (std::size_t i = 0; i < 2; ++i) CHECK(r.plans[i].total.mean == direct[i].total.mean);
    CHECK(r.plans[1].total.mean < r.plans[0].total.mean);  // the block ($20 < the on-demand rate) pays

    // The engine's rules, at the block's place in the file.
    std::string bad = text;
    bad.replace(bad.find("days: 21, start_day"), 8, "days: 20");
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:16:5: plan.capacity_blocks[0].days = 20: must be 1 to 14 days, or whole "
                         "weeks (a multiple of 7) up to 182 days",
                         InvalidInput);
    bad = text;
    bad.replace(bad.find("gpus: 16}"), 8, "gpus: -1");
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:20:50: demand_windows[0].gpus = -1: must be >= 0", InvalidInput);
}

TEST_CASE("held commitments and changes in a scenario: the engine's numbers, errors naming the line") {
    std::string text = with_plans("  monthly_log_growth: 0.02",
                                  "      - {count: 8, term_years: 3, payment: no_upfront}\n"
                                  "    held:\n"
                                  "      - {id: ri-1, count: 1, unit: instances, start_month: -12, end_month: 12, "
                                  "hourly_per_gpu: 2.5, kind: convertible}\n"
                                  "    changes:\n"
                                  "      - {kind: exchange, held: 0, month: 6, into: {count: 2, unit: instances, "
                                  "term_years: 3, payment: no_upfront}}");
    const Scenario s = parse_scenario(text, "plan.yaml");
    REQUIRE(s.plans[1].held.size() == 1);
    CHECK(s.plans[1].held[0].id == "ri-1");
    CHECK(s.plans[1].held[0].unit == CountUnit::instances);
    CHECK(s.plans[1].held[0].kind == CommitmentClass::convertible);
    REQUIRE(s.plans[1].changes.size() == 1);
    CHECK(s.plans[1].changes[0].into->count == 2);
    CHECK(to_yaml(parse_scenario(to_yaml(s), "again.yaml")) == to_yaml(s));
    const ScenarioResult r = run_scenario(s);
    DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02};
    model.events.push_back({.gpus = 4, .probability = 0.5, .first_month = 3, .last_month = 9});
    const auto direct = compare_plans(s.plans, DemandFutures::generate(model, Horizon::months(24), 50, 5),
                                      Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1"));
    CHECK(r.plans[1].total.mean == direct[1].total.mean);
    REQUIRE(r.plans[1].commitment_use.size() == 3);
    CHECK(r.plans[1].commitment_use[0].name == "ri-1");
    // The page lists each commitment's hours and the exchange's money.
    const std::string page = scenario_report({{"plan.yaml", s, r}}, "test", "gputco report plan.yaml");
    CHECK(page.find("Commitments: GPU-hours paid, used (mean over futures) and unused") != std::string::npos);
    CHECK(page.find("<p>base: held[0]: exchanged in month 6 (") != std::string::npos);

    text.replace(text.find("held: 0"), 7, "held: 0, commitment: 0");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"),
                         "plan.yaml:22:9: plans[1].changes[0] = {...}: give one of held or commitment (the index of "
                         "the one changed)",
                         InvalidInput);
}

namespace {

/// with_plans() and a price model after it, from line 19; `line` replaces its on-demand process.
std::string with_price_model(std::string_view line = "  on_demand: {reversion: 0.1, volatility: 0.05, jump_rate: 0.2, jump_mean: -0.1, jump_sd: 0.1}") {
    return with_plans() + fmt::format(
        "price_model:\n"                                                                   // 19
        "{}\n"                                                                             // 20
        "  spot_spread: {{reversion: 0.3, volatility: 0.1}}\n"                              // 21
        "  spot_correlation: 0.4\n"                                                        // 22
        "  reserved_1y_spread: {{reversion: 0.2, volatility: 0.02}}\n"                      // 23
        "  reserved_3y_spread: {{reversion: 0.2, volatility: 0.03, jump_rate: 0.1, jump_mean: -0.1}}\n"  // 24
        "  launches: [{{probability: 0.5, first_month: 3, last_month: 9, on_demand_factor: 0.8}}]\n",  // 25
        line);
}

}  // namespace

TEST_CASE("a price model in a scenario prices the plans under simulate_price_paths' paths (the scenario's seed)") {
    const Scenario s = parse_scenario(with_price_model(), "prices.yaml");
    REQUIRE(s.price_model.has_value());
    const PriceDynamics& d = *s.price_model;
    CHECK(d.on_demand.jump_rate == 0.2);
    CHECK(d.on_demand.drift == 0);  // absent: 0
    CHECK(d.spot_correlation == 0.4);
    CHECK(d.reserved_3y_spread.volatility == 0.03);
    REQUIRE(d.launches.size() == 1);
    CHECK(d.launches[0].on_demand_factor == 0.8);
    CHECK(d.launches[0].spot_factor == 1);
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.plans.size() == 2);
    // By hand: the same futures, one path per future with seed 5 and both terms, through the plan engine.
    DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02};
    model.events.push_back({.gpus = 4, .probability = 0.5, .first_month = 3, .last_month = 9});
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 50, 5);
    const Offering& a2 = Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1");
    const PricePaths prices = simulate_price_paths(d, Horizon::months(24), 50, 5, 0);
    const auto direct = compare_plans(s.plans, futures, a2, prices);
    const auto still = compare_plans(s.plans, futures, a2);
    for (std::size_t i = 0; i < 2; ++i) {
        CAPTURE(i);
        CHECK(r.plans[i].total.mean == direct[i].total.mean);
        CHECK(r.plans[i].total.p95 == direct[i].total.p95);
        CHECK(r.plans[i].total.mean != still[i].total.mean);  // the paths moved the prices
    }
    // Written and read back: the same model.
    const std::string written = to_yaml(s);
    CHECK(written.find("price_model:") != std::string::npos);
    CHECK(to_yaml(parse_scenario(written, "again.yaml")) == written);
}

TEST_CASE("price_model_yaml: any price model (a fitted one) goes into a scenario as it is and is read back bit for bit") {
    std::mt19937_64 rng(32);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    auto process = [&] {
        return LogPriceProcess{.reversion = unit(rng), .volatility = unit(rng) * 0.3, .drift = unit(rng) * 0.04 - 0.02,
                               .jump_rate = unit(rng), .jump_mean = unit(rng) - 0.5, .jump_sd = unit(rng) * 0.3};
    };
    auto same = [](const LogPriceProcess& a, const LogPriceProcess& b) {
        return a.reversion == b.reversion && a.volatility == b.volatility && a.drift == b.drift &&
               a.jump_rate == b.jump_rate && a.jump_mean == b.jump_mean && a.jump_sd == b.jump_sd;
    };
    for (int trial = 0; trial < 200; ++trial) {
        CAPTURE(trial);
        PriceDynamics d;
        d.on_demand = process();
        d.spot_spread = process();
        d.spot_correlation = 2 * unit(rng) - 1;
        d.reserved_1y_spread = process();
        if (rng() % 2) d.reserved_3y_spread = process();
        if (rng() % 2) {
            const int first = int(rng() % 24);
            d.launches.push_back({.probability = unit(rng), .first_month = first, .last_month = first + int(rng() % std::uint64_t(24 - first)),
                                  .on_demand_factor = 0.5 + unit(rng), .spot_factor = 0.5 + unit(rng), .reserved_factor = 0.5 + unit(rng)});
        }
        const std::string key = price_model_yaml(d);
        CAPTURE(key);
        const Scenario s = parse_scenario(with_plans() + key + "\n", "fitted.yaml");
        REQUIRE(s.price_model.has_value());
        const PriceDynamics& read = *s.price_model;
        CHECK(same(read.on_demand, d.on_demand));
        CHECK(same(read.spot_spread, d.spot_spread));
        CHECK(read.spot_correlation == d.spot_correlation);
        CHECK(same(read.reserved_1y_spread, d.reserved_1y_spread));
        CHECK(same(read.reserved_3y_spread, d.reserved_3y_spread));
        REQUIRE(read.launches.size() == d.launches.size());
        for (std::size_t i = 0; i < d.launches.size(); ++i) {
            CHECK(read.launches[i].probability == d.launches[i].probability);
            CHECK(read.launches[i].first_month == d.launches[i].first_month);
            CHECK(read.launches[i].last_month == d.launches[i].last_month);
            CHECK(read.launches[i].on_demand_factor == d.launches[i].on_demand_factor);
            CHECK(read.launches[i].spot_factor == d.launches[i].spot_factor);
            CHECK(read.launches[i].reserved_factor == d.launches[i].reserved_factor);
        }
    }
}

TEST_CASE("price model errors name file, line, column, field, value and rule") {
    // "  on_demand: {reversion: 0.1, volatility: " is 42 characters
    CHECK_THROWS_WITH_AS(parse_scenario(with_price_model("  on_demand: {reversion: 0.1, volatility: -0.05}"), "prices.yaml"),
                         "prices.yaml:20:43: price_model.on_demand.volatility = -0.05: must be >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_price_model("  on_demand: {reversion: 0.1, volatilty: 0.05}"), "prices.yaml"),
                         "prices.yaml:20:31: price_model.on_demand.volatilty = 0.05: unknown key; did you mean \"volatility\"?",
                         InvalidInput);
    std::string text = with_price_model();
    text.replace(text.find("spot_correlation: 0.4"), 21, "spot_correlation: 1.5");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "prices.yaml"),
                         "prices.yaml:22:21: price_model.spot_correlation = 1.5: must be in [-1, 1]", InvalidInput);
    // "  launches: [{probability: 0.5, first_month: 3, last_month: " is 60 characters
    text = with_price_model();
    text.replace(text.find("last_month: 9, on_demand"), 13, "last_month: 2");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "prices.yaml"),
                         "prices.yaml:25:61: price_model.launches[0].last_month = 2: must be >= first_month", InvalidInput);
    text = with_price_model();
    text.replace(text.find("last_month: 9, on_demand"), 13, "last_month: 24");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "prices.yaml"),
                         "prices.yaml:25:61: price_model.launches[0].last_month = 24: must be in [0, 24) (the horizon's months)",
                         InvalidInput);
    text = with_price_model();
    text.replace(text.find("on_demand_factor: 0.8"), 21, "on_demand_factor: 0");
    // "  launches: [{probability: 0.5, first_month: 3, last_month: 9, on_demand_factor: " is 81 characters
    CHECK_THROWS_WITH_AS(parse_scenario(text, "prices.yaml"),
                         "prices.yaml:25:82: price_model.launches[0].on_demand_factor = 0: must be > 0", InvalidInput);
    // Without plans the model prices nothing (its mapping starts on the line after the key).
    text = with_price_model();
    text.erase(text.find("plans:"), text.find("price_model:") - text.find("plans:"));
    text.erase(text.find("futures:"), text.find("price_model:") - text.find("futures:"));
    text += "strategies: [{name: od, on_demand: {}}]\n";
    CHECK_THROWS_WITH_AS(parse_scenario(text, "prices.yaml"),
                         "prices.yaml:10:3: price_model = {...}: needs plans (or recommend) to price under its paths", InvalidInput);
}

TEST_CASE("flex-start requests in a scenario: the engine's numbers under the scenario's seed, errors at their place") {
    const std::string text =
        with_plans() + "    flex_starts: [{gpus: 16, start_day: 60, days: 5, discount: 0.4, grant_probability: 0.6}]\n"
                       "demand_windows: [{start_day: 60, days: 5, gpus: 16}]\n";
    const Scenario s = parse_scenario(text, "plan.yaml");
    REQUIRE(s.plans[1].flex_starts.size() == 1);
    const FlexStartRequest& r = s.plans[1].flex_starts[0];
    CHECK(r.gpus == 16);
    CHECK(r.start_day == 60);
    CHECK(r.days == 5);
    CHECK(r.discount == 0.4);
    CHECK(r.grant_probability == 0.6);
    CHECK(to_yaml(parse_scenario(to_yaml(s), "again.yaml")) == to_yaml(s));
    const ScenarioResult result = run_scenario(s);
    DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02};
    model.events.push_back({.gpus = 4, .probability = 0.5, .first_month = 3, .last_month = 9});
    PlanOptions options;
    options.windows = s.demand_windows;
    options.seed = 5;  // the scenario's seed draws the grants
    const auto direct = compare_plans(s.plans, DemandFutures::generate(model, Horizon::months(24), 50, 5),
                                      Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1"), {}, options);
    CHECK(result.plans[1].total.mean == direct[1].total.mean);
    options.seed = 6;
    const auto other = compare_plans(s.plans, DemandFutures::generate(model, Horizon::months(24), 50, 5),
                                     Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1"), {}, options);
    CHECK(other[1].total.mean != direct[1].total.mean);

    // The engine's rules at the plan's place; the reader's own at the value's.
    std::string bad = text;
    bad.replace(bad.find("days: 5, discount"), 7, "days: 8");
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:16:5: plan.flex_starts[0].days = 8: must be in (0, 7] (a flex-start run lasts at "
                         "most seven days)",
                         InvalidInput);
    bad = text;
    bad.replace(bad.find(", grant_probability: 0.6"), 24, "");
    // "    flex_starts: [" is 18 characters: the mapping opens at column 19
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:19:19: plans[1].flex_starts[0].grant_probability = (missing): required", InvalidInput);
    bad = text;
    bad.replace(bad.find("gpus: 16, start"), 8, "gpus: -2");
    // "    flex_starts: [{gpus: " is 25 characters
    CHECK_THROWS_WITH_AS(parse_scenario(bad, "plan.yaml"),
                         "plan.yaml:19:26: plans[1].flex_starts[0].gpus = -2: must be > 0", InvalidInput);
}
