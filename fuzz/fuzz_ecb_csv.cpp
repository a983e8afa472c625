// ExchangeRates::from_ecb_csv (the ECB's eurofxref CSV) on arbitrary text: a table of valid rates
// (codes, finite positive rates) or InvalidInput. Every rate of a loaded table quotes itself, its
// inverse the reciprocal, and the table merges with the built-in one.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/catalog/currency.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ExchangeRates table;
    if (!fuzz::returns_or_rejects(text, [&] { table = ExchangeRates::from_ecb_csv(text, "eurofxref.csv"); })) return 0;
    for (const ExchangeRate& r : table.rates()) {
        if (!fuzz::returns_or_rejects(text, [&] { r.validate(); })) fuzz::finding("a loaded rate fails validate()");
        double forward = 0, backward = 0;
        if (!fuzz::returns_or_rejects(text, [&] {
                forward = table.rate(r.from, r.to, r.date);
                backward = table.rate(r.to, r.from, r.date);
            }))
            fuzz::finding("a loaded rate cannot be quoted at its own date");
        if (forward != r.rate) fuzz::finding("a rate quoted at its own date is not the rate");
        if (!(std::isfinite(backward) && backward > 0)) fuzz::finding("an inverse rate not finite and > 0");
    }
    fuzz::returns_or_rejects(text, [&] { (void)ExchangeRates::builtin().merged_with(table); });
    return 0;
}
