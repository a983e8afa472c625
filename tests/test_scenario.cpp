#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <string>

#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

/// A small valid scenario; each error case below changes one line of it (line numbers matter).
std::string base(std::string_view line16 = "      term_years: 3", std::string_view line10 = "  gpus: 8") {
    return fmt::format(
        "version: 1\n"                     // 1
        "name: t\n"                        // 2
        "horizon_months: 12\n"             // 3
        "offering:\n"                      // 4
        "  provider: aws\n"                // 5
        "  instance_type: p4d.24xlarge\n"  // 6
        "  region: us-east-1\n"            // 7
        "demand:\n"                        // 8
        "  kind: constant\n"               // 9
        "{}\n"                             // 10
        "strategies:\n"                    // 11
        "  - name: od\n"                   // 12
        "    on_demand: {{}}\n"            // 13
        "  - name: r\n"                    // 14
        "    reserved:\n"                  // 15
        "{}\n"                             // 16
        "      payment: all_upfront\n",    // 17
        line10, line16);
}

using test::example;

}  // namespace

TEST_CASE("a valid scenario loads with the values written") {
    const Scenario s = parse_scenario(base(), "plan.yaml");
    CHECK(s.horizon_months == 12);
    CHECK(s.offering.instance_type == "p4d.24xlarge");
    CHECK(s.demand.gpus == 8);
    REQUIRE(s.strategies.size() == 2);
    CHECK(std::get<Reserved>(s.strategies[1].strategy).term_years == 3);
    CHECK(std::get<Reserved>(s.strategies[1].strategy).payment == Payment::all_upfront);
    CHECK(s.units == Units::instances);  // the library's default
}

TEST_CASE("every class of schema violation names file, line, column, field, value and rule") {
    // out of range: the value "2" starts at column 19 of line 16 ("      term_years: " is 18 characters)
    CHECK_THROWS_WITH_AS(parse_scenario(base("      term_years: 2"), "plan.yaml"),
                         "plan.yaml:16:19: strategies[1].reserved.term_years = 2: must be 1 or 3", InvalidInput);
    // wrong type: "eight" at column 9 of line 10 ("  gpus: " is 8 characters)
    CHECK_THROWS_WITH_AS(parse_scenario(base("      term_years: 3", "  gpus: eight"), "plan.yaml"),
                         "plan.yaml:10:9: demand.gpus = \"eight\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(base("      term_years: 1.5"), "plan.yaml"),
                         "plan.yaml:16:19: strategies[1].reserved.term_years = 1.5: must be an integer", InvalidInput);
    // unknown key, located at the key, with the nearest allowed name
    CHECK_THROWS_WITH_AS(parse_scenario(base("      term_year: 3"), "plan.yaml"),
                         "plan.yaml:16:7: strategies[1].reserved.term_year = 3: unknown key; did you mean \"term_years\"?",
                         InvalidInput);
    // missing field: reported at the mapping that lacks it (its first key, line 16 column 7)
    CHECK_THROWS_WITH_AS(parse_scenario(base("      renewal: renew"), "plan.yaml"),
                         "plan.yaml:16:7: strategies[1].reserved.term_years = (missing): required", InvalidInput);
    // duplicate key, at the second occurrence, naming the first
    CHECK_THROWS_WITH_AS(parse_scenario(base("      term_years: 3", "  gpus: 8\n  gpus: 9"), "plan.yaml"),
                         "plan.yaml:11:3: demand.gpus = 9: duplicate key (first at line 10)", InvalidInput);
}

TEST_CASE("a scenario file without end is refused at the size limit; a folder is said to be one") {
    if (std::filesystem::exists("/dev/zero")) {
        CHECK_THROWS_WITH_AS(load_scenario("/dev/zero"), "/dev/zero = 16842752: bytes: more than the limit of 16777216 (max_bytes)",
                             InvalidInput);
    }
    const std::string folder = std::filesystem::temp_directory_path().string();
    CHECK_THROWS_WITH_AS(load_scenario(folder), ("path = \"" + folder + "\": is a directory, not a file").c_str(), InvalidInput);
}

