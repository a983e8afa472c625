// `catalog` (a catalog file, providers' price files, offerings of the file itself, layered over the
// built-in catalog) and `offering`, the row of that catalog the scenario prices.
#include "readers.hpp"
#include "gputco/catalog/importers.hpp"

namespace gputco::scenario_read {

namespace {

Offering read_offering(const Field& f) {
    const auto m = f.map({"provider", "region", "instance_type", "gpu", "gpus_per_instance", "currency",
                          "on_demand_hourly", "spot_hourly", "reserved", "billing_increment_seconds",
                          "minimum_billed_seconds", "source", "notes"});
    Offering o;
    o.provider = m.get("provider").text();
    o.region = m.get("region").text();
    o.instance_type = m.get("instance_type").text();
    o.gpu = m.get("gpu").text();
    const Field g = m.get("gpus_per_instance");
    const long long gpus = g.integer();
    g.checked([&] { require_gpus_per_instance(g.path(), gpus); return 0; });  // the catalog's rule
    o.gpus_per_instance = int(gpus);
    if (auto c = m.find("currency")) o.currency = c->text();
    o.on_demand_hourly = m.get("on_demand_hourly").non_negative();
    if (auto s = m.find("spot_hourly")) o.spot_hourly = s->non_negative();
    if (auto r = m.find("reserved")) {
        for (const Field& item : r->list()) {
            const auto rm = item.map({"term_years", "payment", "upfront", "hourly", "source"});
            ReservedPrice p;
            p.term_years = read_term(rm.get("term_years"));
            p.payment = read_payment(rm.get("payment"));
            if (auto u = rm.find("upfront")) p.upfront = u->non_negative();
            if (auto h = rm.find("hourly")) p.hourly = h->non_negative();
            if (auto s = rm.find("source")) p.source = read_source(*s);
            o.reserved.push_back(p);
        }
    }
    if (auto b = m.find("billing_increment_seconds")) o.billing_increment_seconds = b->non_negative();
    if (auto b = m.find("minimum_billed_seconds")) o.minimum_billed_seconds = b->non_negative();
    if (auto s = m.find("source")) o.source = read_source(*s);
    if (auto n = m.find("notes")) o.notes = n->text();
    f.checked([&] { o.validate(f.path()); return 0; });
    return o;
}

}  // namespace

/// The catalog is built here step by step, so that a file that does not load is named at its place.
void read_catalog(const Field::Map& m, Scenario& s, ReadState& state) {
    if (auto c = m.find("catalog")) {
        const auto cm = c->map({"file", "imports", "offerings"});
        if (auto f = cm.find("file")) {
            s.catalog_file = f->text();
            const std::string path = !s.catalog_file->empty() && s.catalog_file->front() == '/' ? *s.catalog_file : s.base_dir + "/" + *s.catalog_file;
            state.catalog = f->checked([&] { return state.catalog.overridden_by(Catalog::from_json_file(path)); });
        }
        if (auto i = cm.find("imports")) {
            for (const Field& item : i->list()) {
                const auto im = item.map({"file", "format", "published", "provider", "currency", "operating_system"});
                PriceFileImport p;
                p.file = im.get("file").text();
                p.format = im.get("format").choice(price_file_formats());
                if (auto v = im.find("published")) p.published = v->date();
                if (auto v = im.find("provider")) p.provider = v->text();
                if (auto v = im.find("currency")) p.currency = v->text();
                if (auto v = im.find("operating_system")) p.operating_system = v->text();
                state.catalog = item.checked([&] { return state.catalog.overridden_by(import_price_file(p, s.base_dir)); });
                s.imports.push_back(std::move(p));
            }
        }
        if (s.catalog_file || !s.imports.empty())  // kept, so that running the scenario reads no file again
            s.file_rows = std::make_shared<const Scenario::FileRows>(
                Scenario::FileRows{s.catalog_file, s.imports, s.base_dir, state.catalog});
        if (auto o = cm.find("offerings")) {
            for (const Field& item : o->list()) s.offerings.push_back(read_offering(item));
            state.catalog = o->checked([&] { return state.catalog.overridden_by(Catalog({}, s.offerings)); });
        }
    }
}

void read_offering_key(const Field::Map& m, Scenario& s, ReadState& state) {
    const auto om = m.get("offering").map({"provider", "instance_type", "region", "zone"});
    state.offering_field = om.self();
    s.offering = {om.get("provider").text(), om.get("instance_type").text(),
                  om.find("region") ? om.get("region").text() : std::string(),
                  om.find("zone") ? om.get("zone").text() : std::string()};
}

const Offering& find_offering(const Scenario& s, const ReadState& state) {
    const Offering* found = s.offering.in(state.catalog);
    if (!found) {
        std::vector<std::string> keys;
        for (const Offering& o : state.catalog.offerings()) keys.push_back(o.key());
        const std::string key = s.offering.key();
        const auto near = closest_name(key, keys);
        throw InvalidInput(fmt::format("{}: offering = \"{}\": not in the catalog{}", state.offering_field->location(),
                                       printable_utf8(key), near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
    }
    return *found;
}

}  // namespace gputco::scenario_read
