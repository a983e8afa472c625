// Issue 24's disagreements between the front doors, each as a regression: the scenario runner, the
// application layer (app/) and the engines give one answer for the same question.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "gputco/app/columns.hpp"
#include "gputco/app/spot_job.hpp"
#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/cost.hpp"
#include "gputco/scenario/scenario.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

/// An offering billed per whole hour with a spot price, as in the issue (#2).
std::string hourly_offering_yaml(int gpus = 1) {
    return fmt::format(
        "catalog:\n"
        "  offerings:\n"
        "    - {{provider: test, region: r1, instance_type: hourly, gpu: A100-40GB, gpus_per_instance: {},\n"
        "       on_demand_hourly: {}, spot_hourly: {}, billing_increment_seconds: 3600,\n"
        "       source: {{name: test, as_of: \"2025-01\"}}}}\n",
        gpus, 4.0 * gpus, 1.5 * gpus);
}

std::string spot_scenario(const std::string& interruptions, const std::string& catalog) {
    return "version: 1\n"
           "name: spot\n"
           "horizon_months: 1\n"
           "seed: 3\n"
           "offering: {provider: test, instance_type: hourly, region: r1}\n"
           "demand: {kind: constant, gpus: 1}\n" +
           catalog +
           "spot_jobs:\n"
           "  - name: job\n"
           "    work_hours: 10\n"
           "    checkpoint_write_hours: 0.05\n" +
           interruptions + "    paths: 4000\n";
}

}  // namespace

TEST_CASE("issue 24 #2: a scenario's spot job is billed by its offering's increment, as run_spot_job and simulate_spot") {
    const Scenario s = parse_scenario(spot_scenario("    checkpoint_interval_hours: 1\n    mtbf_hours: 3\n",
                                                    hourly_offering_yaml()));
    const ScenarioResult result = run_scenario(s);
    REQUIRE(result.spot_jobs.size() == 1);
    const SpotJobResult& from_file = result.spot_jobs[0];
    CHECK(from_file.pricing.billing_increment_hours == 1.0);

    const Offering o = scenario_catalog(s).offering("test", "hourly", "r1");
    const Job job{.work_hours = 10, .checkpoint_interval_hours = 1, .checkpoint_write_hours = 0.05};
    const SpotResult direct =
        simulate_spot(job, Poisson{.mtbf_hours = 3}, SpotPricing::from_offering(o), {.paths = 4000, .seed = 3});
    CHECK(from_file.result.cost.mean == direct.cost.mean);  // bit for bit: the same run
    CHECK(from_file.result.charged_hours.mean == direct.charged_hours.mean);

    SpotJobRequest request{.job = job, .model = Poisson{.mtbf_hours = 3}};
    request.prices.offering = o;
    request.options.paths = 4000;
    request.options.seed = 3;
    CHECK(run_spot_job(request).result.cost.mean == direct.cost.mean);

    // Billing per whole hour costs more than the continuous billing the runner used to apply.
    SpotPricing continuous = SpotPricing::from_offering(o);
    continuous.billing_increment_hours = 0;
    const SpotResult unrounded = simulate_spot(job, Poisson{.mtbf_hours = 3}, continuous, {.paths = 4000, .seed = 3});
    CHECK(direct.cost.mean > unrounded.cost.mean + 4 * unrounded.cost.standard_error);
}

