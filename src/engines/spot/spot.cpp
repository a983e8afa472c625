// The spot Monte Carlo: path generator (lifetime or price process per launch), path coster (the
// launch arithmetic below: one launch -> billed time, lost work, progress) and accumulator
// (per-path slots, then Summary). See spot.hpp for the contract and models.md for the model.
#include "gputco/engines/spot.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/weibull_distribution.hpp>
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "spot_lanes.hpp"

namespace gputco {

void SimulationOptions::validate() const {
    require(paths > 0, "options.paths", paths, "must be > 0");
    require(max_paths >= paths, "options.max_paths", max_paths, fmt::format("must be >= options.paths = {}", paths));
    require_non_negative("options.target_half_width", target_half_width);
    require(confidence > 0.0 && confidence < 1.0, "options.confidence", confidence, "must be in (0, 1)");
}

void SpotPricing::validate() const {
    require_positive("pricing.price_per_hour", price_per_hour);
    require_non_negative("pricing.on_demand_price_per_hour", on_demand_price_per_hour);
    require_non_negative("pricing.billing_increment_hours", billing_increment_hours);
    require_non_negative("pricing.minimum_billed_hours", minimum_billed_hours);
}

SpotPricing SpotPricing::from_offering(const Offering& offering) {
    const auto spot = offering.spot_per_gpu_hour();
    if (!spot) fail("offering.spot_hourly", "none", fmt::format("offering {} lists no spot price", offering.key()));
    SpotPricing pricing;
    pricing.price_per_hour = *spot;
    pricing.on_demand_price_per_hour = offering.on_demand_per_gpu_hour();
    pricing.billing_increment_hours = offering.billing_increment_seconds / 3600.0;
    pricing.minimum_billed_hours = offering.minimum_billed_seconds / 3600.0;
    return pricing;
}

namespace {

using Engine = Xoshiro256pp;

// Each batch has one random stream per lane (spot_lanes of them); a stream depends on the seed, the
// batch index and the lane only. Path i of a batch draws from lane i % spot_lanes.
std::uint64_t stream_key(std::uint64_t seed, std::size_t batch, std::size_t lane) {
    const std::size_t stream = batch * detail::spot_lanes + lane;
    return splitmix64(splitmix64(seed) ^ splitmix64(0xD1B54A32D192ED03ULL * (stream + 1)));
}

// Same rule as segment_count() in checkpoint.cpp, without validation (inputs are checked once).
std::size_t segments_of(double work, double tau) {
    const double ratio = work / tau;
    const double nearest = std::round(ratio);
    if (nearest >= 1.0 && std::abs(ratio - nearest) <= 1e-9 * ratio) return static_cast<std::size_t>(nearest);
    return static_cast<std::size_t>(std::ceil(ratio));
}

// Charged time of one launch of `run` hours: whole increments, rounded up, at least the minimum.
// No libm call (ceil is not inlined on the x86-64 baseline), so the rounded Poisson loop keeps its
// state in registers.
struct Billing {
    double increment = 0, inv_increment = 0, minimum = 0;

    bool continuous() const { return increment == 0.0 && minimum == 0.0; }

