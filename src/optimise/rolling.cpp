// The rolling policy (rolling.hpp): re-solve every k months with what is held and what has been seen,
// buy what the re-solve buys before the next review, price the whole plan once in the future.
#include "gputco/optimise/rolling.hpp"

#include <algorithm>
#include <cmath>

#include "gputco/core/random.hpp"
#include "gputco/engines/plan_engine.hpp"

#include "../core/parallel_for.hpp"
#include "../engines/instruments/commitment.hpp"

namespace gputco {

namespace {

double measure(const FutureOutcome& f, Objective objective) {
    return objective == Objective::expected_npv ? f.npv : f.total;
}

PolicyCosts costs_of(std::vector<double> per_future) {
    PolicyCosts c;
    const Distribution d = distribution_of(per_future);
    c.mean = d.mean;
    c.standard_error = d.standard_error;
    c.per_future = std::move(per_future);
    return c;
}

/// A commitment bought at its start month, seen from month t: held for what is left of its term, at
/// the hourly rate it was bought at (its upfront is sunk).
HeldCommitment held_from(const Commitment& c, int t, const Offering& offering, const PlanOptions& options, int horizon) {
    std::vector<std::string> conversions;
    const instruments::PricedCommitment priced =
        instruments::price_commitment_as(c, "rolling commitment", false, offering, options, horizon, conversions);
    return {.id = fmt::format("bought in month {}", c.start_month),
            .count = c.count,
            .unit = c.unit,
            .start_month = c.start_month - t,
            .end_month = c.start_month + priced.term_months - t,
            .hourly_per_gpu = priced.hourly_per_gpu,
            .payment = c.payment,
            .upfront_per_gpu = priced.upfront_per_gpu,
            .kind = c.kind,
            .offering = c.offering};
}

/// The level of `model` that month `t` of future `f` shows: its mean demand over the mean of the model's
/// hourly factors that month (for a future drawn from the model, its level; for a profile, its mean).
double level_seen(const DemandFutures& futures, std::size_t f, int t, const DemandModel& model) {
    double factor = 1.0;
    if (!model.hour_of_week.empty()) {
        constexpr std::size_t week = 168;
        double sum = 0;
        for (std::size_t h = 0; h < whole_hours_per_month; ++h)
            sum += model.hour_of_week[(std::size_t(t) * whole_hours_per_month + h) % week];
        factor = sum / double(whole_hours_per_month);
    }
    const double mean = futures.gpu_hours(f, t) / double(whole_hours_per_month);
    return factor > 0 ? mean / factor : 0.0;
}

void check_options(const RecommendOptions& o, const RollingOptions& rolling, int horizon) {
    require(rolling.every_months >= 1, "rolling.every_months", rolling.every_months, "must be >= 1");
    require(rolling.futures >= 1, "rolling.futures", rolling.futures, "must be >= 1");
    if (rolling.every_months < horizon)
        require(rolling.model.has_value(), "rolling.model", "none",
                fmt::format("must be given when rolling.every_months = {} < {} (the horizon's months): a re-solve "
                            "needs futures continuing from the month seen",
                            rolling.every_months, horizon));
    const auto unsupported = [](bool given, std::string_view field) {
        require(!given, field, "given", "must be empty: the rolling policy re-solves reservations only");
    };
    unsupported(!o.spot.empty(), "options.spot");
    unsupported(o.owned.has_value(), "options.owned");
    unsupported(!o.savings_plans.empty(), "options.savings_plans");
    unsupported(!o.held_savings_plans.empty(), "options.held_savings_plans");
    unsupported(o.capacity_blocks.has_value(), "options.capacity_blocks");
    unsupported(o.flex_start.has_value(), "options.flex_start");
    unsupported(!o.changes.empty(), "options.changes");
    const RiskLimits& l = o.limits;
    const auto no_limit = [](bool given, std::string_view field) {
        require(!given, field, "given", "must be empty: the rolling policy re-solves without risk limits");
    };
    no_limit(l.cvar95.has_value(), "options.limits.cvar95");
    no_limit(l.upfront_per_period.has_value(), "options.limits.upfront_per_period");
    no_limit(l.committed_share.has_value(), "options.limits.committed_share");
    no_limit(l.capacity_assurance.has_value(), "options.limits.capacity_assurance");
}

}  // namespace

DemandModel restarted_model(const DemandModel& model, int month, double level) {
    require(month >= 0, "month", month, "must be >= 0");
    require_non_negative("level", level);
    DemandModel m = model;
    const double season = model.seasonality.empty() ? 1.0 : model.seasonality[std::size_t(month % 12)];
    m.base_gpus = season > 0 ? level / season : 0.0;
    if (!model.seasonality.empty())
        for (std::size_t j = 0; j < 12; ++j) m.seasonality[j] = model.seasonality[(j + std::size_t(month)) % 12];
    if (!model.hour_of_week.empty()) {  // the pattern tiles from the horizon's first hour
        constexpr std::size_t week = 168;
        const std::size_t shift = std::size_t(month) * whole_hours_per_month % week;
        for (std::size_t h = 0; h < week; ++h)
            m.hour_of_week[h] = model.hour_of_week[(h + shift) % week];
    }
    m.events.clear();
    for (DemandEvent e : model.events) {
        if (e.first_month < month) continue;
        e.first_month -= month;
        e.last_month -= month;
        m.events.push_back(e);
    }
    return m;
}

RollingReplan rolling_replan(const DemandFutures& fitted, const DemandFutures& judged, const Offering& offering,
                             const RecommendOptions& options, const RollingOptions& rolling) {
    const int horizon = judged.month_count();
    require(fitted.month_count() == horizon, "fitted.months", fitted.month_count(),
            fmt::format("must be {} (the judged futures' months)", horizon));
    check_options(options, rolling, horizon);
    const int k = rolling.every_months;
    std::vector<int> starts = options.start_months;
    if (starts.empty()) {
        require(options.review_months >= 1, "options.review_months", options.review_months, "must be >= 1");
        for (int m = 0; m < horizon; m += options.review_months) starts.push_back(m);
    }

    RollingReplan out;
    const Recommendation first = recommend_plan(fitted, offering, options);
    out.static_recommendation = first.plan;
    RecommendOptions each = options;
    each.plan_options.threads = 1;  // futures run in parallel; each solve alone

    const std::size_t n = judged.count();
    out.plans.resize(n);
    std::vector<double> rolled(n), solved(n, 0.0);
    detail::parallel_for(n, options.plan_options.threads, [&](std::size_t f) {
        // Month 0: the static recommendation, what is bought before the first re-solve kept.
        Plan plan = first.plan;
        std::erase_if(plan.commitments, [&](const Commitment& c) { return c.start_month >= k; });
        plan.name = fmt::format("re-planned every {} months", k);
        for (int t = k; t < horizon; t += k) {
            RecommendOptions o = each;
            o.start_months.clear();
            for (int s : starts)
                if (s >= t) o.start_months.push_back(s - t);
            if (o.start_months.empty()) break;  // nothing more may be bought
            for (HeldCommitment& h : o.held) {
                h.start_month -= t;
                h.end_month -= t;
            }
            std::erase_if(o.held, [](const HeldCommitment& h) { return h.end_month <= 0; });
            for (const Commitment& c : plan.commitments) {
                HeldCommitment h = held_from(c, t, offering, options.plan_options, horizon);
                if (h.end_month > 0) o.held.push_back(std::move(h));
            }
            const DemandModel model = restarted_model(*rolling.model, t, level_seen(judged, f, t, *rolling.model));
            const std::uint64_t seed = splitmix64(rolling.seed ^ splitmix64(std::uint64_t(f) * 1024 + std::uint64_t(t)));
            const DemandFutures ahead = DemandFutures::generate(model, Horizon::months(horizon - t), rolling.futures, seed);
            const Recommendation r = recommend_plan(ahead, offering, o);
            solved[f] += 1;
            for (Commitment c : r.plan.commitments) {
                if (c.start_month >= k) continue;  // left to the next review
                c.start_month += t;
                plan.commitments.push_back(c);
            }
        }
        const PlanDistribution d = evaluate_plan(plan, judged.future(f), offering, {}, options.plan_options);
        rolled[f] = measure(d.futures.front(), options.objective);
        out.plans[f] = std::move(plan);
    });

    const PlanDistribution static_d = evaluate_plan(first.plan, judged, offering, {}, options.plan_options);
    std::vector<double> fixed(n), saving(n);
    for (std::size_t f = 0; f < n; ++f) {
        fixed[f] = measure(static_d.futures[f], options.objective);
        saving[f] = fixed[f] - rolled[f];
    }
    const HindsightBound bound = hindsight_plan_totals(judged, offering, options);
    out.rolling = costs_of(std::move(rolled));
    out.static_plan = costs_of(std::move(fixed));
    out.hindsight = costs_of(bound.totals);
    out.hindsight_exact = bound.exact;
    out.saving = costs_of(std::move(saving));
    out.solves = 1;
    for (double s : solved) out.solves += int(s);
    return out;
}

}  // namespace gputco
