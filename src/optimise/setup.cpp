// The recommender's options checked and turned into buyable columns (see programme.hpp).
#include <algorithm>
#include <cmath>

#include "programme.hpp"
#include "gputco/optimise/flex_start_option.hpp"

#include "../engines/pricing.hpp"
#include "../engines/instruments/commitment.hpp"
#include "../engines/instruments/commitment_change.hpp"
#include "../engines/instruments/flex_start.hpp"
#include "../engines/instruments/savings_plan.hpp"

namespace gputco {

void validate(const FlexStartOption& f, std::string_view field) {
    instruments::require_flex_start_terms(field, f.discount, f.grant_probability);  // a plan's requests' rules
}

void validate(const ChangeOptions& c, std::string_view field) {
    if (c.resale_price_share)
        require(*c.resale_price_share >= 0.0 && *c.resale_price_share <= 1.0, fmt::format("{}.resale_price_share", field),
                *c.resale_price_share, "must be in [0, 1] (of the prorated upfront left)");
    // Exchanges are into terms of years only.
    const auto years_only = [&](const std::vector<CommitmentOption>& into, std::string_view list, std::string_view what) {
        for (std::size_t j = 0; j < into.size(); ++j)
            require(into[j].term_months == 0, fmt::format("{}.{}[{}].term_months", field, list, j), into[j].term_months,
                    fmt::format("must be 0 ({} is exchanged for a term of years)", what));
    };
    years_only(c.exchange_into, "exchange_into", "a convertible reservation");
    years_only(c.azure_exchange_into, "azure_exchange_into", "an Azure reservation");
}

}  // namespace gputco

