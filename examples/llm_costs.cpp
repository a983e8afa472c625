// Fine-tune a 70B model on 2B tokens, then serve it at 50 requests/s: what each costs on the H100,
// H200, B200 and MI300X offerings, on-demand, spot (Monte Carlo with checkpoints) and reserved where
// the catalog lists a reservation, and the fine-tune as a capacity block where it has a block rate.
//
// The model is Llama 3 70B's shape (80 layers × 8192, 64 heads, 8 KV heads). The built-in catalog has
// H100 and H200 offerings but none for B200 or MI300X; two dated public list prices are added for them
// below, each with its source. Pass --catalog FILE to add or replace offerings with your own (the
// catalog JSON format). Every estimate's assumptions (MFU and where it came from, memory per GPU,
// bandwidth efficiency) are printed beside it; docs/models.md section 10 has the formulas.
//
// Usage: llm_costs [--json] [--catalog FILE]
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gputco/app/json_rows.hpp>
#include <gputco/gputco.hpp>
#include <nlohmann/json.hpp>

using namespace gputco;

namespace {

// Public list prices for GPUs the built-in catalog has no offering of (per GPU-hour × 8 GPUs).
Catalog added_offerings() {
    GpuSpec b200;
    b200.name = "B200";
    b200.vendor = "NVIDIA";
    b200.memory_gb = 180;
    b200.memory_bandwidth_gbps = 7700;
    b200.fp16_tflops = 2250;  // datasheet 4.5 PFLOPS BF16 with sparsity
    b200.fp32_tflops = 75;
    b200.tdp_watts = 1000;
    b200.source = {"NVIDIA HGX B200 datasheet, per-GPU column", "2025", ""};
    const auto eight = [](std::string provider, std::string type, std::string gpu, double od, double spot,
                          Source source) {
        Offering o;
        o.provider = std::move(provider);
        o.region = "unspecified";
        o.instance_type = std::move(type);
        o.gpu = std::move(gpu);
        o.gpus_per_instance = 8;
        o.on_demand_hourly = 8 * od;
        o.spot_hourly = 8 * spot;
        o.billing_increment_seconds = 1;
        o.minimum_billed_seconds = 60;
        o.source = std::move(source);
        o.notes = "list price per GPU-hour × 8; the source row names no region";
        return o;
    };
    return Catalog({b200},
                   {eight("gcp", "a4-highgpu-8g", "B200", 11.28, 4.28,
                          {"anycloud-sh/catalog GCP price rows (host + GPU)", "2026-05-20", ""}),
                    eight("azure", "Standard_ND96isr_MI300X_v5", "MI300X", 6.00, 1.11,
                          {"anycloud-sh/catalog azure/vms.csv", "2026-05-20", ""})});
}

const LlmModel llama70b{.name = "Llama 3 70B shape", .parameters = 70.6e9, .layers = 80, .hidden_size = 8192,
                        .attention_heads = 64, .kv_heads = 8};

void print_training(const LlmTrainingRanking& r) {
    const LlmTraining& t = r.training;
    fmt::print("\n{}: {} on {:g} tokens at {} tokens/sequence, {}; {:.3g} FLOPs ({:.3g} per token)\n", t.name,
               t.model.name, t.tokens, t.sequence_length, to_string(t.precision), r.flops, r.flops_per_token);
    fmt::print("{:<3} {:<48} {:<14} {:>5} {:>11} {:>8} {:>5} {:>9} {:>8} {:>10} {:>10}\n", "#", "offering", "buying",
               "GPUs", "layout", "GB/GPU", "MFU", "GPU-h", "wall h", "$/run", "$/run P95");
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const LlmTrainingRow& x = r.rows[i];
        fmt::print("{:<3} {:<48} {:<14} {:>5} {:>11} {:>8.1f} {:>5.2f} {:>9.0f} {:>8.1f} {:>10.0f} {:>10.0f}\n", i + 1,
                   fmt::format("{}/{}/{}", x.provider, x.region, x.instance_type), to_string(x.buying), x.gpus,
                   fmt::format("tp{} {}", x.layout.tensor_parallel, to_string(x.layout.sharding)), x.memory_gb_per_gpu,
                   x.mfu, x.gpu_hours, x.run_hours, x.cost_per_run, x.cost_per_run_p95);
    }
    std::vector<std::string> seen;
    for (const LlmTrainingRow& x : r.rows) {
        if (std::find(seen.begin(), seen.end(), x.gpu) != seen.end()) continue;
        seen.push_back(x.gpu);
        fmt::print("  {} MFU {:.3f} — {}\n", x.gpu, x.mfu, x.mfu_basis);
    }
    for (const SkippedOffering& s : r.skipped) fmt::print("  skipped {}: {}\n", s.offering, s.reason);
}

