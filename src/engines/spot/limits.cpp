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
double expected_poisson_interruptions(const Job& job, double mtbf) {
    const auto n = static_cast<double>(segments_of(job.work_hours, job.checkpoint_interval_hours));
    const double last = job.work_hours - (n - 1.0) * job.checkpoint_interval_hours;
    const double per_try = std::exp(job.restart_hours / mtbf);
    const double full = n > 1.0 ? (n - 1.0) * per_try * std::expm1((job.checkpoint_interval_hours +
                                                                     job.checkpoint_write_hours) / mtbf)
                                : 0.0;
    return full + per_try * std::expm1((last + job.checkpoint_write_hours) / mtbf);
}

}  // namespace

void check_limits(const Job& job, const InterruptionModel& model, const SpotPricing& pricing) {
    const double one_segment = job.restart_hours + job.checkpoint_interval_hours + job.checkpoint_write_hours;
    const double longest = longest_launch_hours(model);
    require(longest > one_segment, "model.longest_launch_hours", longest,
            fmt::format("must be > job.restart_hours + job.checkpoint_interval_hours + "
                        "job.checkpoint_write_hours = {} so that a launch can finish a segment",
                        one_segment));
    const ProviderRules& rules = rules_of(model);
    const PathPricer pricer(job, rules, pricing);
    const Poisson* poisson = std::get_if<Poisson>(&model);
    if (poisson && rules.protection_hours == 0.0 && !pricer.emergency) {
        const double expected = expected_poisson_interruptions(job, poisson->mtbf_hours);
        require(expected <= max_launches_expected, "job.checkpoint_interval_hours", job.checkpoint_interval_hours,
                fmt::format("expects {:.3g} interruptions per path at poisson.mtbf_hours = {} "
                            "(limit 1e8); use a shorter interval",
                            expected, poisson->mtbf_hours));
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
    if (const auto* priced = std::get_if<PriceDriven>(&model)) {
        require(priced->price_cap_per_hour > pricing.price_per_hour, "price_driven.price_cap_per_hour",
                priced->price_cap_per_hour,
                fmt::format("must be > pricing.price_per_hour = {} (the median spot price)", pricing.price_per_hour));
    }
}

}  // namespace gputco::spot
