// Serving: zone availability generated from interruption models, and the Monte Carlo over it.
#include <algorithm>
#include <cmath>
#include <variant>

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/weibull_distribution.hpp>
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/serving.hpp"
#include "serving_checks.hpp"
#include "../core/parallel_for.hpp"

namespace gputco {

namespace {

double mean_up_hours(const InterruptionModel& model) {
    if (const auto* p = std::get_if<Poisson>(&model)) return p->mtbf_hours;
    if (const auto* w = std::get_if<Weibull>(&model)) return w->scale_hours * std::tgamma(1.0 + 1.0 / w->shape);
    return std::get<Trace>(model).mean_lifetime_hours();
}

double draw_up_hours(const InterruptionModel& model, Xoshiro256pp& rng) {
    if (const auto* p = std::get_if<Poisson>(&model))
        return boost::random::exponential_distribution<double>(1.0 / p->mtbf_hours)(rng);
    if (const auto* w = std::get_if<Weibull>(&model))
        return boost::random::weibull_distribution<double>(w->shape, w->scale_hours)(rng);
    const auto& lifetimes = std::get<Trace>(model).lifetimes_hours;
    return lifetimes[boost::random::uniform_int_distribution<std::size_t>(0, lifetimes.size() - 1)(rng)];
}

// A period in whole ticks, rounded up, at least one.
std::size_t period_ticks(double hours, double tick_hours) {
    const double ticks = std::ceil(hours / tick_hours);
    return ticks < 1 ? 1 : ticks > 1e15 ? static_cast<std::size_t>(1e15) : static_cast<std::size_t>(ticks);
}

}  // namespace

std::vector<SpotAvailability> generate_zone_availability(const std::vector<ZoneProcess>& processes,
                                                         double correlation, std::size_t ticks,
                                                         double tick_hours, std::uint64_t seed) {
    require(!processes.empty(), "processes.size", 0, "must be >= 1");
    require(processes.size() <= ServingLimits::max_zones, "processes.size", processes.size(),
            fmt::format("must be <= {}", ServingLimits::max_zones));
    for (std::size_t i = 0; i < processes.size(); ++i) {
        require(!std::holds_alternative<PriceDriven>(processes[i].up), fmt::format("processes[{}].up", i),
                "price_driven", "must be a Poisson, Weibull or lifetime Trace model");
        validate(processes[i].up);
        require_positive(fmt::format("processes[{}].mean_down_hours", i), processes[i].mean_down_hours);
    }
    require(correlation >= 0 && correlation <= 1, "correlation", correlation, "must be in [0, 1]");
    require(ticks > 0 && ticks <= SpotAvailability::max_ticks, "ticks", ticks,
            fmt::format("must be in [1, {}]", SpotAvailability::max_ticks));
    require_duration("tick_hours", tick_hours);

    Xoshiro256pp rng(seed);
    boost::random::uniform_01<double> uniform;
    const std::size_t zones = processes.size();
    std::vector<SpotAvailability> out(zones);
    std::vector<bool> up(zones);
    std::vector<std::size_t> left(zones);
    auto draw_down = [&](std::size_t z) {
        return period_ticks(
            boost::random::exponential_distribution<double>(1.0 / processes[z].mean_down_hours)(rng), tick_hours);
    };
    for (std::size_t z = 0; z < zones; ++z) {
        out[z].available.resize(ticks);
        out[z].tick_hours = tick_hours;
        const double mean_up = mean_up_hours(processes[z].up);
        // Start up with the long-run share of up time, in a fresh period.
        up[z] = uniform(rng) < mean_up / (mean_up + processes[z].mean_down_hours);
        left[z] = up[z] ? period_ticks(draw_up_hours(processes[z].up, rng), tick_hours) : draw_down(z);
    }
    std::vector<std::size_t> ended;
    for (std::size_t t = 0; t < ticks; ++t) {
        ended.clear();
        for (std::size_t z = 0; z < zones; ++z) {
            if (left[z] > 0) continue;
            if (up[z]) ended.push_back(z);
            up[z] = !up[z];
            left[z] = up[z] ? period_ticks(draw_up_hours(processes[z].up, rng), tick_hours) : draw_down(z);
        }
        // A shortage that ends one zone's capacity takes each other zone's with probability rho.
        if (correlation > 0) {
            for (std::size_t e = 0; e < ended.size(); ++e) {
                for (std::size_t z = 0; z < zones; ++z) {
                    if (!up[z] || uniform(rng) >= correlation) continue;
                    up[z] = false;
                    left[z] = draw_down(z);
                }
            }
        }
        for (std::size_t z = 0; z < zones; ++z) {
            out[z].available[t] = up[z];
            --left[z];
        }
    }
    return out;
}

ServingPathsResult simulate_serving_paths(const std::vector<SpotRegion>& names_and_prices,
                                          const std::vector<ZoneProcess>& processes, const ServingConfig& config,
                                          ServingPolicy policy, const ServingMonteCarlo& options) {
    require(options.paths > 0, "monte_carlo.paths", options.paths, "must be > 0");
    require(options.ticks > 0, "monte_carlo.ticks", options.ticks, "must be > 0");
    require(processes.size() == names_and_prices.size(), "processes.size", processes.size(),
            fmt::format("must equal zones.size = {}", names_and_prices.size()));
    // Check everything once, on the first path's traces, before the workers start.
    auto zones_of_path = [&](std::size_t i) {
        auto traces = generate_zone_availability(processes, options.correlation, options.ticks, config.tick_hours,
                                                 splitmix64(options.seed + i));
        std::vector<SpotRegion> zones = names_and_prices;
        for (std::size_t z = 0; z < zones.size(); ++z) zones[z].availability = std::move(traces[z]);
        return zones;
    };
    ServingConfig quiet = config;
    quiet.record_ready = false;
    serving_detail::check_zones(zones_of_path(0), quiet);
    if (options.on_demand_capacity) options.on_demand_capacity->process().validate(config.tick_hours);

    ServingPathsResult result;
    result.paths.resize(options.paths);
    std::vector<double> bounds(options.paths);
    detail::parallel_for(options.paths, options.threads, [&](std::size_t i) {
        const auto zones = zones_of_path(i);
        if (options.on_demand_capacity) {
            const auto od = SpotAvailability::markov(options.on_demand_capacity->process(), options.ticks,
                                                     config.tick_hours, splitmix64(splitmix64(options.seed + i)));
            result.paths[i] = simulate_serving(zones, od, quiet, policy);
        } else {
            result.paths[i] = simulate_serving(zones, quiet, policy);
        }
        bounds[i] = serving_lower_bound(zones, quiet).cost;
    });
    const auto n = static_cast<double>(options.paths);
    for (std::size_t i = 0; i < options.paths; ++i) {  // in path order: the sums do not depend on threads
        result.mean_cost += result.paths[i].cost / n;
        result.mean_availability += result.paths[i].availability / n;
        result.mean_saving += result.paths[i].saving / n;
        result.lower_bound_mean_cost += bounds[i] / n;
    }
    return result;
}

}  // namespace gputco
