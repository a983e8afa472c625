// Limits that fail fast (limits.hpp).
#include "limits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include <boost/math/special_functions/gamma.hpp>
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "path_pricer.hpp"

namespace gputco::spot {

namespace {

constexpr double max_launches_expected = 1e8;
// Price-driven model: price steps one path walks (each kept in memory while it runs, 8 bytes), and
// the stationary standard deviation of the log price.
constexpr double max_price_steps = 1e7;
constexpr double max_log_price_sd = 10.0;
constexpr double inf = std::numeric_limits<double>::infinity();

// Longest running time one launch can have under the model.
double longest_launch_hours(const InterruptionModel& model) {
    return std::visit(
        [](const auto& m) {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, PriceDriven>) {
                return inf;
            } else {
                double longest = inf;
                if constexpr (std::is_same_v<M, Trace>)
                    longest = *std::max_element(m.lifetimes_hours.begin(), m.lifetimes_hours.end());
                return std::min(longest + m.rules.protection_hours, m.rules.max_lifetime_hours);
            }
        },
        model);
}

const ProviderRules& rules_of(const InterruptionModel& model) {
    return std::visit([](const auto& m) -> const ProviderRules& { return m.rules; }, model);
}

// E[max(X + shift, 0)] for the model's base lifetime X: the mean running time of a launch that can
// keep work, when `-shift` hours of it (a notice before an emergency checkpoint, less the protection
// period) keep none. Infinity for the price-driven model (no lifetime law to bound).
double mean_useful_hours(const InterruptionModel& model, double shift) {
    return std::visit(
        [shift](const auto& m) -> double {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, Poisson>) {
                // Exponential: E[max(X - a, 0)] = M e^{-a/M} for a >= 0 (memoryless).
                return shift >= 0 ? m.mtbf_hours + shift : m.mtbf_hours * std::exp(shift / m.mtbf_hours);
            } else if constexpr (std::is_same_v<M, Weibull>) {
                // E[X] = lambda Gamma(1 + 1/k); E[max(X - a, 0)] = int_a^inf e^{-(x/lambda)^k} dx
                //      = lambda Gamma(1 + 1/k) Q(1/k, (a/lambda)^k), Q the regularised upper gamma.
                // Overflow (a shape near 0) gives infinity rather than an exception: no bound then.
                using Quiet = boost::math::policies::policy<boost::math::policies::overflow_error<
                    boost::math::policies::ignore_error>>;
                const double mean = m.scale_hours * boost::math::tgamma(1.0 + 1.0 / m.shape, Quiet());
                if (shift >= 0) return mean + shift;
                const double z = std::pow(-shift / m.scale_hours, m.shape);
                return std::isfinite(z) ? mean * boost::math::gamma_q(1.0 / m.shape, z, Quiet()) : 0.0;
            } else if constexpr (std::is_same_v<M, Trace>) {
                double sum = 0;
                for (double l : m.lifetimes_hours) sum += std::max(l + shift, 0.0);
                return sum / static_cast<double>(m.lifetimes_hours.size());
            } else {
                return inf;
            }
        },
        model);
}

// Poisson without protection or a usable emergency checkpoint: Daly's closed form, term by term so
// that a job of one segment (no full segments) gives 0 x e^huge = 0, not NaN.
double expected_poisson_interruptions(const Job& job, const Plan& plan, double mtbf) {
    const double n = plan.full_left + 1.0;
    const double last = plan.last_work;
    const double per_try = std::exp(job.restart_hours / mtbf);
    const double full = n > 1.0 ? (n - 1.0) * per_try * std::expm1((job.checkpoint_interval_hours +
                                                                     job.checkpoint_write_hours) / mtbf)
                                : 0.0;
    return full + per_try * std::expm1((last + job.checkpoint_write_hours) / mtbf);
}

