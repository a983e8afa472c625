// Scenario files: the `recommend` section (a recommendation over the scenario's futures).
#include <doctest/doctest.h>

#include <string>

#include "gputco/app/recommend_study.hpp"
#include "gputco/scenario/scenario.hpp"

using namespace gputco;

namespace {

/// A small valid scenario with futures and a recommend section; each error case replaces line 15 on.
std::string with_recommend(std::string_view recommend_lines =
                               "  commitments: [{term_years: 1, payment: no_upfront}, {term_years: 3, payment: no_upfront}]\n"
                               "  review_months: 6\n"
                               "  spot: [{name: \"spot, checkpoint hourly\", overhead: 1.1, availability: 0.8}]\n"
                               "  limits: {cvar95: 3000000}\n"
                               "  held_out: 40\n"
                               "  cvar95_limits: [2900000]\n"
                               "  baselines: {term_years: 1, payment: no_upfront, history: demand}\n") {
    return fmt::format(
        "version: 1\n"                                  // 1
        "name: r\n"                                     // 2
        "horizon_months: 24\n"                          // 3
        "seed: 5\n"                                     // 4
        "offering: {{provider: gcp, instance_type: a2-highgpu-8g, region: us-central1}}\n"  // 5
        "demand:\n"                                     // 6
        "  kind: constant\n"                            // 7
        "  gpus: 8\n"                                   // 8
        "futures:\n"                                    // 9
        "  count: 30\n"                                 // 10
        "  base_gpus: 8\n"                              // 11
        "  monthly_log_growth: 0.02\n"                  // 12
        "  monthly_log_volatility: 0.05\n"              // 13: futures that differ
        "recommend:\n"                                  // 14
        "{}",                                           // 15 on
        recommend_lines);
}

void check_same(const Distribution& a, const Distribution& b) {
    CHECK(a.mean == b.mean);
    CHECK(a.p95 == b.p95);
    CHECK(a.cvar95 == b.cvar95);
}

}  // namespace

TEST_CASE("a scenario's recommend section gives run_recommend_study's answer with the same options and seed") {
    const Scenario s = parse_scenario(with_recommend(), "rec.yaml");
    REQUIRE(s.recommend.has_value());
    CHECK(s.strategies.empty());  // a recommendation alone is a question
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.recommend != nullptr);

    // By hand: the futures of seed 5, held-out ones of seed 6, the options as the file says them.
    const DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.05};
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 30, 5);
    const DemandFutures held_out = DemandFutures::generate(model, Horizon::months(24), 40, 6);
    const DemandProfile history = DemandProfile::constant(8, Horizon::months(24));
    const Offering& a2 = Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1");
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront}, {.term_years = 3, .payment = Payment::no_upfront}};
    options.review_months = 6;
    options.spot = {{.name = "spot, checkpoint hourly", .overhead = 1.1, .availability = 0.8}};
    options.limits.cvar95 = 3e6;
    StudyInputs in;
    in.held_out = &held_out;
    in.history = &history;
    in.baseline_term_years = 1;
    in.baseline_payment = Payment::no_upfront;
    in.cvar95_limits = {2.9e6};
    in.draw_futures = [&](std::size_t count, std::uint64_t draw) {
        return DemandFutures::generate(model, Horizon::months(24), count, 6 + draw);
    };
    const RecommendStudy direct = run_recommend_study(futures, a2, options, {}, in);

    const RecommendStudy& got = *r.recommend;
    CHECK(describe(got.recommendation.plan) == describe(direct.recommendation.plan));
    CHECK(got.recommendation.solver_objective == direct.recommendation.solver_objective);
    CHECK(got.held_out);
    check_same(got.judged.total, direct.judged.total);
    CHECK(got.cvar95_verdict == direct.cvar95_verdict);
    CHECK(got.fitted_futures == direct.fitted_futures);
    REQUIRE(got.baselines.size() == direct.baselines.size());
    CHECK(got.baselines.size() >= 4);  // recommended, all on demand, lookback advice, newsvendor, hindsight level
    for (std::size_t i = 0; i < got.baselines.size(); ++i) {
        CAPTURE(i);
        CHECK(got.baselines[i].plan == direct.baselines[i].plan);
        check_same(got.baselines[i].total, direct.baselines[i].total);
    }
    REQUIRE(got.frontier.size() == 1);
    CHECK(got.frontier[0].point.mean == direct.frontier[0].point.mean);
    CHECK(got.frontier[0].held_out_mean == direct.frontier[0].held_out_mean);
    CHECK(got.commitment_utilisation == direct.commitment_utilisation);
}

