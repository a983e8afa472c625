// The CBC side of Mip (see mip.hpp): the rows are loaded once into CLP through the OSI interface and
// CbcModel's branch and bound runs on them. Only this file sees COIN-OR's headers.
//
// Not the C interface (Cbc_C_Interface.h, which runs CBC's standalone driver): on the recommender's
// programmes in CBC 2.10.8 it returned wrong "proven optimal" answers — with the driver's default
// preprocessing a plan dearer than one it admitted, without it fractional counts marked optimal
// (tests/test_recommend.cpp, "two formulations, one optimum"). Plain branch and bound on the same rows
// gives the optimum, and on these small programmes in a fraction of the time.
#include "mip.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include <CbcEventHandler.hpp>
#include <ClpEventHandler.hpp>
#include <CbcModel.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

namespace gputco::detail {

namespace {

/// Stops CbcModel's branch and bound when should_stop says so. CBC calls it after every node and at
/// other events; it asks should_stop at most every 50 ms. CBC keeps a clone, so the answer goes to
/// a flag the caller owns.
class StopHandler : public CbcEventHandler {
public:
    StopHandler(const StopCheck& should_stop, bool& stopped, const bool& timed_out)
        : should_stop_(&should_stop), stopped_(&stopped), timed_out_(&timed_out) {}
    using CbcEventHandler::event;
    CbcAction event(CbcEvent) override {
        const auto now = std::chrono::steady_clock::now();
        if (*stopped_ || *timed_out_) return stop;
        if (now < next_ || !*should_stop_) return noAction;
        next_ = now + std::chrono::milliseconds(50);
        if ((*should_stop_)()) *stopped_ = true;
        return *stopped_ ? stop : noAction;
    }
    CbcEventHandler* clone() const override { return new StopHandler(*this); }

private:
    const StopCheck* should_stop_;
    bool* stopped_;
    const bool* timed_out_;
    std::chrono::steady_clock::time_point next_{};
};

/// Stops CLP inside a node's LP (the root LP of a large CVaR programme runs for many seconds between
/// two of CBC's events): after each simplex iteration it asks should_stop at most every 50 ms and,
/// once told to stop, ends the LP (status "stopped by event") and raises the same flag, which makes
/// StopHandler end the branch and bound at its next event.
class LpStopHandler : public ClpEventHandler {
public:
    /// Also ends the LP at `deadline` (the solve's time limit, which CBC checks only between nodes),
    /// raising `timed_out`, so one long LP cannot outlast the limit.
    LpStopHandler(const StopCheck& should_stop, bool& stopped, std::chrono::steady_clock::time_point deadline,
                  bool& timed_out)
        : should_stop_(&should_stop), stopped_(&stopped), deadline_(deadline), timed_out_(&timed_out) {}
    int event(Event which) override {
        if (*stopped_ || *timed_out_) return 0;
        if (which != endOfIteration) return -1;
        const auto now = std::chrono::steady_clock::now();
        if (now < next_) return -1;
        next_ = now + std::chrono::milliseconds(50);
        if (now >= deadline_) *timed_out_ = true;
        else if (*should_stop_ && (*should_stop_)()) *stopped_ = true;
        return *stopped_ || *timed_out_ ? 0 : -1;
    }
    ClpEventHandler* clone() const override { return new LpStopHandler(*this); }

private:
    const StopCheck* should_stop_;
    bool* stopped_;
    std::chrono::steady_clock::time_point deadline_;
    bool* timed_out_;
    std::chrono::steady_clock::time_point next_{};
};

}  // namespace

int Mip::add_column(double lower, double upper, double objective, bool integer) {
    lower_.push_back(lower);
    upper_.push_back(upper);
    objective_.push_back(objective);
    integer_.push_back(integer ? 1 : 0);
    return int(lower_.size()) - 1;
}

void Mip::add_row(const std::vector<int>& columns, const std::vector<double>& coefficients, char sense, double rhs) {
    row_columns_.push_back(columns);
    row_values_.push_back(coefficients);
    sense_.push_back(sense);
    rhs_.push_back(rhs);
}

MipSolution Mip::solve(double time_limit_seconds, const StopCheck& should_stop) const {
    return run(time_limit_seconds, should_stop, false);
}

MipSolution Mip::solve_relaxed(double time_limit_seconds, const StopCheck& should_stop) const {
    return run(time_limit_seconds, should_stop, true);
}

MipSolution Mip::run(double time_limit_seconds, const StopCheck& should_stop, bool relaxed) const {
    const int columns = column_count();
    const std::size_t rows = rhs_.size();
    const double inf = std::numeric_limits<double>::infinity();
    // The rows in one row-ordered block: appending them one by one re-copied the matrix at every
    // growth (minutes, deaf to Ctrl-C, for the 10^5 rows of a CVaR programme over 2,000 futures).
    std::vector<CoinBigIndex> starts(rows + 1, 0);
    std::vector<int> lengths(rows), indices;
    std::vector<double> elements, row_lower(rows), row_upper(rows);
    for (std::size_t r = 0; r < rows; ++r) starts[r + 1] = starts[r] + CoinBigIndex(row_columns_[r].size());
    indices.reserve(std::size_t(starts[rows]));
    elements.reserve(std::size_t(starts[rows]));
    for (std::size_t r = 0; r < rows; ++r) {
        lengths[r] = int(row_columns_[r].size());
        indices.insert(indices.end(), row_columns_[r].begin(), row_columns_[r].end());
        elements.insert(elements.end(), row_values_[r].begin(), row_values_[r].end());
        row_lower[r] = sense_[r] == 'L' ? -inf : rhs_[r];
        row_upper[r] = sense_[r] == 'G' ? inf : rhs_[r];
    }
    const CoinPackedMatrix matrix(false, columns, int(rows), starts[rows], elements.data(), indices.data(),
                                  starts.data(), lengths.data());
    OsiClpSolverInterface solver;
    solver.messageHandler()->setLogLevel(0);
    solver.loadProblem(matrix, lower_.data(), upper_.data(), objective_.data(), row_lower.data(), row_upper.data());
    if (!relaxed)
        for (int c = 0; c < columns; ++c)
            if (integer_[std::size_t(c)]) solver.setInteger(c);
    // CLP's automatic scaling, and strong branching on top of it, left CBC 2.10.8 short of the
    // optimum on some one-future programmes (9 GPUs where 8 were cheaper, "proven optimal"); the
    // programmes here are small and already in one unit (money), so neither is needed.
    solver.setHintParam(OsiDoScale, false, OsiHintDo);
    CbcModel model(solver);  // copies the solver; single-threaded, deterministic
    model.setLogLevel(0);
    model.messageHandler()->setLogLevel(0);
    model.setMaximumSeconds(time_limit_seconds);
    // Plain pseudo-cost-free branching: CBC 2.10.8's dynamic pseudo-costs trip an assertion
    // (CbcBranchDynamic.cpp, distance >= 0) on some of these programmes.
    model.setNumberBeforeTrust(0);
    model.setNumberStrong(0);
    model.setAllowableGap(1e-7);
    model.setAllowableFractionGap(1e-9);
    bool stopped = false, timed_out = false;
    const StopHandler handler(should_stop, stopped, timed_out);
    model.passInEventHandler(&handler);  // CBC keeps a copy
    // And inside each LP: the solver CBC works on (its own copy), and CLP copies the handler too.
    if (auto* lp = dynamic_cast<OsiClpSolverInterface*>(model.solver())) {
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(std::min(time_limit_seconds, 1e7)));
        const LpStopHandler lp_handler(should_stop, stopped, deadline, timed_out);
        lp->getModelPtr()->passInEventHandler(&lp_handler);
    }
    model.branchAndBound();
    if (stopped) throw Cancelled("CBC solve: stopped");

    MipSolution out;
    // An LP ended at the time limit proves nothing, whatever CBC concluded from it.
    out.proven_optimal = !timed_out && model.isProvenOptimal();
    out.proven_infeasible = !timed_out && model.isProvenInfeasible();
    const double* x = model.bestSolution();
    out.feasible = !out.proven_infeasible && x != nullptr;
    if (out.feasible) {
        out.x.assign(x, x + columns);
        out.objective = model.getObjValue();
    }
    out.bound = out.proven_optimal ? out.objective : model.getBestPossibleObjValue();
    out.status = out.proven_optimal      ? "optimal"
                 : out.proven_infeasible ? "infeasible"
                 : out.feasible          ? fmt::format("stopped after {:g} s with a feasible plan", time_limit_seconds)
                                         : fmt::format("stopped after {:g} s without a feasible plan", time_limit_seconds);
    return out;
}

}  // namespace gputco::detail
