#pragma once
// Rows and columns for the command's reports, printed as a table, JSON, CSV or Markdown.
#include <string>
#include <vector>

namespace gputco::cli {

struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;  ///< cells already formatted; numbers as plain decimals
};

/// format: table, json, csv or markdown.
std::string render(const Table& table, const std::string& format);

}  // namespace gputco::cli
