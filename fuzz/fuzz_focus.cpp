// A FOCUS cost export (CSV) on arbitrary bytes, fed to BillStream in chunks of a size the input picks
// (a record may straddle chunks): a bill whose every figure is finite, whose hourly GPUs are >= 0 and
// add up to each series' GPU-hours, or InvalidInput naming file, row and column. demand() of a bill
// that loads returns a profile or InvalidInput. Fed whole it gives the same bill (or is refused too).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/bills/bill.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    if (size == 0) return 0;
    const std::size_t chunk = 1 + data[0];  // 1..256 bytes per feed
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    BillOptions options;
    options.max_series = 4;  // each series may span 100 years of hours: keep a run's memory small
    options.max_commitments = 16;
    options.focus.max_row_bytes = 4096;
    Bill bill;
    const bool read = fuzz::returns_or_rejects(text, [&] {
        BillStream stream("fuzz.csv", Catalog::builtin(), options);
        for (std::size_t at = 0; at < text.size(); at += chunk) stream.feed(text.substr(at, chunk));
        bill = stream.finish();
    });
    // Fed whole, most records are split in place rather than byte by byte: the same bill, or the same refusal.
    Bill whole;
    const bool read_whole = fuzz::returns_or_rejects(text, [&] {
        BillStream stream("fuzz.csv", Catalog::builtin(), options);
        stream.feed(text);
        whole = stream.finish();
    });
    if (read != read_whole) fuzz::finding("fed whole and in chunks, one reads and the other is refused");
    if (!read) return 0;
    if (whole.rows_read != bill.rows_read || whole.series.size() != bill.series.size())
        fuzz::finding("fed whole and in chunks, the bills differ");
    for (std::size_t i = 0; i < bill.series.size(); ++i)
        if (whole.series[i].gpus != bill.series[i].gpus) fuzz::finding("fed whole and in chunks, the hours differ");
    for (const GpuSeries& s : bill.series) {
        double sum = 0;
        for (double g : s.gpus) {
            fuzz::check_finite("series.gpus", g);
            if (g < 0) fuzz::finding("an hour with negative GPUs");
            sum += g;
        }
        fuzz::check_finite("series.gpu_hours", s.gpu_hours);
        if (std::abs(sum - s.gpu_hours) > 1e-9 * std::max(1.0, std::abs(sum)))
            fuzz::finding("hourly GPUs do not add up to the series' GPU-hours");
        fuzz::check_finite("series.list_cost", s.list_cost);
        fuzz::check_finite("series.effective_cost", s.effective_cost);
    }
    for (const FinOpsFigures* f : {&bill.figures, &bill.gpu_figures}) {
        fuzz::check_finite("figures.list_cost", f->list_cost);
        fuzz::check_finite("figures.effective_cost", f->effective_cost);
        fuzz::check_finite("figures.billed_cost", f->billed_cost);
        fuzz::check_finite("figures.unused_commitment_cost", f->unused_commitment_cost);
    }
    if (!fuzz::valid_utf8(bill.currency)) fuzz::finding("a currency that is not UTF-8");
    for (const UnmatchedSku& u : bill.unmatched)
        if (!fuzz::valid_utf8(u.name) || !fuzz::valid_utf8(u.sku_id)) fuzz::finding("an unmatched SKU not UTF-8");
    if (!bill.series.empty()) {
        DemandProfile history = DemandProfile::constant(0, Horizon::months(1));
        if (fuzz::returns_or_rejects(text, [&] { history = bill.demand(); }))
            fuzz::check_finite("demand.total_gpu_hours", history.total_gpu_hours());
    }
    return 0;
}
