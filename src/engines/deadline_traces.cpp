// Availability traces: the Can't Be Late JSON format, windows and resampling between tick lengths.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gputco/core/error.hpp"
#include "gputco/engines/deadline.hpp"

namespace gputco {

namespace {

// a / b as a whole number (relative 1e-9), or -1 if it is not one.
double whole_ratio(double a, double b) {
    const double ratio = a / b;
    const double rounded = std::round(ratio);
    return rounded >= 1 && std::abs(ratio - rounded) <= 1e-9 * ratio ? rounded : -1;
}

// Streams the JSON (SAX) straight into the flags: memory stays one bit per tick, and a trace longer
// than max_ticks stops at the first tick too many instead of after the whole file is parsed. What a
// value means must be known to turn it into a flag; when it is not yet known as the data start (the
// metadata comes after the data, or the caller left a part to the file) the values are kept as
// 32-bit counts until the end.
class TraceReader {
public:
    TraceReader(SpotAvailability& out, const TraceReadOptions& options) : out_(out), options_(options) {
        require(options.values != TraceValues::available_nodes || options.nodes_needed <= max_count,
                "options.nodes_needed", options.nodes_needed, fmt::format("must be <= {}", max_count));
        require(options.nodes_needed == 0 || options.values == TraceValues::available_nodes ||
                    options.values == TraceValues::unstated,
                "options.nodes_needed", options.nodes_needed,
                fmt::format("must be 0 unless values = available_nodes (values = {})", to_text(options.values)));
    }

    bool null() { return scalar("null", "null", std::nullopt, false); }
    bool boolean(bool b) { return scalar("boolean", b ? "true" : "false", std::nullopt, false); }
    bool number_integer(nlohmann::json::number_integer_t n) {
        return scalar("number", std::to_string(n), static_cast<double>(n), n >= 0);
    }
    bool number_unsigned(nlohmann::json::number_unsigned_t n) {
        return scalar("number", std::to_string(n), static_cast<double>(n), true);
    }
    bool number_float(nlohmann::json::number_float_t x, const std::string& token) {
        return scalar("number", token, x, x >= 0 && std::floor(x) == x);
    }
    bool string(std::string& s) {
        if (depth_ == 2 && in_ == In::metadata && metadata_key_ == "values") {
            file_values_ = parse<TraceValues>(s, "trace.metadata.values");
            require(*file_values_ != TraceValues::unstated, "trace.metadata.values", s,
                    "must be one of available, available_nodes, preempted");
            return true;
        }
        return scalar("string", "\"" + s + "\"", std::nullopt, false);
    }
    bool binary(nlohmann::json::binary_t&) { return scalar("binary", "binary", std::nullopt, false); }
    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(std::string& k) {
        if (depth_ == 1) {
            root_key_ = k;
            if (k == "metadata" || k == "data") {
                require(!(k == "metadata" ? saw_metadata_ : saw_data_), "trace." + k, "repeated", "must appear once");
            }
        } else if (depth_ == 2 && in_ == In::metadata) {
            metadata_key_ = k;
            require(metadata_keys_.insert(k).second, "trace.metadata." + k, "repeated", "must appear once");
        }
        return true;
    }
    [[noreturn]] bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception& e) {
        fail("trace", std::string(e.what()), "must be JSON");
    }

