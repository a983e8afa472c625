// The plan engine (see plan_engine.hpp; conventions in docs/design.md, "Plans over time").
// Everything that does not depend on the future is priced once (PricedPlan); a future then costs a
// few binary searches per month and tier (DemandFutures::served_up_to).
#include "gputco/engines/plan_engine.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "plan_core.hpp"

namespace gputco {
namespace {

constexpr std::size_t futures_per_chunk = 256;  // fixed, so sums do not depend on the thread count

using plan_core::PricedCommitment;
using plan_core::PricedPlan;
using plan_core::PricedSavingsPlan;

/// The plan priced for `horizon` months, the options checked first.
PricedPlan price_plan(const Plan& plan, const Offering& offering, const PlanOptions& options, int horizon,
                      std::vector<std::string>* conversions = nullptr) {
    plan_core::check_options(offering, options.discounts, options.annual_discount_rate);
    return plan_core::price_plan(plan, offering, options, horizon, plan_core::Naming::plan, conversions);
}

void check_prices(const PricePaths& prices, const DemandFutures& futures) {
    if (prices.empty()) return;
    require(prices.on_demand.rows() == futures.month_count(), "prices.months", prices.on_demand.rows(),
            fmt::format("must be {} (the futures' months)", futures.month_count()));
    require(prices.on_demand.cols() == 1 || std::size_t(prices.on_demand.cols()) == futures.count(), "prices.futures",
            prices.on_demand.cols(), fmt::format("must be 1 or {} (the number of futures)", futures.count()));
    check_reserved_3y(prices);
}

/// One future through the plan: its outcome, its monthly totals (report_months of them) and, if
/// given, its flows added to `sums` by category.
FutureOutcome run_future(const PricedPlan& plan, const DemandFutures& futures, const PricePaths& prices,
                         std::size_t f, const PlanOptions& options, double* month_totals,
                         std::vector<MonthlyCashFlow>* sums, plan_core::Scratch& scratch) {
    const int horizon = plan.horizon_months;
    const double monthly_factor = std::pow(1.0 + options.annual_discount_rate, 1.0 / months_per_year);
    const plan_core::Factors factors{prices.empty() ? nullptr : &prices, prices.empty() ? 0 : prices.column(f)};
    FutureOutcome out;
    double free_hours_left = options.discounts.free_gpu_hours;
    double discount = 1;
    scratch.spot_costs.assign(plan.spots.size(), 0.0);
    plan_core::start_future(plan, f, scratch);
    for (int m = 0; m < plan.report_months; ++m) {
        MonthlyCashFlow flow;
        const bool in_horizon = m < horizon;
        const plan_core::FutureMonth month{in_horizon ? &futures.shape(f, m) : nullptr,
                                           in_horizon ? futures.level(f, m) : 0.0};
        plan_core::price_month(plan, m, in_horizon ? &month : nullptr, factors, options.discounts, free_hours_left,
                               flow, scratch, &out);
        out.total += flow.total;
        out.npv += flow.total / discount;
        discount *= monthly_factor;
        out.demand_gpu_hours += flow.used_gpu_hours;
        out.committed_spend += flow.upfront + flow.reserved_recurring;
        out.committed_gpu_hours += flow.reserved_gpu_hours;
        out.committed_used_gpu_hours += flow.reserved_used_gpu_hours;
        if (month_totals) month_totals[m] = flow.total;
        if (sums) add_fields(monthly_cash_flow_fields, (*sums)[std::size_t(m)], flow);
    }
    return out;
}

/// Runs job(chunk) for every chunk of `futures` futures on `threads` workers (0 = all hardware
/// threads). The calling thread polls `should_stop` before each chunk it takes and once more when none
/// is left (a Python check needs that thread), and reports the futures done to `progress` there, at
/// most every 50 ms, and once at the end; when should_stop says stop, no worker starts another chunk,
/// and Cancelled is thrown once all have ended.
template <class Job>
void for_each_chunk(std::size_t futures, unsigned threads, const StopCheck& should_stop, const ProgressReport& progress,
                    Job job) {
    const std::size_t chunks = (futures + futures_per_chunk - 1) / futures_per_chunk;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const auto workers_wanted = unsigned(std::min<std::size_t>(threads, chunks));
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> stop{false};
    auto next_report = std::chrono::steady_clock::now();
    const auto work = [&](bool caller) {
        for (;;) {
            if (caller && should_stop && should_stop()) stop = true;
            if (caller && progress && std::chrono::steady_clock::now() >= next_report) {
                next_report = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
                progress(std::min(futures, done.load() * futures_per_chunk), futures);
            }
            if (stop.load(std::memory_order_relaxed)) return;
            const std::size_t c = next++;
            if (c >= chunks) return;
            job(c);
            ++done;
        }
    };
    {
        std::vector<std::jthread> workers;
        for (unsigned t = 1; t < workers_wanted; ++t) workers.emplace_back(work, false);
        work(true);
    }  // joined
    if (stop) throw Cancelled("plan engine: stopped");
    if (progress) progress(futures, futures);
}

/// The order statistic k of samples[first, last) (which holds it) put in place, and the next one
/// (the least of (k, last)): what a type-7 quantile interpolates between.
std::pair<double, double> select_pair(std::vector<double>& samples, std::size_t first, std::size_t k, std::size_t last) {
    const auto at = [&](std::size_t i) { return samples.begin() + std::ptrdiff_t(i); };
    std::nth_element(at(first), at(k), at(last));
    const double low = samples[k];
    const double high = k + 1 < last ? *std::min_element(at(k + 1), at(last)) : low;
    return {low, high};
}

/// Type-7 quantile from an order statistic and its successor (quantile_sorted()'s arithmetic).
double interpolate(std::size_t n, double q, std::pair<double, double> pair) {
    const double h = double(n - 1) * q;
    const double k = std::floor(h);
    return std::size_t(k) + 1 >= n ? pair.first : pair.first + (h - k) * (pair.second - pair.first);
}

/// P5, P50 and P95 by selection (O(n), reorders `samples`): the median first, then P5 among the
/// samples below it and P95 among those above, so each later selection sees about half of them.
MonthlyBand band_of(int month, std::vector<double>& samples) {
    double sum = 0;
    for (double x : samples) sum += x;
    const std::size_t n = samples.size();
    const auto rank = [n](double q) { return std::size_t(std::floor(double(n - 1) * q)); };
    const std::size_t k50 = rank(0.5), k5 = rank(0.05), k95 = rank(0.95);
    const double p50 = interpolate(n, 0.5, select_pair(samples, 0, k50, n));
    // Every sample before k50 is <= samples[k50] <= every one after it.
    const double p95 = k95 > k50 ? interpolate(n, 0.95, select_pair(samples, k50 + 1, k95, n))
                                 : interpolate(n, 0.95, select_pair(samples, 0, k95, n));
    const double p5 = k5 < k50 ? interpolate(n, 0.05, select_pair(samples, 0, k5, k50 + 1))
                               : interpolate(n, 0.05, select_pair(samples, 0, k5, n));
    return MonthlyBand{month, sum / double(n), p5, p50, p95};
}

}  // namespace

PlanDistribution evaluate_plan(const Plan& plan, const DemandFutures& futures, const Offering& offering,
                               const PricePaths& prices, const PlanOptions& options) {
    PlanDistribution result;
    const PricedPlan priced = price_plan(plan, offering, options, futures.month_count(), &result.conversions);
    check_prices(prices, futures);
    const std::size_t n = futures.count();
    const auto months = std::size_t(priced.report_months);
    const std::size_t chunks = (n + futures_per_chunk - 1) / futures_per_chunk;

    result.plan = describe(plan);
    result.catalog_rates = priced.catalog_rates;
    result.offering = offering.key();
    result.currency = offering.currency;
    result.horizon_months = priced.horizon_months;
    result.annual_discount_rate = options.annual_discount_rate;
    result.futures.resize(n);
    std::vector<double> month_totals(n * months);  // future-major: future f's months side by side
    std::vector<std::vector<MonthlyCashFlow>> chunk_sums(chunks, std::vector<MonthlyCashFlow>(months));
    const std::vector<const PricedCommitment*> commitments = plan_core::all_commitments(priced);
    std::vector<std::vector<double>> chunk_used(chunks);  // per chunk, per commitment: GPU-hours used
    std::vector<std::vector<double>> chunk_plan_paid(chunks), chunk_plan_used(chunks);  // per Savings Plan
    for_each_chunk(n, options.threads, options.should_stop, options.progress, [&](std::size_t chunk) {
        const std::size_t last = std::min(n, (chunk + 1) * futures_per_chunk);
        plan_core::Scratch scratch;
        scratch.commitment_used.assign(commitments.size(), 0.0);
        scratch.savings_plan_paid.assign(priced.savings_plans.size(), 0.0);
        scratch.savings_plan_used.assign(priced.savings_plans.size(), 0.0);
        for (std::size_t f = chunk * futures_per_chunk; f < last; ++f) {
            result.futures[f] =
                run_future(priced, futures, prices, f, options, &month_totals[f * months], &chunk_sums[chunk], scratch);
        }
        chunk_used[chunk] = std::move(scratch.commitment_used);
        chunk_plan_paid[chunk] = std::move(scratch.savings_plan_paid);
        chunk_plan_used[chunk] = std::move(scratch.savings_plan_used);
    });
    for (std::size_t i = 0; i < commitments.size(); ++i) {  // chunk by chunk in order: the same on any thread count
        const PricedCommitment& c = *commitments[i];
        CommitmentUse use{.name = c.name, .held = i < priced.held.size(), .gpus = c.gpus,
                          .first_month = std::max(0, c.start), .end_month = c.last_month(priced.horizon_months)};
        for (int m = use.first_month; m < use.end_month; ++m)
            if (c.active(m, priced.horizon_months)) use.paid_gpu_hours += c.gpus * hours_per_month;
        for (const auto& used : chunk_used) use.used_gpu_hours += used[i];
        use.used_gpu_hours /= double(n);
        use.unused_gpu_hours = use.paid_gpu_hours - use.used_gpu_hours;
        result.commitment_use.push_back(std::move(use));
    }
    // Savings Plans: the GPU-hours their $/hour paid for and used, means over the futures (a plan's GPUs
    // move with the price path of its purchase month); its GPUs at list prices.
    for (std::size_t j = 0; j < priced.savings_plans.size(); ++j) {
        const PricedSavingsPlan& sp = priced.savings_plans[j];
        CommitmentUse use{.name = sp.name, .held = sp.held(), .gpus = sp.gpus(1.0), .first_month = std::max(0, sp.start),
                          .end_month = sp.last_month(priced.horizon_months)};
        for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
            use.paid_gpu_hours += chunk_plan_paid[chunk][j];
            use.used_gpu_hours += chunk_plan_used[chunk][j];
        }
        use.paid_gpu_hours /= double(n);
        use.used_gpu_hours /= double(n);
        use.unused_gpu_hours = use.paid_gpu_hours - use.used_gpu_hours;
        result.commitment_use.push_back(std::move(use));
    }
    for (const auto& change : priced.changes) result.changes.push_back(change.line);

