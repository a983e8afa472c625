#pragma once
// Importers of the providers' own price files. Each reads one format and returns offerings whose
// Source names the file, its publication date and the row each came from ("line 12" or a JSON
// pointer). Rows an importer does not use (another OS, a CPU-only machine, a meter it does not know)
// are counted in `skipped` with the reason, never dropped silently. A row sold one way only (a spot
// price and no on-demand one, or reservations and no on-demand price) is kept, as an offering marked
// spot_only or reservation_only, never with its missing price read as 0. A malformed file throws
// InvalidInput naming file, line or JSON pointer, and field:
//   "vms.csv:7 = 11 fields: the header has 10 (a field with an unquoted comma?)"
//
//   ImportResult r = import_skypilot_csv(read_text_file("vms.csv"), {.file = "vms.csv",
//                                         .published = "2026-04-02", .provider = "gcp"});
//   Catalog imported = r.catalog();
#include <cstddef>
#include <istream>
#include <map>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/core/cancel.hpp"

namespace gputco {

/// What an importer needs besides the text.
struct ImportOptions {
    std::string file;            ///< shown in errors and in every row's Source::name
    std::string published;       ///< publication date of the data (ISO); a date inside the file wins
    std::string provider;        ///< SkyPilot CSV only: aws, azure, gcp, lambda, alibaba, tencent
    std::string currency = "USD";  ///< SkyPilot CSV only: CNY for the community Alibaba/Tencent catalogs
    std::string operating_system = "linux";  ///< AWS, Azure, ec2instances.info: which OS's prices to keep
    bool include_cpu_instances = false;      ///< keep instance types without GPUs (gpu "none", 1 per instance)
    /// CSV: a row with more fields than the header is an error, unless this is set: then the extra
    /// fields are joined back into the last column (some Azure copies write Generation V1,V2 unquoted).
    bool join_extra_fields_into_last_column = false;
    std::size_t max_bytes = std::size_t(1) << 32;  ///< larger input is an error (4 GiB)
    /// A streamed file (the AWS offer file) holds at most this many bytes (64 GiB): memory follows the
    /// rows kept, not the file, so the limit only stops an input without end (a pipe, /dev/zero).
    std::size_t max_streamed_bytes = std::size_t(1) << 36;
    std::size_t max_rows = 10'000'000;             ///< more rows is an error
    int max_depth = 64;                            ///< JSON/YAML nesting deeper than this is an error
    std::size_t max_skipped_listed = 10'000;       ///< skipped rows listed one by one; all are counted
    /// Called every 1,024 rows and every 16,384 JSON parser events (a large file takes seconds);
    /// true throws Cancelled and nothing is returned. Empty: never.
    StopCheck should_stop;
};

/// A row the importer read but did not turn into a price.
struct SkippedRow {
    std::string row;     ///< "line 12" or "/Items/3"
    std::string reason;  ///< e.g. "operating system Windows (keeping linux)"
    bool operator==(const SkippedRow&) const = default;
};

/// The offerings read from one file, and an account of every row that was not used.
struct ImportResult {
    std::vector<Offering> offerings;
    std::size_t rows_read = 0;        ///< rows (CSV lines, JSON items, products) looked at
    std::size_t skipped_count = 0;    ///< rows read but not used
    std::vector<SkippedRow> skipped;  ///< the first ImportOptions::max_skipped_listed of them, with the reason
    std::map<std::string, std::size_t> skipped_reasons;  ///< every skipped row counted by reason

    /// The offerings kept, counted by how they are sold: "on demand" (with whatever spot and
    /// reservation prices the file adds), "spot only" (Offering::spot_only) and "reservation only"
    /// (Offering::reservation_only). A way with no offering is not listed.
    std::map<std::string, std::size_t> kept_by_way() const;
    /// "vms.csv: 200 rows read, 36 offerings, 12 rows skipped (8 x no GPU; 4 x ...); kept: 34 on demand, 2 spot only".
    std::string report(std::string_view file = {}) const;
    /// The offerings as a catalog with the built-in GPU specifications (validates them).
    Catalog catalog() const;
};

/// SkyPilot catalog `vms.csv`, the layouts of AWS, Azure (also the unquoted "V1,V2" rows of some
/// copies), GCP (machine rows joined with their separate GPU rows), Lambda, and the community
/// Alibaba/Tencent catalogs (set `currency` = "CNY" for theirs). One offering per region and zone.
ImportResult import_skypilot_csv(std::string_view text, const ImportOptions& options);

/// Azure Retail Prices API: a page ({"Items": [...], "NextPageLink": ...}) or a bare array of items.
/// Consumption → on-demand, " Spot" meters → spot, Reservation "1 Year"/"3 Years" → a reservation paid
/// all upfront (the item's retailPrice is the whole term's price). Low Priority, DevTest and Windows
/// items are skipped (counted).
ImportResult import_azure_retail_prices(std::string_view json_text, const ImportOptions& options);

/// AWS Price List Query API GetProducts pages ({"PriceList": ["<json of one product>", ...]}):
/// on-demand and every Reserved term (1/3 years × no/partial/all upfront × standard/convertible).
ImportResult import_aws_get_products(std::string_view json_text, const ImportOptions& options);
/// AWS Price List bulk offer file (AmazonEC2 offer index), read as a stream with a SAX parser so a
/// multi-gigabyte file needs memory for the kept products only. Same terms as above.
ImportResult import_aws_offer_file(std::istream& in, const ImportOptions& options);
/// The same, streamed from the file at `path` (opened with open_input_file).
ImportResult import_aws_offer_file(const std::string& path, const ImportOptions& options);

/// GCP Cloud Billing Catalog API SKU pages ({"skus": [...]}): GPU, vCPU and RAM are separate SKUs,
/// joined per machine type as vCPUs × core price + GiB × RAM price + GPUs × GPU price, for each
/// machine type of gpu_names.hpp's table whose three SKUs the file has in a region. OnDemand →
/// on-demand, Preemptible → spot, Commit1Yr/Commit3Yr → 1/3-year commitments billed by the hour.
ImportResult import_gcp_skus(std::string_view json_text, const ImportOptions& options);
/// Cyclenerd google-cloud-pricing-cost-calculator `pricing.yml`: compute.instance.<type>.cost.<region>
/// with hour, hour_spot, month_1y, month_3y (monthly commitment price / 730 h = hourly fee).
ImportResult import_cyclenerd_pricing_yml(std::string_view yaml_text, const ImportOptions& options);

/// ec2instances.info `instances.json`: on-demand, reserved terms (effective rates: all upfront is
/// stored as its upfront, no upfront as its hourly fee, partial upfront as its effective rate by the
/// hour) and the spot average where the record has one.
ImportResult import_ec2instances_json(std::string_view json_text, const ImportOptions& options);

/// The whole file as text. Throws InvalidInput naming the path when it cannot be read or holds more
/// than `max_bytes` (the importers' default limit, 4 GiB): a file's size is checked before it is read,
/// and a device or pipe, which has no size, is read up to the limit and no further.
std::string read_text_file(const std::string& path, std::size_t max_bytes = ImportOptions{}.max_bytes);
/// The file opened for reading, or InvalidInput saying why not: 'path = "<path>": cannot be opened
/// for reading: No such file or directory' (the system's reason), or ': is a directory, not a file'
/// (a folder opens, and its first read throws the standard library's "basic_filebuf::underflow").
std::ifstream open_input_file(const std::string& path);

}  // namespace gputco
