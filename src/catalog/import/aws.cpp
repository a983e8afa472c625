// AWS Price List: GetProducts pages (Query API) and the bulk offer file, read as a stream.
// Both describe a product (SKU, attributes) and its terms: OnDemand (an hourly price) and Reserved
// (LeaseContractLength 1yr/3yr × PurchaseOption × OfferingClass; an "Upfront Fee" of unit Quantity
// and/or an hourly fee of unit Hrs).
#include <map>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "common.hpp"
#include "gputco/catalog/gpu_names.hpp"

namespace gputco {
namespace {

using import::json;

/// Region codes of the display names that older offer files use instead of regionCode.
std::string region_of(const json& attributes) {
    if (auto it = attributes.find("regionCode"); it != attributes.end() && it->is_string()) return it->get<std::string>();
    static const std::pair<std::string_view, std::string_view> names[] = {
        {"US East (N. Virginia)", "us-east-1"},      {"US East (Ohio)", "us-east-2"},
        {"US West (N. California)", "us-west-1"},    {"US West (Oregon)", "us-west-2"},
        {"EU (Ireland)", "eu-west-1"},               {"EU (London)", "eu-west-2"},
        {"EU (Paris)", "eu-west-3"},                 {"EU (Frankfurt)", "eu-central-1"},
        {"EU (Stockholm)", "eu-north-1"},            {"Asia Pacific (Tokyo)", "ap-northeast-1"},
        {"Asia Pacific (Seoul)", "ap-northeast-2"},  {"Asia Pacific (Singapore)", "ap-southeast-1"},
        {"Asia Pacific (Sydney)", "ap-southeast-2"}, {"Asia Pacific (Mumbai)", "ap-south-1"},
        {"Canada (Central)", "ca-central-1"},        {"South America (Sao Paulo)", "sa-east-1"},
        {"AWS GovCloud (US-West)", "us-gov-west-1"}, {"AWS GovCloud (US-East)", "us-gov-east-1"},
    };
    if (auto it = attributes.find("location"); it != attributes.end() && it->is_string()) {
        for (auto [display, code] : names) {
            if (it->get_ref<const std::string&>() == display) return std::string(code);
        }
        return it->get<std::string>();
    }
    return {};
}

std::string attribute(const json& attributes, std::string_view key) {
    auto it = attributes.find(key);
    return it != attributes.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// The product as an offering without prices, or the reason it is not one.
struct Product {
    std::string sku, pointer;
    std::optional<Offering> offering;
    std::string skip_reason;
};

Product read_product(const json& product, const std::string& pointer, const std::string& at, const ImportOptions& options,
                     const Source& source) {
    Product p;
    p.pointer = pointer;
    p.sku = import::json_text(product, "sku", at);
    const std::string family = attribute(product, "productFamily");
    const auto attrs_it = product.find("attributes");
    if (attrs_it == product.end() || !attrs_it->is_object()) {
        throw InvalidInput(fmt::format("{}/attributes = (missing): required (an object)", at));
    }
    const json& a = *attrs_it;
    auto reject = [&](std::string reason) {
        p.skip_reason = std::move(reason);
        return p;
    };
    if (!family.starts_with("Compute Instance")) return reject(fmt::format("product family {}", family.empty() ? "(none)" : family));
    const std::string os = attribute(a, "operatingSystem");
    std::string wanted = options.operating_system;
    if (!wanted.empty()) wanted[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(wanted[0])));
    if (os != wanted) return reject(fmt::format("operating system {} (keeping {})", os, wanted));
    if (const std::string t = attribute(a, "tenancy"); t != "Shared") return reject(fmt::format("tenancy {}", t));
    if (const std::string sw = attribute(a, "preInstalledSw"); !sw.empty() && sw != "NA") return reject(fmt::format("pre-installed software {}", sw));
    if (const std::string lic = attribute(a, "licenseModel"); !lic.empty() && lic != "No License required") {
        return reject(fmt::format("license model {}", lic));
    }
    if (const std::string cap = attribute(a, "capacitystatus"); !cap.empty() && cap != "Used") return reject(fmt::format("capacity status {}", cap));
    const std::string type = attribute(a, "instanceType");
    if (type.empty()) throw InvalidInput(fmt::format("{}/attributes/instanceType = (missing): required", at));
    std::string gpu = "none";
    int gpus = 1;
    if (const auto known = instance_gpus("aws", type)) {
        gpu = known->gpu;
        gpus = known->count;
    } else if (sold_in_shares("aws", type)) {
        return reject(import::unknown_share_reason(type, "AWS table"));
    } else if (const std::string n = attribute(a, "gpu"); !n.empty() && n != "0") {
        gpu = "unknown";
        gpus = static_cast<int>(import::number(n, at + "/attributes/gpu"));
    } else if (!options.include_cpu_instances) {
        return reject("no GPU");
    }
    Source s = source;
    s.row = pointer;
    Offering o = import::new_offering("aws", region_of(a), type, gpu, gpus, std::move(s));
    if (o.region.empty()) throw InvalidInput(fmt::format("{}/attributes/location = (missing): required", at));
    p.offering = std::move(o);
    return p;
}

/// The hourly fee and the upfront fee of a term's price dimensions, in the currency found.
struct Dimensions {
    std::optional<double> hourly, upfront;
    std::string currency;
};

Dimensions read_dimensions(const json& term, const std::string& at) {
    Dimensions d;
    const auto dims = term.find("priceDimensions");
    if (dims == term.end() || !dims->is_object()) throw InvalidInput(fmt::format("{}/priceDimensions = (missing): required", at));
    for (const auto& [code, dim] : dims->items()) {
        const std::string where = fmt::format("{}/priceDimensions/{}", at, code);
        const std::string& unit = import::json_text(dim, "unit", where);
        const auto ppu = dim.find("pricePerUnit");
        if (ppu == dim.end() || !ppu->is_object() || ppu->empty()) throw InvalidInput(fmt::format("{}/pricePerUnit = (missing): required", where));
        // The key is read from the iterator itself: items() is a temporary range proxy.
        const auto first = ppu->begin();
        const std::string currency = first.key();
        const auto& value = first.value();
        d.currency = currency;
        const double amount = import::json_number(value, fmt::format("{}/pricePerUnit/{}", where, currency));
        require(std::isfinite(amount) && amount >= 0, fmt::format("{}/pricePerUnit/{}", where, currency), amount, "must be finite and >= 0");
        if (unit == "Hrs") d.hourly = amount;
        else if (unit == "Quantity") d.upfront = amount;
        else fail(where + "/unit", unit, "must be Hrs or Quantity");
    }
    return d;
}

/// Adds the prices of one term to the offering; returns a skip reason when the term is not used.
std::string add_term(Offering& o, bool reserved, const json& term, const std::string& at, const std::string& row,
                     const Source& source) {
    const Dimensions d = read_dimensions(term, at);
    if (!reserved) {
        if (!d.hourly) return "on-demand term without an hourly price";
        o.on_demand_hourly = *d.hourly;
        o.currency = d.currency;
        return {};
    }
    const auto attrs = term.find("termAttributes");
    if (attrs == term.end() || !attrs->is_object()) throw InvalidInput(fmt::format("{}/termAttributes = (missing): required", at));
    const std::string length = import::json_text(*attrs, "LeaseContractLength", at + "/termAttributes");
    const std::string option = import::json_text(*attrs, "PurchaseOption", at + "/termAttributes");
    const std::string cls = import::json_text(*attrs, "OfferingClass", at + "/termAttributes");
    ReservedPrice r;
    if (length == "1yr") r.term_years = 1;
    else if (length == "3yr") r.term_years = 3;
    else return fmt::format("lease length {}", length);
    if (option == "No Upfront") r.payment = Payment::no_upfront;
    else if (option == "Partial Upfront") r.payment = Payment::partial_upfront;
    else if (option == "All Upfront") r.payment = Payment::all_upfront;
    else return fmt::format("purchase option {}", option);
    if (cls != "standard" && cls != "convertible") return fmt::format("offering class {}", cls);
    r.convertible = cls == "convertible";
    r.upfront = d.upfront.value_or(0);
    r.hourly = d.hourly.value_or(0);
    r.source = source;
    r.source.row = row;
    if (!o.currency.empty() && o.currency != d.currency && !d.currency.empty()) {
        fail(at, d.currency, fmt::format("currency differs from the on-demand price's ({})", o.currency));
    }
    if (o.reserved_price(r.term_years, r.payment, r.convertible)) return "second reserved term of the same length, option and class";
    o.reserved.push_back(std::move(r));
    return {};
}

/// Builds offerings from products in file order and their terms; the same for both formats.
class Assembler {
public:
    Assembler(ImportResult& result, const ImportOptions& options) : result_(result), options_(options) {}

