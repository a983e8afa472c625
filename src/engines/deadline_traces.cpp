// Availability traces: the Can't Be Late JSON format, windows and resampling between tick lengths.
#include <algorithm>
#include <cmath>
#include <optional>
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
// than max_ticks stops at the first tick too many instead of after the whole file is parsed.
class TraceReader {
public:
    explicit TraceReader(SpotAvailability& out) : out_(out) {}

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
    bool string(std::string& s) { return scalar("string", "\"" + s + "\"", std::nullopt, false); }
    bool binary(nlohmann::json::binary_t&) { return scalar("binary", "binary", std::nullopt, false); }
    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(std::string& k) {
        if (depth_ == 1) root_key_ = k;
        else if (depth_ == 2 && in_ == In::metadata) metadata_key_ = k;
        return true;
    }
    [[noreturn]] bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception& e) {
        fail("trace", std::string(e.what()), "must be JSON");
    }

    // The checks that need the whole document, in the order of the format's description.
    void finish() const {
        require(saw_metadata_, "trace.metadata", "missing", "must be an object with gap_seconds");
        require(gap_seconds_.has_value(), "trace.metadata.gap_seconds", "missing", "must be a number");
        require(std::isfinite(*gap_seconds_) && *gap_seconds_ > 0, "trace.metadata.gap_seconds", *gap_seconds_,
                "must be finite and > 0");
        require(saw_data_, "trace.data", "missing", "must be an array of instance counts");
        require(!out_.available.empty(), "trace.data.size", 0, "must be > 0");
        out_.tick_hours = *gap_seconds_ / 3600.0;
    }

private:
    enum class In { none, metadata, data, other };

    bool in_gap_seconds() const { return depth_ == 2 && in_ == In::metadata && metadata_key_ == "gap_seconds"; }
    std::string element() const { return fmt::format("trace.data[{}]", out_.available.size()); }

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
                out_.available.clear();  // a repeated key counts once, the last, as a parsed document has it
            } else {
                in_ = In::other;
            }
        } else if (depth_ == 2 && in_ == In::data) {
            fail(element(), object ? "{...}" : "[...]", "must be a whole number >= 0");
        } else if (in_gap_seconds()) {
            fail("trace.metadata.gap_seconds", object ? "{...}" : "[...]", "must be a number");
        }
        ++depth_;
        return true;
    }

    bool close() {
        if (--depth_ == 1) in_ = In::none;
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
        } else if (depth_ == 2 && in_ == In::data) {
            if (!number || !whole) fail(element(), token, "must be a whole number >= 0");
            require(out_.available.size() < SpotAvailability::max_ticks, "trace.data.size",
                    SpotAvailability::max_ticks + 1,
                    fmt::format("must be at most {} (reading stopped there)", SpotAvailability::max_ticks));
            out_.available.push_back(*number > 0);
        }
        return true;
    }

    SpotAvailability& out_;
    int depth_ = 0;  // containers open
    In in_ = In::none;
    std::string root_key_, metadata_key_;
    bool saw_metadata_ = false, saw_data_ = false;
    std::optional<double> gap_seconds_;
};

}  // namespace

SpotAvailability SpotAvailability::from_json(std::string_view text) {
    SpotAvailability result;
    TraceReader reader(result);
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
