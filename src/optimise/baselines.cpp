// Baseline plans: what people pick without the optimiser, to compare on held-out futures.
#include <algorithm>
#include <cmath>

#include "gputco/optimise/optimise.hpp"
#include "gputco/optimise/recommend.hpp"

namespace gputco {

std::vector<Plan> baseline_plans(const DemandProfile& history, const Offering& offering, int term_years,
                                 Payment payment, const PlanOptions& options) {
    require(term_years >= 1 && term_years <= 5, "term_years", term_years, "must be in [1, 5]");
    const auto price = offering.reserved_price(term_years, payment);
    if (!price)
        fail("term_years", fmt::format("{}y {}", term_years, to_string(payment)),
             fmt::format("offering {} lists no such reservation price", offering.key()));
    std::vector<Plan> plans;
    Plan on_demand;
    on_demand.name = "all on demand";
    plans.push_back(on_demand);
    const auto reserve = [&](double gpus, std::string name) {
        Plan plan;
        plan.name = std::move(name);
        if (gpus > 0)
            plan.commitments.push_back({.count = gpus, .unit = CountUnit::gpus, .term_years = term_years,
                                        .payment = payment, .start_month = 0, .renewal = Renewal::renew,
                                        .discount = {}, .offering = {}});
        plans.push_back(plan);
    };
    // The newsvendor level over a window: the smallest whole r with F(r) >= 1 − c_r / p.
    const Discounts& d = options.discounts;
    const double rate = (price->upfront / (term_years * hours_per_year) + price->hourly) / offering.gpus_per_instance;
    const double on_demand_rate = offering.on_demand_per_gpu_hour() * (1.0 - d.plan_discount);
    const double critical = std::max(0.0, 1.0 - rate / on_demand_rate);
    const Eigen::ArrayXd& hours = history.gpus_per_hour();
    for (int days : {7, 30, 60}) {
        const auto window = std::min<Eigen::Index>(hours.size(), Eigen::Index(days) * 24);
        std::vector<double> last(hours.data() + hours.size() - window, hours.data() + hours.size());
        std::sort(last.begin(), last.end());
        const auto needed = std::size_t(std::ceil(critical * double(last.size()) - 1e-9));
        const double gpus = needed == 0 ? 0.0 : std::ceil(last[needed - 1] - 1e-9);
        reserve(gpus, fmt::format("lookback {} days: {:g} GPUs {}y {}", days, gpus, term_years, to_string(payment)));
    }
    const ReservationAdvice advice = optimal_reservation(
        history, offering, Reserved{.term_years = term_years, .payment = payment, .discount = {}, .renewal = Renewal::renew},
        EvaluationOptions{.discounts = options.discounts, .annual_discount_rate = options.annual_discount_rate});
    reserve(advice.reserved_gpus,
            fmt::format("newsvendor on the history: {:g} GPUs {}y {}", advice.reserved_gpus, term_years, to_string(payment)));
    return plans;
}

}  // namespace gputco
