// The cost engine read from each month's sorted hours (work/sorted_months.hpp) and its batch form
// (evaluate_batch in engines/cost.hpp): the hours each tier serves and pays equal an hour-by-hour
// count written out here, and a batch row equals evaluate() bit for bit.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "gputco/engines/cost.hpp"
#include "random_cost_inputs.hpp"

using namespace gputco;
using testing::Inputs;
using testing::paid_for;
using testing::tolerance;

namespace {

/// Both NaN or equal bit for bit (NaN is the cost per used GPU-hour when nothing is used).
bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class T>
bool same(const std::optional<T>& a, const std::optional<T>& b) {
    if (a.has_value() != b.has_value()) return false;
    if constexpr (std::is_same_v<T, double>) return !a || same(*a, *b);
    else return !a || *a == *b;
}

bool same(const std::optional<CostSpread>& a, const std::optional<CostSpread>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || (same(a->mean, b->mean) && same(a->p05, b->p05) && same(a->p50, b->p50) && same(a->p95, b->p95) &&
                  same(a->p99, b->p99));
}

double contract_round(double x, Rounding rounding) {
    switch (rounding) {
        case Rounding::nearest: return std::round(x);
        case Rounding::down: return std::floor(x + 1e-9);
        case Rounding::up: return std::ceil(x - 1e-9);
        case Rounding::none: return x;
    }
    return x;
}

/// One month's GPU-hours by tier, counted hour by hour as docs/design.md states the contract:
/// owned, then reserved (while a term runs), then spot in its share of the hours, then on demand.
struct MonthHours {
    double owned = 0, reserved = 0, spot = 0, spot_paid = 0, on_demand = 0, on_demand_paid = 0;
};

std::vector<MonthHours> count_hour_by_hour(const Mix& mix, const DemandProfile& demand, const Offering& offering,
                                           Units units) {
    const double fleet = mix.fleet_gpus ? *mix.fleet_gpus : demand.gpus_per_hour().maxCoeff();
    const int g = units == Units::instances ? offering.gpus_per_instance : 1;
    const Rounding unit_rounding = g > 1 && mix.rounding == Rounding::none ? Rounding::up : mix.rounding;
    struct Tier {
        double gpus;
        int lapse_after_months;  // reservations that lapse; 0 = always there
        double availability;     // spot only
    };
    std::vector<Tier> owned, reserved, spot;
    for (const Tranche& t : mix.tranches) {
        const double share = t.fraction * fleet;
        const double cloud = g * contract_round(share / g, unit_rounding);
        if (std::holds_alternative<Owned>(t.kind)) owned.push_back({contract_round(share, mix.rounding), 0, 1});
        if (const auto* r = std::get_if<Reserved>(&t.kind))
            reserved.push_back({cloud, r->renewal == Renewal::lapse ? 12 * r->term_years : 0, 1});
        if (const auto* s = std::get_if<SpotTranche>(&t.kind)) spot.push_back({cloud, 0, s->availability});
    }
    std::vector<MonthHours> months(std::size_t(demand.horizon().month_count()));
    for (Eigen::Index h = 0; h < demand.gpus_per_hour().size(); ++h) {
        const int m = int(h / 730);
        MonthHours& out = months[std::size_t(m)];
        double d = demand.gpus_per_hour()[h];
        for (const Tier& o : owned) {
            const double take = std::min(d, o.gpus);
            out.owned += take;
            d -= take;
        }
        for (const Tier& r : reserved) {
            if (r.lapse_after_months > 0 && m >= r.lapse_after_months) continue;
            const double take = std::min(d, r.gpus);
            out.reserved += take;
            d -= take;
        }
        std::vector<std::pair<double, double>> cases{{1.0, d}};  // (share of the hour, load left)
        for (const Tier& s : spot) {
            const std::size_t before = cases.size();
            for (std::size_t c = 0; c < before; ++c) {
                const double weight = cases[c].first * s.availability;
                if (weight == 0) continue;
                const double on = std::min(cases[c].second, s.gpus);
                out.spot += weight * on;
                out.spot_paid += weight * paid_for(on, g);
                if (s.availability < 1) {
                    cases[c].first -= weight;
                    cases.emplace_back(weight, cases[c].second - on);
                } else {
                    cases[c].second -= on;
                }
            }
        }
        for (const auto& [weight, left] : cases) {
            out.on_demand += weight * left;
            out.on_demand_paid += weight * paid_for(left, g);
        }
    }
    return months;
}

}  // namespace