TEST_CASE("a recommend section under a price model: the plans' paths (seed), held out at paths of seed + 1") {
    std::string text = with_recommend("  commitments: [{term_years: 1, payment: no_upfront}]\n  held_out: 20\n");
    text.insert(text.find("recommend:"), "price_model: {on_demand: {volatility: 0.05}}\n");
    const Scenario s = parse_scenario(text, "rec.yaml");
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.recommend != nullptr);
    const DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.05};
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 30, 5);
    const DemandFutures held_out = DemandFutures::generate(model, Horizon::months(24), 20, 6);
    PriceDynamics dynamics;
    dynamics.on_demand.volatility = 0.05;
    const PricePaths prices = simulate_price_paths(dynamics, Horizon::months(24), 30, 5, 0);
    const PricePaths held_prices = simulate_price_paths(dynamics, Horizon::months(24), 20, 6, 0);
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront}};
    StudyInputs in;
    in.held_out = &held_out;
    in.held_out_prices = &held_prices;
    const RecommendStudy direct =
        run_recommend_study(futures, Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1"), options, prices, in);
    CHECK(describe(r.recommend->recommendation.plan) == describe(direct.recommendation.plan));
    check_same(r.recommend->judged.total, direct.judged.total);
    CHECK(r.recommend->judged_prices == "held_out_prices");
    REQUIRE(r.recommend->baselines.size() == direct.baselines.size());
    for (std::size_t i = 0; i < direct.baselines.size(); ++i) check_same(r.recommend->baselines[i].total, direct.baselines[i].total);
}

TEST_CASE("an empty recommend section takes every default from RecommendOptions and writes them back") {
    const Scenario s = parse_scenario(with_recommend("  {}\n"), "rec.yaml");
    REQUIRE(s.recommend.has_value());
    const RecommendOptions defaults;
    CHECK(s.recommend->options.review_months == defaults.review_months);
    CHECK(s.recommend->options.max_blocks == defaults.max_blocks);
    CHECK(s.recommend->options.time_limit_seconds == defaults.time_limit_seconds);
    CHECK(s.recommend->options.limits.upfront_period_months == defaults.limits.upfront_period_months);
    CHECK_FALSE(s.recommend->hindsight_bound.has_value());  // StudyInputs' default when run
    const std::string yaml = to_yaml(s);
    CHECK(yaml.find(fmt::format("  review_months: {}\n", defaults.review_months)) != std::string::npos);
    CHECK(yaml.find(fmt::format("  max_blocks: {}\n", defaults.max_blocks)) != std::string::npos);
    CHECK(to_yaml(parse_scenario(yaml, "again.yaml")) == yaml);
}

