#pragma once
// The examples' --json: a result's rows in the columns the library declares (gputco/app/columns.hpp),
// written by the JSON library; a figure that does not apply or is not finite is null.
#include <cmath>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "gputco/app/columns.hpp"

namespace example {

inline nlohmann::ordered_json number(double x) {
    return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json();
}

inline nlohmann::ordered_json cell_json(const gputco::Cell& cell) {
    if (const auto* s = std::get_if<std::string>(&cell)) return *s;
    if (const auto* b = std::get_if<bool>(&cell)) return *b;
    if (const auto* i = std::get_if<long long>(&cell)) return *i;
    if (const auto* d = std::get_if<double>(&cell)) return number(*d);
    return nullptr;
}

template <class Row>
nlohmann::ordered_json rows_json(const std::vector<gputco::Column<Row>>& columns, const std::vector<Row>& items) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const Row& item : items) {
        nlohmann::ordered_json row = nlohmann::ordered_json::object();
        for (const auto& c : columns) row[std::string(c.name)] = cell_json(c.get(item));
        rows.push_back(std::move(row));
    }
    return rows;
}

/// Where the text report goes: stdout, or nowhere under --json (stdout then holds only the JSON).
inline std::FILE* text_sink(bool json) {
#ifdef _WIN32
    return json ? std::fopen("NUL", "w") : stdout;
#else
    return json ? std::fopen("/dev/null", "w") : stdout;
#endif
}

}  // namespace example
