// How the recommender's advice changes with the price outlook, on the same demand: p4d.24xlarge (A100,
// us-east-1, at its price after AWS's June 2025 cut) with 1-year commitments at 38.4% off (docs/models.md
// section 2.5), demand of 64 GPUs growing 1% a month with 5% monthly volatility, 3 years, commitments
// bought every 6 months. Four outlooks:
//   prices stay        no price paths (today's list prices throughout);
//   prices only fall   today's downward-only model: a new generation with probability 0.5 in months
//                      12-24 cutting on-demand and reservations by 20% (price_schedule.hpp's example);
//   fitted             the A100 PriceDynamics fitted to data/price_history/ (docs/models.md section 12):
//                      list prices that jump both ways;
//   fitted, uncertain  the same with each future's parameters drawn from the fit's uncertainty
//                      (draw_dynamics: simulate_price_paths' per-future overload).
// Each recommendation is then priced on held-out demand futures under the fitted paths, so the cost of
// planning with the wrong outlook shows.
//
//   build/examples/price_paths_fitted [--data data/price_history] [--futures N] [--json]
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gputco/gputco.hpp>

using namespace gputco;

namespace {

/// A plan's parts ("1y no_upfront × 6 instances @0 + on-demand"), whatever its name.
std::string parts(const Plan& plan) {
    Plan unnamed = plan;
    unnamed.name.clear();
    return describe(unnamed);
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir = "data/price_history";
    std::size_t futures_count = 60;
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = true;
        else if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc) dir = argv[++i];
        else if (std::strcmp(argv[i], "--futures") == 0 && i + 1 < argc) futures_count = std::stoul(argv[++i]);
    }
    try {
        std::vector<PriceRecord> records;
        std::vector<std::string> files;
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {
            if (entry.path().extension() == ".csv") files.push_back(entry.path().string());
        }
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            const auto rows = read_price_history_csv(f);
            records.insert(records.end(), rows.begin(), rows.end());
        }
        const DynamicsFit fit = fit_price_dynamics(records, "A100");

        const Horizon horizon = Horizon::years(3);
        const Offering p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1").price_at(Date::parse("2026-12-01"));
        DemandModel demand;
        demand.base_gpus = 64;
        demand.monthly_log_growth = 0.01;
        demand.monthly_log_volatility = 0.05;
        const std::uint64_t seed = 11;
        const DemandFutures futures = DemandFutures::generate(demand, horizon, futures_count, seed);
        const DemandFutures held_out = DemandFutures::generate(demand, horizon, 4 * futures_count, seed + 1000);

        PriceModel falling;
        falling.launches.push_back({.probability = 0.5, .first_month = 12, .last_month = 24, .on_demand_factor = 0.8,
                                    .spot_factor = 0.8, .reserved_factor = 0.8});
        struct Outlook {
            std::string name;
            PricePaths fitting;
        };
        const std::vector<Outlook> outlooks = {
            {"prices stay", PricePaths{}},
            {"prices only fall", price_paths(falling, horizon, futures.count(), seed)},
            // Term 0: both terms' factors, each commitment priced at its own (AWS moved them apart in 2025).
            {"fitted", simulate_price_paths(fit.dynamics, horizon, futures.count(), seed, 0)},
            // The fit's parameter uncertainty too: each future's own parameters, drawn from the fit's
            // covariance (draw_dynamics), the same streams otherwise.
            {"fitted, uncertain", [&] {
                 std::vector<PriceDynamics> sets = draw_dynamics(fit, futures.count(), seed + 3000);
                 for (std::size_t j = 1; j < sets.size(); ++j) sets[j].launches.clear();  // every future's are the first's
                 PricePaths p;
                 simulate_price_paths(sets, horizon, futures.count(), seed, 0, p);
                 return p;
             }()},
        };
        const PricePaths judged = simulate_price_paths(fit.dynamics, horizon, held_out.count(), seed + 2000, 0);

        RecommendOptions options;
        options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.384},
                               {.term_years = 3, .payment = Payment::all_upfront, .reservation_discount = 0.619}};
        options.review_months = 6;
        // Spot at the built-in catalog's 2025-H1 p4d quote ($6.79/h a machine, $0.85 a GPU-hour), 15%
        // billed overhead for checkpoints and restarts, 90% of the hours available.
        options.spot = {{.name = "spot", .overhead = 1.15, .availability = 0.9, .price_per_gpu_hour = 6.7915 / 8}};
        options.unit = CountUnit::instances;

        std::vector<Plan> plans;
        nlohmann::json out = {{"offering", p4d.key()}, {"futures", futures.count()}, {"outlooks", nlohmann::json::array()}};
        std::string text = fmt::format(
            "{} at ${:.2f}/h on demand; 1-year commitments at 38.4% off, bought every 6 months; demand 64 GPUs "
            "growing 1%/month (volatility 5%), 3 years, {} futures to fit, {} held out.\n"
            "A100 fitted on-demand: {:.4f} jumps a month, mean log jump {:+.3f} (sd {:.3f}).\n\n",
            p4d.key(), p4d.on_demand_hourly, futures.count(), held_out.count(), fit.dynamics.on_demand.jump_rate,
            fit.dynamics.on_demand.jump_mean, fit.dynamics.on_demand.jump_sd);
        for (const Outlook& o : outlooks) {
            const Recommendation r = recommend_plan(futures, p4d, options, o.fitting);
            plans.push_back(r.plan);
            plans.back().name = o.name;
            text += fmt::format("{:<19} {}\n{:<19} in-sample mean {:.0f} k$\n", o.name + ":", parts(r.plan), "",
                                r.in_sample.total.mean / 1e3);
            out["outlooks"].push_back({{"outlook", o.name}, {"plan", parts(r.plan)},
                                       {"in_sample_mean", r.in_sample.total.mean}});
        }
        const std::vector<PlanDistribution> priced = compare_plans(plans, held_out, p4d, judged);
        text += "\nEach plan on the held-out futures under the fitted price paths (k$):\n"
                "outlook               mean  ± s.e.     P95   CVaR95\n";
        for (std::size_t i = 0; i < priced.size(); ++i) {
            const Distribution& t = priced[i].total;
            text += fmt::format("{:<19} {:6.0f} {:6.1f} {:7.0f} {:8.0f}\n", outlooks[i].name, t.mean / 1e3,
                                t.standard_error / 1e3, t.p95 / 1e3, t.cvar95 / 1e3);
            out["outlooks"][i]["held_out_fitted_mean"] = t.mean;
            out["outlooks"][i]["held_out_fitted_standard_error"] = t.standard_error;
            out["outlooks"][i]["held_out_fitted_p95"] = t.p95;
        }
        if (json) fmt::print("{}\n", out.dump(2));
        else fmt::print("{}", text);
        return 0;
    } catch (const std::exception& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 1;
    }
}
