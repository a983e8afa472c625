#pragma once
// Rows and columns for the command's reports, printed as a table, JSON, CSV or Markdown. Cells keep
// their type (gputco::Cell) so JSON is written as the examples write it (app/json_rows.hpp): numbers as
// numbers, figures that do not apply or are not finite as null, text escaped.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gputco/app/columns.hpp>
#include <gputco/app/json_rows.hpp>

namespace gputco::cli {

struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<Cell>> rows;
};

/// The rows of `items` in `columns` (all of them, or those named in `only`, in that order).
template <class Row>
Table table_of(const std::vector<Column<Row>>& columns, const std::vector<Row>& items,
               const std::vector<std::string>& only = {}) {
    std::vector<const Column<Row>*> picked;
    if (only.empty()) {
        for (const auto& c : columns) picked.push_back(&c);
    } else {
        for (const auto& name : only)
            for (const auto& c : columns)
                if (c.name == name) picked.push_back(&c);
    }
    Table t;
    for (const auto* c : picked) t.columns.emplace_back(c->name);
    for (const Row& item : items) {
        std::vector<Cell> row;
        for (const auto* c : picked) row.push_back(c->get(item));
        t.rows.push_back(std::move(row));
    }
    return t;
}

/// The table as a JSON array of objects, one per row.
nlohmann::ordered_json to_json(const Table& table);

/// format: table, csv or markdown (json: to_json(table).dump(1)).
std::string render(const Table& table, const std::string& format);

}  // namespace gputco::cli
