// Shared parts of the importers, and ImportResult.
#include "common.hpp"

#include <algorithm>
#include <new>
#include <cstdlib>
#include <atomic>
#include <array>
#include <cerrno>
#include <cstring>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gputco/catalog/gpu_names.hpp"
#include "gputco/core/date.hpp"

namespace gputco {

std::map<std::string, std::size_t> ImportResult::kept_by_way() const {
    std::map<std::string, std::size_t> out;
    for (const Offering& o : offerings)
        ++out[o.spot_only ? "spot only" : o.reservation_only ? "reservation only" : "on demand"];
    return out;
}

std::string ImportResult::report(std::string_view file) const {
    std::vector<std::string> kept, parts;
    for (const auto& [way, n] : kept_by_way()) kept.push_back(fmt::format("{} {}", n, way));
    for (const auto& [reason, n] : skipped_reasons) parts.push_back(fmt::format("{} x {}", n, reason));
    return fmt::format("{}{}{} rows read, {} offerings, {} rows skipped{}{}", file, file.empty() ? "" : ": ", rows_read,
                       offerings.size(), skipped_count,
                       parts.empty() ? std::string() : fmt::format(" ({})", fmt::join(parts, "; ")),
                       kept.empty() ? std::string() : fmt::format("; kept: {}", fmt::join(kept, ", ")));
}

Catalog ImportResult::catalog() const { return Catalog(Catalog::builtin().gpus(), offerings); }

std::ifstream open_input_file(const std::string& path) {
    std::error_code error;
    require(!std::filesystem::is_directory(path, error), "path", path, "is a directory, not a file");
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int reason = errno;
        fail("path", path, reason ? fmt::format("cannot be opened for reading: {}", std::strerror(reason))
                                  : std::string("cannot be opened for reading"));
    }
    return in;
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
    std::ifstream in = open_input_file(path);
    const std::string rule = fmt::format("bytes: more than the limit of {} (max_bytes)", max_bytes);
    // The size first: an oversized file is refused before any of it is read into memory.
    std::error_code error;
    const std::uintmax_t bytes = std::filesystem::file_size(path, error);
    require(error || bytes <= max_bytes, path, bytes, rule);
    // Then in chunks, stopping past the limit: a device or pipe has no size to check first.
    std::string text;
    if (!error) text.reserve(static_cast<std::size_t>(bytes));
    std::array<char, 1 << 16> chunk{};
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        require(text.size() <= max_bytes, path, text.size(), rule);
    }
    return text;
}

namespace import {

namespace {
std::atomic<void*> allocation_reserve{nullptr};

void release_reserve_and_throw() {
    std::free(allocation_reserve.exchange(nullptr));
    throw std::bad_alloc();
}
}  // namespace

AllocationReserve::AllocationReserve(std::size_t bytes) : previous_(std::get_new_handler()) {
    if (previous_ == &release_reserve_and_throw) return;  // an outer guard holds the reserve
    owner_ = true;
    allocation_reserve.store(std::malloc(bytes));  // none when even this fails: the handler just throws
    std::set_new_handler(&release_reserve_and_throw);
}

AllocationReserve::~AllocationReserve() {
    if (!owner_) return;
    std::set_new_handler(previous_);
    std::free(allocation_reserve.exchange(nullptr));
}

std::vector<std::string> split_csv_line(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back().push_back('"');
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back().push_back(c);
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back().push_back(c);
        }
    }
    return fields;
}

std::vector<Line> lines(std::string_view text) {
    std::vector<Line> out;
    std::size_t pos = 0;
    std::size_t number = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        out.push_back({++number, line});
        pos = end + 1;
    }
    return out;
}

double number(std::string_view text, std::string_view where) {
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    require(!text.empty() && ec == std::errc() && ptr == text.data() + text.size(), where, text, "must be a number");
    return value;
}

std::string preview(const json& value) {
    return printable_utf8(value.dump(-1, ' ', false, json::error_handler_t::replace), 40);
}

double json_number(const json& value, std::string_view pointer) {
    if (value.is_number()) return value.get<double>();
    if (value.is_string()) return number(value.get_ref<const std::string&>(), pointer);
    throw InvalidInput(fmt::format("{} = {}: must be a number", printable_utf8(pointer), preview(value)));
}

