// The Savings Plan instrument (savings_plan.hpp).
#include "savings_plan.hpp"

#include <fmt/format.h>

#include "gputco/core/limits.hpp"

namespace gputco::instruments {

PricedSavingsPlan price_savings_plan(const SavingsPlan& s, std::size_t i, const Offering& offering, double region_factor,
                                     int horizon, std::string_view list) {
    const std::string field = fmt::format("{}[{}]", list, i);
    require_positive(field + ".commitment_per_hour", s.commitment_per_hour);
    require_at_most(field + ".commitment_per_hour", s.commitment_per_hour, limits::max_money);
    require(s.term_years == 1 || s.term_years == 3, field + ".term_years", s.term_years, "must be 1 or 3");
    // Months before 0: bought before the horizon, so its term must still run in month 0.
    const int term_months = s.term_years * months_per_year;
    require(s.start_month > -term_months && s.start_month < horizon, field + ".start_month", s.start_month,
            fmt::format("must be in [{}, {}) (the horizon's months, or before them for a plan held that still "
                        "runs in month 0)", 1 - term_months, horizon));
    PricedSavingsPlan priced;
    priced.commitment_per_hour = s.commitment_per_hour;
    priced.name = s.id.empty() ? field : s.id;
    priced.type = s.type;
    priced.start = s.start_month;
    priced.term_months = term_months;
    priced.renew = s.renewal == Renewal::renew;
    priced.upfront_fraction = upfront_share(s.payment);
    if (s.rate_per_gpu_hour) {
        require_positive(field + ".rate_per_gpu_hour", *s.rate_per_gpu_hour);
        priced.rate_per_gpu_hour = require_at_most(field + ".rate_per_gpu_hour", *s.rate_per_gpu_hour, limits::max_money);
        priced.source = "the plan (rate given)";
    } else {
        const std::optional<SavingsPlanRate> listed = offering.savings_plan_rate(s.type, s.term_years, s.payment);
        require(listed.has_value(), field + ".rate_per_gpu_hour", "none",
                fmt::format("offering {} lists no {} {}-year {} Savings Plan rate; set {}.rate_per_gpu_hour",
                            offering.key(), to_text(s.type), s.term_years, to_text(s.payment), field));
        priced.rate_per_gpu_hour = listed->hourly / offering.gpus_per_instance * region_factor;
        priced.source = fmt::format("{} ({})", listed->source.name, listed->source.as_of);
    }
    return priced;
}

std::string describe_savings_plan(const PricedSavingsPlan& s, const std::string& c, double on_demand_per_gpu_hour) {
    const double term = s.commitment_per_hour * s.term_months * hours_per_month;
    const std::string when = s.held() ? fmt::format(" held (bought in month {}, before the horizon; its upfront is sunk, "
                                                    "its rate agreed then)", s.start)
                             : s.start > 0 ? fmt::format(" from month {}", s.start)
                                           : std::string();
    return fmt::format(
        "{}{} savings plan {:g} {}/h, {}-month terms{}, upfront {:.2f} {} per term + {:.4f} {}/h every hour of the "
        "term, used or not; rate {:.4f} {}/GPU-h ({:.1f}% off on-demand), so it pays for up to {:.3f} GPUs each "
        "hour, after reservations and before spot and on-demand; {}; rate from {}",
        s.name.rfind("plan.", 0) == 0 ? std::string() : s.name + ": ", to_text(s.type), s.commitment_per_hour, c,
        s.term_months, when, s.upfront_fraction * term, c,
        (1.0 - s.upfront_fraction) * s.commitment_per_hour, c, s.rate_per_gpu_hour, c,
        100.0 * (1.0 - s.rate_per_gpu_hour / on_demand_per_gpu_hour), s.gpus(1.0),
        s.renew ? "renewed at the same commitment until the horizon ends" : "not renewed", s.source);
}

}  // namespace gputco::instruments