    double charged(double run) const {
        double hours = run;
        if (increment > 0.0) {
            const double x = run * inv_increment;
            double k = x < 0x1p52 ? static_cast<double>(static_cast<std::int64_t>(x)) : x;
            if (x > k * (1.0 + 1e-9)) k += 1.0;  // within 1e-9 of a whole step: binary fractions, not time
            hours = k * increment;
        }
        return std::max(hours, minimum);
    }
};

Billing make_billing(const SpotPricing& pricing) {
    const double inc = pricing.billing_increment_hours;
    return {inc, inc > 0.0 ? 1.0 / inc : 0.0, pricing.minimum_billed_hours};
}

// Constants of one job and provider rules, fixed for a run.
struct Plan {
    double work, tau, delta, seg, inv_seg, restart, wait;
    double notice;       // notice period in hours
    bool emergency;      // an emergency checkpoint fits in the notice
};

Plan make_plan(const Job& job, const ProviderRules& rules) {
    const double seg = job.checkpoint_interval_hours + job.checkpoint_write_hours;
    return {job.work_hours,   job.checkpoint_interval_hours, job.checkpoint_write_hours, seg, 1.0 / seg,
            job.restart_hours, job.capacity_wait_hours,      rules.notice_hours,
            rules.emergency_checkpoint && rules.notice_hours > 0 && job.checkpoint_write_hours <= rules.notice_hours};
}

// State of one path: the work still to do is `full_left` whole segments of tau then `last_work`.
// Counts are doubles (exact far beyond any job) to keep integer conversions out of the hot loop.
struct Path {
    double full_left = 0;
    double last_work = 0;
    bool restart_needed = false;
    double billed = 0, wall = 0, lost = 0, interruptions = 0, charged = 0;

    void plan_work(const Plan& p, double remaining_work) {
        const auto n = static_cast<double>(segments_of(remaining_work, p.tau));
        full_left = n - 1.0;
        last_work = remaining_work - full_left * p.tau;
    }
};

// Running time the job needs from launch to finish if nothing interrupts it.
inline double time_to_finish(const Path& s, const Plan& p) {
    return (s.restart_needed ? p.restart : 0.0) + s.full_left * p.seg + s.last_work + p.delta;
}

// Whole segments finished within `u` hours of running, at most `full_left`, and the offset into the
// segment under way.
inline double segments_within(double u, const Plan& p, double full_left, double& offset) {
    double m = static_cast<double>(static_cast<std::int64_t>(u * p.inv_seg));
    if (m * p.seg > u && m > 0) m -= 1.0;  // u * (1 / seg) rounded up across a multiple
    m = std::min(m, full_left);
    offset = u - m * p.seg;
    return m;
}

// The path coster for one launch whose instance is taken back at `kill` hours after launch, with
// the notice at `notice_at` (= kill without a notice). Returns the billed hours of this launch and
// updates progress; sets `finished` if the job completes. The interruption's capacity wait is left
// to the caller (it depends on the model).
inline double run_launch(Path& s, const Plan& p, double need, double kill, double notice_at, bool& finished) {
    if (need <= kill) {
        finished = true;
        return need;
    }
    finished = false;
    const double stop = p.emergency ? notice_at : kill;
    const double restart = s.restart_needed ? p.restart : 0.0;
    s.restart_needed = true;
    s.interruptions += 1.0;
    if (stop < restart) return stop;  // taken during the restart: no work to lose or save
    double offset = 0;
    const double m = segments_within(stop - restart, p, s.full_left, offset);
    const bool in_last = m == s.full_left;
    const double seg_work = in_last ? s.last_work : p.tau;
    if (offset >= seg_work) {  // writing the checkpoint of this segment
        if (p.emergency) {      // the write (<= delta <= notice) completes before the kill
            if (in_last) {       // only by rounding: the whole job was done
                finished = true;
                s.interruptions -= 1.0;
            }
            s.full_left -= m + 1.0;
            return stop + (seg_work + p.delta - offset);
        }
        s.full_left -= m;
        s.lost += seg_work;
        return stop;
    }
    if (p.emergency && offset > 0) {  // save the work of this segment with an emergency checkpoint
        s.plan_work(p, (s.full_left - m) * p.tau + s.last_work - offset);
        return stop + p.delta;
    }
    s.full_left -= m;
    s.lost += std::max(offset, 0.0);
    return stop;
}

// The output columns of one lane of a batch: its k-th path goes to element k * stride.
struct Slots {
    double* wall;
    double* billed;
    double* cost;
    double* interruptions;
    double* lost;
    double* charged;
    std::size_t stride = 1;