    // The checks that need the whole document, in the order of the format's description.
    void finish() {
        require(saw_metadata_, "trace.metadata", "missing", "must be an object with gap_seconds");
        require(gap_seconds_.has_value(), "trace.metadata.gap_seconds", "missing", "must be a number");
        require(std::isfinite(*gap_seconds_) && *gap_seconds_ > 0, "trace.metadata.gap_seconds", *gap_seconds_,
                "must be finite and > 0");
        require(saw_data_, "trace.data", "missing", "must be an array of instance counts");
        require(ticks_read() > 0, "trace.data.size", 0, "must be > 0");
        if (!meaning_) resolve();
        else if (metadata_done_) check_file_agrees();  // the caller settled it before the metadata came
        for (std::size_t i = 0; i < pending_.size(); ++i) push(i, pending_[i]);
        pending_ = {};
        out_.tick_hours = *gap_seconds_ / 3600.0;
        out_.layout = meaning_->values == TraceValues::available ? "single node (1 = available)"
                      : meaning_->values == TraceValues::preempted
                          ? "preempted flags (1 = preempted)"
                          : fmt::format("available nodes (available when >= {}{})", meaning_->nodes_needed,
                                        nodes_ ? fmt::format(" of {}", *nodes_) : std::string());
    }

private:
    enum class In { none, metadata, data, other };
    static constexpr std::size_t max_count = 4'294'967'295u;  // counts are kept in 32 bits
    struct Meaning {
        TraceValues values;
        std::size_t nodes_needed;
    };

    bool in_gap_seconds() const { return depth_ == 2 && in_ == In::metadata && metadata_key_ == "gap_seconds"; }
    bool in_metadata_count() const {
        return depth_ == 2 && in_ == In::metadata && (metadata_key_ == "nodes_needed" || metadata_key_ == "nodes");
    }
    std::string element(std::size_t i) const { return fmt::format("trace.data[{}]", i); }
    std::size_t ticks_read() const { return out_.available.size() + pending_.size(); }

    // What a value means, from the caller and the file; called once both could have spoken.
    void resolve() {
        const TraceValues values = options_.values != TraceValues::unstated ? options_.values
                                                                             : file_values_.value_or(TraceValues::unstated);
        require(values != TraceValues::unstated, "trace.metadata.values", "missing",
                "the file does not say what a value means: pass values = available (one node, 1 = available), "
                "available_nodes (a count of nodes, with nodes_needed) or preempted (one node, 1 = preempted)");
        meaning_ = Meaning{values, 0};
        check_file_agrees();
        std::size_t needed = 0;
        if (values == TraceValues::available_nodes) {
            needed = options_.nodes_needed > 0 ? options_.nodes_needed : file_nodes_needed_.value_or(0);
            if (needed == 0 && nodes_) needed = *nodes_;  // a file that says only how many nodes: all of them
            require(needed > 0, "options.nodes_needed", "missing",
                    "must be >= 1 with values = available_nodes: how many nodes the job needs up (the file does "
                    "not say: metadata.nodes_needed or metadata.nodes)");
            if (nodes_) {
                require(needed <= *nodes_, "options.nodes_needed", needed,
                        fmt::format("must be <= the file's metadata.nodes = {}", *nodes_));
            }
        }
        meaning_ = Meaning{values, needed};
    }

    // The file may not contradict the caller: another meaning, or node counts for a single node.
    void check_file_agrees() const {
        if (file_values_ && options_.values != TraceValues::unstated && *file_values_ != options_.values) {
            fail("options.values", to_text(options_.values),
                 fmt::format("differs from the file's metadata.values = {}", to_text(*file_values_)));
        }
        if (meaning_->values != TraceValues::available_nodes && (file_nodes_needed_ || nodes_)) {
            fail(file_nodes_needed_ ? "trace.metadata.nodes_needed" : "trace.metadata.nodes",
                 file_nodes_needed_ ? *file_nodes_needed_ : *nodes_,
                 fmt::format("belongs to values = available_nodes, not {}", to_text(meaning_->values)));
        }
    }

    // Whether the file's metadata (read in full) settles what the caller left open; otherwise the
    // values wait, and finish() says what is missing after the format's own checks.
    bool file_decides() const {
        const TraceValues values = options_.values != TraceValues::unstated ? options_.values
                                                                             : file_values_.value_or(TraceValues::unstated);
        if (values == TraceValues::unstated) return false;
        return values != TraceValues::available_nodes || options_.nodes_needed > 0 || file_nodes_needed_ || nodes_;
    }

