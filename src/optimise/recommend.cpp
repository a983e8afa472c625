// The plan recommender (see recommend.hpp; the programme is written out in docs/design.md, "Recommending
// a plan"). Each (future, month) gets a variable u for the GPU-hours the commitments serve, bounded by
// tangent lines of the concave served-hours curve S(C) = Σ_h min(L s_h, C); with spot a second one, v,
// for what commitments and spot serve together, S(C + s). Cost is then linear:
//   month cost = p D − (p (1 − a) + ρ a) u − a (p − ρ) v     (p on demand, ρ spot per useful hour, a availability)
// plus each commitment's fees, so the whole sample-average problem is a MIP in the commitment counts.
#include "gputco/optimise/recommend.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <thread>

#include "../engines/pricing.hpp"
#include "gputco/optimise/optimise.hpp"
#include "mip.hpp"

namespace gputco {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

/// One buyable column: an option at a start month, priced per GPU.
struct Candidate {
    std::size_t option = 0;
    int start = 0;
    int term_months = 12;
    double gpus_per_unit = 1;
    double upfront_per_gpu = 0;
    double hourly_per_gpu = 0;
    bool active(int m) const { return m >= start && m < start + term_months; }
};

/// One affine piece of the served-hours curve S_L(C) = L × S_1(C / L) between two breakpoints:
/// S_L(C) <= L × (served − slope × value) + slope × C, with equality on [L value, L next value].
struct Cut {
    double value = 0;   ///< breakpoint as a multiple of the level
    double served = 0;  ///< S_1(value)
    double slope = 0;   ///< hours served per extra GPU up to the next breakpoint
};

/// The pieces of one month's S_1 through (at most max_blocks + 1) breakpoints: the curve itself when
/// the shape has no more distinct values, otherwise the chords between breakpoints at evenly spaced
/// ranks (below the curve: the engine's re-evaluation then says what the plan really costs).
std::vector<Cut> cuts_of(const MonthShape& shape, int max_blocks) {
    std::vector<double> values{0.0};
    for (double s : shape.sorted)
        if (s > values.back()) values.push_back(s);
    if (int(values.size()) > max_blocks + 1) {
        std::vector<double> chosen{0.0};
        const std::size_t n = shape.sorted.size();
        for (int j = 1; j <= max_blocks; ++j) {
            const double s = shape.sorted[std::min(n - 1, std::size_t(double(j) * double(n) / max_blocks + 0.5) - 1)];
            if (s > chosen.back()) chosen.push_back(s);
        }
        values = std::move(chosen);
    }
    std::vector<Cut> cuts;
    for (std::size_t j = 0; j < values.size(); ++j) {
        const double served = shape.served_up_to(1.0, values[j]);
        const double slope =
            j + 1 < values.size() ? (shape.served_up_to(1.0, values[j + 1]) - served) / (values[j + 1] - values[j]) : 0.0;
        cuts.push_back({values[j], served, slope});
    }
    return cuts;
}

/// Σ_f weight_f × S_f(C) over a month's futures, S_f = level_f × the pieces of its shape: concave and
/// piecewise linear in C with a kink at every level_f × breakpoint; returned as its pieces
/// (value = the kink in GPUs, served = the sum there, slope to the next kink).
std::vector<Cut> sum_of_pieces(const std::vector<std::pair<double, const std::vector<Cut>*>>& terms,
                               const std::vector<double>& weights) {
    std::vector<std::pair<double, double>> kinks;  // (capacity, change of slope)
    double slope = 0;
    for (std::size_t f = 0; f < terms.size(); ++f) {
        const auto& [level, pieces] = terms[f];
        slope += weights[f] * (*pieces)[0].slope;  // d/dC of L S_1(C / L) is the piece's slope
        for (std::size_t j = 1; j < pieces->size(); ++j)
            kinks.push_back({level * (*pieces)[j].value, weights[f] * ((*pieces)[j].slope - (*pieces)[j - 1].slope)});
    }
    std::sort(kinks.begin(), kinks.end());
    std::vector<Cut> out{{0.0, 0.0, slope}};
    for (const auto& [at, change] : kinks) {
        Cut& last = out.back();
        if (at > last.value) {
            out.push_back({at, last.served + last.slope * (at - last.value), last.slope + change});
        } else {
            last.slope += change;
        }
    }
    return out;
}

double factor_of(const PricePaths& prices, const Eigen::ArrayXXd& table, std::size_t f, int m) {
    return prices.empty() ? 1.0 : table(m, prices.column(f));
}

struct Setup {
    std::vector<Candidate> candidates;
    std::vector<double> weight;  ///< per month, objective discount weight (past the horizon too)
    int horizon = 0;
};

Setup set_up(const DemandFutures& futures, const Offering& offering, const RecommendOptions& o) {
    Setup setup;
    const int horizon = setup.horizon = futures.month_count();
    std::vector<CommitmentOption> options = o.commitments;
    if (options.empty())
        for (const ReservedPrice& r : offering.reserved) options.push_back({r.term_years, r.payment, {}});
    std::vector<int> starts = o.start_months;
    if (starts.empty()) {
        require(o.review_months >= 1, "options.review_months", o.review_months, "must be >= 1");
        for (int m = 0; m < horizon; m += o.review_months) starts.push_back(m);
    }
    for (std::size_t i = 0; i < starts.size(); ++i)
        require(starts[i] >= 0 && starts[i] < horizon, fmt::format("options.start_months[{}]", i), starts[i],
                fmt::format("must be in [0, {}) (the horizon's months)", horizon));
    const double region = o.plan_options.discounts.region_price_factor;
    int last_month = horizon;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const CommitmentOption& c = options[i];
        const std::string field = fmt::format("options.commitments[{}]", i);
        require(c.term_years >= 1 && c.term_years <= 5, field + ".term_years", c.term_years, "must be in [1, 5]");
        Candidate k;
        k.option = i;
        k.term_months = c.term_years * months_per_year;
        k.gpus_per_unit = o.unit == CountUnit::instances ? offering.gpus_per_instance : 1.0;
        const double term_hours = c.term_years * hours_per_year;
        if (c.discount) {  // as Commitment::discount in the plan engine
            require(*c.discount >= 0.0 && *c.discount < 1.0, field + ".discount", *c.discount, "must be in [0, 1)");
            const double effective = (1.0 - *c.discount) * offering.on_demand_per_gpu_hour() * region;
            const double share = c.payment == Payment::all_upfront ? 1.0 : c.payment == Payment::partial_upfront ? 0.5 : 0.0;
            k.upfront_per_gpu = effective * share * term_hours;
            k.hourly_per_gpu = effective * (1.0 - share);
        } else {
            const auto price = offering.reserved_price(c.term_years, c.payment);
            if (!price)
                fail(field, fmt::format("{}y {}", c.term_years, to_string(c.payment)),
                     fmt::format("offering {} lists no such reservation price; set discount", offering.key()));
            k.upfront_per_gpu = price->upfront * region / offering.gpus_per_instance;
            k.hourly_per_gpu = price->hourly * region / offering.gpus_per_instance;
        }
        for (int s : starts) {
            k.start = s;
            setup.candidates.push_back(k);
            last_month = std::max(last_month, s + k.term_months);
        }
    }
    const bool npv = o.objective == Objective::expected_npv;
    const double monthly = std::pow(1.0 + o.plan_options.annual_discount_rate, 1.0 / months_per_year);
    double discount = 1;
    for (int m = 0; m < last_month; ++m) {
        setup.weight.push_back(npv ? 1.0 / discount : 1.0);
        discount *= monthly;
    }
    return setup;
}

