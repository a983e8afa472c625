#pragma once
// Random valid inputs of the cost engine (offerings, demand profiles, strategies, discounts, units)
// for the tests that check a property over many seeded cases.
#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "gputco/engines/cost.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco::testing {

/// Random valid inputs: offerings, demand profiles, strategies, discounts and units.
class Inputs {
public:
    explicit Inputs(std::uint64_t seed) : rng_(seed) {}

    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool coin(double p = 0.5) { return uniform(0, 1) < p; }

    Offering offering() {
        Offering o;
        o.provider = "testcloud";
        o.region = "test-1";
        o.instance_type = "random";
        o.gpu = "A100-40GB";
        const int sizes[] = {1, 2, 4, 8};
        o.gpus_per_instance = sizes[integer(0, 3)];
        o.on_demand_hourly = uniform(0.1, 10.0) * o.gpus_per_instance;
        if (coin(0.8)) o.spot_hourly = uniform(0.02, 12.0) * o.gpus_per_instance;  // spot may cost more
        o.source = {"random test offering", "2026-01"};
        for (const int years : {1, 3}) {
            if (coin(0.5)) continue;
            const Payment payment = Payment(integer(0, 2));
            const double effective = uniform(0.2, 1.1) * o.on_demand_hourly;  // may be dearer than on-demand
            const double upfront_share = uniform(0, 1);
            o.reserved.push_back({years, payment, effective * upfront_share * years * hours_per_year,
                                  effective * (1 - upfront_share), o.source});
        }
        return o;
    }

    DemandProfile demand() {
        const Horizon horizon = Horizon::months(integer(1, 30));
        switch (integer(0, 4)) {
            case 0: return DemandProfile::constant(coin(0.1) ? 0.0 : uniform(0, 20), horizon);
            case 1: {
                // One draw a statement, the later argument first as GCC has always drawn them, so every
                // compiler draws the same problem from a seed.
                const double monthly_growth = uniform(0, 30);
                return DemandProfile::linear_growth(uniform(0, 10), monthly_growth, horizon);
            }
            case 2: {
                std::array<double, 24> daily{};
                for (double& f : daily) f = uniform(0, 1);
                return DemandProfile::constant(uniform(0, 16), horizon).with_daily_pattern(daily);
            }
            case 3: {
                Eigen::ArrayXd hours(Eigen::Index(horizon.hour_count()));
                const double peak = uniform(0, 24);
                const bool whole = coin();  // whole GPUs or any fraction
                for (auto& h : hours) h = whole ? double(integer(0, int(peak))) : uniform(0, peak);
                return DemandProfile::hourly(hours);
            }
            default: {
                std::array<double, 7> weekly{};
                for (double& f : weekly) f = uniform(0, 1);
                const double monthly_growth = uniform(1, 8);  // drawn first, as case 1
                return DemandProfile::linear_growth(uniform(1, 8), monthly_growth, horizon).with_weekly_pattern(weekly);
            }
        }
    }

    Reserved reserved(const Offering& o) {
        Reserved r;
        r.term_years = coin() ? 1 : 3;
        r.payment = Payment(integer(0, 2));
        if (!o.reserved_price(r.term_years, r.payment) || coin(0.3)) r.reservation_discount = uniform(0, 0.9);
        r.renewal = coin(0.8) ? Renewal::renew : Renewal::lapse;
        return r;
    }

    Owned owned() {
        return Owned{.capex_per_gpu = uniform(0, 40000), .life_years = integer(1, 5),
                     .residual_fraction = uniform(0, 0.5), .watts_per_gpu = uniform(0, 1000),
                     .idle_power_fraction = uniform(0, 1), .pue = uniform(1, 2), .electricity_per_kwh = uniform(0, 0.4),
                     .colocation_per_gpu_month = uniform(0, 200), .maintenance_fraction_per_year = uniform(0, 0.1),
                     .staff_per_month = coin() ? 0.0 : uniform(0, 5000)};
    }

    SpotTranche spot(const Offering& o) {
        SpotTranche s;
        if (!o.spot_hourly || coin(0.2)) s.price_per_gpu_hour = uniform(0, 5);
        s.overhead = uniform(1, 1.6);
        s.availability = coin(0.2) ? 1.0 : uniform(0, 1);
        return s;
    }

