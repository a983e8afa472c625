#pragma once
// What the importers share: CSV fields, numbers and dates read with errors that name the place,
// JSON parsed under the size and depth limits, billing rules per provider.
#include <functional>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gputco/catalog/importers.hpp"

#include <new>

namespace gputco::import {

using nlohmann::json;

/// While alive, a C++ allocation that fails first frees a reserve kept for that moment, then throws
/// std::bad_alloc as usual. Why: nlohmann's json destructor allocates (a stack of the children it
/// frees) inside a noexcept destructor, so under a memory cap the records destroyed while a bad_alloc
/// unwinds could fail again and abort the process; with the reserve freed they find memory, and the
/// caller sees the bad_alloc (Python: MemoryError). One per importer call; nested guards share the one
/// reserve.
class AllocationReserve {
public:
    explicit AllocationReserve(std::size_t bytes = std::size_t{4} << 20);
    ~AllocationReserve();
    AllocationReserve(const AllocationReserve&) = delete;
    AllocationReserve& operator=(const AllocationReserve&) = delete;

private:
    std::new_handler previous_;
    bool owner_ = false;
};

/// Splits one CSV line (RFC 4180 quotes, "" inside quotes; a trailing \r is dropped).
std::vector<std::string> split_csv_line(std::string_view line);

/// Lines of `text` with their 1-based numbers; "\r\n" and "\n" both end a line.
struct Line {
    std::size_t number;
    std::string_view text;
};
std::vector<Line> lines(std::string_view text);

/// A decimal number, or InvalidInput("<where> = \"<text>\": must be a number").
double number(std::string_view text, std::string_view where);
/// A JSON value as a message shows it: compact, printable UTF-8, at most 40 bytes (cut between
/// characters, then "...").
std::string preview(const json& value);
/// A JSON number, or a string holding one (AWS writes "0.2000000000"); errors name `pointer`.
double json_number(const json& value, std::string_view pointer);
/// A JSON string member, or InvalidInput naming `pointer`/key.
const std::string& json_text(const json& object, std::string_view key, std::string_view pointer);
/// Parses JSON text under the options' size and depth limits; errors name the file, line and column.
json parse_json(std::string_view text, const ImportOptions& options);
/// "<file>:<line>:<column> = \"<what>\": malformed JSON" from nlohmann's message.
[[noreturn]] void malformed_json(std::string_view file, const std::exception& e);

/// A place in a JSON document: the keys and array indices from the root ("Items", "3").
using JsonPath = std::vector<std::string>;
/// "/Items/3".
std::string pointer(const JsonPath& path);
/// Reads a JSON document with a SAX parser, building only the values whose path `capture` accepts
/// and handing each to `use` as soon as it is complete, then dropping it: memory follows the
/// largest captured value, not the document. Scalars outside captured values go to `scalar`.
/// Enforces options.max_depth; syntax errors name file, line and column.
struct JsonStream {
    std::function<bool(const JsonPath&)> capture;
    std::function<void(const JsonPath&, json&&)> use;
    std::function<void(const JsonPath&, const json&)> scalar;
};
void stream_json(std::istream& in, const ImportOptions& options, const JsonStream& stream);
void stream_json(std::string_view text, const ImportOptions& options, const JsonStream& stream);

/// The first 10 characters of an ISO timestamp when they are a date ("2019-01-16T21:24:48Z").
std::string date_part(std::string_view timestamp);
/// options.file or a generic name.
std::string file_name(const ImportOptions& options, std::string_view fallback);

/// A new offering with the provider's billing rules (AWS and GCP per second with a 1-minute minimum,
/// Azure and Lambda per minute, Alibaba and Tencent per second) and the row's provenance.
Offering new_offering(std::string provider, std::string region, std::string instance_type, std::string gpu,
                      int gpus, Source source);

/// The notes of rows sold one way only, kept as offerings (Offering::spot_only, reservation_only):
/// the same words from every importer.
inline constexpr std::string_view spot_only_note = "spot only: the file lists a spot price and no on-demand one";
inline constexpr std::string_view reservation_only_note =
    "reservation only: the file lists reservation or commitment prices and no on-demand one";

/// Why a size of a family that rents shares of one GPU (sold_in_shares) is not kept when the size table
/// (`table`, as the reason names it) does not list it; `written`, when not empty, is what the file writes.
std::string unknown_share_reason(std::string_view type, std::string_view table, std::string_view written = {});

/// Counts a skipped row under its reason and lists it while the list is below the options' limit.
void skip(ImportResult& result, const ImportOptions& options, SkippedRow row);

/// How often an importer asks options.should_stop (importers.hpp).
constexpr std::size_t rows_per_check = 1'024;
constexpr std::size_t parser_events_per_check = 16'384;

/// Throws when rows exceed options.max_rows; every rows_per_check rows asks options.should_stop.
void count_row(ImportResult& result, const ImportOptions& options);

/// A poll of options.should_stop every `every` steps, throwing Cancelled("importing <file>: stopped").
StopPoll stop_poll(const ImportOptions& options, std::size_t every);

}  // namespace gputco::import