TEST_CASE("a YAML alias bomb is refused before it is read") {
    // "Billion laughs": 9 levels of 10 aliases stand for 10^9 nodes in 1 KB; reading ran past 20 s.
    std::string text = "version: 1\nx0: &x0 [a, a, a, a, a, a, a, a, a, a]\n";
    for (int level = 1; level <= 9; ++level) {
        text += fmt::format("x{}: &x{} [", level, level);
        for (int k = 0; k < 10; ++k) text += fmt::format("{}*x{}", k ? ", " : "", level - 1);
        text += "]\n";
    }
    CHECK_THROWS_WITH_AS(parse_scenario(text, "bomb.yaml"),
                         "bomb.yaml:8:45: yaml nodes = 10123465: more than the limit of 10000000 with aliases expanded",
                         InvalidInput);
}

TEST_CASE("misspelt choices, unknown offerings, bad dates and YAML syntax errors") {
    std::string text = base();
    text.replace(text.find("payment: all_upfront"), 20, "payment: all_upfrnt");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"),
                         "plan.yaml:17:16: strategies[1].reserved.payment = \"all_upfrnt\": must be one of no_upfront, "
                         "partial_upfront, all_upfront; did you mean \"all_upfront\"?",
                         InvalidInput);

    text = base();
    text.replace(text.find("p4d.24xlarge"), 12, "p4d.24xlarg");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"),
                         "plan.yaml:5:3: offering = \"aws/us-east-1/p4d.24xlarg\": not in the catalog; did you mean "
                         "\"aws/us-east-1/p4d.24xlarge\"?",
                         InvalidInput);
    // Bytes that are no UTF-8 in the name are shown escaped (found by fuzz_scenario).
    text = base();
    text.replace(text.find("p4d.24xlarge"), 12, "p4d\x7F\xFF.24xlarge");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "plan.yaml"),
                         "plan.yaml:5:3: offering = \"aws/us-east-1/p4d\\x7F\\xFF.24xlarge\": not in the catalog; did you "
                         "mean \"aws/us-east-1/p4d.24xlarge\"?",
                         InvalidInput);

    // An inline catalog row with an impossible date (there is no 13th month, no 30 February).
    const std::string row =
        "catalog:\n"
        "  offerings:\n"
        "    - {provider: aws, region: us-east-1, instance_type: p4d.24xlarge, gpu: A100-40GB,\n"
        "       gpus_per_instance: 8, on_demand_hourly: 30, source: {name: quote, as_of: \"2025-13\"}}\n";
    // Line 21 is 7 spaces + "gpus_per_instance: 8, on_demand_hourly: 30, source: {name: quote, as_of: "
    // (73 characters): the value starts at column 81.
    CHECK_THROWS_WITH_AS(parse_scenario(base() + row, "plan.yaml"),
                         "plan.yaml:21:81: catalog.offerings[0].source.as_of = \"2025-13\": must be a date YYYY-MM or "
                         "YYYY-MM-DD",
                         InvalidInput);
    std::string feb = row;
    feb.replace(feb.find("2025-13"), 7, "2025-02-30");
    CHECK_THROWS_AS(parse_scenario(base() + feb, "plan.yaml"), InvalidInput);
    std::string good = row;
    good.replace(good.find("2025-13"), 7, "2024-02-29");  // a leap day
    CHECK(parse_scenario(base() + good, "plan.yaml").offerings.at(0).source.as_of == "2024-02-29");

    // YAML syntax: an unclosed flow sequence; yaml-cpp reports the line where it gave up.
    CHECK_THROWS_WITH_AS(parse_scenario(base("      term_years: 3", "  gpus: [8"), "plan.yaml"),
                         "plan.yaml:11:11: yaml = \"strategies:\": syntax error: end of sequence flow not found",
                         InvalidInput);
    // A syntax error shows the line yaml-cpp stopped at as printable UTF-8, and so does a value holding
    // control bytes ("\x01" is a YAML escape): found by fuzz_scenario (fuzz/findings/scenario-*).
    CHECK_THROWS_WITH_AS(parse_scenario("a: [\xff\x01", "plan.yaml"),
                         "plan.yaml:1:1: yaml = \"a: [\\xFF\\x01\": syntax error: end of sequence flow not found", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario("version: \"1\\x01\"\n", "plan.yaml"),
                         "plan.yaml:1:10: version = \"1\\x01\": must be an integer", InvalidInput);
    // Library rules keep the library's message, prefixed with where the section is.
    CHECK_THROWS_WITH_AS(parse_scenario(base() + "discounts: {voucher_price_factor: 1.5}\n", "plan.yaml"),
                         "plan.yaml:18:12: discounts.voucher_price_factor = 1.5: must be in (0, 1]", InvalidInput);
    // The discount rate has the library's range: 5 (for 5%) is an error, not a 500% rate.
    CHECK_THROWS_WITH_AS(parse_scenario(base() + "annual_discount_rate: 5\n", "plan.yaml"),
                         "plan.yaml:18:23: annual_discount_rate = 5: must be in [-0.5, 1] (a fraction a year: 0.05 "
                         "for 5%)",
                         InvalidInput);
}