TEST_CASE("a recommend section with reservations and Savings Plans held and changes allowed gives recommend_plan's "
          "answer with the same options") {
    // 16 GPUs held for 8 in demand: selling the extra half on the marketplace pays.
    const Scenario s = parse_scenario(
        with_recommend("  commitments: [{term_years: 1, payment: no_upfront}]\n"
                       "  review_months: 6\n"
                       "  held: [{count: 16, start_month: -12, end_month: 24, hourly_per_gpu: 2.5, upfront_per_gpu: 9000}, "
                       "{count: 8, start_month: -12, end_month: 24, hourly_per_gpu: 2.5, upfront_per_gpu: 9000, kind: convertible}]\n"
                       "  held_savings_plans: [{commitment_per_hour: 4, type: aws_compute, term_years: 1, "
                       "payment: no_upfront, start_month: -6, rate_per_gpu_hour: 2}]\n"
                       "  changes: {resale_price_share: 0.5, exchange_into: [{term_years: 3, payment: all_upfront, "
                       "reservation_discount: 0.5}], refund: false}\n"),
        "rec.yaml");
    const RecommendOptions& read = s.recommend->options;
    REQUIRE(read.held_savings_plans.size() == 1);
    CHECK(read.held_savings_plans[0].start_month == -6);
    CHECK(read.held_savings_plans[0].renewal == Renewal::lapse);
    CHECK(read.changes.resale_price_share.value() == 0.5);
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.recommend != nullptr);

    const DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.05};
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 30, 5);
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront}};
    options.review_months = 6;
    HeldCommitment held{.count = 16, .start_month = -12, .end_month = 24, .hourly_per_gpu = 2.5, .upfront_per_gpu = 9000};
    options.held = {held, held};
    options.held[1].count = 8;
    options.held[1].kind = CommitmentClass::convertible;
    options.held_savings_plans = {{.commitment_per_hour = 4, .type = SavingsPlanType::aws_compute, .term_years = 1,
                                   .payment = Payment::no_upfront, .start_month = -6, .renewal = Renewal::lapse,
                                   .rate_per_gpu_hour = 2.0}};
    options.changes.resale_price_share = 0.5;
    options.changes.exchange_into = {{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.5}};
    options.plan_options.seed = 5;
    const Recommendation direct =
        recommend_plan(futures, Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1"), options);
    const Recommendation& got = r.recommend->recommendation;
    CHECK(describe(got.plan) == describe(direct.plan));
    CHECK(got.solver_objective == direct.solver_objective);
    REQUIRE_FALSE(got.plan.changes.empty());
    CHECK(got.plan.changes[0].kind == ChangeKind::resale);
}