    // Means by category, summed chunk by chunk in a fixed order.
    result.mean_months.assign(months, MonthlyCashFlow{});
    for (const auto& sums : chunk_sums) {
        for (std::size_t m = 0; m < months; ++m) {
            add_fields(monthly_cash_flow_fields, result.mean_months[m], sums[m]);
        }
    }
    const double inverse = 1.0 / double(n);
    for (std::size_t m = 0; m < months; ++m) {
        MonthlyCashFlow& t = result.mean_months[m];
        t.month = int(m);
        scale_fields(monthly_cash_flow_fields, t, inverse);
    }

    // Bands of each month's flow and of the cumulative cost.
    std::vector<double> column(n), cumulative(n, 0.0);
    for (std::size_t m = 0; m < months; ++m) {
        for (std::size_t f = 0; f < n; ++f) {
            column[f] = month_totals[f * months + m];
            cumulative[f] += column[f];
        }
        result.monthly.push_back(band_of(int(m), column));
        std::vector<double> running = cumulative;
        result.cumulative.push_back(band_of(int(m), running));
    }

    std::vector<double> totals(n), npvs(n);
    double committed = 0, committed_used = 0, spend = 0, unused = 0, above = 0;
    for (std::size_t f = 0; f < n; ++f) {
        const FutureOutcome& o = result.futures[f];
        totals[f] = o.total;
        npvs[f] = o.npv;
        committed += o.committed_gpu_hours;
        committed_used += o.committed_used_gpu_hours;
        spend += o.committed_spend;
        unused += o.stranded_unused;
        above += o.stranded_above_market;
    }
    result.total = distribution_of(totals);
    result.npv = distribution_of(npvs);
    result.regret = distribution_of(std::vector<double>(n, 0.0));
    result.mean_committed_spend = spend * inverse;
    result.committed_utilisation = committed > 0 ? committed_used / committed : 0.0;
    result.mean_stranded_unused = unused * inverse;
    result.mean_stranded_above_market = above * inverse;
    return result;
}

