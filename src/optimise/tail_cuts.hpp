#pragma once
// A CVaR95 limit as cuts generated on demand (not installed; used by programme.cpp). Each future's
// cost is convex in the programme's columns (commitments linear, minus concave served-hours curves),
// so the mean of the worst k = ⌈5% n⌉ futures is at most the limit exactly when, for every set T of k
// futures, (1/k) Σ_{f∈T} cost_f <= limit; and cost_f is at least its tangent plane at any point. After
// each solve the k costliest futures at the solution give one such row with their tangent planes
// there (Künzi-Bay and Mayer's cutting-plane form of Rockafellar–Uryasev); the row cuts the solution
// off when its CVaR95 is above the limit and never cuts off a plan that meets it. The pieces being
// finitely many, the loop ends at the exact optimum with a few rows in place of one per future.
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "mip.hpp"
#include "programme.hpp"

namespace gputco::detail {

/// One future's cost in the objective's measure as a function of the programme's columns:
/// constant + Σ linear − Σ weight × level × S_1((capacity [+ spot]) / level).
struct FutureCost {
    struct Term {
        int capacity = -1;
        int spot = -1;  ///< -1: the curve of the capacity alone
        double weight = 0;
        double level = 0;
        const std::vector<Cut>* pieces = nullptr;  ///< S_1's pieces (owned by the caller, outliving the cuts)
    };
    double constant = 0;
    std::vector<Term> terms;
};

class TailCuts {
public:
    /// `linear[k][f]`: the cost in future f of one unit of column `columns[k]`.
    TailCuts(std::vector<FutureCost> futures, std::vector<int> columns, std::vector<std::vector<double>> linear,
             double limit);
    /// Prices every future at `x`; when the mean of the worst k is above the limit (relative 1e-9), adds
    /// the row of their tangent planes there to `mip` and returns true (false when that row is in already).
    bool add_if_violated(Mip& mip, const std::vector<double>& x);
    /// The CVaR95 at the last point priced, and whether it was above the limit.
    double last_cvar95() const { return last_cvar95_; }
    bool last_violated() const { return last_violated_; }
    std::size_t rows_added() const { return keys_.size(); }

private:
    std::vector<FutureCost> futures_;
    std::vector<int> columns_;
    std::vector<std::vector<double>> linear_;
    double limit_;
    std::size_t tail_;
    std::unordered_set<std::uint64_t> keys_;  ///< the rows in: worst set and pieces, hashed
    double last_cvar95_ = 0;
    bool last_violated_ = false;
};

}  // namespace gputco::detail