TEST_CASE("every key of a recommend section reads back from to_yaml") {
    const Scenario s = parse_scenario(with_recommend(
        "  commitments: [{term_years: 3, payment: no_upfront, reservation_discount: 0.4}, {term_months: 3, payment: no_upfront}]\n"
        "  start_months: [0, 12]\n"
        "  review_months: 3\n"
        "  unit: instances\n"
        "  max_count: 50\n"
        "  savings_plans: [{type: aws_compute, term_years: 1, payment: all_upfront, rate_per_gpu_hour: 2.5}]\n"
        "  capacity_blocks: {lead_days: 7, price_per_instance_hour: 30, kind: gcp_calendar_mode}\n"
        "  flex_start: {discount: 0.35, grant_probability: 0.6}\n"
        "  spot: [{name: s, overhead: 1.25, availability: 0.9, price_per_gpu_hour: 1.5, deadline_miss_probability: 0.01}]\n"
        "  owned: {terms: {capex_per_gpu: 20000, life_years: 4}, months: [0, 6], max_gpus: 16, step_gpus: 8}\n"
        "  objective: expected_npv\n"
        "  limits: {cvar95: 1e6, upfront_per_period: 5e5, upfront_period_months: 6, committed_share: 0.8, "
        "deadline_miss_probability: 0.05, capacity_assurance: 0.9}\n"
        "  on_demand_capacity: {unavailable_share: 0.1, mean_wait_hours: 4}\n"
        "  max_blocks: 16\n"
        "  time_limit_seconds: 10\n"
        "  held: [{id: ri-1, count: 2, unit: instances, start_month: -6, end_month: 6, hourly_per_gpu: 1.5, "
        "payment: partial_upfront, upfront_per_gpu: 900, kind: convertible}]\n"
        "  held_savings_plans: [{commitment_per_hour: 12, type: aws_ec2_instance, term_years: 3, payment: partial_upfront, "
        "start_month: -20, rate_per_gpu_hour: 1.75}]\n"
        "  changes: {resale_price_share: 0.4, exchange_into: [{term_years: 1, payment: all_upfront, "
        "reservation_discount: 0.3}], refund: true, azure_exchange_into: [{term_years: 3, payment: no_upfront}]}\n"
        "  held_out: 100\n"
        "  hindsight_bound: true\n"
        "  cvar95_limits: [1e6, 2e6]\n"
        "  hold_cvar95_limit: false\n"
        "  baselines: {term_years: 3, payment: partial_upfront, history: demand}\n"), "rec.yaml");
    const std::string yaml = to_yaml(s);
    const Scenario back = parse_scenario(yaml, "again.yaml");
    CHECK(to_yaml(back) == yaml);
    for (const Scenario* read : {&s, &back}) {  // as the file says, and after to_yaml
        const RecommendSpec& r = *read->recommend;
        REQUIRE(r.options.commitments.size() == 2);
        CHECK(r.options.commitments[1].term_months == 3);
        CHECK(r.options.commitments[0].reservation_discount.value() == 0.4);
        CHECK(r.options.start_months == std::vector<int>{0, 12});
        CHECK(r.options.review_months == 3);
        CHECK(r.options.unit == CountUnit::instances);
        CHECK(r.options.max_count == 50);
        CHECK(r.options.savings_plans[0].payment == Payment::all_upfront);
        CHECK(r.options.savings_plans[0].rate_per_gpu_hour.value() == 2.5);
        CHECK(r.options.capacity_blocks.value().lead_days == 7);
        CHECK(r.options.capacity_blocks.value().price_per_instance_hour.value() == 30);
        CHECK(r.options.capacity_blocks.value().kind == BlockKind::gcp_calendar_mode);
        CHECK(r.options.flex_start.value().discount == 0.35);
        CHECK(r.options.flex_start.value().grant_probability == 0.6);
        CHECK(r.options.spot[0].overhead == 1.25);
        CHECK(r.options.spot[0].price_per_gpu_hour.value() == 1.5);
        CHECK(r.options.spot[0].deadline_miss_probability.value() == 0.01);
        CHECK(r.options.owned.value().terms.capex_per_gpu == 20000);
        CHECK(r.options.owned.value().terms.life_years == 4);
        CHECK(r.options.owned.value().months == std::vector<int>{0, 6});
        CHECK(r.options.owned.value().max_gpus == 16);
        CHECK(r.options.owned.value().step_gpus == 8);
        CHECK(r.options.objective == Objective::expected_npv);
        CHECK(r.options.limits.cvar95.value() == 1e6);
        CHECK(r.options.limits.upfront_per_period.value() == 5e5);
        CHECK(r.options.limits.upfront_period_months == 6);
        CHECK(r.options.limits.committed_share.value() == 0.8);
        CHECK(r.options.limits.deadline_miss_probability.value() == 0.05);
        CHECK(r.options.limits.capacity_assurance.value() == 0.9);
        CHECK(r.options.on_demand_capacity.unavailable_share == 0.1);
        CHECK(r.options.on_demand_capacity.mean_wait_hours == 4);
        CHECK(r.options.max_blocks == 16);
        CHECK(r.options.time_limit_seconds == 10);
        REQUIRE(r.options.held.size() == 1);
        CHECK(r.options.held[0].id == "ri-1");
        CHECK(r.options.held[0].count == 2);
        CHECK(r.options.held[0].unit == CountUnit::instances);
        CHECK(r.options.held[0].start_month == -6);
        CHECK(r.options.held[0].end_month == 6);
        CHECK(r.options.held[0].hourly_per_gpu.value() == 1.5);
        CHECK(r.options.held[0].payment == Payment::partial_upfront);
        CHECK(r.options.held[0].upfront_per_gpu == 900);
        CHECK(r.options.held[0].kind == CommitmentClass::convertible);
        REQUIRE(r.options.held_savings_plans.size() == 1);
        CHECK(r.options.held_savings_plans[0].commitment_per_hour == 12);
        CHECK(r.options.held_savings_plans[0].type == SavingsPlanType::aws_ec2_instance);
        CHECK(r.options.held_savings_plans[0].term_years == 3);
        CHECK(r.options.held_savings_plans[0].payment == Payment::partial_upfront);
        CHECK(r.options.held_savings_plans[0].start_month == -20);
        CHECK(r.options.held_savings_plans[0].rate_per_gpu_hour.value() == 1.75);
        CHECK(r.options.changes.resale_price_share.value() == 0.4);
        REQUIRE(r.options.changes.exchange_into.size() == 1);
        CHECK(r.options.changes.exchange_into[0].payment == Payment::all_upfront);
        CHECK(r.options.changes.exchange_into[0].reservation_discount.value() == 0.3);
        CHECK(r.options.changes.refund);
        REQUIRE(r.options.changes.azure_exchange_into.size() == 1);
        CHECK(r.options.changes.azure_exchange_into[0].term_years == 3);
        CHECK(r.options.changes.azure_exchange_into[0].payment == Payment::no_upfront);
        CHECK(r.held_out == 100);
        CHECK(r.hindsight_bound.value());
        CHECK(r.cvar95_limits == std::vector<double>{1e6, 2e6});
        CHECK_FALSE(r.hold_cvar95_limit.value());
        CHECK(r.baseline_term_years.value() == 3);
        CHECK(r.baseline_payment.value() == Payment::partial_upfront);
        CHECK(r.history_from_demand);
    }
}

