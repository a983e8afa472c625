// The catalog's rules (validation, look-ups, conversion) and the catalog compiled into the library.
// Every figure below is re-typed from a named public source; docs/catalog.md lists the sources,
// their dates and every derivation.
#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gputco/catalog/catalog.hpp"

namespace gputco {

// ---------------------------------------------------------------------------------------------
// Payment
// ---------------------------------------------------------------------------------------------

std::string_view to_string(Payment payment) {
    switch (payment) {
        case Payment::no_upfront: return "no_upfront";
        case Payment::partial_upfront: return "partial_upfront";
        case Payment::all_upfront: return "all_upfront";
    }
    return "unknown";
}

Payment parse_payment(std::string_view text, std::string_view field) {
    for (Payment p : {Payment::no_upfront, Payment::partial_upfront, Payment::all_upfront}) {
        if (text == to_string(p)) return p;
    }
    fail(field, text, "must be one of no_upfront, partial_upfront, all_upfront");
}

ReservedPrice reserved_from_discount(double on_demand_hourly, double discount, int term_years,
                                     Payment payment, Source source) {
    require_non_negative("on_demand_hourly", on_demand_hourly);
    require_fraction("discount", discount);
    require(term_years >= 1, "term_years", term_years, "must be >= 1");
    const double effective = (1.0 - discount) * on_demand_hourly;
    const double term_hours = term_years * hours_per_year;
    ReservedPrice r;
    r.term_years = term_years;
    r.payment = payment;
    r.source = std::move(source);
    switch (payment) {
        case Payment::all_upfront: r.upfront = effective * term_hours; break;
        case Payment::no_upfront: r.hourly = effective; break;
        case Payment::partial_upfront:
            r.upfront = 0.5 * effective * term_hours;
            r.hourly = 0.5 * effective;
            break;
    }
    return r;
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

namespace {

std::string join(std::string_view prefix, std::string_view name) {
    return fmt::format("{}.{}", prefix, name);
}

void require_text(std::string_view prefix, std::string_view name, const std::string& value) {
    require(!value.empty(), join(prefix, name), value, "must not be empty");
    require_utf8(join(prefix, name), value);
}

void validate_source(std::string_view prefix, const Source& source) {
    require_text(prefix, "source.name", source.name);
    require_text(prefix, "source.as_of", source.as_of);
}

}  // namespace

void GpuSpec::validate(std::string_view field) const {
    require_text(field, "name", name);
    require_text(field, "vendor", vendor);
    require_positive(join(field, "memory_gb"), memory_gb);
    require_positive(join(field, "memory_bandwidth_gbps"), memory_bandwidth_gbps);
    require_positive(join(field, "fp16_tflops"), fp16_tflops);
    require_positive(join(field, "fp32_tflops"), fp32_tflops);
    require_positive(join(field, "tdp_watts"), tdp_watts);
    validate_source(field, source);
    require_utf8(join(field, "notes"), notes);
}

void Offering::validate(std::string_view field) const {
    require_text(field, "provider", provider);
    require_text(field, "region", region);
    require_text(field, "instance_type", instance_type);
    require_text(field, "gpu", gpu);
    require(gpus_per_instance >= 1, join(field, "gpus_per_instance"), gpus_per_instance,
            "must be >= 1");
    require_text(field, "currency", currency);
    require_at_most(join(field, "on_demand_hourly"), on_demand_hourly, limits::max_money);
    if (spot_hourly) require_at_most(join(field, "spot_hourly"), *spot_hourly, limits::max_money);
    for (std::size_t i = 0; i < reserved.size(); ++i) {
        const ReservedPrice& r = reserved[i];
        const std::string at = fmt::format("{}.reserved[{}]", field, i);
        require(r.term_years >= 1, join(at, "term_years"), r.term_years, "must be >= 1");
        require_at_most(join(at, "upfront"), r.upfront, limits::max_money);
        require_at_most(join(at, "hourly"), r.hourly, limits::max_money);
        validate_source(at, r.source);
        for (std::size_t j = 0; j < i; ++j) {
            if (reserved[j].term_years == r.term_years && reserved[j].payment == r.payment) {
                fail(join(at, "payment"), to_string(r.payment),
                     fmt::format("duplicate of reserved[{}] (same term_years and payment)", j));
            }
        }
    }
    require_positive(join(field, "billing_increment_seconds"), billing_increment_seconds);
    require_non_negative(join(field, "minimum_billed_seconds"), minimum_billed_seconds);
    validate_source(field, source);
    require_utf8(join(field, "notes"), notes);
}

// ---------------------------------------------------------------------------------------------
// Offering
// ---------------------------------------------------------------------------------------------

std::optional<ReservedPrice> Offering::reserved_price(int term_years, Payment payment) const {
    for (const ReservedPrice& r : reserved) {
        if (r.term_years == term_years && r.payment == payment) return r;
    }
    return std::nullopt;
}

Offering Offering::converted(std::string_view to_currency, double rate) const {
    require(!to_currency.empty(), "to_currency", to_currency, "must not be empty");
    require_positive("rate", rate);
    if (to_currency == currency) {
        require(rate == 1.0, "rate", rate,
                fmt::format("must be 1 when converting {} to {}", currency, to_currency));
        return *this;
    }
    Offering out = *this;
    out.currency = std::string(to_currency);
    out.on_demand_hourly *= rate;
    if (out.spot_hourly) *out.spot_hourly *= rate;
    for (ReservedPrice& r : out.reserved) {
        r.upfront *= rate;
        r.hourly *= rate;
    }
    const std::string note =
        fmt::format("prices converted from {} at {} {} per {}", currency, rate, to_currency, currency);
    out.notes = out.notes.empty() ? note : out.notes + "; " + note;
    return out;
}

// ---------------------------------------------------------------------------------------------
// Catalog
// ---------------------------------------------------------------------------------------------

Catalog::Catalog(std::vector<GpuSpec> gpus, std::vector<Offering> offerings)
    : gpus_(std::move(gpus)), offerings_(std::move(offerings)) {
    // Duplicates found through a hash map: linear in the rows (a pairwise scan of 10^5 rows hung).
    std::unordered_map<std::string, std::size_t> first_gpu;
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
        const std::string at = fmt::format("gpus[{}]", i);
        gpus_[i].validate(at);
        if (const auto [it, fresh] = first_gpu.emplace(gpus_[i].name, i); !fresh) {
            fail(join(at, "name"), gpus_[i].name, fmt::format("duplicate of gpus[{}]", it->second));
        }
    }
    std::unordered_map<std::string, std::size_t> first_offering;
    for (std::size_t i = 0; i < offerings_.size(); ++i) {
        const std::string at = fmt::format("offerings[{}]", i);
        offerings_[i].validate(at);
        if (const auto [it, fresh] = first_offering.emplace(offerings_[i].key(), i); !fresh) {
            fail(at, it->first, fmt::format("duplicate key of offerings[{}]", it->second));
        }
    }
}

Catalog Catalog::overridden_by(const Catalog& other) const {
    // Rows matched through hash maps of name/key to index: linear in the rows of both catalogs.
    std::vector<GpuSpec> gpus = gpus_;
    std::unordered_map<std::string, std::size_t> gpu_at;
    for (std::size_t i = 0; i < gpus.size(); ++i) gpu_at.emplace(gpus[i].name, i);
    for (const GpuSpec& g : other.gpus_) {
        if (const auto [it, fresh] = gpu_at.emplace(g.name, gpus.size()); fresh) {
            gpus.push_back(g);
        } else {
            gpus[it->second] = g;
        }
    }
    std::vector<Offering> offerings = offerings_;
    std::unordered_map<std::string, std::size_t> offering_at;
    for (std::size_t i = 0; i < offerings.size(); ++i) offering_at.emplace(offerings[i].key(), i);
    for (const Offering& o : other.offerings_) {
        if (const auto [it, fresh] = offering_at.emplace(o.key(), offerings.size()); fresh) {
            offerings.push_back(o);
        } else {
            offerings[it->second] = o;
        }
    }
    return Catalog(std::move(gpus), std::move(offerings));
}

namespace {

template <class Range, class Project>
std::string known_list(const Range& range, Project project) {
    std::set<std::string> names;
    for (const auto& item : range) names.insert(project(item));
    return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

const GpuSpec& Catalog::gpu(std::string_view name) const {
    for (const GpuSpec& g : gpus_) {
        if (g.name == name) return g;
    }
    fail("gpu", name,
         fmt::format("unknown GPU (known: {})",
                     known_list(gpus_, [](const GpuSpec& g) { return g.name; })));
}

const Offering& Catalog::offering(std::string_view provider, std::string_view instance_type,
                                  std::string_view region) const {
    std::vector<const Offering*> of_provider;
    for (const Offering& o : offerings_) {
        if (o.provider == provider) of_provider.push_back(&o);
    }
    if (of_provider.empty()) {
        fail("provider", provider,
             fmt::format("unknown provider (known: {})", fmt::join(providers(), ", ")));
    }
    std::vector<const Offering*> of_type;
    for (const Offering* o : of_provider) {
        if (o->instance_type == instance_type) of_type.push_back(o);
    }
    if (of_type.empty()) {
        fail("instance_type", instance_type,
             fmt::format("unknown instance type for provider \"{}\" (known: {})", provider,
                         known_list(of_provider, [](const Offering* o) { return o->instance_type; })));
    }
    if (region.empty()) return *of_type.front();
    for (const Offering* o : of_type) {
        if (o->region == region) return *o;
    }
    fail("region", region,
         fmt::format("no \"{}\" offering of provider \"{}\" in this region (known: {})", instance_type,
                     provider, known_list(of_type, [](const Offering* o) { return o->region; })));
}

std::vector<Offering> Catalog::find(std::string_view provider, std::string_view gpu,
                                    std::string_view region) const {
    std::vector<Offering> out;
    for (const Offering& o : offerings_) {
        if (!provider.empty() && o.provider != provider) continue;
        if (!gpu.empty() && o.gpu != gpu) continue;
        if (!region.empty() && o.region != region) continue;
        out.push_back(o);
    }
    return out;
}

std::vector<std::string> Catalog::providers() const {
    std::set<std::string> names;
    for (const Offering& o : offerings_) names.insert(o.provider);
    return {names.begin(), names.end()};
}

// ---------------------------------------------------------------------------------------------
// The built-in catalog
// ---------------------------------------------------------------------------------------------

namespace {

GpuSpec spec(std::string name, std::string vendor, double memory_gb, double bandwidth_gbps,
             double fp16_tflops, double fp32_tflops, double tdp_watts, Source source,
             std::string notes = {}) {
    GpuSpec g;
    g.name = std::move(name);
    g.vendor = std::move(vendor);
    g.memory_gb = memory_gb;
    g.memory_bandwidth_gbps = bandwidth_gbps;
    g.fp16_tflops = fp16_tflops;
    g.fp32_tflops = fp32_tflops;
    g.tdp_watts = tdp_watts;
    g.source = std::move(source);
    g.notes = std::move(notes);
    return g;
}

std::vector<GpuSpec> builtin_gpus() {
    // Dense FP16 tensor figures: datasheets that quote "with sparsity" give twice the dense rate;
    // the dense figure (half) is stored. FP32 is the non-tensor (vector) rate.
    return {
        spec("A100-40GB", "NVIDIA", 40, 1555, 312, 19.5, 400,
             {"NVIDIA A100 Tensor Core GPU datasheet (A100 40GB SXM column)", "2021-06"},
             "FP16 312 TFLOPS matches seeds 000/001"),
        spec("A100-80GB", "NVIDIA", 80, 2039, 312, 19.5, 400,
             {"NVIDIA A100 Tensor Core GPU datasheet (A100 80GB SXM column)", "2021-06"}),
        spec("A100-80GB-PCIe", "NVIDIA", 80, 1935, 312, 19.5, 300,
             {"NVIDIA A100 Tensor Core GPU datasheet (A100 80GB PCIe column)", "2021-06"}),
        spec("H100", "NVIDIA", 80, 3350, 989.4, 67, 700,
             {"NVIDIA H100 Tensor Core GPU datasheet (H100 SXM column); NVIDIA H100 whitepaper for "
              "the dense FP16 rate",
              "2023"},
             "SXM5 80 GB; datasheet FP16 tensor 1,979 TFLOPS is with sparsity"),
        spec("H100-NVL", "NVIDIA", 94, 3900, 835.5, 60, 400,
             {"NVIDIA H100 Tensor Core GPU datasheet (H100 NVL column)", "2023"},
             "per card; datasheet FP16 tensor 1,671 TFLOPS is with sparsity; TDP 350-400 W"),
        spec("H200", "NVIDIA", 141, 4800, 989.4, 67, 700,
             {"NVIDIA H200 Tensor Core GPU datasheet (H200 SXM column)", "2024"},
             "datasheet FP16 tensor 1,979 TFLOPS is with sparsity"),
        spec("T4", "NVIDIA", 16, 320, 65, 8.1, 70, {"NVIDIA T4 Tensor Core GPU datasheet", "2019"},
             "70 W matches seed 000"),
        spec("V100", "NVIDIA", 16, 900, 125, 15.7, 300,
             {"NVIDIA Tesla V100 datasheet (V100 SXM2 16 GB column)", "2018"}),
        spec("V100-PCIe", "NVIDIA", 16, 900, 112, 14, 250,
             {"NVIDIA Tesla V100 datasheet (V100 PCIe 16 GB column)", "2018"}),
        spec("V100-32GB", "NVIDIA", 32, 900, 125, 15.7, 300,
             {"NVIDIA Tesla V100 datasheet (V100 SXM2 32 GB column)", "2018"}),
        spec("V100S", "NVIDIA", 32, 1134, 130, 16.4, 250,
             {"NVIDIA V100S (Tesla V100S PCIe 32 GB) datasheet", "2019"}),
        spec("A10", "NVIDIA", 24, 600, 125, 31.2, 150, {"NVIDIA A10 Tensor Core GPU datasheet", "2021"},
             "datasheet FP16 tensor 250 TFLOPS is with sparsity"),
        spec("A10G", "NVIDIA", 24, 600, 70, 35, 300,
             {"Baseten, 'NVIDIA A10 vs A10G for ML model inference' (AWS-only part; NVIDIA publishes "
              "no A10G datasheet)",
              "2023"},
             "AWS G5 variant of the A10: more CUDA-core throughput, less tensor throughput"),
        spec("L4", "NVIDIA", 24, 300, 121, 30.3, 72, {"NVIDIA L4 Tensor Core GPU datasheet", "2023"},
             "datasheet FP16 tensor 242 TFLOPS is with sparsity"),
        spec("RTX-6000-Ada", "NVIDIA", 48, 960, 364.2, 91.1, 300,
             {"NVIDIA RTX 6000 Ada Generation datasheet; NVIDIA Ada GPU architecture whitepaper "
              "(FP16 tensor with FP32 accumulate, dense)",
              "2023"}),
        spec("RTX-A6000", "NVIDIA", 48, 768, 154.8, 38.7, 300,
             {"NVIDIA RTX A6000 datasheet", "2021"},
             "datasheet tensor 309.7 TFLOPS is with sparsity"),
        spec("MI250X", "AMD", 128, 3276.8, 383, 47.9, 500,
             {"AMD Instinct MI250X accelerator data sheet", "2021-11"},
             "seeds 000/003 quote FP16 362 TFLOPS, which is the MI250's peak (MI250X: 383); board "
             "power 500 W, 560 W peak; FP32 matrix 95.7 TFLOPS"),
        spec("MI300X", "AMD", 192, 5300, 1307.4, 163.4, 750,
             {"AMD Instinct MI300X accelerator data sheet", "2023-12"},
             "data sheet FP16 2,614.9 TFLOPS is with sparsity"),
    };
}

struct Billing {
    double increment_seconds;
    double minimum_seconds;
};
constexpr Billing per_second_1min{1, 60};  // AWS Linux, GCP: per second, 1-minute minimum
constexpr Billing per_second{1, 0};        // Alibaba, Tencent, Huawei pay-as-you-go
constexpr Billing per_minute{60, 60};      // Azure, Lambda
constexpr Billing per_hour{3600, 3600};    // Paperspace Core hourly machines

Offering offer(std::string provider, std::string region, std::string instance_type, std::string gpu,
               int gpus, double on_demand_hourly, std::optional<double> spot_hourly,
               Billing billing, Source source, std::string notes = {}) {
    Offering o;
    o.provider = std::move(provider);
    o.region = std::move(region);
    o.instance_type = std::move(instance_type);
    o.gpu = std::move(gpu);
    o.gpus_per_instance = gpus;
    o.on_demand_hourly = on_demand_hourly;
    o.spot_hourly = spot_hourly;
    o.billing_increment_seconds = billing.increment_seconds;
    o.minimum_billed_seconds = billing.minimum_seconds;
    o.source = std::move(source);
    o.notes = std::move(notes);
    return o;
}

ReservedPrice all_upfront(int years, double effective_hourly, Source source) {
    ReservedPrice r;
    r.term_years = years;
    r.payment = Payment::all_upfront;
    r.upfront = effective_hourly * years * hours_per_year;
    r.source = std::move(source);
    return r;
}

ReservedPrice hourly_only(int years, Payment payment, double hourly, Source source) {
    ReservedPrice r;
    r.term_years = years;
    r.payment = payment;
    r.hourly = hourly;
    r.source = std::move(source);
    return r;
}

void add_aws(std::vector<Offering>& out) {
    const Source sky{"skypilot-catalog v7 aws vms.csv (commit 001367d)", "2025-H1"};
    const std::string spot_az1 = "spot: us-east-1 zone use1-az1 quote";
    const Billing b = per_second_1min;
    out.push_back(offer("aws", "us-east-1", "p3.2xlarge", "V100", 1, 3.06, 0.5197, b, sky, spot_az1));
    out.push_back(offer("aws", "us-east-1", "p3.8xlarge", "V100", 4, 12.24, 1.8029, b, sky, spot_az1));
    out.push_back(offer("aws", "us-east-1", "p3.16xlarge", "V100", 8, 24.48, 4.8549, b, sky, spot_az1));
    out.push_back(
        offer("aws", "us-east-1", "p3dn.24xlarge", "V100-32GB", 8, 31.212, 3.8094, b, sky, spot_az1));
    out.push_back(offer("aws", "us-east-1", "g4dn.xlarge", "T4", 1, 0.526, 0.201, b, sky,
                        spot_az1 + "; seed 001 quotes about $0.5/h"));
    out.push_back(offer("aws", "us-east-1", "g4dn.2xlarge", "T4", 1, 0.752, 0.3163, b, sky, spot_az1));
    out.push_back(offer("aws", "us-east-1", "g4dn.metal", "T4", 8, 7.824, 4.2937, b, sky, spot_az1));
    out.push_back(offer("aws", "us-east-1", "g5.xlarge", "A10G", 1, 1.006, std::nullopt, b,
                        {"AWS EC2 On-Demand pricing, us-east-1 Linux (G5 list price since launch)",
                         "2021-11"},
                        "not in the skypilot subset; no spot quote recorded"));
    out.push_back(offer("aws", "us-east-1", "g5.2xlarge", "A10G", 1, 1.212, 0.5609, b, sky, spot_az1));
    out.push_back(offer("aws", "us-east-1", "g5.48xlarge", "A10G", 8, 16.288, 3.9266, b, sky, spot_az1));

    // p4d reservations: no public figure was found; derived from the discounts models.md states
    // (3-yr 61.9% off, its 70/30 blend $18.581/h; 1-yr 38.4% off). See docs/catalog.md.
    Offering p4d = offer("aws", "us-east-1", "p4d.24xlarge", "A100-40GB", 8, 32.7726, 6.7915, b, sky,
                         spot_az1 +
                             "; AWS cut the on-demand price to $21.96/h in 2025-06 (see region "
                             "us-east-1@2025-06)");
    const Source derived{"derived: gputco reference models.md (3-yr 61.9% off, 70/30 blend $18.581/h; "
                         "1-yr 38.4% off)",
                         "2025-H1"};
    // 3-yr: (18.581 - 0.3 x 32.7726) / 0.7 = 12.4987 $/h effective (61.86% off).
    p4d.reserved.push_back(all_upfront(3, (18.581 - 0.3 * 32.7726) / 0.7, derived));
    // 1-yr: (1 - 0.384) x 32.7726 = 20.1879 $/h effective.
    p4d.reserved.push_back(all_upfront(1, (1.0 - 0.384) * 32.7726, derived));
    out.push_back(p4d);

    out.push_back(offer("aws", "us-east-1", "p4de.24xlarge", "A100-80GB", 8, 40.96575, 7.8074, b, sky,
                        "spot: us-east-1 zone use1-az4 quote (no use1-az1 row)"));
    out.push_back(offer("aws", "us-east-1", "p5.48xlarge", "H100", 8, 98.32, 30.326, b, sky,
                        spot_az1 +
                            "; AWS cut the on-demand price to $55.04/h in 2025-06 (see region "
                            "us-east-1@2025-06)"));
    out.push_back(offer("aws", "us-east-1", "p5en.48xlarge", "H200", 8, 84.8, 24.2902, b, sky,
                        "spot: us-east-1 zone use1-az2 quote (no use1-az1 row)"));

    // After AWS's June-2025 cut of P4/P5 on-demand prices.
    const Source cut{"AWS price reduction for P4/P5 instances, as recorded in the gputco reference "
                     "data README",
                     "2025-06"};
    out.push_back(offer("aws", "us-east-1@2025-06", "p4d.24xlarge", "A100-40GB", 8, 21.96, std::nullopt,
                        b, cut, "on-demand after the 2025-06 price cut; spot and reservations not recorded"));
    out.push_back(offer("aws", "us-east-1@2025-06", "p5.48xlarge", "H100", 8, 55.04, std::nullopt, b,
                        cut, "on-demand after the 2025-06 price cut; spot and reservations not recorded"));

    // 2017-11-12 snapshot of ec2instances.info: effective rates of standard reservations.
    // all_upfront: upfront = effective x term hours (exact: no hourly fee); no_upfront: hourly =
    // effective (exact: no upfront); partial_upfront: the split is not in the data, so the effective
    // rate is stored as hourly with upfront 0.
    const Source ec2{"ec2instances.info www/instances.json (vantage-sh), us-east-1 Linux", "2017-11-12"};
    struct Rates {
        const char* type;
        int gpus;
        double on_demand;
        double y1_all, y1_partial, y1_none, y3_all, y3_partial, y3_none;
    };
    const Rates rows[] = {
        {"p3.2xlarge", 1, 3.06, 1.949, 1.990, 2.088, 1.159, 1.234, 1.332},
        {"p3.8xlarge", 4, 12.24, 7.797, 7.956, 8.354, 4.637, 4.932, 5.327},
        {"p3.16xlarge", 8, 24.48, 15.594, 15.912, 16.708, 9.274, 9.866, 10.655},
    };
    for (const Rates& r : rows) {
        Offering o = offer("aws", "us-east-1@2017-11-12", r.type, "V100", r.gpus, r.on_demand,
                           std::nullopt, b, ec2,
                           "standard reservations; partial_upfront stored as its effective rate "
                           "(hourly, upfront 0); convertible reservations not recorded");
        o.reserved.push_back(all_upfront(1, r.y1_all, ec2));
        o.reserved.push_back(hourly_only(1, Payment::partial_upfront, r.y1_partial, ec2));
        o.reserved.push_back(hourly_only(1, Payment::no_upfront, r.y1_none, ec2));
        o.reserved.push_back(all_upfront(3, r.y3_all, ec2));
        o.reserved.push_back(hourly_only(3, Payment::partial_upfront, r.y3_partial, ec2));
        o.reserved.push_back(hourly_only(3, Payment::no_upfront, r.y3_none, ec2));
        out.push_back(o);
    }
}

void add_azure(std::vector<Offering>& out) {
    const Source sky{"skypilot-catalog v6 azure vms.csv (commit 098741e)", "undated"};
    const Billing b = per_minute;
    const std::string spot = "spot: eastus quote";
    out.push_back(offer("azure", "eastus", "Standard_NC4as_T4_v3", "T4", 1, 0.526, 0.062699, b, sky, spot));
    out.push_back(
        offer("azure", "eastus", "Standard_NC6s_v3", "V100-PCIe", 1, 3.06, 0.3978, b, sky, spot));
    out.push_back(
        offer("azure", "eastus", "Standard_NC24s_v3", "V100-PCIe", 4, 12.24, 1.5912, b, sky, spot));
    out.push_back(
        offer("azure", "eastus", "Standard_ND40rs_v2", "V100-32GB", 8, 22.032, 2.42352, b, sky, spot));
    out.push_back(offer("azure", "eastus", "Standard_NC24ads_A100_v4", "A100-80GB-PCIe", 1, 3.673,
                        0.444433, b, sky, spot));
    out.push_back(offer("azure", "eastus", "Standard_NC96ads_A100_v4", "A100-80GB-PCIe", 4, 14.692,
                        1.777732, b, sky, spot));

    // No public Azure reservation price was found for these sizes: the seeds' discounts are used.
    // Azure reservations are paid upfront or monthly at no extra cost, so both carry the same rate.
    const Source seed000{"seed 000 (Azure A100 3-year reserved saves 52%)", "undated"};
    const Source seed003{"seed 003 (1-year reservation: 40% discount)", "undated"};
    const std::string reserved_note =
        "reservations derived from the seeds' discounts, not from an Azure price list";
    for (auto [type, gpu, on_demand, spot_price] :
         {std::tuple{"Standard_ND96asr_v4", "A100-40GB", 27.197, 2.99167},
          std::tuple{"Standard_ND96amsr_A100_v4", "A100-80GB", 32.77, 3.6047}}) {
        Offering o = offer("azure", "eastus", type, gpu, 8, on_demand, spot_price, b, sky,
                           spot + "; " + reserved_note);
        for (Payment p : {Payment::all_upfront, Payment::no_upfront}) {
            o.reserved.push_back(reserved_from_discount(on_demand, 0.52, 3, p, seed000));
            o.reserved.push_back(reserved_from_discount(on_demand, 0.40, 1, p, seed003));
        }
        out.push_back(o);
    }
    out.push_back(offer("azure", "eastus", "Standard_NC40ads_H100_v5", "H100-NVL", 1, 6.98, std::nullopt,
                        b, sky, "no spot: the catalog's spot price equals pay-as-you-go"));
    out.push_back(offer("azure", "eastus", "Standard_ND96isr_H100_v5", "H100", 8, 98.32, std::nullopt, b,
                        sky,
                        "8 GPUs (the catalog row says 12); no spot: the catalog's spot price equals "
                        "pay-as-you-go"));
}

void add_gcp(std::vector<Offering>& out) {
    const Source cyc{"Cyclenerd google-cloud-pricing-cost-calculator pricing.yml, us-central1",
                     "2026-07-30"};
    const Billing b = per_second_1min;
    // Committed-use discounts are billed monthly: hourly = monthly commitment price / 730 h.
    const std::string note =
        "spot: us-central1 spot price; 1- and 3-year committed use billed monthly (price / 730 h)";
    struct Row {
        const char* type;
        const char* gpu;
        int gpus;
        double hour, spot, month_1y, month_3y;
    };
    const Row rows[] = {
        {"a2-highgpu-1g", "A100-40GB", 1, 3.673385, 1.92802, 1689.3711392, 938.56707798},
        {"a2-highgpu-8g", "A100-40GB", 8, 29.38708, 15.42416, 13514.9691136, 7508.53662384},
        {"a3-highgpu-8g", "H100", 8, 88.4899999025753, 50.6095408219178, 44810.08066464,
         28370.99821392},
        {"g2-standard-4", "L4", 1, 0.706832255, 0.397336, 325.07215214, 232.19438719},
        {"g2-standard-48", "L4", 4, 4.001665148, 2.249632, 1840.36578168, 1314.5469014},
    };
    for (const Row& r : rows) {
        Offering o = offer("gcp", "us-central1", r.type, r.gpu, r.gpus, r.hour, r.spot, b, cyc, note);
        o.reserved.push_back(hourly_only(1, Payment::no_upfront, r.month_1y / hours_per_month, cyc));
        o.reserved.push_back(hourly_only(3, Payment::no_upfront, r.month_3y / hours_per_month, cyc));
        out.push_back(o);
    }
    out.push_back(offer("gcp", "us-central1", "a2-ultragpu-8g", "A100-80GB", 8, 40.5503831232877,
                        22.0763704109589, b, cyc,
                        "spot: us-central1 spot price; the snapshot lists no commitment prices"));
}

void add_china(std::vector<Offering>& out) {
    const std::string usd_note = "USD converted from CNY at 0.138 USD/CNY by the source";
    const Source ali{"sugarlxn/skypilot-catalog v8 alicloud vms.csv (commit 003c56a)", "undated"};
    const Billing b = per_second;
    out.push_back(offer("alibaba", "ap-northeast-1", "ecs.gn6i-c4g1.xlarge", "T4", 1, 1.16517926,
                        0.36723566, b, ali, usd_note));
    out.push_back(offer("alibaba", "ap-southeast-1", "ecs.gn6e-c12g1.3xlarge", "V100-32GB", 1, 3.81637344,
                        1.18944408, b, ali, usd_note));
    out.push_back(offer("alibaba", "ap-northeast-1", "ecs.gn7e-c16g1.4xlarge", "A100-80GB", 1, 5.14026954,
                        1.59951356, b, ali, usd_note));
    out.push_back(offer("alibaba", "ap-northeast-1", "ecs.gn7e-c16g1.32xlarge", "A100-80GB", 8,
                        41.06042892, 12.73476282, b, ali, usd_note));
    out.push_back(offer("alibaba", "ap-northeast-1", "ecs.gn7i-c8g1.2xlarge", "A10", 1, 2.48901313,
                        0.7776242, b, ali, usd_note));

    // The seeds' Beijing list prices, kept in CNY.
    Offering gn6i = offer("alibaba", "cn-beijing", "gn6i", "A100-40GB", 1, 8.5, std::nullopt, b,
                          {"seed 003 (Beijing region list price)", "undated"},
                          "audit: seed 003 calls gn6i an A100 (0.21 CNY per GB -> 40 GB) and seed 001 "
                          "an A10, but Alibaba's gn6i family carries T4s; 3-year reservation 58% lower "
                          "per seed 001");
    gn6i.currency = "CNY";
    gn6i.reserved.push_back(reserved_from_discount(8.5, 0.58, 3, Payment::all_upfront,
                                                   {"seed 001 (gn6i 3-year reserved 58% lower)", "undated"}));
    out.push_back(gn6i);

    const Source ten{"sugarlxn/skypilot-catalog v8 tencentcloud vms.csv (commit 3193645)", "undated"};
    const std::string ten_note = usd_note + "; no spot price in the source";
    out.push_back(offer("tencent", "ap-beijing", "GN7.2XLARGE32", "T4", 1, 1.20474, std::nullopt, b, ten,
                        ten_note));
    out.push_back(offer("tencent", "ap-beijing", "GN7.20XLARGE320", "T4", 4, 7.6728, std::nullopt, b, ten,
                        ten_note));
    out.push_back(offer("tencent", "ap-beijing", "GN10Xp.2XLARGE40", "V100-32GB", 1, 1.66014,
                        std::nullopt, b, ten, ten_note));
    out.push_back(offer("tencent", "ap-beijing", "GN10Xp.20XLARGE320", "V100-32GB", 8, 13.23282,
                        std::nullopt, b, ten, ten_note));
    out.push_back(offer("tencent", "ap-beijing", "GT4.4XLARGE96", "A100-40GB", 1, 3.95922, std::nullopt,
                        b, ten, ten_note));
    out.push_back(offer("tencent", "ap-beijing", "GT4.41XLARGE948", "A100-40GB", 8, 32.78328,
                        std::nullopt, b, ten, ten_note));
    out.push_back(offer("tencent", "ap-beijing", "GNV4.3XLARGE44", "A10", 1, 1.27374, std::nullopt, b,
                        ten, ten_note));

    Offering gn7 = offer("tencent", "ap-beijing", "GN7", "T4", 1, 2.8, std::nullopt, b,
                         {"seed 003 (Beijing region list price)", "undated"},
                         "seed's 0.18 CNY/GB = 2.8 / 16 GB; the source above lists GN7.2XLARGE32 at "
                         "$1.20474/h = 8.73 CNY/h");
    gn7.currency = "CNY";
    out.push_back(gn7);
    Offering gn10xp = offer("tencent", "cn-unspecified", "GN10Xp", "V100-32GB", 1, 12.0, std::nullopt, b,
                            {"seed 001 (about 12 CNY/h)", "undated"},
                            "seed gives no region or size; GN10Xp carries V100 32 GB cards");
    gn10xp.currency = "CNY";
    out.push_back(gn10xp);

    Offering gp60 = offer("huawei", "cn-north-4", "GP60", "V100S", 1, 6.2, std::nullopt, b,
                          {"seed 003 (Beijing region list price)", "undated"},
                          "seed says 'Beijing region' (cn-north-4 assumed); audit: 6.2 CNY / 32 GB = "
                          "0.19 CNY per GB, not the 0.25 the seed states");
    gp60.currency = "CNY";
    out.push_back(gp60);
}

void add_lambda(std::vector<Offering>& out) {
    const Source sky{"skypilot-catalog v7 lambda vms.csv (commit 1158013)", "undated"};
    const std::string note =
        "same price in every region; no spot; annual plan saves 30% per seed 004 (modelled as a "
        "discount by the strategy layer)";
    const Billing b = per_minute;
    out.push_back(offer("lambda", "us-east-1", "gpu_1x_a6000", "RTX-A6000", 1, 0.8, std::nullopt, b, sky, note));
    out.push_back(offer("lambda", "us-east-1", "gpu_2x_a6000", "RTX-A6000", 2, 1.6, std::nullopt, b, sky, note));
    out.push_back(offer("lambda", "us-east-1", "gpu_4x_a6000", "RTX-A6000", 4, 3.2, std::nullopt, b, sky, note));
    out.push_back(offer("lambda", "us-east-1", "gpu_8x_a100", "A100-40GB", 8, 10.32, std::nullopt, b, sky, note));
    out.push_back(offer("lambda", "us-east-1", "gpu_8x_v100", "V100", 8, 4.4, std::nullopt, b, sky, note));
}

void add_paperspace(std::vector<Offering>& out) {
    const Source page{"paperspace.com/pricing, as transcribed in api-evangelist/paperspace "
                      "plans/paperspace-plans-pricing.yml",
                      "2026-09-20"};
    const std::string note =
        "list price; new users get 100 free A100 hours per seed 004; hourly machines also pay a "
        "monthly storage fee";
    const Billing b = per_hour;
    Offering h100 = offer("paperspace", "global", "H100", "H100", 1, 3.09, std::nullopt, b, page,
                          note + "; 3-year commitment $2.24/h is quoted for HGX H100 machines");
    h100.reserved.push_back(hourly_only(3, Payment::no_upfront, 2.24, page));
    out.push_back(h100);
    out.push_back(offer("paperspace", "global", "A100-80G", "A100-80GB", 1, 1.15, std::nullopt, b, page,
                        note + "; the page marks this price with '**' (a condition the transcription "
                               "does not carry)"));
    out.push_back(offer("paperspace", "global", "A6000", "RTX-A6000", 1, 1.89, std::nullopt, b, page, note));
    out.push_back(offer("paperspace", "global", "V100", "V100", 1, 2.30, std::nullopt, b, page, note));
}

Catalog make_builtin() {
    std::vector<Offering> offerings;
    add_aws(offerings);
    add_azure(offerings);
    add_gcp(offerings);
    add_china(offerings);
    add_lambda(offerings);
    add_paperspace(offerings);
    return Catalog(builtin_gpus(), std::move(offerings));
}

}  // namespace

const Catalog& Catalog::builtin() {
    // Built once, on first use (thread-safe static initialisation), never modified.
    static const Catalog catalog = make_builtin();
    return catalog;
}

}  // namespace gputco
