// SpotAvailability::from_json (the Can't Be Late authors' trace format) on arbitrary text: a trace of
// 1 to max_ticks ticks with a finite, non-negative tick length, or InvalidInput. A trace resampled to
// its own tick is the same trace, and the reader says which layout it read.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/engines/deadline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    if (size == 0) return 0;
    // The first byte picks what the caller says a value means (nothing, or one of the three layouts
    // with 0 to 3 nodes needed); the rest is the file.
    const TraceReadOptions options{TraceValues(data[0] % 4), std::size_t(data[0] / 4 % 4)};
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    SpotAvailability trace;
    if (!fuzz::returns_or_rejects(text, [&] { trace = SpotAvailability::from_json(text, options); })) return 0;
    if (trace.layout.empty()) fuzz::finding("a trace was read without saying which layout");
    if (trace.ticks() == 0 || trace.ticks() > SpotAvailability::max_ticks)
        fuzz::finding("a trace with a tick count outside [1, max_ticks] was accepted");
    if (!(std::isfinite(trace.tick_hours) && trace.tick_hours >= 0))
        fuzz::finding("a trace with a tick length that is not finite and >= 0 was accepted");
    if (trace.tick_hours > 0) {
        SpotAvailability same;
        if (!fuzz::returns_or_rejects({}, [&] { same = trace.resampled(trace.tick_hours); }))
            fuzz::finding("resampled() to the trace's own tick was rejected");
        if (same.available != trace.available) fuzz::finding("resampled() to the trace's own tick changed it");
    }
    return 0;
}
