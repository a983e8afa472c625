#pragma once
// The catalog layer: facts about GPUs and the offerings that rent them. Every price carries its
// currency, its source and its as-of date; nothing here computes a cost.
//
//   const Catalog catalog = Catalog::builtin();
//   const Offering& a100 = catalog.offering("azure", "Standard_ND96asr_v4", "eastus");
//   double per_gpu = a100.on_demand_per_gpu_hour();       // 27.197 / 8
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/core/cancel.hpp"
#include "gputco/core/date.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/time.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// How a reservation is paid: the upfront amount at the start of the term and/or an hourly fee.
enum class Payment { no_upfront, partial_upfront, all_upfront };

template <>
struct EnumText<Payment> {
    static constexpr std::array<EnumName<Payment>, 3> names{{
        {Payment::no_upfront, "no_upfront"},
        {Payment::partial_upfront, "partial_upfront"},
        {Payment::all_upfront, "all_upfront"},
    }};
};
inline std::string_view to_string(Payment payment) { return to_text(payment); }
/// The share of a term's cost paid at its start: all of it, half (partial upfront), or none; the rest
/// is paid by the hour. Reservations and Savings Plans split their cost this way.
constexpr double upfront_share(Payment payment) {
    return payment == Payment::all_upfront ? 1.0 : payment == Payment::partial_upfront ? 0.5 : 0.0;
}
/// Parses "no_upfront", "partial_upfront" or "all_upfront"; throws InvalidInput naming `field`.
inline Payment parse_payment(std::string_view text, std::string_view field = "payment") {
    return parse<Payment>(text, field);
}

/// The kinds of spend-based commitment. Only an EC2 Instance Savings Plan is bound to one instance
/// family in one region; the others cover every usage line that has a rate for them.
enum class SavingsPlanType {
    aws_ec2_instance,  ///< AWS EC2 Instance Savings Plan: one family in one region, any size, OS, tenancy
    aws_compute,       ///< AWS Compute Savings Plan: any family, size and region (EC2, Fargate, Lambda)
    aws_sagemaker,     ///< AWS SageMaker Savings Plan: SageMaker instance usage in any family and region
    azure_compute,     ///< Azure savings plan for compute
    gcp_flexible,      ///< GCP flexible (spend-based) committed use discount
};
inline constexpr std::size_t savings_plan_type_count = 5;

template <>
struct EnumText<SavingsPlanType> {
    static constexpr std::array<EnumName<SavingsPlanType>, savings_plan_type_count> names{{
        {SavingsPlanType::aws_ec2_instance, "aws_ec2_instance"},
        {SavingsPlanType::aws_compute, "aws_compute"},
        {SavingsPlanType::aws_sagemaker, "aws_sagemaker"},
        {SavingsPlanType::azure_compute, "azure_compute"},
        {SavingsPlanType::gcp_flexible, "gcp_flexible"},
    }};
};

/// Where a figure comes from and when it was true.
struct Source {
    std::string name;   ///< e.g. "skypilot-catalog v7 aws vms.csv" or "seed 000"
    std::string as_of;  ///< ISO date or month, e.g. "2025-05" or "2017-11-12"
    std::string row;    ///< where in the file, for imported rows: "line 12" or a JSON pointer "/Items/3"

    bool operator==(const Source&) const = default;
};

/// Hardware facts of one GPU model (per card).
struct GpuSpec {
    std::string name;          ///< canonical name, e.g. "A100-40GB", "H100", "MI300X"
    std::string vendor;        ///< "NVIDIA" or "AMD"
    double memory_gb = 0;
    double memory_bandwidth_gbps = 0;  ///< GB/s
    double fp16_tflops = 0;    ///< dense FP16/BF16 tensor throughput
    double fp32_tflops = 0;
    double tdp_watts = 0;
    Source source;
    std::string notes;         ///< caveats, e.g. where a seed's figure differs from the datasheet
    /// GPU-to-GPU link as the datasheet states it, e.g. "NVLink 4, 900 GB/s"; empty if not recorded.
    /// (FP8/FP4 peaks live with the LLM figures, work/llm_gpus.hpp.)
    std::string interconnect;

