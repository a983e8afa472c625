#pragma once
// Shared by the report tests: tests/data/report_rich.{json,csv,txt} are its writers' output, written
// by the writers before they read the field lists (results/fields.hpp); they must stay identical.
#include "gputco/results/report.hpp"

// A hand-made report with every field set to a distinct, non-round value (months with owned, spot,
// credits and resale), so a writer that drops, renames or reorders a field changes the output.
inline gputco::CostReport rich_report() {
    using gputco::MonthlyCashFlow;
    gputco::CostReport r;
    r.strategy = "70% reserved 1y partial_upfront + 30% spot";
    r.offering = "testcloud/test-1/gpu8";
    r.currency = "EUR";
    r.horizon_months = 14;
    r.units = "instances";
    r.gpus_per_unit = 8;
    for (int m = 0; m < 14; ++m) {
        const double k = m + 1;
        MonthlyCashFlow f;
        f.month = m;
        f.upfront = m == 0 ? 12345.675 : 0;
        f.reserved_recurring = 1000.5 + k;
        f.on_demand = 250.125 * k;
        f.spot = 75.3 + 0.1 * k;
        f.credits = -12.25 * k;
        f.capex = m == 0 ? 20000 : 0;
        f.operating = 310.01;
        f.resale = m == 13 ? -9000.125 : 0;
        f.total = f.upfront + f.reserved_recurring + f.on_demand + f.spot + f.credits + f.capex + f.operating + f.resale;
        f.used_gpu_hours = 5000 + 3 * k;
        f.reserved_gpu_hours = 4088;
        f.reserved_used_gpu_hours = 4000.5 - k;
        f.spot_gpu_hours = 700.25 + k;
        f.on_demand_gpu_hours = 299.75 + 2 * k;
        f.spot_paid_gpu_hours = 701 + k;
        f.on_demand_paid_gpu_hours = 304 + 2 * k;
        f.owned_gpu_hours = 730;
        f.owned_used_gpu_hours = 700.125;
        r.months.push_back(f);
        r.total += f.total;
        r.used_gpu_hours += f.used_gpu_hours;
    }
    r.npv = r.total * 0.97;
    r.annual_discount_rate = 0.05;
    r.effective_cost_per_used_gpu_hour = r.total / r.used_gpu_hours;
    r.reserved_utilisation = 0.9786;
    r.owned_utilisation = 0.959;
    r.baseline_total = 98765.4321;
    r.savings = r.baseline_total - r.total;
    r.savings_fraction = r.savings / r.baseline_total;
    r.break_even_utilisation = 0.4815;
    r.break_even_month = 7;
    r.spread = gputco::CostSpread{.mean = 60001.5, .p05 = 59000.25, .p50 = 60000, .p95 = 61000.75, .p99 = 61500.125};
    r.assumptions = {"a hand-made report", "every field distinct"};
    return r;
}
