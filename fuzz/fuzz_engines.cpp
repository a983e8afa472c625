// The engines' numeric inputs. The first byte picks a call, the following bytes are read as raw
// IEEE-754 doubles (so NaN, infinities, denormals and extremes come up as often as ordinary values)
// and single bytes for choices. The property: InvalidInput or finite figures, never a crash or a hang.
// Sizes that only set how long a run takes (paths, threads, horizon months) are bounded here so one
// input runs in milliseconds; their limits are unit-tested, not fuzzed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "fuzz_bytes.hpp"
#include "fuzz_check.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/core/limits.hpp"
#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/cost.hpp"
#include "gputco/engines/deadline.hpp"
#include "gputco/engines/spot.hpp"

namespace {

using namespace gputco;
namespace known = gputco::fuzz::known;
using gputco::fuzz::Bytes;

void check_summary(std::string_view name, const Summary& s) {
    for (double v : {s.mean, s.p50, s.p90, s.p95, s.p99, s.min, s.max}) fuzz::check_finite(name, v);
    if (s.count > 1)
        for (double v : {s.standard_error, s.ci_low, s.ci_high}) fuzz::check_finite(name, v);
}

/// True for a job the engines cannot take yet without undefined behaviour (known findings).
bool known_to_fail(const Job& job) {
    return known::segment_count_overflows && job.work_hours / job.checkpoint_interval_hours > 0x1p53;
}

Job read_job(Bytes& in) {
    Job job;
    job.work_hours = in.number();
    job.checkpoint_interval_hours = in.number();
    job.checkpoint_write_hours = in.number();
    job.restart_hours = in.number();
    job.capacity_wait_hours = in.number();
    if (in.choice(2)) job.deadline_hours = in.number();
    return job;
}

ProviderRules read_rules(Bytes& in) {
    ProviderRules rules;
    if (in.choice(2) == 0) return rules;
    rules.notice_hours = in.number();
    rules.emergency_checkpoint = in.choice(2) == 1;
    rules.protection_hours = in.number();
    rules.max_lifetime_hours = in.number();
    return rules;
}

InterruptionModel read_model(Bytes& in) {
    switch (in.choice(3)) {
        case 0: {
            Poisson m{.mtbf_hours = in.number()};
            m.rules = read_rules(in);
            return m;
        }
        case 1: {
            Weibull m{.shape = in.number(), .scale_hours = in.number()};
            m.rules = read_rules(in);
            return m;
        }
        default: {
            PriceDriven m{.reversion_per_hour = in.number(), .volatility_per_sqrt_hour = in.number(),
                          .price_cap_per_hour = in.number(), .step_hours = in.number()};
            m.rules = read_rules(in);
            return m;
        }
    }
}

/// Launches and price steps one simulate_spot input may take (about a second under ASan).
constexpr double max_events_per_input = 4e6;

void fuzz_simulate_spot(Bytes& in) {
    const Job job = read_job(in);
    const InterruptionModel model = read_model(in);
    SpotPricing pricing{.price_per_hour = in.number(), .on_demand_price_per_hour = in.number()};
    if (in.choice(2)) {
        pricing.billing_increment_hours = in.number();
        pricing.minimum_billed_hours = in.number();
    }
    SimulationOptions options{.paths = 1 + in.byte() * 5u, .seed = in.byte(), .threads = 1 + in.choice(2)};
    if (in.choice(4) == 0) {
        options.target_half_width = in.number();
        options.max_paths = options.paths + in.byte() * 16u;
    }
    if (known_to_fail(job)) return;
    // A valid run may be long by request (1e8 launches a path is within the limits): skip runs whose
    // estimated work exceeds what this target spends on one input. The estimate is a lower bound, so a
    // run far beyond it is still a timeout, and a finding (F17 was one).
    try {
        const SpotWorkEstimate work = estimate_spot_work(job, model, pricing);
        const double paths = static_cast<double>(std::max(options.paths, options.max_paths));
        if (paths * (work.launches_per_path + work.price_steps_per_path) > max_events_per_input) return;
    } catch (const InvalidInput&) {
        // simulate_spot rejects it the same way below
    }
    if (known::spot_summary_throws_on_helper_thread && in.extreme()) options.threads = 1;
    if (known::price_grid_index_overflows && std::holds_alternative<PriceDriven>(model) && in.extreme()) return;
    if (known::spot_run_unbounded) {
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        options.should_stop = [give_up] { return std::chrono::steady_clock::now() > give_up; };
    }
    SpotResult r;
    try {
        if (!fuzz::returns_or_rejects({}, [&] { r = simulate_spot(job, model, pricing, options); })) return;
    } catch (const Cancelled&) {
        return;  // only with spot_run_unbounded: returns_or_rejects lets nothing else through
    }
    if (known::spot_summary_overflows_on_extremes && in.extreme()) return;
    for (const Summary* s : {&r.wall_hours, &r.billed_hours, &r.cost, &r.interruptions, &r.lost_work_hours,
                             &r.charged_hours})
        check_summary("spot summary", *s);
    fuzz::check_finite("spot.deadline_miss_probability", r.deadline_miss_probability);
    fuzz::check_finite("spot.effective_price_per_useful_hour", r.effective_price_per_useful_hour);
    if (pricing.on_demand_price_per_hour > 0) fuzz::check_finite("spot.effective_discount", r.effective_discount);
}

void fuzz_expected_spot_time(Bytes& in) {
    const Job job = read_job(in);
    const double mtbf = in.number();
    if (known_to_fail(job)) return;
    ExpectedSpotTime t;
    if (!fuzz::returns_or_rejects({}, [&] { t = expected_spot_time(job, mtbf); })) return;
    if (known::expected_spot_time_not_finite) return;
    fuzz::check_finite("expected.billed_hours", t.billed_hours);
    fuzz::check_finite("expected.wall_hours", t.wall_hours);
    fuzz::check_finite("expected.interruptions", t.interruptions);
}

void fuzz_optimal_checkpoint_interval(Bytes& in) {
    const double write = in.number(), mtbf = in.number();
    const auto method = static_cast<CheckpointMethod>(in.choice(3));
    double tau = 0;
    if (!fuzz::returns_or_rejects({}, [&] { tau = optimal_checkpoint_interval(write, mtbf, method); })) return;
    if (known::checkpoint_interval_out_of_range && (tau <= 0 || std::isinf(tau))) return;
    fuzz::check_finite("optimal_checkpoint_interval", tau);
    if (!(tau > 0)) fuzz::finding("optimal_checkpoint_interval is not > 0");
}

DemandProfile read_demand(Bytes& in) {
    const Horizon horizon = Horizon::months(1 + in.choice(120));
    switch (in.choice(4)) {
        case 0: return DemandProfile::constant(in.number(), horizon);
        case 1: {
            const double start = in.number();  // one statement each: argument order is unspecified
            return DemandProfile::linear_growth(start, in.number(), horizon);
        }
        case 2: {
            const double start = in.number();
            return DemandProfile::compound_growth(start, in.number(), horizon);
        }
        default: {
            std::vector<DemandStep> steps{{0, in.number()}};
            steps.push_back({int(in.byte()), in.number()});
            const int months = horizon.month_count();
            if (known::demand_steps_overflow && !(steps[1].start_month > 0 && steps[1].start_month < months))
                steps[1].start_month = months > 1 ? 1 + steps[1].start_month % (months - 1) : 0;
            if (steps[1].start_month == 0) steps.pop_back();
            return DemandProfile::steps(steps, horizon);
        }
    }
}

Reserved read_reserved(Bytes& in) {
    Reserved r{.term_years = in.choice(2) ? 3 : 1, .payment = static_cast<Payment>(in.choice(3))};
    if (in.choice(2)) r.reservation_discount = in.number();
    r.renewal = in.choice(2) ? Renewal::lapse : Renewal::renew;
    return r;
}

Owned read_owned(Bytes& in) {
    Owned o;
    o.capex_per_gpu = in.number();
    o.life_years = 1 + int(in.choice(12));
    o.residual_fraction = in.number();
    o.watts_per_gpu = in.number();
    o.electricity_per_kwh = in.number();
    o.staff_per_month = in.number();
    return o;
}

Strategy read_strategy(Bytes& in) {
    switch (in.choice(4)) {
        case 0: return OnDemand{};
        case 1: return read_reserved(in);
        case 2: return read_owned(in);
        default: {
            const double fraction = in.number();
            Mix mix;
            switch (in.choice(3)) {
                case 0: mix.tranches.push_back({fraction, read_reserved(in)}); break;
                case 1: mix.tranches.push_back({fraction, read_owned(in)}); break;
                default:
                    mix.tranches.push_back(
                        {fraction, SpotTranche{.overhead = in.number(), .availability = in.number()}});
            }
            mix.tranches.push_back({1.0 - fraction, OnDemand{}});
            if (in.choice(2)) mix.fleet_gpus = in.number();
            mix.rounding = static_cast<Rounding>(in.choice(4));
            return mix;
        }
    }
}

void fuzz_evaluate(Bytes& in) {
    const auto& offerings = Catalog::builtin().offerings();
    Offering offering = offerings[in.byte() % offerings.size()];
    if (in.choice(2)) offering.on_demand_hourly = in.number();
    if (in.choice(2)) offering.spot_hourly = in.number();
    EvaluationOptions options;
    if (in.choice(2)) {
        options.annual_discount_rate = in.number();
        options.discounts.on_demand_discount = in.number();
        options.discounts.free_gpu_hours = in.number();
        options.discounts.voucher_price_factor = in.number();
        options.discounts.region_price_factor = in.number();
    }
    CostReport report;
    if (!fuzz::returns_or_rejects({}, [&] {
            const Strategy strategy = read_strategy(in);
            const DemandProfile demand = read_demand(in);
            options.units = in.choice(2) ? Units::gpus : Units::instances;  // last: older seeds read as instances
            if (known::evaluate_infinite_demand_ub && in.extreme()) return;
            report = evaluate(strategy, demand, offering, options);
        }))
        return;
    if (known::evaluate_overflows_on_extremes && in.extreme()) return;
    fuzz::check_finite("report.total", report.total);
    fuzz::check_finite("report.npv", report.npv);
    fuzz::check_finite("report.used_gpu_hours", report.used_gpu_hours);
    const bool near_zero = known::ratios_overflow_for_near_zero_demand &&
                           (report.used_gpu_hours < 1e-12 || report.baseline_total < 1e-12);  // F16
    if (report.effective_cost_per_used_gpu_hour) {
        if (!near_zero)
            fuzz::check_finite("report.effective_cost_per_used_gpu_hour", *report.effective_cost_per_used_gpu_hour);
    }
    else if (!known::nan_cost_per_hour_without_use && report.used_gpu_hours >= limits::min_ratio_divisor)
        fuzz::finding("report.effective_cost_per_used_gpu_hour is none although GPU-hours were used");
    fuzz::check_finite("report.reserved_utilisation", report.reserved_utilisation);
    fuzz::check_finite("report.owned_utilisation", report.owned_utilisation);
    fuzz::check_finite("report.baseline_total", report.baseline_total);
    fuzz::check_finite("report.savings", report.savings);
    if (!near_zero) fuzz::check_finite("report.savings_fraction", report.savings_fraction);
    for (const MonthlyCashFlow& m : report.months) fuzz::check_finite("report.months[].total", m.total);
    // F16 also covers break-even against an on-demand price a near-100% on-demand discount makes almost nothing.
    const bool near_zero_price = known::ratios_overflow_for_near_zero_demand && in.extreme();
    if (report.break_even_utilisation && !near_zero_price &&
        !(known::break_even_infinite_when_never_paid_back && *report.break_even_utilisation == HUGE_VAL))
        fuzz::check_finite("report.break_even_utilisation", *report.break_even_utilisation);
}

/// Ticks one simulate_deadline input may take (a fraction of a second under ASan).
constexpr double max_deadline_ticks_per_input = 1e7;

void fuzz_simulate_deadline(Bytes& in) {
    DeadlineJob job{.compute_hours = in.number(), .deadline_hours = in.number(), .changeover_hours = in.number(),
                    .tick_hours = in.number()};
    const MarkovAvailability process{.mean_up_hours = in.number(), .mean_down_hours = in.number()};
    const double spot_price = in.number(), on_demand_price = in.number();
    const auto policy = static_cast<DeadlinePolicy>(in.choice(3));
    const std::uint64_t seed = in.byte();
    // A valid job may be long by request (up to 1e9 ticks, half a minute under ASan): its length is
    // unit-tested, so runs beyond what this target spends on one input are skipped.
    if (!fuzz::returns_or_rejects({}, [&] { job.validate(); })) return;
    if (static_cast<double>(job.deadline_ticks()) > max_deadline_ticks_per_input) return;
    DeadlineResult r;
    if (!fuzz::returns_or_rejects({}, [&] {
            const auto trace = SpotAvailability::markov(process, job.deadline_ticks(), job.tick_hours, seed);
            r = simulate_deadline(job, trace, policy, spot_price, on_demand_price);
        }))
        return;
    if (!r.met_deadline) fuzz::finding("a policy missed a feasible deadline:", to_string(policy));
    fuzz::check_finite("deadline.cost", r.cost);
    fuzz::check_finite("deadline.spot_hours", r.spot_hours);
    fuzz::check_finite("deadline.on_demand_hours", r.on_demand_hours);
    fuzz::check_finite("deadline.finish_hours", r.finish_hours);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    switch (in.choice(5)) {
        case 0: fuzz_evaluate(in); break;
        case 1: fuzz_simulate_spot(in); break;
        case 2: fuzz_expected_spot_time(in); break;
        case 3: fuzz_optimal_checkpoint_interval(in); break;
        default: fuzz_simulate_deadline(in); break;
    }
    return 0;
}