    /// Writes the lane's k-th path's outcome into its slot of every column.
    void record(std::size_t k, double wall_hours, double billed_hours, double charged_hours, double cost_paid,
                double interruption_count, double lost_hours) const {
        const std::size_t i = k * stride;
        wall[i] = wall_hours;
        billed[i] = billed_hours;
        charged[i] = charged_hours;
        cost[i] = cost_paid;
        interruptions[i] = interruption_count;
        lost[i] = lost_hours;
    }

    /// The slots of lane `lane` of spot_lanes interleaved lanes.
    Slots lane_of(std::size_t lane) const {
        return {wall + lane, billed + lane, cost + lane, interruptions + lane, lost + lane, charged + lane,
                detail::spot_lanes};
    }
};

// The job's constants as the lane arithmetic takes them, writing into `out` (count paths).
detail::LaneJob lane_job(const Plan& p, double price, std::size_t count, const Slots& out) {
    Path fresh;
    fresh.plan_work(p, p.work);  // the last segment is never re-planned without an emergency checkpoint
    return {.neg_mtbf = 0,
            .restart = p.restart,
            .wait = p.wait,
            .tail = fresh.last_work + p.delta,
            .last_work = fresh.last_work,
            .tau = p.tau,
            .seg = p.seg,
            .inv_seg = p.inv_seg,
            .first_rest = fresh.full_left * p.seg + fresh.last_work + p.delta,
            .price = price,
            .count = count,
            .wall = out.wall,
            .billed = out.billed,
            .cost = out.cost,
            .interruptions = out.interruptions,
            .lost = out.lost,
            .charged = out.charged};
}

constexpr std::uint64_t max_launches_per_path = 1'000'000'000ULL;

[[noreturn]] void too_many_launches() {
    throw std::runtime_error(fmt::format("spot path exceeded {} launches; the job cannot progress", max_launches_per_path));
}

// Lifetime models without provider rules: every launch runs until its drawn lifetime, with the
// segments finished before the kill skipped in O(1) (detail::interrupted, the arithmetic of the Poisson
// lane kernels). A path's only state is the running time it still needs after the restart and its
// totals. `engine` is taken by value so that its state stays in registers (measured: ~8% faster).
// `Rounded` adds the billing rounding per launch; the continuous instance pays nothing for it.
template <bool Rounded, class Draw>
void simulate_plain_batch(const Plan& p, const Billing& billing, double price, Draw draw, Engine engine,
                          std::size_t count, const Slots& out, const std::atomic<bool>& cancel) {
    const detail::LaneJob constants = lane_job(p, price, 0, {});
    const detail::LaunchShape<double> shape = detail::launch_shape<double>(constants);
    const double first_rest = constants.first_rest;
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
                if constexpr (Rounded) charged += billing.charged(restart + rest);
                break;
            }
            if constexpr (Rounded) charged += billing.charged(kill);
            detail::interrupted(kill, run, rest, billed, lost, interruptions, shape);
            restart = p.restart;
            if ((++launches & 0xFFFF) == 0) {
                if (cancel.load(std::memory_order_relaxed)) return;
                if (launches >= max_launches_per_path) too_many_launches();
            }
        }
        if constexpr (!Rounded) charged = billed;  // continuous billing: charged is billed, bit for bit
        out.record(i, billed + interruptions * p.wait, billed, charged, charged * price, interruptions, lost);
    }
}

// Out of line so that it does not crowd the continuous loop inlined into the worker (with both inlined,
// g++ 12 kept the continuous loop's MTBF in memory instead of a register).
template <class Draw>
[[gnu::noinline]] void simulate_rounded_batch(const Plan& p, const Billing& billing, double price, Draw draw,
                                              Engine engine, std::size_t count, const Slots& out,
                                              const std::atomic<bool>& cancel) {
    simulate_plain_batch<true>(p, billing, price, draw, engine, count, out, cancel);
}

// No protection period, lifetime cap or notice: every launch lives its drawn lifetime.
bool without_rules(const ProviderRules& r) {
    return r.protection_hours == 0.0 && !std::isfinite(r.max_lifetime_hours) && r.notice_hours == 0.0;
}