// log P(lifetime >= t) of the model's base lifetime X (before protection and the lifetime cap);
// 0 for t <= 0. Only for the lifetime models (not the price-driven one).
double log_survival(const InterruptionModel& model, double t) {
    if (t <= 0.0) return 0.0;
    return std::visit(
        [t](const auto& m) -> double {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, Poisson>) {
                return -t / m.mtbf_hours;
            } else if constexpr (std::is_same_v<M, Weibull>) {
                return -std::pow(t / m.scale_hours, m.shape);
            } else if constexpr (std::is_same_v<M, Trace>) {
                const auto kept = std::count_if(m.lifetimes_hours.begin(), m.lifetimes_hours.end(),
                                                [t](double l) { return l >= t; });
                return std::log(static_cast<double>(kept) / static_cast<double>(m.lifetimes_hours.size()));
            } else {
                return 0.0;
            }
        },
        model);
}

// Without an emergency checkpoint a segment's work is kept only by a launch that outlives the segment
// and its write, so each segment takes at least 1 / P(lifetime >= segment + write) launches on
// average. A lower bound: the restart is left out and the protection period (which lengthens a launch)
// is taken off the time a launch must live. The notice is not: a lifetime model's launch ends at its
// lifetime plus the protection period, and the notice falls inside that time.
double expected_launches_at_least(const Job& job, const Plan& plan, const InterruptionModel& model,
                                  const ProviderRules& rules) {
    const double n = plan.full_left + 1.0;
    const double last = plan.last_work;
    const double head_start = rules.protection_hours;
    const double full =
        std::exp(-log_survival(model, job.checkpoint_interval_hours + job.checkpoint_write_hours - head_start));
    const double tail = std::exp(-log_survival(model, last + job.checkpoint_write_hours - head_start));
    return (n > 1.0 ? (n - 1.0) * full : 0.0) + tail;  // 0 x inf would be NaN with one segment
}

// After an interruption every launch restarts first, so to keep any work it must outlive the restart,
// a segment (the last, shortest one at least) and its write. The first launch needs no restart: unless
// it finishes the whole job, some later launch must keep work, and one comes in 1 / P(lifetime >=
// restart + last segment + write) launches on average. A lower bound, with the protection period
// taken off as above.
double expected_relaunches_at_least(const Job& job, const Plan& plan, const InterruptionModel& model,
                                    const ProviderRules& rules) {
    const double n = plan.full_left + 1.0;
    const double last = plan.last_work;
    const double head_start = rules.protection_hours;
    const double first_fails =
        -std::expm1(log_survival(model, job.work_hours + n * job.checkpoint_write_hours - head_start));
    if (!(first_fails > 0.0)) return 0.0;  // the first launch always finishes: no relaunch at all
    return first_fails *
           std::exp(-log_survival(model, job.restart_hours + last + job.checkpoint_write_hours - head_start));
}

