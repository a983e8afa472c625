// SkyPilot catalog vms.csv: one row per instance type, region and zone. The columns are found by
// name, so the AWS, Azure, GCP, Lambda and community Alibaba/Tencent layouts all read the same way.
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "common.hpp"
#include "gputco/catalog/gpu_names.hpp"

namespace gputco {
namespace {

using import::Line;

struct Columns {
    std::map<std::string, std::size_t> index;
    std::size_t count = 0;
    std::optional<std::size_t> find(const std::string& name) const {
        auto it = index.find(name);
        return it == index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }
};

/// The community Alibaba layout writes GpuInfo as "<name> <N>GB" ("V100 32GB", "RTX 5880 2GB"): N, or 0.
double gpu_memory_gib_in_text(std::string_view info) {
    if (!info.ends_with("GB")) return 0;
    const std::string_view head = info.substr(0, info.size() - 2);
    const std::size_t space = head.rfind(' ');
    const std::string_view digits = space == std::string_view::npos ? head : head.substr(space + 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return 0;
    return import::number(digits, "GpuInfo");
}

/// GpuInfo's "'<key>': <N>" figure in MiB ("'SizeInMiB': 40960"), in GiB; 0 when the key or its
/// number is absent.
double gpu_info_gib(std::string_view info, std::string_view key) {
    const std::size_t at = info.find(key);
    if (at == std::string_view::npos) return 0;
    const std::size_t start = info.find_first_of("0123456789", at);
    if (start == std::string_view::npos) return 0;
    const std::size_t end = info.find_first_not_of("0123456789", start);
    return import::number(info.substr(start, end - start), "GpuInfo") / 1024.0;
}

/// GpuInfo holds "'SizeInMiB': 40960" in SkyPilot's layouts (or "<name> <N>GB"); 0 when absent.
double gpu_memory_gib(std::string_view info) {
    if (info.find("SizeInMiB") == std::string_view::npos) return gpu_memory_gib_in_text(info);
    return gpu_info_gib(info, "SizeInMiB");
}

/// The region as a clean name: the parts of a comma list trimmed and the empty ones dropped. Vast.ai
/// writes a host's place as "State, CC, Continent" and leaves a part empty where it has none
/// (", US, NA" → "US, NA"), so two spellings of one place are never two regions.
std::string clean_region(std::string_view raw) {
    std::string out;
    for (std::size_t start = 0; start <= raw.size();) {
        std::size_t comma = raw.find(',', start);
        if (comma == std::string_view::npos) comma = raw.size();
        std::string_view part = raw.substr(start, comma - start);
        while (!part.empty() && std::isspace(static_cast<unsigned char>(part.front()))) part.remove_prefix(1);
        while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back()))) part.remove_suffix(1);
        if (!part.empty()) out += (out.empty() ? "" : ", ") + std::string(part);
        start = comma + 1;
    }
    return out;
}

/// SkyPilot's name of the GPUs a GCP accelerator-optimized machine type carries in its GPU rows.
std::string_view gcp_accelerator_row_name(std::string_view type) {
    if (type.starts_with("a2-highgpu") || type.starts_with("a2-megagpu")) return "A100";
    if (type.starts_with("a2-ultragpu")) return "A100-80GB";
    if (type.starts_with("a3-highgpu")) return "H100";
    if (type.starts_with("a3-megagpu")) return "H100-MEGA";
    if (type.starts_with("g2-standard")) return "L4";
    return {};  // newer families (a3-ultragpu, a4, g4, ...): found by canonical GPU name instead
}

/// A share written in the GPU's name, "A10*1/12" or "T4/8" (community Alibaba layout, AcceleratorCount 1):
/// the card's name and n; nullopt for any other name.
std::optional<GpuShare> share_in_name(std::string_view name) {
    std::string plain(name);
    if (const std::size_t star = plain.find("*1/"); star != std::string::npos) plain.erase(star, 2);
    return parse_gpu_share(plain);
}

struct Row {
    std::size_t line;
    std::string type, accelerator, region, zone;
    std::string raw_region;  ///< the Region field as written, where clean_region changed it; else empty
    int count = 0;
    int share_of = 0;  ///< n when the row rents 1/n of one GPU; 0 for whole GPUs
    double memory_gib = 0;
    bool memory_in_text = false;  ///< GpuInfo "<name> <N>GB": the memory the row's VM sees, maybe a slice
    std::string written_share;    ///< the name as the file writes a share in it ("A10*1/12"), else empty
    std::optional<double> price, spot;
};

}  // namespace

