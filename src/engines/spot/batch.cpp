// One batch (batch.hpp): the scalar path loops and the lane kernel's driver.
#include "batch.hpp"

#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "accumulator.hpp"
#include "gputco/core/error.hpp"
#include "path_generators.hpp"

namespace gputco::spot {

namespace {

// Each batch has one random stream per lane (spot_lanes of them); a stream depends on the seed, the
// batch index and the lane only. Path i of a batch draws from lane i % spot_lanes.
std::uint64_t stream_key(std::uint64_t seed, std::size_t batch, std::size_t lane) {
    const std::size_t stream = batch * detail::spot_lanes + lane;
    return splitmix64(splitmix64(seed) ^ splitmix64(0xD1B54A32D192ED03ULL * (stream + 1)));
}

[[noreturn]] void too_many_launches(const PathPricer& p) {
    fail("job.work_hours", p.work,
         fmt::format("a path exceeded {} launches; the job cannot progress under this interruption model",
                     max_launches_per_path));
}

// Lifetime models without provider rules: every launch runs until its drawn lifetime, with the
// segments finished before the kill skipped in O(1) (detail::interrupted, the arithmetic of the Poisson
// lane kernels). A path's only state is the running time it still needs after the restart and its
// totals. `engine` is taken by value so that its state stays in registers (measured: ~8% faster).
// `Rounded` adds the billing rounding per launch; the continuous instance pays nothing for it.
template <bool Rounded, class Draw>
void plain_paths(const PathPricer& p, Draw draw, Engine engine, std::size_t count, const detail::Columns& out,
                 const std::atomic<bool>& cancel) {
    const detail::LaunchShape<double> shape = detail::launch_shape<double>(p.constants);
    const double first_rest = p.constants.first_rest;
    const double price = p.price();
    for (std::size_t i = 0; i < count; ++i) {
        if (cancel.load(std::memory_order_relaxed)) return;
        double rest = first_rest;
        double billed = 0, lost = 0, interruptions = 0;
        [[maybe_unused]] double charged = 0;
        double restart = 0;  // 0 on the first launch, R afterwards
        std::uint64_t launches = 0;
        for (;;) {
            const double kill = draw(engine);
            const double run = kill - restart;  // running time after the restart
            if (run >= rest) {
                billed += restart + rest;
                if constexpr (Rounded) charged += p.billing.charged(restart + rest);
                break;
            }
            if constexpr (Rounded) charged += p.billing.charged(kill);
            detail::interrupted(kill, run, rest, billed, lost, interruptions, shape);
            restart = p.restart;
            if ((++launches & 0xFFFF) == 0) {
                if (cancel.load(std::memory_order_relaxed)) return;
                if (launches >= max_launches_per_path) too_many_launches(p);
            }
        }
        if constexpr (!Rounded) charged = billed;  // continuous billing: charged is billed, bit for bit
        record(out, i, billed + interruptions * p.wait, billed, charged, charged * price, interruptions, lost);
    }
}

// Out of line so that it does not crowd the continuous loop inlined into the caller (with both inlined,
// g++ 12 kept the continuous loop's MTBF in memory instead of a register).
template <class Draw>
[[gnu::noinline]] void rounded_paths(const PathPricer& p, Draw draw, Engine engine, std::size_t count,
                                     const detail::Columns& out, const std::atomic<bool>& cancel) {
    plain_paths<true>(p, draw, engine, count, out, cancel);
}

// Any lifetime model, with provider rules (protection, lifetime cap, notice) applied to each launch.
template <class Draw>
void lifetime_paths(const PathPricer& p, const ProviderRules& rules, Draw draw, Engine& engine, std::size_t count,
                    const detail::Columns& out, const std::atomic<bool>& cancel) {
    if (without_rules(rules)) {
        if (p.billing.continuous())
            plain_paths<false>(p, draw, engine, count, out, cancel);
        else
            rounded_paths(p, draw, engine, count, out, cancel);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        if (cancel.load(std::memory_order_relaxed)) return;
        Path s = p.fresh();
        std::uint64_t launches = 0;
        for (;;) {
            const double need = p.time_to_finish(s);
            const double kill = std::min(draw(engine) + rules.protection_hours, rules.max_lifetime_hours);
            const double notice_at = std::max(kill - p.notice, 0.0);
            bool finished = false;
            const double billed = p.run_launch(s, need, kill, notice_at, finished);
            s.billed += billed;
            s.charged += p.billing.charged(billed);  // the same sum as billed when continuous
            if (finished) {
                s.wall += billed;
                break;
            }
            s.wall += billed + p.wait;
            if ((++launches & 0xFFFF) == 0) {
                if (cancel.load(std::memory_order_relaxed)) return;
                if (launches >= max_launches_per_path) too_many_launches(p);
            }
        }
        record(out, i, s.wall, s.billed, s.charged, s.charged * p.price(), s.interruptions, s.lost);
    }
}

// Price-driven model: launches start at grid points and run until the job is done or the price
// crosses the cap at a grid point (then the notice runs).
void price_paths(const PathPricer& p, const PriceDriven& model, Engine& engine, std::size_t count,
                 const detail::Columns& out, const std::atomic<bool>& cancel) {
    const double step = model.step_hours;
    const double cap = model.price_cap_per_hour;
    PricePath prices(model, p.price(), engine);
    for (std::size_t i = 0; i < count; ++i) {
        if (cancel.load(std::memory_order_relaxed)) return;
        prices.restart();
        Path s = p.fresh();
        double cost = 0;
        double ready = 0;  // earliest wall time of the next launch
        std::uint64_t launches = 0;
        for (;;) {
            auto j = static_cast<std::size_t>(std::ceil(ready / step - 1e-9));
            while (prices.price_at(j) > cap) {
                ++j;
                if ((j & 0xFFFF) == 0 && cancel.load(std::memory_order_relaxed)) return;
            }
            const double start = static_cast<double>(j) * step;
            const double need = p.time_to_finish(s);
            double kill = std::numeric_limits<double>::infinity();
            double notice_at = kill;
            for (std::size_t k = 1;; ++k) {
                if ((k & 0xFFFF) == 0 && cancel.load(std::memory_order_relaxed)) return;  // tiny steps: long scans
                const double elapsed = static_cast<double>(k) * step;
                if (elapsed >= need) break;
                if (prices.price_at(j + k) > cap) {
                    notice_at = elapsed;
                    kill = elapsed + p.notice;
                    break;
                }
            }
            bool finished = false;
            const double billed = p.run_launch(s, need, kill, notice_at, finished);
            // Integrate the price actually paid over [start, start + billed].
            double paid_until = 0;
            double last_price = prices.price_at(j);
            for (std::size_t k = 0; paid_until < billed; ++k) {
                if ((k & 0xFFFF) == 0xFFFF && cancel.load(std::memory_order_relaxed)) return;
                const double next = std::min(static_cast<double>(k + 1) * step, billed);
                last_price = prices.price_at(j + k);
                cost += last_price * (next - paid_until);
                paid_until = next;
            }
            // The rounding extra, at the price of the launch's last step (0 when continuous).
            const double charged = p.billing.charged(billed);
            if (charged > billed) cost += last_price * (charged - billed);
            s.charged += charged;
            s.billed += billed;
            if (finished) {
                s.wall = start + billed;
                break;
            }
            ready = start + billed + p.wait;
            if ((++launches & 0xFFFF) == 0) {
                if (cancel.load(std::memory_order_relaxed)) return;
                if (launches >= max_launches_per_path) too_many_launches(p);
            }
        }
        record(out, i, s.wall, s.billed, s.charged, cost, s.interruptions, s.lost);
    }
}

// The lane kernel runs the batch's eight lanes in lock-step, in chunks so that cancellation is polled.
void lane_paths(const RunSetup& setup, std::size_t batch, std::size_t count, const detail::Columns& out,
                const std::atomic<bool>& cancel) {
    detail::LifetimeLaw law;  // exponential: Poisson
    if (const auto* weibull = std::get_if<Weibull>(&setup.model)) law = WeibullLifetimes(*weibull).law();
    if (const auto* trace = std::get_if<Trace>(&setup.model)) law = TraceLifetimes(*trace).law();
    const detail::LaneJob job{setup.pricer.constants, count, out, law};
    detail::LaneState state{};
    for (std::size_t lane = 0; lane < detail::spot_lanes; ++lane) {
        const Engine engine(stream_key(setup.seed, batch, lane));
        for (std::size_t w = 0; w < 4; ++w) state.rng[w][lane] = engine.state()[w];
        state.rest[lane] = lane < count ? job.constants.first_rest : std::numeric_limits<double>::infinity();
        state.path[lane] = lane;
    }
    while (!setup.kernel.lanes(job, state, 1 << 16)) {
        if (cancel.load(std::memory_order_relaxed)) return;
        for (std::size_t lane = 0; lane < detail::spot_lanes; ++lane) {
            if (state.path[lane] < count && state.interruptions[lane] >= static_cast<double>(max_launches_per_path))
                too_many_launches(setup.pricer);
        }
    }
}

}  // namespace

bool uses_lane_kernel(const RunSetup& setup) {
    if (setup.kernel.lanes == nullptr || !setup.pricer.billing.continuous()) return false;
    return std::visit(
        [](const auto& m) {
            using M = std::decay_t<decltype(m)>;
            return !std::is_same_v<M, PriceDriven> && without_rules(m.rules);
        },
        setup.model);
}

void run_batch(const RunSetup& setup, std::size_t batch, std::size_t count, const detail::Columns& out,
               const std::atomic<bool>& cancel) {
    if (uses_lane_kernel(setup)) {
        lane_paths(setup, batch, count, out, cancel);
        return;
    }
    const PathPricer& p = setup.pricer;
    for (std::size_t lane = 0; lane < detail::spot_lanes && lane < count; ++lane) {
        Engine engine(stream_key(setup.seed, batch, lane));
        const std::size_t lane_count = (count - lane + detail::spot_lanes - 1) / detail::spot_lanes;
        const detail::Columns lane_out = lane_of(out, lane);
        std::visit(
            [&](const auto& m) {
                using M = std::decay_t<decltype(m)>;
                if constexpr (std::is_same_v<M, Poisson>) {
                    lifetime_paths(p, m.rules, PoissonLifetimes(m), engine, lane_count, lane_out, cancel);
                } else if constexpr (std::is_same_v<M, Weibull>) {
                    lifetime_paths(p, m.rules, WeibullLifetimes(m), engine, lane_count, lane_out, cancel);
                } else if constexpr (std::is_same_v<M, Trace>) {
                    lifetime_paths(p, m.rules, TraceLifetimes(m), engine, lane_count, lane_out, cancel);
                } else {
                    price_paths(p, m, engine, lane_count, lane_out, cancel);
                }
            },
            setup.model);
    }
}

}  // namespace gputco::spot
