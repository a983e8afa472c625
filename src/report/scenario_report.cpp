// The scenario report page: summary cards, each result's table and chart, prices and assumptions with
// their sources, and the inputs that reproduce it.
#include "gputco/report/scenario_report.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "gputco/app/columns.hpp"
#include "gputco/app/recommend_study.hpp"
#include "gputco/report/html.hpp"
#include "gputco/report/svg.hpp"

namespace gputco {
namespace {

using html::escape;

/// Deadline and workload rows as their tables list them: every job's (workload's) rows in turn. The
/// summary's row indices count in these lists.
struct FlatRows {
    std::vector<DeadlineRow> deadline;
    std::vector<WorkloadRow> workloads;
    std::vector<ServiceRow> services;
    std::vector<LlmJobRow<LlmTrainingRow>> llm_training;
    std::vector<LlmJobRow<LlmServingRow>> llm_serving;
};
FlatRows flat_rows(const ScenarioResult& r) {
    FlatRows out;
    out.llm_training = llm_job_rows(r.llm_training);
    out.llm_serving = llm_job_rows(r.llm_serving);
    for (const auto& j : r.deadline_jobs)
        for (auto& row : deadline_rows(j)) out.deadline.push_back(std::move(row));
    for (const auto& w : r.workloads)
        for (const auto& row : workload_rows(w)) out.workloads.push_back(row);
    for (const auto& sv : r.services)
        for (auto& row : service_rows(sv)) out.services.push_back(std::move(row));
    return out;
}

std::string ref(std::string_view result, std::size_t row, std::string_view column) {
    return fmt::format("{}/{}/{}", result, row, column);
}

/// Expected cost, P95, and where a baseline is known: the baseline, savings and savings fraction.
void add_costs(Headline& h, std::string_view result, std::size_t row, std::string_view mean_column, double mean,
               std::string_view p95_column, double p95, std::optional<std::size_t> base_row, double base) {
    h.figures.push_back({"expected cost", mean, "currency", ref(result, row, mean_column)});
    h.figures.push_back({"P95", p95, "currency", ref(result, row, p95_column)});
    if (!base_row) return;
    const std::string a = ref(result, *base_row, mean_column), b = ref(result, row, mean_column);
    h.figures.push_back({"all on-demand", base, "currency", a});
    h.figures.push_back({"savings", base - mean, "currency", fmt::format("{} - {}", a, b)});
    if (base != 0)
        h.figures.push_back({"savings fraction", (base - mean) / base, "fraction", fmt::format("({} - {}) / {}", a, b, a)});
}

bool all_on_demand(const Plan& p) { return p.commitments.empty() && p.owned.empty() && !p.spot; }

/// Of the flat rows one workload or job owns (`owns`), the cheapest by cost per run and the cheapest
/// bought on demand: a headline's pick and its baseline.
struct Cheapest {
    std::optional<std::size_t> best, on_demand;
};
template <class FlatRow, class Owns>
Cheapest cheapest_per_run(const std::vector<FlatRow>& rows, Owns owns) {
    Cheapest c;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (!owns(rows[k])) continue;
        const double cost = rows[k].row->cost_per_run;
        if (!c.best || cost < rows[*c.best].row->cost_per_run) c.best = k;
        if (rows[k].row->buying == BuyingWay::on_demand && (!c.on_demand || cost < rows[*c.on_demand].row->cost_per_run))
            c.on_demand = k;
    }
    return c;
}

/// A chart point's name: the offering and the way of buying, with its terms.
template <class Row>
std::string offering_label(const Row& x) {
    return fmt::format("{} {} {} {}{}", x.provider, x.region, x.instance_type, to_text(x.buying),
                       x.terms.empty() ? "" : " (" + x.terms + ")");
}

}  // namespace

