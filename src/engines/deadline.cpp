// Deadline-aware spot policies: a tick-by-tick simulator shared by every policy, the omniscient
// optimum by dynamic programming, and a seeded Monte Carlo over generated traces. See deadline.hpp.
#include "gputco/engines/deadline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <boost/random/bernoulli_distribution.hpp>
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "deadline_rules.hpp"

namespace gputco {

namespace {

constexpr double max_job_ticks = 1e9;  // keeps tick counts exact and the simulation's memory sane

// hours / tick_hours as a whole number; the caller has checked both are finite and hours >= 0.
std::size_t ticks_of(double hours, double tick_hours) {
    return static_cast<std::size_t>(std::round(hours / tick_hours));
}

void require_whole_ticks(std::string_view field, double hours, double tick_hours) {
    const double ratio = hours / tick_hours;
    require(ratio <= max_job_ticks, field, hours, fmt::format("must be at most 1e9 ticks (tick_hours = {})", tick_hours));
    // Relative tolerance: 0.3 h in 0.1 h ticks is 2.9999999999999996 ticks in binary.
    require(std::abs(ratio - std::round(ratio)) <= 1e-9 * std::max(1.0, ratio), field, hours,
            fmt::format("must be a whole number of ticks (tick_hours = {})", tick_hours));
}

void require_prices(double spot_price_per_hour, double on_demand_price_per_hour) {
    require_positive_price("spot_price_per_hour", spot_price_per_hour);
    require_positive_price("on_demand_price_per_hour", on_demand_price_per_hour);
}

void require_covers_deadline(const SpotAvailability& availability, const DeadlineJob& job) {
    const double tick = availability.tick_hours;
    require(tick == 0 || std::abs(tick - job.tick_hours) <= 1e-9 * job.tick_hours, "availability.tick_hours", tick,
            fmt::format("must equal deadline_job.tick_hours = {} (resample the trace with resampled())",
                        job.tick_hours));
    require(availability.ticks() >= job.deadline_ticks(), "availability.ticks", availability.ticks(),
            fmt::format("must cover the deadline, >= {} ticks", job.deadline_ticks()));
}

std::string_view trim_cell(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r");
    return s.substr(first, last - first + 1);
}

// Path i's trace depends only on (seed, i).
std::uint64_t path_seed(std::uint64_t seed, std::size_t path) {
    return splitmix64(splitmix64(seed) ^ splitmix64(0xA0761D6478BD642FULL * (path + 1)));
}

}  // namespace

void DeadlineJob::validate() const {
    // Durations within the library's range (limits.hpp): costs of at most 1e9 h x 1e12 per hour stay finite.
    require_duration("deadline_job.compute_hours", compute_hours);
    require_duration("deadline_job.deadline_hours", deadline_hours);
    require_at_most("deadline_job.changeover_hours", changeover_hours, limits::max_hours);
    require_duration("deadline_job.tick_hours", tick_hours);
    require_whole_ticks("deadline_job.compute_hours", compute_hours, tick_hours);
    require_whole_ticks("deadline_job.deadline_hours", deadline_hours, tick_hours);
    require_whole_ticks("deadline_job.changeover_hours", changeover_hours, tick_hours);
    require(deadline_ticks() >= compute_ticks() + changeover_ticks(), "deadline_job.deadline_hours", deadline_hours,
            fmt::format("must be >= compute_hours + changeover_hours = {} (infeasible even on demand)",
                        compute_hours + changeover_hours));
}

std::size_t DeadlineJob::compute_ticks() const { return ticks_of(compute_hours, tick_hours); }
std::size_t DeadlineJob::deadline_ticks() const { return ticks_of(deadline_hours, tick_hours); }
std::size_t DeadlineJob::changeover_ticks() const { return ticks_of(changeover_hours, tick_hours); }

void MarkovAvailability::validate(double tick_hours) const {
    require_positive("tick_hours", tick_hours);
    const std::string rule = fmt::format("must be >= tick_hours = {}", tick_hours);
    require(std::isfinite(mean_up_hours) && mean_up_hours >= tick_hours, "markov.mean_up_hours", mean_up_hours, rule);
    require(std::isfinite(mean_down_hours) && mean_down_hours >= tick_hours, "markov.mean_down_hours",
            mean_down_hours, rule);
}

std::size_t SpotAvailability::available_ticks() const {
    return static_cast<std::size_t>(std::count(available.begin(), available.end(), true));
}

SpotAvailability SpotAvailability::from_text(std::string_view text) {
    SpotAvailability result;
    std::size_t line_number = 0;
    bool first_row = true;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view raw = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++line_number;
        const std::string_view line = trim_cell(raw);
        if (line.empty() || line.front() == '#') continue;
        const auto comma = line.rfind(',');
        const std::string_view value = trim_cell(comma == std::string_view::npos ? line : line.substr(comma + 1));
        const bool header_allowed = first_row && comma != std::string_view::npos;
        first_row = false;
        if (value == "1" || value == "0") {
            result.available.push_back(value == "1");
        } else if (!header_allowed) {
            fail(fmt::format("availability line {}", line_number), line, "must be 0 or 1");
        }
    }
    require(result.ticks() > 0, "availability.ticks", result.ticks(), "must be > 0");
    return result;
}