void print_serving(const LlmServingRanking& r) {
    const LlmServing& s = r.serving;
    fmt::print("\nServe {} at {:g} requests/s, {:g} input + {:g} output tokens each, {}; targets {:.0f} ms per "
               "output token, {:.1f} s to first token\n",
               s.model.name, s.requests_per_second, s.input_tokens, s.output_tokens, to_string(s.precision),
               1000 * s.max_seconds_per_output_token, s.max_seconds_to_first_token);
    fmt::print("{:<3} {:<48} {:<9} {:>3} {:>5} {:>8} {:>5} {:>7} {:>9} {:>9} {:>9} {:>9}\n", "#", "offering", "buying",
               "tp", "batch", "replicas", "GPUs", "ms/tok", "tok/s/GPU", "$/hour", "$/M in", "$/M out");
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const LlmServingRow& x = r.rows[i];
        const ServingEstimate& e = x.estimate;
        fmt::print("{:<3} {:<48} {:<9} {:>3} {:>5} {:>8} {:>5} {:>7.1f} {:>9.0f} {:>9.2f} {:>9.3f} {:>9.3f}\n", i + 1,
                   fmt::format("{}/{}/{}", x.provider, x.region, x.instance_type), to_string(x.buying),
                   e.tensor_parallel, e.batch, e.replicas, e.gpus, 1000 * e.step_seconds,
                   e.decode_tokens_per_second_per_gpu, x.cost_per_hour, x.cost_per_million_input_tokens,
                   x.cost_per_million_output_tokens);
    }
    fmt::print("  decode: bandwidth-bound roofline at {:.0f}% of peak bandwidth (an assumption); prefill at the "
               "training MFU; spot rows priced without interruptions\n",
               100 * LlmGpuOptions{}.decode_bandwidth_efficiency);
    for (const SkippedOffering& k : r.skipped) fmt::print("  skipped {}: {}\n", k.offering, k.reason);
}

}  // namespace

int main(int argc, char** argv) {
    bool json = false;
    std::string catalog_file;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = true;
        else if (std::strcmp(argv[i], "--catalog") == 0 && i + 1 < argc) catalog_file = argv[++i];
        else {
            fmt::print(stderr, "usage: llm_costs [--json] [--catalog FILE]\n");
            return 2;
        }
    }
    try {
        Catalog catalog = Catalog::builtin().overridden_by(added_offerings());
        if (!catalog_file.empty()) catalog = catalog.overridden_by(Catalog::from_json_file(catalog_file));
        LlmRankOptions options;
        options.gpus = {"H100", "H200", "B200", "MI300X"};

        const LlmTraining lora{.name = "LoRA fine-tune", .model = llama70b, .tokens = 2e9, .sequence_length = 4096,
                               .method = TrainingMethod::lora};
        LlmTraining full = lora;
        full.name = "Full fine-tune";
        full.method = TrainingMethod::full;
        const LlmServing serving{.name = "70B service", .model = llama70b, .input_tokens = 1000, .output_tokens = 300,
                                 .requests_per_second = 50};
        const LlmTrainingRanking lora_ranking = rank_llm_training(lora, catalog, options);
        const LlmTrainingRanking full_ranking = rank_llm_training(full, catalog, options);
        const LlmServingRanking serving_ranking = rank_llm_serving(serving, catalog, options);

        if (json) {
            // The rows in the library's LLM columns: the keys `gputco run --format json` writes.
            const nlohmann::ordered_json out{
                {"lora", {{"flops", lora_ranking.flops}, {"rows", rows_json(llm_training_columns(), lora_ranking.rows)}}},
                {"full", {{"flops", full_ranking.flops}, {"rows", rows_json(llm_training_columns(), full_ranking.rows)}}},
                {"serving", {{"rows", rows_json(llm_serving_columns(), serving_ranking.rows)}}}};
            fmt::print("{}\n", out.dump());
            return 0;
        }
        fmt::print("Fine-tune a 70B model on 2B tokens, then serve it at 50 requests/s (H100, H200, B200, MI300X).\n"
                   "Spot: Poisson interruptions every {:g} h per instance, checkpoints written at {:g} GB/s per instance, "
                   "{} paths. Costs in {}.\n",
                   options.spot_assumptions.mtbf_hours, options.storage_gb_per_second_per_instance,
                   options.spot_assumptions.simulation.paths, options.currency);
        print_training(lora_ranking);
        print_training(full_ranking);
        print_serving(serving_ranking);
    } catch (const InvalidInput& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 1;
    }
    return 0;
}