    // Whether the meaning is settled before the metadata is seen in full (the caller said it all).
    bool caller_decides() const {
        return options_.values == TraceValues::available || options_.values == TraceValues::preempted ||
               (options_.values == TraceValues::available_nodes && options_.nodes_needed > 0);
    }

    void push(std::size_t i, std::uint64_t n) {
        switch (meaning_->values) {
        case TraceValues::available:
        case TraceValues::preempted:
            if (n > 1) {
                fail(element(i), n,
                     fmt::format("must be 0 or 1 (values = {}: one node; a count of nodes needs values = "
                                 "available_nodes)",
                                 to_text(meaning_->values)));
            }
            out_.available.push_back(meaning_->values == TraceValues::available ? n == 1 : n == 0);
            break;
        default:
            if (nodes_) require(n <= *nodes_, element(i), n, fmt::format("must be <= metadata.nodes = {}", *nodes_));
            out_.available.push_back(n >= meaning_->nodes_needed);
        }
    }

    bool open(bool object) {
        const char* type = object ? "object" : "array";
        if (depth_ == 0 && !object) fail("trace", type, "must be a JSON object with metadata and data");
        if (depth_ == 1) {
            if (root_key_ == "metadata") {
                if (!object) fail("trace.metadata", type, "must be an object with gap_seconds");
                in_ = In::metadata;
                saw_metadata_ = true;
                metadata_key_.clear();
            } else if (root_key_ == "data") {
                if (object) fail("trace.data", type, "must be an array of instance counts");
                in_ = In::data;
                saw_data_ = true;
                if (!meaning_ && (caller_decides() || (metadata_done_ && file_decides()))) resolve();
            } else {
                in_ = In::other;
            }
        } else if (depth_ == 2 && in_ == In::data) {
            fail(element(ticks_read()), object ? "{...}" : "[...]", "must be a whole number >= 0");
        } else if (in_gap_seconds() || in_metadata_count()) {
            fail("trace.metadata." + metadata_key_, object ? "{...}" : "[...]", "must be a number");
        } else if (depth_ == 2 && in_ == In::metadata && metadata_key_ == "values") {
            fail("trace.metadata.values", object ? "{...}" : "[...]", "must be a string");
        }
        ++depth_;
        return true;
    }

    bool close() {
        if (--depth_ == 1) {
            if (in_ == In::metadata) metadata_done_ = true;
            in_ = In::none;
        }
        return true;
    }

    bool scalar(const char* type, const std::string& token, std::optional<double> number, bool whole) {
        if (depth_ == 0) fail("trace", type, "must be a JSON object with metadata and data");
        if (depth_ == 1) {
            if (root_key_ == "metadata") fail("trace.metadata", type, "must be an object with gap_seconds");
            if (root_key_ == "data") fail("trace.data", type, "must be an array of instance counts");
        } else if (in_gap_seconds()) {
            if (!number) fail("trace.metadata.gap_seconds", token, "must be a number");
            gap_seconds_ = number;
        } else if (in_metadata_count()) {
            const std::string field = "trace.metadata." + metadata_key_;
            if (!number || !whole || *number < 1 || *number > double(max_count)) {
                fail(field, token, fmt::format("must be a whole number in [1, {}]", max_count));
            }
            (metadata_key_ == "nodes" ? nodes_ : file_nodes_needed_) = static_cast<std::size_t>(*number);
        } else if (depth_ == 2 && in_ == In::metadata && metadata_key_ == "values") {
            fail("trace.metadata.values", token, "must be a string");
        } else if (depth_ == 2 && in_ == In::data) {
            const std::size_t i = ticks_read();
            if (!number || !whole) fail(element(i), token, "must be a whole number >= 0");
            require(i < SpotAvailability::max_ticks, "trace.data.size", SpotAvailability::max_ticks + 1,
                    fmt::format("must be at most {} (reading stopped there)", SpotAvailability::max_ticks));
            const auto n = static_cast<std::uint64_t>(std::min(*number, double(max_count)));
            if (meaning_) push(i, n);
            else pending_.push_back(static_cast<std::uint32_t>(n));
        }
        return true;
    }

