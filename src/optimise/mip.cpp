// The CBC side of Mip (see mip.hpp): the matrix is built in compressed-column form and loaded once.
#include "mip.hpp"

#include <cmath>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include <coin/Cbc_C_Interface.h>

namespace gputco::detail {

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

MipSolution Mip::solve(double time_limit_seconds) const {
    const int columns = column_count(), rows = int(rhs_.size());
    const double inf = std::numeric_limits<double>::infinity();
    // Rows to compressed columns.
    std::vector<CoinBigIndex> start(std::size_t(columns) + 1, 0);
    for (const auto& r : row_columns_)
        for (int c : r) ++start[std::size_t(c) + 1];
    for (std::size_t c = 0; c < std::size_t(columns); ++c) start[c + 1] += start[c];
    std::vector<CoinBigIndex> fill(start.begin(), start.end() - 1);
    std::vector<int> index(std::size_t(start.back()));
    std::vector<double> value(std::size_t(start.back()));
    std::vector<double> row_lower(static_cast<std::size_t>(rows)), row_upper(static_cast<std::size_t>(rows));
    for (std::size_t r = 0; r < std::size_t(rows); ++r) {
        for (std::size_t k = 0; k < row_columns_[r].size(); ++k) {
            const auto at = std::size_t(fill[std::size_t(row_columns_[r][k])]++);
            index[at] = int(r);
            value[at] = row_values_[r][k];
        }
        row_lower[r] = sense_[r] == 'L' ? -inf : rhs_[r];
        row_upper[r] = sense_[r] == 'G' ? inf : rhs_[r];
    }
    const std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> model(Cbc_newModel(), Cbc_deleteModel);
    Cbc_loadProblem(model.get(), columns, rows, start.data(), index.data(), value.data(), lower_.data(),
                    upper_.data(), objective_.data(), row_lower.data(), row_upper.data());
    for (int c = 0; c < columns; ++c)
        if (integer_[std::size_t(c)]) Cbc_setInteger(model.get(), c);
    Cbc_setLogLevel(model.get(), 0);
    Cbc_setMaximumSeconds(model.get(), time_limit_seconds);
    Cbc_setAllowableGap(model.get(), 1e-7);
    Cbc_setAllowableFractionGap(model.get(), 1e-9);
    Cbc_setParameter(model.get(), "threads", "1");
    Cbc_solve(model.get());

    MipSolution out;
    // Stopping on the (tiny) allowed gap counts as optimal.
    out.proven_optimal = Cbc_isProvenOptimal(model.get()) != 0 || Cbc_secondaryStatus(model.get()) == 2;
    out.proven_infeasible = Cbc_isProvenInfeasible(model.get()) != 0;
    const double* x = Cbc_bestSolution(model.get());
    out.feasible = !out.proven_infeasible && x != nullptr;
    if (out.feasible) {
        out.x.assign(x, x + columns);
        out.objective = Cbc_getObjValue(model.get());
    }
    out.status = out.proven_optimal      ? "optimal"
                 : out.proven_infeasible ? "infeasible"
                 : out.feasible          ? fmt::format("stopped after {:g} s with a feasible plan", time_limit_seconds)
                                         : fmt::format("stopped after {:g} s without a feasible plan", time_limit_seconds);
    return out;
}

}  // namespace gputco::detail