namespace gputco::detail {
namespace {

/// The changes options.changes allows of each held reservation at each start month the engine allows
/// (instruments::change_months): a standard one sold, a convertible one exchanged into each of
/// exchange_into (priced as the engine prices an exchange's `into`), any one refunded. Money and
/// values by the engine's rules (instruments/commitment_change.hpp); costs are weighted later
/// (weigh_changes), once the objective's months are known: `last_month` grows to each exchange's end.
std::vector<ChangeCandidate> change_candidates(const Offering& offering, const RecommendOptions& o,
                                               const std::vector<instruments::PricedCommitment>& held,
                                               const std::vector<int>& starts, int horizon, int& last_month) {
    std::vector<ChangeCandidate> out;
    const ChangeOptions& c = o.changes;
    if (c.empty()) return out;
    std::vector<std::string> notes;
    // An exchange's new reservation, one unit from month k, priced as the engine prices a change's `into`.
    const auto price_into = [&](const CommitmentOption& into, std::string_view list, std::size_t j, int k) {
        const Commitment terms{.count = 1, .unit = o.unit, .term_years = into.term_years, .payment = into.payment,
                               .start_month = k, .renewal = Renewal::lapse,
                               .reservation_discount = into.reservation_discount, .offering = {}};
        return instruments::price_commitment_as(terms, fmt::format("options.changes.{}[{}]", list, j), false,
                                                offering, o.plan_options, horizon, notes);
    };
    for (std::size_t i = 0; i < held.size(); ++i) {
        const instruments::PricedCommitment& h = held[i];
        const auto [first, last] = instruments::change_months(h, horizon);
        for (int k : starts) {
            if (k < first || k >= last) continue;
            ChangeCandidate base;
            base.held = i;
            base.month = k;
            base.gpus = h.gpus;
            base.held_end = h.last_month(horizon);
            if (c.resale_price_share && h.kind == CommitmentClass::standard) {
                ChangeCandidate sale = base;
                sale.kind = ChangeKind::resale;
                sale.amount = *c.resale_price_share * instruments::remaining_upfront(h, k);  // the asking price
                out.push_back(sale);
            }
            if (c.refund) {
                ChangeCandidate refund = base;
                refund.kind = ChangeKind::refund;
                refund.amount = instruments::remaining_upfront(h, k);
                out.push_back(refund);
            }
            // Azure: any held reservation, its upfront left refunded, the new one bought in full.
            for (std::size_t j = 0; j < c.azure_exchange_into.size(); ++j) {
                const instruments::PricedCommitment next =
                    price_into(c.azure_exchange_into[j], "azure_exchange_into", j, k);
                ChangeCandidate exchange = base;
                exchange.kind = ChangeKind::azure_exchange;
                exchange.into = j;
                exchange.end = k + next.term_months;
                exchange.gpus_per_unit = next.gpus;
                // Its lifetime commitment, as the engine's rule (instruments::apply_changes) weighs it.
                exchange.value_per_unit = instruments::azure_lifetime_commitment(next);
                exchange.old_value = instruments::remaining_value(h, k);
                exchange.upfront_per_unit = next.gpus * next.upfront_per_gpu;
                exchange.amount = instruments::remaining_upfront(h, k);  // refunded, outside the cap
                exchange.hourly_per_gpu = next.hourly_per_gpu;
                last_month = std::max(last_month, exchange.end);
                out.push_back(exchange);
            }
            if (h.kind != CommitmentClass::convertible) continue;
            for (std::size_t j = 0; j < c.exchange_into.size(); ++j) {
                if (!instruments::exchange_payment_allowed(h.payment, c.exchange_into[j].payment))
                    continue;  // AWS does not offer it
                const instruments::PricedCommitment next = price_into(c.exchange_into[j], "exchange_into", j, k);
                const instruments::ExchangeValue value = instruments::exchange_value(h, next, k);
                ChangeCandidate exchange = base;
                exchange.kind = ChangeKind::exchange;
                exchange.into = j;
                exchange.end = value.end;
                exchange.gpus_per_unit = next.gpus;
                exchange.value_per_unit = value.value;
                exchange.old_value = instruments::remaining_value(h, k);
                exchange.upfront_per_unit = value.upfront;
                exchange.old_upfront = instruments::remaining_upfront(h, k);
                exchange.hourly_per_gpu = next.hourly_per_gpu;
                last_month = std::max(last_month, value.end);
                out.push_back(exchange);
            }
        }
    }
    return out;
}

/// Billed per whole instance of g GPUs, a tier below on demand and spot of `gpus` must end at a whole
/// instance: the programme prices on-demand and spot on the demand rounded up to whole instances
/// (billed_demand), which is the engine's per-instance billing only above a whole number of them.
/// `slack_gpus`: how far from a whole instance still counts as one (a Savings Plan read from a bill
/// is a $/hour figure in cents, so its GPUs are whole only to within a cent an hour).
void whole_instances_below(const std::string& field, double value, double gpus, int g, double slack_gpus = 0) {
    if (g == 1) return;
    const double instances = gpus / g;
    const double slack = std::max(1e-9 * std::max(1.0, instances), slack_gpus / g);
    require(std::abs(instances - std::round(instances)) <= slack, field, value,
            fmt::format("must cover a whole number of instances ({:.10g} GPUs: {:.10g} instances of {}) when the "
                        "recommender counts in instances (options.unit = instances), which bills on demand and "
                        "spot per instance above the tiers held",
                        gpus, instances, g));
}

/// Each change's cost as the objective weighs it: its money at its month (vouchers pay their share of
/// it, as the engine's commitment_changes column) less the held hourly charges it saves; an exchange's
/// unit its hourly charges, its true-up (a column of the programme: max(0, ·) of the units) its weight.
void weigh_changes(Setup& setup, const std::vector<instruments::PricedCommitment>& held, double voucher) {
    for (ChangeCandidate& c : setup.changes) {
        const instruments::PricedCommitment& h = held[c.held];
        double saved = 0;
        for (int m = c.month; m < c.held_end; ++m)
            if (h.active(m, setup.horizon))
                saved += voucher * h.hourly_per_gpu * h.gpus * hours_per_month * setup.weight[std::size_t(m)];
        const double at = setup.weight[std::size_t(c.month)];
        double runs = 0;  // an exchange's new reservation: the weight of the months it runs, [month, end)
        for (int m = c.month; m < c.end; ++m) runs += setup.weight[std::size_t(m)];
        switch (c.kind) {
        case ChangeKind::resale: c.cost = -voucher * instruments::resale_received(c.amount) * at - saved; break;
        case ChangeKind::refund: c.cost = -voucher * c.amount * at - saved; break;
        case ChangeKind::azure_exchange:  // the refund at its month; a unit's upfront then, its hourly charges as they run
            c.cost = -voucher * c.amount * at - saved;
            c.unit_cost = voucher * (c.upfront_per_unit * at + c.hourly_per_gpu * c.gpus_per_unit * hours_per_month * runs);
            break;
        default:  // an exchange: the true-up at its month, the new hourly charges as they run
            c.cost = -saved;
            c.unit_cost = voucher * c.hourly_per_gpu * c.gpus_per_unit * hours_per_month * runs;
            c.true_up_weight = voucher * at;
        }
    }
}

}  // namespace

Setup set_up(const DemandFutures& futures, const Offering& offering, const RecommendOptions& o) {
    Setup setup;
    const int horizon = setup.horizon = futures.month_count();
    setup.unit_gpus = billed_unit_gpus(offering, o);
    std::vector<CommitmentOption> options = o.commitments;
    if (options.empty())
        for (const ReservedPrice& r : offering.reserved) options.push_back({r.term_years, r.payment, {}});
    std::vector<int> starts = o.start_months;
    if (starts.empty()) {
        require(o.review_months >= 1, "options.review_months", o.review_months, "must be >= 1");
        for (int m = 0; m < horizon; m += o.review_months) starts.push_back(m);
    }
    for (std::size_t i = 0; i < starts.size(); ++i)
        require(starts[i] >= 0 && starts[i] < horizon, fmt::format("options.start_months[{}]", i), starts[i],
                fmt::format("must be in [0, {}) (the horizon's months)", horizon));
    const double region = o.plan_options.discounts.region_price_factor;
    int last_month = horizon;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const CommitmentOption& c = options[i];
        const std::string field = fmt::format("options.commitments[{}]", i);
        require(c.term_years >= 1 && c.term_years <= 5, field + ".term_years", c.term_years, "must be in [1, 5]");
        Candidate k;
        k.option = i;
        k.term_months = c.term_years * months_per_year;
        k.gpus_per_unit = o.unit == CountUnit::instances ? offering.gpus_per_instance : 1.0;
        const double term_hours = c.term_years * hours_per_year;
        if (c.term_months != 0) {  // a short term, priced as the plan engine prices Commitment::term_months
            const auto& terms = Commitment::month_terms;
            require(std::find(terms.begin(), terms.end(), c.term_months) != terms.end(), field + ".term_months",
                    c.term_months, "must be 0 (a term of term_years), or 1, 3 or 6 (a month term)");
            k.term_months = c.term_months;
            const pricing::ReservationPrice price =
                pricing::month_term(field, c.term_months, c.payment, c.reservation_discount, offering, region);
            k.upfront_per_gpu = price.upfront_per_gpu;
            k.hourly_per_gpu = price.hourly_per_gpu;
        } else if (c.reservation_discount) {  // as Commitment::reservation_discount in the plan engine
            require(*c.reservation_discount >= 0.0 && *c.reservation_discount < 1.0, field + ".reservation_discount",
                    *c.reservation_discount, "must be in [0, 1)");
            const double effective = (1.0 - *c.reservation_discount) * offering.on_demand_per_gpu_hour() * region;
            const double share = upfront_share(c.payment);
            k.upfront_per_gpu = effective * share * term_hours;
            k.hourly_per_gpu = effective * (1.0 - share);
        } else {
            const auto price = offering.reserved_price(c.term_years, c.payment);
            if (!price)
                fail(field, fmt::format("{}y {}", c.term_years, to_string(c.payment)),
                     fmt::format("offering {} lists no such reservation price; set reservation_discount", offering.key()));
            k.upfront_per_gpu = price->upfront * region / offering.gpus_per_instance;
            k.hourly_per_gpu = price->hourly * region / offering.gpus_per_instance;
        }
        for (int s : starts) {
            k.start = s;
            setup.candidates.push_back(k);
            last_month = std::max(last_month, s + k.term_months);
        }
    }
    // Savings Plans: a level in GPUs covered, paid as the engine pays the commitment (rate × GPUs per
    // hour; all upfront the term's worth at the start, partial half of it).
    for (std::size_t i = 0; i < o.savings_plans.size(); ++i) {
        const SavingsPlanOption& sp = o.savings_plans[i];
        const std::string field = fmt::format("options.savings_plans[{}]", i);
        require(sp.term_years == 1 || sp.term_years == 3, field + ".term_years", sp.term_years, "must be 1 or 3");
        double rate = 0;
        if (sp.rate_per_gpu_hour) {
            rate = require_positive(field + ".rate_per_gpu_hour", *sp.rate_per_gpu_hour);
        } else {
            const auto listed = offering.savings_plan_rate(sp.type, sp.term_years, sp.payment);
            require(listed.has_value(), field + ".rate_per_gpu_hour", "none",
                    fmt::format("offering {} lists no {} {}-year {} Savings Plan rate; set it", offering.key(),
                                to_text(sp.type), sp.term_years, to_text(sp.payment)));
            rate = listed->hourly / offering.gpus_per_instance * region;
        }
        Candidate k;
        k.option = i;
        k.savings_plan = int(i);
        k.savings_plan_rate = rate;
        k.term_months = sp.term_years * months_per_year;
        // Billed per instance, a level of whole instances' worth: a tier ending inside an instance
        // would leave the next one paying for a part-filled instance (whole_instances_below).
        k.gpus_per_unit = setup.unit_gpus;
        const double share = upfront_share(sp.payment);
        k.upfront_per_gpu = rate * share * sp.term_years * hours_per_year;
        k.hourly_per_gpu = rate * (1.0 - share);
        for (int s : starts) {
            k.start = s;
            setup.candidates.push_back(k);
            last_month = std::max(last_month, s + k.term_months);
        }
    }
    // Held commitments, priced as the engine prices them (errors name options.held[i]).
    std::vector<instruments::PricedCommitment> held;
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < o.held.size(); ++i) {
        held.push_back(instruments::price_held(o.held[i], i, offering, o.plan_options, notes, "options.held"));
        last_month = std::max(last_month, held.back().last_month(setup.horizon));
    }
    // Savings Plans held, priced as the engine prices them (at the rate agreed before the horizon).
    std::vector<instruments::PricedSavingsPlan> held_plans;
    for (std::size_t i = 0; i < o.held_savings_plans.size(); ++i) {
        const SavingsPlan& sp = o.held_savings_plans[i];
        const std::string field = fmt::format("options.held_savings_plans[{}]", i);
        require(sp.start_month < 0, field + ".start_month", sp.start_month, "must be < 0 (bought before the horizon)");
        require(sp.renewal == Renewal::lapse, field + ".renewal", to_text(sp.renewal),
                "must be lapse (a renewal is a purchase for the recommender to make)");
        held_plans.push_back(instruments::price_savings_plan(sp, i, offering, o.plan_options.discounts.region_price_factor,
                                                             setup.horizon, "options.held_savings_plans"));
        last_month = std::max(last_month, held_plans.back().last_month(setup.horizon));
    }
    for (std::size_t i = 0; i < held.size(); ++i)
        whole_instances_below(fmt::format("options.held[{}].count", i), o.held[i].count, held[i].gpus, setup.unit_gpus);
    for (std::size_t i = 0; i < held_plans.size(); ++i) {
        const double per_hour = o.held_savings_plans[i].commitment_per_hour, gpus = held_plans[i].gpus(1.0);
        const double cent_an_hour = gpus > 0 ? 0.01 * gpus / per_hour : 0.0;  // GPUs a cent an hour buys
        whole_instances_below(fmt::format("options.held_savings_plans[{}].commitment_per_hour", i), per_hour, gpus,
                              setup.unit_gpus, cent_an_hour);
    }
    setup.changes = change_candidates(offering, o, held, starts, setup.horizon, last_month);
    const bool npv = o.objective == Objective::expected_npv;
    const double monthly = std::pow(1.0 + o.plan_options.annual_discount_rate, 1.0 / months_per_year);
    double discount = 1;
    for (int m = 0; m < last_month; ++m) {
        setup.weight.push_back(npv ? 1.0 / discount : 1.0);
        discount *= monthly;
    }
    setup.held_gpus.assign(std::size_t(setup.horizon), 0.0);
    for (const auto& c : held) {
        for (int m = 0; m < c.last_month(setup.horizon); ++m) {
            if (!c.active(m, setup.horizon)) continue;
            if (m < setup.horizon) setup.held_gpus[std::size_t(m)] += c.gpus;
            setup.held_cost += o.plan_options.discounts.voucher_price_factor * c.hourly_per_gpu * c.gpus *
                               hours_per_month * setup.weight[std::size_t(m)];
        }
    }
    for (const auto& sp : held_plans) {  // their GPUs at the agreed rate; only the hourly part is still paid
        for (int m = 0; m < sp.last_month(setup.horizon); ++m) {
            if (!sp.active(m, setup.horizon)) continue;
            if (m < setup.horizon) setup.held_gpus[std::size_t(m)] += sp.gpus(1.0);
            setup.held_cost += o.plan_options.discounts.voucher_price_factor * (1.0 - sp.upfront_fraction) *
                               sp.commitment_per_hour * hours_per_month * setup.weight[std::size_t(m)];
        }
    }
    weigh_changes(setup, held, o.plan_options.discounts.voucher_price_factor);
    set_up_windows(setup, offering, o, futures.count());
    return setup;
}

