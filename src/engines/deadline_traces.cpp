// Availability traces: the Can't Be Late JSON format, windows and resampling between tick lengths.
#include <algorithm>
#include <cmath>
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

}  // namespace

SpotAvailability SpotAvailability::from_json(std::string_view text) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        fail("trace", std::string(e.what()), "must be JSON");
    }
    require(doc.is_object(), "trace", doc.type_name(), "must be a JSON object with metadata and data");
    require(doc.contains("metadata") && doc["metadata"].is_object(), "trace.metadata",
            doc.contains("metadata") ? doc["metadata"].type_name() : "missing", "must be an object with gap_seconds");
    const auto& metadata = doc["metadata"];
    require(metadata.contains("gap_seconds") && metadata["gap_seconds"].is_number(), "trace.metadata.gap_seconds",
            metadata.contains("gap_seconds") ? metadata["gap_seconds"].dump() : "missing", "must be a number");
    const double gap_seconds = metadata["gap_seconds"].get<double>();
    require(std::isfinite(gap_seconds) && gap_seconds > 0, "trace.metadata.gap_seconds", gap_seconds,
            "must be finite and > 0");
    require(doc.contains("data") && doc["data"].is_array(), "trace.data",
            doc.contains("data") ? doc["data"].type_name() : "missing", "must be an array of instance counts");
    const auto& data = doc["data"];
    require(!data.empty(), "trace.data.size", 0, "must be > 0");
    require(data.size() <= max_ticks, "trace.data.size", data.size(), fmt::format("must be at most {}", max_ticks));

    SpotAvailability result;
    result.tick_hours = gap_seconds / 3600.0;
    result.available.resize(data.size());
    for (std::size_t k = 0; k < data.size(); ++k) {
        const auto& n = data[k];
        const bool whole = n.is_number_unsigned() ||
                           (n.is_number() && n.get<double>() >= 0 && std::floor(n.get<double>()) == n.get<double>());
        if (!whole) fail(fmt::format("trace.data[{}]", k), n.dump(), "must be a whole number >= 0");
        result.available[k] = n.get<double>() > 0;
    }
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