void validate(const DemandFutures& futures, const Offering& offering, const RecommendOptions& o, const PricePaths& prices) {
    offering.validate();
    o.plan_options.discounts.validate();
    require(o.plan_options.discounts.free_gpu_hours == 0.0, "options.plan_options.discounts.free_gpu_hours",
            o.plan_options.discounts.free_gpu_hours, "must be 0 for the optimiser (a pool of free hours is not linear)");
    require_discount_rate("options.plan_options.annual_discount_rate", o.plan_options.annual_discount_rate);
    require(futures.count() >= 1, "futures.count", futures.count(), "must be >= 1");
    require(o.max_count >= 0.0, "options.max_count", o.max_count, "must be >= 0");
    require(o.max_blocks >= 1 && o.max_blocks <= 730, "options.max_blocks", o.max_blocks, "must be in [1, 730]");
    require_positive("options.time_limit_seconds", o.time_limit_seconds);
    // Every plan costs >= 0, so a negative limit is a mistake (and one near -DBL_MAX made Clp abort).
    if (o.limits.cvar95) require_non_negative("limits.cvar95", *o.limits.cvar95);
    if (o.limits.upfront_per_period) require_non_negative("limits.upfront_per_period", *o.limits.upfront_per_period);
    require(o.limits.upfront_period_months >= 1, "limits.upfront_period_months", o.limits.upfront_period_months,
            "must be >= 1");
    if (o.limits.committed_share) require_non_negative("limits.committed_share", *o.limits.committed_share);
    if (o.limits.deadline_miss_probability)
        require_fraction("limits.deadline_miss_probability", *o.limits.deadline_miss_probability);
    for (std::size_t i = 0; i < o.spot.size(); ++i) {
        const std::string field = fmt::format("options.spot[{}]", i);
        require(std::isfinite(o.spot[i].overhead) && o.spot[i].overhead >= 1.0, field + ".overhead", o.spot[i].overhead,
                "must be finite and >= 1 (billed per useful hour)");
        require_fraction(field + ".availability", o.spot[i].availability);
        if (o.spot[i].deadline_miss_probability)
            require_fraction(field + ".deadline_miss_probability", *o.spot[i].deadline_miss_probability);
        if (o.spot[i].price_per_gpu_hour) require_non_negative(field + ".price_per_gpu_hour", *o.spot[i].price_per_gpu_hour);
        else if (!offering.spot_per_gpu_hour())
            fail(field + ".price_per_gpu_hour", "none",
                 fmt::format("offering {} lists no spot price; set it", offering.key()));
    }
    if (o.owned) {
        o.owned->terms.validate();
        require(o.owned->max_gpus >= 0 && o.owned->max_gpus <= 1'000'000, "options.owned.max_gpus", o.owned->max_gpus,
                "must be in [0, 1000000]");
        require(o.owned->step_gpus >= 1, "options.owned.step_gpus", o.owned->step_gpus, "must be >= 1");
        require(!o.owned->months.empty(), "options.owned.months.size", 0, "must be >= 1");
        double combinations = 1;
        for (std::size_t i = 0; i < o.owned->months.size(); ++i) {
            require(o.owned->months[i] >= 0 && o.owned->months[i] < futures.month_count(),
                    fmt::format("options.owned.months[{}]", i), o.owned->months[i],
                    fmt::format("must be in [0, {}) (the horizon's months)", futures.month_count()));
            combinations *= double(o.owned->max_gpus / o.owned->step_gpus + 1);
        }
        require(combinations <= 4096.0, "options.owned.combinations", combinations,
                "must be <= 4096 (each is a solve: fewer months, a lower max_gpus or a larger step_gpus)");
    }
    if (!prices.empty()) {
        require(prices.on_demand.rows() == futures.month_count(), "prices.months", prices.on_demand.rows(),
                fmt::format("must be {} (the futures' months)", futures.month_count()));
        require(prices.on_demand.cols() == 1 || std::size_t(prices.on_demand.cols()) == futures.count(),
                "prices.futures", prices.on_demand.cols(),
                fmt::format("must be 1 or {} (the number of futures)", futures.count()));
    }
}

