// The plan recommender (see recommend.hpp): one solve of the programme (programme.cpp) per spot option
// and owned combination, each priced by the plan engine, which has the last word; the best plan in
// hindsight future by future; the cost–risk frontier.
#include "gputco/optimise/recommend.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <cmath>

#include <boost/math/distributions/normal.hpp>

#include "programme.hpp"
#include "../core/parallel_for.hpp"

namespace gputco {
namespace {

using detail::infinity;

/// Why `spot` may not be tried under `limits`, or "" when it may.
std::string excluded_by(const SpotOption& spot, const RiskLimits& limits) {
    if (!limits.deadline_miss_probability) return {};
    const double limit = *limits.deadline_miss_probability;
    if (!spot.deadline_miss_probability)
        return fmt::format("deadline-miss probability not given, limits.deadline_miss_probability = {:g}", limit);
    if (*spot.deadline_miss_probability > limit)
        return fmt::format("deadline-miss probability {:g} > limits.deadline_miss_probability = {:g}",
                           *spot.deadline_miss_probability, limit);
    return {};
}

double objective_of(const PlanDistribution& d, Objective objective) {
    return objective == Objective::expected_npv ? d.npv.mean : d.total.mean;
}
double cvar_of(const PlanDistribution& d, Objective objective) {
    return objective == Objective::expected_npv ? d.npv.cvar95 : d.total.cvar95;
}

/// Share of the demanded GPU-hours served by spot over the distribution's futures and months.
double spot_share_of(const PlanDistribution& d) {
    double demanded = 0, spot = 0;
    for (const MonthlyCashFlow& m : d.mean_months) {
        demanded += m.used_gpu_hours;
        spot += m.spot_gpu_hours;
    }
    return demanded > 0 ? spot / demanded : 0.0;
}

/// recommend_plan; `without_spot` false skips the solve without spot when a spot option may be tried:
/// spot's programme holds s = 0 too, so its optimum is no dearer (the hindsight bound's shortcut).
Recommendation recommend(const DemandFutures& futures, const Offering& offering, const RecommendOptions& options,
                         const PricePaths& prices, bool without_spot) {
    detail::validate(futures, offering, options, prices);
    const auto started = std::chrono::steady_clock::now();
    const detail::Setup setup = detail::set_up(futures, offering, options);
    // Counted in whole instances, plans are billed per instance: the programme prices the demand as billed.
    std::optional<DemandFutures> rounded;
    if (setup.unit_gpus > 1) rounded = detail::billed_demand(futures, setup.unit_gpus);
    const DemandFutures& billed = rounded ? *rounded : futures;

    Plan on_demand;
    on_demand.name = "all on demand";
    on_demand.billing = detail::billed_units(options);
    on_demand.held = options.held;  // what is held is held whatever is added
    on_demand.savings_plans = options.held_savings_plans;
    const PlanDistribution on_demand_result = evaluate_plan(on_demand, futures, offering, prices, options.plan_options);
    // The engine's assurance of a plan, and whether it meets limits.capacity_assurance (to rounding).
    const auto assurance_of = [&](const Plan& plan, const PlanDistribution& d) {
        return capacity_assurance(plan, d, futures, offering, options.on_demand_capacity, prices, options.plan_options);
    };
    const auto assured = [&](double assurance) {
        return !options.limits.capacity_assurance || assurance >= *options.limits.capacity_assurance - 1e-9;
    };
    const double on_demand_assurance = assurance_of(on_demand, on_demand_result);

    Recommendation best;
    bool found = false;
    double best_engine = infinity;
    std::vector<const SpotOption*> spots{nullptr};
    for (const SpotOption& s : options.spot) spots.push_back(&s);
    if (!without_spot && std::any_of(options.spot.begin(), options.spot.end(),
                                     [&](const SpotOption& s) { return excluded_by(s, options.limits).empty(); }))
        spots.erase(spots.begin());
    std::string exclusions;  // for the status: which spot options were not tried, and why
    std::size_t excluded_count = 0;
    bool timed_out = false;  // some solve stopped at the time limit without a plan or a proof there is none
    const std::vector<std::vector<OwnedPurchase>> owned_choices = detail::owned_combinations(options, setup.horizon);
    for (std::size_t choice = 0; choice < owned_choices.size(); ++choice)
    for (const SpotOption* spot : spots) {
        if (spot) {
            std::string why = excluded_by(*spot, options.limits);
            if (!why.empty()) {
                if (choice > 0) continue;  // said once
                exclusions += fmt::format("; spot option \"{}\" not tried: {}", spot->name, why);
                ++excluded_count;
                best.candidates.push_back({.spot_option = spot->name, .excluded = std::move(why), .solver_objective = 0,
                                           .engine_objective = 0, .proven_optimal = false, .plan = {}});
                continue;
            }
        }
        detail::Solved solved = detail::solve_one(futures, billed, offering, options, prices, setup, spot, owned_choices[choice]);
        timed_out = timed_out || (!solved.solution.feasible && !solved.solution.proven_infeasible);
        CandidateResult candidate;
        candidate.spot_option = spot ? spot->name : "none";
        candidate.proven_optimal = solved.solution.proven_optimal;
        if (!solved.solution.feasible) {
            best.candidates.push_back(candidate);
            if (!found) best.status = solved.solution.status;
            continue;
        }
        PlanDistribution d = evaluate_plan(solved.plan, futures, offering, prices, options.plan_options);
        candidate.solver_objective = solved.solution.objective;
        candidate.engine_objective = objective_of(d, options.objective);
        candidate.plan = solved.plan;
        candidate.capacity_assurance = assurance_of(solved.plan, d);
        best.candidates.push_back(candidate);
        if (assured(candidate.capacity_assurance) && candidate.engine_objective < best_engine) {
            best_engine = candidate.engine_objective;
            best.plan = solved.plan;
            best.in_sample = std::move(d);
            best.solver_objective = solved.solution.objective;
            best.proven_optimal = solved.solution.proven_optimal;
            // Every plan costs >= 0, so 0 is a bound too: the gap is at most 100%.
            best.gap = solved.solution.proven_optimal
                           ? 0.0
                           : std::max(0.0, solved.solution.objective - std::max(0.0, solved.solution.bound)) /
                                 std::max(1e-300, std::abs(solved.solution.objective));
            best.status = solved.solution.status;
            best.capacity_assurance = candidate.capacity_assurance;
            found = true;
        }
    }
    const double on_demand_cvar = cvar_of(on_demand_result, options.objective);
    const bool on_demand_cvar_allowed = !options.limits.cvar95 || on_demand_cvar <= *options.limits.cvar95;
    const bool on_demand_allowed = on_demand_cvar_allowed && assured(on_demand_assurance);
    if (!found) {
        if (options.limits.cvar95 && !on_demand_cvar_allowed && timed_out)
            fail("options.time_limit_seconds", options.time_limit_seconds,
                 fmt::format("the solver found no plan within limits.cvar95 = {:g} in that time (all on demand "
                             "has CVaR95 {:.2f}); allow more time or fewer futures",
                             *options.limits.cvar95, on_demand_cvar));
        if (options.limits.cvar95 && !on_demand_cvar_allowed)
            fail("limits.cvar95", *options.limits.cvar95,
                 fmt::format("no plan meets it over these futures (all on demand has CVaR95 {:.2f}; solver: {})",
                             on_demand_cvar, best.status));
        if (!on_demand_allowed && timed_out)
            fail("options.time_limit_seconds", options.time_limit_seconds,
                 fmt::format("the solver found no plan within limits.capacity_assurance = {:g} in that time (all "
                             "on demand has capacity assurance {:.6f}); allow more time or fewer futures",
                             *options.limits.capacity_assurance, on_demand_assurance));
        if (!on_demand_allowed)
            fail("limits.capacity_assurance", *options.limits.capacity_assurance,
                 fmt::format("no plan meets it over these futures (all on demand has capacity assurance {:.6f} with "
                             "options.on_demand_capacity.unavailable_share = {:g}; solver: {})",
                             on_demand_assurance, options.on_demand_capacity.unavailable_share, best.status));
        best.plan = on_demand;
        best.in_sample = on_demand_result;
        best.capacity_assurance = on_demand_assurance;
        best.solver_objective = objective_of(on_demand_result, options.objective);
    } else if (on_demand_allowed && objective_of(on_demand_result, options.objective) < best_engine) {
        // The engine has the last word: an approximated month shape may make a plan look cheaper than it is.
        best.plan = on_demand;
        best.in_sample = on_demand_result;
        best.capacity_assurance = on_demand_assurance;
        best.status += "; all on demand was cheaper in the engine";
    }
    best.spot_share = spot_share_of(best.in_sample);
    best.status += exclusions;
    if (excluded_count > 0 && excluded_count == options.spot.size())
        best.status += "; every spot option excluded: the plan runs without spot";
    best.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return best;
}

}  // namespace

Recommendation recommend_plan(const DemandFutures& futures, const Offering& offering, const RecommendOptions& options,
                              const PricePaths& prices) {
    return recommend(futures, offering, options, prices, true);
}

HindsightBound hindsight_plan_totals(const DemandFutures& futures, const Offering& offering,
                                     const RecommendOptions& options, const PricePaths& prices) {
    detail::validate(futures, offering, options, prices);
    // A future solved alone is future 0 of its own set: its flex-start grants would be drawn as future 0's.
    require(!options.flex_start, "options.flex_start", "given",
            "must be empty for the hindsight bound: it solves each future alone and cannot draw its grants yet");
    RecommendOptions alone = options;
    alone.limits = {};  // but not the spot options the deadline-miss limit excludes: they are not per future
    alone.limits.deadline_miss_probability = options.limits.deadline_miss_probability;
    alone.plan_options.threads = 1;
    const std::size_t n = futures.count();
    HindsightBound out;
    out.totals.resize(n);
    out.plans.resize(n);
    std::vector<char> exact(n, 1);
    detail::parallel_for(n, options.plan_options.threads, [&](std::size_t f) {
        PricePaths column;
        if (!prices.empty()) {
            const Eigen::Index c = prices.column(f);
            column.on_demand = prices.on_demand.col(c);
            column.spot = prices.spot.col(c);
            column.reserved = prices.reserved.col(c);
            if (prices.reserved_3y.size() > 0) column.reserved_3y = prices.reserved_3y.col(c);
        }
        const Recommendation r = recommend(futures.future(f), offering, alone, column, false);
        out.totals[f] = objective_of(r.in_sample, options.objective);
        out.plans[f] = r.plan;
        // Exact: the programme proved its optimum and prices it as the engine does.
        exact[f] = r.proven_optimal &&
                   std::abs(r.solver_objective - out.totals[f]) <= 1e-7 * (1.0 + std::abs(out.totals[f]));
    });
    out.exact = std::all_of(exact.begin(), exact.end(), [](char e) { return e != 0; });
    return out;
}

namespace {

/// The recommendation for each level in `levels`, `set` writing one into a copy of the options and into
/// its point, `fill` the rest of the point from the recommendation. A level no plan meets, or none found in time, is a point
/// with its reason (and timed_out); any other error is the caller's and is thrown.
template <class Point, class Set, class Fill>
std::vector<Point> frontier_of(const DemandFutures& futures, const Offering& offering, const std::vector<double>& levels,
                               const RecommendOptions& options, const PricePaths& prices, Set set, Fill fill) {
    std::vector<Point> points;
    for (double level : levels) {
        RecommendOptions o = options;
        Point point;
        set(o, point, level);
        try {
            const Recommendation r = recommend_plan(futures, offering, o, prices);
            point.feasible = true;
            point.mean = objective_of(r.in_sample, o.objective);
            point.recommended = r.plan;
            point.recommended.name.clear();  // the plan's parts, not the name "recommended"
            point.plan = describe(point.recommended);
            point.timed_out = !r.proven_optimal;
            point.gap = r.gap;
            fill(point, r, o);
        } catch (const InvalidInput& e) {
            const std::string_view what = e.what();
            point.timed_out = what.rfind("options.time_limit_seconds", 0) == 0;
            if (!point.timed_out && what.rfind("limits.cvar95", 0) != 0 && what.rfind("limits.capacity_assurance", 0) != 0)
                throw;
            point.reason = e.what();
        }
        points.push_back(std::move(point));
    }
    return points;
}

}  // namespace

std::vector<FrontierPoint> cost_risk_frontier(const DemandFutures& futures, const Offering& offering,
                                              const std::vector<double>& cvar95_limits, const RecommendOptions& options,
                                              const PricePaths& prices) {
    return frontier_of<FrontierPoint>(
        futures, offering, cvar95_limits, options, prices,
        [](RecommendOptions& o, FrontierPoint& point, double limit) { o.limits.cvar95 = point.cvar95_limit = limit; },
        [](FrontierPoint& point, const Recommendation& r, const RecommendOptions& o) {
            point.cvar95 = cvar_of(r.in_sample, o.objective);
            point.p95 = o.objective == Objective::expected_npv ? r.in_sample.npv.p95 : r.in_sample.total.p95;
        });
}

std::vector<AssurancePoint> capacity_assurance_frontier(const DemandFutures& futures, const Offering& offering,
                                                        const std::vector<double>& required,
                                                        const RecommendOptions& options, const PricePaths& prices) {
    return frontier_of<AssurancePoint>(
        futures, offering, required, options, prices,
        [](RecommendOptions& o, AssurancePoint& point, double level) {
            o.limits.capacity_assurance = point.required = level;
        },
        [](AssurancePoint& point, const Recommendation& r, const RecommendOptions&) {
            point.assurance = r.capacity_assurance;
        });
}

RiskCheck check_risk(const PlanDistribution& judged, double cvar95_limit, Objective objective, double confidence) {
    require(judged.futures.size() >= 2, "judged.futures.size", judged.futures.size(), "must be >= 2 (a standard error)");
    require(confidence >= 0.5 && confidence < 1.0, "confidence", confidence, "must be in [0.5, 1)");
    const Distribution& d = objective == Objective::expected_npv ? judged.npv : judged.total;
    RiskCheck out{.cvar95 = d.cvar95, .cvar95_standard_error = 0, .p95 = d.p95, .limit = cvar95_limit, .meets_limit = false};
    const double n = double(judged.futures.size());
    double sum = 0, squares = 0;
    for (const FutureOutcome& f : judged.futures) {
        const double x = objective == Objective::expected_npv ? f.npv : f.total;
        const double y = d.p95 + std::max(0.0, x - d.p95) / 0.05;
        sum += y;
        squares += y * y;
    }
    const double mean = sum / n;
    out.cvar95_standard_error = std::sqrt(std::max(0.0, squares / n - mean * mean) * n / (n - 1) / n);
    out.confidence = confidence;
    const double z = boost::math::quantile(boost::math::normal_distribution<double>(), confidence);
    out.upper = out.cvar95 + z * out.cvar95_standard_error;
    out.meets_limit = out.upper <= cvar95_limit;
    return out;
}

SpotOption spot_option(std::string name, const SpotResult& simulated, const Job& job, double availability) {
    job.validate();
    require(simulated.paths >= 1, "spot_result.paths", simulated.paths, "must be >= 1 (run simulate_spot first)");
    return {.name = std::move(name),
            .overhead = simulated.charged_hours.mean / job.work_hours,
            .availability = require_fraction("spot.availability", availability),
            .price_per_gpu_hour = {},
            .deadline_miss_probability = simulated.deadline_miss_probability};
}

}  // namespace gputco