TEST_CASE("JSON with the same schema reads to the same scenario") {
    const std::string json = R"({"version": 1, "name": "t", "horizon_months": 12,
        "offering": {"provider": "aws", "instance_type": "p4d.24xlarge", "region": "us-east-1"},
        "demand": {"kind": "constant", "gpus": 8},
        "strategies": [{"name": "od", "on_demand": {}},
                       {"name": "r", "reserved": {"term_years": 3, "payment": "all_upfront"}}]})";
    CHECK(to_yaml(parse_scenario(json, "plan.json")) == to_yaml(parse_scenario(base(), "plan.yaml")));
    // The second "version" starts at column 16 of line 1. (The rest of the file is read too, every
    // error reported, so the rest is a good scenario: the duplicate is its one error.)
    std::string duplicate = json;
    duplicate.insert(std::string_view(R"({"version": 1, )").size(), R"("version": 1, )");
    CHECK_THROWS_WITH_AS(parse_scenario(duplicate, "plan.json"),
                         "plan.json:1:16: version = 1: duplicate key (first at line 1)", InvalidInput);
    // Keys missing beside it are errors of their own.
    CHECK_THROWS_WITH_AS(parse_scenario(R"({"version": 1, "version": 1, "name": "t", "horizon_months": 12,
        "offering": {"provider": "aws", "instance_type": "p4d.24xlarge"}, "demand": {"kind": "constant", "gpus": 8}})",
                                        "plan.json"),
                         "plan.json:1:1: strategies = (missing): required\n"
                         "plan.json:1:16: version = 1: duplicate key (first at line 1)",
                         InvalidInput);
}

TEST_CASE("every example scenario reads back from its written form, with the same figures") {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(GPUTCO_SOURCE_DIR) + "/examples/scenarios")) {
        if (entry.path().extension() != ".yaml") continue;  // data/ holds the files scenarios read
        CAPTURE(entry.path().string());
        const Scenario first = load_scenario(entry.path().string());
        const std::string written = to_yaml(first);
        // written beside the first, so that the files it names (catalog, traces) resolve the same way
        const Scenario second = parse_scenario(written, first.base_dir + "/written.yaml");
        CHECK(to_yaml(second) == written);
        const ScenarioResult a = run_scenario(first), b = run_scenario(second);
        REQUIRE(a.strategies.size() == b.strategies.size());
        for (std::size_t i = 0; i < a.strategies.size(); ++i) {
            CHECK(a.strategies[i].report.total == b.strategies[i].report.total);
            CHECK(a.strategies[i].report.npv == b.strategies[i].report.npv);
        }
        REQUIRE(a.spot_jobs.size() == b.spot_jobs.size());
        for (std::size_t i = 0; i < a.spot_jobs.size(); ++i) CHECK(a.spot_jobs[i].result.cost.mean == b.spot_jobs[i].result.cost.mean);
        REQUIRE(a.plans.size() == b.plans.size());
        for (std::size_t i = 0; i < a.plans.size(); ++i) CHECK(a.plans[i].total.mean == b.plans[i].total.mean);
        REQUIRE(a.workloads.size() == b.workloads.size());
        for (std::size_t i = 0; i < a.workloads.size(); ++i) {
            REQUIRE(a.workloads[i].ranking.rows.size() == b.workloads[i].ranking.rows.size());
            for (std::size_t j = 0; j < a.workloads[i].ranking.rows.size(); ++j)
                CHECK(a.workloads[i].ranking.rows[j].cost_per_run == b.workloads[i].ranking.rows[j].cost_per_run);
        }
    }
}

