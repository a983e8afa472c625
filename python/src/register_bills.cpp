// Bills: a FOCUS cost export reduced to hourly GPU demand, unmatched SKUs and FinOps figures.
// The Python package wraps these in gputco.read_focus (CSV here, Parquet aggregated in Arrow first).
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gputco/bills/bill.hpp>

namespace gputco::python {

namespace {

BillOptions bill_options(const std::optional<std::string>& version, std::optional<std::int64_t> window_start,
                         std::optional<std::int64_t> window_end, std::map<std::string, std::string> sku_instance_types,
                         std::size_t max_row_bytes, std::size_t max_series) {
    BillOptions options;
    if (version) options.focus.version = parse<FocusVersion>(*version, "focus.version");
    options.window_start = window_start;
    options.window_end = window_end;
    options.sku_instance_types = std::move(sku_instance_types);
    options.focus.max_row_bytes = max_row_bytes;
    options.max_series = max_series;
    return options;
}

template <class E, std::size_t N>
py::dict by_name(const std::array<double, N>& values) {
    py::dict out;
    for (const auto& [value, name] : EnumText<E>::names) out[py::str(std::string(name))] = values[std::size_t(value)];
    return out;
}

}  // namespace

void register_bills(py::module_& m) {
    py::class_<FinOpsFigures>(m, "FinOpsFigures",
                              "Sums over a bill's rows and the FinOps ratios (docs/models.md, 'FinOps figures of a bill').")
        .def_readonly("list_cost", &FinOpsFigures::list_cost)
        .def_readonly("contracted_cost", &FinOpsFigures::contracted_cost)
        .def_readonly("effective_cost", &FinOpsFigures::effective_cost)
        .def_readonly("billed_cost", &FinOpsFigures::billed_cost)
        .def_readonly("used_commitment_cost", &FinOpsFigures::used_commitment_cost)
        .def_readonly("unused_commitment_cost", &FinOpsFigures::unused_commitment_cost)
        .def_readonly("covered_list_cost", &FinOpsFigures::covered_list_cost)
        .def_readonly("eligible_list_cost", &FinOpsFigures::eligible_list_cost)
        .def_readonly("rows", &FinOpsFigures::rows)
        .def_property_readonly("commitment_utilisation", &FinOpsFigures::commitment_utilisation)
        .def_property_readonly("coverage", &FinOpsFigures::coverage)
        .def_property_readonly("waste", &FinOpsFigures::waste)
        .def_property_readonly("effective_savings_rate", &FinOpsFigures::effective_savings_rate)
        .def_property_readonly("effective_by_pricing_category",
                               [](const FinOpsFigures& f) { return by_name<PricingCategory>(f.effective_by_pricing); })
        .def_property_readonly("billed_by_charge_category",
                               [](const FinOpsFigures& f) { return by_name<ChargeCategory>(f.billed_by_charge); });

    py::class_<GpuSeries>(m, "GpuSeries", "Hourly GPUs of one (provider, GPU, instance type, region) in a bill.")
        .def_readonly("provider", &GpuSeries::provider)
        .def_readonly("gpu", &GpuSeries::gpu)
        .def_readonly("instance_type", &GpuSeries::instance_type)
        .def_readonly("region", &GpuSeries::region)
        .def_readonly("gpus_per_unit", &GpuSeries::gpus_per_unit)
        .def_readonly("first_hour", &GpuSeries::first_hour, "hours since 1970-01-01 UTC")
        .def_property_readonly("gpus", [](const GpuSeries& s) { return py::array_t<double>(py::ssize_t(s.gpus.size()), s.gpus.data()); })
        .def_readonly("gpu_hours", &GpuSeries::gpu_hours)
        .def_readonly("list_cost", &GpuSeries::list_cost)
        .def_readonly("effective_cost", &GpuSeries::effective_cost)
        .def_property_readonly("effective_by_pricing_category",
                               [](const GpuSeries& s) { return by_name<PricingCategory>(s.effective_by_pricing); })
        .def_property_readonly("gpu_hours_by_pricing_category",
                               [](const GpuSeries& s) { return by_name<PricingCategory>(s.gpu_hours_by_pricing); })
        .def_property_readonly("effective_per_gpu_hour", &GpuSeries::effective_per_gpu_hour)
        .def_property_readonly("list_per_gpu_hour", &GpuSeries::list_per_gpu_hour);

    py::class_<UnmatchedSku>(m, "UnmatchedSku", "A compute SKU naming no GPU gputco knows, with its spend.")
        .def_readonly("sku_id", &UnmatchedSku::sku_id)
        .def_readonly("name", &UnmatchedSku::name)
        .def_readonly("rows", &UnmatchedSku::rows)
        .def_readonly("billed_cost", &UnmatchedSku::billed_cost)
        .def_readonly("effective_cost", &UnmatchedSku::effective_cost);

    py::class_<CommitmentSummary>(m, "CommitmentSummary", "One commitment discount as the bill shows it.")
        .def_readonly("id", &CommitmentSummary::id)
        .def_readonly("type", &CommitmentSummary::type)
        .def_readonly("used_cost", &CommitmentSummary::used_cost)
        .def_readonly("unused_cost", &CommitmentSummary::unused_cost)
        .def_readonly("covered_list_cost", &CommitmentSummary::covered_list_cost)
        .def_readonly("purchase_billed", &CommitmentSummary::purchase_billed)
        .def_readonly("first_start", &CommitmentSummary::first_start, "seconds since 1970-01-01 UTC")
        .def_readonly("last_end", &CommitmentSummary::last_end, "seconds since 1970-01-01 UTC")
        .def_property_readonly("utilisation", &CommitmentSummary::utilisation);

    py::class_<ContractCommitment>(m, "ContractCommitment", "One row of a FOCUS 1.3 Contract Commitment file.")
        .def_readonly("row", &ContractCommitment::row)
        .def_readonly("id", &ContractCommitment::id)
        .def_readonly("contract_id", &ContractCommitment::contract_id)
        .def_readonly("category", &ContractCommitment::category)
        .def_readonly("type", &ContractCommitment::type)
        .def_readonly("description", &ContractCommitment::description)
        .def_readonly("unit", &ContractCommitment::unit)
        .def_readonly("currency", &ContractCommitment::currency)
        .def_readonly("period_start", &ContractCommitment::period_start, "seconds since 1970-01-01 UTC")
        .def_readonly("period_end", &ContractCommitment::period_end, "seconds since 1970-01-01 UTC")
        .def_readonly("contract_period_start", &ContractCommitment::contract_period_start)
        .def_readonly("contract_period_end", &ContractCommitment::contract_period_end)
        .def_readonly("cost", &ContractCommitment::cost)
        .def_readonly("quantity", &ContractCommitment::quantity);
    m.def("_read_contract_commitments", &read_contract_commitments, py::arg("path"),
          py::call_guard<py::gil_scoped_release>());
    m.def("_contract_commitments_from_rows", &contract_commitments_from_rows, py::arg("file"), py::arg("header"),
          py::arg("rows"));
    m.attr("CONTRACT_COMMITMENT_COLUMNS") = py::tuple(py::cast(contract_commitment_columns()));

    py::class_<Bill>(m, "Bill", "A FOCUS bill reduced: GPU series, unmatched SKUs, FinOps figures.")
        .def_readonly("file", &Bill::file)
        .def_property_readonly("version", [](const Bill& b) { return std::string(to_text(b.version)); })
        .def_readonly("currency", &Bill::currency)
        .def_readonly("rows_read", &Bill::rows_read)
        .def_readonly("gpu_rows", &Bill::gpu_rows)
        .def_readonly("series", &Bill::series)
        .def_readonly("unmatched", &Bill::unmatched)
        .def_readonly("commitments", &Bill::commitments)
        .def_readonly("figures", &Bill::figures)
        .def_readonly("gpu_figures", &Bill::gpu_figures)
        .def_readwrite("contract_commitments", &Bill::contract_commitments,
                       "FOCUS 1.3 contract commitments giving held commitments their real terms")
        .def("demand", &Bill::demand, py::arg("gpu") = "",
             "The series' sum (of `gpu` when given) over the bill's latest whole 730-hour months.")
        .def("demand_hours", &Bill::demand_hours, py::arg("gpu") = "",
             "(first hour since 1970 UTC, hour count) of demand().");

    m.def("_read_bill",
          [](const std::string& path, const Catalog& catalog, const std::optional<std::string>& version,
             std::optional<std::int64_t> window_start, std::optional<std::int64_t> window_end,
             std::map<std::string, std::string> sku_instance_types, std::size_t max_row_bytes, std::size_t max_series) {
              const BillOptions options = bill_options(version, window_start, window_end, std::move(sku_instance_types),
                                                       max_row_bytes, max_series);
              py::gil_scoped_release release;
              return read_bill(path, catalog, options);
          },
          py::arg("path"), py::arg("catalog"), py::arg("version"), py::arg("window_start"), py::arg("window_end"),
          py::arg("sku_instance_types"), py::arg("max_row_bytes"), py::arg("max_series"));
    m.def("_bill_from_rows",
          [](const std::string& file, const std::vector<std::string>& header,
             const std::vector<std::vector<std::string>>& rows, const Catalog& catalog,
             const std::optional<std::string>& version, std::optional<std::int64_t> window_start,
             std::optional<std::int64_t> window_end, std::map<std::string, std::string> sku_instance_types,
             std::size_t max_row_bytes, std::size_t max_series) {
              const BillOptions options = bill_options(version, window_start, window_end, std::move(sku_instance_types),
                                                       max_row_bytes, max_series);
              py::gil_scoped_release release;
              return bill_from_rows(file, header, rows, catalog, options);
          },
          py::arg("file"), py::arg("header"), py::arg("rows"), py::arg("catalog"), py::arg("version"),
          py::arg("window_start"), py::arg("window_end"), py::arg("sku_instance_types"), py::arg("max_row_bytes"),
          py::arg("max_series"));
    py::class_<BillStream>(m, "_BillStream", "A FOCUS CSV fed in chunks (from any byte source) and reduced.")
        .def(py::init([](const std::string& file, const Catalog& catalog, const std::optional<std::string>& version,
                         std::optional<std::int64_t> window_start, std::optional<std::int64_t> window_end,
                         std::map<std::string, std::string> sku_instance_types, std::size_t max_row_bytes,
                         std::size_t max_series) {
                 return std::make_unique<BillStream>(file, catalog,
                                                     bill_options(version, window_start, window_end,
                                                                  std::move(sku_instance_types), max_row_bytes, max_series));
             }),
             py::arg("file"), py::arg("catalog"), py::arg("version"), py::arg("window_start"), py::arg("window_end"),
             py::arg("sku_instance_types"), py::arg("max_row_bytes"), py::arg("max_series"),
             py::keep_alive<1, 3>())  // the catalog outlives the stream
        .def("feed",
             [](BillStream& stream, const py::bytes& chunk) {
                 const std::string_view bytes = chunk;
                 py::gil_scoped_release release;
                 stream.feed(bytes);
             },
             py::arg("chunk"))
        .def("finish", &BillStream::finish);
    m.def("at_bill_rates", &at_bill_rates, py::arg("offering"), py::arg("bill"), py::arg("series"),
          "The offering with on-demand and spot prices at what the bill paid per GPU-hour for the series "
          "(its Standard and Dynamic rows' EffectiveCost); reservations kept.");
    m.attr("FOCUS_DEFAULT_MAX_ROW_BYTES") = FocusOptions{}.max_row_bytes;
    // What a Parquet export is reduced to before it is read (FocusReader::grouped_columns, summed_columns).
    m.attr("FOCUS_GROUPED_COLUMNS") = py::tuple(py::cast(FocusReader::grouped_columns()));
    m.attr("FOCUS_SUMMED_COLUMNS") = py::tuple(py::cast(FocusReader::summed_columns()));
    m.attr("BILL_DEFAULT_MAX_SERIES") = BillOptions{}.max_series;
    m.attr("FOCUS_REQUIRED_COLUMNS") = [] {
        py::dict out;
        for (const auto& [v, name] : EnumText<FocusVersion>::names)
            out[py::str(std::string(name))] = FocusReader::required_columns(v);
        return out;
    }();
}

}  // namespace gputco::python