ImportResult import_skypilot_csv(std::string_view text, const ImportOptions& options) {
    const std::string file = import::file_name(options, "vms.csv");
    require(!options.provider.empty(), "options.provider", options.provider,
            "must name the cloud of a SkyPilot vms.csv (aws, azure, gcp, lambda, alibaba, tencent)");
    require(text.size() <= options.max_bytes, file, text.size(),
            fmt::format("bytes: more than the limit of {} (ImportOptions::max_bytes)", options.max_bytes));
    ImportResult result;
    const std::vector<Line> all = import::lines(text);
    require(!all.empty(), file, std::string_view(), "is empty (no header line)");
    Columns columns;
    {
        const std::vector<std::string> header = import::split_csv_line(all.front().text);
        columns.count = header.size();
        for (std::size_t i = 0; i < header.size(); ++i) columns.index[header[i]] = i;
    }
    auto required = [&](const char* name) {
        const auto c = columns.find(name);
        require(c.has_value(), fmt::format("{}:1", file), std::string(all.front().text.substr(0, 60)),
                fmt::format("header has no {} column", name));
        return *c;
    };
    const std::size_t c_type = required("InstanceType");
    const std::size_t c_price = required("Price");
    const std::size_t c_region = required("Region");
    const auto c_acc = columns.find("AcceleratorName");
    const auto c_count = columns.find("AcceleratorCount");
    const auto c_spot = columns.find("SpotPrice");
    const auto c_zone = columns.find("AvailabilityZone");
    const auto c_info = columns.find("GpuInfo");

    std::vector<Row> rows;
    for (std::size_t i = 1; i < all.size(); ++i) {
        const Line& line = all[i];
        if (line.text.empty()) continue;
        import::count_row(result, options);
        std::vector<std::string> f = import::split_csv_line(line.text);
        const std::string where = fmt::format("{}:{}", file, line.number);
        if (f.size() > columns.count && options.join_extra_fields_into_last_column) {
            for (std::size_t k = columns.count; k < f.size(); ++k) f[columns.count - 1] += "," + f[k];
            f.resize(columns.count);
        }
        require(f.size() == columns.count, where, fmt::format("{} fields", f.size()),
                fmt::format("the header has {}{}", columns.count,
                            f.size() > columns.count ? " (a field with an unquoted comma?)" : ""));
        Row r;
        r.line = line.number;
        r.type = f[c_type];
        r.region = clean_region(f[c_region]);
        if (r.region != f[c_region]) r.raw_region = f[c_region];
        if (c_zone) r.zone = f[*c_zone];
        if (c_acc) r.accelerator = f[*c_acc];
        if (c_count && !f[*c_count].empty()) {
            const double n = import::number(f[*c_count], where + ": AcceleratorCount");
            // A share of one GPU (Azure NV A10 v5: 0.167, 0.333, 0.5) is a real offering: its unit is
            // the share, 1/share_of GPUs (gpu_share_name). The file rounds 1/3 to 0.333, so within 1%.
            const double shares = n > 0 && n < 1 ? std::round(1 / n) : 0;
            if (shares >= 2 && shares <= 1024 && std::abs(shares * n - 1) <= 0.01) {
                r.count = 1;
                r.share_of = static_cast<int>(shares);
            } else if (n == 0 && r.accelerator.empty()) {
                r.count = 0;  // a CPU-only row as some files write it (Nebius: no AcceleratorName, count 0)
            } else {
                // Range first: converting a number beyond int (1e66) to compare it is undefined behaviour.
                require(n >= 1 && n <= 1e6 && n == std::floor(n), where + ": AcceleratorCount", f[*c_count],
                        "must be a whole number >= 1 and <= 1e6, or 1/n of one GPU (0.5, 0.333, 0.25, ...)");
                r.count = static_cast<int>(n);
            }
        }
        if (c_info) {
            r.memory_gib = gpu_memory_gib(f[*c_info]);
            // Vast.ai's copy writes the whole instance's memory as each card's SizeInMiB ("2x-A100_PCIE":
            // 81920 beside TotalGpuMemoryInMiB 81920); the total over the count is one card's in every layout.
            if (const double total = gpu_info_gib(f[*c_info], "TotalGpuMemoryInMiB"); total > 0 && r.count >= 1 && !r.share_of)
                r.memory_gib = total / r.count;
            // Only Alibaba's layout sells memory slices of a card under the card's name (sgn8ga "RTX 5880 2GB").
            r.memory_in_text = options.provider == "alibaba" && f[*c_info].find("SizeInMiB") == std::string::npos &&
                               r.memory_gib > 0;
        }
        if (const auto share = share_in_name(r.accelerator); share && r.count == 1 && !r.share_of) {
            // "A10*1/12" with AcceleratorCount 1 is one twelfth of an A10, not an A10.
            r.written_share = r.accelerator;
            r.accelerator = share->card;
            r.share_of = share->share_of;
        } else if (r.accelerator.ends_with("*1")) {
            r.accelerator.resize(r.accelerator.size() - 2);  // "A10*1": one whole A10 (Alibaba vgn7i-vws)
        }
        if (!f[c_price].empty()) r.price = import::number(f[c_price], where + ": Price");
        if (c_spot && !f[*c_spot].empty()) r.spot = import::number(f[*c_spot], where + ": SpotPrice");
        require(!r.region.empty(), where + ": Region", r.region, "must not be empty");
        rows.push_back(std::move(r));
    }

    const std::string published = options.published.empty() ? "undated" : options.published;
    const std::string source_name = fmt::format("SkyPilot catalog {} ({})", file, options.provider);
    const bool gcp = options.provider == "gcp";
    // GCP prices a GPU VM in two rows: the machine (no accelerator) and its GPUs (no instance type).
    std::map<std::tuple<std::string, std::string, std::string, int>, const Row*> gcp_gpu_rows;
    // The same rows by canonical GPU name, for machine types whose SkyPilot GPU name is not in
    // gcp_accelerator_row_name; a canonical key two names share (H100, H100-MEGA) is not used.
    std::map<std::tuple<std::string, std::string, std::string, int>, const Row*> gcp_gpu_rows_canonical;
    std::map<const Row*, bool> gcp_gpu_used;
    if (gcp) {
        for (const Row& r : rows) {
            if (r.type.empty() && !r.accelerator.empty()) {
                gcp_gpu_rows[{r.region, r.zone, r.accelerator, r.count}] = &r;
                const auto key = std::make_tuple(r.region, r.zone, normalise_gpu_name(r.accelerator, r.memory_gib), r.count);
                if (auto [it, fresh] = gcp_gpu_rows_canonical.emplace(key, &r); !fresh && it->second &&
                                                                                it->second->accelerator != r.accelerator) {
                    it->second = nullptr;
                }
                gcp_gpu_used[&r] = false;
            }
        }
    }
    // Where GpuInfo gives the memory a VM sees ("RTX 5880 2GB"), the most any whole-card row of that GPU
    // shows is the card's: a row with less is a slice whose share of the card the file does not say.
    // Keyed by canonical name, so cards sold in two memory sizes (V100 16 GB, V100 32 GB) stay two cards.
    std::map<std::string, double> card_memory;
    const auto card_of = [](const Row& r) { return normalise_gpu_name(r.accelerator, r.memory_gib); };
    for (const Row& r : rows) {
        if (r.memory_in_text && !r.share_of) card_memory[card_of(r)] = std::max(card_memory[card_of(r)], r.memory_gib);
    }
    std::map<std::string, std::size_t> first_line_of_key;
    for (const Row& r : rows) {
        const std::string row = fmt::format("line {}", r.line);
        if (gcp && r.type.empty()) continue;  // GPU rows: used by the join below, or reported after it
        if (!r.price && !r.spot) {
            import::skip(result, options, {row, "no on-demand or spot price"});
            continue;
        }
        if (r.memory_in_text && !r.share_of && r.memory_gib < card_memory[card_of(r)]) {
            import::skip(result, options,
                         {row, fmt::format("a slice of one {} ({:g} GB of the {:g} GB its whole-card rows show): its share of "
                                           "the card is not in the file",
                                           r.accelerator, r.memory_gib, card_memory[card_of(r)])});
            continue;
        }
        Source source{source_name, published, row};
        std::string gpu;
        int count = r.count;
        // A row with a spot price and no on-demand one is sold only as spot capacity (kept, spot_only).
        std::optional<double> price = r.price;
        std::optional<double> spot = r.spot;
        std::string note;
        if (gcp && r.accelerator.empty()) {
            const auto shape = instance_gpus("gcp", r.type);
            if (!shape) {
                if (options.include_cpu_instances) {
                    gpu = "none";
                    count = 1;
                } else {
                    import::skip(result, options, {row, "no GPU"});
                    continue;
                }
            } else {
                const std::string_view row_name = gcp_accelerator_row_name(r.type);
                const Row* found = nullptr;
                if (!row_name.empty()) {
                    const auto it = gcp_gpu_rows.find({r.region, r.zone, std::string(row_name), shape->count});
                    if (it != gcp_gpu_rows.end()) found = it->second;
                } else if (const auto it = gcp_gpu_rows_canonical.find({r.region, r.zone, shape->gpu, shape->count});
                           it != gcp_gpu_rows_canonical.end()) {
                    found = it->second;
                }
                if (!found || (!found->price && !found->spot)) {
                    import::skip(result, options, {row, "GCP machine row without its GPU row in the file"});
                    continue;
                }
                const Row& g = *found;
                // Machine and GPU are sold one way only where both rows price it.
                price = (price && g.price) ? std::optional<double>(*price + *g.price) : std::nullopt;
                spot = (spot && g.spot) ? std::optional<double>(*spot + *g.spot) : std::nullopt;
                if (!price && !spot) {
                    import::skip(result, options, {row, fmt::format("no way of buying priced by both the machine row and "
                                                                    "GPU row line {} (one has only on-demand, the other only spot)",
                                                                    g.line)});
                    continue;
                }
                gcp_gpu_used[&g] = true;
                gpu = shape->gpu;
                count = shape->count;
                source.row = fmt::format("lines {}+{}", r.line, g.line);
                note = fmt::format("machine row line {} plus GPU row line {} ({} x {})", r.line, g.line, count,
                                   g.accelerator);
            }
        } else if (r.accelerator.empty() || r.count == 0) {
            if (!options.include_cpu_instances) {
                import::skip(result, options, {row, "no GPU"});
                continue;
            }
            gpu = "none";
            count = 1;
        } else if (r.share_of) {
            // GpuInfo gives the share's memory: the card's is share_of times it.
            const std::string card = normalise_gpu_name(r.accelerator, r.memory_gib * r.share_of);
            gpu = gpu_share_name(card, r.share_of);
            note = r.written_share.empty()
                       ? fmt::format("a 1/{} share of one {} (AcceleratorCount {:.3g}): one unit is the share", r.share_of,
                                     card, 1.0 / r.share_of)
                       : fmt::format("a 1/{} share of one {} (the file writes \"{}\", AcceleratorCount 1): one unit is the share",
                                     r.share_of, card, r.written_share);
        } else if (const auto known = instance_gpus(options.provider, r.type, r.memory_gib); known && parse_gpu_share(known->gpu)) {
            // The file writes a whole card for a size that rents a share of one (Azure NVv4: "MI25", 1 for
            // every size): the share is the provider's size table's.
            const auto share = parse_gpu_share(known->gpu);
            gpu = known->gpu;
            count = known->count;
            note = fmt::format("a 1/{} share of one {} (the provider's size table; the file writes {} x {}): one unit "
                               "is the share",
                               share->share_of, share->card, r.count, r.accelerator);
        } else if (!known && sold_in_shares(options.provider, r.type)) {
            import::skip(result, options,
                         {row, import::unknown_share_reason(r.type, "provider's size table",
                                                            fmt::format("the file writes {} x {}", r.count, r.accelerator))});
            continue;
        } else {
            gpu = normalise_gpu_name(r.accelerator, r.memory_gib);
            // The provider's size table knows the card where the file's name does not: Azure's
            // NC40ads_H100_v5 is written "H100" but carries an H100 NVL (94 GB), not the SXM5 part.
            if (known && (known->count == 0 || known->count == r.count) && known->gpu != gpu) {
                note = fmt::format("the file names the GPU \"{}\"; the instance type carries {} (provider's size table)",
                                   r.accelerator, known->gpu);
                gpu = known->gpu;
            }
        }
        if (!r.raw_region.empty()) {
            const std::string said = fmt::format("the file writes the region \"{}\"", r.raw_region);
            note = note.empty() ? said : note + "; " + said;
        }
        Offering o = import::new_offering(options.provider, r.region, r.type, gpu, count, std::move(source));
        o.zone = r.zone;
        o.currency = options.currency;
        o.on_demand_hourly = price.value_or(0);
        o.spot_hourly = spot;
        o.spot_only = !price;
        if (o.spot_only) note = note.empty() ? std::string(import::spot_only_note) : note + "; " + std::string(import::spot_only_note);
        o.notes = note;
        const std::string key = o.key();
        if (auto [it, fresh] = first_line_of_key.emplace(key, r.line); !fresh) {
            import::skip(result, options, {row, fmt::format("duplicate of line {} ({})", it->second, key)});
            continue;
        }
        o.validate(fmt::format("{}:{}", file, r.line));
        result.offerings.push_back(std::move(o));
    }
    for (const auto& [g, used] : gcp_gpu_used) {
        if (!used) {
            import::skip(result, options, {fmt::format("line {}", g->line),
                                      "GCP GPU row joined to no machine type in the file (GPUs attached to N1 "
                                      "machines are not an instance type)"});
        }
    }
    return result;
}

}  // namespace gputco