const std::string& json_text(const json& object, std::string_view key, std::string_view pointer) {
    if (!object.is_object()) {
        throw InvalidInput(fmt::format("{} = {}: must be an object", printable_utf8(pointer), preview(object)));
    }
    const auto it = object.find(key);
    if (it == object.end()) throw InvalidInput(fmt::format("{}/{} = (missing): required", printable_utf8(pointer), printable_utf8(key)));
    if (!it->is_string()) {
        throw InvalidInput(fmt::format("{}/{} = {}: must be a string", printable_utf8(pointer), printable_utf8(key), preview(*it)));
    }
    return it->get_ref<const std::string&>();
}

void malformed_json(std::string_view file, const std::exception& e) {
    std::string message = e.what();
    if (auto pos = message.find("] "); message.starts_with("[json.exception") && pos != std::string::npos) {
        message = message.substr(pos + 2);
    }
    // nlohmann: "parse error at line 3, column 5: syntax error while parsing ..."
    std::string where = std::string(file);
    if (auto at = message.find("at line "); at != std::string::npos) {
        const std::size_t comma = message.find(", column ", at);
        const std::size_t colon = message.find(": ", at);
        if (comma != std::string::npos && colon != std::string::npos) {
            where = fmt::format("{}:{}:{}", file, message.substr(at + 8, comma - at - 8),
                                message.substr(comma + 9, colon - comma - 9));
            message = message.substr(colon + 2);
        }
    }
    fail(where, message, "malformed JSON");
}

namespace {

/// A price file is an object or an array: a bare null, number or string at the top would read as a
/// file without rows.
[[noreturn]] void root_scalar(const std::string& file) {
    throw InvalidInput(fmt::format("{}: / = (a single value): the top level must be an object or an array", file));
}

/// nlohmann keeps one of two equal keys silently: refused, as the catalog reader refuses it.
[[noreturn]] void duplicate_key(const std::string& file, const std::string& key) {
    throw InvalidInput(fmt::format("{}: key = \"{}\": appears twice in one object", file, printable_utf8(key, 80)));
}

/// The nesting limit and cancellation of parse_json, in a SAX pass that builds nothing. (nlohmann's
/// callback parser would check during the DOM build, but it is quadratic in the length of an array of
/// objects in 3.11.2: each object's end scans its whole parent array.) Depth as that callback counts
/// it: the containers open around a value or key, or before a container opens.
class DepthCheck : public json::json_sax_t {
public:
    DepthCheck(std::string file, int max_depth, StopPoll& poll)
        : file_(std::move(file)), max_depth_(max_depth), poll_(poll) {}

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return at(open_); }
    bool key(string_t& k) override {
        if (!keys_.back().insert(k).second) duplicate_key(file_, k);
        return at(open_);
    }
    bool start_object(std::size_t) override {
        keys_.emplace_back();
        return open();
    }
    bool start_array(std::size_t) override { return open(); }
    bool end_object() override {
        keys_.pop_back();
        return close();
    }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        error_ = e.what();
        return false;
    }
    /// The parser's message when the text is not JSON, else empty.
    const std::string& error() const { return error_; }

private:
    bool at(int depth) {
        poll_.step();
        if (depth > max_depth_) {
            throw InvalidInput(fmt::format("{} = {}: nesting deeper than the limit of {} (ImportOptions::max_depth)",
                                           file_, depth, max_depth_));
        }
        return true;
    }
    bool open() {
        at(open_);
        ++open_;
        return true;
    }
    bool close() {
        --open_;
        return at(open_);
    }

    bool scalar() {
        if (open_ == 0) root_scalar(file_);
        return at(open_);
    }

    std::string file_;
    int max_depth_;
    StopPoll& poll_;
    int open_ = 0;
    std::vector<std::set<std::string>> keys_;  // the keys seen in each open object, innermost last
    std::string error_;
};

}  // namespace

json parse_json(std::string_view text, const ImportOptions& options) {
    const std::string file = file_name(options, "json");
    require(text.size() <= options.max_bytes, file, text.size(),
            fmt::format("bytes: more than the limit of {} (ImportOptions::max_bytes)", options.max_bytes));
    StopPoll poll = stop_poll(options, parser_events_per_check);
    DepthCheck check(file, options.max_depth, poll);
    if (!json::sax_parse(text.begin(), text.end(), &check)) malformed_json(file, std::runtime_error(check.error()));
    // Within the limits: the DOM, without a callback (linear). The DOM parser alone reports numbers
    // that overflow a double (1e400).
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        malformed_json(file, e);
    }
}