// The price-driven model walks a price grid: a path takes at least span / step grid steps, more while
// the price is above the cap (a share q = P(price > cap) of the time in the stationary law, so about
// steps / (1 - q) in all), and each step's price is kept while the path runs.
SpotWorkEstimate check_price_grid(const Job& job, const Plan& plan, const PriceDriven& m, const SpotPricing& pricing,
                                  bool emergency) {
    const double log_sd = m.volatility_per_sqrt_hour / std::sqrt(2.0 * m.reversion_per_hour);
    const double max_sd_rule = max_log_price_sd * std::sqrt(2.0 * m.reversion_per_hour);
    require(log_sd <= max_log_price_sd, "price_driven.volatility_per_sqrt_hour", m.volatility_per_sqrt_hour,
            fmt::format("must be <= {:.3g} ({} x sqrt(2 x price_driven.reversion_per_hour)): a stationary "
                        "log-price standard deviation above {} puts prices beyond e^{}",
                        max_sd_rule, max_log_price_sd, max_log_price_sd, 4 * max_log_price_sd));
    const double memory_steps = 1.0 / (m.reversion_per_hour * m.step_hours);
    require(memory_steps <= max_price_steps, "price_driven.reversion_per_hour", m.reversion_per_hour,
            fmt::format("must be >= {:.3g}: a price away from its level returns over 1 / reversion hours, here "
                        "{:.3g} price steps of {} h (limit {:g})",
                        1.0 / (max_price_steps * m.step_hours), memory_steps, m.step_hours, max_price_steps));
    // P(price > cap) = P(Z > log(cap / price) / sd); 0 with no cap or a still price.
    const double z = log_sd > 0.0 ? std::log(m.price_cap_per_hour / pricing.price_per_hour) / log_sd : inf;
    const double above = 0.5 * std::erfc(z / std::sqrt(2.0));
    const double segments = plan.full_left + 1.0;
    // Without an emergency checkpoint a segment is kept only if the price stays under the cap for the
    // segment and its write: an estimate treats the price as fresh every max(step, 1 / reversion) hours,
    // so (1 - q)^(-(tau + delta) / block) launches a segment.
    double launches = 1.0;
    if (!emergency && above > 0.0) {
        const double block = std::max(m.step_hours, 1.0 / m.reversion_per_hour);
        const double per_segment = std::exp(-std::log1p(-above) * (job.checkpoint_interval_hours +
                                                                   job.checkpoint_write_hours) / block);
        launches = segments * per_segment;
        require(launches <= max_launches_expected, "job.checkpoint_interval_hours", job.checkpoint_interval_hours,
                fmt::format("expects about {:.3g} launches per path (limit 1e8): without an emergency checkpoint "
                            "the price must stay under the cap for a segment and its write ({:g} h), but it is "
                            "above it {:.3g}% of the time; use a shorter interval",
                            launches, job.checkpoint_interval_hours + job.checkpoint_write_hours, 100.0 * above));
    }
    // A path spans its work, a checkpoint write after each segment and, when the cap can stop it, a
    // capacity wait and restart per relaunch (at least one): a relaunch scans the grid over all of them.
    const double stops = above > 0.0 ? std::max(launches - 1.0, 1.0) * (job.restart_hours + job.capacity_wait_hours)
                                     : 0.0;
    const double span = job.work_hours + segments * job.checkpoint_write_hours + stops;
    const double steps = span / m.step_hours / (1.0 - above);
    require(steps <= max_price_steps, "price_driven.step_hours", m.step_hours,
            fmt::format("expects {:.3g} price steps per path (limit {:g}): a path spans at least {:g} h (work, "
                        "checkpoint writes, restarts and capacity waits) at {} h a step, the price above the cap "
                        "{:.3g}% of the time; use a longer step",
                        steps, max_price_steps, span, m.step_hours, 100.0 * above));
    return {.launches_per_path = launches, .price_steps_per_path = steps};
}

}  // namespace