std::vector<PlanDistribution> compare_plans(const std::vector<Plan>& plans, const DemandFutures& futures,
                                            const Offering& offering, const PricePaths& prices,
                                            const PlanOptions& options) {
    require(!plans.empty(), "plans.size", plans.size(), "must be >= 1");
    std::vector<PlanDistribution> results;
    const std::size_t n = futures.count();
    PlanOptions each = options;  // one count over all plans: plan i's futures come after i × n
    for (std::size_t i = 0; i < plans.size(); ++i) {
        if (options.progress)
            each.progress = [&options, i, n, all = plans.size() * n](std::size_t done, std::size_t) {
                options.progress(i * n + done, all);
            };
        results.push_back(evaluate_plan(plans[i], futures, offering, prices, each));
    }
    std::vector<double> regret(n);
    for (auto& r : results) r.best_fraction = 0;
    for (std::size_t f = 0; f < n; ++f) {
        double best = std::numeric_limits<double>::infinity();
        for (const auto& r : results) best = std::min(best, r.futures[f].total);
        for (auto& r : results) {
            r.futures[f].regret = r.futures[f].total - best;
            if (r.futures[f].regret == 0.0) r.best_fraction += 1.0 / double(n);
        }
    }
    for (auto& r : results) {
        for (std::size_t f = 0; f < n; ++f) regret[f] = r.futures[f].regret;
        r.regret = distribution_of(regret);
    }
    return results;
}