    /// Throws InvalidInput naming the first field that breaks a rule (non-empty name, vendor and
    /// source; every figure finite and > 0). `field` prefixes the names, e.g. "gpus[3]".
    void validate(std::string_view field = "gpu") const;
    bool operator==(const GpuSpec&) const = default;
};

/// One reservation price of an offering, per instance: `upfront` paid at the start of the term and
/// `hourly` billed for every hour of the term, used or not.
struct ReservedPrice {
    int term_years = 1;
    Payment payment = Payment::no_upfront;
    double upfront = 0;   ///< per instance, in the offering's currency
    double hourly = 0;    ///< per instance-hour, in the offering's currency
    Source source;
    bool convertible = false;  ///< AWS convertible class (exchangeable); false for standard/other providers

    /// AWS convention: hourly + upfront / (term_years × 8,760).
    double effective_hourly() const { return hourly + upfront / (term_years * hours_per_year); }
    bool operator==(const ReservedPrice&) const = default;
};

/// One Savings Plan rate of an offering: what an instance-hour costs under a plan of this type, term
/// and payment (AWS publishes one rate per instance type, region, plan type, term and payment).
struct SavingsPlanRate {
    SavingsPlanType type = SavingsPlanType::aws_compute;
    int term_years = 1;
    Payment payment = Payment::no_upfront;
    double hourly = 0;  ///< per instance-hour, in the offering's currency
    Source source;
    bool operator==(const SavingsPlanRate&) const = default;
};

/// A neocloud month term (1, 3 or 6 months: Lambda, Nebius, Hyperstack, Vast): its rate per
/// instance-hour for every hour of the term.
struct MonthTermPrice {
    int months = 1;
    double hourly = 0;
    Source source;
    bool operator==(const MonthTermPrice&) const = default;
};

/// A reservation given as a discount d off the on-demand rate: effective hourly = (1 − d) × on-demand.
/// all_upfront pays it all at the start, no_upfront all by the hour, partial_upfront half and half
/// (half of the term's cost upfront, half as an hourly fee). Throws InvalidInput for a price that is
/// not finite and >= 0, a discount outside [0, 1] or a term_years < 1.
ReservedPrice reserved_from_discount(double on_demand_hourly, double discount, int term_years,
                                     Payment payment, Source source);

/// The prices of an offering from one date on, until its next snapshot (Offering::history).
struct PriceSnapshot {
    Date effective_from;
    double on_demand_hourly = 0;
    std::optional<double> spot_hourly;
    std::vector<ReservedPrice> reserved;
    Source source;
    std::string notes;
    /// Sold only as spot capacity from this date (Offering::spot_only): on_demand_hourly is then 0,
    /// "not sold", and the snapshot has no reservations.
    bool spot_only = false;
    bool operator==(const PriceSnapshot&) const = default;
};

/// The rule for an offering's GPUs per instance, wherever it is read (catalog JSON, a scenario's
/// offerings, Offering::validate): a whole number in [1, limits::max_gpus_per_instance]. Takes the
/// count before it is narrowed to int, so a huge value is named as given.
void require_gpus_per_instance(std::string_view field, long long gpus);

