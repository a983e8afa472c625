#pragma once
// A result row's fields listed once — the name it is written under, the member it reads and its unit —
// so JSON, CSV, the Python attributes and the pandas columns all follow the same list. Adding a field
// to a row is one line in its list (report.hpp, statistics.hpp).
//
//   for (const auto& f : monthly_cash_flow_fields) out += fmt::format("{}={} ", f.name, f.value(month));
#include <array>
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

/// to += weight x from, field by field, for every listed field of type double (whole-number fields
/// such as `month` are labels, left as they are). Aggregation iterates the list, so a field added to
/// the list is summed everywhere without another line.
template <class Row, class Integer, std::size_t N>
void add_fields(const std::array<ResultField<Row, Integer>, N>& fields, Row& to, const Row& from, double weight = 1.0) {
    for (const auto& f : fields)
        if (const auto* m = std::get_if<double Row::*>(&f.member)) to.**m += weight * (from.**m);
}

/// row *= factor for every listed field of type double.
template <class Row, class Integer, std::size_t N>
void scale_fields(const std::array<ResultField<Row, Integer>, N>& fields, Row& row, double factor) {
    for (const auto& f : fields)
        if (const auto* m = std::get_if<double Row::*>(&f.member)) row.**m *= factor;
}

}  // namespace gputco