    Strategy strategy(const Offering& o) {
        switch (integer(0, 3)) {
            case 0: return OnDemand{};
            case 1: return reserved(o);
            case 2: return owned();
            default: return mix(o);
        }
    }

    Mix mix(const Offering& o) {
        Mix m;
        const int n = integer(1, 4);
        double left = 1.0;
        for (int i = 0; i < n; ++i) {
            const double fraction = i + 1 == n ? left : uniform(0, left);
            left -= fraction;
            Tranche t{fraction, OnDemand{}};
            switch (integer(0, 3)) {
                case 0: t.kind = reserved(o); break;
                case 1: t.kind = owned(); break;
                case 2: t.kind = spot(o); break;
                default: break;
            }
            m.tranches.push_back(t);
        }
        if (coin()) m.fleet_gpus = uniform(0, 24);
        m.rounding = Rounding(integer(0, 3));
        return m;
    }

    EvaluationOptions options() {
        EvaluationOptions e;
        if (coin()) e.discounts.on_demand_discount = uniform(0, 0.9);
        if (coin()) e.discounts.free_gpu_hours = uniform(0, 5000);
        if (coin()) e.discounts.voucher_price_factor = uniform(0.05, 1.0);
        if (coin()) e.discounts.region_price_factor = uniform(0.5, 2.0);
        if (coin(0.3)) e.annual_discount_rate = uniform(-0.2, 0.3);
        e.units = coin() ? Units::instances : Units::gpus;
        return e;
    }

    /// A plan over `horizon` months: commitments (in GPUs or instances, any start month, renewed or
    /// lapsing), owned purchases at any month, up to three spot shares (with periods and samples), billed
    /// per GPU or per instance.
    /// With `savings_plans`, up to two Savings Plans too (any type, term, payment, start — held ones
    /// before month 0 too — and renewal; the rate given, or the offering's listed rate when it has one),
    /// drawn after the rest so that a plan
    /// without them is the same draw as before.
    Plan plan(const Offering& o, int horizon, bool savings_plans = false) {
        Plan p;
        p.billing = coin() ? Units::instances : Units::gpus;
        for (int k = integer(0, 3); k > 0; --k) {
            const Reserved r = reserved(o);
            Commitment c{.count = coin() ? double(integer(0, 4)) : uniform(0, 12),
                         .unit = coin(0.3) ? CountUnit::instances : CountUnit::gpus,
                         .term_years = r.term_years,
                         .payment = r.payment,
                         .start_month = coin(0.5) ? 0 : integer(0, horizon - 1),
                         .renewal = r.renewal,
                         .reservation_discount = r.reservation_discount};
            p.commitments.push_back(c);
        }
        for (int k = integer(0, 2) - 1; k > 0; --k)
            p.owned.push_back(OwnedPurchase{coin(0.1) ? 0.0 : uniform(0, 8), coin() ? 0 : integer(0, horizon - 1), owned()});
        for (int k = integer(0, 3); k > 0; --k) {
            const SpotTranche t = spot(o);
            SpotShare share{.gpus = uniform(0, 8), .price_per_gpu_hour = t.price_per_gpu_hour, .overhead = t.overhead,
                            .availability = t.availability};
            int month = 0;
            while (coin(0.3) && month + 1 < horizon) {
                month = integer(month + 1, horizon - 1);
                share.periods.push_back({month, uniform(1, 1.6), coin(0.3) ? 1.0 : uniform(0, 1)});
            }
            if (coin(0.3)) share.overhead_samples = {uniform(1, 2), uniform(1, 2), uniform(1, 2)};
            if (p.spot) {
                p.more_spot.push_back(share);
            } else {
                p.spot = share;
            }
        }
        held_and_changes(p, o, horizon);
        if (!savings_plans) return p;
        for (int k = integer(0, 2); k > 0; --k) {
            const Reserved r = reserved(o);
            const double on_demand = std::max(o.on_demand_per_gpu_hour(), 0.01);
            SavingsPlan sp{.commitment_per_hour = uniform(0.01, 8) * on_demand,
                           .type = SavingsPlanType(integer(0, int(savings_plan_type_count) - 1)),
                           .term_years = coin() ? 1 : 3,
                           .payment = r.payment,
                           .start_month = coin(0.5) ? 0 : integer(0, horizon - 1),
                           .renewal = r.renewal};
            const bool listed = o.savings_plan_rate(sp.type, sp.term_years, sp.payment).has_value();
            if (!listed || coin(0.3)) sp.rate_per_gpu_hour = uniform(0.3, 1.0) * on_demand;
            // Held: bought before the horizon and still running (its upfront sunk).
            if (coin(0.25)) sp.start_month = -integer(1, sp.term_years * 12 - 1);
            p.savings_plans.push_back(sp);
        }
        return p;
    }