/// A hypograph variable `column` <= a concave piecewise-linear curve of (capacity [+ spot]) GPUs,
/// its pieces in GPUs and GPU-hours; rows are added only for the pieces a solution needs.
struct Curve {
    int column = -1;
    int capacity = -1;
    int spot = -1;  ///< -1: the curve is of the committed capacity alone
    std::vector<Cut> pieces;
    std::vector<char> added;
};

/// `pieces` of S_1 as pieces of S_L, in GPUs.
std::vector<Cut> scaled(const std::vector<Cut>& pieces, double level) {
    std::vector<Cut> out = pieces;
    for (Cut& piece : out) {
        piece.value *= level;
        piece.served *= level;
    }
    return out;
}

struct Solved {
    detail::MipSolution solution;
    Plan plan;
};

/// Builds and solves the programme with `spot` (or none); the plan it finds.
/// GPUs of `owned` held in month m (bought at or before it; replaced at the end of each life).
double owned_held(const std::vector<OwnedPurchase>& owned, int m) {
    double gpus = 0;
    for (const OwnedPurchase& p : owned)
        if (p.month <= m) gpus += p.gpus;
    return gpus;
}

/// Capex of `owned` paid in months [first, first + months) of the horizon: at purchase and at each
/// replacement, as the plan engine pays it.
double owned_capex_in(const std::vector<OwnedPurchase>& owned, int first, int months, int horizon) {
    double paid = 0;
    for (const OwnedPurchase& p : owned) {
        const int life = p.terms.life_years * months_per_year;
        for (int m = p.month; m < horizon; m += life)
            if (m >= first && m < first + months) paid += p.terms.capex_per_gpu * p.gpus;
    }
    return paid;
}

/// Each future's cost of `owned` (capex, resale, power with the hours owned GPUs serve first, fixed
/// costs), weighted as the objective: the plan engine's own arithmetic (pricing::PricedOwned).
std::vector<double> owned_costs(const DemandFutures& futures, const std::vector<OwnedPurchase>& owned,
                                const Setup& setup) {
    std::vector<double> costs(futures.count(), 0.0);
    if (owned.empty()) return costs;
    for (std::size_t f = 0; f < futures.count(); ++f)
        for (int m = 0; m < setup.horizon; ++m) {
            MonthlyCashFlow flow;
            const double level = futures.level(f, m);
            const MonthShape& shape = futures.shape(f, m);
            double capacity = 0, served = 0;
            for (const OwnedPurchase& p : owned) {
                if (m < p.month) continue;
                capacity += p.gpus;
                const double upto = shape.served_up_to(level, capacity);
                pricing::PricedOwned{p.gpus, p.month, p.terms}.add_month(m, setup.horizon, upto - served, flow);
                served = upto;
            }
            costs[f] += setup.weight[std::size_t(m)] * (flow.capex + flow.operating + flow.resale);
        }
    return costs;
}

