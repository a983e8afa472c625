#pragma once
// The brute force the recommender's exact tests compare with (test_recommend_exact, test_recommend_flex,
// test_recommend_changes): each plan a test enumerates is priced by the engine with no spot and with spot
// at every count where the cost can turn — an hour's demand less the capacity the plan has there: the
// cost is piecewise linear in spot GPUs between them — and, under a CVaR95 limit, where a future's cost,
// linear between two turns, crosses the limit. The cheapest within the limit is kept. Billed per whole
// instance (billed_per_instance), as the recommender bills when it counts in instances: each plan so
// billed, and spot at every whole number of instances up to the largest turn instead.
#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "gputco/engines/plan_engine.hpp"
#include "gputco/strategy/plan.hpp"
#include "gputco/work/demand_futures.hpp"
#include "plan_fixtures.hpp"

namespace gputco::test {

/// Month m's turns into `turns`: every hourly demand level of every future, plus `extra` GPUs, less the
/// `capacity` the plan has there (at least 0).
inline void add_spot_turns(std::set<double>& turns, const DemandFutures& futures, int m, double capacity,
                           double extra = 0) {
    for (std::size_t f = 0; f < futures.count(); ++f)
        for (double s : distinct_sorted(futures.shape(f, m).sorted))  // each level once, not each hour
            turns.insert(std::max(0.0, futures.level(f, m) * s + extra - capacity));
}

class BruteForce {
public:
    /// `spot`: its overhead and availability (gpus ignored), or none; `cvar95`: the limit, or none.
    BruteForce(const DemandFutures& futures, const Offering& offering, const PricePaths& prices, PlanOptions options,
               std::optional<SpotShare> spot, std::optional<double> cvar95)
        : futures_(futures), offering_(offering), prices_(prices), options_(std::move(options)),
          spot_(std::move(spot)), cvar95_(cvar95) {}

    /// Plans billed per whole instance of `gpus` GPUs (Units::instances), spot in whole instances.
    void billed_per_instance(int gpus) { instance_gpus_ = gpus; }

    /// `plan` without spot, and with spot at each of `turns` (GPUs) when the problem has spot.
    void consider(Plan plan, const std::set<double>& turns) {
        if (instance_gpus_ > 1) plan.billing = Units::instances;
        if (!spot_) {
            price(plan, 0);
            return;
        }
        if (instance_gpus_ > 1) {  // whole instances: every count up to the largest turn, no crossings
            const double g = instance_gpus_;
            const double most = turns.empty() ? 0.0 : std::ceil(*turns.rbegin() / g);
            for (double k = 0; k <= most; ++k) price(plan, k * g);
            return;
        }
        std::set<double> at_least_none = turns;
        at_least_none.insert(0.0);
        std::vector<PlanDistribution> at;
        for (double s : at_least_none) at.push_back(price(plan, s));
        if (!cvar95_) return;
        const std::vector<double> points(at_least_none.begin(), at_least_none.end());
        for (std::size_t i = 0; i + 1 < points.size(); ++i)
            for (std::size_t f = 0; f < futures_.count(); ++f) {
                const double lo = at[i].futures[f].total - *cvar95_, hi = at[i + 1].futures[f].total - *cvar95_;
                if (lo * hi < 0) price(plan, points[i] + lo / (lo - hi) * (points[i + 1] - points[i]));
            }
    }

    bool found() const { return best_ < 1e300; }
    double best() const { return best_; }
    const Plan& best_plan() const { return best_plan_; }

private:
    PlanDistribution price(Plan& plan, double s) {
        plan.spot.reset();
        if (s > 0) {
            plan.spot = *spot_;
            plan.spot->gpus = s;
        }
        PlanDistribution d = evaluate_plan(plan, futures_, offering_, prices_, options_);
        if (!(cvar95_ && d.total.cvar95 > *cvar95_ * (1 + 1e-9)) && d.total.mean < best_)
            best_ = d.total.mean, best_plan_ = plan;
        return d;
    }

    const DemandFutures& futures_;
    const Offering& offering_;
    const PricePaths& prices_;
    PlanOptions options_;
    std::optional<SpotShare> spot_;
    std::optional<double> cvar95_;
    int instance_gpus_ = 1;
    double best_ = 1e300;
    Plan best_plan_;
};

}  // namespace gputco::test