std::vector<Headline> headlines(const Scenario& s, const ScenarioResult& r) {
    std::vector<Headline> out;
    if (!r.strategies.empty()) {
        const auto it = std::min_element(r.strategies.begin(), r.strategies.end(),
                                         [](const auto& a, const auto& b) { return a.report.total < b.report.total; });
        const std::size_t i = it - r.strategies.begin();
        const CostReport& c = it->report;
        Headline h{"strategies", "Cheapest strategy", it->name, c.currency, {}, "least total of the strategies; "
                   "savings against the same demand bought all on-demand"};
        h.figures.push_back({"expected cost", c.total, "currency", ref("strategies", i, "total")});
        h.figures.push_back({"P95", c.spread ? c.spread->p95 : c.total, "currency", ref("strategies", i, "p95")});
        h.figures.push_back({"all on-demand", c.baseline_total, "currency", ref("strategies", i, "baseline_total")});
        h.figures.push_back({"savings", c.savings, "currency", ref("strategies", i, "savings")});
        h.figures.push_back({"savings fraction", c.savings_fraction, "fraction", ref("strategies", i, "savings_fraction")});
        out.push_back(std::move(h));
    }
    if (!r.plans.empty()) {
        const auto it = std::min_element(r.plans.begin(), r.plans.end(),
                                         [](const auto& a, const auto& b) { return a.total.mean < b.total.mean; });
        const std::size_t i = it - r.plans.begin();
        std::optional<std::size_t> base;
        for (std::size_t k = 0; k < r.plans.size() && k < s.plans.size(); ++k)
            if (all_on_demand(s.plans[k])) base = base.value_or(k);
        Headline h{"plans", "Cheapest plan", it->plan, it->currency, {},
                   fmt::format("least mean total over {} demand futures{}", it->futures.size(),
                               base ? fmt::format("; savings against the plan \"{}\"", r.plans[*base].plan) : "")};
        add_costs(h, "plans", i, "total_mean", it->total.mean, "total_p95", it->total.p95, base,
                  base ? r.plans[*base].total.mean : 0);
        h.figures.push_back({"mean regret", it->regret.mean, "currency", ref("plans", i, "regret_mean")});
        out.push_back(std::move(h));
    }
    if (r.recommend && r.recommend->baselines.size() >= 2) {
        // The study's rows (study_baseline_columns): the recommended plan first, all on demand second.
        const RecommendStudy& st = *r.recommend;
        Plan bought = st.recommendation.plan;  // what it buys, as the summary's `buys` column
        bought.name.clear();
        Headline h{"recommend", "Recommended plan", describe(bought), st.judged.currency, {},
                   fmt::format("the recommender's plan on {} {} futures; savings against all on demand",
                               st.judged.futures.size(), st.held_out ? "held-out" : "fitted")};
        const double mean = st.baselines[0].total.mean, base = st.baselines[1].total.mean;
        h.figures.push_back({"mean cost", mean, "currency", ref("recommend", 0, "mean")});
        h.figures.push_back({"P95", st.baselines[0].total.p95, "currency", ref("recommend", 0, "p95")});
        h.figures.push_back({"CVaR95", st.baselines[0].total.cvar95, "currency", ref("recommend", 0, "cvar95")});
        h.figures.push_back({"all on-demand", base, "currency", ref("recommend", 1, "mean")});
        h.figures.push_back({"savings", base - mean, "currency", "recommend/1/mean - recommend/0/mean"});
        if (base != 0)
            h.figures.push_back({"savings fraction", (base - mean) / base, "fraction",
                                 "(recommend/1/mean - recommend/0/mean) / recommend/1/mean"});
        out.push_back(std::move(h));
    }
    for (std::size_t i = 0; i < r.spot_jobs.size(); ++i) {
        const SpotJobResult& j = r.spot_jobs[i];
        Headline h{"spot_jobs", "Spot job", j.name, "", {},
                   fmt::format("{} Monte Carlo paths, seed {}", j.result.paths, j.result.seed)};
        h.figures.push_back({"expected cost", j.result.cost.mean, "currency", ref("spot_jobs", i, "cost_mean")});
        h.figures.push_back({"P95", j.result.cost.p95, "currency", ref("spot_jobs", i, "cost_p95")});
        h.figures.push_back({"wall-clock hours", j.result.wall_hours.mean, "hours", ref("spot_jobs", i, "wall_hours_mean")});
        out.push_back(std::move(h));
    }
    const FlatRows flat = flat_rows(r);
    for (const DeadlineJobResult& job : r.deadline_jobs) {
        std::optional<std::size_t> best, base;
        for (std::size_t k = 0; k < flat.deadline.size(); ++k) {
            const DeadlineRow& row = flat.deadline[k];
            if (row.job != &job) continue;
            if (row.policy == "on_demand_only") base = k;
            if (row.policy != "omniscient" && (!best || row.cost->mean < flat.deadline[*best].cost->mean)) best = k;
        }
        if (!best) continue;
        const DeadlineRow& row = flat.deadline[*best];
        Headline h{"deadline_jobs", "Deadline job " + job.name, "policy " + row.policy, "", {},
                   "least mean cost of the policies (the omniscient bound aside)" +
                       std::string(base ? "; savings against on_demand_only" : "")};
        add_costs(h, "deadline_jobs", *best, "cost_mean", row.cost->mean, "cost_p95", row.cost->p95, base,
                  base ? flat.deadline[*base].cost->mean : 0);
        h.figures.push_back({"deadline missed", row.deadline_miss_probability, "fraction",
                             ref("deadline_jobs", *best, "deadline_miss_probability")});
        out.push_back(std::move(h));
    }
    for (const WorkloadResult& w : r.workloads) {
        const auto [best, base] = cheapest_per_run(flat.workloads, [&](const WorkloadRow& x) {
            return x.workload == &w.name && std::isfinite(x.row->cost_per_run);
        });
        if (!best) continue;
        const WorkCostRow& row = *flat.workloads[*best].row;
        Headline h{"workloads", "Workload " + w.name,
                   fmt::format("{} {} {} ({}{})", row.provider, row.region, row.instance_type, to_text(row.buying),
                               row.terms.empty() ? "" : ", " + row.terms),
                   row.currency, {},
                   "least cost per run" + std::string(base ? "; savings against the cheapest on-demand offering" : "")};
        add_costs(h, "workloads", *best, "cost_per_run", row.cost_per_run, "cost_per_run_p95", row.cost_per_run_p95, base,
                  base ? flat.workloads[*base].row->cost_per_run : 0);
        h.figures.push_back({"run hours", row.run_hours, "hours", ref("workloads", *best, "run_hours")});
        out.push_back(std::move(h));
    }
    for (const ServiceResult& sv : r.services) {
        std::optional<std::size_t> chosen;
        for (std::size_t k = 0; k < flat.services.size(); ++k)
            if (flat.services[k].service == &sv && flat.services[k].chosen) chosen = k;
        if (!chosen) continue;  // no configuration met the target: the table says so
        const ServiceRow& row = flat.services[*chosen];
        Headline h{"services", "Service " + sv.name,
                   fmt::format("{}, {} extra spot, {} on demand", row.policy, row.candidate->extra_spot,
                               row.candidate->on_demand_base),
                   "", {}, "the cheapest configuration that meets the availability target; savings against all on-demand"};
        const std::string cost = ref("services", *chosen, "cost"), base = ref("services", *chosen, "on_demand_only_cost");
        h.figures.push_back({"expected cost", row.result->cost, "currency", cost});
        h.figures.push_back({"all on-demand", row.result->on_demand_only_cost, "currency", base});
        h.figures.push_back({"savings", row.result->on_demand_only_cost - row.result->cost, "currency",
                             fmt::format("{} - {}", base, cost)});
        h.figures.push_back({"savings fraction", row.result->saving, "fraction", ref("services", *chosen, "saving")});
        h.figures.push_back({"availability", row.result->availability, "fraction", ref("services", *chosen, "availability")});
        out.push_back(std::move(h));
    }
    // LLM jobs: the cheapest row of each, against the cheapest on-demand one.
    for (const LlmTrainingResult& job : r.llm_training) {
        const auto [best, base] =
            cheapest_per_run(flat.llm_training, [&](const LlmJobRow<LlmTrainingRow>& x) { return x.job == &job.name; });
        if (!best) continue;
        const LlmTrainingRow& row = *flat.llm_training[*best].row;
        Headline h{"llm_training", "LLM training " + job.name,
                   fmt::format("{} {} {} x{} ({}{})", row.provider, row.region, row.instance_type, row.instances,
                               to_text(row.buying), row.terms.empty() ? "" : ", " + row.terms),
                   row.currency, {},
                   "least cost per run" + std::string(base ? "; savings against the cheapest on-demand offering" : "")};
        add_costs(h, "llm_training", *best, "cost_per_run", row.cost_per_run, "cost_per_run_p95", row.cost_per_run_p95,
                  base, base ? flat.llm_training[*base].row->cost_per_run : 0);
        h.figures.push_back({"run hours", row.run_hours, "hours", ref("llm_training", *best, "run_hours")});
        out.push_back(std::move(h));
    }
    for (const LlmServingResult& job : r.llm_serving) {
        std::optional<std::size_t> best;
        for (std::size_t k = 0; k < flat.llm_serving.size(); ++k)
            if (flat.llm_serving[k].job == &job.name &&
                (!best || flat.llm_serving[k].row->cost_per_hour < flat.llm_serving[*best].row->cost_per_hour))
                best = k;
        if (!best) continue;
        const LlmServingRow& row = *flat.llm_serving[*best].row;
        Headline h{"llm_serving", "LLM serving " + job.name,
                   fmt::format("{} {} {} x{} ({}{})", row.provider, row.region, row.instance_type, row.instances,
                               to_text(row.buying), row.terms.empty() ? "" : ", " + row.terms),
                   row.currency, {}, "least cost per hour of the fleet that serves the rate"};
        h.figures.push_back({"cost per hour", row.cost_per_hour, "currency", ref("llm_serving", *best, "cost_per_hour")});
        h.figures.push_back({"per million output tokens", row.cost_per_million_output_tokens, "currency",
                             ref("llm_serving", *best, "cost_per_million_output_tokens")});
        h.figures.push_back({"per million input tokens", row.cost_per_million_input_tokens, "currency",
                             ref("llm_serving", *best, "cost_per_million_input_tokens")});
        out.push_back(std::move(h));
    }
    return out;
}

