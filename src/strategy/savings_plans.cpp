// The Savings Plan rule for one hour (savings_plans.hpp).
#include "gputco/strategy/savings_plans.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "gputco/core/error.hpp"

namespace gputco {

namespace {

void check(std::span<const SavingsPlanUsage> usage, std::span<const HourlySavingsPlan> plans) {
    for (std::size_t i = 0; i < usage.size(); ++i) {
        const SavingsPlanUsage& u = usage[i];
        const std::string field = fmt::format("usage[{}]", i);
        require_non_negative(field + ".hours", u.hours);
        require_non_negative(field + ".reserved_hours", u.reserved_hours);
        require(u.reserved_hours <= u.hours, field + ".reserved_hours", u.reserved_hours,
                fmt::format("must be <= hours ({:g})", u.hours));
        require_non_negative(field + ".on_demand_rate", u.on_demand_rate);
        for (std::size_t t = 0; t < savings_plan_type_count; ++t) {
            if (!u.rates[t]) continue;
            require_positive(fmt::format("{}.rates.{}", field, to_text(SavingsPlanType(t))), *u.rates[t]);
        }
    }
    for (std::size_t j = 0; j < plans.size(); ++j) {
        const HourlySavingsPlan& p = plans[j];
        const std::string field = fmt::format("savings_plans[{}]", j);
        require_positive(field + ".commitment_per_hour", p.commitment_per_hour);
        if (p.type == SavingsPlanType::aws_ec2_instance) {
            require(!p.family.empty(), field + ".family", p.family,
                    "must name the instance family of an aws_ec2_instance plan");
            require(!p.region.empty(), field + ".region", p.region, "must name the region of an aws_ec2_instance plan");
        }
    }
}

bool covers(const HourlySavingsPlan& plan, const SavingsPlanUsage& line) {
    if (!line.rate(plan.type)) return false;
    if (plan.type != SavingsPlanType::aws_ec2_instance) return true;
    return line.family == plan.family && line.region == plan.region;
}

}  // namespace

SavingsPlanHour apply_savings_plans(std::span<const SavingsPlanUsage> usage, std::span<const HourlySavingsPlan> plans) {
    check(usage, plans);
    SavingsPlanHour out;
    out.on_demand_hours.resize(usage.size());
    for (std::size_t i = 0; i < usage.size(); ++i) out.on_demand_hours[i] = usage[i].hours - usage[i].reserved_hours;
    out.used_commitment.assign(plans.size(), 0.0);
    out.unused_commitment.assign(plans.size(), 0.0);

    std::vector<std::size_t> plan_order(plans.size());
    std::iota(plan_order.begin(), plan_order.end(), std::size_t{0});
    std::stable_sort(plan_order.begin(), plan_order.end(), [&](std::size_t a, std::size_t b) {
        return applied_first(plans[a].type) && !applied_first(plans[b].type);
    });
    std::vector<std::size_t> lines;
    for (const std::size_t j : plan_order) {
        const HourlySavingsPlan& plan = plans[j];
        lines.clear();
        for (std::size_t i = 0; i < usage.size(); ++i)
            if (covers(plan, usage[i])) lines.push_back(i);
        const auto saving = [&](std::size_t i) {
            const SavingsPlanUsage& u = usage[i];
            return u.on_demand_rate > 0 ? 1.0 - *u.rate(plan.type) / u.on_demand_rate : 0.0;
        };
        std::stable_sort(lines.begin(), lines.end(), [&](std::size_t a, std::size_t b) { return saving(a) > saving(b); });
        double left = plan.commitment_per_hour;
        for (const std::size_t i : lines) {
            if (left <= 0) break;
            double& open = out.on_demand_hours[i];
            if (open <= 0) continue;
            const double rate = *usage[i].rate(plan.type);
            // The commitment runs out inside this line: it pays for part of an instance-hour, as AWS
            // bills the rest of that usage at on-demand.
            const double hours = std::min(open, left / rate);
            const double cost = hours == open ? std::min(hours * rate, left) : left;
            out.covered.push_back({j, i, hours, cost});
            const bool whole_line = hours == open;
            open = whole_line ? 0.0 : open - hours;
            left = whole_line ? std::max(0.0, left - cost) : 0.0;
        }
        out.used_commitment[j] = plan.commitment_per_hour - left;
        out.unused_commitment[j] = left;
        out.total += plan.commitment_per_hour;
    }
    for (std::size_t i = 0; i < usage.size(); ++i) out.on_demand_cost += out.on_demand_hours[i] * usage[i].on_demand_rate;
    out.total += out.on_demand_cost;
    return out;
}

}  // namespace gputco
