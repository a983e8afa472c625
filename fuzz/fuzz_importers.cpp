// Every price-file importer (catalog/importers.hpp) on arbitrary text. The first byte picks the
// format (a letter below; any other byte by its value modulo the table), the rest is the file. Each
// call returns rows with finite prices and a consistent account of the rows it skipped, or throws
// InvalidInput; the offerings it returns build a catalog or are rejected by InvalidInput.
#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/catalog/importers.hpp"

namespace {

using namespace gputco;

enum class Format { skypilot, azure, aws_get_products, aws_offer_file, gcp_skus, cyclenerd_yaml, ec2instances };

struct Choice {
    char letter;
    Format format;
    const char* provider;  // SkyPilot only
};

// Letters so that a seed file reads as "<letter><the provider's file>".
constexpr std::array<Choice, 12> choices{{
    {'a', Format::azure, ""},
    {'p', Format::aws_get_products, ""},
    {'o', Format::aws_offer_file, ""},
    {'g', Format::gcp_skus, ""},
    {'y', Format::cyclenerd_yaml, ""},
    {'e', Format::ec2instances, ""},
    {'1', Format::skypilot, "aws"},
    {'2', Format::skypilot, "azure"},
    {'3', Format::skypilot, "gcp"},
    {'4', Format::skypilot, "lambda"},
    {'5', Format::skypilot, "alibaba"},
    {'6', Format::skypilot, "tencent"},
}};

Choice choose(std::uint8_t byte) {
    for (const Choice& c : choices)
        if (static_cast<std::uint8_t>(c.letter) == byte) return c;
    return choices[byte % choices.size()];
}

ImportResult run(const Choice& choice, std::string_view text, const ImportOptions& options) {
    switch (choice.format) {
        case Format::skypilot: return import_skypilot_csv(text, options);
        case Format::azure: return import_azure_retail_prices(text, options);
        case Format::aws_get_products: return import_aws_get_products(text, options);
        case Format::aws_offer_file: {
            std::istringstream in{std::string(text)};
            return import_aws_offer_file(in, options);
        }
        case Format::gcp_skus: return import_gcp_skus(text, options);
        case Format::cyclenerd_yaml: return import_cyclenerd_pricing_yml(text, options);
        case Format::ec2instances: return import_ec2instances_json(text, options);
    }
    fuzz::finding("unknown format");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const Choice choice = choose(data[0]);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    ImportOptions options{.file = "prices", .published = "2026-01-01", .provider = choice.provider};
    if (std::string_view(choice.provider) == "alibaba" || std::string_view(choice.provider) == "tencent")
        options.currency = "CNY";
    // Small limits so the fuzzer reaches them; the bit of the byte after the letter keeps CPU rows.
    options.max_rows = 2'000;
    options.max_skipped_listed = 50;
    options.max_depth = 16;
    options.include_cpu_instances = size > 1 && (data[1] & 1u) != 0;

    ImportResult result;
    if (!fuzz::returns_or_rejects(text, [&] { result = run(choice, text, options); })) return 0;

    if (result.skipped_count > result.rows_read) fuzz::finding("more rows skipped than read");
    if (result.skipped.size() > result.skipped_count || result.skipped.size() > options.max_skipped_listed)
        fuzz::finding("skipped rows listed beyond their count or the listing limit");
    std::size_t by_reason = 0;
    for (const auto& [reason, count] : result.skipped_reasons) by_reason += count;
    if (by_reason != result.skipped_count) fuzz::finding("skipped rows by reason do not add up to skipped_count");
    if (result.rows_read > options.max_rows) fuzz::finding("more rows read than max_rows");
    for (const Offering& o : result.offerings) {
        if (o.gpus_per_instance < 1) fuzz::finding("an offering with fewer than one GPU per instance");
        fuzz::check_finite("offering.on_demand_hourly", o.on_demand_hourly);
        if (o.spot_hourly) fuzz::check_finite("offering.spot_hourly", *o.spot_hourly);
        for (const ReservedPrice& r : o.reserved) fuzz::check_finite("reserved.effective_hourly", r.effective_hourly());
        // Python turns these into str: from a valid UTF-8 file they must stay valid.
        if (fuzz::valid_utf8(text) && (!fuzz::valid_utf8(o.instance_type) || !fuzz::valid_utf8(o.region) ||
                                       !fuzz::valid_utf8(o.gpu) || !fuzz::valid_utf8(o.source.name)))
            fuzz::finding("an offering's text is not valid UTF-8:", o.instance_type);
    }
    (void)result.report("prices");
    fuzz::returns_or_rejects(text, [&] { (void)result.catalog(); });
    return 0;
}