TEST_CASE("issue 24 #5: a Weibull job without a checkpoint interval runs everywhere, at the optimal interval for its mean lifetime") {
    const Weibull weibull{.shape = 0.7, .scale_hours = 5};
    const double mean = 5 * std::tgamma(1 + 1 / 0.7);
    CHECK(mean_lifetime_hours(weibull).value() == Approx(mean));
    const double expected = optimal_checkpoint_interval(0.05, mean);
    CHECK(checkpoint_interval_or_default(0, 0.05, weibull) == expected);
    CHECK(checkpoint_interval_or_default(2, 0.05, weibull) == 2);

    SpotJobRequest request{.job = {.work_hours = 10, .checkpoint_write_hours = 0.05}, .model = weibull};
    request.prices.price_per_hour = 1.5;
    request.options.paths = 2000;
    request.options.seed = 3;
    const SpotJobRun run = run_spot_job(request);
    CHECK(run.checkpoint_interval_hours == expected);

    const Scenario s = parse_scenario(spot_scenario(
        "    interruptions: {weibull: {shape: 0.7, scale_hours: 5}}\n    price_per_gpu_hour: 1.5\n", hourly_offering_yaml()));
    const ScenarioResult result = run_scenario(s);
    CHECK(result.spot_jobs.at(0).checkpoint_interval_hours == expected);

    // The price-driven model has no mean lifetime: the interval must be given.
    CHECK_THROWS_WITH_AS(checkpoint_interval_or_default(0, 0.05, PriceDriven{}),
                         "job.checkpoint_interval_hours = 0: must be given for a model without a mean lifetime "
                         "(price-driven)",
                         InvalidInput);
}

TEST_CASE("issue 24 #4: one rule for GPUs per instance, in catalog JSON, in a scenario and in Offering::validate") {
    const std::string row72 =
        R"({"gpus": [], "offerings": [{"provider": "test", "region": "r1", "instance_type": "hourly", "gpu": "A100-40GB",
            "gpus_per_instance": 72, "on_demand_hourly": 288, "spot_hourly": 108,
            "source": {"name": "test", "as_of": "2025-01"}}]})";
    CHECK(Catalog::from_json(row72).offerings().at(0).gpus_per_instance == 72);
    const Scenario s = parse_scenario(spot_scenario("    mtbf_hours: 3\n", hourly_offering_yaml(72)));
    CHECK(s.offerings.at(0).gpus_per_instance == 72);
    CHECK(run_scenario(s).spot_jobs.size() == 1);

    std::string too_many = row72;
    too_many.replace(too_many.find("72"), 2, "1025");
    CHECK_THROWS_WITH_AS(Catalog::from_json(too_many), "offerings[0].gpus_per_instance = 1025: must be in [1, 1024]",
                         InvalidInput);
    const std::string text = spot_scenario("    mtbf_hours: 3\n", hourly_offering_yaml(1025));
    CHECK_THROWS_WITH_AS(parse_scenario(text, "s.yaml"),
                         "s.yaml:9:94: catalog.offerings[0].gpus_per_instance = 1025: must be in [1, 1024]",
                         InvalidInput);
    Offering o = s.offerings.at(0);
    o.gpus_per_instance = 1025;
    CHECK_THROWS_WITH_AS(o.validate(), "offering.gpus_per_instance = 1025: must be in [1, 1024]", InvalidInput);
}