// Generic lifetime model: `draw(engine)` gives the base lifetime of one launch.
template <class Draw>
void simulate_lifetime_batch(const Plan& p, const ProviderRules& rules, const Billing& billing, double price,
                             Draw draw, Engine& engine, std::size_t count, const Slots& out,
                             const std::atomic<bool>& cancel) {
    const double protection = rules.protection_hours;
    const double max_life = rules.max_lifetime_hours;
    if (without_rules(rules)) {
        if (billing.continuous())
            simulate_plain_batch<false>(p, billing, price, draw, engine, count, out, cancel);
        else
            simulate_rounded_batch(p, billing, price, draw, engine, count, out, cancel);
        return;
    }
    for (std::size_t i = 0; i < count; ++i) {
        if (cancel.load(std::memory_order_relaxed)) return;
        Path s;
        s.plan_work(p, p.work);
        std::uint64_t launches = 0;
        for (;;) {
            const double need = time_to_finish(s, p);
            const double kill = std::min(draw(engine) + protection, max_life);
            const double notice_at = std::max(kill - p.notice, 0.0);
            bool finished = false;
            const double billed = run_launch(s, p, need, kill, notice_at, finished);
            s.billed += billed;
            s.charged += billing.charged(billed);  // the same sum as billed when continuous
            if (finished) {
                s.wall += billed;
                break;
            }
            s.wall += billed + p.wait;
            if ((++launches & 0xFFFF) == 0) {
                if (cancel.load(std::memory_order_relaxed)) return;
                if (launches >= max_launches_per_path) too_many_launches();
            }
        }
        out.record(i, s.wall, s.billed, s.charged, s.charged * price, s.interruptions, s.lost);
    }
}

// Price-driven model: the price process on a grid, launches start at grid points.
void simulate_price_batch(const Plan& p, const PriceDriven& model, const Billing& billing, double quoted,
                          Engine& engine, std::size_t count, const Slots& out, const std::atomic<bool>& cancel) {
    const double step = model.step_hours;
    const double kappa = model.reversion_per_hour;
    const double sigma = model.volatility_per_sqrt_hour;
    const double decay = std::exp(-kappa * step);
    const double step_sd = sigma * std::sqrt(-std::expm1(-2.0 * kappa * step) / (2.0 * kappa));
    const double stationary_sd = sigma / std::sqrt(2.0 * kappa);
    const double cap = model.price_cap_per_hour;
    boost::random::normal_distribution<double> normal;
    std::vector<double> prices;  // price of grid step j, generated on demand
    double x = 0;
    auto price_at = [&](std::size_t j) {
        while (prices.size() <= j) {
            x = prices.empty() ? stationary_sd * normal(engine) : decay * x + step_sd * normal(engine);
            prices.push_back(quoted * std::exp(x));
        }
        return prices[j];
    };
    for (std::size_t i = 0; i < count; ++i) {
        if (cancel.load(std::memory_order_relaxed)) return;
        prices.clear();
        Path s;
        s.plan_work(p, p.work);
        double cost = 0;
        double ready = 0;  // earliest wall time of the next launch
        std::uint64_t launches = 0;
        for (;;) {
            auto j = static_cast<std::size_t>(std::ceil(ready / step - 1e-9));
            while (price_at(j) > cap) {
                ++j;
                if ((j & 0xFFFF) == 0 && cancel.load(std::memory_order_relaxed)) return;
            }
            const double start = static_cast<double>(j) * step;
            const double need = time_to_finish(s, p);
            // Run until the job is done or the price crosses the cap at a grid point.
            double kill = std::numeric_limits<double>::infinity();
            double notice_at = kill;
            for (std::size_t k = 1;; ++k) {
                if ((k & 0xFFFF) == 0 && cancel.load(std::memory_order_relaxed)) return;
                const double elapsed = static_cast<double>(k) * step;
                if (elapsed >= need) break;
                if (price_at(j + k) > cap) {
                    notice_at = elapsed;
                    kill = elapsed + p.notice;
                    break;
                }
            }
            bool finished = false;
            const double billed = run_launch(s, p, need, kill, notice_at, finished);
            // Integrate the price actually paid over [start, start + billed].
            double paid_until = 0;
            double last_price = price_at(j);
            for (std::size_t k = 0; paid_until < billed; ++k) {
                if ((k & 0xFFFF) == 0xFFFF && cancel.load(std::memory_order_relaxed)) return;
                const double next = std::min(static_cast<double>(k + 1) * step, billed);
                last_price = price_at(j + k);
                cost += last_price * (next - paid_until);
                paid_until = next;
            }
            // The rounding extra, at the price of the launch's last step (0 when continuous).
            const double charged = billing.charged(billed);
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
                if (launches >= max_launches_per_path) too_many_launches();
            }
        }
        out.record(i, s.wall, s.billed, s.charged, cost, s.interruptions, s.lost);
    }
}

