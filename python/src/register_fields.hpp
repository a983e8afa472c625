#pragma once
// Result rows in Python through their field lists (gputco/results/fields.hpp): attributes, dicts and
// NumPy columns all follow the one list, so a field added there appears here without a line.
#include "register.hpp"

#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/numpy.h>

#include <gputco/results/fields.hpp>

namespace gputco::python {

/// A row's fields (results/fields.hpp) as a dict, whole numbers as int.
template <class Row, class Integer, std::size_t N>
py::dict fields_dict(const Row& row, const std::array<ResultField<Row, Integer>, N>& fields) {
    py::dict d;
    for (const auto& f : fields) {
        if (f.integer()) d[py::str(f.name)] = f.integer_value(row);
        else d[py::str(f.name)] = f.value(row);
    }
    return d;
}

/// One NumPy column per field over `rows`: int64 for whole numbers, float64 otherwise.
template <class Row, class Integer, std::size_t N>
py::dict fields_columns(const std::vector<Row>& rows, const std::array<ResultField<Row, Integer>, N>& fields) {
    py::dict d;
    const auto n = py::ssize_t(rows.size());
    for (const auto& f : fields) {
        if (f.integer()) {
            py::array_t<long long> column(n);
            for (py::ssize_t i = 0; i < n; ++i) column.mutable_at(i) = f.integer_value(rows[std::size_t(i)]);
            d[py::str(f.name)] = column;
        } else {
            py::array_t<double> column(n);
            for (py::ssize_t i = 0; i < n; ++i) column.mutable_at(i) = f.value(rows[std::size_t(i)]);
            d[py::str(f.name)] = column;
        }
    }
    return d;
}

/// Read-only attributes, one per field, each with its unit as docstring.
template <class Row, class Integer, std::size_t N>
void def_fields(py::class_<Row>& cls, const std::array<ResultField<Row, Integer>, N>& fields) {
    for (const auto& f : fields) {
        const std::string doc = fmt::format("{} ({})", f.name, f.unit);
        if (f.integer())
            cls.def_property_readonly(std::string(f.name).c_str(), [f](const Row& r) { return f.integer_value(r); },
                                      doc.c_str());
        else
            cls.def_property_readonly(std::string(f.name).c_str(), [f](const Row& r) { return f.value(r); }, doc.c_str());
    }
    py::list names, dtypes;
    for (const auto& f : fields) {
        names.append(py::str(f.name));
        dtypes.append(py::str(f.integer() ? "int64" : "float64"));  // as fields_columns() makes them
    }
    cls.attr("_fields") = py::tuple(names);
    cls.attr("_field_dtypes") = py::tuple(dtypes);
}

}  // namespace gputco::python
