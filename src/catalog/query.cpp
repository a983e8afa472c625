// Filtering and ranking offerings.
#include "gputco/catalog/query.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "gputco/catalog/gpu_names.hpp"
#include "gputco/catalog/price_trust.hpp"

namespace gputco {

ProviderKind provider_kind(std::string_view provider) {
    // Known sellers of the built-in catalog; a hyperscaler sells far more than GPUs.
    static constexpr std::pair<std::string_view, ProviderKind> kinds[] = {
        {"aws", ProviderKind::hyperscaler},       {"azure", ProviderKind::hyperscaler},
        {"gcp", ProviderKind::hyperscaler},       {"alibaba", ProviderKind::hyperscaler},
        {"tencent", ProviderKind::hyperscaler},   {"huawei", ProviderKind::hyperscaler},
        {"lambda", ProviderKind::neocloud},       {"nebius", ProviderKind::neocloud},
        {"runpod", ProviderKind::neocloud},       {"hyperstack", ProviderKind::neocloud},
        {"paperspace", ProviderKind::neocloud},   {"coreweave", ProviderKind::neocloud},
        {"tensorwave", ProviderKind::neocloud},   {"vultr", ProviderKind::neocloud},
        {"vast", ProviderKind::marketplace},
    };
    for (const auto& [name, kind] : kinds)
        if (name == provider) return kind;
    return ProviderKind::unknown;
}

std::vector<Offering> query(const Catalog& catalog, const OfferingQuery& q) {
    if (q.min_gpu_memory_gb) require_non_negative("query.min_gpu_memory_gb", *q.min_gpu_memory_gb);
    if (q.gpus_per_instance) require(*q.gpus_per_instance >= 1, "query.gpus_per_instance", *q.gpus_per_instance, "must be >= 1");
    const Catalog dated = q.as_of ? catalog.as_of(*q.as_of) : Catalog();
    const Catalog& source = q.as_of ? dated : catalog;
    const std::string gpu = q.gpu.empty() ? std::string() : normalise_gpu_name(q.gpu);
    std::vector<Offering> out;
    for (const Offering& o : source.offerings()) {
        if (!gpu.empty() && o.gpu != gpu && normalise_gpu_name(o.gpu) != gpu) continue;
        if (!q.provider.empty() && o.provider != q.provider) continue;
        if (q.provider_kind && provider_kind(o.provider) != *q.provider_kind) continue;
        if (!q.region.empty() && o.region != q.region) continue;
        if (!q.currency.empty() && o.currency != q.currency) continue;
        if (q.gpus_per_instance && o.gpus_per_instance != *q.gpus_per_instance) continue;
        if (q.has_spot && o.spot_hourly.has_value() != *q.has_spot) continue;
        if (q.has_reservations && o.reserved.empty() == *q.has_reservations) continue;
        if (q.min_gpu_memory_gb) {
            // A share's memory is its fraction of the card's (a third of a 24 GB A10 has 8 GB).
            const auto share = parse_gpu_share(o.gpu);
            const std::string& card = share ? share->card : o.gpu;
            const auto& gpus = source.gpus();
            const auto spec = std::find_if(gpus.begin(), gpus.end(), [&](const GpuSpec& g) { return g.name == card; });
            if (spec == gpus.end() || spec->memory_gb * gpu_fraction(o.gpu) < *q.min_gpu_memory_gb) continue;
        }
        out.push_back(o);
    }
    return out;
}

namespace {

/// The offering's instance-hour price of `kind` in its own currency, if it has one.
std::optional<double> instance_hour_price(const Offering& o, PriceKind kind) {
    switch (kind) {
        case PriceKind::on_demand: return o.on_demand_hourly;
        case PriceKind::spot: return o.spot_hourly;
        case PriceKind::reserved_1y:
        case PriceKind::reserved_3y: {
            const int years = kind == PriceKind::reserved_1y ? 1 : 3;
            std::optional<double> best;
            for (const ReservedPrice& r : o.reserved) {
                if (r.term_years != years || r.convertible) continue;
                if (!best || r.effective_hourly() < *best) best = r.effective_hourly();
            }
            return best;
        }
    }
    return std::nullopt;
}

}  // namespace

double whole_gpus_per_instance(const Offering& o) {
    // A share's unit is a fraction of one card, so its GPU-hours are fraction × hours.
    return o.gpus_per_instance * gpu_fraction(o.gpu);
}

std::vector<RankedOffering> rank_by_gpu_hour_price(const std::vector<Offering>& offerings, std::string_view currency,
                                                   const ExchangeRates& rates, const Date& date, PriceKind kind) {
    std::vector<RankedOffering> out;
    for (const Offering& o : offerings) {
        const auto price = instance_hour_price(o, kind);
        if (!price) continue;
        const RateQuote q = rates.quote(o.currency, currency, date);
        out.push_back(RankedOffering{o, *price / whole_gpus_per_instance(o) * q.rate, std::string(currency), q.describe(),
                                     price_age_days(o, date), is_stale(o, date)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const RankedOffering& a, const RankedOffering& b) { return a.per_gpu_hour < b.per_gpu_hour; });
    return out;
}

std::vector<GpuPriceSpread> price_spread(const std::vector<RankedOffering>& ranked) {
    std::map<std::string, std::vector<const RankedOffering*>> by_gpu;
    for (const RankedOffering& r : ranked) by_gpu[r.offering.gpu].push_back(&r);
    std::vector<GpuPriceSpread> out;
    for (auto& [gpu, rows] : by_gpu) {
        std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) { return a->per_gpu_hour < b->per_gpu_hour; });
        const std::size_t n = rows.size();
        GpuPriceSpread s{gpu, n, rows.front()->per_gpu_hour, 0, rows.back()->per_gpu_hour,
                         rows.front()->offering.key(), rows.back()->offering.key()};
        s.median = n % 2 ? rows[n / 2]->per_gpu_hour : 0.5 * (rows[n / 2 - 1]->per_gpu_hour + rows[n / 2]->per_gpu_hour);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace gputco
