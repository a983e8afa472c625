#pragma once
// A small mixed-integer programme handed to COIN-OR CBC (through its C interface, so no COIN-OR
// header leaks into the library's headers). Columns and rows are added in order; rows are sparse.
#include <string>
#include <vector>

#include "gputco/core/cancel.hpp"

namespace gputco::detail {

struct MipSolution {
    bool feasible = false;        ///< a feasible point was found
    bool proven_optimal = false;  ///< ... and proven optimal
    bool proven_infeasible = false;
    double objective = 0;
    double bound = 0;             ///< the least objective CBC proved possible (= objective when optimal)
    std::vector<double> x;
    std::string status;           ///< in words
};

class Mip {
public:
    /// Adds a column (variable) with bounds and objective coefficient; returns its index.
    int add_column(double lower, double upper, double objective, bool integer);
    /// Adds Σ coefficients[i] x[columns[i]] (sense: 'L' <=, 'G' >=, 'E' =) rhs.
    void add_row(const std::vector<int>& columns, const std::vector<double>& coefficients, char sense, double rhs);
    int column_count() const { return int(lower_.size()); }
    /// Minimises; single-threaded and deterministic. `should_stop` is asked after branch-and-bound
    /// nodes, at most every 50 ms (a Python check takes the GIL); true throws Cancelled.
    MipSolution solve(double time_limit_seconds, const StopCheck& should_stop = {}) const;
    /// The linear relaxation (integer columns continuous): a bound, and a point to generate cuts at.
    MipSolution solve_relaxed(double time_limit_seconds, const StopCheck& should_stop = {}) const;

private:
    MipSolution run(double time_limit_seconds, const StopCheck& should_stop, bool relaxed) const;
    std::vector<double> lower_, upper_, objective_;
    std::vector<char> integer_;
    std::vector<std::vector<int>> row_columns_;
    std::vector<std::vector<double>> row_values_;
    std::vector<char> sense_;
    std::vector<double> rhs_;
};

}  // namespace gputco::detail
