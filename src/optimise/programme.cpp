// One solve of the recommender's programme (see programme.hpp). Each (future, month) gets a variable u
// for the GPU-hours the commitments serve, bounded by tangent lines of the concave served-hours curve
// S(C) = Σ_h min(L s_h, C); with spot a second one, v, for what commitments and spot serve together,
// S(C + s). Cost is then linear:
//   month cost = p D − (p (1 − a) + ρ a) u − a (p − ρ) v     (p on demand, ρ spot per useful hour, a availability)
// plus each commitment's fees, so the whole sample-average problem is a MIP in the commitment counts.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "programme.hpp"
#include "tail_cuts.hpp"
#include "../engines/instruments/commitment_change.hpp"

namespace gputco::detail {
namespace {

/// A hypograph variable `column` <= a concave piecewise-linear curve of (capacity [+ spot]) GPUs,
/// its pieces in GPUs and GPU-hours; rows are added only for the pieces a solution needs.
struct Curve {
    int column = -1;
    int capacity = -1;
    int spot = -1;  ///< -1: the curve is of the committed capacity alone
    std::vector<Cut> pieces;
    std::vector<char> added;
};

/// Prices per hour before the price paths' factors, as the plan engine charges them.
struct Rates {
    double voucher = 1;
    double on_demand = 0;  ///< p: region, on-demand discount and voucher
    double spot = 0;       ///< ρ per useful hour: overhead and voucher (0 without spot)
    double availability = 0;
};

Rates rates_of(const Offering& offering, const RecommendOptions& o, const SpotOption* spot) {
    const Discounts& d = o.plan_options.discounts;
    Rates r;
    r.voucher = d.voucher_price_factor;
    r.on_demand = offering.on_demand_per_gpu_hour() * d.region_price_factor * (1.0 - d.on_demand_discount) * r.voucher;
    if (spot) {
        const double listed = spot->price_per_gpu_hour ? *spot->price_per_gpu_hour
                                                       : *offering.spot_per_gpu_hour() * d.region_price_factor;
        r.spot = listed * spot->overhead * r.voucher;
        r.availability = spot->availability;
    }
    return r;
}

/// The programme as it is built: its columns, the curves bounding its hypograph variables, and the
/// constant its objective leaves out.
struct Programme {
    Mip mip;
    std::vector<int> x;                     ///< commitment counts, one per candidate
    std::vector<double> savings_plan_factor;  ///< per candidate: the reservation factor of its start month
    std::vector<std::vector<double>> cost;  ///< [candidate][future] weighted cost of one unit
    std::vector<int> capacity;              ///< committed (and owned) GPUs per month
    /// Reserved (and owned, held) GPUs per month without Savings Plans: only with a capacity-assurance
    /// limit and Savings Plans to buy (a Savings Plan is a price, not capacity set aside).
    std::vector<int> reserved;
    std::vector<double> reach;              ///< per month, the most capacity + spot can be
    int spot_gpus = -1;
    std::vector<Curve> curves;
    double constant = 0;
    /// Capacity blocks (add_capacity_blocks): whole-instance columns and each one's weighted cost
    /// per instance (the same in every future: paid at purchase, price set then).
    std::vector<int> blocks;
    std::vector<double> block_cost;
    /// Flex-start requests (add_capacity_blocks): whole-instance columns and, per future, one instance's
    /// weighted cost there (0 where it is refused; the on-demand factor of each month where granted).
    std::vector<int> flex;
    std::vector<std::vector<double>> flex_cost;
    /// Per month touched by a window or a block, one argument per piece (setup.pieces): the column of
    /// committed capacity + the blocks in force there, what the tiers serve up to in that piece.
    struct Argument {
        int column = -1;
        double weight = 0;  ///< the piece's share of the month's hours
        double extra = 0;   ///< window GPUs every hour of it
        double reach = 0;   ///< the most capacity + blocks + spot can be there
        /// The futures it stands for (those granting the same flex-start requests in force); empty = all.
        std::vector<char> in;
        bool holds(std::size_t f) const { return in.empty() || in[f] != 0; }
    };
    std::vector<std::vector<Argument>> arguments;
    /// Changes of held reservations (setup.changes): per candidate, a binary column (made or not) and,
    /// for an exchange, the new reservation's whole units (-1 otherwise) with their upper bound.
    std::vector<int> change;
    std::vector<int> exchanged;
    std::vector<double> exchanged_most;
    std::vector<int> true_up;  ///< an exchange's true-up paid (-1 otherwise)
};

/// The change columns, each held reservation changed at most once, an exchange's units only with it and
/// worth at least what is left of the old one (the engine's rule: equal or greater value), its true-up
/// t >= the units' upfront − the old upfront left, t >= 0 (exact: t only costs), and Azure's refund cap
/// over every 12 consecutive months.
void add_changes(Programme& p, const RecommendOptions& o, const Setup& setup, double peak) {
    std::map<std::size_t, std::vector<int>> of_held;
    for (const ChangeCandidate& c : setup.changes) {
        p.change.push_back(p.mip.add_column(0.0, 1.0, c.cost, true));
        of_held[c.held].push_back(p.change.back());
        if (c.kind != ChangeKind::exchange && c.kind != ChangeKind::azure_exchange) {
            p.exchanged.push_back(-1);
            p.exchanged_most.push_back(0);
            p.true_up.push_back(-1);
            continue;
        }
        // More units than the value needs and the peak holds cost more and serve nothing more.
        const double most = std::min(o.max_count, std::max(std::ceil(c.old_value / c.value_per_unit * (1 - 1e-12)),
                                                           std::ceil(peak / c.gpus_per_unit)));
        p.exchanged.push_back(p.mip.add_column(0.0, most, c.unit_cost, true));
        p.exchanged_most.push_back(most);
        p.mip.add_row({p.exchanged.back(), p.change.back()}, {1.0, -most}, 'L', 0.0);
        p.mip.add_row({p.exchanged.back(), p.change.back()}, {c.value_per_unit, -c.old_value}, 'G', 0.0);
        if (c.kind == ChangeKind::azure_exchange) {  // bought in full: its upfront is in the unit's cost
            p.true_up.push_back(-1);
            continue;
        }
        p.true_up.push_back(p.mip.add_column(0.0, infinity, c.true_up_weight, false));
        p.mip.add_row({p.true_up.back(), p.exchanged.back(), p.change.back()}, {1.0, -c.upfront_per_unit, c.old_upfront},
                      'G', 0.0);
    }
    for (const auto& [held, columns] : of_held)
        if (columns.size() > 1) p.mip.add_row(columns, std::vector<double>(columns.size(), 1.0), 'L', 1.0);
    int first = std::numeric_limits<int>::max(), last = -1;
    for (const ChangeCandidate& c : setup.changes)
        if (c.kind == ChangeKind::refund) first = std::min(first, c.month), last = std::max(last, c.month);
    for (int from = first - instruments::refund_window_months + 1; from <= last; ++from) {
        std::vector<int> cols;
        std::vector<double> coef;
        double most = 0;
        for (std::size_t j = 0; j < setup.changes.size(); ++j) {
            const ChangeCandidate& c = setup.changes[j];
            if (c.kind != ChangeKind::refund || c.month < from || c.month >= from + instruments::refund_window_months)
                continue;
            cols.push_back(p.change[j]);
            coef.push_back(c.amount);
            most += c.amount;
        }
        if (most > instruments::azure_refund_cap) p.mip.add_row(cols, coef, 'L', instruments::azure_refund_cap);
    }
}

/// Month m's committed GPUs moved by the changes into `cols`/`coef` of a row `capacity − … = fixed`: a
/// change stops its held GPUs from its month (+gpus on its column), an exchange's new reservation adds
/// its units while it runs (− GPUs per unit) unless `held_only`.
void add_change_terms(const Programme& p, const Setup& setup, int m, bool held_only, std::vector<int>& cols,
                      std::vector<double>& coef) {
    for (std::size_t j = 0; j < setup.changes.size(); ++j) {
        const ChangeCandidate& c = setup.changes[j];
        if (m >= c.month && m < c.held_end) {
            cols.push_back(p.change[j]);
            coef.push_back(c.gpus);
        }
        if (!held_only && p.exchanged[j] >= 0 && m >= c.month && m < c.end) {
            cols.push_back(p.exchanged[j]);
            coef.push_back(-c.gpus_per_unit);
        }
    }
}

/// The commitment columns (objective: their mean cost per unit over futures) and each month's
/// capacity, owned GPUs included (they serve first: the curves start above them).
void add_commitments(Programme& p, const DemandFutures& futures, const RecommendOptions& o, const PricePaths& prices,
                     const Setup& setup, const Rates& rates, const std::vector<OwnedPurchase>& owned, double peak) {
    const std::size_t n = futures.count();
    std::vector<double> most;  // per candidate: more units than hold the peak serve nothing in any month
    for (const Candidate& c : setup.candidates) most.push_back(std::min(o.max_count, std::ceil(peak / c.gpus_per_unit)));
    p.cost.assign(setup.candidates.size(), std::vector<double>(n));
    for (std::size_t k = 0; k < setup.candidates.size(); ++k) {
        const Candidate& c = setup.candidates[k];
        double weights = 0;
        for (int m = c.start; m < c.start + c.term_months; ++m) weights += setup.weight[std::size_t(m)];
        double mean = 0;
        for (std::size_t f = 0; f < n; ++f) {
            const double r = factor_of(prices, prices.reserved_for(c.term_months), f, c.start);
            p.cost[k][f] = rates.voucher * c.gpus_per_unit * r *
                           (c.upfront_per_gpu * setup.weight[std::size_t(c.start)] +
                            c.hourly_per_gpu * hours_per_month * weights);
            mean += p.cost[k][f];
        }
        // Removing a unit beyond `most` keeps every month it covers at or above the peak: no dearer. A
        // Savings Plan's level is continuous (a $/hour commitment, any amount), in whole instances' worth
        // when billed per instance (set_up).
        p.x.push_back(p.mip.add_column(0.0, most[k], mean / double(n), c.savings_plan < 0 || c.gpus_per_unit > 1.0));
        p.savings_plan_factor.push_back(factor_of(prices, prices.reserved, 0, c.start));
    }
    add_changes(p, o, setup, peak);
    for (int m = 0; m < setup.horizon; ++m) {
        p.capacity.push_back(p.mip.add_column(0.0, infinity, 0.0, false));
        std::vector<int> cols{p.capacity.back()};
        std::vector<double> coef{1.0};
        const double fixed = owned_held(owned, m) + setup.held_gpus[std::size_t(m)];  // owned and held serve first
        p.reach.push_back(fixed + peak);  // + spot, at most the peak
        add_change_terms(p, setup, m, false, cols, coef);
        for (std::size_t j = 0; j < p.exchanged.size(); ++j)
            if (p.exchanged[j] >= 0 && m >= setup.changes[j].month && m < setup.changes[j].end)
                p.reach.back() += p.exchanged_most[j] * setup.changes[j].gpus_per_unit;
        for (std::size_t k = 0; k < p.x.size(); ++k)
            if (setup.candidates[k].active(m)) {
                cols.push_back(p.x[k]);
                coef.push_back(-setup.candidates[k].gpus_per_unit);
                p.reach.back() += most[k] * setup.candidates[k].gpus_per_unit;
            }
        p.mip.add_row(cols, coef, 'E', fixed);
    }
    const bool savings_plans = std::any_of(setup.candidates.begin(), setup.candidates.end(),
                                           [](const Candidate& c) { return c.savings_plan >= 0; });
    if (!o.limits.capacity_assurance || !savings_plans) return;
    for (int m = 0; m < setup.horizon; ++m) {
        p.reserved.push_back(p.mip.add_column(0.0, infinity, 0.0, false));
        std::vector<int> cols{p.reserved.back()};
        std::vector<double> coef{1.0};
        for (std::size_t k = 0; k < p.x.size(); ++k)
            if (setup.candidates[k].active(m) && setup.candidates[k].savings_plan < 0) {
                cols.push_back(p.x[k]);
                coef.push_back(-setup.candidates[k].gpus_per_unit);
            }
        add_change_terms(p, setup, m, false, cols, coef);
        p.mip.add_row(cols, coef, 'E', owned_held(owned, m) + setup.held_gpus[std::size_t(m)]);
    }
}

/// The most GPUs any future asks for in any hour, dated windows included: spot beyond it serves nothing.
double peak_of(const DemandFutures& futures, const Setup& setup) {
    double peak = 0;
    for (std::size_t f = 0; f < futures.count(); ++f)
        for (int m = 0; m < futures.month_count(); ++m) {
            const double window = setup.window_peak.empty() ? 0.0 : setup.window_peak[std::size_t(m)];
            const double top = futures.shape(f, m).sorted.empty() ? 0.0 : futures.shape(f, m).sorted.back();
            peak = std::max(peak, futures.level(f, m) * top + window);
        }
    return peak;
}

/// The capacity-block columns (whole instances, paid in full at purchase: a cost the same in every
/// future) and, per piece of a month touched by a window or a block, its argument column: the month's
/// committed capacity plus the blocks in force there. A block serves first, but both are paid whatever
/// they serve, so what the two serve together is the served hours up to their sum (the engine's block
/// hours plus what its tiers serve above them).
void add_capacity_blocks(Programme& p, const DemandFutures& futures, const PricePaths& prices,
                         const RecommendOptions& o, const Setup& setup, const Rates& rates, double peak) {
    std::vector<double> most;
    for (const BlockCandidate& b : setup.blocks) {
        const int kind_most = b.block.kind == BlockKind::gcp_calendar_mode ? CapacityBlock::calendar_max_instances
                                                                            : CapacityBlock::max_instances;
        most.push_back(std::min({double(kind_most), o.max_count, std::ceil(peak / b.gpus_per_instance)}));
        double cost = 0;  // at purchase (AWS) or as the hours run (calendar mode), weighted as the objective
        for (const auto& [m, paid] : b.payments) cost += paid * setup.weight[std::size_t(m)];
        p.block_cost.push_back(rates.voucher * cost);
        p.blocks.push_back(p.mip.add_column(0.0, most.back(), p.block_cost.back(), true));
    }
    // Flex-start requests: paid only in the futures that grant them, as their hours run, at the
    // on-demand price of each month (× the price path's factor), weighted as the objective.
    const std::size_t n = futures.count();
    std::vector<double> flex_most;
    for (const FlexCandidate& k : setup.flex) {
        flex_most.push_back(std::min(o.max_count, std::ceil(peak / k.gpus_per_instance)));
        std::vector<double> cost(n, 0.0);
        double mean = 0;
        for (std::size_t f = 0; f < n; ++f) {
            if (!k.granted[f]) continue;
            for (const auto& [m, paid] : k.payments)
                cost[f] += rates.voucher * paid * factor_of(prices, prices.on_demand, f, m) * setup.weight[std::size_t(m)];
            mean += cost[f] / double(n);
        }
        p.flex_cost.push_back(std::move(cost));
        p.flex.push_back(p.mip.add_column(0.0, flex_most.back(), mean, true));
    }
    p.arguments.assign(std::size_t(setup.horizon), {});
    for (int m = 0; m < setup.horizon; ++m)
        for (const WindowPiece& piece : setup.pieces[std::size_t(m)]) {
            // One argument per pattern of the piece's flex-start requests granted: the futures of each
            // pattern see the committed capacity, the blocks and the requests they grant.
            std::vector<std::vector<char>> patterns;
            std::vector<std::vector<char>> members;
            for (std::size_t f = 0; f < n; ++f) {
                std::vector<char> pattern;
                for (std::size_t j : piece.flex) pattern.push_back(setup.flex[j].granted[f]);
                auto at = std::find(patterns.begin(), patterns.end(), pattern);
                if (at == patterns.end()) {
                    patterns.push_back(pattern);
                    members.emplace_back(n, 0);
                    at = patterns.end() - 1;
                }
                members[std::size_t(at - patterns.begin())][f] = 1;
            }
            for (std::size_t q = 0; q < patterns.size(); ++q) {
                Programme::Argument arg;
                arg.column = p.mip.add_column(0.0, infinity, 0.0, false);
                arg.weight = piece.weight;
                arg.extra = piece.extra;
                arg.reach = p.reach[std::size_t(m)];
                if (patterns.size() > 1 || !piece.flex.empty()) arg.in = members[q];
                std::vector<int> cols{arg.column, p.capacity[std::size_t(m)]};
                std::vector<double> coef{1.0, -1.0};
                for (std::size_t j : piece.blocks) {
                    cols.push_back(p.blocks[j]);
                    coef.push_back(-setup.blocks[j].gpus_per_instance);
                    arg.reach += most[j] * setup.blocks[j].gpus_per_instance;
                }
                for (std::size_t i = 0; i < piece.flex.size(); ++i) {
                    if (!patterns[q][i]) continue;
                    const std::size_t j = piece.flex[i];
                    cols.push_back(p.flex[j]);
                    coef.push_back(-setup.flex[j].gpus_per_instance);
                    arg.reach += flex_most[j] * setup.flex[j].gpus_per_instance;
                }
                p.mip.add_row(cols, coef, 'E', 0.0);
                p.arguments[std::size_t(m)].push_back(std::move(arg));
            }
        }
}

/// One future's month in a piece with `extra` window GPUs, in GPUs: S_L shifted by the window.
std::vector<Cut> piece_curve(const std::vector<Cut>& cuts, double level, double extra) {
    return shifted(level > 0.0 ? scaled(cuts, level) : std::vector<Cut>{{0.0, 0.0, 0.0}}, extra);
}

/// G(capacity + spot) as a cost, exactly, for G concave and piecewise linear (`pieces` in GPUs from 0,
/// the last flat; spot -1: of the capacity alone): a concave cost is no linear programme, so the sum y is split into the pieces'
/// lengths δ_j filled in order (binary z_j: piece j is full; δ_j >= len_j z_j, δ_{j+1} <= len_{j+1} z_j)
/// and what lies beyond the last breakpoint, at most reach × z_last. Each δ_j costs `scale` × slope_j
/// in the objective; returns the δ columns with their slopes, G(y) = Σ slope_j δ_j.
std::vector<std::pair<int, double>> add_filled_curve(Mip& mip, const std::vector<Cut>& pieces, int capacity, int spot,
                                                     double reach, double scale) {
    std::vector<std::pair<int, double>> out;
    if (pieces.size() < 2) return out;  // flat from 0: G is 0
    std::vector<int> cols{capacity}, zs;
    std::vector<double> coef{-1.0};
    if (spot >= 0) cols.push_back(spot), coef.push_back(-1.0);  // -1: the curve of the capacity alone
    for (std::size_t j = 0; j + 1 < pieces.size(); ++j) {
        const double length = pieces[j + 1].value - pieces[j].value;
        const int delta = mip.add_column(0.0, length, scale * pieces[j].slope, false);
        const int z = mip.add_column(0.0, 1.0, 0.0, true);
        mip.add_row({delta, z}, {1.0, -length}, 'G', 0.0);
        if (!zs.empty()) mip.add_row({delta, zs.back()}, {1.0, -length}, 'L', 0.0);
        zs.push_back(z);
        cols.push_back(delta);
        coef.push_back(1.0);
        out.push_back({delta, pieces[j].slope});
    }
    const int beyond = mip.add_column(0.0, std::max(0.0, reach - pieces.back().value), 0.0, false);
    mip.add_row({beyond, zs.back()}, {1.0, -std::max(0.0, reach - pieces.back().value)}, 'L', 0.0);
    cols.push_back(beyond);
    coef.push_back(1.0);
    mip.add_row(cols, coef, 'E', 0.0);
    return out;
}

/// Each month's shape cut into pieces once, however many futures share it.
class ShapeCuts {
public:
    explicit ShapeCuts(int max_blocks) : max_blocks_(max_blocks) {}
    const std::vector<Cut>& operator()(const MonthShape& shape) {
        auto it = by_shape_.find(&shape);
        if (it == by_shape_.end()) it = by_shape_.emplace(&shape, cuts_of(shape, max_blocks_)).first;
        return it->second;
    }

private:
    int max_blocks_;
    std::map<const MonthShape*, std::vector<Cut>> by_shape_;
};

/// add_mean_curves for a month touched by windows or blocks: per piece, the curves over futures of the
/// month with the piece's window GPUs on every hour, at the piece's argument, weighted by its share.
void add_window_mean_curves(Programme& p, const DemandFutures& futures, const PricePaths& prices, const Setup& setup,
                            const Rates& rates, bool with_spot, ShapeCuts& cuts, int m) {
    const std::size_t n = futures.count();
    const double a = rates.availability;
    const double w = setup.weight[std::size_t(m)];
    for (const Programme::Argument& arg : p.arguments[std::size_t(m)]) {
        std::vector<std::vector<Cut>> own;
        own.reserve(n);  // the terms point into it
        std::vector<std::pair<double, const std::vector<Cut>*>> terms, dearer_terms;
        std::vector<double> alphas, betas, dearer;
        for (std::size_t f = 0; f < n; ++f) {
            if (!arg.holds(f)) continue;
            const double level = futures.level(f, m);
            const MonthShape& shape = futures.shape(f, m);
            const double od = rates.on_demand * factor_of(prices, prices.on_demand, f, m);
            const double rho = rates.spot * factor_of(prices, prices.spot, f, m);
            const double ww = w * arg.weight;
            p.constant += ww * od * (level * shape.total() + arg.extra * hours_per_month) / double(n);
            if (level <= 0.0 && arg.extra <= 0.0) continue;
            own.push_back(piece_curve(cuts(shape), level, arg.extra));
            terms.push_back({1.0, &own.back()});
            alphas.push_back(ww * (od * (1.0 - a) + rho * a) / double(n));
            betas.push_back(with_spot ? std::max(0.0, ww * a * (od - rho)) / double(n) : 0.0);
            if (with_spot && rho > od && a > 0.0) {
                dearer_terms.push_back(terms.back());
                dearer.push_back(ww * a * (rho - od) / double(n));
            }
        }
        if (terms.empty()) continue;
        p.curves.push_back({p.mip.add_column(0.0, infinity, -1.0, false), arg.column, -1, sum_of_pieces(terms, alphas), {}});
        if (with_spot && *std::max_element(betas.begin(), betas.end()) > 0.0)
            p.curves.push_back({p.mip.add_column(0.0, infinity, -1.0, false), arg.column, p.spot_gpus,
                                sum_of_pieces(terms, betas), {}});
        if (!dearer_terms.empty())
            add_filled_curve(p.mip, sum_of_pieces(dearer_terms, dearer), arg.column, p.spot_gpus, arg.reach, 1.0);
    }
}

/// Without a per-future limit the mean cost is separable by month: one concave curve a month (a sum
/// over futures) for what commitments serve and one for commitments plus spot.
void add_mean_curves(Programme& p, const DemandFutures& futures, const PricePaths& prices, const Setup& setup,
                     const Rates& rates, bool with_spot, ShapeCuts& cuts) {
    const std::size_t n = futures.count();
    const double a = rates.availability;
    for (int m = 0; m < setup.horizon; ++m) {
        if (!p.arguments.empty() && !p.arguments[std::size_t(m)].empty()) {
            add_window_mean_curves(p, futures, prices, setup, rates, with_spot, cuts, m);
            continue;
        }
        const double w = setup.weight[std::size_t(m)];
        std::vector<std::pair<double, const std::vector<Cut>*>> terms;
        std::vector<std::pair<double, const std::vector<Cut>*>> dearer_terms;
        std::vector<double> alphas, betas, dearer;
        for (std::size_t f = 0; f < n; ++f) {
            const double level = futures.level(f, m);
            const MonthShape& shape = futures.shape(f, m);
            const double od = rates.on_demand * factor_of(prices, prices.on_demand, f, m);
            const double rho = rates.spot * factor_of(prices, prices.spot, f, m);
            p.constant += w * od * level * shape.total() / double(n);
            if (level <= 0.0) continue;
            terms.push_back({level, &cuts(shape)});
            alphas.push_back(w * (od * (1.0 - a) + rho * a) / double(n));
            // a (p − ρ) S(C + s) is a saving where spot is cheaper, a cost where it is dearer: the
            // engine runs the plan's spot in every month whatever it costs then.
            betas.push_back(with_spot ? std::max(0.0, w * a * (od - rho)) / double(n) : 0.0);
            if (with_spot && rho > od && a > 0.0) {
                dearer_terms.push_back(terms.back());
                dearer.push_back(w * a * (rho - od) / double(n));
            }
        }
        if (terms.empty()) continue;
        p.curves.push_back({p.mip.add_column(0.0, infinity, -1.0, false), p.capacity[std::size_t(m)], -1,
                            sum_of_pieces(terms, alphas), {}});
        if (with_spot && *std::max_element(betas.begin(), betas.end()) > 0.0)
            p.curves.push_back({p.mip.add_column(0.0, infinity, -1.0, false), p.capacity[std::size_t(m)], p.spot_gpus,
                                sum_of_pieces(terms, betas), {}});
        if (!dearer_terms.empty())
            add_filled_curve(p.mip, sum_of_pieces(dearer_terms, dearer), p.capacity[std::size_t(m)], p.spot_gpus,
                             p.reach[std::size_t(m)], 1.0);
    }
}

/// add_future_rows' terms of one future's month touched by windows or blocks: per piece, its served
/// hours at the piece's argument (and with spot), weighted by the piece's share; returns the month's
/// on-demand cost of all its demand (`total` = the shape's, `on_demand` = weight × price), the row's
/// constant part.
double add_window_future_terms(Programme& p, const std::vector<Cut>& cuts, double level, double total, double on_demand, double alpha,
                               double beta, std::size_t n, bool with_spot,
                               const std::vector<Programme::Argument>& arguments, std::size_t f,
                               std::vector<int>& row_cols, std::vector<double>& row_coef) {
    double constant = 0;
    for (const Programme::Argument& arg : arguments) {
        if (!arg.holds(f)) continue;
        constant += arg.weight * on_demand * (level * total + arg.extra * hours_per_month);
        if (level <= 0.0 && arg.extra <= 0.0) continue;
        const std::vector<Cut> pieces = piece_curve(cuts, level, arg.extra);
        const double al = alpha * arg.weight, be = beta * arg.weight;
        const int u = p.mip.add_column(0.0, infinity, -al / double(n), false);
        row_cols.push_back(u);
        row_coef.push_back(al);
        p.curves.push_back({u, arg.column, -1, pieces, {}});
        if (with_spot && be > 0.0) {
            const int v = p.mip.add_column(0.0, infinity, -be / double(n), false);
            row_cols.push_back(v);
            row_coef.push_back(be);
            p.curves.push_back({v, arg.column, p.spot_gpus, pieces, {}});
        } else if (with_spot && be < 0.0) {
            for (const auto& [delta, slope] : add_filled_curve(p.mip, pieces, arg.column, p.spot_gpus, arg.reach, -be / double(n))) {
                row_cols.push_back(delta);
                row_coef.push_back(be * slope);
            }
        }
    }
    return constant;
}

/// With a CVaR95 limit: each future's cost as a row, z_f + η − T_f(variables) >= constant_f, and the
/// Rockafellar–Uryasev row η + Σ z_f / ⌈5% n⌉ <= the limit (equality at the optimum over η).
void add_future_rows(Programme& p, const DemandFutures& futures, const PricePaths& prices, const Setup& setup,
                     const Rates& rates, bool with_spot, ShapeCuts& cuts, const std::vector<double>& owned_cost,
                     double cvar95) {
    const std::size_t n = futures.count();
    const double a = rates.availability;
    const double tail = std::ceil(0.05 * double(n));  // the engine's CVaR95: mean of the worst ⌈5% n⌉
    const int eta = p.mip.add_column(-infinity, infinity, 0.0, false);
    std::vector<int> tail_columns{eta};
    std::vector<double> tail_coefficients{1.0};
    for (std::size_t f = 0; f < n; ++f) {
        std::vector<int> row_cols;
        std::vector<double> row_coef;
        double constant_f = owned_cost[f] + setup.held_cost;
        for (int m = 0; m < setup.horizon; ++m) {
            const double w = setup.weight[std::size_t(m)];
            const double level = futures.level(f, m);
            const MonthShape& shape = futures.shape(f, m);
            const double od = rates.on_demand * factor_of(prices, prices.on_demand, f, m);
            const double rho = rates.spot * factor_of(prices, prices.spot, f, m);
            const double alpha = w * (od * (1.0 - a) + rho * a), beta = w * a * (od - rho);
            if (!p.arguments.empty() && !p.arguments[std::size_t(m)].empty()) {
                constant_f += add_window_future_terms(p, cuts(shape), level, shape.total(), w * od, alpha, beta, n, with_spot,
                                                      p.arguments[std::size_t(m)], f, row_cols, row_coef);
                continue;
            }
            constant_f += w * od * level * shape.total();
            if (level <= 0.0) continue;
            const int u = p.mip.add_column(0.0, infinity, -alpha / double(n), false);
            row_cols.push_back(u);
            row_coef.push_back(alpha);
            p.curves.push_back({u, p.capacity[std::size_t(m)], -1, scaled(cuts(shape), level), {}});
            if (with_spot && beta > 0.0) {
                const int v = p.mip.add_column(0.0, infinity, -beta / double(n), false);
                row_cols.push_back(v);
                row_coef.push_back(beta);
                p.curves.push_back({v, p.capacity[std::size_t(m)], p.spot_gpus, scaled(cuts(shape), level), {}});
            } else if (with_spot && beta < 0.0) {  // spot dearer than on demand: what it serves is a cost
                for (const auto& [delta, slope] : add_filled_curve(p.mip, scaled(cuts(shape), level),
                                                                   p.capacity[std::size_t(m)], p.spot_gpus,
                                                                   p.reach[std::size_t(m)], -beta / double(n))) {
                    row_cols.push_back(delta);
                    row_coef.push_back(beta * slope);
                }
            }
        }
        p.constant += constant_f / double(n);
        const int z = p.mip.add_column(0.0, infinity, 0.0, false);
        tail_columns.push_back(z);
        tail_coefficients.push_back(1.0 / tail);
        row_cols.push_back(z);
        row_coef.push_back(1.0);
        row_cols.push_back(eta);
        row_coef.push_back(1.0);
        for (std::size_t k = 0; k < p.x.size(); ++k) {
            row_cols.push_back(p.x[k]);
            row_coef.push_back(-p.cost[k][f]);
        }
        for (std::size_t j = 0; j < p.blocks.size(); ++j) {  // the same in every future
            row_cols.push_back(p.blocks[j]);
            row_coef.push_back(-p.block_cost[j]);
        }
        for (std::size_t j = 0; j < p.flex.size(); ++j) {  // paid where granted
            row_cols.push_back(p.flex[j]);
            row_coef.push_back(-p.flex_cost[j][f]);
        }
        for (std::size_t j = 0; j < p.change.size(); ++j) {  // the same in every future
            row_cols.push_back(p.change[j]);
            row_coef.push_back(-setup.changes[j].cost);
            if (p.exchanged[j] < 0) continue;
            row_cols.push_back(p.exchanged[j]);
            row_coef.push_back(-setup.changes[j].unit_cost);
            if (p.true_up[j] < 0) continue;  // an Azure exchange: no true-up
            row_cols.push_back(p.true_up[j]);
            row_coef.push_back(-setup.changes[j].true_up_weight);
        }
        p.mip.add_row(row_cols, row_coef, 'G', constant_f);
    }
    p.mip.add_row(tail_columns, tail_coefficients, 'L', cvar95);
}

/// With a CVaR95 limit and every future's cost convex in the columns (no month where spot is dearer
/// than on demand: what it serves there is a concave cost), the limit as cuts on the mean programme
/// (tail_cuts.hpp); empty otherwise, and add_future_rows writes it out in full. The mean programme
/// itself (add_mean_curves and the constant) is the caller's.
std::optional<TailCuts> tail_cuts_of(const Programme& p, const DemandFutures& futures, const PricePaths& prices,
                                     const Setup& setup, const Rates& rates, bool with_spot, ShapeCuts& cuts,
                                     const std::vector<double>& owned_cost, double cvar95) {
    // Windows of demand and capacity blocks (windows.cpp) price their months piece by piece: those
    // programmes write every future's row out in full.
    if (!p.blocks.empty() || !p.flex.empty()) return std::nullopt;
    for (const auto& month : p.arguments)
        if (!month.empty()) return std::nullopt;
    const std::size_t n = futures.count();
    const double a = rates.availability;
    std::vector<FutureCost> costs(n);
    for (std::size_t f = 0; f < n; ++f) {
        FutureCost& cost = costs[f];
        cost.constant = owned_cost[f] + setup.held_cost;
        for (int m = 0; m < setup.horizon; ++m) {
            const double w = setup.weight[std::size_t(m)];
            const double level = futures.level(f, m);
            const MonthShape& shape = futures.shape(f, m);
            const double od = rates.on_demand * factor_of(prices, prices.on_demand, f, m);
            const double rho = rates.spot * factor_of(prices, prices.spot, f, m);
            const double alpha = w * (od * (1.0 - a) + rho * a), beta = w * a * (od - rho);
            cost.constant += w * od * level * shape.total();
            if (level <= 0.0) continue;
            if (with_spot && beta < 0.0) return std::nullopt;
            const std::vector<Cut>& pieces = cuts(shape);
            cost.terms.push_back({p.capacity[std::size_t(m)], -1, alpha, level, &pieces});
            if (with_spot && beta > 0.0) cost.terms.push_back({p.capacity[std::size_t(m)], p.spot_gpus, beta, level, &pieces});
        }
    }
    std::vector<int> columns = p.x;  // the changes' columns cost the same in every future
    std::vector<std::vector<double>> linear = p.cost;
    for (std::size_t j = 0; j < p.change.size(); ++j) {
        columns.push_back(p.change[j]);
        linear.emplace_back(n, setup.changes[j].cost);
        if (p.exchanged[j] < 0) continue;
        columns.push_back(p.exchanged[j]);
        linear.emplace_back(n, setup.changes[j].unit_cost);
        if (p.true_up[j] < 0) continue;  // an Azure exchange: no true-up
        columns.push_back(p.true_up[j]);
        linear.emplace_back(n, setup.changes[j].true_up_weight);
    }
    return std::optional<TailCuts>(std::in_place, std::move(costs), std::move(columns), std::move(linear), cvar95);
}

/// limits.capacity_assurance as one row (docs/models.md, section 8). Assurance = 1 − u (D − K − P) / D
/// >= p is K + P >= D (1 − (1 − p) / u) over the sample, with K the GPU-hours reserved capacity serves
/// and P spot's: K + P = (1 − a) S(C) + a S(C + s), a hypograph of each curve (both coefficients >= 0:
/// exact). With Savings Plans K = S(R), R the reservations alone, and the −a S(C) left is a concave
/// cost in the row, so it enters exactly through add_filled_curve's binaries.
void add_assurance(Programme& p, const DemandFutures& futures, const RecommendOptions& o, const Setup& setup,
                   const Rates& rates, bool with_spot, ShapeCuts& cuts) {
    const double u = o.on_demand_capacity.unavailable_share;
    if (!o.limits.capacity_assurance || u <= 0.0) return;  // on demand is always there: every plan meets it
    double demanded = 0;
    for (std::size_t f = 0; f < futures.count(); ++f)
        for (int m = 0; m < setup.horizon; ++m) demanded += futures.level(f, m) * futures.shape(f, m).total();
    const double needed = demanded * (1.0 - (1.0 - *o.limits.capacity_assurance) / u);
    if (needed <= 0.0) return;  // all on demand meets it
    const double a = with_spot ? rates.availability : 0.0;
    const bool split = !p.reserved.empty();
    std::vector<int> cols;
    std::vector<double> coef;
    for (int m = 0; m < setup.horizon; ++m) {
        std::vector<std::pair<double, const std::vector<Cut>*>> terms;
        for (std::size_t f = 0; f < futures.count(); ++f)
            if (futures.level(f, m) > 0.0) terms.push_back({futures.level(f, m), &cuts(futures.shape(f, m))});
        if (terms.empty()) continue;
        const std::vector<Cut> pieces = sum_of_pieces(terms, std::vector<double>(terms.size(), 1.0));
        const auto hypograph = [&](int capacity, int spot, double coefficient) {
            cols.push_back(p.mip.add_column(0.0, infinity, 0.0, false));
            coef.push_back(coefficient);
            p.curves.push_back({cols.back(), capacity, spot, pieces, {}});
        };
        const int capacity = p.capacity[std::size_t(m)];
        if (split) hypograph(p.reserved[std::size_t(m)], -1, 1.0);
        else if (a < 1.0) hypograph(capacity, -1, 1.0 - a);
        if (a > 0.0) {
            hypograph(capacity, p.spot_gpus, a);
            if (split)
                for (const auto& [delta, slope] :
                     add_filled_curve(p.mip, pieces, capacity, -1, p.reach[std::size_t(m)], 0.0)) {
                    cols.push_back(delta);
                    coef.push_back(-a * slope);
                }
        }
    }
    p.mip.add_row(cols, coef, 'G', needed);  // needed > 0: some month has demand, so a term
}

/// limits.committed_share and limits.upfront_per_period as rows.
void add_limits(Programme& p, const DemandFutures& futures, const RecommendOptions& o, const PricePaths& prices,
                const Setup& setup, const Rates& rates, const std::vector<OwnedPurchase>& owned) {
    const std::size_t n = futures.count();
    const int horizon = setup.horizon;
    if (o.limits.committed_share) {
        for (int m = 0; m < horizon; ++m) {
            double mean_level = 0;
            for (std::size_t f = 0; f < n; ++f) mean_level += futures.level(f, m);
            // The share limits what is bought: GPUs already held are on top of it.
            // GPUs sold, exchanged or refunded count as held still: an exchange's new reservation is bought.
            std::vector<int> cols{p.capacity[std::size_t(m)]};
            std::vector<double> coef{1.0};
            add_change_terms(p, setup, m, true, cols, coef);
            p.mip.add_row(cols, coef, 'L',
                          *o.limits.committed_share * mean_level / double(n) + setup.held_gpus[std::size_t(m)]);
        }
    }
    if (o.limits.upfront_per_period) {
        const int period = o.limits.upfront_period_months;
        for (int first = 0; first < horizon; first += period) {
            std::vector<int> cols;
            std::vector<double> coef;
            for (std::size_t k = 0; k < p.x.size(); ++k) {
                const Candidate& c = setup.candidates[k];
                if (c.start < first || c.start >= first + period || c.upfront_per_gpu <= 0.0) continue;
                double worst = 0;  // the limit must hold in every future
                for (std::size_t f = 0; f < n; ++f)
                    worst = std::max(worst, factor_of(prices, prices.reserved_for(c.term_months), f, c.start));
                cols.push_back(p.x[k]);
                coef.push_back(rates.voucher * c.gpus_per_unit * c.upfront_per_gpu * worst);
            }
            for (std::size_t j = 0; j < p.blocks.size(); ++j) {  // paid in full at purchase, no price factor
                const BlockCandidate& b = setup.blocks[j];
                if (b.paid_as_it_runs) continue;  // calendar mode: charged as it runs, not upfront
                if (b.purchase_month < first || b.purchase_month >= first + period) continue;
                cols.push_back(p.blocks[j]);
                coef.push_back(rates.voucher * b.upfront_per_instance);
            }
            for (std::size_t j = 0; j < setup.changes.size(); ++j) {  // an exchange's true-up, paid at it
                const ChangeCandidate& c = setup.changes[j];
                if (p.exchanged[j] < 0 || c.month < first || c.month >= first + period) continue;
                if (p.true_up[j] < 0) {  // an Azure exchange: the new units' upfront, paid in full then
                    cols.push_back(p.exchanged[j]);
                    coef.push_back(rates.voucher * c.upfront_per_unit);
                    continue;
                }
                cols.push_back(p.true_up[j]);
                coef.push_back(rates.voucher);
            }
            // Owned capex in the window is fixed here; recommend_plan skips owned purchases above the limit.
            const double room = *o.limits.upfront_per_period - owned_capex_in(owned, first, period, horizon);
            if (!cols.empty()) p.mip.add_row(cols, coef, 'L', std::max(0.0, room));
        }
    }
}

/// Kelley's cutting planes: each curve starts with its first and last pieces; after each solve the
/// piece in force at the solution's capacity is added wherever the solution overrates the curve
/// there. Pieces are finitely many, so this ends at the exact optimum (all pieces would be thousands
/// of rows a month, which the simplex handles far more slowly). With `tail`, its cut for the solution
/// too (a solution above the CVaR95 limit at the time limit is no plan).
MipSolution solve_with_pieces(Programme& p, const RecommendOptions& o, TailCuts* tail) {
    const auto add_piece = [&](Curve& curve, std::size_t j) {
        if (curve.added.empty()) curve.added.assign(curve.pieces.size(), 0);
        if (curve.added[j]) return false;
        curve.added[j] = 1;
        const Cut& piece = curve.pieces[j];
        if (curve.spot >= 0)
            p.mip.add_row({curve.column, curve.capacity, curve.spot}, {1.0, -piece.slope, -piece.slope}, 'L',
                          piece.served - piece.slope * piece.value);
        else
            p.mip.add_row({curve.column, curve.capacity}, {1.0, -piece.slope}, 'L',
                          piece.served - piece.slope * piece.value);
        return true;
    };
    // The piece in force at `sol` wherever `sol` overrates a curve, and the tail's cut; whether any was added.
    const auto add_violated = [&](const std::vector<double>& sol) {
        bool added = false;
        for (Curve& curve : p.curves) {
            const double at = sol[std::size_t(curve.capacity)] + (curve.spot >= 0 ? sol[std::size_t(curve.spot)] : 0.0);
            const auto after = std::upper_bound(curve.pieces.begin(), curve.pieces.end(), at,
                                                [](double c, const Cut& piece) { return c < piece.value; });
            const auto j = std::size_t(std::max<std::ptrdiff_t>(0, after - curve.pieces.begin() - 1));
            const Cut& piece = curve.pieces[j];
            const double value = piece.served + piece.slope * (at - piece.value);
            if (sol[std::size_t(curve.column)] > value + 1e-9 * (1.0 + std::abs(value))) added |= add_piece(curve, j);
        }
        if (tail && tail->add_if_violated(p.mip, sol)) added = true;
        return added;
    };
    // A curve of few pieces (one future's month of a few levels) gets them all at once: a row or two
    // more costs the simplex less than another round of solving.
    constexpr std::size_t all_at_once = 8;
    for (Curve& curve : p.curves) {
        if (curve.pieces.size() <= all_at_once) {
            for (std::size_t j = 0; j < curve.pieces.size(); ++j) add_piece(curve, j);
            continue;
        }
        add_piece(curve, 0);
        add_piece(curve, curve.pieces.size() - 1);
    }
    // Cut the curves (and the CVaR95 tail) at the linear relaxation's solutions first: each LP is fast,
    // and branch and bound then starts from curves drawn where the optimum lies instead of from their
    // first and last pieces (a weak bound there made the first MIP of 1,000 futures the slowest step).
    // The cuts are valid for every point, so the exact loop below is unchanged.
    const auto started = std::chrono::steady_clock::now();
    const auto seconds_spent = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    // Only where something is left to cut: a programme whose curves all entered whole (one future's
    // months of a few levels, the hindsight bound's) goes straight to branch and bound.
    const bool partial = tail || std::any_of(p.curves.begin(), p.curves.end(), [](const Curve& curve) {
                             return curve.pieces.size() > all_at_once;
                         });
    for (int round = 0; partial && round < 100 && seconds_spent() < 0.5 * o.time_limit_seconds; ++round) {
        if (o.plan_options.should_stop && o.plan_options.should_stop()) throw Cancelled("recommend_plan: stopped");
        const MipSolution relaxed =
            p.mip.solve_relaxed(std::max(1e-3, o.time_limit_seconds - seconds_spent()), o.plan_options.should_stop);
        if (!relaxed.feasible || !add_violated(relaxed.x)) break;
    }
    MipSolution solution;
    for (bool first = true;; first = false) {
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        // Between solves, and inside each (Mip::solve asks after branch-and-bound nodes).
        if (o.plan_options.should_stop && o.plan_options.should_stop()) throw Cancelled("recommend_plan: stopped");
        if (!first && spent >= o.time_limit_seconds) {  // keep the last plan; it is not proven
            solution.proven_optimal = false;
            if (tail && tail->last_violated()) solution.feasible = false;
            break;
        }
        solution = p.mip.solve(std::max(1e-3, o.time_limit_seconds - spent), o.plan_options.should_stop);
        if (!solution.feasible) break;
        if (!add_violated(solution.x)) break;
    }
    solution.objective += p.constant;
    solution.bound += p.constant;  // fewer pieces than the curves have only lower it: a bound still
    if (!solution.proven_optimal && !solution.proven_infeasible)  // the whole loop's limit, not the last solve's
        solution.status = fmt::format("stopped at options.time_limit_seconds = {:g} {} a feasible plan",
                                      o.time_limit_seconds, solution.feasible ? "with" : "without");
    return solution;
}

/// The plan a solution stands for: its owned purchases, whole commitment counts and spot GPUs.
Plan plan_of(const MipSolution& solution, const Programme& p, const DemandFutures& futures, const Offering& offering,
             const RecommendOptions& o, const Setup& setup, const SpotOption* spot,
             const std::vector<OwnedPurchase>& owned) {
    Plan plan;
    plan.name = "recommended";
    plan.billing = billed_units(o);  // as the provider bills
    plan.held = o.held;
    plan.savings_plans = o.held_savings_plans;  // served first among Savings Plans of their type
    for (const OwnedPurchase& purchase : owned)
        if (purchase.gpus > 0) plan.owned.push_back(purchase);
    for (std::size_t k = 0; k < p.x.size(); ++k) {
        const Candidate& c = setup.candidates[k];
        if (c.savings_plan >= 0) {
            const double level = solution.x[std::size_t(p.x[k])];
            const double gpus = c.gpus_per_unit > 1.0 ? std::round(level) * c.gpus_per_unit : level;
            if (gpus <= 1e-9) continue;
            const SavingsPlanOption& option = o.savings_plans[std::size_t(c.savings_plan)];
            plan.savings_plans.push_back({.commitment_per_hour = gpus * c.savings_plan_rate * p.savings_plan_factor[k],
                                          .type = option.type,
                                          .term_years = option.term_years,
                                          .payment = option.payment,
                                          .start_month = c.start,
                                          .renewal = Renewal::lapse,
                                          .rate_per_gpu_hour = option.rate_per_gpu_hour});
            continue;
        }
        const double count = std::round(solution.x[std::size_t(p.x[k])]);
        if (count <= 0.0) continue;
        Commitment commitment;
        commitment.count = count;
        commitment.unit = o.unit;
        commitment.term_years = std::max(1, c.term_months / months_per_year);
        commitment.start_month = c.start;
        commitment.renewal = Renewal::lapse;
        if (o.commitments.empty()) {
            commitment.payment = offering.reserved[c.option].payment;
        } else {
            commitment.payment = o.commitments[c.option].payment;
            commitment.reservation_discount = o.commitments[c.option].reservation_discount;
            commitment.term_months = o.commitments[c.option].term_months;  // a short term, or 0
        }
        plan.commitments.push_back(commitment);
    }
    for (std::size_t j = 0; j < p.change.size(); ++j) {
        if (std::round(solution.x[std::size_t(p.change[j])]) <= 0.0) continue;
        const ChangeCandidate& c = setup.changes[j];
        CommitmentChange change{.kind = c.kind, .held = true, .index = c.held, .month = c.month, .into = {},
                                .price = c.kind == ChangeKind::resale ? c.amount : 0.0};
        if (c.kind == ChangeKind::exchange || c.kind == ChangeKind::azure_exchange) {
            const CommitmentOption& into = (c.kind == ChangeKind::exchange ? o.changes.exchange_into
                                                                           : o.changes.azure_exchange_into)[c.into];
            change.into = Commitment{.count = std::round(solution.x[std::size_t(p.exchanged[j])]), .unit = o.unit,
                                     .term_years = into.term_years, .payment = into.payment, .start_month = c.month,
                                     .renewal = Renewal::lapse, .reservation_discount = into.reservation_discount,
                                     .offering = {}};
        }
        plan.changes.push_back(change);
    }
    for (std::size_t j = 0; j < p.blocks.size(); ++j) {
        const double count = std::round(solution.x[std::size_t(p.blocks[j])]);
        if (count <= 0.0) continue;
        CapacityBlock block = setup.blocks[j].block;
        block.instances = int(count);
        plan.capacity_blocks.push_back(block);
    }
    for (std::size_t j = 0; j < p.flex.size(); ++j) {
        const double count = std::round(solution.x[std::size_t(p.flex[j])]);
        if (count <= 0.0) continue;
        FlexStartRequest request = setup.flex[j].request;
        request.gpus = count * setup.flex[j].gpus_per_instance;
        plan.flex_starts.push_back(request);
    }
    if (spot) {
        // Spot above the demand left in a month serves nothing there: keep only the capacity the
        // busiest month needs (every future's served hours unchanged), at most the peak demand.
        double needed = 0;
        for (std::size_t f = 0; f < futures.count(); ++f)
            for (int m = 0; m < setup.horizon; ++m) {
                const MonthShape& shape = futures.shape(f, m);
                const double top = shape.sorted.empty() ? 0.0 : futures.level(f, m) * shape.sorted.back();
                if (!p.arguments.empty() && !p.arguments[std::size_t(m)].empty()) {
                    for (const Programme::Argument& arg : p.arguments[std::size_t(m)])  // a window's pieces
                        needed = std::max(needed, top + arg.extra - solution.x[std::size_t(arg.column)]);
                    continue;
                }
                if (shape.sorted.empty()) continue;
                needed = std::max(needed, top - solution.x[std::size_t(p.capacity[std::size_t(m)])]);
            }
        // Billed per instance, spot runs whole instances: the fewest that hold what it serves.
        const double g = setup.unit_gpus;
        const double bought = g > 1.0 ? g * std::round(solution.x[std::size_t(p.spot_gpus)] / g)
                                      : solution.x[std::size_t(p.spot_gpus)];
        const double gpus = std::min(bought, g > 1.0 ? g * std::ceil(needed / g - 1e-9) : needed);
        if (gpus > 1e-9)
            plan.spot = SpotShare{.gpus = gpus, .price_per_gpu_hour = spot->price_per_gpu_hour,
                                  .overhead = spot->overhead, .availability = spot->availability, .periods = {}};
    }
    return plan;
}

}  // namespace

Solved solve_one(const DemandFutures& futures, const DemandFutures& billed, const Offering& offering,
                 const RecommendOptions& o, const PricePaths& prices, const Setup& setup, const SpotOption* spot,
                 const std::vector<OwnedPurchase>& owned) {
    const Rates rates = rates_of(offering, o, spot);
    Programme p;
    // Billed per instance, the peak up to whole instances: spot (whole instances) may need to reach it.
    const double g = setup.unit_gpus;
    const double peak = g > 1.0 ? g * std::ceil(peak_of(billed, setup) / g) : peak_of(billed, setup);
    add_commitments(p, billed, o, prices, setup, rates, owned, peak);
    add_capacity_blocks(p, billed, prices, o, setup, rates, peak);

    if (spot) {
        p.spot_gpus = p.mip.add_column(0.0, peak, 0.0, false);
        if (g > 1.0) {  // whole instances of spot: spot GPUs = g × a whole count
            const int instances = p.mip.add_column(0.0, peak / g, 0.0, true);
            p.mip.add_row({p.spot_gpus, instances}, {1.0, -g}, 'E', 0.0);
        }
    }
    ShapeCuts cuts(o.max_blocks);
    const std::vector<double> owned_cost = owned_costs(futures, owned, setup);
    std::optional<TailCuts> tail;
    if (o.limits.cvar95)
        tail = tail_cuts_of(p, billed, prices, setup, rates, spot != nullptr, cuts, owned_cost, *o.limits.cvar95);
    if (o.limits.cvar95 && !tail) {
        add_future_rows(p, billed, prices, setup, rates, spot != nullptr, cuts, owned_cost, *o.limits.cvar95);
    } else {
        for (double c : owned_cost) p.constant += c / double(futures.count());
        p.constant += setup.held_cost;
        add_mean_curves(p, billed, prices, setup, rates, spot != nullptr, cuts);
    }
    add_limits(p, futures, o, prices, setup, rates, owned);
    add_assurance(p, futures, o, setup, rates, spot != nullptr, cuts);
    Solved out;
    out.solution = solve_with_pieces(p, o, tail ? &*tail : nullptr);
    if (out.solution.feasible) out.plan = plan_of(out.solution, p, billed, offering, o, setup, spot, owned);
    return out;
}

}  // namespace gputco::detail