/// Builds and solves the programme with `spot` (or none) and `owned` bought; the plan it finds.
Solved solve_one(const DemandFutures& futures, const Offering& offering, const RecommendOptions& o,
                 const PricePaths& prices, const Setup& setup, const SpotOption* spot,
                 const std::vector<OwnedPurchase>& owned) {
    const std::size_t n = futures.count();
    const int horizon = setup.horizon;
    const Discounts& d = o.plan_options.discounts;
    const double voucher = d.voucher_price_factor;
    const double od_base = offering.on_demand_per_gpu_hour() * d.region_price_factor * (1.0 - d.plan_discount) * voucher;
    const double spot_base =
        spot ? (spot->price_per_gpu_hour ? *spot->price_per_gpu_hour
                                         : *offering.spot_per_gpu_hour() * d.region_price_factor) *
                   spot->overhead * voucher
             : 0.0;
    const double a = spot ? spot->availability : 0.0;
    const bool with_cvar = o.limits.cvar95.has_value();
    const double tail = std::ceil(0.05 * double(n));  // the engine's CVaR95: mean of the worst ⌈5% n⌉

    detail::Mip mip;
    // Commitment columns; their objective is the mean over futures of their cost per unit.
    std::vector<int> x;
    std::vector<std::vector<double>> cost(setup.candidates.size(), std::vector<double>(n));
    for (std::size_t k = 0; k < setup.candidates.size(); ++k) {
        const Candidate& c = setup.candidates[k];
        double weights = 0;
        for (int m = c.start; m < c.start + c.term_months; ++m) weights += setup.weight[std::size_t(m)];
        double mean = 0;
        for (std::size_t f = 0; f < n; ++f) {
            const double r = factor_of(prices, prices.reserved, f, c.start);
            cost[k][f] = voucher * c.gpus_per_unit * r *
                         (c.upfront_per_gpu * setup.weight[std::size_t(c.start)] + c.hourly_per_gpu * hours_per_month * weights);
            mean += cost[k][f];
        }
        x.push_back(mip.add_column(0.0, o.max_count, mean / double(n), true));
    }
    std::vector<int> capacity;  // committed GPUs per month
    for (int m = 0; m < horizon; ++m) {
        capacity.push_back(mip.add_column(0.0, infinity, 0.0, false));
        std::vector<int> cols{capacity.back()};
        std::vector<double> coef{1.0};
        for (std::size_t k = 0; k < x.size(); ++k)
            if (setup.candidates[k].active(m)) {
                cols.push_back(x[k]);
                coef.push_back(-setup.candidates[k].gpus_per_unit);
            }
        mip.add_row(cols, coef, 'E', owned_held(owned, m));  // owned GPUs serve first: the curves start above them
    }
    const int spot_gpus = spot ? mip.add_column(0.0, infinity, 0.0, false) : -1;

    std::map<const MonthShape*, std::vector<Cut>> cuts_by_shape;
    const auto cuts = [&](const MonthShape& shape) -> const std::vector<Cut>& {
        auto it = cuts_by_shape.find(&shape);
        if (it == cuts_by_shape.end()) it = cuts_by_shape.emplace(&shape, cuts_of(shape, o.max_blocks)).first;
        return it->second;
    };
    std::vector<Curve> curves;
    const std::vector<double> owned_cost = owned_costs(futures, owned, setup);
    double constant = 0;  // Σ_f Σ_m w p D / n: the all-on-demand cost the served hours reduce; + owned costs
    for (double c : owned_cost) constant += with_cvar ? 0.0 : c / double(n);
    if (!with_cvar) {
        // Without a per-future limit the mean cost is separable by month: one concave curve a month
        // (a sum over futures) for what commitments serve and one for commitments plus spot.
        for (int m = 0; m < horizon; ++m) {
            const double w = setup.weight[std::size_t(m)];
            std::vector<std::pair<double, const std::vector<Cut>*>> terms;
            std::vector<double> alphas, betas;
            for (std::size_t f = 0; f < n; ++f) {
                const double level = futures.level(f, m);
                const MonthShape& shape = futures.shape(f, m);
                const double p = od_base * factor_of(prices, prices.on_demand, f, m);
                const double rho = spot_base * factor_of(prices, prices.spot, f, m);
                constant += w * p * level * shape.total() / double(n);
                if (level <= 0.0) continue;
                terms.push_back({level, &cuts(shape)});
                alphas.push_back(w * (p * (1.0 - a) + rho * a) / double(n));
                betas.push_back(spot ? std::max(0.0, w * a * (p - rho)) / double(n) : 0.0);
            }
            if (terms.empty()) continue;
            curves.push_back({mip.add_column(0.0, infinity, -1.0, false), capacity[std::size_t(m)], -1,
                              sum_of_pieces(terms, alphas), {}});
            if (spot && *std::max_element(betas.begin(), betas.end()) > 0.0)
                curves.push_back({mip.add_column(0.0, infinity, -1.0, false), capacity[std::size_t(m)], spot_gpus,
                                  sum_of_pieces(terms, betas), {}});
        }
    }
    const int eta = with_cvar ? mip.add_column(-infinity, infinity, 0.0, false) : -1;
    std::vector<int> tail_columns{eta};
    std::vector<double> tail_coefficients{1.0};
    for (std::size_t f = 0; with_cvar && f < n; ++f) {
        std::vector<int> row_cols;  // z_f + η − T_f(variables) >= constant_f
        std::vector<double> row_coef;
        double constant_f = owned_cost[f];
        for (int m = 0; m < horizon; ++m) {
            const double w = setup.weight[std::size_t(m)];
            const double level = futures.level(f, m);
            const MonthShape& shape = futures.shape(f, m);
            const double p = od_base * factor_of(prices, prices.on_demand, f, m);
            const double rho = spot_base * factor_of(prices, prices.spot, f, m);
            const double alpha = w * (p * (1.0 - a) + rho * a), beta = w * a * (p - rho);
            constant_f += w * p * level * shape.total();
            if (level <= 0.0) continue;
            const int u = mip.add_column(0.0, infinity, -alpha / double(n), false);
            row_cols.push_back(u);
            row_coef.push_back(alpha);
            curves.push_back({u, capacity[std::size_t(m)], -1, scaled(cuts(shape), level), {}});
            if (spot && beta > 0.0) {  // spot dearer than on demand (beta <= 0) serves nothing usefully
                const int v = mip.add_column(0.0, infinity, -beta / double(n), false);
                row_cols.push_back(v);
                row_coef.push_back(beta);
                curves.push_back({v, capacity[std::size_t(m)], spot_gpus, scaled(cuts(shape), level), {}});
            }
        }
        constant += constant_f / double(n);
        if (with_cvar) {
            const int z = mip.add_column(0.0, infinity, 0.0, false);
            tail_columns.push_back(z);
            tail_coefficients.push_back(1.0 / tail);
            row_cols.push_back(z);
            row_coef.push_back(1.0);
            row_cols.push_back(eta);
            row_coef.push_back(1.0);
            for (std::size_t k = 0; k < x.size(); ++k) {
                row_cols.push_back(x[k]);
                row_coef.push_back(-cost[k][f]);
            }
            mip.add_row(row_cols, row_coef, 'G', constant_f);
        }
    }
    // Rockafellar–Uryasev: η + Σ z_f / ⌈5% n⌉ >= CVaR95 with equality at the optimum over η.
    if (with_cvar) mip.add_row(tail_columns, tail_coefficients, 'L', *o.limits.cvar95);
    if (o.limits.committed_share) {
        for (int m = 0; m < horizon; ++m) {
            double mean_level = 0;
            for (std::size_t f = 0; f < n; ++f) mean_level += futures.level(f, m);
            mip.add_row({capacity[std::size_t(m)]}, {1.0}, 'L', *o.limits.committed_share * mean_level / double(n));
        }
    }
    if (o.limits.upfront_per_period) {
        const int period = o.limits.upfront_period_months;
        for (int first = 0; first < horizon; first += period) {
            std::vector<int> cols;
            std::vector<double> coef;
            for (std::size_t k = 0; k < x.size(); ++k) {
                const Candidate& c = setup.candidates[k];
                if (c.start < first || c.start >= first + period || c.upfront_per_gpu <= 0.0) continue;
                double worst = 0;  // the limit must hold in every future
                for (std::size_t f = 0; f < n; ++f) worst = std::max(worst, factor_of(prices, prices.reserved, f, c.start));
                cols.push_back(x[k]);
                coef.push_back(voucher * c.gpus_per_unit * c.upfront_per_gpu * worst);
            }
            // Owned capex in the window is fixed here; recommend_plan skips owned purchases above the limit.
            const double room = *o.limits.upfront_per_period - owned_capex_in(owned, first, period, horizon);
            if (!cols.empty()) mip.add_row(cols, coef, 'L', std::max(0.0, room));
        }
    }

    // Kelley's cutting planes: each curve starts with its first and last pieces; after each solve
    // the piece in force at the solution's capacity is added wherever the solution overrates the
    // curve there. Pieces are finitely many, so this ends at the exact optimum (all pieces would
    // be thousands of rows a month, which the simplex handles far more slowly).
    const auto add_piece = [&](Curve& curve, std::size_t j) {
        if (curve.added.empty()) curve.added.assign(curve.pieces.size(), 0);
        if (curve.added[j]) return false;
        curve.added[j] = 1;
        const Cut& piece = curve.pieces[j];
        if (curve.spot >= 0)
            mip.add_row({curve.column, curve.capacity, curve.spot}, {1.0, -piece.slope, -piece.slope}, 'L',
                        piece.served - piece.slope * piece.value);
        else
            mip.add_row({curve.column, curve.capacity}, {1.0, -piece.slope}, 'L', piece.served - piece.slope * piece.value);
        return true;
    };
    for (Curve& curve : curves) {
        add_piece(curve, 0);
        add_piece(curve, curve.pieces.size() - 1);
    }
    Solved out;
    const auto started = std::chrono::steady_clock::now();
    for (bool first = true;; first = false) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        // Between solves, and inside each (Mip::solve asks after branch-and-bound nodes).
        if (o.plan_options.should_stop && o.plan_options.should_stop()) throw Cancelled("recommend_plan: stopped");
        if (!first && spent >= o.time_limit_seconds) {  // keep the last plan; it is not proven
            out.solution.proven_optimal = false;
            break;
        }
        out.solution = mip.solve(std::max(1e-3, o.time_limit_seconds - spent), o.plan_options.should_stop);
        if (!out.solution.feasible) break;
        const std::vector<double>& sol = out.solution.x;
        bool added = false;
        for (Curve& curve : curves) {
            const double at = sol[std::size_t(curve.capacity)] + (curve.spot >= 0 ? sol[std::size_t(curve.spot)] : 0.0);
            const auto after = std::upper_bound(curve.pieces.begin(), curve.pieces.end(), at,
                                                [](double c, const Cut& piece) { return c < piece.value; });
            const auto j = std::size_t(std::max<std::ptrdiff_t>(0, after - curve.pieces.begin() - 1));
            const Cut& piece = curve.pieces[j];
            const double value = piece.served + piece.slope * (at - piece.value);
            if (sol[std::size_t(curve.column)] > value + 1e-9 * (1.0 + std::abs(value))) added |= add_piece(curve, j);
        }
        if (!added) break;
    }
    out.solution.objective += constant;
    if (!out.solution.proven_optimal && !out.solution.proven_infeasible)  // the whole loop's limit, not the last solve's
        out.solution.status = fmt::format("stopped at options.time_limit_seconds = {:g} {} a feasible plan",
                                          o.time_limit_seconds, out.solution.feasible ? "with" : "without");
    if (!out.solution.feasible) return out;
    out.plan.name = "recommended";
    for (const OwnedPurchase& p : owned)
        if (p.gpus > 0) out.plan.owned.push_back(p);
    const std::vector<CommitmentOption>& options = o.commitments;
    for (std::size_t k = 0; k < x.size(); ++k) {
        const double count = std::round(out.solution.x[std::size_t(x[k])]);
        if (count <= 0.0) continue;
        const Candidate& c = setup.candidates[k];
        Commitment commitment;
        commitment.count = count;
        commitment.unit = o.unit;
        commitment.term_years = c.term_months / months_per_year;
        commitment.start_month = c.start;
        commitment.renewal = Renewal::lapse;
        if (options.empty()) {
            commitment.payment = offering.reserved[c.option].payment;
        } else {
            commitment.payment = options[c.option].payment;
            commitment.discount = options[c.option].discount;
        }
        out.plan.commitments.push_back(commitment);
    }
    if (spot) {
        const double gpus = out.solution.x[std::size_t(spot_gpus)];
        if (gpus > 1e-9)
            out.plan.spot = SpotShare{.gpus = gpus, .price_per_gpu_hour = spot->price_per_gpu_hour,
                                      .overhead = spot->overhead, .availability = spot->availability, .periods = {}};
    }
    return out;
}