/// One rentable instance type of one provider in one region.
struct Offering {
    std::string provider;        ///< lower case: aws, azure, gcp, alibaba, tencent, huawei, lambda, paperspace
    std::string region;          ///< provider's region name, e.g. "us-east-1", "eastus", "cn-beijing"
    std::string instance_type;   ///< provider's name, e.g. "p4d.24xlarge"
    std::string zone;            ///< availability zone where prices differ by zone (imported rows); else empty
    std::string gpu;             ///< GpuSpec::name
    int gpus_per_instance = 1;
    std::string currency = "USD";
    double on_demand_hourly = 0;              ///< per instance-hour
    std::optional<double> spot_hourly;        ///< per instance-hour, where a spot/preemptible price is known
    std::vector<ReservedPrice> reserved;      ///< known reservation prices
    std::vector<SavingsPlanRate> savings_plans;  ///< known Savings Plan rates
    double billing_increment_seconds = 3600;  ///< 1 = per-second billing, 3600 = hourly
    double minimum_billed_seconds = 0;        ///< e.g. 60 for per-second billing with a 1-minute minimum
    Source source;
    std::string notes;
    /// The date the prices above took effect; empty for an undated row, which is in force at every
    /// date no dated snapshot covers.
    std::optional<Date> effective_from;
    /// Other dated prices of the same offering (earlier or later than the ones above).
    std::vector<PriceSnapshot> history;
    /// Fixed windows of capacity: the EC2 Capacity Block price per instance-hour, where known, and
    /// whether the offering is sold only that way or through reservations (no on-demand or spot).
    std::optional<double> capacity_block_hourly;
    /// Where the capacity-block price comes from and when it was published (AWS sets a block's price at
    /// purchase and moves it with supply and demand, so its date matters apart from the on-demand
    /// price's, which `source` names). Empty (and read so when a file gives none): `source`'s.
    Source capacity_block_source;
    bool reservation_only = false;
    /// Sold only as spot (preemptible) capacity, as some price files list a type (a spot price and no
    /// on-demand one): on_demand_hourly is then 0 and means "not sold", never "free", and the offering
    /// has no reservations, Savings Plans, month terms or capacity blocks.
    bool spot_only = false;
    std::vector<MonthTermPrice> month_terms;  ///< short terms, where known

    /// Whether on-demand hours can be bought (neither spot_only nor reservation_only).
    bool sells_on_demand() const { return !spot_only && !reservation_only; }
    /// Why not: "is sold only as spot capacity" or "is sold only through capacity blocks or
    /// reservations"; empty when it sells on demand.
    std::string_view no_on_demand_reason() const;
    /// The one refusal of a price the offering does not sell, naming it: InvalidInput
    /// 'offering.spot_only = "<key>": is sold only as spot capacity: <what> cannot be priced' (or
    /// offering.reservation_only ... "is sold only through capacity blocks or reservations: ...") when
    /// the offering does not sell on demand; nothing otherwise. `what` says what was asked, e.g.
    /// "on-demand hours" or "plan.commitments[0]".
    void require_on_demand(std::string_view what) const;
    /// The same for terms (reservations, Savings Plans, month terms, capacity blocks): refused on a
    /// spot-only offering.
    void require_terms(std::string_view what) const;

    double on_demand_per_gpu_hour() const { return on_demand_hourly / gpus_per_instance; }
    std::optional<double> spot_per_gpu_hour() const {
        if (!spot_hourly) return std::nullopt;
        return *spot_hourly / gpus_per_instance;
    }
    /// The reservation price for this term and payment, if the catalog knows it (standard class,
    /// unless `convertible`).
    std::optional<ReservedPrice> reserved_price(int term_years, Payment payment,
                                                bool convertible = false) const;
    /// The source and date of capacity_block_hourly: capacity_block_source, or `source` if that is empty.
    const Source& capacity_block_rate_source() const {
        return capacity_block_source == Source{} ? source : capacity_block_source;
    }
    /// The Savings Plan rate for this type, term and payment, if the catalog knows it.
    std::optional<SavingsPlanRate> savings_plan_rate(SavingsPlanType type, int term_years, Payment payment) const;
    /// All prices multiplied by `rate` (units of `to_currency` per unit of `currency`).
    Offering converted(std::string_view to_currency, double rate) const;
    /// This offering with the prices in force at `date`: of the listed prices and the history, the
    /// one with the latest effective_from on or before `date` (an undated listing counts as in force
    /// from the beginning). The result has no history. Throws InvalidInput when `date` is before
    /// every dated price and there is no undated one.
    Offering price_at(const Date& date) const;
    /// Whether some price of this offering is in force at `date`.
    bool has_price_at(const Date& date) const;
    /// The listed prices and the history as snapshots, oldest first (an undated listing first).
    std::vector<PriceSnapshot> snapshots() const;
    /// "provider/region/instance_type", the catalog key ("provider/region/instance_type/zone" for a
    /// zone's own prices).
    std::string key() const {
        return provider + "/" + region + "/" + instance_type + (zone.empty() ? "" : "/" + zone);
    }
    /// Throws InvalidInput naming the first field that breaks a rule (non-empty names, prices finite
    /// and >= 0, gpus_per_instance in [1, 1024], ...). `field` prefixes the names, e.g. "offerings[2]".
    void validate(std::string_view field = "offering") const;
    bool operator==(const Offering&) const = default;
};

