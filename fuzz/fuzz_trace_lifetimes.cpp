// Trace::parse_lifetimes on arbitrary text: a trace of finite, positive lifetimes with a finite
// mean, or InvalidInput.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/engines/interruption.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Trace trace;
    if (!fuzz::returns_or_rejects(text, [&] { trace = Trace::parse_lifetimes(text, "fuzz"); })) return 0;
    if (trace.lifetimes_hours.empty()) fuzz::finding("a trace without lifetimes was accepted");
    for (double hours : trace.lifetimes_hours)
        if (!(hours > 0.0)) fuzz::finding("a lifetime that is not > 0 was accepted");
    fuzz::check_finite("trace.mean_lifetime_hours", trace.mean_lifetime_hours());
    return 0;
}