SpotAvailability SpotAvailability::markov(const MarkovAvailability& process, std::size_t ticks, double tick_hours,
                                          std::uint64_t seed) {
    process.validate(tick_hours);
    require(static_cast<double>(ticks) <= max_job_ticks, "ticks", ticks, "must be at most 1e9");
    Xoshiro256pp engine(seed);
    boost::random::bernoulli_distribution<double> start_up(process.availability_fraction());
    boost::random::bernoulli_distribution<double> end_up(tick_hours / process.mean_up_hours);
    boost::random::bernoulli_distribution<double> end_down(tick_hours / process.mean_down_hours);
    SpotAvailability result;
    result.tick_hours = tick_hours;
    result.available.resize(ticks);
    bool up = start_up(engine);
    for (std::size_t k = 0; k < ticks; ++k) {
        result.available[k] = up;
        if (up ? end_up(engine) : end_down(engine)) up = !up;
    }
    return result;
}

SpotAvailability SpotAvailability::always_available(std::size_t ticks) {
    return SpotAvailability{std::vector<bool>(ticks, true)};
}

std::vector<DeadlinePolicy> all_deadline_policies() { return all_values<DeadlinePolicy>(); }

DeadlinePolicy parse_deadline_policy(std::string_view name, std::string_view field) {
    return parse<DeadlinePolicy>(name, field);
}

SpotTranche deadline_tranche(const std::vector<double>& cost_samples, const DeadlineJob& job,
                             double spot_price_per_hour) {
    job.validate();
    require_positive_price("spot_price_per_hour", spot_price_per_hour);
    require(!cost_samples.empty(), "cost_samples.size", 0, "must be >= 1");
    const double useful = job.compute_hours * spot_price_per_hour;  // the cost if all of it ran on spot
    SpotTranche tranche;
    tranche.price_per_gpu_hour = spot_price_per_hour;
    tranche.overhead_samples.resize(cost_samples.size());
    double sum = 0;
    for (std::size_t i = 0; i < cost_samples.size(); ++i) {
        const double overhead = cost_samples[i] / useful;
        require(std::isfinite(overhead) && overhead >= 1.0, fmt::format("cost_samples[{}]", i), cost_samples[i],
                fmt::format("must be >= compute_hours x spot_price_per_hour = {}", useful));
        tranche.overhead_samples[i] = overhead;
        sum += overhead;
    }
    tranche.overhead = sum / static_cast<double>(cost_samples.size());
    return tranche;
}