    /// Fixed windows added to a plan (drawn after plan(), whose draws the agreement test replays):
    /// up to two capacity blocks at a given price (AWS's or calendar mode's rules), short terms on its commitments, up to two dated
    /// windows of demand into `options`, and up to two flex-start requests with the grants' seed.
    void add_windows(Plan& p, PlanOptions& options, int horizon) {
        const int days = int(horizon * 730.0 / 24.0);
        for (int k = integer(0, 2); k > 0; --k) {
            CapacityBlock b{.instances = integer(1, 8), .days = coin() ? integer(1, 14) : 7 * integer(1, 4)};
            if (b.days > days) continue;
            b.start_day = integer(0, days - b.days);
            b.lead_days = integer(0, std::min(56, b.start_day));
            b.price_per_instance_hour = uniform(0.5, 30);
            // Every other block by GCP calendar mode's rules (no further draw: the sequence is kept).
            if (b.instances % 2 == 0) b.kind = BlockKind::gcp_calendar_mode;
            p.capacity_blocks.push_back(b);
        }
        for (std::size_t i = 0; i < p.commitments.size(); ++i) {
            Commitment& c = p.commitments[i];
            // A change of a bought commitment was drawn for its whole-year term: keep that term.
            const bool changed = std::any_of(p.changes.begin(), p.changes.end(),
                                             [&](const CommitmentChange& ch) { return !ch.held && ch.index == i; });
            if (changed || !coin(0.3)) continue;
            c.term_months = std::array{1, 3, 6}[std::size_t(integer(0, 2))];
            c.reservation_discount = uniform(0, 0.5);
        }
        for (int k = integer(0, 2); k > 0; --k) {
            const double start = uniform(0, days - 1.0);
            options.windows.push_back({start, uniform(0.1, days - start), uniform(0, 40)});
        }
        // Flex-start requests (drawn last, so the draws above are those of before), granted or not
        // per future from options.seed.
        for (int k = integer(0, 2); k > 0; --k) {
            FlexStartRequest r{.gpus = uniform(0.5, 32), .start_day = uniform(0, days - 1.0)};
            r.days = std::min(uniform(0.1, FlexStartRequest::max_days), days - r.start_day);
            r.discount = uniform(0, 0.9);
            r.grant_probability = uniform(0.05, 1);
            p.flex_starts.push_back(r);
        }
        options.seed = std::uint64_t(integer(0, 1000));
    }

