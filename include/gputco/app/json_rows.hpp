#pragma once
// A result's rows as JSON through its declared columns (columns.hpp): the command's `--format json`
// and the examples' `--json` write the same keys and cells. Numbers stay numbers; a figure that does
// not apply, or is not finite, is null; text is escaped by the JSON library. Header-only, and the one
// header of the library that needs nlohmann_json: link it where you include this (gputco.hpp does not).
//
//   nlohmann::ordered_json rows = gputco::rows_json(gputco::ranking_columns(), ranking.rows);
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "gputco/app/columns.hpp"

namespace gputco {

inline nlohmann::ordered_json cell_json(const Cell& cell) {
    if (const auto* s = std::get_if<std::string>(&cell)) return *s;
    if (const auto* b = std::get_if<bool>(&cell)) return *b;
    if (const auto* i = std::get_if<long long>(&cell)) return *i;
    if (const auto* d = std::get_if<double>(&cell); d && std::isfinite(*d)) return *d;
    return nullptr;  // does not apply, or not finite
}

/// One row as an object keyed by the columns' names, in their order.
template <class Row>
nlohmann::ordered_json row_json(const std::vector<Column<Row>>& columns, const Row& row) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& c : columns) object[std::string(c.name)] = cell_json(c.get(row));
    return object;
}

/// The rows as an array of objects.
template <class Row>
nlohmann::ordered_json rows_json(const std::vector<Column<Row>>& columns, const std::vector<Row>& rows) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const Row& r : rows) array.push_back(row_json(columns, r));
    return array;
}

}  // namespace gputco
