// LLM FLOPs, memory, layouts and GPU figures (work/llm.hpp, work/llm_gpus.hpp), each against
// arithmetic done by hand in the comments.
#include <cmath>
#include <random>

#include <doctest/doctest.h>

#include "gputco/work/llm.hpp"
#include "gputco/work/llm_gpus.hpp"

using namespace gputco;

namespace {

// A small model whose arithmetic is easy by hand: N = 1e9, L = 10, h = 1000, a = 10.
LlmModel small() { return {.name = "small", .parameters = 1e9, .layers = 10, .hidden_size = 1000, .attention_heads = 10}; }

LlmTraining small_training(TrainingMethod method = TrainingMethod::full) {
    return {.name = "t", .model = small(), .tokens = 1e6, .sequence_length = 100, .method = method,
            .trainable_fraction = 0.01};
}

std::string message(auto&& f) {
    try {
        f();
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("training FLOPs: 6 N + 12 L h s per token, 4 N + 6 P + 12 L h s for adapters") {
    // attention 12 × 10 × 1000 × 100 = 1.2e7; full 6 × 1e9 + 1.2e7 = 6.012e9 per token, × 1e6 tokens.
    CHECK(training_flops_per_token(small_training()) == doctest::Approx(6.012e9).epsilon(1e-12));
    CHECK(training_flops(small_training()) == doctest::Approx(6.012e15).epsilon(1e-12));
    // LoRA, P = 0.01 × 1e9 = 1e7: 4e9 + 6e7 + 1.2e7 = 4.072e9. QLoRA: the same FLOPs.
    CHECK(training_flops_per_token(small_training(TrainingMethod::lora)) == doctest::Approx(4.072e9).epsilon(1e-12));
    CHECK(training_flops_per_token(small_training(TrainingMethod::qlora)) == doctest::Approx(4.072e9).epsilon(1e-12));
    // Mixture of experts without a shape (DeepSeek-V3's 37B active of 671B): 6 × 37e9 = 2.22e11 per token.
    LlmTraining moe{.model = {.parameters = 671e9, .active_parameters = 37e9}, .tokens = 14.8e12};
    CHECK(training_flops_per_token(moe) == doctest::Approx(2.22e11).epsilon(1e-12));
    // Llama 3 70B at 8K: 6 × 70.6e9 + 12 × 80 × 8192 × 8192 = 4.236e11 + 6.44245e10 = 4.880245e11.
    LlmTraining llama{.model = {.parameters = 70.6e9, .layers = 80, .hidden_size = 8192, .attention_heads = 64,
                                .kv_heads = 8},
                      .tokens = 1, .sequence_length = 8192};
    CHECK(training_flops_per_token(llama) == doctest::Approx(4.880245e11).epsilon(1e-6));
}

TEST_CASE("training memory per GPU under data parallel, ZeRO-1/2/3 and tensor parallel") {
    const LlmTraining t = small_training();
    // Plain data parallel: 2 + 2 + 12 bytes × 1e9 = 16e9; activations with checkpointing (s b h = 1e5):
    // 10 layers × 2 × 1e5 + 34 × 1e5 = 5.4e6.
    TrainingMemory m = training_memory(t, {1, 4, Sharding::none});
    CHECK(m.weights == doctest::Approx(2e9));
    CHECK(m.gradients == doctest::Approx(2e9));
    CHECK(m.optimizer == doctest::Approx(12e9));
    CHECK(m.activations == doctest::Approx(5.4e6));
    // ZeRO-1 over 4: optimizer 3e9 → 7e9; ZeRO-2: gradients 0.5e9 too → 5.5e9; ZeRO-3: weights 0.5e9 → 4e9.
    CHECK(training_memory(t, {1, 4, Sharding::zero1}).total() == doctest::Approx(7e9 + 5.4e6));
    CHECK(training_memory(t, {1, 4, Sharding::zero2}).total() == doctest::Approx(5.5e9 + 5.4e6));
    CHECK(training_memory(t, {1, 4, Sharding::zero3}).total() == doctest::Approx(4e9 + 5.4e6));
    // Tensor parallel 2 then ZeRO-3 over 2: 16e9 / 4 = 4e9; activations halved: 2.7e6.
    CHECK(training_memory(t, {2, 2, Sharding::zero3}).total() == doctest::Approx(4e9 + 2.7e6));
    // No checkpointing: 10 layers × 34 × 1e5 = 3.4e7.
    LlmTraining no_ckpt = t;
    no_ckpt.activation_checkpointing = false;
    CHECK(training_memory(no_ckpt, {1, 1, Sharding::none}).activations == doctest::Approx(3.4e7));
    // LoRA, P = 1e7: weights 2e9 frozen + 2e7 adapters; gradients 2e7; optimizer 1.2e8.
    m = training_memory(small_training(TrainingMethod::lora), {1, 1, Sharding::none});
    CHECK(m.weights == doctest::Approx(2.02e9));
    CHECK(m.gradients == doctest::Approx(2e7));
    CHECK(m.optimizer == doctest::Approx(1.2e8));
    // QLoRA: frozen 1e9 × 4.127 / 8 = 5.15875e8, plus the adapters' 2e7.
    CHECK(training_memory(small_training(TrainingMethod::qlora), {1, 1, Sharding::none}).weights ==
          doctest::Approx(5.35875e8));
    // Checkpoints: 14 bytes per trained parameter.
    CHECK(checkpoint_bytes(t) == doctest::Approx(14e9));
    CHECK(checkpoint_bytes(small_training(TrainingMethod::lora)) == doctest::Approx(1.4e8));
}

TEST_CASE("smallest layout: fewest whole nodes, then least tensor parallel, then lightest sharding") {
    LlmTraining t = small_training();
    t.model = {.parameters = 1e9};  // no shape: no activations
    // 16 GB × 0.9 = 14.4e9 usable: plain data parallel needs 16e9; ZeRO-1 over 8: 2 + 2 + 1.5 = 5.5e9 fits.
    CHECK(smallest_training_layout(t, 8, 16, 0.9) == TrainingLayout{1, 8, Sharding::zero1});
    // 4 GB (3.6e9 usable): ZeRO-2 2 + 0.25 + 1.5 = 3.75e9 no; ZeRO-3 (0.25 + 0.25 + 1.5) = 2e9 fits.
    CHECK(smallest_training_layout(t, 8, 4, 0.9) == TrainingLayout{1, 8, Sharding::zero3});
    // 1 GB (0.9e9): ZeRO-3 needs 16e9 / n <= 0.9e9, n >= 17.8: three 8-GPU nodes, 16e9 / 24 = 0.667e9.
    CHECK(smallest_training_layout(t, 8, 1, 0.9) == TrainingLayout{1, 24, Sharding::zero3});
    // At least 20 GPUs on 16 GB: three nodes; ZeRO-1 over 24: 4e9 + 12e9 / 24 = 4.5e9 fits.
    CHECK(smallest_training_layout(t, 8, 16, 0.9, 20) == TrainingLayout{1, 24, Sharding::zero1});
    // Nothing fits within 16 GPUs of 1 GB.
    CHECK_FALSE(smallest_training_layout(t, 8, 1, 0.9, 0, 16).has_value());
}

TEST_CASE("the smallest layout fits and one node fewer does not (random models)") {
    std::mt19937_64 rng(30);
    std::uniform_real_distribution<double> log_params(8, 12), log_memory(0.5, 2.5);
    std::uniform_int_distribution<int> node_pick(0, 3);
    const int nodes[] = {1, 2, 4, 8};
    for (int i = 0; i < 500; ++i) {
        LlmTraining t;
        t.model.parameters = std::pow(10.0, log_params(rng));
        t.tokens = 1e9;
        t.method = TrainingMethod(i % 3);
        const int g = nodes[node_pick(rng)];
        const double memory = std::pow(10.0, log_memory(rng));
        const auto layout = smallest_training_layout(t, g, memory, 0.9, 0, 4096);
        if (!layout) {
            // Then even ZeRO-3 over 4096 GPUs does not fit.
            CHECK(training_memory(t, {1, 4096, Sharding::zero3}).total() > memory * 0.9e9);
            continue;
        }
        CHECK(layout->gpus() % g == 0);
        CHECK(training_memory(t, *layout).total() <= memory * 0.9e9);
        if (layout->gpus() > g) {  // one node fewer: not even ZeRO-3 at any tensor parallel degree fits
            for (int tp = 1; tp <= g; tp *= 2)
                CHECK(training_memory(t, {tp, (layout->gpus() - g) / tp, Sharding::zero3}).total() > memory * 0.9e9);
        }
    }
}

TEST_CASE("KV cache per token: 2 L kv_heads head_dim bytes") {
    // Llama 3 70B: 2 × 80 × 8 × 128 × 2 = 327,680 bytes per token.
    const LlmModel llama{.parameters = 70.6e9, .layers = 80, .hidden_size = 8192, .attention_heads = 64, .kv_heads = 8};
    CHECK(kv_cache_bytes_per_token(llama, 2) == 327'680);
    // Multi-head (kv_heads 0 = heads): 2 × 10 × 10 × 100 × 2 = 40,000.
    CHECK(kv_cache_bytes_per_token(small(), 2) == 40'000);
}

TEST_CASE("invalid LLM inputs name the field, the value and the rule") {
    LlmTraining t = small_training();
    t.tokens = 0;
    CHECK(message([&] { t.validate(); }) == "training.tokens = 0: must be finite and > 0");
    t = small_training();
    t.model.parameters = -1;
    CHECK(message([&] { t.validate(); }) == "training.model.parameters = -1: must be finite and > 0");
    t = small_training();
    t.model.active_parameters = 2e9;
    CHECK(message([&] { t.validate(); }) == "training.model.active_parameters = 2000000000: must be <= 1e+09");
    t = small_training();
    t.model.attention_heads = 7;
    CHECK(message([&] { t.validate(); }) ==
          "training.model.attention_heads = 7: must be >= 1 and divide hidden_size (1000)");
    t = small_training();
    t.model.kv_heads = 3;
    CHECK(message([&] { t.validate(); }) ==
          "training.model.kv_heads = 3: must be 0 (= attention_heads) or divide attention_heads (10)");
    t = small_training(TrainingMethod::lora);
    t.trainable_fraction = 0;
    CHECK(message([&] { t.validate(); }) == "training.trainable_fraction = 0: must be in (0, 1] for lora and qlora");
    t = small_training(TrainingMethod::qlora);
    t.precision = LlmPrecision::fp8;
    CHECK(message([&] { t.validate(); }) ==
          "training.precision = \"fp8\": must be bf16 for qlora (the 4-bit weights are dequantised to BF16 for each product)");
    t = small_training();
    t.sequence_length = 0;
    CHECK(message([&] { t.validate(); }) == "training.sequence_length = 0: must be in [1, 10000000]");
    LlmServing s{.model = {.parameters = 1e9}};
    CHECK(message([&] { s.validate(); }) ==
          "serving.model.layers = 0: the model's shape (layers, hidden_size, attention_heads) is needed for the KV cache");
    s.model = small();
    s.requests_per_second = 0;
    CHECK(message([&] { s.validate(); }) == "serving.requests_per_second = 0: must be finite and > 0");
    CHECK(message([&] { (void)smallest_training_layout(small_training(), 0, 80, 0.9); }) ==
          "gpus_per_node = 0: must be in [1, 1024]");
    CHECK(parse<Sharding>("fsdp", "sharding") == Sharding::zero3);
    CHECK(message([&] { (void)parse<LlmPrecision>("int8", "precision"); }) ==
          "precision = \"int8\": must be one of bf16, fp8, fp4 (aliases: fp16 = bf16)");
}

TEST_CASE("GPU figures: catalog 16-bit peak, datasheet FP8/FP4, MFU with its kind and source") {
    const Catalog& catalog = Catalog::builtin();
    auto h100 = std::get<LlmGpu>(llm_gpu(catalog.gpu("H100"), LlmPrecision::bf16));
    CHECK(h100.peak_tflops == 989.4);
    CHECK(h100.mfu == 0.41);
    CHECK(h100.mfu_kind == MatchKind::measured);
    CHECK(h100.mfu_basis.find("Llama 3") != std::string::npos);
    // FP8 without a row of its own: the BF16 run's 0.41 × 989.4 = 405.654 TFLOP/s over 1,978.9.
    auto fp8 = std::get<LlmGpu>(llm_gpu(catalog.gpu("H100"), LlmPrecision::fp8));
    CHECK(fp8.peak_tflops == 1978.9);
    CHECK(fp8.mfu == doctest::Approx(0.41 * 989.4 / 1978.9));
    CHECK(fp8.mfu_kind == MatchKind::estimate);
    // No FP8 on Ampere, no FP4 on Hopper, no MFU row for a T4: reasons, not numbers.
    CHECK(std::get<std::string>(llm_gpu(catalog.gpu("A100-80GB"), LlmPrecision::fp8)).find("has no fp8 tensor cores") !=
          std::string::npos);
    CHECK(std::get<std::string>(llm_gpu(catalog.gpu("H200"), LlmPrecision::fp4)).find("has no fp4") != std::string::npos);
    CHECK(std::get<std::string>(llm_gpu(catalog.gpu("T4"), LlmPrecision::bf16)) ==
          "no MFU row for T4 (give one in options.gpu.mfu, or options.gpu.mfu_override)");
    // Overrides: the user's row first, or one MFU for every GPU.
    LlmGpuOptions mine;
    mine.mfu.push_back({"T4", LlmPrecision::bf16, 0.3, MatchKind::measured, "my run", {"my cluster", "2026-11", ""}});
    CHECK(std::get<LlmGpu>(llm_gpu(catalog.gpu("T4"), LlmPrecision::bf16, mine)).mfu == 0.3);
    mine.mfu_override = 0.5;
    CHECK(std::get<LlmGpu>(llm_gpu(catalog.gpu("H100"), LlmPrecision::bf16, mine)).mfu == 0.5);
    mine.mfu_override = 1.5;
    CHECK(message([&] { mine.validate(); }) == "options.gpu.mfu_override = 1.5: must be 0 (the table's) or in (0, 1]");
    // Every built-in row has a source and a date, and every MFU row's GPU has a peak row or is 16-bit only.
    for (const MfuRow& r : builtin_training_mfu()) {
        CHECK(!r.source.name.empty());
        CHECK(!r.source.as_of.empty());
        CHECK(r.mfu > 0);
        CHECK(r.mfu <= 1);
    }
    for (const LowPrecisionPeaks& r : builtin_low_precision_peaks()) {
        CHECK(!r.source.name.empty());
        CHECK(!r.source.as_of.empty());
    }
}

TEST_CASE("the user's MFU and peak rows as CSV override the built-in ones") {
    const std::string mfu = "gpu,precision,mfu,kind,as_of,source\n"
                            "H100,fp8,0.3,measured,2026-11,our 64-GPU run, FP8 current scaling\r\n"
                            "\n"
                            "T4,bf16,0.25,estimate,2026-11,a guess\n";
    const std::vector<MfuRow> rows = mfu_rows_from_csv(mfu);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].source.name == "our 64-GPU run, FP8 current scaling");
    CHECK(rows[0].source.as_of == "2026-11");
    LlmGpuOptions options;
    options.mfu = rows;
    const Catalog& catalog = Catalog::builtin();
    const LlmGpu fp8 = std::get<LlmGpu>(llm_gpu(catalog.gpu("H100"), LlmPrecision::fp8, options));
    CHECK(fp8.mfu == 0.3);
    CHECK(fp8.mfu_kind == MatchKind::measured);
    CHECK(std::get<LlmGpu>(llm_gpu(catalog.gpu("T4"), LlmPrecision::bf16, options)).mfu == 0.25);
    options.peaks = peak_rows_from_csv("gpu,fp8_tflops,fp4_tflops,as_of,source\nH200,2000,4000,2026-11,my vendor sheet\n");
    CHECK(std::get<LlmGpu>(llm_gpu(catalog.gpu("H200"), LlmPrecision::fp4, options)).peak_tflops == 4000);

    CHECK(message([] { (void)mfu_rows_from_csv("gpu,mfu\n"); }) ==
          "mfu_csv.header = \"gpu,mfu\": must be \"gpu,precision,mfu,kind,as_of,source\"");
    CHECK(message([] { (void)mfu_rows_from_csv("gpu,precision,mfu,kind,as_of,source\nH100,bf16,1.5,measured,2026,x\n"); }) ==
          "mfu_csv.rows[0].mfu = 1.5: must be in (0, 1]");
    CHECK(message([] { (void)mfu_rows_from_csv("gpu,precision,mfu,kind,as_of,source\nH100,bf16,0.4x,measured,2026,x\n"); }) ==
          "mfu_csv.rows[0].mfu = \"0.4x\": must be a finite number");
    CHECK(message([] { (void)mfu_rows_from_csv("gpu,precision,mfu,kind,as_of,source\nH100,bf16,0.4,none,2026,x\n"); }) ==
          "mfu_csv.rows[0].kind = \"none\": must be measured, proxy or estimate");
    CHECK(message([] { (void)mfu_rows_from_csv("gpu,precision,mfu,kind,as_of,source\nH100,bf16,0.4,measured,2026,\n"); }) ==
          "mfu_csv.rows[0].source = \"\": must name where the figure comes from");
    CHECK(message([] { (void)mfu_rows_from_csv("gpu,precision,mfu,kind,as_of,source\nH100,bf16\n"); }) ==
          "mfu_csv.rows[0] = \"H100,bf16\": must have 6 columns (gpu,precision,mfu,kind,as_of,source)");
    CHECK(message([] { (void)peak_rows_from_csv("gpu,fp8_tflops,fp4_tflops,as_of,source\nH100,-1,0,2026,x\n"); }) ==
          "peaks_csv.rows[0].fp8_tflops = -1: must be finite and >= 0");
}