TEST_CASE("recommend section errors name the file, line, column, field, value and rule") {
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  review_month: 3\n"), "rec.yaml"),
                         "rec.yaml:15:3: recommend.review_month = 3: unknown key; did you mean \"review_months\"?",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  review_months: six\n"), "rec.yaml"),
                         "rec.yaml:15:18: recommend.review_months = \"six\": must be an integer", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  review_months: 0\n"), "rec.yaml"),
                         "rec.yaml:15:18: recommend.review_months = 0: must be in [1, 1000000]", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  limits: {capacity_assurance: 1.5}\n"), "rec.yaml"),
                         "rec.yaml:15:32: recommend.limits.capacity_assurance = 1.5: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_recommend("  commitments: [{term_years: 2, payment: no_upfront}]\n"), "rec.yaml"),
        "rec.yaml:15:30: recommend.commitments[0].term_years = 2: must be 1 or 3", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  spot: [{name: s, overhead: 0.5}]\n"), "rec.yaml"),
                         "rec.yaml:15:30: recommend.spot[0].overhead = 0.5: must be >= 1", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  on_demand_capacity: {unavailable_share: 1}\n"), "rec.yaml"),
                         "rec.yaml:15:23: recommend.on_demand_capacity.unavailable_share = 1: must be in [0, 1)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  objective: cheapest\n"), "rec.yaml"),
                         "rec.yaml:15:14: recommend.objective = \"cheapest\": must be one of expected_total, expected_npv",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  hindsight_bound: yes\n"), "rec.yaml"),
                         "rec.yaml:15:20: recommend.hindsight_bound = \"yes\": must be one of true, false", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  capacity_blocks: {kind: calendar}\n"), "rec.yaml"),
                         "rec.yaml:15:27: recommend.capacity_blocks.kind = \"calendar\": must be one of "
                         "aws_capacity_block, gcp_calendar_mode",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  flex_start: {discount: 1}\n"), "rec.yaml"),
                         "rec.yaml:15:15: recommend.flex_start.discount = 1: must be in [0, 1) (off the on-demand price)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  flex_start: {grant_probability: 0}\n"), "rec.yaml"),
                         "rec.yaml:15:15: recommend.flex_start.grant_probability = 0: must be in (0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  flex_start: {grant: 0.5}\n"), "rec.yaml"),
                         "rec.yaml:15:16: recommend.flex_start.grant = 0.5: unknown key (allowed: discount, grant_probability)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  held: [{count: 2, start_month: -6}]\n"), "rec.yaml"),
                         "rec.yaml:15:10: recommend.held[0].end_month = (missing): required", InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_recommend("  held_savings_plans: [{commitment_per_hour: 4, type: aws_compute, term_years: 1, "
                                      "payment: no_upfront, start_month: 0}]\n"),
                       "rec.yaml"),
        "rec.yaml:15:117: recommend.held_savings_plans[0].start_month = 0: must be in [-1000000, -1] (bought before "
        "the horizon)",
        InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_recommend("  held_savings_plans: [{commitment_per_hour: 4, type: aws_compute, term_years: 1, "
                                      "payment: no_upfront, start_month: -3, renewal: renew}]\n"),
                       "rec.yaml"),
        "rec.yaml:15:121: recommend.held_savings_plans[0].renewal = \"renew\": unknown key (allowed: "
        "commitment_per_hour, type, term_years, payment, start_month, rate_per_gpu_hour)",
        InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  changes: {resale_price_share: 1.5}\n"), "rec.yaml"),
                         "rec.yaml:15:12: recommend.changes.resale_price_share = 1.5: must be in [0, 1] (of the prorated "
                         "upfront left)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_recommend("  changes: {exchange_into: [{term_months: 3, payment: no_upfront}]}\n"), "rec.yaml"),
        "rec.yaml:15:12: recommend.changes.exchange_into[0].term_months = 3: must be 0 (a convertible reservation is "
        "exchanged for a term of years)",
        InvalidInput);
    CHECK_THROWS_WITH_AS(
        parse_scenario(with_recommend("  changes: {azure_exchange_into: [{term_months: 1, payment: no_upfront}]}\n"),
                       "rec.yaml"),
        "rec.yaml:15:12: recommend.changes.azure_exchange_into[0].term_months = 1: must be 0 (an Azure reservation is "
        "exchanged for a term of years)",
        InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  changes: {refund: yes}\n"), "rec.yaml"),
                         "rec.yaml:15:21: recommend.changes.refund = \"yes\": must be one of true, false", InvalidInput);
    // Two errors of one section, each at its place.
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  max_blocks: 800\n  baselines: {history: past}\n"), "rec.yaml"),
                         "rec.yaml:15:15: recommend.max_blocks = 800: must be in [1, 730]\n"
                         "rec.yaml:16:24: recommend.baselines.history = \"past\": must be one of demand, none",
                         InvalidInput);
    // Held-out futures are drawn from the futures' model.
    std::string no_futures = with_recommend("  held_out: 10\n");
    no_futures.erase(no_futures.find("futures:"), no_futures.find("recommend:") - no_futures.find("futures:"));
    CHECK_THROWS_WITH_AS(parse_scenario(no_futures, "rec.yaml"),
                         "rec.yaml:10:13: recommend.held_out = 10: needs futures: held-out futures are drawn from their model",
                         InvalidInput);
}