namespace {

std::string shown(const SummaryFigure& f, const std::string& currency) {
    if (f.unit == "fraction") return fmt::format("{:.1f}%", 100 * f.value);
    if (f.unit == "hours") return html::number(f.value, "hours") + " h";
    return html::number(f.value, "currency") + (currency.empty() ? "" : " " + currency);
}

std::string card(const Headline& h) {
    std::string out = fmt::format("<li class=\"card\">\n<h3>{}</h3>\n<p><strong>{}</strong></p>\n<dl>\n", escape(h.heading),
                                  escape(h.choice));
    for (const SummaryFigure& f : h.figures)
        out += fmt::format("<dt>{}</dt><dd><data value=\"{}\" data-source=\"{}\">{}</data></dd>\n", escape(f.label),
                           html::exact(f.value), escape(f.source), escape(shown(f, h.currency)));
    return out + fmt::format("</dl>\n<p class=\"meta\">{}</p>\n</li>\n", escape(h.note));
}

/// The page's charts get ids c1, c2, ... in order.
struct Ids {
    int next = 0;
    std::string operator()() { return fmt::format("c{}", ++next); }
};

std::string strategies_section(const Scenario& s, const ScenarioResult& r, Ids& id) {
    static const std::vector<std::string> default_outputs{"total", "npv", "savings", "savings_fraction", "p95"};
    std::vector<std::string> outputs{"strategy", "currency"};
    for (const auto& o : s.outputs.empty() ? default_outputs : s.outputs) outputs.push_back(o);
    std::string out = "<h3>Strategies</h3>\n" + html::render(html::table_of("Strategies", strategy_columns(), r.strategies, outputs));
    const std::string currency = r.strategies.front().report.currency;
    std::vector<svg::Bar> bars;
    for (const StrategyResult& x : r.strategies)
        bars.push_back({x.name, x.report.total, x.report.spread ? std::optional(x.report.spread->p95) : std::nullopt});
    out += svg::render(svg::bar_chart({id(), "Total cost of each strategy",
                                       fmt::format("Total cost over {} months of each strategy, in {}, with its P95 where spot makes it uncertain.",
                                                   s.horizon_months, currency),
                                       "total (" + currency + ")", "total", "currency", "currency"},
                                      bars, "p95"));
    std::vector<svg::Series> series;
    for (const StrategyResult& x : r.strategies) {
        svg::Series line{x.name, {}, {}, {}, {}};
        double sum = 0;
        for (const MonthlyCashFlow& m : x.report.months) {
            sum += m.total;
            line.x.push_back(m.month + 1);
            line.y.push_back(sum);
        }
        series.push_back(std::move(line));
    }
    out += svg::render(svg::line_chart({id(), "Cumulative cost by month",
                                        fmt::format("Cumulative cost of each strategy at the end of each month, in {}.", currency),
                                        "month", "cumulative cost (" + currency + ")", "", "currency"},
                                       series));
    return out;
}

std::string spot_section(const ScenarioResult& r, Ids& id) {
    std::string out = "<h3>Spot jobs</h3>\n" + html::render(html::table_of("Spot jobs", spot_job_columns(), r.spot_jobs));
    for (const SpotJobResult& j : r.spot_jobs) {
        if (j.result.samples.cost.empty()) continue;
        out += svg::render(svg::histogram(
            {id(), "Cost distribution of spot job " + j.name,
             fmt::format("Histogram of the cost of {} simulated runs of spot job {}: mean {}, P95 {}.", j.result.samples.cost.size(),
                         j.name, html::number(j.result.cost.mean), html::number(j.result.cost.p95)),
             "cost of a run", "runs", "currency", "count"},
            j.result.samples.cost));
    }
    return out;
}

std::string services_section(const ScenarioResult& r, const FlatRows& flat, Ids& id) {
    std::string out = "<h3>Services</h3>\n" +
                      html::render(html::table_of("Services: each policy's cheapest configuration and the omniscient bound",
                                                  service_columns(), flat.services));
    for (const ServiceResult& sv : r.services) {
        std::vector<svg::Bar> bars;
        for (const ServiceRow& row : flat.services)
            if (row.service == &sv) bars.push_back({row.policy, row.result->cost, row.result->on_demand_only_cost});
        out += svg::render(svg::bar_chart({id(), "Cost of each serving policy, service " + sv.name,
                                           "Cost of each policy's cheapest configuration (bars) against all on-demand "
                                           "(diamonds); the table gives each one's availability.",
                                           "cost", "cost", "currency", "currency"},
                                          bars, "all on-demand"));
    }
    return out;
}

std::string deadline_section(const ScenarioResult& r, const FlatRows& flat, Ids& id) {
    std::string out = "<h3>Deadline jobs</h3>\n" + html::render(html::table_of("Deadline jobs", deadline_columns(), flat.deadline));
    for (const DeadlineJobResult& job : r.deadline_jobs) {
        std::vector<svg::Bar> bars;
        for (const DeadlineRow& row : flat.deadline)
            if (row.job == &job) bars.push_back({row.policy, row.cost->mean, row.cost->p95});
        out += svg::render(svg::bar_chart({id(), "Cost of each policy, deadline job " + job.name,
                                           "Mean cost of each policy (bars) and its P95 (diamonds); omniscient is the "
                                           "hindsight bound no policy can beat.",
                                           "cost", "mean cost", "currency", "currency"},
                                          bars, "p95"));
    }
    return out;
}

std::string plans_section(const ScenarioResult& r, Ids& id) {
    std::string out = "<h3>Plans</h3>\n" + html::render(html::table_of("Plans", plan_columns(), r.plans));
    // Each commitment's hours (held before the horizon and bought), and what changing them cost or brought.
    const std::vector<CommitmentUseRow> uses = commitment_use_rows(r.plans);
    if (!uses.empty())
        out += html::render(html::table_of("Commitments: GPU-hours paid, used (mean over futures) and unused",
                                           commitment_use_columns(), uses));
    for (const PlanDistribution& p : r.plans)
        for (const std::string& change : p.changes) out += fmt::format("<p>{}: {}</p>\n", escape(p.plan), escape(change));
    const std::string currency = r.plans.front().currency;
    std::vector<svg::Series> fan;
    for (const PlanDistribution& p : r.plans) {
        svg::Series band{p.plan, {}, {}, {}, {}};
        for (const MonthlyBand& m : p.cumulative) {
            band.x.push_back(m.month + 1);
            band.y.push_back(m.mean);
            band.low.push_back(m.p5);
            band.high.push_back(m.p95);
        }
        fan.push_back(std::move(band));
    }
    out += svg::render(svg::line_chart(
        {id(), "Cost fan: cumulative cost by month",
         fmt::format("Cumulative cost of each plan over the demand futures: mean (line) and P5 to P95 (band), in {}.", currency),
         "month", "cumulative cost (" + currency + ")", "", "currency"},
        fan));
    std::vector<svg::Point> points;
    for (const PlanDistribution& p : r.plans) points.push_back({p.plan, p.total.mean, p.total.p95});
    out += svg::render(svg::scatter_chart({id(), "Cost-risk frontier of the plans",
                                           fmt::format("Each plan's mean total against its P95 total, in {}; lower on both is better.", currency),
                                           "mean total", "P95 total", "currency", "currency"},
                                          points, true));
    std::vector<svg::Bar> regret;
    for (const PlanDistribution& p : r.plans) regret.push_back({p.plan, p.regret.mean, std::nullopt});
    out += svg::render(svg::bar_chart({id(), "Mean regret of each plan",
                                       fmt::format("Mean over the futures of how much more each plan cost than the cheapest "
                                                   "plan in that future, in {}.", currency),
                                       "mean regret (" + currency + ")", "mean regret", "currency", "currency"},
                                      regret));
    return out;
}

/// The `recommend` section's study in the columns `gputco recommend` prints (app/recommend_study.hpp).
std::string recommend_section(const RecommendStudy& study) {
    std::string out = "<h3>Recommended plan</h3>\n";
    out += fmt::format("<p>{}</p>\n", escape(describe(study.recommendation.plan)));
    out += html::render(html::table_of("Recommendation: the plan and its cost distribution", study_summary_columns(),
                                       std::vector<RecommendStudy>{study}));
    out += html::render(html::table_of(study.held_out ? "The plans compared on held-out futures"
                                                      : "The plans compared on the futures the plan was fitted to",
                                       study_baseline_columns(), study.baselines));
    if (!study.frontier.empty())
        out += html::render(html::table_of("Cost-risk frontier of the recommender", study_frontier_columns(), study.frontier));
    return out;
}

std::string workloads_section(const ScenarioResult& r, const FlatRows& flat, Ids& id) {
    std::string out = "<h3>Workloads</h3>\n" + html::render(html::table_of("Workloads", workload_columns(), flat.workloads));
    for (const WorkloadResult& w : r.workloads) {
        std::vector<svg::Point> points;
        std::string currency;
        for (const WorkloadRow& row : flat.workloads) {
            if (row.workload != &w.name || !std::isfinite(row.row->cost_per_run)) continue;
            const WorkCostRow& x = *row.row;
            currency = x.currency;
            points.push_back({offering_label(x), x.run_hours, x.cost_per_run});
        }
        out += svg::render(svg::scatter_chart({id(), "Cost against time, workload " + w.name,
                                               fmt::format("Hours and cost ({}) of one run of {} on each offering and way of buying.",
                                                           currency, w.name),
                                               "hours per run", "cost per run", "hours", "currency"},
                                              points, true));
    }
    return out;
}

/// LLM jobs: each ranking's table; training with its cost against time, serving with its hourly cost
/// against the GPUs it needs.
std::string llm_section(const ScenarioResult& r, const FlatRows& flat, Ids& id) {
    std::string out;
    if (!r.llm_training.empty()) {
        out += "<h3>LLM training</h3>\n" +
               html::render(html::table_of("LLM training", llm_training_job_columns(), flat.llm_training));
        for (const LlmTrainingResult& job : r.llm_training) {
            std::vector<svg::Point> points;
            for (const LlmTrainingRow& x : job.ranking.rows)
                points.push_back({offering_label(x), x.run_hours, x.cost_per_run});
            out += svg::render(svg::scatter_chart(
                {id(), "Cost against time, LLM training " + job.name,
                 fmt::format("Wall hours and cost ({}) of the run on each offering and way of buying.", job.ranking.currency),
                 "hours per run", "cost per run", "hours", "currency"},
                points, true));
        }
    }
    if (!r.llm_serving.empty()) {
        out += "<h3>LLM serving</h3>\n" +
               html::render(html::table_of("LLM serving", llm_serving_job_columns(), flat.llm_serving));
        for (const LlmServingResult& job : r.llm_serving) {
            std::vector<svg::Point> points;
            for (const LlmServingRow& x : job.ranking.rows)
                points.push_back({offering_label(x), double(x.estimate.gpus), x.cost_per_hour});
            out += svg::render(svg::scatter_chart(
                {id(), "Cost against GPUs, LLM serving " + job.name,
                 fmt::format("GPUs needed for the rate and the fleet's cost per hour ({}) on each offering and way of buying.",
                             job.ranking.currency),
                 "GPUs", "cost per hour", "count", "currency"},
                points, true));
        }
    }
    return out;
}

/// The offering's prices and every other price the results used, each with its source and date.
std::string prices_section(const Scenario& s, const ScenarioResult& r) {
    const Catalog catalog = scenario_catalog(s);
    std::vector<Offering> offerings;
    const auto add = [&](const Offering& o) {
        if (std::none_of(offerings.begin(), offerings.end(), [&](const Offering& x) { return x.key() == o.key(); }))
            offerings.push_back(o);
    };
    if (const Offering* main = s.offering.in(catalog)) {
        add(*main);
        for (const WorkloadSpec& w : s.workloads) {
            const Catalog priced = w.offerings_in(catalog, *main);
            for (const Offering& o : priced.offerings()) add(o);
        }
    }
    html::Table t{"Prices (per instance-hour) and their sources",
                  {"offering", "gpu", "gpus", "currency", "on-demand", "spot", "billing increment", "source", "as of", "row"},
                  {"", "", "count", "", "currency", "currency", "seconds", "", "", ""},
                  {}};
    html::Table reserved{"Reservation prices and their sources",
                         {"offering", "term", "payment", "upfront", "hourly", "source", "as of"},
                         {"", "years", "", "currency", "currency", "", ""},
                         {}};
    for (const Offering& o : offerings) {
        t.rows.push_back({o.key(), o.gpu, (long long)o.gpus_per_instance, o.currency, o.on_demand_hourly,
                          o.spot_hourly ? Cell(*o.spot_hourly) : Cell(), o.billing_increment_seconds, o.source.name,
                          o.source.as_of, o.source.row});
        for (const ReservedPrice& p : o.reserved)
            reserved.rows.push_back({o.key(), (long long)p.term_years, std::string(to_text(p.payment)), p.upfront, p.hourly,
                                     p.source.name, p.source.as_of});
    }
    std::string out = "<h3>Prices and assumptions</h3>\n" + html::render(t);
    if (!reserved.rows.empty()) out += html::render(reserved);
    if (!s.imports.empty()) {
        out += "<p>Price files imported (over the built-in catalog):</p>\n<ul>\n";
        for (const PriceFileImport& p : s.imports)
            out += fmt::format("<li><code>{}</code> ({}{})</li>\n", escape(p.file), escape(p.format),
                               p.published.empty() ? "" : ", published " + escape(p.published));
        out += "</ul>\n";
    }
    std::vector<std::string> notes{fmt::format("Bought in {}.", to_text(s.units))};
    if (s.annual_discount_rate != 0) notes.push_back(fmt::format("NPV at an annual discount rate of {:.4g}.", s.annual_discount_rate));
    std::set<std::string> seen;
    for (const StrategyResult& x : r.strategies)
        for (const std::string& a : x.report.assumptions)
            if (seen.insert(a).second) notes.push_back(a);
    for (const PlanDistribution& p : r.plans) {
        for (const std::string& c : p.conversions)
            if (seen.insert(c).second) notes.push_back(c);
        for (const std::string& c : p.catalog_rates)  // rates the plan took from the catalog, with source and date
            if (seen.insert(c).second) notes.push_back(c);
    }
    out += "<ul>\n";
    for (const std::string& n : notes) out += fmt::format("<li>{}</li>\n", escape(n));
    return out + "</ul>\n";
}

}  // namespace