namespace {

/// The whole counts c at which one future's total under "c GPUs committed, the rest on demand" can be
/// least. The total is a sum over months of a cost linear in c plus the on-demand price times
/// x_m(c) = demand − S_m(c), S_m(c) = Σ_h min(level s_h, c) — linear in c between the month's hourly
/// demand levels level s_h — less free hours: credit = Σ_m p_m [min(F, X_m) − min(F, X_{m−1})], X_m the
/// on-demand hours of months 0..m, which bends only where X_m(c) = F. The on-demand discount and vouchers scale
/// linearly. So the total is linear in c between consecutive kinks, and over the whole counts between
/// two kinks it is least at one end: floor and ceil of every kink, with 0 and ceil(peak), hold the
/// optimum. Returns them ascending, or an empty list when there are more of them than counts up to the
/// peak (then every count is tried).
std::vector<double> hindsight_candidates(const PricedPlan& plan, const DemandFutures& futures, std::size_t f,
                                         double top, double free_hours) {
    std::vector<double> counts{0.0, top};
    const auto add = [&](double kink) {
        if (kink > 0.0 && kink < top) {
            counts.push_back(std::floor(kink));
            counts.push_back(std::ceil(kink));
        }
    };
    const int months = futures.month_count();
    for (int m = 0; m < months; ++m) {
        const double level = futures.level(f, m);
        const std::vector<double>& sorted = futures.shape(f, m).sorted;
        for (std::size_t h = 0; h < sorted.size(); ++h) {
            if (h == 0 || sorted[h] != sorted[h - 1]) add(level * sorted[h]);
        }
        if (double(counts.size()) > top + 1.0) return {};
    }
    if (free_hours > 0.0) {
        // X_m(c) falls as c grows: the last whole c with X_m(c) >= F, by bisection, and the next one.
        const PricedCommitment& commitment = plan.commitments.front();
        const auto on_demand_hours_through = [&](int last, double c) {
            double hours = 0;
            for (int m = 0; m <= last; ++m) {
                const double level = futures.level(f, m);
                const MonthShape& shape = futures.shape(f, m);
                hours += level * shape.total() - (commitment.active(m, plan.horizon_months) ? shape.served_up_to(level, c) : 0.0);
            }
            return hours;
        };
        for (int m = 0; m < months; ++m) {
            if (on_demand_hours_through(m, 0.0) < free_hours) continue;  // the pool outlasts month m at every c
            double low = 0, high = top;  // X_m(low) >= F; find the last such whole count
            while (high - low > 1.0) {
                const double mid = std::floor((low + high) / 2);
                (on_demand_hours_through(m, mid) >= free_hours ? low : high) = mid;
            }
            counts.push_back(low);
            counts.push_back(std::min(low + 1.0, top));
        }
        if (double(counts.size()) > top + 1.0) return {};
    }
    std::sort(counts.begin(), counts.end());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
    return counts;
}

}  // namespace

