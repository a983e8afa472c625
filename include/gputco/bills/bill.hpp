#pragma once
// From a FOCUS bill to gputco's inputs: hourly GPU demand per GPU model, instance type and region
// (usage rows of GPU SKUs matched to the catalog), the unmatched compute SKUs with their spend, and
// the FinOps figures (commitment utilisation, coverage, waste, effective savings rate, spend by
// pricing category; definitions in docs/models.md, "FinOps figures of a bill").
//
//   const Bill bill = read_bill("focus.csv", Catalog::builtin());
//   DemandProfile history = bill.demand("A100-40GB");   // whole 730-hour months, latest last
//   double esr = bill.figures.effective_savings_rate();
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gputco/bills/contract.hpp"
#include "gputco/bills/finops.hpp"
#include "gputco/bills/focus.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/work/demand.hpp"

namespace gputco {

/// Hourly GPUs of one (GPU model, instance type, region, provider). Hour i is [first_hour + i,
/// first_hour + i + 1) in hours since 1970-01-01 UTC; gpus[i] = GPU-hours used in it.
struct GpuSeries {
    std::string provider, gpu, instance_type, region;
    int gpus_per_unit = 1;  ///< GPUs per unit of ConsumedQuantity (instance-hour or GPU-hour)
    std::int64_t first_hour = 0;
    std::vector<double> gpus;
    double gpu_hours = 0;       ///< Σ gpus
    double list_cost = 0;       ///< Σ ListCost of its rows
    double effective_cost = 0;  ///< Σ EffectiveCost of its rows
    std::array<double, 5> gpu_hours_by_pricing{};  ///< by PricingCategory (index = enum)
    std::array<double, 5> effective_by_pricing{};  ///< EffectiveCost by PricingCategory (index = enum)
    /// Effective and list cost per GPU-hour (the customer's rate against list); NaN without hours.
    double effective_per_gpu_hour() const;
    double list_per_gpu_hour() const;
};

/// A compute SKU of the bill that names no GPU gputco knows, with what it cost.
struct UnmatchedSku {
    std::string sku_id, name;  ///< name: the instance type or description tried
    std::size_t rows = 0;
    double billed_cost = 0, effective_cost = 0;
};

/// One commitment discount (Savings Plan, reservation, committed use discount) as the bill shows it:
/// its rows with this CommitmentDiscountId in the window.
struct CommitmentSummary {
    std::string id, type;
    double used_cost = 0;          ///< Σ EffectiveCost, status Used
    double unused_cost = 0;        ///< Σ EffectiveCost, status Unused: its waste
    double covered_list_cost = 0;  ///< Σ ListCost, status Used: what the covered usage lists at
    double purchase_billed = 0;    ///< Σ BilledCost of its Purchase rows (fees paid in the window)
    std::int64_t first_start = 0, last_end = 0;  ///< seconds since 1970 UTC, over its rows
    /// used / (used + unused); NaN without either.
    double utilisation() const;
    /// CommitmentDiscountCategory of its rows: "Usage" (a reservation), "Spend" (a Savings Plan) or
    /// empty when the export has no such column.
    std::string category;
    /// The GPU series its Used and Unused usage rows are of (the last matched), empty when none is a GPU.
    std::string provider, gpu, instance_type, region;
    double committed_gpu_hours = 0;  ///< GPU-hours of those rows, used and unused: what it holds
    double recurring_billed = 0;     ///< Σ BilledCost of those rows: its hourly charges, no upfront
    double amortised_upfront = 0;    ///< Σ (EffectiveCost − BilledCost) of those rows: its upfront spread
    std::int64_t gpu_first_start = 0, gpu_last_end = 0;  ///< the span of those rows (0 when none)
    /// For a Savings Plan: its rate on the GPU series is Σ EffectiveCost / Σ GPU-hours of its Used GPU
    /// rows, and the hourly part of its commitment what its Usage rows billed (the rest was upfront).
    double used_gpu_hours = 0, used_gpu_effective = 0;
    double usage_billed = 0;  ///< Σ BilledCost of its Usage rows, Used and Unused
};

struct BillOptions {
    FocusOptions focus;
    /// Rows whose ChargePeriodStart is in [window_start, window_end) (seconds since 1970 UTC) count;
    /// others are checked but left out. Empty = no bound.
    std::optional<std::int64_t> window_start, window_end;
    /// SkuId → instance type, for SKUs the export does not name an instance for.
    std::map<std::string, std::string> sku_instance_types;
    /// At most this many series (GPU × instance × region): bounds memory with the span below.
    std::size_t max_series = 10'000;
    /// At most this many distinct CommitmentDiscountIds.
    std::size_t max_commitments = 10'000;
};

struct Bill {
    std::string file;
    FocusVersion version = FocusVersion::v1_2;
    std::string currency;  ///< BillingCurrency, one per bill
    std::size_t rows_read = 0, gpu_rows = 0;
    std::vector<GpuSeries> series;         ///< sorted by provider, gpu, instance type, region
    std::vector<UnmatchedSku> unmatched;   ///< by effective cost, largest first
    std::vector<CommitmentSummary> commitments;  ///< by id
    FinOpsFigures figures;      ///< every row in the window
    FinOpsFigures gpu_figures;  ///< the GPU rows only
    /// The terms of its commitments from a FOCUS 1.3 Contract Commitment file, when one was given
    /// (read_contract_commitments): a commitment whose CommitmentDiscountId is a ContractCommitmentId
    /// here is held for that real term (held_from_bill, held_savings_plans_from_bill).
    std::vector<ContractCommitment> contract_commitments;
    /// The sum of the series (of `gpu` when given) over the bill's hours, cut to its latest whole
    /// 730-hour months. Throws InvalidInput when that leaves no month or no series matches.
    DemandProfile demand(const std::string& gpu = "") const;
    /// The hours demand() covers: first hour (since 1970 UTC) and count.
    std::pair<std::int64_t, std::size_t> demand_hours(const std::string& gpu = "") const;
};

/// `offering` with its on-demand and spot prices replaced by what the bill paid for them: the
/// EffectiveCost per GPU-hour of the series' Standard rows (Dynamic rows for spot) × GPUs per instance,
/// so negotiated discounts carry into the plan. A price the series has no hours for is kept, and said
/// so in the notes. Throws InvalidInput when the series' GPU or the bill's currency is not the offering's.
Offering at_bill_rates(const Offering& offering, const Bill& bill, const GpuSeries& series);

/// Builds a Bill row by row (the CSV reader and the Python Parquet path both feed it).
class BillBuilder {
public:
    BillBuilder(const Catalog& catalog, BillOptions options = {});
    ~BillBuilder();
    BillBuilder(BillBuilder&&) noexcept;
    BillBuilder& operator=(BillBuilder&&) noexcept;
    void add(const FocusRow& row);
    /// `file` and `version` go into the Bill as given.
    Bill finish(std::string file, FocusVersion version);

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// A FOCUS CSV fed in chunks (e.g. from a decompressor) and reduced as it comes.
class BillStream {
public:
    /// `file` names the input in messages; `catalog` must outlive the stream.
    BillStream(std::string file, const Catalog& catalog, BillOptions options = {});
    BillStream(const BillStream&) = delete;  // the reader's callback points at this stream's builder
    BillStream& operator=(const BillStream&) = delete;
    void feed(std::string_view bytes) { csv_.feed(bytes); }
    Bill finish();

private:
    std::string file_;
    BillBuilder builder_;
    FocusCsvStream csv_;
};

/// Reads and reduces a FOCUS CSV file in one streamed pass.
Bill read_bill(const std::string& path, const Catalog& catalog, const BillOptions& options = {});

/// Reduces rows given as text (a header and records, e.g. aggregated from Parquet): row i is record i + 2.
Bill bill_from_rows(const std::string& file, const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows, const Catalog& catalog,
                    const BillOptions& options = {});

}  // namespace gputco
