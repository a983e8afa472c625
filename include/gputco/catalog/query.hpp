#pragma once
// Finding offerings: filter a catalog by what matters for choosing a GPU, then rank by price per
// GPU-hour in one currency (converted with a dated exchange-rate table, never implicitly).
//
//   OfferingQuery q;  q.gpu = "a100";  q.min_gpu_memory_gb = 80;  q.has_spot = true;
//   auto ranked = rank_by_gpu_hour_price(query(Catalog::builtin(), q), "USD",
//                                        ExchangeRates::builtin(), Date{2025, 1, 1});
#include <optional>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/currency.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// What kind of seller a provider is: a hyperscaler (a general cloud), a neocloud (a GPU cloud selling
/// its own machines) or a marketplace (hosts' asks, prices vary by offer).
enum class ProviderKind { hyperscaler, neocloud, marketplace, unknown };
template <>
struct EnumText<ProviderKind> {
    static constexpr std::array<EnumName<ProviderKind>, 4> names{{
        {ProviderKind::hyperscaler, "hyperscaler"},
        {ProviderKind::neocloud, "neocloud"},
        {ProviderKind::marketplace, "marketplace"},
        {ProviderKind::unknown, "unknown"},
    }};
};
inline std::string_view to_string(ProviderKind kind) { return to_text(kind); }
/// The kind of a provider the catalog knows (aws, azure, gcp, alibaba, tencent, huawei: hyperscaler;
/// lambda, nebius, runpod, hyperstack, paperspace, coreweave, tensorwave, vultr: neocloud; vast:
/// marketplace); unknown for any other name (a user's own provider).
ProviderKind provider_kind(std::string_view provider);

/// Criteria an offering must meet; empty ones are not checked.
struct OfferingQuery {
    std::string gpu;                        ///< any provider's spelling ("a100", "Nvidia Tesla T4"), normalised
    std::optional<double> min_gpu_memory_gb;  ///< per GPU, from the catalog's GpuSpec (unknown GPUs fail it)
    std::optional<int> gpus_per_instance;
    std::string provider;
    std::string region;
    std::string currency;
    std::optional<bool> has_spot;
    std::optional<bool> has_reservations;
    std::optional<Date> as_of;              ///< look at the prices in force at this date (Catalog::as_of)
    std::optional<ProviderKind> provider_kind;
};

/// The offerings of `catalog` that meet every criterion, in catalog order. Throws InvalidInput for
/// a min_gpu_memory_gb that is not finite and >= 0 or a gpus_per_instance < 1.
std::vector<Offering> query(const Catalog& catalog, const OfferingQuery& criteria);

/// Which price to rank by.
enum class PriceKind { on_demand, spot, reserved_1y, reserved_3y };
template <>
struct EnumText<PriceKind> {
    static constexpr std::array<EnumName<PriceKind>, 4> names{{
        {PriceKind::on_demand, "on_demand"},
        {PriceKind::spot, "spot"},
        {PriceKind::reserved_1y, "reserved_1y"},
        {PriceKind::reserved_3y, "reserved_3y"},
    }};
};
inline std::string_view to_string(PriceKind kind) { return to_text(kind); }
/// Parses "on_demand", "spot", "reserved_1y" or "reserved_3y"; throws InvalidInput naming `field`.
inline PriceKind parse_price_kind(std::string_view text, std::string_view field = "price") {
    return parse<PriceKind>(text, field);
}

/// The whole GPUs one instance of `o` rents: gpus_per_instance × the share's fraction of one card
/// (gpu_fraction: 1 for whole cards, 1/3 for "A10/3"), so a price per instance-hour divided by it is per
/// whole GPU-hour, the unit every ranking and `gputco catalog` lists.
double whole_gpus_per_instance(const Offering& o);

/// An offering with its price per GPU-hour in the ranking currency.
struct RankedOffering {
    Offering offering;         ///< in its own currency
    double per_gpu_hour = 0;   ///< in `currency`
    std::string currency;
    std::string conversion;    ///< the rate used ("same currency" or RateQuote::describe())
    std::optional<long long> price_age_days;  ///< at the ranking's date (price_trust.hpp); nullopt: undated
    bool stale = false;        ///< older than stale_price_age_days at the ranking's date, or undated
};

/// `offerings` sorted by price per GPU-hour of `kind` in `currency` (cheapest first; ties keep their
/// order). Reserved prices rank by the cheapest effective rate over the payment options of the term
/// (standard class). Offerings without that price are left out. Prices in another currency are
/// converted at the rate in force at `date`; a missing rate throws InvalidInput. Each row carries its
/// price's age at `date` and is flagged stale beyond stale_price_age_days (price_trust.hpp).
std::vector<RankedOffering> rank_by_gpu_hour_price(const std::vector<Offering>& offerings, std::string_view currency,
                                                   const ExchangeRates& rates, const Date& date,
                                                   PriceKind kind = PriceKind::on_demand);

/// The spread of one GPU's price per GPU-hour across offerings (one currency).
struct GpuPriceSpread {
    std::string gpu;
    std::size_t offerings = 0;
    double min = 0, median = 0, max = 0;  ///< per GPU-hour; median of an even count is the mean of the middle two
    std::string cheapest, dearest;         ///< Offering::key() of the min and the max
};

/// Per GPU (sorted by name), the min, median and max of `ranked`'s per-GPU-hour prices; all in one
/// currency, so pass the output of rank_by_gpu_hour_price.
std::vector<GpuPriceSpread> price_spread(const std::vector<RankedOffering>& ranked);

}  // namespace gputco