    SpotAvailability& out_;
    const TraceReadOptions& options_;
    int depth_ = 0;  // containers open
    In in_ = In::none;
    std::string root_key_, metadata_key_;
    std::set<std::string> metadata_keys_;
    bool saw_metadata_ = false, saw_data_ = false, metadata_done_ = false;
    std::optional<double> gap_seconds_;
    std::optional<TraceValues> file_values_;
    std::optional<std::size_t> file_nodes_needed_, nodes_;
    std::optional<Meaning> meaning_;
    std::vector<std::uint32_t> pending_;  // values read before their meaning was known
};

}  // namespace

SpotAvailability SpotAvailability::from_json(std::string_view text, const TraceReadOptions& options) {
    SpotAvailability result;
    TraceReader reader(result, options);
    nlohmann::json::sax_parse(text, &reader);
    reader.finish();
    return result;
}

SpotAvailability SpotAvailability::window(std::size_t start, std::size_t length) const {
    require(length > 0, "window.length", length, "must be > 0");
    require(start < ticks() && length <= ticks() - start, "window.start", start,
            fmt::format("must leave length = {} ticks inside the trace of {}", length, ticks()));
    SpotAvailability result;
    result.tick_hours = tick_hours;
    const auto first = available.begin() + static_cast<std::ptrdiff_t>(start);
    result.available.assign(first, first + static_cast<std::ptrdiff_t>(length));
    return result;
}

SpotAvailability SpotAvailability::resampled(double to_tick_hours) const {
    require(tick_hours > 0, "availability.tick_hours", tick_hours,
            "must be stated (> 0) to resample: set it or read the trace with from_json");
    require_positive("tick_hours", to_tick_hours);
    SpotAvailability result;
    result.tick_hours = to_tick_hours;
    if (const double n = whole_ratio(tick_hours, to_tick_hours); n > 0) {  // finer (or equal)
        require(static_cast<double>(ticks()) * n <= static_cast<double>(max_ticks), "tick_hours", to_tick_hours,
                fmt::format("gives more than {} ticks for a trace of {} ticks of {} h", max_ticks, ticks(),
                            tick_hours));
        const auto repeat = static_cast<std::size_t>(n);
        result.available.reserve(ticks() * repeat);
        for (const bool up : available) result.available.insert(result.available.end(), repeat, up);
        return result;
    }
    const double n = whole_ratio(to_tick_hours, tick_hours);
    require(n > 0, "tick_hours", to_tick_hours,
            fmt::format("must divide or be a whole multiple of the trace's tick_hours = {}", tick_hours));
    const auto group = static_cast<std::size_t>(n);
    result.available.resize(ticks() / group);
    for (std::size_t k = 0; k < result.ticks(); ++k) {
        const auto first = available.begin() + static_cast<std::ptrdiff_t>(k * group);
        result.available[k] = std::all_of(first, first + static_cast<std::ptrdiff_t>(group), [](bool up) { return up; });
    }
    return result;
}

double common_tick_hours(double a_hours, double b_hours) {
    require_positive("a_hours", a_hours);
    require_non_negative("b_hours", b_hours);
    if (b_hours == 0) return a_hours;
    for (int n = 1; n <= 1'000'000; ++n) {
        const double tick = a_hours / n;
        const double ratio = b_hours / tick;
        if (std::abs(ratio - std::round(ratio)) <= 1e-9 * std::max(1.0, ratio)) return tick;
    }
    fail("b_hours", b_hours, fmt::format("must be a whole number of a_hours / n for some n <= 1e6 (a_hours = {})",
                                         a_hours));
}

}  // namespace gputco