TEST_CASE("without futures the recommendation is fitted to the scenario's demand as its one future") {
    std::string text = with_recommend("  commitments: [{term_years: 1, payment: no_upfront}]\n");
    text.erase(text.find("futures:"), text.find("recommend:") - text.find("futures:"));
    const Scenario s = parse_scenario(text, "rec.yaml");
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.recommend != nullptr);
    const Offering& a2 = Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1");
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront}};
    const RecommendStudy direct =
        run_recommend_study(DemandFutures::from_profile(DemandProfile::constant(8, Horizon::months(24))), a2, options);
    CHECK(describe(r.recommend->recommendation.plan) == describe(direct.recommendation.plan));
    CHECK(r.recommend->judged.total.mean == direct.judged.total.mean);
    CHECK_FALSE(r.recommend->held_out);
}

TEST_CASE("owned hardware in a recommend section: recommend_plan's plan with the same OwnedOption") {
    std::string text = with_recommend(
        "  commitments: [{term_years: 1, payment: no_upfront}]\n"
        "  owned: {terms: {capex_per_gpu: 12000, life_years: 3, residual_fraction: 0.2}, max_gpus: 16, step_gpus: 8}\n");
    const Scenario s = parse_scenario(text, "rec.yaml");
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.recommend != nullptr);
    const DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.05};
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront}};
    Owned terms;
    terms.capex_per_gpu = 12000;
    terms.life_years = 3;
    terms.residual_fraction = 0.2;
    options.owned = OwnedOption{.terms = terms, .max_gpus = 16, .step_gpus = 8};
    const Recommendation direct = recommend_plan(DemandFutures::generate(model, Horizon::months(24), 30, 5),
                                                 Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1"), options);
    CHECK(describe(r.recommend->recommendation.plan) == describe(direct.plan));
    CHECK(r.recommend->recommendation.in_sample.total.mean == direct.in_sample.total.mean);
    CHECK(r.recommend->recommendation.candidates.size() == direct.candidates.size());
    CHECK_THROWS_WITH_AS(parse_scenario(with_recommend("  owned: {terms: {capex_per_gpu: 1}, max_gpus: 8, months: []}\n"),
                                        "rec.yaml"),
                         "rec.yaml:15:59: recommend.owned.months = [...]: must have at least one month", InvalidInput);
}