// Longest running time one launch can have under the model (for the progress check).
double longest_launch_hours(const InterruptionModel& model) {
    return std::visit(
        [](const auto& m) {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, PriceDriven>) {
                return std::numeric_limits<double>::infinity();
            } else {
                double longest = std::numeric_limits<double>::infinity();
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

void check_progress_possible(const Job& job, const InterruptionModel& model, const SpotPricing& pricing) {
    const double one_segment = job.restart_hours + job.checkpoint_interval_hours + job.checkpoint_write_hours;
    const double longest = longest_launch_hours(model);
    require(longest > one_segment, "model.longest_launch_hours", longest,
            fmt::format("must be > job.restart_hours + job.checkpoint_interval_hours + "
                        "job.checkpoint_write_hours = {} so that a launch can finish a segment",
                        one_segment));
    // Without protection or a usable emergency checkpoint the closed form bounds the work per path.
    const Poisson* poisson = std::get_if<Poisson>(&model);
    if (poisson && poisson->rules.protection_hours == 0.0 && !make_plan(job, poisson->rules).emergency) {
        const double expected = expected_spot_time(job, poisson->mtbf_hours).interruptions;
        require(expected <= 1e8, "job.checkpoint_interval_hours", job.checkpoint_interval_hours,
                fmt::format("expects {:.3g} interruptions per path at poisson.mtbf_hours = {} "
                            "(limit 1e8); use a shorter interval",
                            expected, poisson->mtbf_hours));
    }
    if (const auto* priced = std::get_if<PriceDriven>(&model)) {
        require(priced->price_cap_per_hour > pricing.price_per_hour, "price_driven.price_cap_per_hour",
                priced->price_cap_per_hour,
                fmt::format("must be > pricing.price_per_hour = {} (the median spot price)", pricing.price_per_hour));
    }
}

// Whether a Poisson run goes to the lane kernel: no provider rule and continuous billing (the
// other cases run the scalar loops on the same streams).
bool uses_lane_kernel(const Poisson& model, const SpotPricing& pricing) {
    return without_rules(model.rules) && make_billing(pricing).continuous();
}

struct KernelChoice {
    const char* name;
    detail::LaneKernel run;
};

// The lane kernels this CPU can run, widest last.
std::vector<KernelChoice> supported_kernels() {
    std::vector<KernelChoice> kernels{{"portable", detail::poisson_lanes_portable}};
#if defined(GPUTCO_X86_LANE_KERNELS)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) kernels.push_back({"avx2", detail::poisson_lanes_avx2});
    if (__builtin_cpu_supports("avx512f")) kernels.push_back({"avx512", detail::poisson_lanes_avx512});
#endif
    return kernels;
}

// The widest supported kernel, or the one GPUTCO_SPOT_KERNEL names.
KernelChoice choose_kernel() {
    const std::vector<KernelChoice> kernels = supported_kernels();
    const char* wanted = std::getenv("GPUTCO_SPOT_KERNEL");
    if (wanted == nullptr || *wanted == '\0' || std::string_view(wanted) == "auto") return kernels.back();
    std::string names = "auto";
    for (const KernelChoice& k : kernels) {
        if (std::string_view(wanted) == k.name) return k;
        names += fmt::format(", {}", k.name);
    }
    fail("GPUTCO_SPOT_KERNEL", std::string(wanted), fmt::format("must be one of {} (the kernels this CPU runs)", names));
}

// Poisson without provider rules, billed continuously (the common case and the benchmark): the lane
// kernel runs the batch's eight lanes in lock-step, in chunks so that cancellation is polled.
void run_poisson_lanes(detail::LaneKernel kernel, const Plan& plan, double mtbf, double price, std::uint64_t seed,
                       std::size_t batch, std::size_t count, const Slots& out, const std::atomic<bool>& cancel) {
    detail::LaneJob job = lane_job(plan, price, count, out);
    job.neg_mtbf = -mtbf;
    detail::LaneState state{};
    for (std::size_t lane = 0; lane < detail::spot_lanes; ++lane) {
        const Engine engine(stream_key(seed, batch, lane));
        for (std::size_t w = 0; w < 4; ++w) state.rng[w][lane] = engine.state()[w];
        state.rest[lane] = lane < count ? job.first_rest : std::numeric_limits<double>::infinity();
        state.path[lane] = lane;
    }
    while (!kernel(job, state, 1 << 16)) {
        if (cancel.load(std::memory_order_relaxed)) return;
        for (std::size_t lane = 0; lane < detail::spot_lanes; ++lane) {
            if (state.path[lane] < count && state.interruptions[lane] >= static_cast<double>(max_launches_per_path))
                too_many_launches();
        }
    }
}

// Runs one batch of the model into its slots: lane by lane, each with its own stream, unless the lane
// kernel takes the whole batch (the same streams, the same results).
void run_batch(const Job& job, const InterruptionModel& model, const SpotPricing& pricing,
               detail::LaneKernel kernel, std::uint64_t seed, std::size_t batch, std::size_t count,
               const Slots& out, const std::atomic<bool>& cancel) {
    const Plan plan = make_plan(job, rules_of(model));
    const Billing billing = make_billing(pricing);
    const double price = pricing.price_per_hour;
    if (const auto* poisson = std::get_if<Poisson>(&model); poisson && uses_lane_kernel(*poisson, pricing)) {
        run_poisson_lanes(kernel, plan, poisson->mtbf_hours, price, seed, batch, count, out, cancel);
        return;
    }
    for (std::size_t lane = 0; lane < detail::spot_lanes && lane < count; ++lane) {
        Engine engine(stream_key(seed, batch, lane));
        const std::size_t lane_count = (count - lane + detail::spot_lanes - 1) / detail::spot_lanes;
        const Slots lane_out = out.lane_of(lane);
        std::visit(
            [&](const auto& m) {
                using M = std::decay_t<decltype(m)>;
                if constexpr (std::is_same_v<M, Poisson>) {
                    // One exponential draw per interruption, the lane kernels' own.
                    const double neg_mtbf = -m.mtbf_hours;
                    simulate_lifetime_batch(
                        plan, m.rules, billing, price,
                        [neg_mtbf](Engine& e) { return detail::log_of_uniform<double>(e()) * neg_mtbf; }, engine,
                        lane_count, lane_out, cancel);
                } else if constexpr (std::is_same_v<M, Weibull>) {
                    boost::random::weibull_distribution<double> weibull(m.shape, m.scale_hours);
                    simulate_lifetime_batch(plan, m.rules, billing, price, [&](Engine& e) { return weibull(e); },
                                            engine, lane_count, lane_out, cancel);
                } else if constexpr (std::is_same_v<M, Trace>) {
                    boost::random::uniform_int_distribution<std::size_t> pick(0, m.lifetimes_hours.size() - 1);
                    const double* lifetimes = m.lifetimes_hours.data();
                    simulate_lifetime_batch(plan, m.rules, billing, price,
                                            [&](Engine& e) { return lifetimes[pick(e)]; }, engine, lane_count,
                                            lane_out, cancel);
                } else {
                    simulate_price_batch(plan, m, billing, price, engine, lane_count, lane_out, cancel);
                }
            },
            model);
    }
}

// Sizes the six sample columns. Zero-filling fresh memory is mostly the kernel's page faults (about
// 30 ms for 10^6 paths here), so with several threads the columns are sized in parallel.
void resize_samples(SpotSamples& s, std::size_t n, unsigned threads) {
    std::vector<double>* columns[] = {&s.wall_hours,      &s.billed_hours,     &s.cost, &s.interruptions,
                                      &s.lost_work_hours, &s.charged_hours};
    constexpr unsigned count = 6;
    const unsigned helpers = n < (1u << 16) ? 0 : std::min(threads, count) - 1;
    std::vector<std::jthread> workers;
    for (unsigned h = 1; h <= helpers; ++h) {
        workers.emplace_back([&, h] {
            for (unsigned c = h; c < count; c += helpers + 1) columns[c]->resize(n);
        });
    }
    for (unsigned c = 0; c < count; c += helpers + 1) columns[c]->resize(n);
}

// Simulates paths [first, last) (whole batches, except a short final one) on `threads` workers.
void run_round(const Job& job, const InterruptionModel& model, const SpotPricing& pricing,
               const SimulationOptions& options, detail::LaneKernel kernel, unsigned threads, SpotSamples& samples,
               std::size_t first, std::size_t last) {
    const std::size_t first_batch = first / spot_batch_paths;
    const std::size_t end_batch = (last + spot_batch_paths - 1) / spot_batch_paths;
    std::atomic<std::size_t> next{first_batch};
    std::atomic<bool> cancel{false};
    std::exception_ptr error;
    std::mutex mutex;
    std::condition_variable finished_cv;
    unsigned running = 0;

    auto work = [&] {
        try {
            for (;;) {
                const std::size_t batch = next.fetch_add(1, std::memory_order_relaxed);
                if (batch >= end_batch || cancel.load(std::memory_order_relaxed)) break;
                const std::size_t begin = batch * spot_batch_paths;
                const std::size_t count = std::min(last, begin + spot_batch_paths) - begin;
                const Slots slots{samples.wall_hours.data() + begin, samples.billed_hours.data() + begin,
                                  samples.cost.data() + begin, samples.interruptions.data() + begin,
                                  samples.lost_work_hours.data() + begin, samples.charged_hours.data() + begin};
                run_batch(job, model, pricing, kernel, options.seed, batch, count, slots, cancel);
            }
        } catch (...) {
            const std::lock_guard lock(mutex);
            if (!error) error = std::current_exception();
            cancel = true;
        }
    };

    const auto batches = static_cast<unsigned>(std::min<std::size_t>(end_batch - first_batch, threads));
    if (batches <= 1 && !options.should_stop) {
        work();
    } else {
        std::vector<std::thread> workers;
        running = batches;
        for (unsigned t = 0; t < batches; ++t) {
            workers.emplace_back([&] {
                work();
                const std::lock_guard lock(mutex);
                if (--running == 0) finished_cv.notify_all();
            });
        }
        bool stopped = false;
        {
            std::unique_lock lock(mutex);
            while (running > 0) {
                finished_cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return running == 0; });
                if (running > 0 && !stopped && options.should_stop) {
                    lock.unlock();
                    try {
                        stopped = options.should_stop();
                    } catch (...) {
                        lock.lock();
                        if (!error) error = std::current_exception();
                        cancel = true;
                        continue;
                    }
                    lock.lock();
                    if (stopped) cancel = true;
                }
            }
        }
        for (auto& w : workers) w.join();
        if (!stopped && !error && options.should_stop && options.should_stop()) stopped = true;
        if (error) std::rethrow_exception(error);
        if (stopped) throw Cancelled("simulate_spot cancelled by should_stop");
    }
    if (error) std::rethrow_exception(error);
}

}  // namespace