/// GPUs and offerings, looked up by name. Values, immutable once built.
class Catalog {
public:
    Catalog() = default;
    /// Validates every entry (see GpuSpec::validate, Offering::validate) and rejects duplicate keys.
    Catalog(std::vector<GpuSpec> gpus, std::vector<Offering> offerings);

    /// The catalog compiled into the library: works with no file.
    static const Catalog& builtin();
    /// Parses the JSON format written by to_json(); throws InvalidInput on malformed input.
    /// Limits (core/limits.hpp): at most 16 MiB of text, 100,000 rows per list, 32 nested levels, no
    /// key twice in one object. A large file takes seconds: `should_stop` is called every 16,384
    /// parser events and 1,024 rows, and a true answer throws Cancelled.
    static Catalog from_json(std::string_view json_text, const StopCheck& should_stop = {});
    static Catalog from_json_file(const std::string& path, const StopCheck& should_stop = {});
    std::string to_json() const;

    /// This catalog with `other`'s GPUs and offerings added; entries with the same key
    /// (GPU name, or provider/region/instance_type) are replaced by `other`'s.
    Catalog overridden_by(const Catalog& other) const;
    /// This catalog with `other`'s prices kept as dated history: an offering of the same key gains
    /// `other`'s dated prices as snapshots (a snapshot of the same date is replaced); new keys are
    /// added. Throws InvalidInput for an undated offering of `other` whose key exists here.
    Catalog with_snapshots(const Catalog& other) const;
    /// The catalog as it was at `date`: every offering at its price in force then (price_at);
    /// offerings with no price yet at `date` are left out.
    Catalog as_of(const Date& date) const;

    const std::vector<GpuSpec>& gpus() const { return gpus_; }
    const std::vector<Offering>& offerings() const { return offerings_; }

    /// Throws InvalidInput ("gpu = \"X\": unknown GPU (known: ...)") when absent.
    const GpuSpec& gpu(std::string_view name) const;
    /// Whether offerings of `name` can be described: a GPU with a spec, or a share "<card>/<n>" of
    /// one (gpu_names.hpp: its unit is 1/n of the card, never the card).
    bool knows_gpu(std::string_view name) const;
    /// The offering; with an empty region, the first listed region of that instance type.
    /// Throws InvalidInput for an unknown provider or instance type, naming the field.
    const Offering& offering(std::string_view provider, std::string_view instance_type,
                             std::string_view region = {}) const;
    /// Offerings matching every non-empty criterion.
    std::vector<Offering> find(std::string_view provider = {}, std::string_view gpu = {},
                               std::string_view region = {}) const;
    /// Provider names, sorted, each once.
    std::vector<std::string> providers() const;

    bool operator==(const Catalog&) const = default;

private:
    std::vector<GpuSpec> gpus_;
    std::vector<Offering> offerings_;
};

}  // namespace gputco
