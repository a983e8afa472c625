// FROZEN REFERENCE — do not edit, do not call from the library.
// The plan engine's evaluate_plan() as it was before the engines became one (src/engines/plan_engine.cpp,
// copied unchanged into the namespace gputco::legacy, with the pricing of legacy_pricing.cpp): the
// "before" of bench_plan, measured in the same run, and an oracle of test_cost_agreement.
#include "legacy_plan.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "legacy_pricing.hpp"

namespace gputco::legacy {
namespace {

constexpr std::size_t futures_per_chunk = 256;  // fixed, so sums do not depend on the thread count

struct PricedCommitment {
    double gpus = 0;
    double upfront_per_gpu = 0;
    double hourly_per_gpu = 0;
    int start = 0;
    int term_months = 12;
    bool renew = false;
    double effective_per_gpu_hour() const { return hourly_per_gpu + upfront_per_gpu / (term_months * hours_per_month); }
    /// Start month of the term running in month m (m >= start).
    int term_start(int m) const { return start + (m - start) / term_months * term_months; }
    bool active(int m, int horizon) const {
        if (m < start) return false;
        return renew ? term_start(m) < horizon : m < start + term_months;
    }
    int last_month(int horizon) const {  // one past the last month paid
        const int last_start = renew ? start + (horizon - 1 - start) / term_months * term_months : start;
        return last_start + term_months;
    }
};

using pricing::PricedOwned;

struct PricedSpot {
    double gpus = 0;
    double price_per_gpu_hour = 0;
    std::vector<double> overhead;      ///< per month of the horizon
    std::vector<double> availability;  ///< per month of the horizon
};

struct PricedPlan {
    std::vector<PricedOwned> owned;
    std::vector<PricedCommitment> commitments;
    std::optional<PricedSpot> spot;
    double on_demand_per_gpu_hour = 0;
    int horizon_months = 0;
    int report_months = 0;
};

PricedCommitment price_commitment(const Commitment& c, std::size_t i, const Offering& plan_offering,
                                  const PlanOptions& options, int horizon, std::vector<std::string>& conversions) {
    const Discounts& discounts = options.discounts;
    const std::string field = fmt::format("plan.commitments[{}]", i);
    Offering offering = c.offering ? *c.offering : plan_offering;
    if (c.offering) {
        offering.validate(field + ".offering");
        if (offering.currency != plan_offering.currency) {
            require(options.conversion.has_value(), field + ".offering.currency", offering.currency,
                    fmt::format("must be {}, the plan's currency, unless a dated exchange rate is given "
                                "(PlanOptions::conversion)",
                                plan_offering.currency));
            const RateQuote quote =
                options.conversion->rates.quote(offering.currency, plan_offering.currency, options.conversion->date);
            conversions.push_back(fmt::format("{}: {} converted to {} at {:.6g} ({})", field, offering.key(),
                                              plan_offering.currency, quote.rate, quote.describe()));
            offering = options.conversion->rates.convert(offering, plan_offering.currency, options.conversion->date);
        }
    }
    require_at_most(field + ".count", c.count, limits::max_gpus);
    require(c.term_years >= 1 && c.term_years <= 5, field + ".term_years", c.term_years, "must be in [1, 5]");
    require(c.start_month >= 0 && c.start_month < horizon, field + ".start_month", c.start_month,
            fmt::format("must be in [0, {}) (the horizon's months)", horizon));
    PricedCommitment priced;
    priced.gpus = c.unit == CountUnit::instances ? c.count * offering.gpus_per_instance : c.count;
    require(priced.gpus <= limits::max_gpus, field + ".count", c.count,
            fmt::format("makes {:g} GPUs, more than {:g}", priced.gpus, limits::max_gpus));
    priced.start = c.start_month;
    priced.term_months = c.term_years * months_per_year;
    priced.renew = c.renewal == Renewal::renew;
    const pricing::ReservationPrice price = pricing::reservation(field, c.term_years, c.payment, c.reservation_discount, offering,
                                                                 discounts.region_price_factor, "discount");
    priced.upfront_per_gpu = price.upfront_per_gpu;
    priced.hourly_per_gpu = price.hourly_per_gpu;
    return priced;
}

PricedPlan price_plan(const Plan& plan, const Offering& offering, const PlanOptions& options, int horizon,
                      std::vector<std::string>* conversions = nullptr) {
    std::vector<std::string> notes;
    offering.validate();
    options.discounts.validate();
    require_discount_rate("annual_discount_rate", options.annual_discount_rate);
    PricedPlan priced;
    priced.horizon_months = horizon;
    priced.report_months = horizon;
    priced.on_demand_per_gpu_hour = offering.on_demand_per_gpu_hour() * options.discounts.region_price_factor;
    for (std::size_t i = 0; i < plan.owned.size(); ++i) {
        const OwnedPurchase& o = plan.owned[i];
        const std::string field = fmt::format("plan.owned[{}]", i);
        require_at_most(field + ".gpus", o.gpus, limits::max_gpus);
        require(o.month >= 0 && o.month < horizon, field + ".month", o.month,
                fmt::format("must be in [0, {}) (the horizon's months)", horizon));
        o.terms.validate();
        priced.owned.push_back(PricedOwned{o.gpus, o.month, o.terms});
    }
    for (std::size_t i = 0; i < plan.commitments.size(); ++i) {
        priced.commitments.push_back(price_commitment(plan.commitments[i], i, offering, options, horizon, notes));
        priced.report_months = std::max(priced.report_months, priced.commitments.back().last_month(horizon));
    }
    if (plan.spot) {
        const SpotShare& s = *plan.spot;
        PricedSpot spot;
        spot.gpus = require_at_most("plan.spot.gpus", s.gpus, limits::max_gpus);
        spot.price_per_gpu_hour = pricing::spot_price("plan.spot.price_per_gpu_hour", s.price_per_gpu_hour, offering,
                                                      options.discounts.region_price_factor);
        pricing::check_spot_terms("plan.spot", s.overhead, s.availability);
        spot.overhead.assign(std::size_t(horizon), s.overhead);
        spot.availability.assign(std::size_t(horizon), s.availability);
        for (std::size_t i = 0; i < s.periods.size(); ++i) {
            const SpotPeriod& p = s.periods[i];
            const std::string field = fmt::format("plan.spot.periods[{}]", i);
            const int after = i == 0 ? -1 : s.periods[i - 1].first_month;
            require(p.first_month > after && p.first_month < horizon, field + ".first_month", p.first_month,
                    fmt::format("must be in ({}, {}) (after the previous period, inside the horizon)", after, horizon));
            pricing::check_spot_terms(field, p.overhead, p.availability);
            std::fill(spot.overhead.begin() + p.first_month, spot.overhead.end(), p.overhead);
            std::fill(spot.availability.begin() + p.first_month, spot.availability.end(), p.availability);
        }
        priced.spot = std::move(spot);
    }
    if (conversions) *conversions = std::move(notes);
    return priced;
}

void check_prices(const PricePaths& prices, const DemandFutures& futures) {
    if (prices.empty()) return;
    require(prices.on_demand.rows() == futures.month_count(), "prices.months", prices.on_demand.rows(),
            fmt::format("must be {} (the futures' months)", futures.month_count()));
    require(prices.on_demand.cols() == 1 || std::size_t(prices.on_demand.cols()) == futures.count(), "prices.futures",
            prices.on_demand.cols(), fmt::format("must be 1 or {} (the number of futures)", futures.count()));
}

/// One future through the plan: its outcome, its monthly totals (report_months of them) and, if
/// given, its flows added to `sums` by category.
FutureOutcome run_future(const PricedPlan& plan, const DemandFutures& futures, const PricePaths& prices,
                         std::size_t f, const PlanOptions& options, double* month_totals,
                         std::vector<MonthlyCashFlow>* sums) {
    const int horizon = plan.horizon_months;
    const Discounts& discounts = options.discounts;
    const double monthly_factor = std::pow(1.0 + options.annual_discount_rate, 1.0 / months_per_year);
    const Eigen::Index col = prices.empty() ? 0 : prices.column(f);
    const auto factor = [&](const Eigen::ArrayXXd& table, int m) { return prices.empty() ? 1.0 : table(m, col); };
    FutureOutcome out;
    double free_hours_left = discounts.free_gpu_hours;
    double discount = 1;
    for (int m = 0; m < plan.report_months; ++m) {
        MonthlyCashFlow flow;
        flow.month = m;
        const bool in_horizon = m < horizon;
        const double level = in_horizon ? futures.level(f, m) : 0.0;
        const MonthShape* shape = in_horizon ? &futures.shape(f, m) : nullptr;
        const double demand = in_horizon ? level * shape->total() : 0.0;
        const double on_demand_price = in_horizon ? plan.on_demand_per_gpu_hour * factor(prices.on_demand, m) : 0.0;
        const auto served_up_to = [&](double capacity) { return in_horizon ? shape->served_up_to(level, capacity) : 0.0; };
        flow.used_gpu_hours = demand;
        double capacity = 0, served = 0;  // capacity of the tiers so far and what they serve

        for (const PricedOwned& o : plan.owned) {
            if (!in_horizon || m < o.month) continue;
            capacity += o.gpus;
            const double upto = served_up_to(capacity), busy = upto - served;
            served = upto;
            o.add_month(m, horizon, busy, flow);
        }
        for (const PricedCommitment& c : plan.commitments) {
            if (!c.active(m, horizon)) continue;
            const int bought = c.term_start(m);  // the term keeps the prices of the month it was bought
            const double price_factor = factor(prices.reserved, bought);
            if (m == bought) flow.upfront += c.upfront_per_gpu * c.gpus * price_factor;
            flow.reserved_recurring += c.hourly_per_gpu * c.gpus * hours_per_month * price_factor;
            const double paid_hours = c.gpus * hours_per_month;
            flow.reserved_gpu_hours += paid_hours;
            capacity += c.gpus;
            const double upto = served_up_to(capacity), used = upto - served;
            served = upto;
            flow.reserved_used_gpu_hours += used;
            const double rate = c.effective_per_gpu_hour() * price_factor;
            out.stranded_unused += (paid_hours - used) * rate;
            if (in_horizon) out.stranded_above_market += used * std::max(0.0, rate - on_demand_price);
        }
        double spot_served = 0;
        if (plan.spot && in_horizon) {
            // Spot capacity is there in a fraction `availability` of hours; otherwise on-demand serves.
            const PricedSpot& s = *plan.spot;
            const auto month = std::size_t(m);
            spot_served = s.availability[month] * (served_up_to(capacity + s.gpus) - served);
            flow.spot_gpu_hours = spot_served;
            flow.spot = spot_served * s.price_per_gpu_hour * factor(prices.spot, m) * s.overhead[month];
        }
        flow.on_demand_gpu_hours = std::max(0.0, demand - served - spot_served);
        flow.on_demand = flow.on_demand_gpu_hours * on_demand_price;
        // Plans count in GPUs (evaluate()'s Units::gpus): what is paid for is what is served.
        flow.on_demand_paid_gpu_hours = flow.on_demand_gpu_hours;
        flow.spot_paid_gpu_hours = flow.spot_gpu_hours;

        pricing::add_credits_and_total(flow, discounts, flow.on_demand_gpu_hours, on_demand_price, free_hours_left);

        out.total += flow.total;
        out.npv += flow.total / discount;
        discount *= monthly_factor;
        out.demand_gpu_hours += demand;
        out.committed_spend += flow.upfront + flow.reserved_recurring;
        out.committed_gpu_hours += flow.reserved_gpu_hours;
        out.committed_used_gpu_hours += flow.reserved_used_gpu_hours;
        if (month_totals) month_totals[m] = flow.total;
        if (sums) {
            add_fields(monthly_cash_flow_fields, (*sums)[std::size_t(m)], flow);
        }
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

/// Type-7 quantile by selection (O(n), reorders `samples`); the arithmetic of quantile_sorted().
double select_quantile(std::vector<double>& samples, double q) {
    const double h = double(samples.size() - 1) * q;
    const auto k = std::size_t(std::floor(h));
    std::nth_element(samples.begin(), samples.begin() + std::ptrdiff_t(k), samples.end());
    const double low = samples[k];
    if (k + 1 >= samples.size()) return low;
    const double high = *std::min_element(samples.begin() + std::ptrdiff_t(k) + 1, samples.end());
    return low + (h - double(k)) * (high - low);
}

MonthlyBand band_of(int month, std::vector<double>& samples) {
    double sum = 0;
    for (double x : samples) sum += x;
    const double p5 = select_quantile(samples, 0.05), p50 = select_quantile(samples, 0.5);
    return MonthlyBand{month, sum / double(samples.size()), p5, p50, select_quantile(samples, 0.95)};
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
    result.offering = offering.key();
    result.currency = offering.currency;
    result.horizon_months = priced.horizon_months;
    result.annual_discount_rate = options.annual_discount_rate;
    result.futures.resize(n);
    std::vector<double> month_totals(n * months);  // future-major: future f's months side by side
    std::vector<std::vector<MonthlyCashFlow>> chunk_sums(chunks, std::vector<MonthlyCashFlow>(months));
    for_each_chunk(n, options.threads, options.should_stop, options.progress, [&](std::size_t chunk) {
        const std::size_t last = std::min(n, (chunk + 1) * futures_per_chunk);
        for (std::size_t f = chunk * futures_per_chunk; f < last; ++f) {
            result.futures[f] = run_future(priced, futures, prices, f, options, &month_totals[f * months], &chunk_sums[chunk]);
        }
    });

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

}  // namespace gputco::legacy
