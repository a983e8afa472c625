// ec2instances.info instances.json: one record per instance type with prices per region and OS.
// Its reserved figures are effective hourly rates (upfront spread over the term).
#include <optional>

#include <fmt/format.h>

#include "common.hpp"
#include "gputco/catalog/gpu_names.hpp"

namespace gputco {
namespace {

/// "yrTerm3Convertible.partialUpfront" → (3, convertible, partial_upfront); false if not this shape.
bool parse_term(std::string_view key, int& years, bool& convertible, Payment& payment) {
    if (!key.starts_with("yrTerm") || key.size() < 8) return false;
    years = key[6] - '0';
    if (years != 1 && years != 3) return false;
    const std::size_t dot = key.find('.');
    if (dot == std::string_view::npos) return false;
    const std::string_view cls = key.substr(7, dot - 7);
    const std::string_view option = key.substr(dot + 1);
    if (cls != "Standard" && cls != "Convertible") return false;
    convertible = cls == "Convertible";
    if (option == "noUpfront") payment = Payment::no_upfront;
    else if (option == "partialUpfront") payment = Payment::partial_upfront;
    else if (option == "allUpfront") payment = Payment::all_upfront;
    else return false;
    return true;
}

}  // namespace

ImportResult import_ec2instances_json(std::string_view json_text, const ImportOptions& options) {
    const import::AllocationReserve reserve;  // a memory cap ends in bad_alloc, not an abort
    const std::string file = import::file_name(options, "instances.json");
    ImportResult result;
    const std::string published = options.published.empty() ? "undated" : options.published;
    const std::string name = fmt::format("ec2instances.info {}", file);
    const auto read_record = [&](std::size_t i, const import::json& record) {
        const std::string ptr = fmt::format("/{}", i);
        const std::string at = fmt::format("{}: {}", file, ptr);
        const std::string& type = import::json_text(record, "instance_type", at);
        const auto known = instance_gpus("aws", type);
        // A size that rents a share of one GPU (g6f, gr6f): the share is the AWS table's, whatever GPU
        // count the file writes (0.125, or none); a size of such a family the table does not know is
        // reported, never taken for a whole card or for no GPU.
        std::optional<std::string> share_note;
        if (known && parse_gpu_share(known->gpu)) {
            share_note = record.contains("GPU") ? fmt::format("the AWS table's share; the file writes GPU {}", record["GPU"].dump())
                                                : "the AWS table's share";
        } else if (!known && sold_in_shares("aws", type)) {
            import::count_row(result, options);
            import::skip(result, options, {ptr, import::unknown_share_reason(type, "AWS table")});
            return;
        }
        // Files written before the GPU field existed: the count from the AWS GPU table; a type not in it
        // is reported under its own reason, never taken for a CPU instance.
        double gpu_count = 0;
        if (share_note) {
            gpu_count = known->count;
        } else if (record.contains("GPU")) {
            gpu_count = import::json_number(record["GPU"], at + "/GPU");
        } else if (known) {
            gpu_count = known->count;
        } else {
            import::count_row(result, options);
            import::skip(result, options, {ptr, "no GPU field, and not a GPU type of the AWS table (gpu_names.hpp)"});
            return;
        }
        require(gpu_count >= 0 && gpu_count == static_cast<int>(gpu_count), at + "/GPU", gpu_count, "must be a whole number >= 0");
        std::string gpu;
        int gpus = static_cast<int>(gpu_count);
        if (gpus == 0) {
            if (!options.include_cpu_instances) {
                import::count_row(result, options);
                import::skip(result, options, {ptr, "no GPU"});
                return;
            }
            gpu = "none";
            gpus = 1;
        } else if (share_note) {
            gpu = known->gpu;
        } else if (record.contains("GPU_model") && record["GPU_model"].is_string()) {
            const double memory = record.contains("GPU_memory") && record["GPU_memory"].is_number()
                                      ? record["GPU_memory"].get<double>() / gpus : 0;
            gpu = normalise_gpu_name(record["GPU_model"].get<std::string>(), memory);
        } else if (known) {
            gpu = known->gpu;
        } else {
            gpu = "unknown";
        }
        const auto pricing = record.find("pricing");
        if (pricing == record.end() || !pricing->is_object()) {
            throw InvalidInput(fmt::format("{}/pricing = (missing): required (an object of regions)", at));
        }
        for (const auto& [region, by_os] : pricing->items()) {
            import::count_row(result, options);
            const std::string row = fmt::format("{}/pricing/{}/{}", ptr, region, options.operating_system);
            const auto prices = by_os.find(options.operating_system);
            if (prices == by_os.end()) {
                import::skip(result, options, {fmt::format("{}/pricing/{}", ptr, region), fmt::format("no {} prices", options.operating_system)});
                continue;
            }
            // Older files give an operating system's on-demand price as a bare string ("linux": "0.65").
            const bool bare = prices->is_string() || prices->is_number();
            const auto on_demand = bare ? prices : prices->find("ondemand");
            const bool has_on_demand =
                !((!bare && on_demand == prices->end()) || (on_demand->is_string() && on_demand->get<std::string>().empty()));
            const auto reserved_prices = bare ? prices->end() : prices->find("reserved");
            const bool has_reserved = !bare && reserved_prices != prices->end() && reserved_prices->is_object() && !reserved_prices->empty();
            const bool has_spot = !bare && prices->contains("spot_avg");
            if (!has_on_demand && !has_reserved && !has_spot) {
                import::skip(result, options, {row, "no on-demand, spot or reserved price"});
                continue;
            }
            Offering o = import::new_offering("aws", region, type, gpu, gpus, Source{name, published, row});
            if (has_on_demand) {
                o.on_demand_hourly = import::json_number(*on_demand, fmt::format("{}: {}{}", file, row, bare ? "" : "/ondemand"));
            } else if (has_reserved) {  // sold only through reservations; a spot average beside them is not used
                o.reservation_only = true;
                o.notes = std::string(import::reservation_only_note);
                if (has_spot) {
                    import::skip(result, options, {row + "/spot_avg", "spot price of a type the file sells only through "
                                                                      "reservations (no on-demand price)"});
                }
            } else {
                o.spot_only = true;
                o.notes = std::string(import::spot_only_note);
            }
            if (share_note) {
                const auto share = parse_gpu_share(gpu);
                o.notes = fmt::format("a 1/{} share of one {} ({}): one unit is the share{}", share->share_of, share->card,
                                      *share_note, o.notes.empty() ? "" : "; " + o.notes);
            }
            if (bare) {  // no spot or reserved prices in that layout
                o.validate(fmt::format("{}: {}", file, row));
                result.offerings.push_back(std::move(o));
                continue;
            }
            if (const auto spot = prices->find("spot_avg"); spot != prices->end() && !o.reservation_only) {
                o.spot_hourly = import::json_number(*spot, fmt::format("{}: {}/spot_avg", file, row));
                o.notes += std::string(o.notes.empty() ? "" : "; ") + "spot: ec2instances.info average spot price";
            }
            bool partial = false;
            if (const auto reserved = prices->find("reserved"); reserved != prices->end() && reserved->is_object()) {
                for (const auto& [key, value] : reserved->items()) {
                    int years = 0;
                    bool convertible = false;
                    Payment payment{};
                    if (!parse_term(key, years, convertible, payment)) {
                        import::skip(result, options, {fmt::format("{}/reserved/{}", row, key), "reserved term not understood"});
                        continue;
                    }
                    const double effective = import::json_number(value, fmt::format("{}: {}/reserved/{}", file, row, key));
                    ReservedPrice r;
                    r.term_years = years;
                    r.payment = payment;
                    r.convertible = convertible;
                    r.source = Source{name, published, fmt::format("{}/reserved/{}", row, key)};
                    // All upfront: no hourly fee, so upfront = effective × term hours exactly. No upfront:
                    // the hourly fee is the effective rate. Partial: the split is not in the file.
                    if (payment == Payment::all_upfront) r.upfront = effective * years * hours_per_year;
                    else r.hourly = effective;
                    partial = partial || payment == Payment::partial_upfront;
                    o.reserved.push_back(std::move(r));
                }
            }
            if (o.reservation_only && o.reserved.empty()) {  // its only prices were terms not understood
                import::skip(result, options, {row, "no on-demand price and no reserved term understood"});
                continue;
            }
            if (partial) {
                o.notes += std::string(o.notes.empty() ? "" : "; ") +
                           "partial_upfront stored as its effective rate (hourly, upfront 0): the file does not split it";
            }
            o.validate(fmt::format("{}: {}", file, row));
            result.offerings.push_back(std::move(o));
        }
    };
    // A single record (an object) is small; an array of records is streamed one record at a time, so
    // memory follows one record, not the file (a DOM of the whole file, destroyed under a memory
    // limit, ended in std::terminate: nlohmann's destructor allocates).
    const std::size_t first = json_text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && json_text[first] == '{') {
        read_record(0, import::parse_json(json_text, options));
        return result;
    }
    import::JsonStream stream;
    stream.capture = [](const import::JsonPath& p) { return p.size() == 1; };
    stream.use = [&](const import::JsonPath& p, import::json&& record) { read_record(std::stoul(p[0]), record); };
    import::stream_json(json_text, options, stream);  // a single value at the top is refused there
    return result;
}

}  // namespace gputco