    void product(Product p) {
        import::count_row(result_, options_);
        if (!p.offering) {
            import::skip(result_, options_, {p.pointer, p.skip_reason});
            return;
        }
        index_[p.sku] = kept_.size();
        kept_.push_back(std::move(p));
    }
    /// `terms`: {"SKU.CODE": term, ...} of one product.
    void terms(const std::string& sku, bool reserved, const json& terms, const std::string& pointer) {
        const auto it = index_.find(sku);
        if (it == index_.end()) return;  // a product skipped above (already counted)
        Offering& o = *kept_[it->second].offering;
        if (!terms.is_object()) throw InvalidInput(fmt::format("{}: {} = {}: must be an object of terms", file(), pointer, import::preview(terms)));
        for (const auto& [code, term] : terms.items()) {
            const std::string at = fmt::format("{}/{}", pointer, code);
            const std::string why = add_term(o, reserved, term, fmt::format("{}: {}", file(), at), at, o.source);
            if (!why.empty()) import::skip(result_, options_, {at, why});
            // Only a term read sets the on-demand price: a skipped one leaves 0, which is no price.
            else if (!reserved) has_on_demand_[sku] = true;
        }
    }
    void finish() {
        for (Product& p : kept_) {
            Offering& o = *p.offering;
            if (!has_on_demand_[p.sku]) {
                // Reserved terms and no on-demand one: sold only through reservations (kept).
                if (o.reserved.empty()) {
                    import::skip(result_, options_, {p.pointer, "no on-demand or reserved term"});
                    continue;
                }
                o.reservation_only = true;
                o.notes = std::string(import::reservation_only_note);
            }
            if (o.gpu == "none") o.notes += std::string(o.notes.empty() ? "" : "; ") + "no GPU: per-GPU figures are per instance";
            o.validate(fmt::format("{}: {}", file(), p.pointer));
            result_.offerings.push_back(std::move(o));
        }
    }
    void set_published(std::string date) { published_ = std::move(date); }
    Source source() const {
        return Source{fmt::format("AWS Price List {}", file()), published_.empty() ? (options_.published.empty() ? "undated" : options_.published) : published_, ""};
    }
    std::string file() const { return import::file_name(options_, "AmazonEC2 offer file"); }

private:
    ImportResult& result_;
    const ImportOptions& options_;
    std::vector<Product> kept_;
    std::unordered_map<std::string, std::size_t> index_;
    std::unordered_map<std::string, bool> has_on_demand_;
    std::string published_;
};

}  // namespace

ImportResult import_aws_offer_file(std::istream& in, const ImportOptions& options) {
    const import::AllocationReserve reserve;  // a memory cap ends in bad_alloc, not an abort
    ImportResult result;
    Assembler assembler(result, options);
    // Only one product, or one product's terms, is in memory at a time: /products/<sku>,
    // /terms/OnDemand/<sku>, /terms/Reserved/<sku>.
    import::JsonStream stream;
    stream.capture = [](const import::JsonPath& p) {
        return (p.size() == 2 && p[0] == "products") ||
               (p.size() == 3 && p[0] == "terms" && (p[1] == "OnDemand" || p[1] == "Reserved"));
    };
    stream.use = [&](const import::JsonPath& p, json&& value) {
        const std::string ptr = import::pointer(p);
        if (p[0] == "products") {
            assembler.product(read_product(value, ptr, fmt::format("{}: {}", assembler.file(), ptr), options, assembler.source()));
        } else {
            assembler.terms(p[2], p[1] == "Reserved", value, ptr);
        }
    };
    stream.scalar = [&](const import::JsonPath& p, const json& value) {
        if (p.size() == 1 && p[0] == "publicationDate" && value.is_string()) {
            assembler.set_published(import::date_part(value.get<std::string>()));
        }
    };
    import::stream_json(in, options, stream);
    assembler.finish();
    return result;
}

ImportResult import_aws_offer_file(const std::string& path, const ImportOptions& options) {
    std::ifstream in = open_input_file(path);
    return import_aws_offer_file(in, options);
}

ImportResult import_aws_get_products(std::string_view json_text, const ImportOptions& options) {
    const import::AllocationReserve reserve;  // a memory cap ends in bad_alloc, not an abort
    ImportResult result;
    Assembler assembler(result, options);
    const std::string file = assembler.file();
    // One product at a time, streamed: memory follows one product, not the page (a page's DOM, every
    // product's DOM kept for a second pass, and their destruction under a memory limit ended in
    // std::terminate: nlohmann's destructor allocates).
    bool listed = false;
    const auto read_entry = [&](const import::JsonPath& p, const json& entry) {
        listed = true;
        const std::string ptr = import::pointer(p);
        json product;
        if (entry.is_string()) {  // the Query API double-encodes each product as a JSON string
            ImportOptions inner = options;
            inner.file = fmt::format("{} {}", file, ptr);
            product = import::parse_json(entry.get_ref<const std::string&>(), inner);
        } else {
            product = entry;
        }
        if (!product.is_object()) throw InvalidInput(fmt::format("{}: {} = {}: must be a product object", file, ptr, import::preview(product)));
        if (auto d = product.find("publicationDate"); d != product.end() && d->is_string()) {
            assembler.set_published(import::date_part(d->get<std::string>()));
        }
        const auto at = product.find("product");
        if (at == product.end()) throw InvalidInput(fmt::format("{}: {}/product = (missing): required", file, ptr));
        assembler.product(read_product(*at, ptr, fmt::format("{}: {}/product", file, ptr), options, assembler.source()));
        const std::string sku = (*at).value("sku", "");
        const auto terms = product.find("terms");
        if (terms == product.end()) return;
        for (const char* kind : {"OnDemand", "Reserved"}) {
            if (auto t = terms->find(kind); t != terms->end()) {
                assembler.terms(sku, std::string_view(kind) == "Reserved", *t, fmt::format("{}/terms/{}", ptr, kind));
            }
        }
    };
    import::JsonStream stream;
    stream.capture = [](const import::JsonPath& p) { return p.size() == 2 && p[0] == "PriceList"; };
    stream.use = [&](const import::JsonPath& p, json&& entry) { read_entry(p, entry); };
    stream.scalar = [&](const import::JsonPath& p, const json& value) {
        if (p.size() == 1 && p[0] == "PriceList") {
            throw InvalidInput(fmt::format("{}: /PriceList = {}: must be an array of products", file, import::preview(value)));
        }
    };
    import::stream_json(json_text, options, stream);
    if (!listed && (json_text.find("\"PriceList\"") == std::string_view::npos || json_text.find_first_not_of(" \t\r\n") == std::string_view::npos ||
                    json_text[json_text.find_first_not_of(" \t\r\n")] != '{')) {
        throw InvalidInput(fmt::format("{}: /PriceList = (missing): required (an array of products)", file));
    }
    assembler.finish();
    return result;
}

}  // namespace gputco