deadline_rules::PolicyRun deadline_rules::run_policy(const DeadlineJob& job, const SpotAvailability& spot,
                                                     const SpotAvailability* on_demand, DeadlinePolicy policy,
                                                     double spot_price_per_hour, double on_demand_price_per_hour) {
    RunState s;
    s.deadline = static_cast<long long>(job.deadline_ticks());
    s.compute = static_cast<long long>(job.compute_ticks());
    s.changeover = static_cast<long long>(job.changeover_ticks());
    std::size_t spot_ticks = 0, on_demand_ticks = 0, idle_ticks = 0;
    PolicyRun run;
    DeadlineResult& r = run.result;
    // Every policy finishes by the deadline when on-demand is always there (it stays feasible), so this
    // loop ends there; past the trace spot counts as unavailable.
    while (s.done < s.compute) {
        const auto k = static_cast<std::size_t>(s.tick);
        const bool available = k < spot.ticks() && spot.available[k];
        if (preempt(s, [&] { return available; })) ++r.preemptions;
        TickDecision decision = TickDecision::on_demand;
        switch (policy) {
            case DeadlinePolicy::greedy: decision = greedy(s, available); break;
            case DeadlinePolicy::uniform_progress: decision = uniform_progress(s, available); break;
            case DeadlinePolicy::on_demand_only: decision = TickDecision::on_demand; break;
            case DeadlinePolicy::greedy_simple: decision = greedy_simple(s, available); break;
            case DeadlinePolicy::uniform_progress_prose: decision = uniform_progress_prose(s, available); break;
        }
        // The failover finds no on-demand: this tick idles and the policy decides again next tick.
        if (on_demand) {
            const bool on_demand_up = k >= on_demand->ticks() || on_demand->available[k];
            if (decision == TickDecision::on_demand && s.instance != TickDecision::on_demand && !on_demand_up) {
                decision = TickDecision::none;
                run.capacity_found = false;
            }
        }
        ++(decision == TickDecision::none ? idle_ticks : decision == TickDecision::spot ? spot_ticks : on_demand_ticks);
        if (step(s, decision)) ++r.changeovers;
        r.decisions.push_back(decision);
        r.spot_available.push_back(available);
        r.progress_hours.push_back(static_cast<double>(s.done) * job.tick_hours);
    }
    r.spot_hours = static_cast<double>(spot_ticks) * job.tick_hours;
    r.on_demand_hours = static_cast<double>(on_demand_ticks) * job.tick_hours;
    r.idle_hours = static_cast<double>(idle_ticks) * job.tick_hours;
    r.cost = r.spot_hours * spot_price_per_hour + r.on_demand_hours * on_demand_price_per_hour;
    r.finish_hours = static_cast<double>(s.tick) * job.tick_hours;
    r.met_deadline = s.tick <= s.deadline;
    r.tick_hours = job.tick_hours;
    return run;
}

DeadlineResult simulate_deadline(const DeadlineJob& job, const SpotAvailability& availability, DeadlinePolicy policy,
                                 double spot_price_per_hour, double on_demand_price_per_hour) {
    job.validate();
    require_prices(spot_price_per_hour, on_demand_price_per_hour);
    require_covers_deadline(availability, job);
    return deadline_rules::run_policy(job, availability, nullptr, policy, spot_price_per_hour, on_demand_price_per_hour)
        .result;
}

