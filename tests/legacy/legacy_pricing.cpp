// FROZEN REFERENCE: src/engines/pricing.cpp as it was before the engines became one (legacy_pricing.hpp).
#include "legacy_pricing.hpp"

#include <algorithm>
#include <cmath>

namespace gputco::legacy::pricing {


ReservationPrice reservation(std::string_view field, int term_years, Payment payment, std::optional<double> discount,
                             const Offering& offering, double region_factor, std::string_view hint) {
    const std::string prefix(field);
    ReservationPrice priced;
    const double term_hours = term_years * hours_per_year;
    if (discount) {
        const double d = *discount;
        require(d >= 0.0 && d < 1.0, prefix + ".reservation_discount", d, "must be in [0, 1)");
        const double effective = (1.0 - d) * (offering.on_demand_per_gpu_hour() * region_factor);
        const double upfront_share = payment == Payment::all_upfront       ? 1.0
                                     : payment == Payment::partial_upfront ? 0.5
                                                                           : 0.0;
        priced.upfront_per_gpu = effective * upfront_share * term_hours;
        priced.hourly_per_gpu = effective * (1.0 - upfront_share);
        priced.source = fmt::format("{}.reservation_discount {:g}% off on-demand", field, 100 * d);
        return priced;
    }
    const auto price = offering.reserved_price(term_years, payment);
    if (!price) {
        fail(field, fmt::format("{}y {}", term_years, to_string(payment)),
             fmt::format("offering {} lists no such reservation price; set {}", offering.key(), hint));
    }
    const double per_gpu = region_factor / offering.gpus_per_instance;
    priced.upfront_per_gpu = price->upfront * per_gpu;
    priced.hourly_per_gpu = price->hourly * per_gpu;
    priced.source = fmt::format("{} ({})", price->source.name, price->source.as_of);
    return priced;
}

double spot_price(std::string_view field, std::optional<double> given, const Offering& offering, double region_factor) {
    if (given) return require_at_most(field, *given, limits::max_money);
    if (const auto listed = offering.spot_per_gpu_hour()) return *listed * region_factor;
    fail(field, "none", fmt::format("offering {} lists no spot price; set {}", offering.key(), field));
}

void check_spot_terms(std::string_view prefix, double overhead, double availability) {
    const std::string field(prefix);
    require(std::isfinite(overhead) && overhead >= 1.0, field + ".overhead", overhead,
            "must be finite and >= 1 (billed per useful hour)");
    require(overhead <= SpotTranche::max_overhead, field + ".overhead", overhead,
            fmt::format("must be <= {:g}", SpotTranche::max_overhead));
    require_fraction(field + ".availability", availability);
}

double PricedOwned::fixed_per_gpu_hour() const {
    const double depreciation = terms.capex_per_gpu * (1.0 - terms.residual_fraction) / (terms.life_years * hours_per_year);
    const double staff = gpus > 0 ? terms.staff_per_month / gpus / hours_per_month : 0.0;
    return depreciation + terms.colocation_per_gpu_month / hours_per_month +
           terms.maintenance_fraction_per_year * terms.capex_per_gpu / hours_per_year + staff;
}

void PricedOwned::add_month(int m, int horizon_months, double busy, MonthlyCashFlow& flow) const {
    const int age = m - month, life = life_months();
    if (age % life == 0) {
        flow.capex += terms.capex_per_gpu * gpus;
        if (age > 0) flow.resale -= book_value(life) * gpus;  // the old hardware, at its residual value
    }
    if (m == horizon_months - 1) flow.resale -= book_value(age % life + 1) * gpus;  // still owned at the end
    const double available = gpus * hours_per_month;
    flow.owned_gpu_hours += available;
    flow.owned_used_gpu_hours += busy;
    flow.operating += busy * busy_power_per_hour() + (available - busy) * idle_power_per_hour() +
                      gpus * (terms.colocation_per_gpu_month +
                              terms.maintenance_fraction_per_year * terms.capex_per_gpu / months_per_year) +
                      terms.staff_per_month;
}

void add_credits_and_total(MonthlyCashFlow& flow, const Discounts& discounts, double on_demand_hours,
                           double on_demand_price, double& free_hours_left) {
    const double free_hours = std::min(free_hours_left, on_demand_hours);
    free_hours_left -= free_hours;
    double credits = -free_hours * on_demand_price;
    credits -= discounts.on_demand_discount * (flow.on_demand + credits);
    const double cloud_net = flow.upfront + flow.reserved_recurring + flow.on_demand + flow.spot + credits;
    credits -= (1.0 - discounts.voucher_price_factor) * cloud_net;  // vouchers are cloud credits
    flow.credits = credits;
    flow.total = flow.upfront + flow.reserved_recurring + flow.on_demand + flow.spot + flow.credits + flow.capex +
                 flow.operating + flow.resale;
}

double charged_hours(double hours, const Offering& o) {
    const double increment = o.billing_increment_seconds / 3600.0;
    double charged = hours;
    if (increment > 0) {
        const double steps = hours / increment;
        const double whole = std::floor(steps);
        charged = (steps - whole <= 1e-9 * std::max(1.0, whole) ? whole : whole + 1) * increment;
    }
    return std::max(charged, o.minimum_billed_seconds / 3600.0);
}

}  // namespace gputco::legacy::pricing