void validate(const DemandFutures& futures, const Offering& offering, const RecommendOptions& o, const PricePaths& prices) {
    offering.validate();
    offering.require_terms("a recommendation (reservations against on-demand hours)");
    o.plan_options.discounts.validate();
    require(o.plan_options.discounts.free_gpu_hours == 0.0, "options.plan_options.discounts.free_gpu_hours",
            o.plan_options.discounts.free_gpu_hours, "must be 0 for the optimiser (a pool of free hours is not linear)");
    require_discount_rate("options.plan_options.annual_discount_rate", o.plan_options.annual_discount_rate);
    require(futures.count() >= 1, "futures.count", futures.count(), "must be >= 1");
    require(o.max_count >= 0.0, "options.max_count", o.max_count, "must be >= 0");
    require(o.max_blocks >= 1 && o.max_blocks <= 730, "options.max_blocks", o.max_blocks, "must be in [1, 730]");
    require_positive("options.time_limit_seconds", o.time_limit_seconds);
    // Every plan costs >= 0, so a negative limit is a mistake (and one near -DBL_MAX made Clp abort).
    if (o.limits.cvar95) require_non_negative("limits.cvar95", *o.limits.cvar95);
    if (o.limits.upfront_per_period) require_non_negative("limits.upfront_per_period", *o.limits.upfront_per_period);
    require(o.limits.upfront_period_months >= 1, "limits.upfront_period_months", o.limits.upfront_period_months,
            "must be >= 1");
    if (o.limits.committed_share) require_non_negative("limits.committed_share", *o.limits.committed_share);
    if (o.limits.deadline_miss_probability)
        require_fraction("limits.deadline_miss_probability", *o.limits.deadline_miss_probability);
    if (o.limits.capacity_assurance) require_fraction("limits.capacity_assurance", *o.limits.capacity_assurance);
    o.on_demand_capacity.validate("options.on_demand_capacity");
    // Dated windows and the blocks bought for them (windows.cpp): the assurance row sees whole months only.
    if (o.capacity_blocks)
        require(!o.plan_options.windows.empty(), "options.plan_options.windows.size", 0,
                "must be >= 1 with options.capacity_blocks (a block is bought for a dated window of demand)");
    if (o.flex_start) {
        require(!o.plan_options.windows.empty(), "options.plan_options.windows.size", 0,
                "must be >= 1 with options.flex_start (a request is made for a dated window of demand)");
        validate(*o.flex_start, "options.flex_start");
        offering.require_on_demand("options.flex_start");
    }
    if (!o.changes.empty()) {
        require(!o.held.empty(), "options.held.size", 0,
                "must be >= 1 with options.changes (a change is made to a reservation already held)");
        validate(o.changes, "options.changes");
    }
    if (o.limits.capacity_assurance)
        require(o.plan_options.windows.empty(), "limits.capacity_assurance", *o.limits.capacity_assurance,
                fmt::format("cannot be used with options.plan_options.windows ({} windows): the assurance row does "
                            "not see dated windows", o.plan_options.windows.size()));
    // A Savings Plan's level is one $/hour in every future: it covers the same GPUs in each only when the
    // reservation factor of its start month is the same in each.
    if (!o.savings_plans.empty() && !prices.empty() && prices.reserved.cols() > 1)
        for (const Eigen::ArrayXXd* table : {&prices.reserved, &prices.reserved_3y})
            for (Eigen::Index m = 0; m < table->rows(); ++m)
                require((table->row(m) == (*table)(m, 0)).all(), "options.savings_plans",
                        fmt::format("{} options", o.savings_plans.size()),
                        fmt::format("need a reservation price factor that is the same in every future (month {} differs)", m));
    for (std::size_t i = 0; i < o.spot.size(); ++i) {
        const std::string field = fmt::format("options.spot[{}]", i);
        require(std::isfinite(o.spot[i].overhead) && o.spot[i].overhead >= 1.0, field + ".overhead", o.spot[i].overhead,
                "must be finite and >= 1 (billed per useful hour)");
        require_fraction(field + ".availability", o.spot[i].availability);
        if (o.spot[i].deadline_miss_probability)
            require_fraction(field + ".deadline_miss_probability", *o.spot[i].deadline_miss_probability);
        if (o.spot[i].price_per_gpu_hour) require_non_negative(field + ".price_per_gpu_hour", *o.spot[i].price_per_gpu_hour);
        else if (!offering.spot_per_gpu_hour())
            fail(field + ".price_per_gpu_hour", "none",
                 fmt::format("offering {} lists no spot price; set it", offering.key()));
    }
    if (o.owned) {
        o.owned->terms.validate();
        require(o.owned->max_gpus >= 0 && o.owned->max_gpus <= 1'000'000, "options.owned.max_gpus", o.owned->max_gpus,
                "must be in [0, 1000000]");
        require(o.owned->step_gpus >= 1, "options.owned.step_gpus", o.owned->step_gpus, "must be >= 1");
        // Owned GPUs serve first: billed per instance, every count must end at a whole instance.
        whole_instances_below("options.owned.step_gpus", o.owned->step_gpus, o.owned->step_gpus,
                              billed_unit_gpus(offering, o));
        require(!o.owned->months.empty(), "options.owned.months.size", 0, "must be >= 1");
        double combinations = 1;
        for (std::size_t i = 0; i < o.owned->months.size(); ++i) {
            require(o.owned->months[i] >= 0 && o.owned->months[i] < futures.month_count(),
                    fmt::format("options.owned.months[{}]", i), o.owned->months[i],
                    fmt::format("must be in [0, {}) (the horizon's months)", futures.month_count()));
            combinations *= double(o.owned->max_gpus / o.owned->step_gpus + 1);
        }
        require(combinations <= 4096.0, "options.owned.combinations", combinations,
                "must be <= 4096 (each is a solve: fewer months, a lower max_gpus or a larger step_gpus)");
    }
    // A window's GPUs come on top of the steady demand in its hours: billed per instance, rounding
    // the sum up to instances is rounding the steady demand up only when the window is whole instances.
    for (std::size_t i = 0; i < o.plan_options.windows.size(); ++i)
        whole_instances_below(fmt::format("options.plan_options.windows[{}].gpus", i), o.plan_options.windows[i].gpus,
                              o.plan_options.windows[i].gpus, billed_unit_gpus(offering, o));
    if (!prices.empty()) {
        require(prices.on_demand.rows() == futures.month_count(), "prices.months", prices.on_demand.rows(),
                fmt::format("must be {} (the futures' months)", futures.month_count()));
        require(prices.on_demand.cols() == 1 || std::size_t(prices.on_demand.cols()) == futures.count(),
                "prices.futures", prices.on_demand.cols(),
                fmt::format("must be 1 or {} (the number of futures)", futures.count()));
        check_reserved_3y(prices);
    }
}

}  // namespace gputco::detail