double omniscient_cost(const DeadlineJob& job, const SpotAvailability& availability, double spot_price_per_hour,
                       double on_demand_price_per_hour, const StopCheck& should_stop) {
    job.validate();
    require_prices(spot_price_per_hour, on_demand_price_per_hour);
    require_covers_deadline(availability, job);

    const std::size_t K = job.deadline_ticks(), C = job.compute_ticks(), D = job.changeover_ticks();
    // State at a tick boundary: compute done w < C, what ran in the last tick, its changeover left o.
    // Slot 0 = idle, 1 + o = spot, 2 + D + o = on-demand (o in [0, D]).
    const std::size_t slots = 3 + 2 * D;
    const auto slot = [D](TickDecision instance, std::size_t o) -> std::size_t {
        if (instance == TickDecision::none) return 0;
        return (instance == TickDecision::spot ? 1 : 2 + D) + o;
    };
    constexpr double unreached = std::numeric_limits<double>::infinity();
    std::vector<double> cost(C * slots, unreached), next(C * slots, unreached);
    cost[slot(TickDecision::none, 0)] = 0;
    double best = unreached;
    const double spot_tick = spot_price_per_hour * job.tick_hours;
    const double on_demand_tick = on_demand_price_per_hour * job.tick_hours;
    constexpr TickDecision actions[] = {TickDecision::none, TickDecision::spot, TickDecision::on_demand};

    gputco::StopPoll poll(should_stop, std::size_t(1) << 20, "omniscient_cost: stopped");
    for (std::size_t k = 0; k < K; ++k) {
        poll.step(C * slots);
        std::fill(next.begin(), next.end(), unreached);
        const bool available = availability.available[k];
        for (std::size_t w = 0; w < C; ++w) {
            for (std::size_t j = 0; j < slots; ++j) {
                const double here = cost[w * slots + j];
                if (here == unreached) continue;
                const TickDecision instance =
                    j == 0 ? TickDecision::none : (j <= 1 + D ? TickDecision::spot : TickDecision::on_demand);
                const std::size_t o = j == 0 ? 0 : (j <= 1 + D ? j - 1 : j - 2 - D);
                for (const TickDecision a : actions) {
                    if (a == TickDecision::none) {
                        double& target = next[w * slots + slot(TickDecision::none, 0)];
                        target = std::min(target, here);
                        continue;
                    }
                    if (a == TickDecision::spot && !available) continue;
                    // A spot instance still there (available now) or on-demand continues; else a launch.
                    std::size_t left = a == instance ? o : D;
                    std::size_t w_next = w;
                    if (left > 0) --left;
                    else ++w_next;
                    const double total = here + (a == TickDecision::spot ? spot_tick : on_demand_tick);
                    if (w_next == C) {
                        best = std::min(best, total);
                    } else {
                        double& target = next[w_next * slots + slot(a, left)];
                        target = std::min(target, total);
                    }
                }
            }
        }
        std::swap(cost, next);
    }
    return best;  // finite: on-demand from the start finishes by the deadline
}

void DeadlineSimulationOptions::validate() const {
    require(paths > 0, "options.paths", paths, "must be > 0");
    require(confidence > 0.0 && confidence < 1.0, "options.confidence", confidence, "must be in (0, 1)");
}

DeadlineComparison compare_deadline_policies(const DeadlineJob& job, const MarkovAvailability& process,
                                             double spot_price_per_hour, double on_demand_price_per_hour,
                                             const DeadlineSimulationOptions& options,
                                             const std::vector<DeadlinePolicy>& policies) {
    job.validate();
    process.validate(job.tick_hours);
    require_prices(spot_price_per_hour, on_demand_price_per_hour);
    options.validate();

    DeadlineComparison result;
    result.paths = options.paths;
    result.seed = options.seed;
    result.policies.resize(policies.size());
    std::vector<std::size_t> misses(policies.size(), 0);
    for (std::size_t i = 0; i < policies.size(); ++i) {
        result.policies[i].policy = policies[i];
        result.policies[i].cost_samples.reserve(options.paths);
    }
    std::vector<double> omniscient;
    deadline_rules::StopPoll poll(options.should_stop, "compare_deadline_policies", &options.progress, options.paths);
    for (std::size_t path = 0; path < options.paths; ++path) {
        poll(path);
        const SpotAvailability trace =
            SpotAvailability::markov(process, job.deadline_ticks(), job.tick_hours, path_seed(options.seed, path));
        for (std::size_t i = 0; i < policies.size(); ++i) {
            const DeadlineResult r =
                simulate_deadline(job, trace, policies[i], spot_price_per_hour, on_demand_price_per_hour);
            result.policies[i].cost_samples.push_back(r.cost);
            if (!r.met_deadline) ++misses[i];
        }
        if (options.omniscient)
            omniscient.push_back(
                omniscient_cost(job, trace, spot_price_per_hour, on_demand_price_per_hour, options.should_stop));
    }
    for (std::size_t i = 0; i < policies.size(); ++i) {
        auto& outcome = result.policies[i];
        outcome.cost = summarize(outcome.cost_samples, options.confidence);
        outcome.deadline_miss_probability = static_cast<double>(misses[i]) / static_cast<double>(options.paths);
    }
    if (options.omniscient) {
        result.omniscient_cost = summarize(omniscient, options.confidence);
        result.omniscient_samples = std::move(omniscient);
    }
    poll.finish();
    return result;
}

}  // namespace gputco