TEST_CASE("issue 24 #7: a mix's rounding has one default, and the report says which rounding it used") {
    const Offering nd96 = Catalog::builtin().offering("azure", "Standard_ND96asr_v4", "eastus");
    const Reserved three_years{.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.52};
    const DemandProfile demand = DemandProfile::constant(8, Horizon::months(36));
    EvaluationOptions gpus;
    gpus.units = Units::gpus;
    const std::string file =
        "version: 1\nname: t\nhorizon_months: 36\nunits: gpus\n"
        "offering: {provider: azure, instance_type: Standard_ND96asr_v4, region: eastus}\n"
        "demand: {kind: constant, gpus: 8}\n"
        "strategies:\n"
        "  - name: 70/30\n"
        "    mix:\n"
        "      tranches:\n"
        "        - {fraction: 0.7, reserved: {term_years: 3, payment: all_upfront, discount: 0.52}}\n"
        "        - {fraction: 0.3, on_demand: {}}\n";
    const Scenario s = parse_scenario(file);
    const Mix& from_file = std::get<Mix>(s.strategies.at(0).strategy);
    CHECK(from_file.rounding == Mix{}.rounding);  // the file's default is the library's
    const Mix built{.tranches = {{0.7, three_years}, {0.3, OnDemand{}}}};
    const CostReport direct = evaluate(built, demand, nd96, gpus);
    const CostReport run = run_scenario(s).strategies.at(0).report;
    CHECK(run.savings_fraction == direct.savings_fraction);
    CHECK(direct.savings_fraction == Approx(0.390).epsilon(0.001));  // 5.6 GPUs rounded to 6: 6/8 x 52%
    const auto says = [](const CostReport& r, const std::string& line) {
        return std::find(r.assumptions.begin(), r.assumptions.end(), line) != r.assumptions.end();
    };
    CHECK(says(run, "mix shares of the fleet rounded: nearest (to whole GPUs, or whole instances)"));
    Mix fractional = built;
    fractional.rounding = Rounding::none;
    const CostReport none = evaluate(fractional, demand, nd96, gpus);
    CHECK(none.savings_fraction == Approx(0.364).epsilon(0.001));  // 70% x 52%
    CHECK(says(none, "mix shares of the fleet rounded: none (fractional GPUs kept)"));
}

TEST_CASE("the spot job's columns are declared once, with one naming for statistics") {
    std::vector<std::string> names;
    for (const auto& c : spot_job_columns()) names.emplace_back(c.name);
    CHECK(std::find(names.begin(), names.end(), "cost_standard_error") != names.end());
    CHECK(std::find(names.begin(), names.end(), "cost_std_error") == names.end());
    for (const auto& c : plan_columns()) CHECK(std::string(c.name).find("std_error") == std::string::npos);
}

TEST_CASE("a scenario's errors are reported together, in file order, one per line") {
    const std::string text = "version: 1\nname: t\nhorizon_months: 0\n"
                             "offering: {provider: aws, instance_type: p4d.24xlarge}\n"
                             "demand: {kind: sideways}\nstrategies: [{name: od, on_demand: {}}]\n";
    CHECK_THROWS_WITH_AS(parse_scenario(text, "s.yaml"),
                         "s.yaml:3:17: horizon_months = 0: must be in [1, 600]\n"
                         "s.yaml:5:16: demand.kind = \"sideways\": must be one of constant, linear_growth, "
                         "compound_growth, steps",
                         InvalidInput);
    // One error: its message alone, as before.
    std::string one = text;
    one.replace(one.find("horizon_months: 0"), 17, "horizon_months: 3");
    CHECK_THROWS_WITH_AS(parse_scenario(one, "s.yaml"),
                         "s.yaml:5:16: demand.kind = \"sideways\": must be one of constant, linear_growth, "
                         "compound_growth, steps",
                         InvalidInput);
}