/// The owned purchases to try: every combination of counts at the option's months (only "none"
/// without options.owned), less those whose capex alone breaks limits.upfront_per_period.
std::vector<std::vector<OwnedPurchase>> owned_combinations(const RecommendOptions& o, int horizon) {
    if (!o.owned) return {{}};
    const OwnedOption& owned = *o.owned;
    const int levels = owned.max_gpus / owned.step_gpus + 1;
    std::vector<int> counts(owned.months.size(), 0);  // an odometer over the months' counts
    std::vector<std::vector<OwnedPurchase>> out;
    for (;;) {
        std::vector<OwnedPurchase> choice;
        for (std::size_t i = 0; i < counts.size(); ++i)
            if (counts[i] > 0)
                choice.push_back({.gpus = double(counts[i] * owned.step_gpus), .month = owned.months[i], .terms = owned.terms});
        bool within = true;
        if (o.limits.upfront_per_period)
            for (int first = 0; first < horizon; first += o.limits.upfront_period_months)
                within = within && owned_capex_in(choice, first, o.limits.upfront_period_months, horizon) <=
                                       *o.limits.upfront_per_period * (1 + 1e-12);
        if (within) out.push_back(std::move(choice));
        std::size_t i = 0;
        while (i < counts.size() && ++counts[i] == levels) counts[i++] = 0;
        if (i == counts.size()) break;
    }
    return out;
}

