// A CVaR95 limit made to hold on futures the plan was not fitted to (recommend_holding_limit in
// recommend.hpp; the rule in docs/models.md, "Risk limits that hold out of sample"). A sample-average
// limit is kept on the sample: on 100 futures the worst five decide it, and the plan, fitted to them,
// meets their tail more cheaply than it meets a fresh one. So the plan is judged on futures it was not
// fitted to and refitted, on more futures or under a tighter limit, until that judgement holds.
#include <cmath>
#include <optional>

#include "gputco/optimise/recommend.hpp"

namespace gputco {

HeldRecommendation recommend_holding_limit(const DemandFutures& fitted, const DemandFutures& held_out,
                                           const Offering& offering, const RecommendOptions& options,
                                           const PricePaths& prices, const PricePaths& held_out_prices,
                                           const LimitHolding& holding) {
    require(options.limits.cvar95.has_value(), "options.limits.cvar95", "none",
            "must be set (the limit to hold out of sample)");
    require(held_out.count() >= 2, "held_out.count", held_out.count(), "must be >= 2 (a standard error)");
    require(holding.max_rounds >= 1, "holding.max_rounds", holding.max_rounds, "must be >= 1");
    require(holding.confidence >= 0.5 && holding.confidence < 1.0, "holding.confidence", holding.confidence,
            "must be in [0.5, 1)");
    const double limit = *options.limits.cvar95;
    // Each round's check at a share of the error allowed, so that all of them together keep `confidence`.
    const double each = 1.0 - (1.0 - holding.confidence) / double(holding.max_rounds);
    // Drawn futures need prices: one shared path, or none.
    const bool draws = holding.draw_futures && (prices.empty() || prices.on_demand.cols() == 1) &&
                       (held_out_prices.empty() || held_out_prices.on_demand.cols() == 1);
    HeldRecommendation out;
    std::optional<DemandFutures> enlarged;  // the fitted sample once enlarged (the caller's until then)
    const DemandFutures* sample = &fitted;
    std::uint64_t draw = 0;
    const auto enlarge = [&] {
        if (!draws || 2 * sample->count() > holding.max_futures) return false;
        enlarged = holding.draw_futures(2 * sample->count(), ++draw);
        sample = &*enlarged;
        return true;
    };
    double solved = limit;
    for (int round = 0; round < holding.max_rounds; ++round) {
        RecommendOptions o = options;
        o.limits.cvar95 = solved;
        HoldingRound r{.fitted_futures = sample->count(), .solved_limit = solved, .feasible = false, .judged = {}, .reason = {}};
        try {
            out.recommendation = recommend_plan(*sample, offering, o, prices);
        } catch (const InvalidInput& e) {
            // No plan meets the limit on this sample (or none was found in time): on a larger sample its
            // worst 5% may be less extreme; failing that, say so, with the last plan found.
            const std::string_view what = e.what();
            if (what.rfind("limits.cvar95", 0) != 0 && what.rfind("options.time_limit_seconds", 0) != 0) throw;
            r.reason = e.what();
            out.rounds.push_back(r);
            if (enlarge()) continue;
            if (out.fitted_futures == 0) throw;  // no plan at all: recommend_plan's error as it stands
            out.verdict = fmt::format("could not hold limits.cvar95 = {:g} out of sample: {}; the last plan's "
                                      "held-out CVaR95 is {:.2f} ± {:.2f} (fitted on {} futures under a limit of {:.2f})",
                                      limit, r.reason, out.held_out.cvar95, out.held_out.cvar95_standard_error,
                                      out.fitted_futures, out.solved_limit);
            return out;
        }
        r.feasible = true;
        const PlanOptions& eval = options.plan_options;
        out.held_out = check_risk(evaluate_plan(out.recommendation.plan, held_out, offering, held_out_prices, eval),
                                  limit, options.objective, holding.confidence);
        if (draws) {
            const DemandFutures fresh = holding.draw_futures(held_out.count(), ++draw);
            r.judged = check_risk(evaluate_plan(out.recommendation.plan, fresh, offering, held_out_prices, eval), limit,
                                  options.objective, each);
        } else {
            r.judged = check_risk(evaluate_plan(out.recommendation.plan, held_out, offering, held_out_prices, eval),
                                  limit, options.objective, each);
        }
        out.rounds.push_back(r);
        out.fitted_futures = sample->count();
        out.solved_limit = solved;
        out.holds = r.judged.meets_limit;
        if (out.holds) {
            out.verdict = fmt::format("holds: CVaR95 {:.2f} ± {:.2f} on {} {} futures, within limits.cvar95 = {:g} at "
                                      "{:g}% one-sided confidence over {} rounds; fitted on {} futures under a limit "
                                      "of {:.2f}",
                                      r.judged.cvar95, r.judged.cvar95_standard_error, held_out.count(),
                                      draws ? "fresh" : "held-out", limit, 100 * holding.confidence,
                                      holding.max_rounds, sample->count(), solved);
            return out;
        }
        if (!enlarge()) solved *= limit / r.judged.upper;  // the check's bound overshoots the limit by that factor
    }
    out.verdict = fmt::format("could not hold limits.cvar95 = {:g} out of sample in {} solves: the last plan's "
                              "CVaR95 is {:.2f} ± {:.2f} on futures it was not fitted to (fitted on {} futures "
                              "under a limit of {:.2f})",
                              limit, holding.max_rounds, out.rounds.back().judged.cvar95,
                              out.rounds.back().judged.cvar95_standard_error, out.fitted_futures, out.solved_limit);
    return out;
}

}  // namespace gputco
