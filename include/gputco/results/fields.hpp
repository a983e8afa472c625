#pragma once
// A result row's fields listed once — the name it is written under, the member it reads and its unit —
// so JSON, CSV, the Python attributes and the pandas columns all follow the same list. Adding a field
// to a row is one line in its list (report.hpp, statistics.hpp).
//
//   for (const auto& f : monthly_cash_flow_fields) out += fmt::format("{}={} ", f.name, f.value(month));
#include <cstddef>
#include <string_view>
#include <variant>

namespace gputco {

/// `Integer` is the type of the row's whole-number members (int months, std::size_t counts).
template <class Row, class Integer = int>
struct ResultField {
    using Member = std::variant<double Row::*, Integer Row::*>;
    std::string_view name;  ///< as written: JSON key, CSV header, Python attribute and column
    Member member;
    std::string_view unit;  ///< e.g. "currency", "GPU-hours", "month"; shown in docstrings

    double value(const Row& row) const {
        return std::visit([&row](auto m) { return static_cast<double>(row.*m); }, member);
    }
    /// Whole numbers are written without a decimal point (JSON 3, not 3.0) and become int64 columns.
    bool integer() const { return !std::holds_alternative<double Row::*>(member); }
    long long integer_value(const Row& row) const {
        return std::visit([&row](auto m) { return static_cast<long long>(row.*m); }, member);
    }
};

}  // namespace gputco