/// Why `spot` may not be tried under `limits`, or "" when it may.
std::string excluded_by(const SpotOption& spot, const RiskLimits& limits) {
    if (!limits.deadline_miss_probability) return {};
    const double limit = *limits.deadline_miss_probability;
    if (!spot.deadline_miss_probability)
        return fmt::format("deadline-miss probability not given, limits.deadline_miss_probability = {:g}", limit);
    if (*spot.deadline_miss_probability > limit)
        return fmt::format("deadline-miss probability {:g} > limits.deadline_miss_probability = {:g}",
                           *spot.deadline_miss_probability, limit);
    return {};
}

double objective_of(const PlanDistribution& d, Objective objective) {
    return objective == Objective::expected_npv ? d.npv.mean : d.total.mean;
}
double cvar_of(const PlanDistribution& d, Objective objective) {
    return objective == Objective::expected_npv ? d.npv.cvar95 : d.total.cvar95;
}

}  // namespace

Recommendation recommend_plan(const DemandFutures& futures, const Offering& offering, const RecommendOptions& options,
                              const PricePaths& prices) {
    validate(futures, offering, options, prices);
    const auto started = std::chrono::steady_clock::now();
    const Setup setup = set_up(futures, offering, options);

    Plan on_demand;
    on_demand.name = "all on demand";
    const PlanDistribution on_demand_result = evaluate_plan(on_demand, futures, offering, prices, options.plan_options);

    Recommendation best;
    bool found = false;
    double best_engine = infinity;
    std::vector<const SpotOption*> spots{nullptr};
    for (const SpotOption& s : options.spot) spots.push_back(&s);
    std::string exclusions;  // for the status: which spot options were not tried, and why
    std::size_t excluded_count = 0;
    bool timed_out = false;  // some solve stopped at the time limit without a plan or a proof there is none
    const std::vector<std::vector<OwnedPurchase>> owned_choices = owned_combinations(options, setup.horizon);
    for (std::size_t choice = 0; choice < owned_choices.size(); ++choice)
    for (const SpotOption* spot : spots) {
        if (spot) {
            std::string why = excluded_by(*spot, options.limits);
            if (!why.empty()) {
                if (choice > 0) continue;  // said once
                exclusions += fmt::format("; spot option \"{}\" not tried: {}", spot->name, why);
                ++excluded_count;
                best.candidates.push_back({.spot_option = spot->name, .excluded = std::move(why), .solver_objective = 0,
                                           .engine_objective = 0, .proven_optimal = false, .plan = {}});
                continue;
            }
        }
        Solved solved = solve_one(futures, offering, options, prices, setup, spot, owned_choices[choice]);
        timed_out = timed_out || (!solved.solution.feasible && !solved.solution.proven_infeasible);
        CandidateResult candidate;
        candidate.spot_option = spot ? spot->name : "none";
        candidate.proven_optimal = solved.solution.proven_optimal;
        if (!solved.solution.feasible) {
            best.candidates.push_back(candidate);
            if (!found) best.status = solved.solution.status;
            continue;
        }
        PlanDistribution d = evaluate_plan(solved.plan, futures, offering, prices, options.plan_options);
        candidate.solver_objective = solved.solution.objective;
        candidate.engine_objective = objective_of(d, options.objective);
        candidate.plan = solved.plan;
        best.candidates.push_back(candidate);
        if (candidate.engine_objective < best_engine) {
            best_engine = candidate.engine_objective;
            best.plan = solved.plan;
            best.in_sample = std::move(d);
            best.solver_objective = solved.solution.objective;
            best.proven_optimal = solved.solution.proven_optimal;
            best.status = solved.solution.status;
            found = true;
        }
    }
    const double on_demand_cvar = cvar_of(on_demand_result, options.objective);
    const bool on_demand_allowed = !options.limits.cvar95 || on_demand_cvar <= *options.limits.cvar95;
    if (!found) {
        if (options.limits.cvar95 && !on_demand_allowed && timed_out)
            fail("options.time_limit_seconds", options.time_limit_seconds,
                 fmt::format("the solver found no plan within limits.cvar95 = {:g} in that time (all on demand "
                             "has CVaR95 {:.2f}); allow more time or fewer futures",
                             *options.limits.cvar95, on_demand_cvar));
        if (options.limits.cvar95 && !on_demand_allowed)
            fail("limits.cvar95", *options.limits.cvar95,
                 fmt::format("no plan meets it over these futures (all on demand has CVaR95 {:.2f}; solver: {})",
                             on_demand_cvar, best.status));
        best.plan = on_demand;
        best.in_sample = on_demand_result;
        best.solver_objective = objective_of(on_demand_result, options.objective);
    } else if (on_demand_allowed && objective_of(on_demand_result, options.objective) < best_engine) {
        // The engine has the last word: an approximated month shape may make a plan look cheaper than it is.
        best.plan = on_demand;
        best.in_sample = on_demand_result;
        best.status += "; all on demand was cheaper in the engine";
    }
    best.status += exclusions;
    if (excluded_count > 0 && excluded_count == options.spot.size())
        best.status += "; every spot option excluded: the plan runs without spot";
    best.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return best;
}

