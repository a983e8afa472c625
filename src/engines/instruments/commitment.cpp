// The commitment instrument (commitment.hpp).
#include "commitment.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "../pricing.hpp"
#include "gputco/core/limits.hpp"

namespace gputco::instruments {

PricedCommitment price_commitment(const Commitment& c, std::size_t i, Naming naming, const Offering& plan_offering,
                                  const PlanOptions& options, int horizon, std::vector<std::string>& conversions) {
    const bool from_mix = naming == Naming::mix;
    const std::string field = from_mix ? std::string("reserved") : fmt::format("plan.commitments[{}]", i);
    Offering offering = c.offering ? *c.offering : plan_offering;
    if (c.offering) {
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
        price = pricing::month_term(field, c.term_months, c.payment, c.discount, offering,
                                    options.discounts.region_price_factor);
    } else {
        price = pricing::reservation(field, c.term_years, c.payment, c.discount, offering,
                                     options.discounts.region_price_factor, from_mix ? "reserved.discount" : "discount");
    }
    priced.upfront_per_gpu = price.upfront_per_gpu;
    priced.hourly_per_gpu = price.hourly_per_gpu;
    priced.source = std::move(price.source);
    return priced;
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
