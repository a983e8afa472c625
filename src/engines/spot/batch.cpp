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
// segments finished before the kill skipped in O(1) (detail::interrupted, the plain arithmetic of the
// lane kernels). A path's only state is the running time it still needs after the restart and its
// totals. `engine` is taken by value so that its state stays in registers (measured: ~8% faster).
// `Rounded` adds the billing rounding per launch; the continuous instance pays nothing for it.
template <bool Rounded, class Draw>
void plain_paths(const PathPricer& p, Draw draw, Engine engine, std::size_t count, const detail::Columns& out,
                 const std::atomic<bool>& cancel) {
    const detail::LaunchShape<double> shape = detail::launch_shape<double>(p.constants);
    const detail::RuleShape<double> billing = detail::rule_shape<double>(p.constants);
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
                if constexpr (Rounded) charged += detail::charged_hours(restart + rest, billing, detail::FloorByRounding{});
                break;
            }
            if constexpr (Rounded) charged += detail::charged_hours(kill, billing, detail::FloorByRounding{});
            detail::interrupted(kill, run, rest, billed, lost, shape);
            interruptions += 1;
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

// Any lifetime model under provider rules (protection, lifetime cap, notice): the ruled arithmetic of the lane kernels (detail::ruled_launch), one launch at a time.
template <class Draw>
void ruled_paths(const PathPricer& p, Draw draw, Engine engine, std::size_t count, const detail::Columns& out,
                 const std::atomic<bool>& cancel) {
    const detail::LaunchShape<double> shape = detail::launch_shape<double>(p.constants);
    const detail::RuleShape<double> rules = detail::rule_shape<double>(p.constants);
    for (std::size_t i = 0; i < count; ++i) {
        if (cancel.load(std::memory_order_relaxed)) return;
        detail::RuledPath<double> s = p.fresh_ruled();
        std::uint64_t launches = 0;
        for (;;) {
            double kill = 0, notice_at = 0;
            detail::launch_window(draw(engine), rules, kill, notice_at);
            double paid = 0;
            if (detail::ruled_launch(kill, notice_at, s, shape, rules, detail::FloorByRounding{}, paid)) break;
            if ((++launches & 0xFFFF) == 0) {
                if (cancel.load(std::memory_order_relaxed)) return;
                if (launches >= max_launches_per_path) too_many_launches(p);
            }
        }
        record(out, i, s.wall, s.billed, s.charged, s.charged * p.price(), s.interruptions, s.lost);
    }
}

// A lifetime model's paths: the plain loop where it applies, else the ruled one.
template <class Draw>
void lifetime_paths(const PathPricer& p, Draw draw, Engine engine, std::size_t count, const detail::Columns& out,
                    const std::atomic<bool>& cancel) {
    if (!p.constants.plain)
        ruled_paths(p, draw, engine, count, out, cancel);
    else if (p.constants.rounded)
        rounded_paths(p, draw, engine, count, out, cancel);
    else
        plain_paths<false>(p, draw, engine, count, out, cancel);
}

// Price-driven model: launches start at grid points and run until the job is done or the price
// crosses the cap at a grid point (then the notice runs).
void price_paths(const PathPricer& p, const PriceDriven& model, Engine& engine, std::size_t count,
                 const detail::Columns& out, const std::atomic<bool>& cancel) {
    const double step = model.step_hours;
    const double cap = model.price_cap_per_hour;
    const detail::LaunchShape<double> shape = detail::launch_shape<double>(p.constants);
    const detail::RuleShape<double> rules = detail::rule_shape<double>(p.constants);
    PricePath prices(model, p.price(), engine);
    for (std::size_t i = 0; i < count; ++i) {
        if (cancel.load(std::memory_order_relaxed)) return;
        prices.restart();
        detail::RuledPath<double> s = p.fresh_ruled();
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
            const double need = detail::time_to_finish(s, shape, rules);
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
            double billed = 0;
            const bool finished =
                detail::ruled_launch(kill, notice_at, s, shape, rules, detail::FloorByRounding{}, billed);
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
            const double charged = detail::charged_hours(billed, rules, detail::FloorByRounding{});
            if (charged > billed) cost += last_price * (charged - billed);
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
    const double never = std::numeric_limits<double>::infinity();  // a lane with no path: needs forever
    for (std::size_t lane = 0; lane < detail::spot_lanes; ++lane) {
        const Engine engine(stream_key(setup.seed, batch, lane));
        for (std::size_t w = 0; w < 4; ++w) state.rng[w][lane] = engine.state()[w];
        state.rest[lane] = lane < count ? job.constants.first_rest : never;
        state.full_left[lane] = lane < count ? job.constants.first_full_left : never;
        state.last_work[lane] = job.constants.last_work;
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
    return setup.kernel.lanes != nullptr && !std::holds_alternative<PriceDriven>(setup.model);
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
                    lifetime_paths(p, PoissonLifetimes(m), engine, lane_count, lane_out, cancel);
                } else if constexpr (std::is_same_v<M, Weibull>) {
                    lifetime_paths(p, WeibullLifetimes(m), engine, lane_count, lane_out, cancel);
                } else if constexpr (std::is_same_v<M, Trace>) {
                    lifetime_paths(p, TraceLifetimes(m), engine, lane_count, lane_out, cancel);
                } else {
                    price_paths(p, m, engine, lane_count, lane_out, cancel);
                }
            },
            setup.model);
    }
}

}  // namespace gputco::spot