TEST_CASE("a sweep point's columns: every strategy and plan gives the figures its own columns give") {
    const ScenarioResult result =
        run_scenario(load_scenario(std::string(GPUTCO_SOURCE_DIR) + "/examples/scenarios/spot_training_job.yaml"));
    REQUIRE(!result.strategies.empty());
    const auto& columns = sweep_point_columns();
    std::vector<std::string> names;
    for (const auto& c : columns) names.emplace_back(c.name);
    CHECK(names == std::vector<std::string>{"name", "total", "npv", "savings", "savings_fraction", "baseline_total",
                                            "cost_per_used_gpu_hour", "break_even_utilisation", "standard_error",
                                            "p5", "p50", "p95", "cvar95"});
    const auto cell = [&columns](std::string_view name, const SweepPointRow& row) {
        for (const auto& c : columns)
            if (c.name == name) return c.get(row);
        FAIL("no column ", name);
        return Cell();
    };
    const std::vector<SweepPointRow> rows = sweep_point_rows(result);
    REQUIRE(rows.size() == result.strategies.size() + result.plans.size());
    bool spread_seen = false;
    for (std::size_t i = 0; i < result.strategies.size(); ++i) {
        const StrategyResult& s = result.strategies[i];
        const SweepPointRow& row = rows[i];
        CAPTURE(s.name);
        CHECK(std::get<std::string>(cell("name", row)) == s.name);
        // The strategy's own columns, figure for figure.
        for (const auto& c : strategy_columns())
            if (c.name != "strategy" && c.name != "currency") CHECK(cell(c.name, row) == c.get(s));
        if (s.report.spread) {
            spread_seen = true;
            CHECK(std::get<double>(cell("p5", row)) == s.report.spread->p05);
            CHECK(std::get<double>(cell("p50", row)) == s.report.spread->p50);
            CHECK(std::holds_alternative<std::monostate>(cell("standard_error", row)));
            CHECK(std::holds_alternative<std::monostate>(cell("cvar95", row)));
        } else {
            CHECK(std::get<double>(cell("standard_error", row)) == 0.0);
            for (const char* stat : {"p5", "p50", "p95", "cvar95"})
                CHECK(std::get<double>(cell(stat, row)) == s.report.total);
        }
    }
    CHECK(spread_seen);  // the example's spot tranche carries a spread
}

TEST_CASE("a sweep point's plan rows are the plan's statistics over its futures") {
    const ScenarioResult result = run_scenario(
        load_scenario(std::string(GPUTCO_SOURCE_DIR) + "/examples/scenarios/plans_under_uncertain_demand.yaml"));
    REQUIRE(!result.plans.empty());
    const std::vector<SweepPointRow> rows = sweep_point_rows(result);
    const auto& columns = sweep_point_columns();
    for (std::size_t i = 0; i < result.plans.size(); ++i) {
        const PlanDistribution& p = result.plans[i];
        const SweepPointRow& row = rows[result.strategies.size() + i];
        CAPTURE(p.plan);
        std::map<std::string, Cell> plan;  // the plan's own columns by name
        for (const auto& c : plan_columns()) plan[std::string(c.name)] = c.get(p);
        std::map<std::string, Cell> point;
        for (const auto& c : columns) point[std::string(c.name)] = c.get(row);
        CHECK(std::get<std::string>(point["name"]) == "plan " + p.plan);
        CHECK(point["total"] == plan["total_mean"]);
        CHECK(point["npv"] == plan["npv_mean"]);
        for (const char* stat : {"standard_error", "p5", "p50", "p95", "cvar95"})
            CHECK(point[stat] == plan[std::string("total_") + stat]);
        for (const char* strategy_only : {"savings", "savings_fraction", "baseline_total", "cost_per_used_gpu_hour",
                                          "break_even_utilisation"})
            CHECK(std::holds_alternative<std::monostate>(point[strategy_only]));
    }
}