std::vector<double> hindsight_reservation_totals(const DemandFutures& futures, const Offering& offering, int term_years,
                                                 Payment payment, const PricePaths& prices, const PlanOptions& options,
                                                 std::vector<double>* best_gpus) {
    Plan plan;
    plan.commitments.push_back(Commitment{.count = 1, .term_years = term_years, .payment = payment, .renewal = Renewal::renew});
    PricedPlan priced = price_plan(plan, offering, options, futures.month_count());
    check_prices(prices, futures);
    const std::size_t n = futures.count();
    std::vector<double> totals(n);
    if (best_gpus) best_gpus->assign(n, 0.0);
    for_each_chunk(n, options.threads, options.should_stop, options.progress, [&](std::size_t chunk) {
        PricedPlan trial = priced;
        plan_core::Scratch scratch;
        const std::size_t last = std::min(n, (chunk + 1) * futures_per_chunk);
        for (std::size_t f = chunk * futures_per_chunk; f < last; ++f) {
            double peak = 0;
            for (int m = 0; m < futures.month_count(); ++m) {
                peak = std::max(peak, futures.level(f, m) * futures.shape(f, m).sorted.back());
            }
            double best = std::numeric_limits<double>::infinity(), best_c = 0;
            const auto consider = [&](double c) {
                trial.commitments[0].gpus = c;
                const double total = run_future(trial, futures, prices, f, options, nullptr, nullptr, scratch).total;
                if (total < best) best = total, best_c = c;
            };
            const double top = std::ceil(peak);
            const std::vector<double> candidates =
                hindsight_candidates(priced, futures, f, top, options.discounts.free_gpu_hours);
            if (candidates.empty()) {
                for (double c = 0; c <= top; c += 1.0) consider(c);
            } else {
                for (double c : candidates) consider(c);
            }
            totals[f] = best;
            if (best_gpus) (*best_gpus)[f] = best_c;
        }
    });
    return totals;
}

}  // namespace gputco
