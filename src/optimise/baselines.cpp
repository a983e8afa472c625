// Baseline plans: what people pick without the optimiser, to compare on held-out futures.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "gputco/optimise/optimise.hpp"
#include "gputco/optimise/recommend.hpp"

#include "../engines/instruments/savings_plan.hpp"

namespace gputco {

double provider_advice_units(std::span<const double> window, double held_gpus, double gpus_per_unit,
                             double reserved_rate, double on_demand_rate) {
    require_positive("gpus_per_unit", gpus_per_unit);
    if (window.empty() || !(on_demand_rate > reserved_rate)) return 0.0;
    // Usage not covered by what is held, sorted, with prefix sums: Σ_h min(u_h, R) in O(log H).
    std::vector<double> uncovered;
    uncovered.reserve(window.size());
    for (double d : window) uncovered.push_back(std::max(0.0, d - held_gpus));
    std::sort(uncovered.begin(), uncovered.end());
    std::vector<double> prefix(uncovered.size() + 1, 0.0);
    std::partial_sum(uncovered.begin(), uncovered.end(), prefix.begin() + 1);
    const double hours = double(uncovered.size());
    const auto served = [&](double gpus) {
        const auto k = std::size_t(std::upper_bound(uncovered.begin(), uncovered.end(), gpus) - uncovered.begin());
        return prefix[k] + gpus * (hours - double(k));
    };
    // Savings of r units over the window: on demand avoided − the reservation's cost. Concave in r, so
    // the most saving is at the first r whose next unit saves nothing (ties: fewer units).
    const auto next_unit_saves = [&](double r) {
        return on_demand_rate * (served((r + 1) * gpus_per_unit) - served(r * gpus_per_unit)) -
               reserved_rate * gpus_per_unit * hours > 0.0;
    };
    double low = 0, high = std::ceil(uncovered.back() / gpus_per_unit);  // beyond the peak no unit saves
    while (low < high) {
        const double mid = std::floor((low + high) / 2);
        if (next_unit_saves(mid)) low = mid + 1;
        else high = mid;
    }
    return low;
}

double provider_savings_plan_advice(std::span<const double> window, double held_gpus, double rate,
                                    double on_demand_rate) {
    require_positive("rate", rate);
    require_non_negative("on_demand_rate", on_demand_rate);
    require_non_negative("held_gpus", held_gpus);
    if (window.empty() || !(on_demand_rate > rate)) return 0.0;
    std::vector<double> uncovered;
    uncovered.reserve(window.size());
    for (double d : window) uncovered.push_back(std::max(0.0, d - held_gpus));
    std::sort(uncovered.begin(), uncovered.end());
    // Savings of covering c GPUs: p Σ_h min(u_h, c) − rate × c × H, concave and piecewise linear with
    // kinks at the hours' usage; right of c its slope is p × #(u_h > c) − rate × H. The most saving is at
    // the first kink (from 0) whose slope to the right is not positive.
    const double hours = double(uncovered.size());
    double covered = 0;
    for (std::size_t k = 0;;) {
        const std::size_t above = std::size_t(uncovered.end() - std::upper_bound(uncovered.begin(), uncovered.end(), covered));
        if (on_demand_rate * double(above) - rate * hours <= 0.0) break;
        k = uncovered.size() - above;  // the first hour above `covered`: the next kink
        covered = uncovered[k];
    }
    return rate * covered;
}

std::vector<Plan> savings_plan_baselines(const DemandProfile& history, const Offering& offering,
                                         const SavingsPlanOption& option, const PlanOptions& options) {
    const Discounts& d = options.discounts;
    require(option.term_years == 1 || option.term_years == 3, "option.term_years", option.term_years, "must be 1 or 3");
    double rate = 0;
    if (option.rate_per_gpu_hour) {
        rate = require_positive("option.rate_per_gpu_hour", *option.rate_per_gpu_hour);
    } else {
        const auto listed = offering.savings_plan_rate(option.type, option.term_years, option.payment);
        require(listed.has_value(), "option.rate_per_gpu_hour", "none",
                fmt::format("offering {} lists no {} {}-year {} Savings Plan rate; set it", offering.key(),
                            to_text(option.type), option.term_years, to_text(option.payment)));
        rate = listed->hourly / offering.gpus_per_instance * d.region_price_factor;
    }
    const double on_demand_rate = offering.on_demand_per_gpu_hour() * d.region_price_factor * (1.0 - d.on_demand_discount);
    const Eigen::ArrayXd& hours = history.gpus_per_hour();
    std::vector<Plan> plans;
    for (int days : {7, 30, 60}) {
        const auto window = std::min<Eigen::Index>(hours.size(), Eigen::Index(days) * 24);
        const double commitment =
            provider_savings_plan_advice({hours.data() + hours.size() - window, std::size_t(window)}, 0.0, rate, on_demand_rate);
        Plan plan;
        plan.name = fmt::format("Savings Plan lookback {} days: {:.3f}/h {} {}y {}", days, commitment, to_text(option.type),
                                option.term_years, to_text(option.payment));
        if (commitment > 0)
            plan.savings_plans.push_back({.commitment_per_hour = commitment, .type = option.type,
                                          .term_years = option.term_years, .payment = option.payment,
                                          .start_month = 0, .renewal = Renewal::renew,
                                          .rate_per_gpu_hour = option.rate_per_gpu_hour});
        plans.push_back(std::move(plan));
    }
    return plans;
}

Plan provider_policy_plan(const DemandProfile& history, const DemandFutures& futures, std::size_t future,
                          const Offering& offering, int lookback_days, int term_years, Payment payment,
                          const PlanOptions& options, const std::vector<HeldCommitment>& held_before) {
    require(term_years >= 1 && term_years <= 5, "term_years", term_years, "must be in [1, 5]");
    require(lookback_days >= 1, "lookback_days", lookback_days, "must be >= 1");
    require(future < futures.count(), "future", future, fmt::format("must be < {} (the futures)", futures.count()));
    const auto price = offering.reserved_price(term_years, payment);
    if (!price)
        fail("term_years", fmt::format("{}y {}", term_years, to_string(payment)),
             fmt::format("offering {} lists no such reservation price", offering.key()));
    const double gpus = offering.gpus_per_instance;
    const double rate = (price->upfront / (term_years * hours_per_year) + price->hourly) / gpus;
    const double on_demand_rate = offering.on_demand_per_gpu_hour() * (1.0 - options.discounts.on_demand_discount);
    const int window_months = lookback_days > 31 ? 2 : 1;
    Plan plan;
    plan.name = fmt::format("provider advice re-run monthly, lookback {} days, {}y {}", lookback_days, term_years,
                            to_string(payment));
    plan.held = held_before;
    std::vector<double> window;
    for (int m = 0; m < futures.month_count(); ++m) {
        window.clear();
        if (m == 0) {
            const Eigen::ArrayXd& hours = history.gpus_per_hour();
            const auto n = std::min<Eigen::Index>(hours.size(), Eigen::Index(lookback_days) * 24);
            window.assign(hours.data() + hours.size() - n, hours.data() + hours.size());
        } else {
            for (int w = std::max(0, m - window_months); w < m; ++w)
                for (double s : futures.shape(future, w).sorted) window.push_back(futures.level(future, w) * s);
        }
        double held = held_gpus_in(held_before, m, offering.gpus_per_instance);
        for (const Commitment& c : plan.commitments)
            if (m < c.start_month + c.term_years * months_per_year) held += c.count * gpus;
        const double units = provider_advice_units(window, held, gpus, rate, on_demand_rate);
        if (units > 0)
            plan.commitments.push_back({.count = units, .unit = CountUnit::instances, .term_years = term_years,
                                        .payment = payment, .start_month = m, .renewal = Renewal::lapse,
                                        .reservation_discount = {}, .offering = {}});
    }
    return plan;
}

std::vector<Plan> baseline_plans(const DemandProfile& history, const Offering& offering, int term_years,
                                 Payment payment, const PlanOptions& options, const std::vector<HeldCommitment>& held,
                                 const std::vector<SavingsPlan>& held_savings_plans) {
    require(term_years >= 1 && term_years <= 5, "term_years", term_years, "must be in [1, 5]");
    const auto price = offering.reserved_price(term_years, payment);
    if (!price)
        fail("term_years", fmt::format("{}y {}", term_years, to_string(payment)),
             fmt::format("offering {} lists no such reservation price", offering.key()));
    std::vector<Plan> plans;
    Plan on_demand;
    on_demand.name = "all on demand";
    on_demand.held = held;
    on_demand.savings_plans = held_savings_plans;
    plans.push_back(on_demand);
    const auto reserve = [&](double count, CountUnit unit, std::string name) {
        Plan plan;
        plan.name = std::move(name);
        plan.held = held;
        plan.savings_plans = held_savings_plans;
        if (count > 0)
            plan.commitments.push_back({.count = count, .unit = unit, .term_years = term_years, .payment = payment,
                                        .start_month = 0, .renewal = Renewal::renew, .reservation_discount = {}, .offering = {}});
        plans.push_back(plan);
    };
    // The providers' rule (AWS Cost Explorer, Azure Advisor; docs/models.md): the whole number of
    // instances that would have saved most over the last 7, 30 or 60 days, the upfront spread over the term.
    const Discounts& d = options.discounts;
    const double gpus = offering.gpus_per_instance;
    const double rate = (price->upfront / (term_years * hours_per_year) + price->hourly) / gpus;
    const double on_demand_rate = offering.on_demand_per_gpu_hour() * (1.0 - d.on_demand_discount);
    double held_now = held_gpus_in(held, 0, offering.gpus_per_instance);  // what the advice leaves out
    for (std::size_t i = 0; i < held_savings_plans.size(); ++i) {  // GPUs at the rate agreed, as the engine has them
        const auto sp = instruments::price_savings_plan(held_savings_plans[i], i, offering, d.region_price_factor, 1,
                                                        "held_savings_plans");
        if (sp.active(0, 1)) held_now += sp.gpus(1.0);
    }
    const Eigen::ArrayXd& hours = history.gpus_per_hour();
    for (int days : {7, 30, 60}) {
        const auto window = std::min<Eigen::Index>(hours.size(), Eigen::Index(days) * 24);
        const double units = provider_advice_units({hours.data() + hours.size() - window, std::size_t(window)},
                                                   held_now, gpus, rate, on_demand_rate);
        reserve(units, CountUnit::instances,
                fmt::format("lookback {} days: {:g} × {}-GPU instances {}y {}", days, units, gpus, term_years,
                            to_string(payment)));
    }
    // The newsvendor prices the term against the demand it would serve; a history shorter than the
    // term is repeated to the term's length (the term is paid in full past the history's end, so
    // priced over the history alone it would never pay).
    const Eigen::Index term_hours = Eigen::Index(term_years) * months_per_year * Eigen::Index(whole_hours_per_month);
    const bool short_history = hours.size() < term_hours;
    Eigen::ArrayXd seen = (hours - held_now).max(0.0);  // the demand the held commitments leave
    if (short_history) {
        seen.resize(term_hours);
        for (Eigen::Index h = 0; h < term_hours; ++h) seen[h] = std::max(0.0, hours[h % hours.size()] - held_now);
    }
    const ReservationAdvice advice = optimal_reservation(
        short_history || held_now > 0 ? DemandProfile::hourly(seen) : history, offering,
        Reserved{.term_years = term_years, .payment = payment, .reservation_discount = {}, .renewal = Renewal::renew},
        EvaluationOptions{.discounts = options.discounts, .annual_discount_rate = options.annual_discount_rate});
    reserve(advice.reserved_gpus, CountUnit::gpus,
            fmt::format("newsvendor on the history{}: {:g} GPUs {}y {}",
                        short_history ? fmt::format(" (repeated to the {}-year term)", term_years) : "",
                        advice.reserved_gpus, term_years, to_string(payment)));
    return plans;
}

}  // namespace gputco