/// A random `recommend` section (and futures for its held-out ones), drawn from its own stream so that the
/// other fields' draws stay as they were.
static void add_random_recommend(Scenario& s, std::uint64_t n) {
    std::mt19937_64 rng(1000 + n);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    RecommendSpec r;
    RecommendOptions& o = r.options;
    const Payment payments[] = {Payment::no_upfront, Payment::partial_upfront, Payment::all_upfront};
    for (int i = int(rng() % 3); i > 0; --i) {
        CommitmentOption c{.term_years = rng() % 2 ? 1 : 3, .payment = payments[rng() % 3]};
        if (rng() % 3 == 0) c.term_months = 3;
        if (rng() % 2) c.reservation_discount = unit(rng) * 0.9;
        o.commitments.push_back(c);
    }
    if (rng() % 2) o.start_months = {0, int(rng() % std::uint64_t(s.horizon_months))};
    o.review_months = 1 + int(rng() % 12);
    o.unit = rng() % 2 ? CountUnit::gpus : CountUnit::instances;
    o.max_count = unit(rng) * 1000;
    if (rng() % 2) o.savings_plans.push_back({SavingsPlanType::aws_ec2_instance, 1, payments[rng() % 3], unit(rng) * 5 + 0.1});
    if (rng() % 2) o.capacity_blocks = CapacityBlockOption{.lead_days = int(rng() % 57), .price_per_instance_hour = unit(rng) * 40 + 1};
    if (rng() % 2) o.spot.push_back({.name = "spot \"a\"", .overhead = 1 + unit(rng), .availability = unit(rng)});
    if (rng() % 2) {
        Owned terms;
        terms.capex_per_gpu = unit(rng) * 30000;
        terms.life_years = 1 + int(rng() % 10);
        o.owned = OwnedOption{.terms = terms, .months = {0, int(rng() % std::uint64_t(s.horizon_months))},
                              .max_gpus = int(rng() % 64), .step_gpus = 1 + int(rng() % 8)};
    }
    o.objective = rng() % 2 ? Objective::expected_total : Objective::expected_npv;
    if (rng() % 2) o.limits.cvar95 = unit(rng) * 1e7;
    if (rng() % 2) o.limits.upfront_per_period = unit(rng) * 1e6;
    o.limits.upfront_period_months = 1 + int(rng() % 12);
    if (rng() % 2) o.limits.committed_share = unit(rng);
    if (rng() % 2) o.limits.capacity_assurance = unit(rng);
    o.on_demand_capacity.unavailable_share = unit(rng) * 0.5;
    o.max_blocks = 1 + int(rng() % 730);
    o.time_limit_seconds = 0.5 + unit(rng) * 100;
    if (rng() % 2) {
        r.held_out = 1 + rng() % 500;
        s.futures = FuturesSpec{.model = {.base_gpus = unit(rng) * 50, .monthly_log_growth = unit(rng) * 0.05}, .count = 10};
    }
    if (rng() % 2) r.hindsight_bound = rng() % 2 == 0;
    if (rng() % 2) r.hold_cvar95_limit = rng() % 2 == 0;
    if (rng() % 2) r.cvar95_limits = {unit(rng) * 1e7, unit(rng) * 1e7};
    if (rng() % 2) r.baseline_term_years = 3;
    if (rng() % 2) r.baseline_payment = payments[rng() % 3];
    r.history_from_demand = rng() % 2 == 0;
    s.recommend = r;
}