TEST_CASE("a scenario's errors: every one inside a key too, in file order, each as a single error says it") {
    const std::string text =
        "version: 1\n"
        "name: t\n"
        "horizon_months: 0\n"
        "offering: {provider: aws, instance_type: p4d.24xlarge}\n"
        "demand: {kind: constant, gpus: -2, scale: -1, typo: 3}\n"
        "discounts: {plan_discount: 0.1, free_gpu_hours: many, voucher_price_factor: x}\n"
        "spot_jobs:\n"
        "  - {name: a, work_hours: -5, mtbf_hours: 0, checkpoint_write_hours: 0.1}\n"
        "  - {name: b, work_hours: 10, mtbf_hours: 5, checkpoint_write_hours: 0.1, paths: 0}\n"
        "strategies: [{name: od, reserved: {term_years: 2, payment: upfront, discount: 1.5}}]\n"
        "outputs: [total, nope, npv, p96]\n"
        "colour: red\n";
    const std::string outputs = "must be one of total, npv, savings, savings_fraction, baseline_total, "
                                "cost_per_used_gpu_hour, break_even_utilisation, p95";
    const std::string all =
        "s.yaml:3:17: horizon_months = 0: must be in [1, 600]\n"
        "s.yaml:5:32: demand.gpus = -2: must be >= 0\n"
        "s.yaml:5:43: demand.scale = -1: must be >= 0\n"
        "s.yaml:5:47: demand.typo = 3: unknown key (allowed: kind, gpus, start_gpus, end_gpus, annual_growth_rate, "
        "steps, daily_pattern, weekly_pattern, scale)\n"
        "s.yaml:6:49: discounts.free_gpu_hours = \"many\": must be a number\n"
        "s.yaml:6:77: discounts.voucher_price_factor = \"x\": must be a number\n"
        "s.yaml:8:27: spot_jobs[0].work_hours = -5: must be in [1e-09, 1e+09] hours\n"
        "s.yaml:8:43: spot_jobs[0].mtbf_hours = 0: must be in [1e-09, 1e+30] hours\n"
        "s.yaml:9:82: spot_jobs[1].paths = 0: must be in [1, 10000000]\n"
        "s.yaml:11:18: outputs[1] = \"nope\": " + outputs + "; did you mean \"npv\"?\n"
        "s.yaml:11:29: outputs[3] = \"p96\": " + outputs + "; did you mean \"p95\"?\n"
        "s.yaml:12:1: colour = \"red\": unknown key (allowed: version, name, description, horizon_months, currency, "
        "annual_discount_rate, units, seed, catalog, offering, demand, discounts, spot_jobs, deadline_jobs, services, "
        "strategies, futures, plans, workloads, llm_training, llm_serving, outputs, demand_windows, price_model, recommend)";
    // The strategies name no spot job but are read after the spot jobs, which did not load: left out.
    CHECK_THROWS_WITH_AS(parse_scenario(text, "s.yaml"), all.c_str(), InvalidInput);
    // With the spot jobs fixed, the strategy's reservation gives each of its errors too.
    std::string fixed = text;
    fixed.replace(fixed.find("work_hours: -5, mtbf_hours: 0"), 29, "work_hours: 50, mtbf_hours: 9");
    fixed.replace(fixed.find("paths: 0"), 8, "paths: 9");
    const std::string reserved =
        "s.yaml:10:48: strategies[0].reserved.term_years = 2: must be 1 or 3\n"
        "s.yaml:10:60: strategies[0].reserved.payment = \"upfront\": must be one of no_upfront, partial_upfront, "
        "all_upfront\n"
        "s.yaml:10:79: strategies[0].reserved.reservation_discount = 1.5: must be in [0, 1)\n";
    std::string want = all;
    const auto cut = [&want](std::string_view from, std::string_view to) {
        want.erase(want.find(from), want.find(to) - want.find(from));
    };
    cut("s.yaml:8:27", "s.yaml:11:18");
    want.insert(want.find("s.yaml:11:18"), reserved);
    CHECK_THROWS_WITH_AS(parse_scenario(fixed, "s.yaml"), want.c_str(), InvalidInput);
}

TEST_CASE("a reader goes on past a field's error, but not into a check that needs the broken field") {
    // checkpoint_write_hours is not a number: the optimal-interval rule (write > 0) is not checked
    // on top of it, and the job's other fields still are.
    const std::string text = "version: 1\nname: t\nhorizon_months: 3\n"
                             "offering: {provider: aws, instance_type: p4d.24xlarge}\n"
                             "demand: {kind: constant, gpus: 1}\n"
                             "spot_jobs: [{name: a, work_hours: 5, mtbf_hours: 9, checkpoint_write_hours: x, paths: -1}]\n";
    CHECK_THROWS_WITH_AS(parse_scenario(text, "s.yaml"),
                         "s.yaml:6:77: spot_jobs[0].checkpoint_write_hours = \"x\": must be a number\n"
                         "s.yaml:6:87: spot_jobs[0].paths = -1: must be in [1, 10000000]",
                         InvalidInput);
}