std::vector<std::string> spot_kernels() {
    std::vector<std::string> names;
    for (const KernelChoice& k : supported_kernels()) names.emplace_back(k.name);
    return names;
}

SpotResult simulate_spot(const Job& job, const InterruptionModel& model, const SpotPricing& pricing,
                         const SimulationOptions& options) {
    job.validate();
    validate(model);
    pricing.validate();
    options.validate();
    check_progress_possible(job, model, pricing);
    const KernelChoice kernel = choose_kernel();
    const Poisson* poisson = std::get_if<Poisson>(&model);

    unsigned threads = options.threads;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());

    SpotResult result;
    result.seed = options.seed;
    result.kernel = poisson && uses_lane_kernel(*poisson, pricing) ? kernel.name : "scalar";
    std::size_t total = options.paths;
    resize_samples(result.samples, total, threads);
    run_round(job, model, pricing, options, kernel.run, threads, result.samples, 0, total);

    if (options.target_half_width > 0) {
        for (;;) {
            const Summary cost = summarize(result.samples.cost, options.confidence);
            if (cost.half_width() <= options.target_half_width || total >= options.max_paths) break;
            // Paths needed for the target at the current standard deviation, with 10% margin.
            const double ratio = cost.half_width() / options.target_half_width;
            const double needed = 1.1 * static_cast<double>(total) * ratio * ratio;
            std::size_t next = total + spot_batch_paths;
            if (std::isfinite(needed) && needed > static_cast<double>(next))
                next = static_cast<std::size_t>(std::min(needed, static_cast<double>(options.max_paths)));
            next = std::min(options.max_paths, (next + spot_batch_paths - 1) / spot_batch_paths * spot_batch_paths);
            resize_samples(result.samples, next, threads);
            run_round(job, model, pricing, options, kernel.run, threads, result.samples, total, next);
            total = next;
        }
    }

    result.paths = total;
    const SpotSamples& s = result.samples;
    // The five summaries are independent: spread them over the worker threads.
    const std::vector<double>* series[] = {&s.wall_hours, &s.billed_hours, &s.cost, &s.interruptions,
                                           &s.lost_work_hours};
    Summary* targets[] = {&result.wall_hours, &result.billed_hours, &result.cost, &result.interruptions,
                          &result.lost_work_hours};
    {
        const unsigned worker_count = std::min(threads, 5u) - 1;  // declared first: the workers read it until joined
        std::vector<std::jthread> workers;
        for (unsigned h = 0; h < worker_count; ++h) {
            workers.emplace_back([&, h] {
                for (unsigned k = h + 1; k < 5; k += worker_count + 1)
                    *targets[k] = summarize(*series[k], options.confidence);
            });
        }
        for (unsigned k = 0; k < 5; k += worker_count + 1) *targets[k] = summarize(*series[k], options.confidence);
    }
    // Continuous billing: the charged samples are the billed ones, bit for bit; no second summary.
    result.charged_hours = make_billing(pricing).continuous() ? result.billed_hours
                                                              : summarize(s.charged_hours, options.confidence);
    std::size_t missed = 0;
    for (double w : s.wall_hours) missed += w > job.deadline_hours ? 1 : 0;
    result.deadline_miss_probability = static_cast<double>(missed) / static_cast<double>(total);
    result.effective_price_per_useful_hour = result.cost.mean / job.work_hours;
    result.effective_discount = pricing.on_demand_price_per_hour > 0
                                    ? 1.0 - result.cost.mean / (pricing.on_demand_price_per_hour * job.work_hours)
                                    : std::numeric_limits<double>::quiet_NaN();
    return result;
}

}  // namespace gputco
