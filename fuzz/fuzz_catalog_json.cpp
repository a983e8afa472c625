// Catalog::from_json on arbitrary text: a catalog or InvalidInput, and a catalog read back from its
// own to_json() is the same catalog.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/catalog/catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Catalog catalog;
    if (!fuzz::returns_or_rejects(text, [&] { catalog = Catalog::from_json(text); })) return 0;
    for (const Offering& o : catalog.offerings()) {
        fuzz::check_finite("offering.on_demand_per_gpu_hour", o.on_demand_per_gpu_hour());
        for (const ReservedPrice& r : o.reserved) fuzz::check_finite("reserved.effective_hourly", r.effective_hourly());
    }
    Catalog back;
    const std::string written = catalog.to_json();
    if (!fuzz::returns_or_rejects(written, [&] { back = Catalog::from_json(written); }))
        fuzz::finding("to_json() wrote a catalog from_json() rejects:", written);
    if (!(back == catalog)) fuzz::finding("from_json(to_json(c)) != c:", written);
    return 0;
}