TEST_CASE("each tier's GPU-hours from the sorted months equal an hour-by-hour count, to 1e-9") {
    Inputs in(911);
    for (int i = 0; i < 1000; ++i) {
        const Offering o = in.offering();
        DemandProfile demand = in.demand();
        // Large fleets too: past 32 instances a month is paid hour by hour rather than ramp by ramp.
        if (in.coin(0.2)) demand = demand.scaled(in.uniform(1, 200));
        const Mix mix = in.mix(o);
        const EvaluationOptions options = in.options();
        const CostReport r = evaluate(mix, demand, o, options);
        const std::vector<MonthHours> expected = count_hour_by_hour(mix, demand, o, options.units);
        CAPTURE(i);
        for (std::size_t m = 0; m < expected.size(); ++m) {
            const MonthlyCashFlow& f = r.months[m];
            const MonthHours& e = expected[m];
            CAPTURE(m);
            const double scale = f.used_gpu_hours * o.gpus_per_instance;  // paid hours are at most g × demand
            REQUIRE(std::abs(f.owned_used_gpu_hours - e.owned) <= tolerance(scale));
            REQUIRE(std::abs(f.reserved_used_gpu_hours - e.reserved) <= tolerance(scale));
            REQUIRE(std::abs(f.spot_gpu_hours - e.spot) <= tolerance(scale));
            REQUIRE(std::abs(f.spot_paid_gpu_hours - e.spot_paid) <= tolerance(scale));
            REQUIRE(std::abs(f.on_demand_gpu_hours - e.on_demand) <= tolerance(scale));
            REQUIRE(std::abs(f.on_demand_paid_gpu_hours - e.on_demand_paid) <= tolerance(scale));
        }
    }
}

TEST_CASE("evaluate_batch: each row is evaluate()'s figures, bit for bit") {
    Inputs in(912);
    for (int round = 0; round < 200; ++round) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const EvaluationOptions options = in.options();
        std::vector<Strategy> strategies;
        for (int k = in.integer(1, 12); k > 0; --k) {
            Strategy s = in.strategy(o);
            if (auto* mix = std::get_if<Mix>(&s); mix && in.coin(0.3)) {  // some spot tranches carry samples
                for (Tranche& t : mix->tranches) {
                    if (auto* spot = std::get_if<SpotTranche>(&t.kind)) {
                        for (int n = 0; n < 50; ++n) spot->overhead_samples.push_back(in.uniform(1, 2));
                    }
                }
            }
            strategies.push_back(std::move(s));
        }
        const std::vector<CostFigures> rows = evaluate_batch(strategies, demand, o, options);
        REQUIRE(rows.size() == strategies.size());
        for (std::size_t k = 0; k < strategies.size(); ++k) {
            const CostReport r = evaluate(strategies[k], demand, o, options);
            const CostFigures& row = rows[k];
            CAPTURE(round);
            CAPTURE(k);
            CHECK(same(row.total, r.total));
            CHECK(same(row.npv, r.npv));
            CHECK(same(row.used_gpu_hours, r.used_gpu_hours));
            CHECK(same(row.effective_cost_per_used_gpu_hour, r.effective_cost_per_used_gpu_hour));
            CHECK(same(row.reserved_utilisation, r.reserved_utilisation));
            CHECK(same(row.owned_utilisation, r.owned_utilisation));
            CHECK(same(row.baseline_total, r.baseline_total));
            CHECK(same(row.savings, r.savings));
            CHECK(same(row.savings_fraction, r.savings_fraction));
            CHECK(same(row.break_even_utilisation, r.break_even_utilisation));
            CHECK(same(row.break_even_month, r.break_even_month));
            CHECK(same(row.spread, r.spread));
            // The same through the field list, which the writers and Python read (rate included).
            for (std::size_t i = 0; i < cost_figure_fields<CostFigures>.size(); ++i) {
                CHECK(cost_figure_fields<CostFigures>[i].name == cost_figure_fields<CostReport>[i].name);
                CHECK(same(cost_figure_fields<CostFigures>[i].value(row), cost_figure_fields<CostReport>[i].value(r)));
            }
        }
    }
}

