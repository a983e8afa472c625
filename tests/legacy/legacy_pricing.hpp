#pragma once
// FROZEN REFERENCE: src/engines/pricing.hpp as it was before the engines became one, in the namespace
// gputco::legacy::pricing, for the frozen engines of tests/legacy only (legacy_cost.cpp, legacy_plan.cpp).
#include <optional>
#include <string>
#include <string_view>

#include "gputco/catalog/catalog.hpp"
#include "gputco/results/report.hpp"
#include "gputco/strategy/strategy.hpp"

namespace gputco::legacy::pricing {


/// A reservation's per-GPU prices: upfront at the start of each term, hourly for every hour of it.
struct ReservationPrice {
    double upfront_per_gpu = 0;
    double hourly_per_gpu = 0;
    std::string source;  ///< where the price comes from, for the report's assumptions
};

/// A `term_years` reservation on `offering` (region factor applied): with `discount`, (1 − d) × the
/// on-demand price split by payment (all upfront → all of it upfront, none → all hourly, partial →
/// half each); otherwise the catalog's price, an error naming `field` when it lists none (`hint` says
/// which field would supply it). Checks `<field>.reservation_discount`; the caller checks the term.
ReservationPrice reservation(std::string_view field, int term_years, Payment payment, std::optional<double> discount,
                             const Offering& offering, double region_factor, std::string_view hint);

/// The spot price per GPU-hour: `given` if set (>= 0), else the offering's listed spot price × the
/// region factor; an error naming `field` (e.g. "spot.price_per_gpu_hour") when there is neither.
double spot_price(std::string_view field, std::optional<double> given, const Offering& offering, double region_factor);

/// `<prefix>.overhead` finite and >= 1, `<prefix>.availability` in [0, 1].
void check_spot_terms(std::string_view prefix, double overhead, double availability);

/// Owned GPUs bought at `month` and again at the end of each life inside the horizon.
struct PricedOwned {
    double gpus = 0;
    int month = 0;
    Owned terms;
    int life_months() const { return terms.life_years * months_per_year; }
    /// Power price of one GPU-hour at full load and idle, site overhead (PUE) included.
    double busy_power_per_hour() const { return terms.watts_per_gpu / 1000.0 * terms.pue * terms.electricity_per_kwh; }
    double idle_power_per_hour() const { return busy_power_per_hour() * terms.idle_power_fraction; }
    /// Costs of one GPU that do not depend on use, per hour: depreciation, colocation, maintenance, staff.
    double fixed_per_gpu_hour() const;
    /// Straight-line book value of one GPU `age_months` into its life.
    double book_value(int age_months) const {
        const double worn = double(age_months) / life_months();
        return terms.capex_per_gpu * (1.0 - (1.0 - terms.residual_fraction) * worn);
    }
    /// Month m's capex, resale, power and fixed costs into `flow`, with `busy` GPU-hours used
    /// (m inside the horizon and at or after the purchase month).
    void add_month(int m, int horizon_months, double busy, MonthlyCashFlow& flow) const;
};

/// The month's credits in the order documented on Discounts (free hours against `on_demand_hours`
/// paid at `on_demand_price`, the plan discount, then vouchers on the cloud spend), and its total.
/// `free_hours_left` is the pool still unused, reduced here.
void add_credits_and_total(MonthlyCashFlow& flow, const Discounts& discounts, double on_demand_hours,
                           double on_demand_price, double& free_hours_left);

/// Hours `offering` charges for one launch running `hours`: rounded up to its billing increment (a
/// run within 1e-9 of a whole number of increments is that number), at least its minimum billed time.
double charged_hours(double hours, const Offering& offering);

}  // namespace gputco::legacy::pricing
