#pragma once
// The pieces of a self-contained HTML page: escaping, number text, tables rendered from the one
// column list of each result (app/columns.hpp), and the page around them (inline CSS, no script, no
// external reference), so that a report opens the same offline, printed or on a phone.
//
//   std::string body = html::render(html::table_of("Strategies", strategy_columns(), result.strategies));
//   std::string page = html::page("A100, three years", body);
#include <string>
#include <string_view>
#include <vector>

#include "gputco/app/columns.hpp"

namespace gputco::html {

/// Text with & < > " ' escaped, for element content and attribute values alike.
std::string escape(std::string_view text);

/// A number as a page shows it: whole-number digits grouped by thousands ("1,303,157.69"),
/// 2 decimals for currency, 4 significant digits below 1, "nan"/"inf" as such.
std::string number(double value, std::string_view unit = "currency");

/// A cell as a table shows it: text as is, a missing figure as an em dash.
std::string cell_text(const Cell& cell, std::string_view unit);

/// The shortest text that reads back as exactly `value` (a <data value="..."> attribute).
std::string exact(double value);

/// A table: a caption, each column's name and unit, typed cells.
struct Table {
    std::string caption;
    std::vector<std::string> columns, units;
    std::vector<std::vector<Cell>> rows;
};

/// `items` in every column of `columns`, or those named in `only` in that order.
template <class Row>
Table table_of(std::string caption, const std::vector<Column<Row>>& columns, const std::vector<Row>& items,
               const std::vector<std::string>& only = {}) {
    std::vector<const Column<Row>*> picked;
    if (only.empty())
        for (const auto& c : columns) picked.push_back(&c);
    else
        for (const auto& name : only)
            for (const auto& c : columns)
                if (c.name == name) picked.push_back(&c);
    Table t{std::move(caption), {}, {}, {}};
    for (const auto* c : picked) {
        t.columns.emplace_back(c->name);
        t.units.emplace_back(c->unit);
    }
    for (const Row& item : items) {
        std::vector<Cell> row;
        for (const auto* c : picked) row.push_back(c->get(item));
        t.rows.push_back(std::move(row));
    }
    return t;
}

/// The table as <table> in a horizontally scrolling region (wide tables stay readable on a phone).
std::string render(const Table& table);

/// A whole page: doctype, language, viewport, title, the report's inline style sheet and `body`.
std::string page(std::string_view title, std::string_view body);

}  // namespace gputco::html
