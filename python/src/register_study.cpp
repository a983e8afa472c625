// gputco.recommend's study in C++ (app/recommend_study.hpp): Python passes the inputs, gets the rows in
// the library's columns and the C++ results, and only builds the DataFrames.
#include "register.hpp"

#include <pybind11/stl.h>

#include <gputco/app/bill_plan.hpp>
#include <gputco/app/recommend_study.hpp>
#include <gputco/scenario/scenario.hpp>

#include "register_columns.hpp"

namespace gputco::python {

namespace {

/// (summary rows, baseline rows, frontier rows, Recommendation, judged PlanDistribution, frontier plans).
py::tuple study_tuple(RecommendStudy study) {
    py::list summary = rows_of(study_summary_columns(), std::vector<RecommendStudy>{study});
    py::list baselines = rows_of(study_baseline_columns(), study.baselines);
    py::list frontier = rows_of(study_frontier_columns(), study.frontier);
    py::list frontier_plans;
    for (const StudyFrontierRow& r : study.frontier) frontier_plans.append(py::cast(r.point.recommended));
    return py::make_tuple(summary, baselines, frontier, py::cast(std::move(study.recommendation)),
                          py::cast(std::move(study.judged)), frontier_plans);
}

}  // namespace

void register_study(py::module_& m) {
    m.def(
        "_run_recommend_study",
        [](const DemandFutures& futures, const Offering& offering, RecommendOptions options,
           const std::optional<PricePaths>& prices, const std::optional<DemandFutures>& held_out,
           const std::optional<PricePaths>& held_out_prices, const std::optional<DemandProfile>& history,
           std::optional<int> baseline_term_years, const std::optional<std::string>& baseline_payment,
           bool hindsight_bound, const std::vector<double>& cvar95_limits, const py::object& progress) {
            StudyInputs in;
            in.held_out = held_out ? &*held_out : nullptr;
            in.held_out_prices = held_out_prices ? &*held_out_prices : nullptr;
            in.history = history ? &*history : nullptr;
            in.baseline_term_years = baseline_term_years;
            if (baseline_payment) in.baseline_payment = parse_payment(*baseline_payment, "baseline_payment");
            in.hindsight_bound = hindsight_bound;
            in.cvar95_limits = cvar95_limits;
            options.plan_options.should_stop = &ctrl_c_pressed;
            options.plan_options.progress = progress_of(progress);
            return study_tuple(without_gil_until_ctrl_c(
                [&] { return run_recommend_study(futures, offering, options, prices ? *prices : PricePaths{}, in); }));
        },
        py::arg("futures"), py::arg("offering"), py::arg("options"), py::arg("prices") = py::none(),
        py::arg("held_out") = py::none(), py::arg("held_out_prices") = py::none(), py::arg("history") = py::none(),
        py::arg("baseline_term_years") = py::none(), py::arg("baseline_payment") = py::none(),
        py::arg("hindsight_bound") = false, py::arg("cvar95_limits") = std::vector<double>{},
        py::arg("progress") = py::none(),
        "The recommendation study: (summary rows, baseline rows, frontier rows, Recommendation, the judged "
        "PlanDistribution, the frontier's plans).");
    m.def(
        "_run_scenario_recommend",
        [](const std::string& text, const std::string& file) -> py::object {
            const Scenario s = parse_scenario(text, file);
            ScenarioResult result = without_gil_until_ctrl_c([&] { return run_scenario(s, &ctrl_c_pressed); });
            if (!result.recommend) return py::none();
            return study_tuple(*result.recommend);
        },
        py::arg("text"), py::arg("file") = "<scenario>",
        "Runs a scenario: its recommend section's study tuple (as _run_recommend_study's), or None without one.");
    m.def(
        "_recommend_from_bill",
        [](const Bill& bill, const Offering& offering, RecommendOptions options, const std::string& gpu,
           int horizon_months, std::size_t futures, std::size_t held_out, std::uint64_t seed, bool bill_rates,
           int baseline_term_years, const std::string& baseline_payment, bool hindsight_bound,
           const std::vector<double>& cvar95_limits, bool held_from_bill, int held_term_years,
           const py::object& progress) {
            BillPlanOptions o;
            o.held_from_bill = held_from_bill;
            o.held_term_years = held_term_years;
            o.gpu = gpu;
            o.horizon_months = horizon_months;
            o.futures = futures;
            o.held_out = held_out;
            o.seed = seed;
            o.bill_rates = bill_rates;
            o.baseline_term_years = baseline_term_years;
            o.baseline_payment = parse_payment(baseline_payment, "baseline_payment");
            o.hindsight_bound = hindsight_bound;
            o.cvar95_limits = cvar95_limits;
            options.plan_options.should_stop = &ctrl_c_pressed;
            options.plan_options.progress = progress_of(progress);
            BillPlan plan = without_gil_until_ctrl_c([&] { return recommend_from_bill(bill, offering, options, o); });
            return py::make_tuple(py::cast(std::move(plan.history)), py::cast(std::move(plan.model)),
                                  py::cast(std::move(plan.futures)), py::cast(std::move(plan.held_out)),
                                  py::cast(std::move(plan.offering)), study_tuple(std::move(plan.study)),
                                  py::cast(std::move(plan.held)), py::cast(std::move(plan.held_notes)),
                                  py::cast(std::move(plan.held_savings_plans)));
        },
        py::arg("bill"), py::arg("offering"), py::arg("options"), py::kw_only(), py::arg("gpu") = "",
        py::arg("horizon_months") = BillPlanOptions{}.horizon_months, py::arg("futures") = BillPlanOptions{}.futures,
        py::arg("held_out") = BillPlanOptions{}.held_out, py::arg("seed") = BillPlanOptions{}.seed,
        py::arg("bill_rates") = false, py::arg("baseline_term_years") = BillPlanOptions{}.baseline_term_years,
        py::arg("baseline_payment") = std::string(to_text(BillPlanOptions{}.baseline_payment)),
        py::arg("hindsight_bound") = false, py::arg("cvar95_limits") = std::vector<double>{},
        py::arg("held_from_bill") = BillPlanOptions{}.held_from_bill,
        py::arg("held_term_years") = BillPlanOptions{}.held_term_years, py::arg("progress") = py::none(),
        "A bill to a plan (app/bill_plan.hpp): (history, model, futures, held_out, offering, study tuple, held, "
        "held notes, held Savings Plans).");
    m.def(
        "_bill_tables",
        [](const Bill& bill) {
            py::dict out;
            out["figures"] = rows_of(bill_figures_columns(), bill_figures_rows(bill));
            out["series"] = rows_of(bill_series_columns(), bill.series);
            out["unmatched"] = rows_of(bill_unmatched_columns(), bill.unmatched);
            out["commitments"] = rows_of(bill_commitment_columns(), bill.commitments);
            return out;
        },
        py::arg("bill"), "A bill's tables as rows in the library's columns: figures, series, unmatched, commitments.");
    m.def(
        "_bill_series_of", [](const Bill& bill, const Offering& offering) { return bill_series_of(bill, offering); },
        py::arg("bill"), py::arg("offering"), "The bill's series bought on the offering (same provider, instance, region).");
}

}  // namespace gputco::python