std::string pointer(const JsonPath& path) {
    std::string out;
    for (const std::string& p : path) out += "/" + p;
    return out.empty() ? "/" : out;
}

namespace {

class Sax {
public:
    Sax(const ImportOptions& options, const JsonStream& stream)
        : options_(options), stream_(stream), poll_(stop_poll(options, parser_events_per_check)) {}

    bool null() { return scalar(json(nullptr)); }
    bool boolean(bool v) { return scalar(json(v)); }
    bool number_integer(json::number_integer_t v) { return scalar(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(json(v)); }
    bool number_float(json::number_float_t v, const std::string&) { return scalar(json(v)); }
    bool string(std::string& v) { return scalar(json(std::move(v))); }
    bool binary(json::binary_t&) { return true; }
    bool key(std::string& k) {
        if (!frames_.back().keys.insert(k).second) duplicate_key(file_name(options_, "json"), k);
        frames_.back().key = std::move(k);
        return true;
    }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
        malformed_json(file_name(options_, "json"), e);
    }

private:
    struct Frame {
        bool array = false;
        std::size_t next = 0;
        std::string key;
        std::set<std::string> keys;  // of an object, seen so far
    };
    /// The path element of the value starting now: its key, or its index in the enclosing array.
    std::string element() {
        if (frames_.empty()) return {};
        Frame& f = frames_.back();
        return f.array ? std::to_string(f.next++) : f.key;
    }
    json* add(json value) {
        json* parent = stack_.back();
        if (parent->is_object()) {
            json& slot = (*parent)[frames_.back().key];
            slot = std::move(value);
            return &slot;
        }
        parent->push_back(std::move(value));
        return &parent->back();
    }
    bool scalar(json value) {
        poll_.step();
        if (frames_.empty()) root_scalar(file_name(options_, "json"));
        if (!stack_.empty()) {
            add(std::move(value));
            if (!frames_.empty() && frames_.back().array) ++frames_.back().next;
            return true;
        }
        JsonPath at = path_;
        if (!frames_.empty()) at.push_back(element());
        if (stream_.capture && stream_.capture(at)) {
            stream_.use(at, std::move(value));
        } else if (stream_.scalar) {
            stream_.scalar(at, value);
        }
        return true;
    }
    bool open(json container) {
        poll_.step();
        const bool array = container.is_array();
        if (!stack_.empty()) {
            stack_.push_back(add(std::move(container)));
            if (frames_.back().array) ++frames_.back().next;
        } else {
            if (!frames_.empty()) path_.push_back(element());
            if (!frames_.empty() && stream_.capture && stream_.capture(path_)) {
                captured_ = std::move(container);
                stack_.push_back(&captured_);
            }
        }
        frames_.push_back(Frame{array, 0, {}, {}});
        if (static_cast<int>(frames_.size()) > options_.max_depth) {
            fail(file_name(options_, "json"), static_cast<int>(frames_.size()),
                 fmt::format("nesting deeper than the limit of {} (ImportOptions::max_depth)", options_.max_depth));
        }
        return true;
    }
    bool close() {
        frames_.pop_back();
        if (!stack_.empty()) {
            stack_.pop_back();
            if (stack_.empty()) {
                stream_.use(path_, std::move(captured_));
                captured_ = json();
            }
            if (!stack_.empty()) return true;
        }
        if (!path_.empty() && frames_.size() == path_.size()) path_.pop_back();
        return true;
    }

    const ImportOptions& options_;
    const JsonStream& stream_;
    std::vector<Frame> frames_;
    JsonPath path_;  // of the innermost open container outside a captured value
    json captured_;
    std::vector<json*> stack_;
    StopPoll poll_;
};

}  // namespace

