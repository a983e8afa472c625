#pragma once
// The library's column lists (app/columns.hpp) as Python rows: each front-door result goes to Python
// as one dict per row in the library's own columns, and its frame is declared from the same list.
#include <pybind11/pybind11.h>

#include <gputco/app/columns.hpp>

namespace gputco::python {

namespace py = pybind11;

inline py::object to_python(const Cell& cell) {
    if (const auto* t = std::get_if<std::string>(&cell)) return py::str(*t);
    if (const auto* b = std::get_if<bool>(&cell)) return py::bool_(*b);
    if (const auto* i = std::get_if<long long>(&cell)) return py::int_(*i);
    if (const auto* d = std::get_if<double>(&cell)) return py::float_(*d);
    return py::none();
}

/// One dict per item, in the library's columns for that result (app/columns.hpp).
template <class Row>
inline py::list rows_of(const std::vector<Column<Row>>& columns, const std::vector<Row>& items) {
    py::list rows;
    for (const Row& item : items) {
        py::dict row;
        for (const auto& c : columns) row[py::str(c.name)] = to_python(c.get(item));
        rows.append(row);
    }
    return rows;
}

/// (name, unit, dtype) of each column: what gputco/_scenario.py declares its frames with.
template <class Row>
inline py::list describe(const std::vector<Column<Row>>& columns) {
    py::list out;
    for (const auto& c : columns) out.append(py::make_tuple(std::string(c.name), std::string(c.unit), std::string(dtype_name(c.dtype))));
    return out;
}


}  // namespace gputco::python
