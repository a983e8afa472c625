// Prints, as JSON, figures that python/tests/test_agreement.py recomputes through the Python package:
// the same inputs must give the same numbers in C++ and Python (seeded Monte Carlo included).
// Regenerate python/tests/data/reference_values.json with its output when a model changes on purpose.
#include <cstdio>
#include <string>
#include <vector>

#include <gputco/gputco.hpp>

namespace {

void put(const char* name, double value, bool last = false) {
    std::printf("  \"%s\": %.17g%s\n", name, value, last ? "" : ",");
}

}  // namespace

int main() {
    using namespace gputco;
    std::printf("{\n");

    // Closed forms: Daly's reference case (W = 500 h, R = 10 min, delta = 5 min, M = 24 h).
    put("interval_exact", optimal_checkpoint_interval(5.0 / 60, 24.0, CheckpointMethod::exact));
    put("interval_daly", optimal_checkpoint_interval(5.0 / 60, 24.0, CheckpointMethod::daly));
    put("interval_young", optimal_checkpoint_interval(5.0 / 60, 24.0, CheckpointMethod::young));
    Job daly;
    daly.work_hours = 500;
    daly.checkpoint_interval_hours = 2;
    daly.checkpoint_write_hours = 5.0 / 60;
    daly.restart_hours = 10.0 / 60;
    daly.capacity_wait_hours = 0.5;
    const ExpectedSpotTime expected = expected_spot_time(daly, 24.0);
    put("expected_billed_hours", expected.billed_hours);
    put("expected_wall_hours", expected.wall_hours);
    put("expected_interruptions", expected.interruptions);

    // Seeded Monte Carlo, Poisson and Weibull.
    Job job = daly;
    job.deadline_hours = 560;
    SimulationOptions options;
    options.paths = 5000;
    options.seed = 42;
    options.threads = 2;
    const SpotResult poisson = simulate_spot(job, Poisson{.mtbf_hours = 24}, {.price_per_hour = 1.2,
                                             .on_demand_price_per_hour = 4.0}, options);
    put("poisson_cost_mean", poisson.cost.mean);
    put("poisson_cost_p95", poisson.cost.p95);
    put("poisson_wall_hours_mean", poisson.wall_hours.mean);
    put("poisson_interruptions_mean", poisson.interruptions.mean);
    put("poisson_lost_work_hours_p50", poisson.lost_work_hours.p50);
    put("poisson_cost_0", poisson.samples.cost[0]);
    put("poisson_cost_4999", poisson.samples.cost[4999]);
    put("poisson_deadline_miss_probability", poisson.deadline_miss_probability);
    put("poisson_effective_discount", poisson.effective_discount);
    options.seed = 7;
    const SpotResult weibull = simulate_spot(job, Weibull{.shape = 0.7, .scale_hours = 12}, {}, options);
    put("weibull_billed_hours_mean", weibull.billed_hours.mean);
    put("weibull_billed_hours_p99", weibull.billed_hours.p99);

    // Cost engine: 70/30 on Azure ND96asr_v4, 4 GPUs with a weekday pattern, 5%/year NPV, discounts.
    const Offering& azure = Catalog::builtin().offering("azure", "Standard_ND96asr_v4");
    const DemandProfile demand =
        DemandProfile::constant(4, Horizon::years(3)).with_weekly_pattern({1, 1, 1, 1, 1, 0.5, 0.5});
    const Mix mix{{{0.7, Reserved{.term_years = 3, .payment = Payment::all_upfront}}, {0.3, OnDemand{}}}};
    EvaluationOptions evaluation;
    evaluation.discounts.free_gpu_hours = 100;
    evaluation.discounts.voucher_price_factor = 0.9;
    evaluation.annual_discount_rate = 0.05;
    evaluation.units = Units::gpus;  // the GPU-level view, as the stored figures were made
    const CostReport report = evaluate(mix, demand, azure, evaluation);
    put("demand_total_gpu_hours", demand.total_gpu_hours());
    put("mix_total", report.total);
    put("mix_npv", report.npv);
    put("mix_savings_fraction", report.savings_fraction);
    put("mix_reserved_utilisation", report.reserved_utilisation);
    put("mix_month_0_total", report.months.front().total);
    put("mix_break_even_month", report.break_even_month ? *report.break_even_month : -1, true);

    std::printf("}\n");
    return 0;
}