/// A stream's bytes for nlohmann's reader (which calls the buffer directly, so nothing in between
/// catches): at most `max_bytes`, then InvalidInput in the limit's words; a read error (a folder's
/// "basic_filebuf::underflow") becomes InvalidInput naming the file.
class LimitedBuffer : public std::streambuf {
public:
    LimitedBuffer(std::streambuf* source, std::size_t max_bytes, std::string file)
        : source_(source), max_bytes_(max_bytes), file_(std::move(file)) {}

protected:
    int_type underflow() override {
        // One byte past the limit at most, so the message names the first byte too many.
        const std::size_t left = max_bytes_ - std::min(read_, max_bytes_);
        const std::size_t want = left < chunk_.size() ? left + 1 : chunk_.size();
        std::streamsize n = 0;
        try {
            n = source_ ? source_->sgetn(chunk_.data(), static_cast<std::streamsize>(want)) : 0;
        } catch (const std::exception& e) {
            fail("path", file_, fmt::format("cannot be read: {}", e.what()));
        }
        if (n <= 0) return traits_type::eof();
        read_ += static_cast<std::size_t>(n);
        require(read_ <= max_bytes_, file_, read_,
                fmt::format("bytes: more than the limit of {} (ImportOptions::max_streamed_bytes)", max_bytes_));
        setg(chunk_.data(), chunk_.data(), chunk_.data() + n);
        return traits_type::to_int_type(chunk_[0]);
    }

private:
    std::streambuf* source_;
    std::size_t max_bytes_;
    std::string file_;
    std::size_t read_ = 0;
    std::array<char, 1 << 16> chunk_{};
};

void stream_json(std::istream& in, const ImportOptions& options, const JsonStream& stream) {
    LimitedBuffer buffer(in.rdbuf(), options.max_streamed_bytes, file_name(options, "json"));
    std::istream limited(&buffer);
    Sax sax(options, stream);
    json::sax_parse(limited, &sax);
}

void stream_json(std::string_view text, const ImportOptions& options, const JsonStream& stream) {
    require(text.size() <= options.max_bytes, file_name(options, "json"), text.size(),
            fmt::format("bytes: more than the limit of {} (ImportOptions::max_bytes)", options.max_bytes));
    Sax sax(options, stream);
    json::sax_parse(text.begin(), text.end(), &sax);
}

std::string date_part(std::string_view timestamp) {
    const std::string_view head = timestamp.substr(0, 10);
    return Date::is_date(head) ? std::string(head) : std::string();
}

std::string unknown_share_reason(std::string_view type, std::string_view table, std::string_view written) {
    return fmt::format("{} is of a family that rents shares of one GPU and is not in the {} (gpu_names.hpp): {}its "
                       "share is unknown",
                       type, table, written.empty() ? std::string() : fmt::format("{}, ", written));
}

std::string file_name(const ImportOptions& options, std::string_view fallback) {
    return options.file.empty() ? std::string(fallback) : options.file;
}

Offering new_offering(std::string provider, std::string region, std::string instance_type, std::string gpu,
                      int gpus, Source source) {
    Offering o;
    if (provider == "aws" || provider == "gcp") {
        o.billing_increment_seconds = 1;
        o.minimum_billed_seconds = 60;
    } else if (provider == "azure" || provider == "lambda") {
        o.billing_increment_seconds = 60;
        o.minimum_billed_seconds = 60;
    } else if (provider == "alibaba" || provider == "tencent") {
        o.billing_increment_seconds = 1;
        o.minimum_billed_seconds = 0;
    }
    o.provider = std::move(provider);
    o.region = std::move(region);
    o.instance_type = std::move(instance_type);
    o.gpu = std::move(gpu);
    o.gpus_per_instance = gpus;
    if (Date::is_date(source.as_of)) o.effective_from = Date::parse(source.as_of);
    o.source = std::move(source);
    return o;
}

void skip(ImportResult& result, const ImportOptions& options, SkippedRow row) {
    ++result.skipped_count;
    ++result.skipped_reasons[row.reason];
    if (result.skipped.size() < options.max_skipped_listed) result.skipped.push_back(std::move(row));
}

void count_row(ImportResult& result, const ImportOptions& options) {
    ++result.rows_read;
    require(result.rows_read <= options.max_rows, file_name(options, "input"), result.rows_read,
            fmt::format("rows: more than the limit of {} (ImportOptions::max_rows)", options.max_rows));
    if (options.should_stop && result.rows_read % rows_per_check == 0) stop_poll(options, 1).check();
}

StopPoll stop_poll(const ImportOptions& options, std::size_t every) {
    return StopPoll(options.should_stop, every, fmt::format("importing {}: stopped", file_name(options, "the price file")));
}

}  // namespace import
}  // namespace gputco