HindsightBound hindsight_plan_totals(const DemandFutures& futures, const Offering& offering,
                                     const RecommendOptions& options, const PricePaths& prices) {
    validate(futures, offering, options, prices);
    RecommendOptions alone = options;
    alone.limits = {};  // but not the spot options the deadline-miss limit excludes: they are not per future
    alone.limits.deadline_miss_probability = options.limits.deadline_miss_probability;
    alone.plan_options.threads = 1;
    const std::size_t n = futures.count();
    HindsightBound out;
    out.totals.resize(n);
    out.plans.resize(n);
    std::vector<char> exact(n, 1);
    std::atomic<std::size_t> next{0};
    std::mutex failure_mutex;
    std::exception_ptr failure;
    const auto work = [&] {
        for (std::size_t f = next++; f < n; f = next++) {
            try {
                PricePaths column;
                if (!prices.empty()) {
                    const Eigen::Index c = prices.column(f);
                    column.on_demand = prices.on_demand.col(c);
                    column.spot = prices.spot.col(c);
                    column.reserved = prices.reserved.col(c);
                }
                const Recommendation r = recommend_plan(futures.future(f), offering, alone, column);
                out.totals[f] = objective_of(r.in_sample, options.objective);
                out.plans[f] = r.plan;
                // Exact: the programme proved its optimum and prices it as the engine does.
                exact[f] = r.proven_optimal &&
                           std::abs(r.solver_objective - out.totals[f]) <= 1e-7 * (1.0 + std::abs(out.totals[f]));
            } catch (...) {
                const std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
                next = n;
            }
        }
    };
    unsigned threads = options.plan_options.threads;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    {
        std::vector<std::jthread> workers;
        for (unsigned t = 1; t < std::min<std::size_t>(threads, n); ++t) workers.emplace_back(work);
        work();
    }
    if (failure) std::rethrow_exception(failure);
    out.exact = std::all_of(exact.begin(), exact.end(), [](char e) { return e != 0; });
    return out;
}

