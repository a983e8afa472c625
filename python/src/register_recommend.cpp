// The plan recommender: recommend_plan, the cost–risk frontier and the baseline plans (gputco/_recommend.py
// puts them together as DataFrames in gputco.recommend).
#include "register.hpp"

#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/app/study.hpp>
#include <gputco/optimise/recommend.hpp>
#include <gputco/optimise/rolling.hpp>

namespace gputco::python {

namespace {

Objective parse_objective(std::string_view objective) {
    if (objective == "total") return Objective::expected_total;
    if (objective == "npv") return Objective::expected_npv;
    fail("objective", objective, "must be \"total\" or \"npv\"");
}

/// `options` as given, polling Ctrl-C between solves and between chunks of futures.
RecommendOptions stoppable(RecommendOptions options) {
    options.plan_options.should_stop = &ctrl_c_pressed;
    return options;
}

}  // namespace

void register_recommend(py::module_& m) {
    py::class_<CommitmentOption>(m, "CommitmentOption", "A kind of commitment the recommender may buy.")
        .def(py::init([](int term_years, std::string_view payment, std::optional<double> reservation_discount,
                         std::optional<double> discount, int term_months) {
                 return CommitmentOption{term_years, parse_payment(payment, "commitment_option.payment"),
                                         renamed_keyword(reservation_discount, discount, "reservation_discount", "discount"),
                                         term_months};
             }),
             py::arg("term_years"), py::arg("payment") = "no_upfront", py::kw_only(),
             py::arg("reservation_discount") = py::none(), py::arg("discount") = py::none(), py::arg("term_months") = 0)
        .def_readonly("term_years", &CommitmentOption::term_years)
        .def_readonly("term_months", &CommitmentOption::term_months)
        .def_property_readonly("payment", [](const CommitmentOption& c) { return std::string(to_string(c.payment)); })
        .def_readonly("reservation_discount", &CommitmentOption::reservation_discount)
        .def_property_readonly("discount", [](const CommitmentOption& c) {  // the old spelling
            warn_renamed_attribute("discount", "reservation_discount");
            return c.reservation_discount;
        });
    py::class_<SavingsPlanOption>(m, "SavingsPlanOption",
                                  "A Savings Plan the recommender may buy at each start month, its $/hour level chosen.")
        .def(py::init([](std::string_view type, int term_years, std::string_view payment, std::optional<double> rate) {
                 return SavingsPlanOption{parse<SavingsPlanType>(type, "savings_plan_option.type"), term_years,
                                          parse_payment(payment, "savings_plan_option.payment"), rate};
             }),
             py::arg("type") = "aws_compute", py::kw_only(), py::arg("term_years") = 1, py::arg("payment") = "no_upfront",
             py::arg("rate_per_gpu_hour") = py::none())
        .def_property_readonly("type", [](const SavingsPlanOption& s) { return std::string(to_text(s.type)); })
        .def_readonly("term_years", &SavingsPlanOption::term_years)
        .def_property_readonly("payment", [](const SavingsPlanOption& s) { return std::string(to_string(s.payment)); })
        .def_readonly("rate_per_gpu_hour", &SavingsPlanOption::rate_per_gpu_hour);
    py::class_<CapacityBlockOption>(m, "CapacityBlockOption",
                                    "Capacity blocks the recommender may buy for the dated windows of demand.")
        .def(py::init([](int lead_days, std::optional<double> price, std::string_view kind) {
                 return CapacityBlockOption{lead_days, price, parse<BlockKind>(kind, "capacity_blocks.kind")};
             }),
             py::kw_only(), py::arg("lead_days") = 0, py::arg("price_per_instance_hour") = py::none(),
             py::arg("kind") = "aws_capacity_block")
        .def_readonly("lead_days", &CapacityBlockOption::lead_days)
        .def_readonly("price_per_instance_hour", &CapacityBlockOption::price_per_instance_hour)
        .def_property_readonly("kind", [](const CapacityBlockOption& o) { return std::string(to_text(o.kind)); });
    py::class_<FlexStartOption>(m, "FlexStartOption",
                                "Flex-start requests the recommender may make for the dated windows of demand.")
        .def(py::init([](double discount, double grant_probability) { return FlexStartOption{discount, grant_probability}; }),
             py::kw_only(), py::arg("discount"), py::arg("grant_probability"))
        .def_readonly("discount", &FlexStartOption::discount)
        .def_readonly("grant_probability", &FlexStartOption::grant_probability);
    py::class_<ChangeOptions>(m, "ChangeOptions",
                              "What the recommender may do with the reservations held (RecommendOptions.held) where "
                              "demand falls below them: sell a standard one, exchange a convertible one (AWS), refund "
                              "one or exchange one the Azure way.")
        .def(py::init([](std::optional<double> resale_price_share, std::vector<CommitmentOption> exchange_into,
                         bool refund, std::vector<CommitmentOption> azure_exchange_into) {
                 return ChangeOptions{resale_price_share, std::move(exchange_into), refund, std::move(azure_exchange_into)};
             }),
             py::kw_only(), py::arg("resale_price_share") = py::none(),
             py::arg("exchange_into") = std::vector<CommitmentOption>{}, py::arg("refund") = false,
             py::arg("azure_exchange_into") = std::vector<CommitmentOption>{})
        .def_readonly("resale_price_share", &ChangeOptions::resale_price_share)
        .def_readonly("exchange_into", &ChangeOptions::exchange_into)
        .def_readonly("refund", &ChangeOptions::refund)
        .def_readonly("azure_exchange_into", &ChangeOptions::azure_exchange_into);
    py::class_<SpotOption>(m, "SpotOption", "A way to run spot (e.g. one checkpoint interval) with its overhead.")
        .def(py::init([](std::string name, double overhead, double availability, std::optional<double> price,
                         std::optional<double> deadline_miss_probability) {
                 return SpotOption{std::move(name), overhead, availability, price, deadline_miss_probability};
             }),
             py::arg("name"), py::kw_only(), py::arg("overhead") = 1.0, py::arg("availability") = 1.0,
             py::arg("price_per_gpu_hour") = py::none(), py::arg("deadline_miss_probability") = py::none())
        .def_static(
            "from_spot",
            [](const SpotResult& simulated, const Job& job, double availability, std::string name) {
                return spot_option(std::move(name), simulated, job, availability);
            },
            py::arg("simulated"), py::arg("job"), py::kw_only(), py::arg("availability") = 1.0, py::arg("name") = "spot",
            "The option a simulate_spot run of `job` stands for: its overhead and deadline-miss probability.")
        .def_readonly("deadline_miss_probability", &SpotOption::deadline_miss_probability)
        .def_readonly("name", &SpotOption::name)
        .def_readonly("overhead", &SpotOption::overhead)
        .def_readonly("availability", &SpotOption::availability)
        .def_readonly("price_per_gpu_hour", &SpotOption::price_per_gpu_hour);
    py::class_<OwnedOption>(m, "OwnedOption",
                            "Owned GPUs the recommender may buy: 0, step, 2 step, ... <= max_gpus at each month.")
        .def(py::init([](const Owned& terms, std::vector<int> months, int max_gpus, int step_gpus) {
                 return OwnedOption{terms, std::move(months), max_gpus, step_gpus};
             }),
             py::arg("terms"), py::kw_only(), py::arg("months") = std::vector<int>{0}, py::arg("max_gpus") = 0,
             py::arg("step_gpus") = 1)
        .def_readonly("terms", &OwnedOption::terms)
        .def_readonly("months", &OwnedOption::months)
        .def_readonly("max_gpus", &OwnedOption::max_gpus)
        .def_readonly("step_gpus", &OwnedOption::step_gpus);
    py::class_<RiskLimits>(m, "RiskLimits", "Limits on the recommendation; each is off when None.")
        .def(py::init([](std::optional<double> cvar95, std::optional<double> upfront_per_period,
                         int upfront_period_months, std::optional<double> committed_share,
                         std::optional<double> deadline_miss_probability, std::optional<double> capacity_assurance) {
                 RiskLimits limits;
                 limits.capacity_assurance = capacity_assurance;
                 limits.cvar95 = cvar95;
                 limits.upfront_per_period = upfront_per_period;
                 limits.upfront_period_months = upfront_period_months;
                 limits.committed_share = committed_share;
                 limits.deadline_miss_probability = deadline_miss_probability;
                 return limits;
             }),
             py::kw_only(), py::arg("cvar95") = py::none(), py::arg("upfront_per_period") = py::none(),
             py::arg("upfront_period_months") = 3, py::arg("committed_share") = py::none(),
             py::arg("deadline_miss_probability") = py::none(), py::arg("capacity_assurance") = py::none())
        .def_readonly("deadline_miss_probability", &RiskLimits::deadline_miss_probability)
        .def_readonly("capacity_assurance", &RiskLimits::capacity_assurance)
        .def_readonly("cvar95", &RiskLimits::cvar95)
        .def_readonly("upfront_per_period", &RiskLimits::upfront_per_period)
        .def_readonly("upfront_period_months", &RiskLimits::upfront_period_months)
        .def_readonly("committed_share", &RiskLimits::committed_share);
    py::class_<RecommendOptions>(m, "RecommendOptions",
                                 "What the recommender may buy, its objective and limits (gputco.recommend_plan "
                                 "builds one from keywords).")
        .def(py::init([](std::vector<CommitmentOption> commitments, std::vector<int> start_months, int review_months,
                         std::string_view unit, double max_count, std::vector<SpotOption> spot,
                         std::optional<OwnedOption> owned, std::string_view objective, const RiskLimits& limits, const PlanOptions& plan_options,
                         int max_blocks, double time_limit_seconds, std::vector<SavingsPlanOption> savings_plans,
                         std::vector<HeldCommitment> held, std::optional<OnDemandCapacity> on_demand_capacity,
                         std::optional<CapacityBlockOption> capacity_blocks, std::optional<FlexStartOption> flex_start,
                         std::vector<SavingsPlan> held_savings_plans, std::optional<ChangeOptions> changes) {
                 RecommendOptions o;
                 o.held_savings_plans = std::move(held_savings_plans);
                 if (changes) o.changes = *changes;
                 o.capacity_blocks = capacity_blocks;
                 o.flex_start = flex_start;
                 if (on_demand_capacity) o.on_demand_capacity = *on_demand_capacity;
                 o.savings_plans = std::move(savings_plans);
                 o.held = std::move(held);
                 o.commitments = std::move(commitments);
                 o.start_months = std::move(start_months);
                 o.review_months = review_months;
                 o.unit = parse<CountUnit>(unit, "unit");
                 o.max_count = max_count;
                 o.spot = std::move(spot);
                 o.owned = std::move(owned);
                 o.objective = parse_objective(objective);
                 o.limits = limits;
                 o.plan_options = plan_options;
                 o.max_blocks = max_blocks;
                 o.time_limit_seconds = time_limit_seconds;
                 return o;
             }),
             py::kw_only(), py::arg("commitments") = std::vector<CommitmentOption>{},
             py::arg("start_months") = std::vector<int>{}, py::arg("review_months") = 6, py::arg("unit") = "gpus",
             py::arg("max_count") = 1e6, py::arg("spot") = std::vector<SpotOption>{}, py::arg("owned") = py::none(),
             py::arg("objective") = "total",
             py::arg("limits") = RiskLimits{}, py::arg("plan_options") = PlanOptions{}, py::arg("max_blocks") = 32,
             py::arg("time_limit_seconds") = 60.0, py::arg("savings_plans") = std::vector<SavingsPlanOption>{},
             py::arg("held") = std::vector<HeldCommitment>{}, py::arg("on_demand_capacity") = py::none(),
             py::arg("capacity_blocks") = py::none(), py::arg("flex_start") = py::none(),
             py::arg("held_savings_plans") = std::vector<SavingsPlan>{}, py::arg("changes") = py::none())
        .def_readonly("held_savings_plans", &RecommendOptions::held_savings_plans)
        .def_readonly("changes", &RecommendOptions::changes)
        .def_readonly("capacity_blocks", &RecommendOptions::capacity_blocks)
        .def_readonly("flex_start", &RecommendOptions::flex_start)
        .def_readonly("held", &RecommendOptions::held)
        .def_readonly("on_demand_capacity", &RecommendOptions::on_demand_capacity)
        .def_readonly("commitments", &RecommendOptions::commitments)
        .def_readonly("savings_plans", &RecommendOptions::savings_plans)
        .def_readonly("start_months", &RecommendOptions::start_months)
        .def_readonly("review_months", &RecommendOptions::review_months)
        .def_property_readonly("unit", [](const RecommendOptions& o) { return std::string(to_text(o.unit)); })
        .def_readonly("max_count", &RecommendOptions::max_count)
        .def_readonly("spot", &RecommendOptions::spot)
        .def_readonly("owned", &RecommendOptions::owned)
        .def_property_readonly("objective", [](const RecommendOptions& o) {
            return std::string(o.objective == Objective::expected_npv ? "npv" : "total");
        })
        .def_readonly("limits", &RecommendOptions::limits)
        .def_readonly("plan_options", &RecommendOptions::plan_options)
        .def_readonly("max_blocks", &RecommendOptions::max_blocks)
        .def_readonly("time_limit_seconds", &RecommendOptions::time_limit_seconds);
    py::class_<CandidateResult>(m, "CandidateResult")
        .def_readonly("spot_option", &CandidateResult::spot_option)
        .def_readonly("excluded", &CandidateResult::excluded)
        .def_readonly("solver_objective", &CandidateResult::solver_objective)
        .def_readonly("engine_objective", &CandidateResult::engine_objective)
        .def_readonly("proven_optimal", &CandidateResult::proven_optimal)
        .def_readonly("plan", &CandidateResult::plan)
        .def_readonly("capacity_assurance", &CandidateResult::capacity_assurance);
    py::class_<Recommendation>(m, "Recommendation", "recommend_plan's answer, priced by the plan engine in sample.")
        .def_readonly("plan", &Recommendation::plan)
        .def_readonly("in_sample", &Recommendation::in_sample)
        .def_readonly("solver_objective", &Recommendation::solver_objective)
        .def_readonly("proven_optimal", &Recommendation::proven_optimal)
        .def_readonly("gap", &Recommendation::gap)
        .def_readonly("status", &Recommendation::status)
        .def_readonly("candidates", &Recommendation::candidates)
        .def_readonly("solve_seconds", &Recommendation::solve_seconds)
        .def_readonly("spot_share", &Recommendation::spot_share,
                      "Share of the demanded GPU-hours spot serves in sample (its capacity: plan.spot.gpus).")
        .def_readonly("capacity_assurance", &Recommendation::capacity_assurance,
                      "Expected share of the demanded GPU-hours served by capacity that is there (in sample).")
        .def("__repr__", [](const Recommendation& r) {
            return fmt::format("Recommendation('{}', mean {:.2f}, {})", describe(r.plan), r.in_sample.total.mean, r.status);
        });
    py::class_<RiskCheck>(m, "RiskCheck", "A plan's held-out CVaR95 with its standard error against a limit.")
        .def_readonly("cvar95", &RiskCheck::cvar95)
        .def_readonly("cvar95_standard_error", &RiskCheck::cvar95_standard_error)
        .def_readonly("p95", &RiskCheck::p95)
        .def_readonly("limit", &RiskCheck::limit)
        .def_readonly("confidence", &RiskCheck::confidence)
        .def_readonly("upper", &RiskCheck::upper)
        .def_readonly("meets_limit", &RiskCheck::meets_limit);
    m.def(
        "check_risk",
        [](const PlanDistribution& judged, double cvar95_limit, std::string_view objective, double confidence) {
            return check_risk(judged, cvar95_limit, parse<Objective>(objective, "objective"), confidence);
        },
        py::arg("judged"), py::arg("cvar95_limit"), py::kw_only(), py::arg("objective") = "expected_total",
        py::arg("confidence") = 0.95,
        "upper = CVaR95 + z standard errors <= the limit (z = 1.645 at the default 95%): the limit holds at that "
        "one-sided confidence.");
    py::class_<FrontierPoint>(m, "FrontierPoint")
        .def_readonly("cvar95_limit", &FrontierPoint::cvar95_limit)
        .def_readonly("feasible", &FrontierPoint::feasible)
        .def_readonly("mean", &FrontierPoint::mean)
        .def_readonly("cvar95", &FrontierPoint::cvar95)
        .def_readonly("p95", &FrontierPoint::p95)
        .def_readonly("reason", &FrontierPoint::reason)
        .def_readonly("timed_out", &FrontierPoint::timed_out)
        .def_readonly("gap", &FrontierPoint::gap)
        .def_readonly("plan", &FrontierPoint::plan)
        .def_readonly("recommended", &FrontierPoint::recommended);
    py::class_<AssurancePoint>(m, "AssurancePoint", "The cheapest plan whose capacity assurance is at least `required`.")
        .def_readonly("required", &AssurancePoint::required)
        .def_readonly("feasible", &AssurancePoint::feasible)
        .def_readonly("mean", &AssurancePoint::mean)
        .def_readonly("assurance", &AssurancePoint::assurance)
        .def_readonly("reason", &AssurancePoint::reason)
        .def_readonly("timed_out", &AssurancePoint::timed_out)
        .def_readonly("gap", &AssurancePoint::gap)
        .def_readonly("plan", &AssurancePoint::plan)
        .def_readonly("recommended", &AssurancePoint::recommended);
    m.def(
        "capacity_assurance",
        [](const Plan& plan, const DemandFutures& futures, const Offering& offering, const OnDemandCapacity& capacity,
           const std::optional<PricePaths>& prices, const PlanOptions& options) {
            return capacity_assurance(plan, futures, offering, capacity, prices ? *prices : PricePaths{}, options);
        },
        py::arg("plan"), py::arg("futures"), py::arg("offering"), py::arg("capacity"), py::kw_only(),
        py::arg("prices") = py::none(), py::arg("options") = PlanOptions{},
        "Expected share of the plan's demanded GPU-hours served by capacity that is there: 1 - u x the share on "
        "on-demand capacity (docs/models.md, section 8).");
    py::class_<HindsightBound>(m, "HindsightBound",
                               "The best plan in hindsight per future over the recommender's decision: a lower bound.")
        .def_readonly("totals", &HindsightBound::totals)
        .def_readonly("plans", &HindsightBound::plans)
        .def_readonly("exact", &HindsightBound::exact);

    // One options object each; gputco/_recommend.py builds it from keywords.
    m.def(
        "_recommend_plan",
        [](const DemandFutures& futures, const Offering& offering, const RecommendOptions& options,
           const std::optional<PricePaths>& prices) {
            const RecommendOptions o = stoppable(options);
            return without_gil_until_ctrl_c([&] { return recommend_plan(futures, offering, o, prices ? *prices : PricePaths{}); });
        },
        py::arg("futures"), py::arg("offering"), py::arg("options"), py::arg("prices") = py::none(),
        "The plan of least expected cost over the futures within the limits (a MIP solved by COIN-OR CBC).");
    m.def(
        "_cost_risk_frontier",
        [](const DemandFutures& futures, const Offering& offering, const std::vector<double>& cvar95_limits,
           const RecommendOptions& options, const std::optional<PricePaths>& prices) {
            const RecommendOptions o = stoppable(options);
            return without_gil_until_ctrl_c(
                [&] { return cost_risk_frontier(futures, offering, cvar95_limits, o, prices ? *prices : PricePaths{}); });
        },
        py::arg("futures"), py::arg("offering"), py::arg("cvar95_limits"), py::arg("options"),
        py::arg("prices") = py::none(), "The recommendation under each CVaR95 limit (infeasible limits marked).");
    m.def(
        "_capacity_assurance_frontier",
        [](const DemandFutures& futures, const Offering& offering, const std::vector<double>& required,
           const RecommendOptions& options, const std::optional<PricePaths>& prices) {
            const RecommendOptions o = stoppable(options);
            return without_gil_until_ctrl_c([&] {
                return capacity_assurance_frontier(futures, offering, required, o, prices ? *prices : PricePaths{});
            });
        },
        py::arg("futures"), py::arg("offering"), py::arg("required"), py::arg("options"), py::arg("prices") = py::none(),
        "The cheapest plan meeting each capacity-assurance level (levels no plan meets marked).");
    m.def(
        "_hindsight_plan_totals",
        [](const DemandFutures& futures, const Offering& offering, const RecommendOptions& options,
           const std::optional<PricePaths>& prices) {
            const RecommendOptions o = stoppable(options);
            return without_gil_until_ctrl_c(
                [&] { return hindsight_plan_totals(futures, offering, o, prices ? *prices : PricePaths{}); });
        },
        py::arg("futures"), py::arg("offering"), py::arg("options"), py::arg("prices") = py::none(),
        "Each future's own optimum over the same decision, limits dropped: a lower bound, not a plan to buy.");
    // Re-planning: the rolling policy beside the static recommendation and the hindsight bound.
    py::class_<PolicyCosts>(m, "PolicyCosts", "One policy's cost per judged future, its mean and standard error.")
        .def_readonly("per_future", &PolicyCosts::per_future)
        .def_readonly("mean", &PolicyCosts::mean)
        .def_readonly("standard_error", &PolicyCosts::standard_error);
    py::class_<RollingReplan>(m, "RollingReplan",
                              "The rolling policy's plans and costs per judged future, beside the static "
                              "recommendation and the hindsight bound on the same futures.")
        .def_readonly("plans", &RollingReplan::plans)
        .def_readonly("rolling", &RollingReplan::rolling)
        .def_readonly("static_recommendation", &RollingReplan::static_recommendation)
        .def_readonly("static_plan", &RollingReplan::static_plan)
        .def_readonly("hindsight", &RollingReplan::hindsight)
        .def_readonly("hindsight_exact", &RollingReplan::hindsight_exact)
        .def_readonly("saving", &RollingReplan::saving)
        .def_readonly("solves", &RollingReplan::solves);
    m.def(
        "_rolling_replan",
        [](const DemandFutures& fitted, const DemandFutures& judged, const Offering& offering,
           const RecommendOptions& options, int every_months, const std::optional<DemandModel>& model,
           std::size_t futures, std::uint64_t seed) {
            const RecommendOptions o = stoppable(options);
            const RollingOptions rolling{.every_months = every_months, .model = model, .futures = futures, .seed = seed};
            return without_gil_until_ctrl_c([&] { return rolling_replan(fitted, judged, offering, o, rolling); });
        },
        py::arg("fitted"), py::arg("judged"), py::arg("offering"), py::arg("options"), py::arg("every_months"),
        py::arg("model"), py::arg("futures"), py::arg("seed"),
        "The rolling policy: re-solve every k months with what is held and what has been seen.");
    m.def(
        "baseline_plans",
        [](const DemandProfile& history, const Offering& offering, int term_years, std::string_view payment,
           const std::optional<Discounts>& discounts, const std::vector<HeldCommitment>& held) {
            PlanOptions options;
            if (discounts) options.discounts = *discounts;
            return baseline_plans(history, offering, term_years, parse_payment(payment, "payment"), options, held);
        },
        py::arg("history"), py::arg("offering"), py::arg("term_years"), py::arg("payment"), py::kw_only(),
        py::arg("discounts") = py::none(), py::arg("held") = std::vector<HeldCommitment>{},
        "All on demand, provider-style lookback advice (7, 30, 60 days) and the newsvendor on the history.");
    m.def(
        "provider_policy_plan",
        [](const DemandProfile& history, const DemandFutures& futures, std::size_t future, const Offering& offering,
           int lookback_days, int term_years, std::string_view payment, const std::vector<HeldCommitment>& held) {
            return provider_policy_plan(history, futures, future, offering, lookback_days, term_years,
                                        parse_payment(payment, "payment"), {}, held);
        },
        py::arg("history"), py::arg("futures"), py::arg("future"), py::arg("offering"), py::kw_only(),
        py::arg("lookback_days") = 30, py::arg("term_years") = 1, py::arg("payment") = "all_upfront",
        py::arg("held") = std::vector<HeldCommitment>{},
        "The providers' advice re-run every month in one future, what is held left out: its plan.");
    m.def("provider_advice_units",
          [](const std::vector<double>& window, double held_gpus, double gpus_per_unit, double reserved_rate,
             double on_demand_rate) {
              return provider_advice_units(window, held_gpus, gpus_per_unit, reserved_rate, on_demand_rate);
          },
          py::arg("window"), py::arg("held_gpus"), py::arg("gpus_per_unit"), py::arg("reserved_rate"),
          py::arg("on_demand_rate"),
          "The whole units that would have saved most over the window's hourly GPUs (AWS / Azure's rule).");
    m.def("provider_savings_plan_advice",
          [](const std::vector<double>& window, double held_gpus, double rate, double on_demand_rate) {
              return provider_savings_plan_advice(window, held_gpus, rate, on_demand_rate);
          },
          py::arg("window"), py::arg("held_gpus"), py::arg("rate"), py::arg("on_demand_rate"),
          "The $/hour Savings Plan commitment that would have saved most over the window's hourly GPUs (AWS Cost "
          "Explorer's rule).");
    m.def("offering_for_baselines", &offering_for_baselines, py::arg("offering"), py::arg("commitment"),
          "The offering with the commitment's price when it is given as a discount: what a study's baselines "
          "are bought and judged on.");
}

}  // namespace gputco::python