    /// Commitments held before the horizon (a rate given, or the catalog's for a whole-year term) and,
    /// for some held or bought ones, a valid change: a refund or an Azure exchange of any, a resale of a
    /// standard one, an exchange of a convertible one (for one worth more: 3 × its GPUs at the on-demand rate).
    void held_and_changes(Plan& p, const Offering& o, int horizon) {
        const double od = o.on_demand_per_gpu_hour();
        for (int k = coin(0.4) ? integer(1, 2) : 0; k > 0; --k) {
            HeldCommitment h;
            h.count = coin() ? double(integer(0, 4)) : uniform(0, 8);
            h.unit = coin(0.3) ? CountUnit::instances : CountUnit::gpus;
            h.kind = coin() ? CommitmentClass::convertible : CommitmentClass::standard;
            const Reserved r = reserved(o);
            if (!r.reservation_discount && coin(0.4)) {  // priced by the catalog: a whole-year term
                h.payment = r.payment;
                h.start_month = -integer(0, 12 * r.term_years - 1);
                h.end_month = h.start_month + 12 * r.term_years;
            } else {
                h.start_month = -integer(0, 24);
                h.end_month = integer(1, std::min(horizon + 12, h.start_month + 60));  // terms of 5 years at most
                h.hourly_per_gpu = uniform(0, od);
            }
            // At most 0.3 of on demand a month for its term, so an exchange at twice the GPUs is worth more.
            h.upfront_per_gpu = coin() ? 0.0 : uniform(0, 0.3 * od * 730 * (h.end_month - h.start_month));
            p.held.push_back(h);
        }
        double refunded = 0;  // kept far below Azure's 50,000 a year
        // An AWS exchange buys the same or a higher payment option than the one it gives up (`payment`).
        const auto change = [&](bool held, std::size_t index, CommitmentClass kind, Payment payment, double gpus, int first,
                                int last, double refund_bound) {
            if (first >= last || !coin(0.4)) return;
            CommitmentChange c{.kind = ChangeKind::resale, .held = held, .index = index, .month = integer(first, last - 1),
                               .into = {}, .price = 0};
            if (coin(0.3) && refunded + refund_bound <= 40'000) {
                c.kind = ChangeKind::refund;
                refunded += refund_bound;
            } else if (coin(0.3)) {  // Azure: a full new term worth more than any term left (3 × its GPUs, 3 years)
                c.kind = ChangeKind::azure_exchange;
                c.into = Commitment{.count = 3 * gpus, .term_years = 3, .payment = Payment::no_upfront, .reservation_discount = 0.0};
            } else if (kind == CommitmentClass::standard) {
                c.price = uniform(0, 1000);
            } else {
                c.kind = ChangeKind::exchange;
                c.into = Commitment{.count = 3 * gpus, .term_years = coin() ? 1 : 3,
                                    .payment = Payment(integer(int(payment), int(Payment::all_upfront))),
                                    .reservation_discount = 0.0};
            }
            if (c.kind != ChangeKind::refund || refund_bound <= 40'000) p.changes.push_back(c);
        };
        for (std::size_t i = 0; i < p.held.size(); ++i) {
            const HeldCommitment& h = p.held[i];
            const double gpus = h.unit == CountUnit::instances ? h.count * o.gpus_per_instance : h.count;
            change(true, i, h.kind, h.payment, gpus, 1, std::min(horizon, h.end_month), gpus * h.upfront_per_gpu);
        }
        for (std::size_t i = 0; i < p.commitments.size(); ++i) {
            Commitment& c = p.commitments[i];
            c.kind = coin() ? CommitmentClass::convertible : CommitmentClass::standard;
            const double gpus = c.unit == CountUnit::instances ? c.count * o.gpus_per_instance : c.count;
            const int end = c.renewal == Renewal::renew ? horizon : std::min(horizon, c.start_month + 12 * c.term_years);
            // A refund of a bought one returns at most its upfront: bound it by the term's on-demand cost.
            change(false, i, c.kind, c.payment, gpus, c.start_month + 1, end, gpus * 4 * od * 730 * 12 * c.term_years);
        }
    }

    /// The options of evaluate() as the plan engine's, on one thread.
    static PlanOptions plan_options(const EvaluationOptions& e) {
        PlanOptions p;
        p.discounts = e.discounts;
        p.annual_discount_rate = e.annual_discount_rate;
        p.threads = 1;
        return p;
    }

private:
    std::mt19937_64 rng_;
};

/// GPU-hours an hour's demand d pays on instances of g GPUs (the contract in docs/design.md, written
/// out again here so the test does not share the engine's code).
inline double paid_for(double d, int g) {
    if (g == 1) return d;
    const double full = std::floor(d);
    const double instances = std::ceil(full / g);
    return g * instances + (std::fmod(full, g) == 0 ? g * (d - full) : 0.0);
}

inline double tolerance(double scale) { return 1e-9 * std::max(1.0, std::abs(scale)); }

}  // namespace gputco::testing
