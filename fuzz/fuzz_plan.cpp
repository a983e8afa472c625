// Plans and the recommender under arbitrary options: a Plan (commitments, owned purchases, a spot
// share) and PlanOptions decoded from the bytes, priced by evaluate_plan() over a few demand futures;
// then recommend_plan() with options from the bytes. The properties: every figure finite or
// InvalidInput naming the field; and without risk limits the recommendation's engine price (the
// objective measure) is never above all on demand's, within a cent. Futures, months, solver time and
// owned counts are bounded here so one input runs in well under a second; their limits are
// unit-tested, not fuzzed.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz_bytes.hpp"
#include "fuzz_check.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/optimise/recommend.hpp"

namespace {

using namespace gputco;
using gputco::fuzz::Bytes;

constexpr int max_months = 24;
constexpr std::size_t max_futures = 4;

/// One GPU per instance at $2/h on demand, $0.80/h spot, a 1-year all-upfront and a 3-year no-upfront
/// reservation (the plan tests' offering), or the same per 8-GPU instance.
Offering offering_of(Bytes& in) {
    Offering o;
    o.provider = "testcloud";
    o.region = "test-1";
    o.instance_type = "g1";
    o.gpu = "A100-40GB";
    o.gpus_per_instance = in.choice(2) ? 1 : 8;
    const double g = o.gpus_per_instance;
    o.on_demand_hourly = 2.0 * g;
    o.spot_hourly = 0.8 * g;
    o.reserved.push_back({.term_years = 1, .payment = Payment::all_upfront, .upfront = 8760.0 * g, .hourly = 0.0,
                          .source = {"test", "2026-01"}});
    o.reserved.push_back({.term_years = 3, .payment = Payment::no_upfront, .upfront = 0.0, .hourly = 0.7 * g,
                          .source = {"test", "2026-01"}});
    o.source = {"fuzz offering", "2026-01"};
    return o;
}

int month_of(Bytes& in) { return static_cast<std::int8_t>(in.byte()) / 4; }  // mostly inside, sometimes not

Payment payment_of(Bytes& in) { return static_cast<Payment>(in.choice(3)); }

std::optional<double> maybe(Bytes& in, double scale) {
    if (in.choice(3) != 0) return std::nullopt;
    return in.value(scale);
}

Owned owned_terms(Bytes& in) {
    Owned t;
    t.capex_per_gpu = in.value(1.0 / 256);  // a few thousand
    t.life_years = static_cast<std::int8_t>(in.byte()) / 16;
    t.residual_fraction = in.value(128);
    if (in.choice(2)) {
        t.watts_per_gpu = in.value(1.0 / 8);
        t.pue = in.value(32);
        t.electricity_per_kwh = in.value(256);
        t.staff_per_month = in.value(1.0 / 16);
    }
    return t;
}

Plan read_plan(Bytes& in) {
    Plan plan;
    for (unsigned n = in.choice(4); n > 0; --n)
        plan.commitments.push_back({.count = in.value(4), .unit = static_cast<CountUnit>(in.choice(2)),
                                    .term_years = in.choice(8) == 0 ? static_cast<std::int8_t>(in.byte()) : 1 + 2 * int(in.choice(2)),
                                    .payment = payment_of(in), .start_month = month_of(in),
                                    .renewal = static_cast<Renewal>(in.choice(2)), .reservation_discount = maybe(in, 128),
                                    .offering = std::nullopt});
    for (unsigned n = in.choice(3); n > 0; --n)
        plan.owned.push_back({.gpus = in.value(4), .month = month_of(in), .terms = owned_terms(in)});
    if (in.choice(2)) {
        SpotShare spot{.gpus = in.value(4), .price_per_gpu_hour = maybe(in, 32), .overhead = 1 + in.value(64),
                       .availability = in.value(128), .periods = {}};
        for (unsigned n = in.choice(3); n > 0; --n)
            spot.periods.push_back({.first_month = month_of(in), .overhead = 1 + in.value(64), .availability = in.value(128)});
        plan.spot = spot;
    }
    return plan;
}

PlanOptions read_plan_options(Bytes& in) {
    PlanOptions o;
    o.threads = 1;
    if (in.choice(2)) {
        o.discounts.on_demand_discount = in.value(256);
        o.discounts.free_gpu_hours = in.value(1.0 / 16);
        o.discounts.voucher_price_factor = 1 - in.value(256);
        o.discounts.region_price_factor = 1 + in.value(256);
    }
    if (in.choice(2)) o.annual_discount_rate = in.value(256);
    return o;
}

void check_distribution(const Distribution& d) {
    for (double v : {d.mean, d.standard_error, d.p5, d.p50, d.p95, d.cvar95, d.min, d.max})
        fuzz::check_finite("plan distribution", v);
}

void check_plan_result(const PlanDistribution& r) {
    check_distribution(r.total);
    check_distribution(r.npv);
    check_distribution(r.regret);
    for (const FutureOutcome& f : r.futures)
        for (double v : {f.total, f.npv, f.demand_gpu_hours, f.committed_spend, f.committed_gpu_hours,
                         f.committed_used_gpu_hours, f.stranded_unused, f.stranded_above_market, f.regret})
            fuzz::check_finite("plan future", v);
    for (const auto& bands : {r.monthly, r.cumulative})
        for (const MonthlyBand& b : bands)
            for (double v : {b.mean, b.p5, b.p50, b.p95}) fuzz::check_finite("plan month", v);
    for (double v : {r.mean_committed_spend, r.committed_utilisation, r.mean_stranded_unused,
                     r.mean_stranded_above_market, r.best_fraction})
        fuzz::check_finite("plan mean", v);
}

RecommendOptions read_recommend_options(Bytes& in, const PlanOptions& plan_options) {
    RecommendOptions o;
    o.plan_options = plan_options;
    o.time_limit_seconds = 0.2;
    o.max_blocks = 1 + static_cast<int>(in.choice(8));
    for (unsigned n = in.choice(3); n > 0; --n)
        o.commitments.push_back({.term_years = 1 + 2 * int(in.choice(2)), .payment = payment_of(in), .reservation_discount = maybe(in, 128)});
    if (in.choice(2)) o.review_months = static_cast<std::int8_t>(in.byte());
    for (unsigned n = in.choice(3); n > 0; --n) o.start_months.push_back(month_of(in));
    o.unit = static_cast<CountUnit>(in.choice(2));
    if (in.choice(2)) o.max_count = in.value(1);
    for (unsigned n = in.choice(3); n > 0; --n)
        o.spot.push_back({.name = "spot", .overhead = 1 + in.value(64), .availability = in.value(128),
                          .price_per_gpu_hour = maybe(in, 32), .deadline_miss_probability = maybe(in, 128)});
    if (in.choice(4) == 0) {  // owned: at most 3 counts at 2 months, so at most 9 solves
        OwnedOption owned{.terms = owned_terms(in), .months = {month_of(in)}, .max_gpus = int(in.choice(3)), .step_gpus = 1};
        if (in.choice(2)) owned.months.push_back(month_of(in));
        o.owned = owned;
    }
    o.objective = static_cast<Objective>(in.choice(2));
    switch (in.choice(4)) {
        case 0: o.limits.cvar95 = in.value(1.0 / 1024); break;
        case 1: o.limits.deadline_miss_probability = in.value(128); break;
        case 2: o.limits.committed_share = in.value(64); break;
        default: break;
    }
    return o;
}

double measure(const PlanDistribution& d, Objective objective) {
    return objective == Objective::expected_npv ? d.npv.mean : d.total.mean;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    const Offering offering = offering_of(in);
    DemandModel model{.base_gpus = in.value(2), .monthly_log_growth = in.value(512),
                      .monthly_log_volatility = std::abs(in.value(256)), .events = {}, .seasonality = {},
                      .hour_of_week = {}, .history_monthly_gpus = {}};
    if (in.choice(2)) model.events.push_back({.gpus = in.value(2), .probability = in.value(128), .first_month = 0,
                                              .last_month = month_of(in)});
    if (in.choice(2)) {  // a weekly shape, so months have many distinct hourly levels
        model.hour_of_week.assign(168, 1.0);
        for (std::size_t h = 0; h < 168; h += 1 + in.choice(24)) model.hour_of_week[h] = in.byte() / 64.0;
    }
    const int months = 1 + static_cast<int>(in.choice(max_months));
    const std::size_t count = 1 + in.choice(max_futures);
    std::optional<DemandFutures> futures;
    if (!fuzz::returns_or_rejects({}, [&] { futures = DemandFutures::generate(model, Horizon::months(months), count, in.byte()); }))
        return 0;

    const Plan plan = read_plan(in);
    const PlanOptions plan_options = read_plan_options(in);
    PlanDistribution priced;
    if (fuzz::returns_or_rejects({}, [&] { priced = evaluate_plan(plan, *futures, offering, {}, plan_options); }))
        check_plan_result(priced);

    const RecommendOptions options = read_recommend_options(in, plan_options);
    Recommendation r;
    if (!fuzz::returns_or_rejects({}, [&] { r = recommend_plan(*futures, offering, options); })) return 0;
    check_plan_result(r.in_sample);
    fuzz::check_finite("recommendation.solver_objective", r.solver_objective);
    // The recommendation as the engine prices it, again: the same figures the result carries.
    PlanDistribution again;
    if (!fuzz::returns_or_rejects({}, [&] { again = evaluate_plan(r.plan, *futures, offering, {}, plan_options); }))
        fuzz::finding("the recommended plan does not price:", describe(r.plan));
    if (options.limits.cvar95) return 0;  // a CVaR limit may forbid all on demand (the only limit that can)
    Plan on_demand;  // billed as the recommendation is (per whole instance when it counts in instances)
    on_demand.billing = r.plan.billing;
    const PlanDistribution all_on_demand = evaluate_plan(on_demand, *futures, offering, {}, plan_options);
    const double chosen = measure(again, options.objective), baseline = measure(all_on_demand, options.objective);
    if (chosen > baseline + std::max(0.01, 1e-12 * std::abs(baseline)))
        fuzz::finding("recommend_plan() chose a plan the engine prices above all on demand:", describe(r.plan));
    return 0;
}
