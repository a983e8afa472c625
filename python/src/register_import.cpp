// Importers of providers' price files, GPU name normalisation and catalog queries.
#include "register.hpp"

#include <fstream>

#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/catalog/cheapest_region.hpp>
#include <gputco/catalog/gpu_names.hpp>
#include <gputco/catalog/importers.hpp>
#include <gputco/catalog/price_trust.hpp>
#include <gputco/catalog/query.hpp>

namespace gputco::python {

namespace {

ImportOptions options(std::string file, std::string published, std::string provider, std::string currency,
                      std::string operating_system, bool include_cpu_instances, bool join_extra_fields_into_last_column) {
    ImportOptions o;
    o.file = std::move(file);
    o.published = std::move(published);
    o.provider = std::move(provider);
    o.currency = std::move(currency);
    o.operating_system = std::move(operating_system);
    o.include_cpu_instances = include_cpu_instances;
    o.join_extra_fields_into_last_column = join_extra_fields_into_last_column;
    o.should_stop = &ctrl_c_pressed;  // KeyboardInterrupt stops a large file (the call runs without the GIL)
    return o;
}

/// Binds importer(text, *, file, published, ...) with the options as keyword arguments.
template <class F>
void def_importer(py::module_& m, const char* name, F importer, const char* doc) {
    m.def(
        name,
        [importer](std::string_view text, std::string file, std::string published, std::string provider, std::string currency,
                   std::string operating_system, bool include_cpu_instances, bool join_extra_fields_into_last_column) {
            const ImportOptions o = options(std::move(file), std::move(published), std::move(provider), std::move(currency),
                                            std::move(operating_system), include_cpu_instances,
                                            join_extra_fields_into_last_column);
            return without_gil_until_ctrl_c([&] { return importer(text, o); });
        },
        py::arg("text"), py::kw_only(), py::arg("file") = "", py::arg("published") = "", py::arg("provider") = "",
        py::arg("currency") = "USD", py::arg("operating_system") = "linux", py::arg("include_cpu_instances") = false,
        py::arg("join_extra_fields_into_last_column") = false, doc);
}

}  // namespace

void register_import(py::module_& m) {
    py::class_<SkippedRow>(m, "SkippedRow", "A row an importer read but did not turn into a price.")
        .def_readonly("row", &SkippedRow::row)
        .def_readonly("reason", &SkippedRow::reason)
        .def("__repr__", [](const SkippedRow& s) { return fmt::format("SkippedRow('{}', '{}')", s.row, s.reason); });

    py::class_<ImportResult>(m, "ImportResult", "Offerings read from one price file, and every row not used.")
        .def_readonly("offerings", &ImportResult::offerings)
        .def_readonly("rows_read", &ImportResult::rows_read)
        .def_readonly("skipped_count", &ImportResult::skipped_count)
        .def_readonly("skipped", &ImportResult::skipped)
        .def_readonly("skipped_reasons", &ImportResult::skipped_reasons)
        .def("kept_by_way", &ImportResult::kept_by_way, "Offerings kept by way of buying: on demand, spot only, reservation only.")
        .def("report", &ImportResult::report, py::arg("file") = "")
        .def("catalog", &ImportResult::catalog, "The offerings as a catalog with the built-in GPU specifications.")
        .def("__repr__", [](const ImportResult& r) { return fmt::format("ImportResult({})", r.report()); });

    def_importer(m, "import_skypilot_csv", import_skypilot_csv, "SkyPilot catalog vms.csv (provider= names the cloud).");
    def_importer(m, "import_azure_retail_prices", import_azure_retail_prices, "Azure Retail Prices API page or item array.");
    def_importer(m, "import_aws_get_products", import_aws_get_products, "AWS Price List Query API GetProducts page.");
    def_importer(m, "import_gcp_skus", import_gcp_skus, "GCP Cloud Billing Catalog SKU page (core, RAM, GPU joined).");
    def_importer(m, "import_cyclenerd_pricing_yml", import_cyclenerd_pricing_yml, "Cyclenerd pricing.yml.");
    def_importer(m, "import_ec2instances_json", import_ec2instances_json, "ec2instances.info instances.json.");
    m.def(
        "import_aws_offer_file",
        [](const py::object& path, std::string file, std::string published, std::string operating_system,
           bool include_cpu_instances) {
            const std::string p = py::module_::import("os").attr("fspath")(path).cast<std::string>();
            const ImportOptions o = options(file.empty() ? p : std::move(file), std::move(published), "aws", "USD",
                                            std::move(operating_system), include_cpu_instances, false);
            return without_gil_until_ctrl_c([&] { return import_aws_offer_file(p, o); });
        },
        py::arg("path"), py::kw_only(), py::arg("file") = "", py::arg("published") = "", py::arg("operating_system") = "linux",
        py::arg("include_cpu_instances") = false, "AWS Price List bulk offer file, streamed from `path`.");

    m.def("normalise_gpu_name", &normalise_gpu_name, py::arg("name"), py::arg("memory_gib") = 0.0,
          "The canonical GPU name of a provider's spelling, e.g. 'Nvidia Tesla A100' -> 'A100-40GB'.");

    py::class_<RankedOffering>(m, "RankedOffering", "An offering with its price per GPU-hour in one currency.")
        .def_readonly("offering", &RankedOffering::offering)
        .def_readonly("per_gpu_hour", &RankedOffering::per_gpu_hour)
        .def_readonly("currency", &RankedOffering::currency)
        .def_readonly("conversion", &RankedOffering::conversion)
        .def_readonly("price_age_days", &RankedOffering::price_age_days)
        .def_readonly("stale", &RankedOffering::stale);

    m.def("provider_kind", [](std::string_view provider) { return std::string(to_string(provider_kind(provider))); },
          py::arg("provider"), "'hyperscaler', 'neocloud', 'marketplace' or 'unknown'.");
    m.attr("STALE_PRICE_AGE_DAYS") = stale_price_age_days;
    m.attr("PRICE_DISAGREEMENT_TOLERANCE") = price_disagreement_tolerance;
    py::class_<PriceDisagreement>(m, "PriceDisagreement", "One offering priced differently by two sources.")
        .def_readonly("key", &PriceDisagreement::key)
        .def_readonly("first", &PriceDisagreement::first)
        .def_readonly("second", &PriceDisagreement::second)
        .def_readonly("first_source", &PriceDisagreement::first_source)
        .def_readonly("second_source", &PriceDisagreement::second_source)
        .def_readonly("relative", &PriceDisagreement::relative)
        .def_readonly("used", &PriceDisagreement::used)
        .def("message", &PriceDisagreement::message)
        .def("__repr__", &PriceDisagreement::message);
    m.def("cross_check", &cross_check, py::arg("first"), py::arg("second"),
          py::arg("tolerance") = price_disagreement_tolerance,
          "Offerings of both catalogs whose on-demand prices differ by more than `tolerance` of the lower one.");
    py::class_<GpuPriceSpread>(m, "GpuPriceSpread", "Min, median and max price per GPU-hour of one GPU.")
        .def_readonly("gpu", &GpuPriceSpread::gpu)
        .def_readonly("offerings", &GpuPriceSpread::offerings)
        .def_readonly("min", &GpuPriceSpread::min)
        .def_readonly("median", &GpuPriceSpread::median)
        .def_readonly("max", &GpuPriceSpread::max)
        .def_readonly("cheapest", &GpuPriceSpread::cheapest)
        .def_readonly("dearest", &GpuPriceSpread::dearest);
    m.def("price_spread", &price_spread, py::arg("ranked"), "Per GPU, the spread of ranked prices per GPU-hour.");
    m.def("cheapest_region_per_instance", &cheapest_region_per_instance, py::arg("offerings"),
          "Per provider and instance type, the regions cheapest on demand, on spot and by reservation only.");

    m.def(
        "query_offerings",
        [](const Catalog& catalog, std::string gpu, std::optional<double> min_gpu_memory_gb, std::optional<int> gpus_per_instance,
           std::string provider, std::string region, std::string currency, std::optional<bool> has_spot,
           std::optional<bool> has_reservations, std::optional<std::string> as_of, std::string provider_kind) {
            OfferingQuery q;
            if (!provider_kind.empty()) q.provider_kind = parse<ProviderKind>(provider_kind, "provider_kind");
            q.gpu = std::move(gpu);
            q.min_gpu_memory_gb = min_gpu_memory_gb;
            q.gpus_per_instance = gpus_per_instance;
            q.provider = std::move(provider);
            q.region = std::move(region);
            q.currency = std::move(currency);
            q.has_spot = has_spot;
            q.has_reservations = has_reservations;
            if (as_of) q.as_of = Date::parse(*as_of, "as_of");
            return query(catalog, q);
        },
        py::arg("catalog"), py::kw_only(), py::arg("gpu") = "", py::arg("min_gpu_memory_gb") = py::none(),
        py::arg("gpus_per_instance") = py::none(), py::arg("provider") = "", py::arg("region") = "", py::arg("currency") = "",
        py::arg("has_spot") = py::none(), py::arg("has_reservations") = py::none(), py::arg("as_of") = py::none(),
        py::arg("provider_kind") = "", "Offerings meeting every given criterion (Catalog.query returns them as a DataFrame).");
    m.def(
        "rank_by_gpu_hour_price",
        [](const std::vector<Offering>& offerings, std::string_view currency, const ExchangeRates& rates,
           const std::string& date, std::string_view price) {
            return rank_by_gpu_hour_price(offerings, currency, rates, Date::parse(date, "date"), parse_price_kind(price));
        },
        py::arg("offerings"), py::arg("currency"), py::arg("rates"), py::arg("date"), py::arg("price") = "on_demand",
        "Offerings sorted by price per GPU-hour in `currency` (cheapest first).");
}

}  // namespace gputco::python
