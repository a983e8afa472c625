// Limits that fail fast (limits.hpp).
#include "limits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include <boost/math/quadrature/gauss_kronrod.hpp>
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

// Integral of a Weibull(k, lambda) survival e^{-(x/lambda)^k} over [a, b]: (lambda / k) (g(1/k, z_b) -
// g(1/k, z_a)), g the lower incomplete gamma and z = (x / lambda)^k. When the two are too close to
// subtract, (b - a) e^{-(a/lambda)^k}, which is never less (the survival falls).
double weibull_survival_integral(const Weibull& m, double a, double b) {
    using Quiet = boost::math::policies::policy<boost::math::policies::overflow_error<
        boost::math::policies::ignore_error>>;
    const double s = 1.0 / m.shape;
    const double za = std::pow(a / m.scale_hours, m.shape), zb = std::pow(b / m.scale_hours, m.shape);
    const double ga = boost::math::tgamma_lower(s, za, Quiet()), gb = boost::math::tgamma_lower(s, zb, Quiet());
    const double rectangle = (b - a) * std::exp(-za);
    if (!(std::isfinite(gb) && gb - ga > 1e-6 * gb)) return rectangle;
    return std::min(m.scale_hours / m.shape * (gb - ga), rectangle);
}

// E[min((X + shift)+, limit)]: the mean running time of a launch past `-shift` hours of it (or with
// `shift` hours more), counted up to `limit` hours. A launch keeps at most the whole job, so a heavy
// tail (a Weibull shape near 0, whose mean is huge) counts only up to it. `limit` for the price-driven
// model (no lifetime law).
double mean_running_within(const InterruptionModel& model, double shift, double limit) {
    if (!(limit > 0.0)) return 0.0;
    if (!(limit < inf)) return mean_useful_hours(model, shift);
    return std::visit(
        [shift, limit, &model](const auto& m) -> double {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, Poisson>) {
                const double mtbf = m.mtbf_hours;
                if (shift >= limit) return limit;
                if (shift >= 0) return shift - mtbf * std::expm1(-(limit - shift) / mtbf);
                return -mtbf * std::exp(shift / mtbf) * std::expm1(-limit / mtbf);  // memoryless
            } else if constexpr (std::is_same_v<M, Weibull>) {
                const double head = std::clamp(shift, 0.0, limit);  // the hours added, counted whole
                const double from = std::max(-shift, 0.0);
                const double within = head + weibull_survival_integral(m, from, from + (limit - head));
                const double bound = std::min(mean_useful_hours(model, shift), limit);
                return std::isfinite(within) && within >= 0.0 ? std::min(within, bound) : bound;
            } else if constexpr (std::is_same_v<M, Trace>) {
                double sum = 0;
                for (double l : m.lifetimes_hours) sum += std::clamp(l + shift, 0.0, limit);
                return sum / static_cast<double>(m.lifetimes_hours.size());
            } else {
                return limit;
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

// Without an emergency checkpoint the job's first segment is kept only by a launch that outlives it and
// its write (s hours, the protection period taken off: it lengthens a launch; the notice does not, as a
// lifetime model's launch ends at its lifetime plus the protection period). The first launch does so
// with probability P0 = P(X >= s - protection), each later one, after its restart, with P1 = P(X >= R + s
// - protection), so the first segment alone takes 1 + (1 - P0) / P1 launches on average. (Each further
// segment is not another such factor: a launch that keeps one may keep the next; the full-segment bound
// below counts them.)
double expected_launches_at_least(const Job& job, const Plan& plan, const InterruptionModel& model,
                                  const ProviderRules& rules) {
    const double first_segment = (plan.full_left > 0.0 ? job.checkpoint_interval_hours : plan.last_work) +
                                 job.checkpoint_write_hours - rules.protection_hours;
    const double first_fails = -std::expm1(log_survival(model, first_segment));
    if (!(first_fails > 0.0)) return 1.0;
    return 1.0 + first_fails * std::exp(-log_survival(model, job.restart_hours + first_segment));
}

// The running time the whole job takes when nothing interrupts it: its work and a write per segment
// (the pricer's time_to_finish of a fresh path, without a restart).
double whole_job_hours(const Job& job, const Plan& plan) {
    return job.work_hours + (plan.full_left + 1.0) * job.checkpoint_write_hours;
}

// P(the first launch does not finish the whole job), at least: it needs no restart, only the work and
// the writes (all but the last with an emergency checkpoint, whose notice may finish the last write), the
// protection period taken off the time it must live; 1 when the lifetime cap is shorter.
double first_launch_fails(const Job& job, const Plan& plan, const InterruptionModel& model,
                          const ProviderRules& rules, bool emergency) {
    const double needs = whole_job_hours(job, plan) - (emergency ? job.checkpoint_write_hours : 0.0);
    if (rules.max_lifetime_hours < needs) return 1.0;
    return -std::expm1(log_survival(model, needs - rules.protection_hours));
}

// Running time a launch after an interruption needs to make any progress: its restart and, without an
// emergency checkpoint, a segment (the last, shortest one at least) and its write. With one, it keeps
// work only if its notice comes after the restart, or it finishes the job. The time a path still needs
// after a restart, D, falls by at most a failed launch's running time u to its notice, plus one write
// (an emergency save may plan one segment fewer), and u < D - notice: so afterwards D > notice - write,
// unless nothing was kept (D is still the whole job's, work + writes).
double progress_needs_hours(const Job& job, const Plan& plan, const ProviderRules& rules, bool emergency) {
    if (!emergency) return job.restart_hours + plan.last_work + job.checkpoint_write_hours;
    return job.restart_hours +
           std::min(whole_job_hours(job, plan), std::max(rules.notice_hours - job.checkpoint_write_hours, 0.0));
}

// Unless the first launch (no restart) finishes the whole job, some later launch must make progress,
// and one comes in 1 / P(lifetime + protection > progress_needs_hours) launches on average.
double expected_relaunches_at_least(const Job& job, const Plan& plan, const InterruptionModel& model,
                                    const ProviderRules& rules, bool emergency) {
    const double first_fails = first_launch_fails(job, plan, model, rules, emergency);
    if (!(first_fails > 0.0)) return 0.0;  // the first launch always finishes: no relaunch at all
    const double needs = progress_needs_hours(job, plan, rules, emergency);
    if (rules.max_lifetime_hours < needs) return inf;  // the lifetime cap ends every launch sooner
    return first_fails * std::exp(-log_survival(model, needs - rules.protection_hours));
}

// E[(min(Z, c) - a)+] is at most E[(Z - a)+] (`excess`) and at most (c - a) P(Z > a) (`room`, `reach`):
// the cap on a launch's lifetime bounds a heavy tail's excess.
double excess_at_most(double excess, double room, double reach) {
    return reach > 0.0 ? std::min(excess, room * reach) : 0.0;
}

// What one launch keeps on average, at most: its running time u past the restart, until its notice
// (`notice`: with an emergency checkpoint) or its end, is E[u+]. Under a lifetime model it keeps whole
// segments of tau (s hours with the write) and at most one part-segment saved in its notice, so also
// at most tau x (P(u > 0) + E[u+] / s): a write much longer than the interval keeps little.
double kept_at_most(const Job& job, const Plan& plan, const InterruptionModel& model, const ProviderRules& rules,
                    double notice, double restart) {
    const double shift = rules.protection_hours - notice - restart;
    const double room = rules.max_lifetime_hours - notice - restart;
    if (std::holds_alternative<PriceDriven>(model))
        return std::min(mean_useful_hours(model, shift), std::max(room, 0.0));
    if (room <= 0.0) return 0.0;
    const double runs = std::exp(log_survival(model, -shift));  // P(u > 0)
    // A launch keeps at most the whole job: u counts up to the work and its writes.
    const double running = excess_at_most(mean_running_within(model, shift, whole_job_hours(job, plan)), room, runs);
    const double s = job.checkpoint_interval_hours + job.checkpoint_write_hours;
    return std::min(running, job.checkpoint_interval_hours * (runs + running / s));
}

// Without an emergency checkpoint a launch keeps whole segments only, and each of the job's full
// segments (all but the last) is kept by a launch that runs a full segment and its write, s hours, for
// it. A launch that runs Y hours past its restart finishes at most floor(Y / s) full segments, and
// E[floor(Y / s)] <= P(Y >= s) + E[(Y - s)+] / s, with Y = min(X + protection, lifetime cap) - restart.
// So the full-segment work one launch keeps is at most tau x that, for every lifetime model.
double full_segment_work_at_most(const Job& job, const InterruptionModel& model, const ProviderRules& rules,
                                 double restart) {
    const double s = job.checkpoint_interval_hours + job.checkpoint_write_hours;
    const double room = rules.max_lifetime_hours - restart - s;  // the cap's time past one full segment
    if (room < 0.0) return 0.0;
    const double reach = std::exp(log_survival(model, restart + s - rules.protection_hours));
    const double excess = mean_useful_hours(model, rules.protection_hours - restart - s);  // E[(X + p - R - s)+]
    const double beyond = excess_at_most(excess, room, reach);
    return job.checkpoint_interval_hours * (reach + beyond / s);
}

// The first launch (no restart) keeps at most the bound above, and at most tau / s x E[min(L, c)] of
// the job's full-segment work, c the time its full segments and writes take and L = min(X + protection,
// lifetime cap): E[min(X + p, c')] with c' = min(c, cap).
double first_full_segment_work_at_most(const Job& job, const Plan& plan, const InterruptionModel& model,
                                       const ProviderRules& rules) {
    const double s = job.checkpoint_interval_hours + job.checkpoint_write_hours;
    const double c = std::min(plan.full_left * s, rules.max_lifetime_hours);
    const double p = rules.protection_hours;
    const double running = mean_running_within(model, p, c);
    const double capped = std::isfinite(running) ? job.checkpoint_interval_hours / s * running : inf;
    return std::min(capped, full_segment_work_at_most(job, model, rules, 0.0));
}

// The launches before one makes progress, by the larger of two lower bounds, each named by what it
// needs: the first segment's (without an emergency checkpoint) and the relaunches'.
double check_launches_before_progress(const Job& job, const Plan& plan, const InterruptionModel& model,
                                      const ProviderRules& rules, bool emergency) {
    const double expected = emergency ? 1.0 : expected_launches_at_least(job, plan, model, rules);
    const double relaunches = expected_relaunches_at_least(job, plan, model, rules, emergency);
    if (expected >= relaunches) {
        require(expected <= max_launches_expected, "job.checkpoint_interval_hours", job.checkpoint_interval_hours,
                fmt::format("expects at least {:.3g} launches per path (limit 1e8): without an emergency "
                            "checkpoint a launch must outlive a segment and its write ({:g} h), rare under this "
                            "interruption model; use a shorter interval",
                            expected, job.checkpoint_interval_hours + job.checkpoint_write_hours));
        return expected;
    }
    require(relaunches <= max_launches_expected, "job.restart_hours", job.restart_hours,
            fmt::format("expects at least {:.3g} launches per path (limit 1e8): {} an emergency checkpoint a launch "
                        "after an interruption must outlive {} ({:g} h), rare under this interruption model",
                        relaunches, emergency ? "with" : "without",
                        emergency ? "its restart and its notice less one checkpoint write"
                                  : "the restart, the last segment and its write",
                        progress_needs_hours(job, plan, rules, emergency)));
    return relaunches;
}

// Without an emergency checkpoint, Wald's identity over the full segments' work: E[launches] >= 1 +
// (full work - E[kept by the first]) / E[kept by a later one], when the first launch can fail. The
// bounds before progress count one segment: this one sees many segments each waiting for a rare launch
// that outlives the restart and a segment.
double check_full_segments(const Job& job, const Plan& plan, const InterruptionModel& model,
                           const ProviderRules& rules) {
    const double full_work = plan.full_left * job.checkpoint_interval_hours;
    if (!(full_work > 0.0 && first_launch_fails(job, plan, model, rules, false) > 0.0)) return 1.0;
    const double first = first_full_segment_work_at_most(job, plan, model, rules);
    const double later = full_segment_work_at_most(job, model, rules, job.restart_hours);
    const double left = full_work - first;
    const double launches = left > 1e-9 * full_work ? (later > 0.0 ? 1.0 + left / later : inf) : 1.0;  // rounding
    require(launches <= max_launches_expected, "job.checkpoint_interval_hours", job.checkpoint_interval_hours,
            fmt::format("needs at least {:.3g} launches per path (limit 1e8): without an emergency checkpoint a "
                        "launch keeps whole segments only ({:g} h and its write), and after its restart one keeps "
                        "{:.3g} h of them on average; use a shorter interval",
                        launches, job.checkpoint_interval_hours, later));
    return launches;
}

// Price steps a launch waits for a slowly reverting price to fall under the cap. The log price is an
// Ornstein-Uhlenbeck process (reversion k, stationary sd sigma); with u = log(cap / price) / (sigma sqrt 2),
// the mean time to fall from x to the cap is (sqrt(pi) / k) int_a^{x'} erfcx(v) dv (erfcx(v) =
// e^{v^2} erfc(v), the solution of the generator's equation), so:
// - the first launch, from the stationary law: (sqrt(pi) / (2k)) int_a^inf erfcx(v) erfc(v) dv;
// - a relaunch, from a step's move above the cap (x' - a ~ step sd / (sigma sqrt 2) = sqrt(k step)):
//   sqrt(pi) erfcx(a) sqrt(step / k).
// In steps; continuous time (the grid adds little while the price reverts slowly, the case that matters).
struct PriceWaits {
    double first_steps, relaunch_steps;
};
PriceWaits price_waits(const PriceDriven& m, double a) {
    constexpr double largest = 26.0;  // erfc(26)^2 underflows: no wait beyond
    if (a >= largest) return {0.0, 0.0};
    const double k = m.reversion_per_hour;
    const auto integrand = [](double v) { return std::exp(v * v) * std::erfc(v) * std::erfc(v); };
    const double integral =
        boost::math::quadrature::gauss_kronrod<double, 61>::integrate(integrand, a, std::min(a + 8.0, largest), 5);
    const double root_pi = std::sqrt(M_PI);
    return {.first_steps = root_pi / (2.0 * k) * integral / m.step_hours,
            .relaunch_steps = root_pi * std::exp(a * a) * std::erfc(a) * std::sqrt(1.0 / (k * m.step_hours))};
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
    // so a segment fails (1 - q)^(-(tau + delta) / block) - 1 times on average (a launch may keep many).
    double launches = 1.0;
    const double block = std::max(m.step_hours, 1.0 / m.reversion_per_hour);
    if (!emergency && above > 0.0) {
        const double per_segment = std::exp(-std::log1p(-above) * (job.checkpoint_interval_hours +
                                                                   job.checkpoint_write_hours) / block);
        launches = 1.0 + segments * (per_segment - 1.0);  // a launch may keep many segments
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
    // Each launch first waits for the price to fall under the cap (the factor 1 / (1 - q) counts that
    // while the price reverts within a step; price_waits() while it reverts slowly).
    const PriceWaits waits = price_waits(m, z / std::sqrt(2.0));
    const double steps = span / m.step_hours / (1.0 - above) + waits.first_steps +
                         (std::max(launches, 1.0) - 1.0) * waits.relaunch_steps;
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
    // Every launch keeps at most its running time (until its notice, with an emergency checkpoint): the
    // launch that finishes the job may work on through its notice (no longer than the lifetime cap), and
    // keeps at most min(that, tau (1 + that / s)) more, in whole segments and one part. The launches
    // of a path keep `work` hours, less that at most, before their notices; by Wald's identity
    // E[launches] >= (work - that) / E[kept].
    const double notice = pricer.emergency ? rules.notice_hours : 0.0;
    const double through_notice = std::min(notice, rules.max_lifetime_hours);
    const double segment_hours = job.checkpoint_interval_hours + job.checkpoint_write_hours;
    const double finishing_extra =
        std::min(through_notice, job.checkpoint_interval_hours * (1.0 + through_notice / segment_hours));
    const double work_before_notice = std::max(job.work_hours - finishing_extra, 0.0);
    const double useful = kept_at_most(job, plan, model, rules, notice, 0.0);
    // (0 / 0 when a notice as long as any lifetime leaves no work before it: no bound from Wald then.)
    const double launches = std::isnan(useful) || work_before_notice == 0.0 ? 0.0 : work_before_notice / useful;
    require(launches <= max_launches_expected, "job.work_hours", job.work_hours,
            fmt::format("needs at least {:.3g} launches per path (limit 1e8): a launch keeps {:.3g} h of work on "
                        "average under this interruption model{}",
                        launches, useful,
                        notice > 0 ? fmt::format(" (its lifetime less the notice of {} h)", rules.notice_hours) : ""));
    work.launches_per_path = std::max(work.launches_per_path, launches);
    // The same after an interruption, where each launch first spends the restart: the first launch
    // keeps at most `useful` hours on average, every later one at most what it keeps past the
    // restart, so E[launches] >= 1 + (work - notice - useful) / E[kept after a restart].
    if (!std::holds_alternative<PriceDriven>(model) && work_before_notice > useful) {
        const double later = kept_at_most(job, plan, model, rules, notice, job.restart_hours);
        const double relaunches = later > 0 ? 1.0 + (work_before_notice - useful) / later : inf;
        require(relaunches <= max_launches_expected, "job.restart_hours", job.restart_hours,
                fmt::format("needs at least {:.3g} launches per path (limit 1e8): after an interruption a launch "
                            "keeps {:.3g} h of work on average once its restart is done",
                            relaunches, later));
        work.launches_per_path = std::max(work.launches_per_path, relaunches);
    }
    if (!poisson_closed_form && !std::holds_alternative<PriceDriven>(model)) {
        const double before_progress = check_launches_before_progress(job, plan, model, rules, pricer.emergency);
        work.launches_per_path = std::max(work.launches_per_path, before_progress);
        if (!pricer.emergency)
            work.launches_per_path = std::max(work.launches_per_path, check_full_segments(job, plan, model, rules));
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