TEST_CASE("random scenarios round-trip through YAML exactly") {
    std::mt19937_64 rng(14);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int n = 0; n < 300; ++n) {
        Scenario s;
        s.name = fmt::format("random {}", n);
        s.horizon_months = 1 + int(rng() % 60);
        s.annual_discount_rate = unit(rng) * 0.2;
        s.units = rng() % 2 ? Units::gpus : Units::instances;
        s.seed = rng() >> 1;
        s.offering = {"aws", "p4d.24xlarge", "us-east-1"};
        const int kind = int(rng() % 3);
        s.demand.kind = kind == 0 ? "constant" : kind == 1 ? "linear_growth" : "compound_growth";
        s.demand.gpus = unit(rng) * 100;
        s.demand.start_gpus = unit(rng) * 100;
        s.demand.end_gpus = unit(rng) * 100;
        s.demand.annual_growth_rate = unit(rng) - 0.5;
        if (kind != 0) s.demand.gpus = 0;
        if (kind != 1) s.demand.end_gpus = 0;
        if (kind != 2) s.demand.annual_growth_rate = 0;
        if (kind == 0) s.demand.start_gpus = 0;
        s.discounts.on_demand_discount = unit(rng) * 0.5;
        s.discounts.voucher_price_factor = 0.5 + unit(rng) * 0.5;
        const double f = unit(rng);
        Mix mix{{{f, Reserved{.term_years = 3, .payment = Payment::partial_upfront, .reservation_discount = unit(rng) * 0.9}},
                 {1 - f, OnDemand{}}},
                unit(rng) * 50,
                Rounding::none};
        if (std::abs(f + (1 - f) - 1.0) > 1e-9) continue;
        s.strategies.push_back({"mix", mix, {"", ""}});
        s.strategies.push_back({"od", OnDemand{}, {}});
        if (n % 2 == 0) add_random_recommend(s, std::uint64_t(n));
        const std::string written = to_yaml(s);
        CAPTURE(written);
        CHECK(to_yaml(parse_scenario(written, "random.yaml")) == written);
    }
}

TEST_CASE("the A100 example scenario gives the seeds' figures through evaluate()") {
    const Scenario s = load_scenario(example("a100_three_year.yaml"));
    const ScenarioResult r = run_scenario(s);
    REQUIRE(r.strategies.size() == 3);
    // 3-year reservation at 52% off: saves 52%; 70% of it + 30% on-demand saves 0.7 × 52% = 36.4%.
    CHECK(r.strategies[1].report.savings_fraction == doctest::Approx(0.52).epsilon(1e-12));
    CHECK(r.strategies[2].report.savings_fraction == doctest::Approx(0.364).epsilon(1e-12));
    // The same call made by hand gives the same numbers bit for bit.
    EvaluationOptions options;
    options.units = Units::gpus;
    const Offering& azure = Catalog::builtin().offering("azure", "Standard_ND96asr_v4", "eastus");
    const CostReport direct = evaluate(Reserved{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52},
                                       DemandProfile::constant(8, Horizon::years(3)), azure, options);
    CHECK(r.strategies[1].report.total == direct.total);
    // On demand: 8 GPUs × 26,280 h × the catalog's per-GPU price.
    CHECK(r.strategies[0].report.total == doctest::Approx(8 * 26280 * azure.on_demand_per_gpu_hour()).epsilon(1e-12));
}

TEST_CASE("a spot tranche that names a spot job takes its overhead from the seeded simulation") {
    const Scenario s = load_scenario(example("spot_training_job.yaml"));
    const ScenarioResult a = run_scenario(s), b = run_scenario(s);
    REQUIRE(a.spot_jobs.size() == 1);
    CHECK(a.spot_jobs[0].result.cost.mean == b.spot_jobs[0].result.cost.mean);  // same seed, same numbers
    REQUIRE(a.strategies[1].report.spread.has_value());
    CHECK(a.strategies[1].report.spread->p95 >= a.strategies[1].report.spread->p50);
}
