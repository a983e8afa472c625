// The `recommend` section: the study every front door runs (app/recommend_study.hpp), on the
// scenario's own futures, offering, prices and discounts.
#include "scenario_recommend.hpp"

namespace gputco::detail {

RecommendStudy run_scenario_recommend(const Scenario& s, const Offering& offering, const DemandProfile& demand,
                                      const std::function<bool()>& should_stop, const ScenarioProgress& progress) {
    const RecommendSpec& spec = *s.recommend;
    const Horizon horizon = Horizon::months(s.horizon_months);
    RecommendOptions options = spec.options;
    PlanOptions& plan_options = options.plan_options;
    plan_options.discounts = s.discounts;
    plan_options.annual_discount_rate = s.annual_discount_rate;
    plan_options.windows = s.demand_windows;
    plan_options.seed = s.seed;  // flex-start grants, per future, as the plans section draws them
    plan_options.should_stop = should_stop;
    if (progress)
        plan_options.progress = [&progress](std::size_t done, std::size_t total) { progress("recommend", done, total, "futures"); };

    const DemandFutures futures = scenario_futures(s, demand);
    PricePaths prices;  // as the plans': one path per future, the scenario's seed, both reservation terms
    if (s.price_model) simulate_price_paths(*s.price_model, horizon, futures.count(), s.seed, 0, prices);

    StudyInputs in;
    if (spec.baseline_term_years) in.baseline_term_years = spec.baseline_term_years;
    if (spec.baseline_payment) in.baseline_payment = spec.baseline_payment;
    if (spec.hindsight_bound) in.hindsight_bound = *spec.hindsight_bound;
    if (spec.hold_cvar95_limit) in.hold_cvar95_limit = *spec.hold_cvar95_limit;
    in.cvar95_limits = spec.cvar95_limits;
    if (spec.history_from_demand) in.history = &demand;
    std::optional<DemandFutures> held_out;
    PricePaths held_out_prices;
    if (spec.held_out > 0) {  // the reader allows held_out only with futures
        const DemandModel& model = s.futures->model;
        held_out = DemandFutures::generate(model, horizon, spec.held_out, s.seed + 1);
        in.held_out = &*held_out;
        if (s.price_model) {
            simulate_price_paths(*s.price_model, horizon, spec.held_out, s.seed + 1, 0, held_out_prices);
            in.held_out_prices = &held_out_prices;
        } else {
            // Fresh futures of the same model for a CVaR95 limit made to hold, each draw seeded past the two
            // above (a drawn future needs one shared price path or none: without a price model, none).
            in.draw_futures = [&model, horizon, seed = s.seed](std::size_t count, std::uint64_t draw) {
                return DemandFutures::generate(model, horizon, count, seed + 1 + draw);
            };
        }
    }
    return run_recommend_study(futures, offering, options, prices, in);
}

}  // namespace gputco::detail
