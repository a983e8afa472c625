// The owned instrument (owned.hpp).
#include "owned.hpp"

#include <fmt/format.h>

#include "gputco/core/limits.hpp"
#include "gputco/results/report.hpp"

namespace gputco::instruments {

PricedOwned price_owned(const OwnedPurchase& o, std::size_t i, Naming naming, int horizon) {
    if (naming == Naming::plan) {
        const std::string field = fmt::format("plan.owned[{}]", i);
        require_at_most(field + ".gpus", o.gpus, limits::max_gpus);
        require(o.month >= 0 && o.month < horizon, field + ".month", o.month,
                fmt::format("must be in [0, {}) (the horizon's months)", horizon));
    }
    o.terms.validate();
    return PricedOwned{o.gpus, o.month, o.terms};
}

std::string describe_owned(const PricedOwned& o, const std::string& c) {
    const Owned& t = o.terms;
    return fmt::format(
        "owned {:g} GPUs{} at {} {} each, bought again every {} years, resold at {:g}% of capex (book value at the "
        "horizon's end); {:g} W per GPU busy, {:g}% of it idle, PUE {:g}, {:g} {}/kWh; colocation {:g} {}/GPU-month, "
        "maintenance {:g}%/year of capex, staff {:g} {}/month; fixed cost {:.4f} {}/GPU-h",
        o.gpus, o.month > 0 ? fmt::format(" from month {}", o.month) : std::string(), format_money(t.capex_per_gpu, 0),
        c, t.life_years, 100 * t.residual_fraction, t.watts_per_gpu, 100 * t.idle_power_fraction, t.pue,
        t.electricity_per_kwh, c, t.colocation_per_gpu_month, c, 100 * t.maintenance_fraction_per_year,
        t.staff_per_month, c, o.fixed_per_gpu_hour(), c);
}

}  // namespace gputco::instruments
