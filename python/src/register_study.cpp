// gputco.recommend's study in C++ (app/recommend_study.hpp): Python passes the inputs, gets the rows in
// the library's columns and the C++ results, and only builds the DataFrames.
#include "register.hpp"

#include <pybind11/stl.h>

#include <gputco/app/recommend_study.hpp>

#include "register_columns.hpp"

namespace gputco::python {

void register_study(py::module_& m) {
    m.def(
        "_run_recommend_study",
        [](const DemandFutures& futures, const Offering& offering, RecommendOptions options,
           const std::optional<PricePaths>& prices, const std::optional<DemandFutures>& held_out,
           const std::optional<PricePaths>& held_out_prices, const std::optional<DemandProfile>& history,
           std::optional<int> baseline_term_years, const std::optional<std::string>& baseline_payment,
           bool hindsight_bound, const std::vector<double>& cvar95_limits) {
            StudyInputs in;
            in.held_out = held_out ? &*held_out : nullptr;
            in.held_out_prices = held_out_prices ? &*held_out_prices : nullptr;
            in.history = history ? &*history : nullptr;
            in.baseline_term_years = baseline_term_years;
            if (baseline_payment) in.baseline_payment = parse_payment(*baseline_payment, "baseline_payment");
            in.hindsight_bound = hindsight_bound;
            in.cvar95_limits = cvar95_limits;
            options.plan_options.should_stop = &ctrl_c_pressed;
            RecommendStudy study = without_gil_until_ctrl_c(
                [&] { return run_recommend_study(futures, offering, options, prices ? *prices : PricePaths{}, in); });
            py::list summary = rows_of(study_summary_columns(), std::vector<RecommendStudy>{study});
            py::list baselines = rows_of(study_baseline_columns(), study.baselines);
            py::list frontier = rows_of(study_frontier_columns(), study.frontier);
            py::list frontier_plans;
            for (const StudyFrontierRow& r : study.frontier) frontier_plans.append(py::cast(r.point.recommended));
            return py::make_tuple(summary, baselines, frontier, py::cast(std::move(study.recommendation)),
                                  py::cast(std::move(study.judged)), frontier_plans);
        },
        py::arg("futures"), py::arg("offering"), py::arg("options"), py::arg("prices") = py::none(),
        py::arg("held_out") = py::none(), py::arg("held_out_prices") = py::none(), py::arg("history") = py::none(),
        py::arg("baseline_term_years") = py::none(), py::arg("baseline_payment") = py::none(),
        py::arg("hindsight_bound") = false, py::arg("cvar95_limits") = std::vector<double>{},
        "The recommendation study: (summary rows, baseline rows, frontier rows, Recommendation, the judged "
        "PlanDistribution, the frontier's plans).");
}

}  // namespace gputco::python
