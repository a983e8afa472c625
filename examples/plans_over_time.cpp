// Plans over time under uncertain demand and prices: a team runs 8 A100s (one AWS p4d.24xlarge)
// today and will double within a year with probability 0.6. Four plans, 10,000 futures, 3 years
// from January 2025, priced twice: at the list prices before AWS's June 2025 P4/P5 cut, and with
// the cut (on-demand $32.77 → $21.96/h from month 5; reservations bought earlier keep their price).
//
//   plans_over_time            tables of cost distributions and regret
//   plans_over_time --futures N --seed S
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gputco/gputco.hpp>

#include "json_rows.hpp"

using namespace gputco;

namespace {

std::FILE* out = stdout;  // the text report; nowhere under --json

std::vector<Plan> candidate_plans() {
    Plan on_demand;
    on_demand.name = "all on-demand";

    Plan base;
    base.name = "3-year base (8 GPUs)";
    base.commitments.push_back({.count = 1, .unit = CountUnit::instances, .term_years = 3, .payment = Payment::all_upfront});

    Plan ladder;
    ladder.name = "ladder: 3y base + 1y layer @9";
    ladder.commitments = base.commitments;
    ladder.commitments.push_back(
        {.count = 1, .unit = CountUnit::instances, .term_years = 1, .payment = Payment::all_upfront, .start_month = 9});

    // 70% of the doubled fleet (16 GPUs) on 3-year reservations, 30% on demand: 11 GPUs reserved.
    const Mix mix{{{0.7, Reserved{.term_years = 3, .payment = Payment::all_upfront}}, {0.3, OnDemand{}}}, 16.0,
                  Rounding::nearest};
    Plan seventy = plan_from_mix(mix, 16.0);
    seventy.name = "70/30 mix of 16 GPUs";
    return {on_demand, base, ladder, seventy};
}

void print_table(const std::string& title, const std::vector<PlanDistribution>& results,
                 const std::vector<double>& hindsight) {
    fmt::print(out, "\n{}\n", title);
    fmt::print(out, "{:<31} {:>17} {:>9} {:>9} {:>9} {:>9} {:>11} {:>11} {:>6} {:>7} {:>11}\n", "plan (USD, thousands)",
               "mean ± se", "P5", "P50", "P95", "CVaR95", "regret mean", "regret P95", "best", "util.",
               "stranded");
    for (const PlanDistribution& r : results) {
        fmt::print(out, "{:<31} {:>9.1f} ± {:>5.2f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>11.1f} {:>11.1f} {:>5.0f}% {:>6.0f}% "
                   "{:>11.1f}\n",
                   r.plan, r.total.mean / 1e3, r.total.standard_error / 1e3, r.total.p5 / 1e3, r.total.p50 / 1e3,
                   r.total.p95 / 1e3, r.total.cvar95 / 1e3, r.regret.mean / 1e3, r.regret.p95 / 1e3,
                   100 * r.best_fraction, 100 * r.committed_utilisation,
                   (r.mean_stranded_unused + r.mean_stranded_above_market) / 1e3);
    }
    const Distribution h = distribution_of(hindsight);
    fmt::print(out, "{:<31} {:>9.1f} ± {:>5.2f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f}   (best 3-year level per future, known in "
               "advance)\n",
               "hindsight: 3y level, renewed", h.mean / 1e3, h.standard_error / 1e3, h.p5 / 1e3, h.p50 / 1e3, h.p95 / 1e3,
               h.cvar95 / 1e3);
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t futures_count = 10'000;
    std::uint64_t seed = 42;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = true;
        else if (i + 1 < argc && std::strcmp(argv[i], "--futures") == 0) futures_count = std::stoul(argv[++i]);
        else if (i + 1 < argc && std::strcmp(argv[i], "--seed") == 0) seed = std::stoull(argv[++i]);
    }
    out = example::text_sink(json);
    try {
        // The plan starts in 2025-01, before AWS's June 2025 cut: the list prices in force then.
        const Offering p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1").price_at(Date{2025, 1, 1});
        const Horizon horizon = Horizon::years(3);

        // 8 GPUs today; with probability 0.6 a project adds 8 more in a month of the first year;
        // month-to-month use wanders a little (lognormal, 3% a month).
        DemandModel demand;
        demand.base_gpus = 8;
        demand.monthly_log_volatility = 0.03;
        demand.events.push_back({.gpus = 8, .probability = 0.6, .first_month = 0, .last_month = 11});
        const DemandFutures futures = DemandFutures::generate(demand, horizon, futures_count, seed);

        PriceModel with_cut;
        with_cut.start = "2025-01";
        with_cut.changes.push_back(aws_june_2025_price_cut(p4d));
        const PricePaths cut_prices = price_paths(with_cut, horizon, futures.count(), seed);

        const std::vector<Plan> plans = candidate_plans();
        fmt::print(out, "8 A100 (one {}) from 2025-01 for 36 months; +8 GPUs within a year with probability 0.6;\n"
                   "{} futures, seed {}. Totals undiscounted, in thousands of USD; regret = total − the cheapest\n"
                   "of the four plans in the same future; best = share of futures where the plan was cheapest;\n"
                   "util. = committed GPU-hours used; stranded = mean idle committed hours and used ones above\n"
                   "the month's on-demand rate, at the commitment's rate.\n",
                   p4d.key(), futures.count(), seed);
        for (const Plan& p : plans) fmt::print(out, "  {}: {}\n", p.name, describe(Plan{.name = "", .commitments = p.commitments,
                                                                                   .owned = p.owned, .spot = p.spot}));

        const std::vector<PlanDistribution> before = compare_plans(plans, futures, p4d);
        const auto hindsight_before = hindsight_reservation_totals(futures, p4d, 3, Payment::all_upfront);
        print_table("List prices before the June 2025 cut (p4d.24xlarge $32.77/h on demand):", before, hindsight_before);
        const auto& cut = with_cut.changes.front();
        const std::vector<PlanDistribution> after = compare_plans(plans, futures, p4d, cut_prices);
        const auto hindsight_after = hindsight_reservation_totals(futures, p4d, 3, Payment::all_upfront, cut_prices);
        print_table(fmt::format("With the cut from 2025-06 (month 5): on-demand × {:.4f}; {}:", cut.on_demand_factor, cut.source),
                    after, hindsight_after);
        if (json) {
            const auto hindsight = [](const auto& totals) {
                const Distribution h = distribution_of(totals);
                return nlohmann::ordered_json{{"plan", "hindsight: 3y level, renewed"}, {"total_mean", example::number(h.mean)},
                                              {"total_standard_error", example::number(h.standard_error)},
                                              {"total_p5", example::number(h.p5)}, {"total_p50", example::number(h.p50)},
                                              {"total_p95", example::number(h.p95)}, {"total_cvar95", example::number(h.cvar95)}};
            };
            nlohmann::ordered_json doc;
            doc["offering"] = p4d.key();
            doc["futures"] = futures.count();
            doc["seed"] = seed;
            doc["before_cut"] = {{"plans", example::rows_json(plan_columns(), before)}, {"hindsight", hindsight(hindsight_before)}};
            doc["with_cut"] = {{"plans", example::rows_json(plan_columns(), after)}, {"hindsight", hindsight(hindsight_after)}};
            fmt::print("{}\n", doc.dump(1));
        }
    } catch (const InvalidInput& e) {
        std::fprintf(stderr, "invalid input: %s\n", e.what());
        return 2;
    }
    return 0;
}