TEST_CASE("every member of CostFigures but the spread is in the cost figure list") {
    // A member added to CostFigures without its line in the list changes the size: the listed
    // figures (8 bytes a double, 16 an optional double, 8 an optional int) and the spread.
    std::size_t listed = 0;
    for (const auto& f : cost_figure_fields<CostFigures>)
        listed += f.integer() ? sizeof(std::optional<int>) : f.optional() ? sizeof(std::optional<double>) : sizeof(double);
    CHECK(sizeof(CostFigures) == listed + sizeof(std::optional<CostSpread>));
    CHECK(cost_figure_fields<CostFigures>.size() == 12);
}

TEST_CASE("evaluate_batch: an empty batch is empty; a bad strategy is named by its index") {
    const Offering& azure = Catalog::builtin().offering("azure", "Standard_ND96asr_v4", "eastus");
    const DemandProfile demand = DemandProfile::constant(12, Horizon::years(1));
    CHECK(evaluate_batch({}, demand, azure).empty());
    const std::vector<Strategy> strategies{OnDemand{}, Mix{{{1.4, OnDemand{}}}, std::nullopt, Rounding::nearest}};
    CHECK_THROWS_WITH_AS(evaluate_batch(strategies, demand, azure),
                         "strategies[1].mix.tranches[0].fraction = 1.4: must be in [0, 1]", InvalidInput);
    // Options are checked once, for the whole batch, and named as in evaluate().
    EvaluationOptions bad;
    bad.annual_discount_rate = -1;
    CHECK_THROWS_WITH_AS(evaluate_batch(strategies, demand, azure, bad), "annual_discount_rate = -1: must be in [-0.5, 1] (a fraction a year: 0.05 for 5%)",
                         InvalidInput);
}

TEST_CASE("sorted months: served up to a capacity equals the hourly sum; scaling keeps the order") {
    Inputs in(913);
    for (int i = 0; i < 300; ++i) {
        const DemandProfile demand = in.demand();
        const SortedMonths& months = demand.sorted_months();
        REQUIRE(months.month_count() == demand.horizon().month_count());
        const auto& hours = demand.gpus_per_hour();
        CAPTURE(i);
        for (int m = 0; m < months.month_count(); ++m) {
            const auto month = hours.segment(Eigen::Index(m) * 730, 730);
            REQUIRE(months.peak(m) == month.maxCoeff());
            REQUIRE(std::abs(months.total(m) - month.sum()) <= tolerance(month.sum()));
            const double capacity = in.uniform(0, 1.2 * months.peak(m));
            const double direct = month.min(capacity).sum();
            REQUIRE(std::abs(months.served_up_to(m, capacity) - direct) <= tolerance(direct));
            REQUIRE(months.served_up_to(m, 0.0) == 0.0);
            REQUIRE(months.served_up_to(m, std::numeric_limits<double>::infinity()) == months.total(m));
        }
        // Scaling multiplies the sorted hours: the same months as sorting the scaled hours again.
        const double factor = in.uniform(0, 3);
        const SortedMonths scaled = demand.scaled(factor).sorted_months();
        const SortedMonths resorted(hours * factor);
        for (int m = 0; m < months.month_count(); ++m) {
            const auto a = scaled.sorted(m), b = resorted.sorted(m);
            REQUIRE(std::equal(a.begin(), a.end(), b.begin()));
            REQUIRE(scaled.total(m) == resorted.total(m));
        }
    }
}