SpotWorkEstimate check_limits(const Job& job, const InterruptionModel& model, const SpotPricing& pricing) {
    SpotWorkEstimate work;
    const double one_segment = job.restart_hours + job.checkpoint_interval_hours + job.checkpoint_write_hours;
    const double longest = longest_launch_hours(model);
    require(longest > one_segment, "model.longest_launch_hours", longest,
            fmt::format("must be > job.restart_hours + job.checkpoint_interval_hours + "
                        "job.checkpoint_write_hours = {} so that a launch can finish a segment",
                        one_segment));
    const ProviderRules& rules = rules_of(model);
    const PathPricer pricer(job, rules, pricing);
    const Plan plan = pricer.fresh();  // the job's segments, counted once
    const Poisson* poisson = std::get_if<Poisson>(&model);
    const bool poisson_closed_form = poisson && rules.protection_hours == 0.0 && !pricer.emergency;
    if (poisson_closed_form) {
        const double expected = expected_poisson_interruptions(job, plan, poisson->mtbf_hours);
        require(expected <= max_launches_expected, "job.checkpoint_interval_hours", job.checkpoint_interval_hours,
                fmt::format("expects {:.3g} interruptions per path at poisson.mtbf_hours = {} "
                            "(limit 1e8); use a shorter interval",
                            expected, poisson->mtbf_hours));
        work.launches_per_path = std::max(work.launches_per_path, 1.0 + expected);
    }
    // Every launch keeps at most its running time (less the notice, with an emergency checkpoint), and
    // the launches of a path keep `work` hours in all, so by Wald's identity E[launches] >= work / E[kept].
    const double notice = pricer.emergency ? rules.notice_hours : 0.0;
    const double useful = std::min(mean_useful_hours(model, rules.protection_hours - notice),
                                   std::max(rules.max_lifetime_hours - notice, 0.0));
    const double launches = std::isnan(useful) ? 0.0 : job.work_hours / useful;
    require(launches <= max_launches_expected, "job.work_hours", job.work_hours,
            fmt::format("needs at least {:.3g} launches per path (limit 1e8): a launch keeps {:.3g} h of work on "
                        "average under this interruption model{}",
                        launches, useful,
                        notice > 0 ? fmt::format(" (its lifetime less the notice of {} h)", rules.notice_hours) : ""));
    work.launches_per_path = std::max(work.launches_per_path, launches);
    // The same after an interruption, where each launch first spends the restart: the first launch
    // keeps at most `useful` hours on average, every later one at most its running time past the
    // restart, so E[launches] >= 1 + (work - useful) / E[kept after a restart].
    if (!std::holds_alternative<PriceDriven>(model) && job.work_hours > useful) {
        const double later = std::min(mean_useful_hours(model, rules.protection_hours - notice - job.restart_hours),
                                      std::max(rules.max_lifetime_hours - notice - job.restart_hours, 0.0));
        const double relaunches = later > 0 ? 1.0 + (job.work_hours - useful) / later : inf;
        require(relaunches <= max_launches_expected, "job.restart_hours", job.restart_hours,
                fmt::format("needs at least {:.3g} launches per path (limit 1e8): after an interruption a launch "
                            "keeps {:.3g} h of work on average once its restart is done",
                            relaunches, later));
        work.launches_per_path = std::max(work.launches_per_path, relaunches);
    }
    if (!poisson_closed_form && !pricer.emergency && !std::holds_alternative<PriceDriven>(model)) {
        const double expected = expected_launches_at_least(job, plan, model, rules);
        require(expected <= max_launches_expected, "job.checkpoint_interval_hours", job.checkpoint_interval_hours,
                fmt::format("expects at least {:.3g} launches per path (limit 1e8): without an emergency "
                            "checkpoint a launch must outlive a segment and its write ({:g} h), rare under this "
                            "interruption model; use a shorter interval",
                            expected, job.checkpoint_interval_hours + job.checkpoint_write_hours));
        const double relaunches = expected_relaunches_at_least(job, plan, model, rules);
        require(relaunches <= max_launches_expected, "job.restart_hours", job.restart_hours,
                fmt::format("expects at least {:.3g} launches per path (limit 1e8): without an emergency "
                            "checkpoint a launch after an interruption must outlive the restart, the last "
                            "segment and its write ({:g} h), rare under this interruption model",
                            relaunches,
                            job.restart_hours + plan.last_work + job.checkpoint_write_hours));
        work.launches_per_path = std::max({work.launches_per_path, expected, relaunches});
    }
    if (const auto* priced = std::get_if<PriceDriven>(&model)) {
        require(priced->price_cap_per_hour > pricing.price_per_hour, "price_driven.price_cap_per_hour",
                priced->price_cap_per_hour,
                fmt::format("must be > pricing.price_per_hour = {} (the median spot price)", pricing.price_per_hour));
        const SpotWorkEstimate grid = check_price_grid(job, plan, *priced, pricing, pricer.emergency);
        work.launches_per_path = std::max(work.launches_per_path, grid.launches_per_path);
        work.price_steps_per_path = grid.price_steps_per_path;
    }
    return work;
}

}  // namespace gputco::spot