TEST_CASE("flex-start and a calendar-mode block in a recommend section: the study's answer with the same options and seed") {
    // A 10-day window of 16 more GPUs from day 40 over 8 steady ones (a2-highgpu-8g on demand, 8 GPUs an
    // instance); requests at 60% off granted with probability 0.6, drawn from the scenario's seed. At $20
    // an instance-hour the calendar-mode block wins the window, at $26 the request does.
    for (const double block_price : {20.0, 26.0}) {
        CAPTURE(block_price);
        std::string text = with_recommend(fmt::format(
            "  commitments: [{{term_years: 1, payment: no_upfront}}]\n"
            "  capacity_blocks: {{price_per_instance_hour: {}, kind: gcp_calendar_mode}}\n"
            "  flex_start: {{discount: 0.6, grant_probability: 0.6}}\n", block_price));
        text.insert(text.find("recommend:"), "demand_windows: [{start_day: 40, days: 10, gpus: 16}]\n");
        const Scenario s = parse_scenario(text, "rec.yaml");
        const ScenarioResult r = run_scenario(s);
        REQUIRE(r.recommend != nullptr);

        const DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.05};
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 30, 5);
        const Offering& a2 = Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1");
        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::no_upfront}};
        options.capacity_blocks = CapacityBlockOption{.price_per_instance_hour = block_price, .kind = BlockKind::gcp_calendar_mode};
        options.flex_start = FlexStartOption{.discount = 0.6, .grant_probability = 0.6};
        options.plan_options.windows = {{.start_day = 40, .days = 10, .gpus = 16}};
        options.plan_options.seed = 5;
        const RecommendStudy direct = run_recommend_study(futures, a2, options);

        const RecommendStudy& got = *r.recommend;
        CHECK(describe(got.recommendation.plan) == describe(direct.recommendation.plan));
        CHECK(got.recommendation.solver_objective == direct.recommendation.solver_objective);
        check_same(got.judged.total, direct.judged.total);
        REQUIRE(got.baselines.size() == direct.baselines.size());
        for (std::size_t i = 0; i < got.baselines.size(); ++i) {
            CAPTURE(i);
            CHECK(got.baselines[i].plan == direct.baselines[i].plan);
            check_same(got.baselines[i].total, direct.baselines[i].total);
        }
        const Plan& plan = got.recommendation.plan;
        if (block_price == 20.0) {
            REQUIRE(plan.capacity_blocks.size() == 1);
            CHECK(plan.capacity_blocks[0].kind == BlockKind::gcp_calendar_mode);
            CHECK(plan.flex_starts.empty());
        } else {
            REQUIRE(plan.flex_starts.size() == 1);
            CHECK(plan.flex_starts[0].grant_probability == 0.6);
            CHECK(plan.capacity_blocks.empty());
            // Another seed draws other grants: the section's answer is its own seed's.
            options.plan_options.seed = 6;
            CHECK(run_recommend_study(futures, a2, options).judged.total.mean != got.judged.total.mean);
        }
    }
}

TEST_CASE("reservations already held in a recommend section: recommend_plan's plan with the same held") {
    const Scenario s = parse_scenario(with_recommend(
        "  commitments: [{term_years: 1, payment: no_upfront}]\n"
        "  held: [{count: 8, start_month: -6, end_month: 6, hourly_per_gpu: 1.2}]\n"), "rec.yaml");
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.recommend != nullptr);
    const DemandModel model{.base_gpus = 8, .monthly_log_growth = 0.02, .monthly_log_volatility = 0.05};
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront}};
    options.held = {HeldCommitment{.count = 8, .start_month = -6, .end_month = 6, .hourly_per_gpu = 1.2}};
    const DemandFutures futures = DemandFutures::generate(model, Horizon::months(24), 30, 5);
    const Offering& a2 = Catalog::builtin().offering("gcp", "a2-highgpu-8g", "us-central1");
    const Recommendation direct = recommend_plan(futures, a2, options);
    CHECK(describe(r.recommend->recommendation.plan) == describe(direct.plan));
    CHECK(r.recommend->recommendation.in_sample.total.mean == direct.in_sample.total.mean);
    REQUIRE(r.recommend->recommendation.plan.held.size() == 1);  // every plan holds them
    // Holding them changes the answer: the same section without them.
    options.held.clear();
    CHECK(recommend_plan(futures, a2, options).in_sample.total.mean != direct.in_sample.total.mean);
}