std::vector<FrontierPoint> cost_risk_frontier(const DemandFutures& futures, const Offering& offering,
                                              const std::vector<double>& cvar95_limits, const RecommendOptions& options,
                                              const PricePaths& prices) {
    std::vector<FrontierPoint> points;
    for (double limit : cvar95_limits) {
        RecommendOptions o = options;
        o.limits.cvar95 = limit;
        FrontierPoint point;
        point.cvar95_limit = limit;
        try {
            const Recommendation r = recommend_plan(futures, offering, o, prices);
            point.feasible = true;
            point.mean = objective_of(r.in_sample, o.objective);
            point.cvar95 = cvar_of(r.in_sample, o.objective);
            point.p95 = o.objective == Objective::expected_npv ? r.in_sample.npv.p95 : r.in_sample.total.p95;
            point.recommended = r.plan;
            point.recommended.name.clear();  // the plan's parts, not the name "recommended"
            point.plan = describe(point.recommended);
        } catch (const InvalidInput& e) {
            if (std::string_view(e.what()).rfind("limits.cvar95", 0) != 0) throw;  // only "no plan meets it"
            point.reason = e.what();
        }
        points.push_back(point);
    }
    return points;
}

SpotOption spot_option(std::string name, const SpotResult& simulated, const Job& job, double availability) {
    job.validate();
    require(simulated.paths >= 1, "spot_result.paths", simulated.paths, "must be >= 1 (run simulate_spot first)");
    return {.name = std::move(name),
            .overhead = simulated.charged_hours.mean / job.work_hours,
            .availability = require_fraction("spot.availability", availability),
            .price_per_gpu_hour = {},
            .deadline_miss_probability = simulated.deadline_miss_probability};
}

std::vector<Plan> baseline_plans(const DemandProfile& history, const Offering& offering, int term_years,
                                 Payment payment, const PlanOptions& options) {
    require(term_years >= 1 && term_years <= 5, "term_years", term_years, "must be in [1, 5]");
    const auto price = offering.reserved_price(term_years, payment);
    if (!price)
        fail("term_years", fmt::format("{}y {}", term_years, to_string(payment)),
             fmt::format("offering {} lists no such reservation price", offering.key()));
    std::vector<Plan> plans;
    Plan on_demand;
    on_demand.name = "all on demand";
    plans.push_back(on_demand);
    const auto reserve = [&](double gpus, std::string name) {
        Plan plan;
        plan.name = std::move(name);
        if (gpus > 0)
            plan.commitments.push_back({.count = gpus, .unit = CountUnit::gpus, .term_years = term_years,
                                        .payment = payment, .start_month = 0, .renewal = Renewal::renew,
                                        .discount = {}, .offering = {}});
        plans.push_back(plan);
    };
    // The newsvendor level over a window: the smallest whole r with F(r) >= 1 − c_r / p.
    const Discounts& d = options.discounts;
    const double rate = (price->upfront / (term_years * hours_per_year) + price->hourly) / offering.gpus_per_instance;
    const double on_demand_rate = offering.on_demand_per_gpu_hour() * (1.0 - d.plan_discount);
    const double critical = std::max(0.0, 1.0 - rate / on_demand_rate);
    const Eigen::ArrayXd& hours = history.gpus_per_hour();
    for (int days : {7, 30, 60}) {
        const auto window = std::min<Eigen::Index>(hours.size(), Eigen::Index(days) * 24);
        std::vector<double> last(hours.data() + hours.size() - window, hours.data() + hours.size());
        std::sort(last.begin(), last.end());
        const auto needed = std::size_t(std::ceil(critical * double(last.size()) - 1e-9));
        const double gpus = needed == 0 ? 0.0 : std::ceil(last[needed - 1] - 1e-9);
        reserve(gpus, fmt::format("lookback {} days: {:g} GPUs {}y {}", days, gpus, term_years, to_string(payment)));
    }
    const ReservationAdvice advice = optimal_reservation(
        history, offering, Reserved{.term_years = term_years, .payment = payment, .discount = {}, .renewal = Renewal::renew},
        EvaluationOptions{.discounts = options.discounts, .annual_discount_rate = options.annual_discount_rate});
    reserve(advice.reserved_gpus,
            fmt::format("newsvendor on the history: {:g} GPUs {}y {}", advice.reserved_gpus, term_years, to_string(payment)));
    return plans;
}

}  // namespace gputco
