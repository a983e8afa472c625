// Azure Retail Prices API items: pay-as-you-go ("Consumption"), Spot (a Consumption meter whose
// name ends in " Spot") and reservations (retailPrice is the price of the whole term).
#include <cctype>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "common.hpp"
#include "gputco/catalog/gpu_names.hpp"

namespace gputco {
namespace {

bool ends_with(std::string_view text, std::string_view tail) { return text.ends_with(tail); }

struct Group {
    std::string currency;
    std::optional<std::pair<double, std::string>> on_demand;  // price, pointer
    std::optional<std::pair<double, std::string>> spot;
    std::vector<std::pair<ReservedPrice, std::string>> reserved;
};

}  // namespace

ImportResult import_azure_retail_prices(std::string_view json_text, const ImportOptions& options) {
    const import::AllocationReserve reserve;  // a memory cap ends in bad_alloc, not an abort
    const std::string file = import::file_name(options, "azure retail prices");
    ImportResult result;
    std::map<std::pair<std::string, std::string>, Group> groups;  // (region, size)
    std::vector<std::pair<std::string, std::string>> order;         // in file order of first sight
    const bool keep_windows = options.operating_system == "windows";
    bool saw_items = false;
    auto read_item = [&](const std::string& ptr, const import::json& item) {
        import::count_row(result, options);
        const std::string at = fmt::format("{}: {}", file, ptr);
        const std::string& type = import::json_text(item, "type", at);
        const std::string& service = import::json_text(item, "serviceName", at);
        const std::string& sku_name = import::json_text(item, "skuName", at);
        const std::string& meter = import::json_text(item, "meterName", at);
        const std::string& product = import::json_text(item, "productName", at);
        const std::string& size = import::json_text(item, "armSkuName", at);
        const std::string& region = import::json_text(item, "armRegionName", at);
        const std::string& currency = import::json_text(item, "currencyCode", at);
        const std::string& unit = import::json_text(item, "unitOfMeasure", at);
        if (!item.contains("retailPrice")) throw InvalidInput(fmt::format("{}/retailPrice = (missing): required", at));
        const double price = import::json_number(item["retailPrice"], at + "/retailPrice");
        require(std::isfinite(price) && price >= 0, at + "/retailPrice", price, "must be finite and >= 0");
        auto skip = [&](std::string reason) { import::skip(result, options, {ptr, std::move(reason)}); };
        if (service != "Virtual Machines") { skip(fmt::format("service {} (not Virtual Machines)", service)); return; }
        if (type == "DevTestConsumption") { skip("DevTest price"); return; }
        if (ends_with(product, "Windows") != keep_windows) {
            skip(fmt::format("operating system {} (keeping {})", keep_windows ? "Linux" : "Windows", options.operating_system));
            return;
        }
        if (unit != "1 Hour") { skip(fmt::format("unit of measure {}", unit)); return; }
        if (ends_with(sku_name, " Low Priority") || ends_with(meter, " Low Priority")) { skip("Low Priority (batch tier)"); return; }
        const auto gpus = instance_gpus("azure", size);
        if (!gpus && !options.include_cpu_instances) { skip(fmt::format("no GPU (whole or share) known for size {}", size)); return; }
        const auto key = std::pair{region, size};
        auto [it, fresh] = groups.try_emplace(key);
        if (fresh) order.push_back(key);
        Group& g = it->second;
        if (g.currency.empty()) g.currency = currency;
        require(g.currency == currency, at + "/currencyCode", currency,
                fmt::format("differs from an earlier item of {} in {} ({})", size, region, g.currency));
        if (type == "Consumption") {
            auto& slot = (ends_with(sku_name, " Spot") || ends_with(meter, " Spot")) ? g.spot : g.on_demand;
            if (slot) { skip(fmt::format("duplicate of {}", slot->second)); return; }
            slot = std::pair{price, ptr};
        } else if (type == "Reservation") {
            const std::string& term = import::json_text(item, "reservationTerm", at);
            int years = 0;
            if (term == "1 Year") years = 1;
            else if (term.ends_with(" Years")) years = static_cast<int>(import::number(term.substr(0, term.size() - 6), at + "/reservationTerm"));
            require(years >= 1, at + "/reservationTerm", term, "must be \"1 Year\" or \"<n> Years\"");
            // The term's whole price, payable upfront or monthly at the same total (Azure has no surcharge).
            ReservedPrice all;
            all.term_years = years;
            all.payment = Payment::all_upfront;
            all.upfront = price;
            ReservedPrice monthly = all;
            monthly.payment = Payment::no_upfront;
            monthly.upfront = 0;
            monthly.hourly = price / (years * hours_per_year);
            bool duplicate = false;
            for (const auto& [r, p] : g.reserved) duplicate = duplicate || r.term_years == years;
            if (duplicate) { skip(fmt::format("second {} reservation of {} in {}", term, size, region)); return; }
            g.reserved.push_back({all, ptr});
            g.reserved.push_back({monthly, ptr});
        } else {
            skip(fmt::format("price type {}", type));
            return;
        }
    };
    // Items one at a time (a page {"Items": [...]} or a bare array): memory follows the kept prices.
    import::JsonStream stream;
    stream.capture = [](const import::JsonPath& p) { return (p.size() == 1 && std::isdigit(static_cast<unsigned char>(p[0][0]))) || (p.size() == 2 && p[0] == "Items"); };
    stream.use = [&](const import::JsonPath& p, import::json&& item) {
        saw_items = true;
        read_item(import::pointer(p), item);
    };
    bool page = false;
    stream.scalar = [&](const import::JsonPath& p, const import::json& value) {
        if (p.size() == 1 && p[0] == "Items") {  // null or a number would otherwise read as a page of no items
            throw InvalidInput(fmt::format("{}: /Items = {}: must be an array", file, import::preview(value)));
        }
        page = page || (p.size() == 1 && !std::isdigit(static_cast<unsigned char>(p[0][0])));
    };
    import::stream_json(json_text, options, stream);
    if (!saw_items && page && json_text.find("\"Items\"") == std::string_view::npos) throw InvalidInput(fmt::format("{}: /Items = (missing): required (an Azure Retail Prices page)", file));
    const std::string published = options.published.empty() ? "undated" : options.published;
    const std::string name = fmt::format("Azure Retail Prices API {}", file);
    for (const auto& key : order) {
        const Group& g = groups.at(key);
        if (!g.on_demand && !g.spot && g.reserved.empty()) continue;  // only items skipped above (counted there)
        // Without a pay-as-you-go item the size is kept as the file sells it: through reservations
        // (reservation_only), or else as spot only (spot_only). Its spot item beside reservations has
        // no offering to go to: reported.
        const bool reservation_only = !g.on_demand && !g.reserved.empty();
        const bool spot_only = !g.on_demand && !reservation_only;
        if (reservation_only && g.spot) {
            import::skip(result, options, {g.spot->second, fmt::format("spot price of {} in {}, which the file sells only "
                                                                       "through reservations (no pay-as-you-go price)",
                                                                       key.second, key.first)});
        }
        const std::string& first = g.on_demand ? g.on_demand->second : reservation_only ? g.reserved.front().second : g.spot->second;
        const auto gpus = instance_gpus("azure", key.second);
        Offering o = import::new_offering("azure", key.first, key.second, gpus ? gpus->gpu : "none", gpus ? gpus->count : 1,
                                          Source{name, published, first});
        o.currency = g.currency;
        o.on_demand_hourly = g.on_demand ? g.on_demand->first : 0.0;
        o.reservation_only = reservation_only;
        o.spot_only = spot_only;
        if (g.spot && !reservation_only) o.spot_hourly = g.spot->first;
        for (const auto& [r, p] : g.reserved) {
            ReservedPrice copy = r;
            copy.source = Source{name, published, p};
            o.reserved.push_back(std::move(copy));
        }
        if (g.spot && !reservation_only) o.notes = fmt::format("spot: {}", g.spot->second);
        if (!g.reserved.empty()) o.notes += (o.notes.empty() ? "" : "; ") + std::string("reservations: the term's price, all upfront or monthly (no_upfront) at the same total");
        if (reservation_only || spot_only)
            o.notes = std::string(reservation_only ? import::reservation_only_note : import::spot_only_note) + "; " + o.notes;
        o.validate(fmt::format("{}: {}", file, first));
        result.offerings.push_back(std::move(o));
    }
    return result;
}

}  // namespace gputco
