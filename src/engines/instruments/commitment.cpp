// The commitment instrument (commitment.hpp).
#include "commitment.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../pricing.hpp"
#include "gputco/core/limits.hpp"

namespace gputco::instruments {

Offering commitment_offering(const std::optional<Offering>& own, const std::string& field, const Offering& plan_offering,
                             const PlanOptions& options, std::vector<std::string>& conversions) {
    Offering offering = own ? *own : plan_offering;
    if (own) {
        offering.validate(field + ".offering");
        if (offering.currency != plan_offering.currency) {
            require(options.conversion.has_value(), field + ".offering.currency", offering.currency,
                    fmt::format("must be {}, the plan's currency, unless a dated exchange rate is given "
                                "(PlanOptions::conversion)",
                                plan_offering.currency));
            const RateQuote quote =
                options.conversion->rates.quote(offering.currency, plan_offering.currency, options.conversion->date);
            conversions.push_back(fmt::format("{}: {} converted to {} at {:.6g} ({})", field, offering.key(),
                                              plan_offering.currency, quote.rate, quote.describe()));
            offering = options.conversion->rates.convert(offering, plan_offering.currency, options.conversion->date);
        }
    }
    return offering;
}

PricedCommitment price_commitment(const Commitment& c, std::size_t i, Naming naming, const Offering& plan_offering,
                                  const PlanOptions& options, int horizon, std::vector<std::string>& conversions) {
    const bool from_mix = naming == Naming::mix;
    return price_commitment_as(c, from_mix ? std::string("reserved") : fmt::format("plan.commitments[{}]", i), from_mix,
                               plan_offering, options, horizon, conversions);
}

PricedCommitment price_commitment_as(const Commitment& c, const std::string& field, bool from_mix,
                                     const Offering& plan_offering, const PlanOptions& options, int horizon,
                                     std::vector<std::string>& conversions) {
    const Offering offering = commitment_offering(c.offering, field, plan_offering, options, conversions);
    if (!from_mix) require_at_most(field + ".count", c.count, limits::max_gpus);
    require(c.term_years >= 1 && c.term_years <= 5, field + ".term_years", c.term_years, "must be in [1, 5]");
    if (!from_mix)
        require(c.start_month >= 0 && c.start_month < horizon, field + ".start_month", c.start_month,
                fmt::format("must be in [0, {}) (the horizon's months)", horizon));
    PricedCommitment priced;
    priced.gpus = c.unit == CountUnit::instances ? c.count * offering.gpus_per_instance : c.count;
    if (!from_mix)
        require(priced.gpus <= limits::max_gpus, field + ".count", c.count,
                fmt::format("makes {:g} GPUs, more than {:g}", priced.gpus, limits::max_gpus));
    priced.start = c.start_month;
    priced.term_months = c.term_years * months_per_year;
    priced.renew = c.renewal == Renewal::renew;
    pricing::ReservationPrice price;
    if (c.term_months != 0) {
        const auto& terms = Commitment::month_terms;
        require(std::find(terms.begin(), terms.end(), c.term_months) != terms.end(), field + ".term_months",
                c.term_months, "must be 0 (a term of term_years), or 1, 3 or 6 (a month term)");
        priced.term_months = c.term_months;
        price = pricing::month_term(field, c.term_months, c.payment, c.reservation_discount, offering,
                                    options.discounts.region_price_factor);
    } else {
        price = pricing::reservation(field, c.term_years, c.payment, c.reservation_discount, offering,
                                     options.discounts.region_price_factor, from_mix ? "reserved.reservation_discount" : "reservation_discount");
    }
    priced.upfront_per_gpu = price.upfront_per_gpu;
    priced.hourly_per_gpu = price.hourly_per_gpu;
    priced.source = std::move(price.source);
    priced.name = field;
    priced.value_upfront_per_gpu = price.upfront_per_gpu;
    priced.kind = c.kind;
    priced.payment = c.payment;
    return priced;
}

PricedCommitment price_held(const HeldCommitment& h, std::size_t i, const Offering& plan_offering,
                            const PlanOptions& options, std::vector<std::string>& conversions, std::string_view list) {
    const std::string field = fmt::format("{}[{}]", list, i);
    const Offering offering = commitment_offering(h.offering, field, plan_offering, options, conversions);
    require_at_most(field + ".count", h.count, limits::max_gpus);
    require(h.start_month <= 0, field + ".start_month", h.start_month,
            "must be <= 0 (a held commitment was bought before the horizon's first month, 0)");
    require(h.end_month > 0, field + ".end_month", h.end_month,
            "must be > 0 (the first month it no longer runs; one that has ended is not held)");
    require(h.end_month - h.start_month <= 5 * months_per_year, field + ".end_month", h.end_month,
            fmt::format("must be at most 60 months after start_month = {} (terms are at most 5 years)", h.start_month));
    require(std::isfinite(h.upfront_per_gpu) && h.upfront_per_gpu >= 0, field + ".upfront_per_gpu", h.upfront_per_gpu,
            "must be finite and >= 0");
    PricedCommitment priced;
    priced.gpus = h.unit == CountUnit::instances ? h.count * offering.gpus_per_instance : h.count;
    require(priced.gpus <= limits::max_gpus, field + ".count", h.count,
            fmt::format("makes {:g} GPUs, more than {:g}", priced.gpus, limits::max_gpus));
    priced.start = h.start_month;
    priced.term_months = h.end_month - h.start_month;
    priced.fixed_price = true;
    priced.value_upfront_per_gpu = h.upfront_per_gpu;
    priced.kind = h.kind;
    priced.payment = h.payment;
    priced.name = h.id.empty() ? fmt::format("held[{}]", i) : h.id;
    if (h.hourly_per_gpu) {
        require(std::isfinite(*h.hourly_per_gpu) && *h.hourly_per_gpu >= 0, field + ".hourly_per_gpu",
                *h.hourly_per_gpu, "must be finite and >= 0");
        priced.hourly_per_gpu = *h.hourly_per_gpu;
        priced.source = "the rate given";
    } else {
        require(priced.term_months % months_per_year == 0, field + ".hourly_per_gpu", "none",
                fmt::format("give the rate: its term of {} months (start_month {} to end_month {}) is not whole "
                            "years, so no listed price applies",
                            priced.term_months, h.start_month, h.end_month));
        pricing::ReservationPrice price =
            pricing::reservation(field, priced.term_months / months_per_year, h.payment, std::nullopt, offering,
                                 options.discounts.region_price_factor, "hourly_per_gpu");
        priced.hourly_per_gpu = price.hourly_per_gpu;
        priced.source = std::move(price.source);
    }
    return priced;
}

std::string describe_held(const PricedCommitment& r, const std::string& c) {
    return fmt::format("held {}: {:g} GPUs bought in month {}, running to month {}, {} (upfront sunk) + {:.4f} {}/GPU-h "
                       "every hour; price from {}",
                       r.name, r.gpus, r.start, r.start + r.term_months, to_text(r.kind), r.hourly_per_gpu, c,
                       r.source);
}

std::string describe_commitment(const PricedCommitment& r, const std::string& c, double on_demand_per_gpu_hour) {
    return fmt::format(
        "reserved {:g} GPUs, {}-month terms{}, upfront {:.2f} {}/GPU per term + {:.4f} {}/GPU-h every hour of "
        "the term; effective {:.4f} {}/GPU-h ({:.1f}% off on-demand); {}; price from {}",
        r.gpus, r.term_months, r.start > 0 ? fmt::format(" from month {}", r.start) : std::string(), r.upfront_per_gpu,
        c, r.hourly_per_gpu, c, r.effective_per_gpu_hour(), c,
        100.0 * (1.0 - r.effective_per_gpu_hour() / on_demand_per_gpu_hour),
        r.renew ? "renewed at the same price until the horizon ends" : "not renewed", r.source);
}

}  // namespace gputco::instruments
