// ThroughputTable::from_csv (a user's benchmark CSV) on arbitrary text: rows of finite, positive
// throughput with finite, non-negative watts and price, or InvalidInput. A table that loads can
// override the built-in one.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/work/throughput.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ThroughputTable table;
    if (!fuzz::returns_or_rejects(
            text, [&] { table = ThroughputTable::from_csv(text, Precision::mixed, Source{"fuzz", "2026-01"}); }))
        return 0;
    for (const ThroughputRow& row : table.rows()) {
        if (!(std::isfinite(row.per_second) && row.per_second > 0)) fuzz::finding("a throughput not finite and > 0");
        if (!(std::isfinite(row.watts) && row.watts >= 0)) fuzz::finding("watts not finite and >= 0");
        if (!(std::isfinite(row.price) && row.price >= 0)) fuzz::finding("price not finite and >= 0");
        if (row.gpus < 1 || row.gpus > 1024) fuzz::finding("a GPU count outside [1, 1024]");
        if (table.find(row.gpu, row.gpus, row.precision, row.model) != &row) fuzz::finding("a row find() misses");
        if (!fuzz::valid_utf8(row.model) || !fuzz::valid_utf8(row.system)) fuzz::finding("a row's text is not UTF-8");
    }
    ThroughputTable merged;
    if (!fuzz::returns_or_rejects(text, [&] { merged = ThroughputTable::builtin().overridden_by(table); }))
        fuzz::finding("a loaded table cannot override the built-in one");
    for (const ThroughputRow& row : table.rows())
        if (*merged.find(row.gpu, row.gpus, row.precision, row.model) != row) fuzz::finding("a user row did not override");
    return 0;
}
