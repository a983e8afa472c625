// The month fields each instrument declares it writes (src/engines/instruments/*.hpp) are the ones the
// engine writes: over random plans, a plan holding one kind of instrument (and on demand, which takes
// the rest) leaves every other field at exactly 0, and every declared field is written somewhere.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/engines/plan_engine.hpp"
#include "gputco/results/report.hpp"
#include "instruments/capacity_block.hpp"
#include "instruments/commitment.hpp"
#include "instruments/commitment_change.hpp"
#include "instruments/flex_start.hpp"
#include "instruments/on_demand.hpp"
#include "instruments/owned.hpp"
#include "instruments/savings_plan.hpp"
#include "instruments/spot.hpp"
#include "random_cost_inputs.hpp"

using namespace gputco;
using testing::Inputs;

namespace {

/// One kind of instrument: the part of a drawn plan that holds it, and the columns it declares.
struct Kind {
    std::string name;
    Plan (*keep)(const Plan&);
    std::vector<std::span<const std::string_view>> declared;
};

Plan empty_like(const Plan& p) {
    Plan out;
    out.billing = p.billing;
    return out;
}

const std::vector<Kind>& kinds() {
    static const std::vector<Kind> all = {
        {"on demand", [](const Plan& p) { return empty_like(p); }, {}},
        {"commitment",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.commitments = p.commitments;
             return out;
         },
         {instruments::commitment_columns}},
        {"held commitment",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.held = p.held;
             return out;
         },
         {instruments::held_columns}},
        {"commitment change",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.held = p.held;
             out.commitments = p.commitments;
             out.changes = p.changes;
             return out;
         },
         {instruments::commitment_columns, instruments::held_columns, instruments::change_columns}},
        {"Savings Plan",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.savings_plans = p.savings_plans;
             return out;
         },
         {instruments::savings_plan_columns}},
        {"capacity block",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.capacity_blocks = p.capacity_blocks;
             return out;
         },
         {instruments::capacity_block_columns}},
        {"flex-start",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.flex_starts = p.flex_starts;
             return out;
         },
         {instruments::flex_start_columns}},
        {"owned",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.owned = p.owned;
             return out;
         },
         {instruments::owned_columns}},
        {"spot",
         [](const Plan& p) {
             Plan out = empty_like(p);
             out.spot = p.spot;
             out.more_spot = p.more_spot;
             return out;
         },
         {instruments::spot_columns}},
    };
    return all;
}

bool has_instrument(const Plan& p) {
    return !p.commitments.empty() || !p.held.empty() || !p.savings_plans.empty() || !p.capacity_blocks.empty() ||
           !p.flex_starts.empty() || !p.owned.empty() || p.spot.has_value();
}

}  // namespace

TEST_CASE("each instrument writes exactly the month fields it declares") {
    Inputs in(2512);
    // Per kind, the declared fields seen written (non-zero) in some month of some plan.
    std::map<std::string, std::set<std::string_view>> written;
    int priced = 0;
    for (int i = 0; i < 400; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const int months = demand.horizon().month_count();
        Plan drawn = in.plan(o, months, true);
        PlanOptions options = Inputs::plan_options(in.options());
        in.add_windows(drawn, options, months);
        options.windows.clear();  // dated windows are demand, not an instrument
        for (const Kind& kind : kinds()) {
            const Plan plan = kind.keep(drawn);
            if (kind.name != "on demand" && !has_instrument(plan)) continue;
            if (kind.name == "commitment change" && plan.changes.empty()) continue;
            std::set<std::string_view> allowed(instruments::month_columns.begin(), instruments::month_columns.end());
            allowed.insert(instruments::on_demand_columns.begin(), instruments::on_demand_columns.end());
            for (const auto& columns : kind.declared) allowed.insert(columns.begin(), columns.end());
            const PlanDistribution d = evaluate_plan(plan, DemandFutures::from_profile(demand), o, {}, options);
            ++priced;
            for (const MonthlyCashFlow& f : d.mean_months) {
                for (const auto& field : monthly_cash_flow_fields) {
                    const double value = field.value(f);
                    if (value == 0) continue;
                    const std::string name(field.name);
                    CAPTURE(i);
                    CAPTURE(kind.name);
                    CAPTURE(name);
                    CAPTURE(value);
                    REQUIRE(allowed.count(field.name) == 1);
                    written[kind.name].insert(field.name);
                }
            }
        }
    }
    CHECK(priced > 1000);
    // No declaration is wider than what its instrument writes.
    for (const Kind& kind : kinds()) {
        for (const auto& columns : kind.declared) {
            for (const std::string_view column : columns) {
                const std::string shown = kind.name + ": " + std::string(column);
                CAPTURE(shown);
                CHECK(written[kind.name].count(column) == 1);
            }
        }
    }
}