std::string summary_cards(const Scenario& s, const ScenarioResult& r) {
    std::string out = "<ul class=\"cards\">\n";
    for (const Headline& h : headlines(s, r)) out += card(h);
    return out + "</ul>\n";
}

std::string scenario_report(const std::vector<ReportInput>& inputs, const std::string& version, const std::string& command) {
    std::string body = fmt::format("<header>\n<h1>{}</h1>\n<p class=\"meta\">gputco {} &middot; made by <code>{}</code></p>\n</header>\n",
                                   inputs.size() == 1 ? escape(inputs[0].scenario.name) : "gputco report", escape(version),
                                   escape(command));
    body += "<section aria-labelledby=\"summary\">\n<h2 id=\"summary\">Summary</h2>\n";
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (inputs.size() > 1)
            body += fmt::format("<h3><a href=\"#s{}\">{}</a></h3>\n", i + 1, escape(inputs[i].scenario.name));
        body += summary_cards(inputs[i].scenario, inputs[i].result);
    }
    body += "</section>\n";
    Ids id;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Scenario& s = inputs[i].scenario;
        const ScenarioResult& r = inputs[i].result;
        const FlatRows flat = flat_rows(r);
        body += fmt::format("<section id=\"s{}\" aria-labelledby=\"s{}-h\">\n<h2 id=\"s{}-h\">{}</h2>\n"
                            "<p class=\"meta\">{} &middot; {} months &middot; offering {}</p>\n",
                            i + 1, i + 1, i + 1, escape(s.name), escape(inputs[i].file), s.horizon_months,
                            escape(s.offering.key()));
        if (!r.spot_jobs.empty()) body += spot_section(r, id);
        if (!r.deadline_jobs.empty()) body += deadline_section(r, flat, id);
        if (!r.strategies.empty()) body += strategies_section(s, r, id);
        if (!r.plans.empty()) body += plans_section(r, id);
        if (r.recommend) body += recommend_section(*r.recommend);
        if (!r.workloads.empty()) body += workloads_section(r, flat, id);
        if (!r.services.empty()) body += services_section(r, flat, id);
        if (!r.llm_training.empty() || !r.llm_serving.empty()) body += llm_section(r, flat, id);
        body += prices_section(s, r);
        body += fmt::format("<details>\n<summary>The scenario as loaded (canonical YAML): run it with <code>gputco run</code></summary>\n"
                            "<pre>{}</pre>\n</details>\n</section>\n",
                            escape(to_yaml(s)));
    }
    const std::string title = inputs.size() == 1 ? inputs[0].scenario.name : fmt::format("gputco report: {} scenarios", inputs.size());
    return html::page(title, body);
}

}  // namespace gputco
