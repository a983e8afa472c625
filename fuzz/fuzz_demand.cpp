// Demand-model parameters (growth, volatility, events, seasonality, hour of week, history, base)
// and the calls that take them: expected_level() and DemandFutures::generate() with its accessors.
// The property: every level and GPU-hour figure finite, or InvalidInput naming the parameter.
// Horizons and future counts are bounded here so one input runs in milliseconds; their own limits
// are unit-tested, not fuzzed.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>

#include "fuzz_bytes.hpp"
#include "fuzz_check.hpp"
#include "gputco/work/demand_futures.hpp"

namespace {

using namespace gputco;
using gputco::fuzz::Bytes;

constexpr int max_months = 48;
constexpr std::size_t max_futures = 8;

std::vector<double> factors(Bytes& in, std::size_t length) {
    std::vector<double> out(length);
    const double fill = in.value(8);
    for (auto& f : out) f = in.choice(4) == 0 ? in.value(8) : fill;  // mostly one value: few bytes per input
    return out;
}

DemandModel read_model(Bytes& in) {
    DemandModel model;
    model.base_gpus = in.value(2);
    model.monthly_log_growth = in.value(64);
    model.monthly_log_volatility = in.value(64);
    for (unsigned n = in.choice(4); n > 0; --n)
        model.events.push_back({.gpus = in.value(2), .probability = in.value(64),
                                .first_month = static_cast<std::int8_t>(in.byte()),
                                .last_month = static_cast<std::int8_t>(in.byte())});
    const unsigned shapes = in.byte();
    if (shapes & 1u) model.seasonality = factors(in, (shapes & 2u) ? 12 : in.choice(14));
    if (shapes & 4u) model.hour_of_week = factors(in, (shapes & 8u) ? 168 : in.choice(170));
    if (shapes & 16u) {
        model.history_monthly_gpus.resize(in.choice(6));
        for (auto& h : model.history_monthly_gpus) h = in.value(2);
    }
    return model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    const DemandModel model = read_model(in);
    // Months outside [0, max_horizon_months) must be rejected, so the month is any int8 or any int.
    const int month = in.choice(2) ? static_cast<std::int8_t>(in.byte()) : in.integer();
    double level = 0;
    if (fuzz::returns_or_rejects({}, [&] { level = expected_level(model, month); }))
        fuzz::check_finite("expected_level", level);

    const int months = 1 + static_cast<int>(in.choice(max_months));
    const std::size_t count = 1 + in.choice(max_futures);
    const std::uint64_t seed = in.byte();
    std::optional<DemandFutures> generated;
    if (!fuzz::returns_or_rejects({}, [&] { generated = DemandFutures::generate(model, Horizon::months(months), count, seed); }))
        return 0;
    const DemandFutures& futures = *generated;
    if (futures.count() != count || futures.month_count() != months)
        fuzz::finding("generate() returned another shape than asked for");
    // Accessors inside the bounds answer (an InvalidInput there is a finding, not an answer).
    try {
        for (std::size_t f = 0; f < count; ++f)
            for (int m = 0; m < months; ++m) {
                fuzz::check_finite("DemandFutures.level", futures.level(f, m));
                fuzz::check_finite("DemandFutures.gpu_hours", futures.gpu_hours(f, m));
                fuzz::check_finite("DemandFutures.served_up_to", futures.served_up_to(f, m, in.byte() / 4.0));
            }
    } catch (const std::exception& e) {
        fuzz::finding("an accessor refused indices inside the bounds:", e.what());
    }
    // An index outside must be a clean error, never a read out of bounds.
    const int bad_month = in.choice(2) ? months + in.byte() : -1 - in.byte();
    if (fuzz::returns_or_rejects({}, [&] { (void)futures.gpu_hours(in.byte() % (count + 1), bad_month); }))
        fuzz::finding("gpu_hours() accepted a month outside the horizon");
    if (fuzz::returns_or_rejects({}, [&] { (void)futures.level(count + in.byte(), 0); }))
        fuzz::finding("level() accepted a future past count()");
    return 0;
}
