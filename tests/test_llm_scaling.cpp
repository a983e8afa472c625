// Pipelines and multi-node scaling (work/llm_scaling.hpp): bubble, all-reduce, step time and the links
// of offerings by hand, and the step model beside Llama 3's published scaling table.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "gputco/work/llm_scaling.hpp"

using namespace gputco;

namespace {

LlmTraining small_model_training() {
    LlmTraining t;
    t.model = {.name = "small", .parameters = 1e9, .layers = 10, .hidden_size = 1000, .attention_heads = 10};
    t.tokens = 1e6;
    t.sequence_length = 100;
    t.global_batch_sequences = 8;
    return t;
}

Offering offering(std::string provider, std::string type, std::string gpu, int gpus) {
    Offering o;
    o.provider = std::move(provider);
    o.region = "r";
    o.instance_type = std::move(type);
    o.gpu = std::move(gpu);
    o.gpus_per_instance = gpus;
    o.on_demand_hourly = 1;
    return o;
}

}  // namespace

TEST_CASE("pipeline bubble (p - 1)/(m + p - 1) and ring all-reduce 2 (n - 1)/n x bytes / bandwidth, by hand") {
    CHECK(pipeline_bubble_fraction(1, 7) == 0.0);
    CHECK(pipeline_bubble_fraction(8, 64) == doctest::Approx(7.0 / 71).epsilon(1e-15));
    CHECK(pipeline_bubble_fraction(4, 1) == doctest::Approx(3.0 / 4).epsilon(1e-15));
    // 5 GB over 4 replicas at 50 GB/s: 2 × 3/4 × 5e9 / 5e10 = 0.15 s
    CHECK(allreduce_seconds(5e9, 4, 50) == doctest::Approx(0.15).epsilon(1e-15));
    CHECK(allreduce_seconds(5e9, 1, 0) == 0.0);  // one replica exchanges nothing
    CHECK_THROWS_WITH_AS(pipeline_bubble_fraction(0, 4), "pipeline.stages = 0: must be >= 1", InvalidInput);
    CHECK_THROWS_WITH_AS(allreduce_seconds(1, 2, 0), "allreduce.gb_per_second = 0: must be finite and > 0",
                         InvalidInput);
}

TEST_CASE("pipeline stages split the states p ways; the first stage's activations stay L layers' worth") {
    const LlmTraining t = small_model_training();
    const TrainingMemory one = training_memory(t, {1, 4, Sharding::none, 1});
    const TrainingMemory two = training_memory(t, {1, 4, Sharding::none, 2});
    // 16 B × 1e9 on one stage, half on each of two
    CHECK(one.weights + one.gradients + one.optimizer == doctest::Approx(16e9));
    CHECK(two.weights + two.gradients + two.optimizer == doctest::Approx(8e9));
    CHECK(two.activations == one.activations);  // 10 × 2 × 1e5 + 34 × 1e5 = 5.4e6
    CHECK(two.activations == doctest::Approx(5.4e6));
    CHECK(TrainingLayout{2, 3, Sharding::zero1, 4}.gpus() == 24);
    CHECK_THROWS_WITH_AS(training_memory(t, {1, 1, Sharding::none, 11}),
                         "layout.pipeline_parallel = 11: must be in [1, layers]", InvalidInput);
}

TEST_CASE("one step by hand: compute over the GPUs, the bubble, the gradient all-reduce not overlapped") {
    const LlmTraining t = small_model_training();
    // 8 sequences × 100 tokens × 6.012e9 FLOPs / (8 GPUs × 1e14 FLOP/s) = 6.012e-3 s; d = 4 replicas of
    // b = 1 → m = 2 micro-batches, p = 2: bubble 1/3; gradients 2 B × 1e9 / (t p = 2) = 1e9 B over 4
    // replicas at 50 GB/s: 2 × 3/4 × 1e9 / 5e10 = 0.03 s.
    const StepTime s = training_step(t, {1, 4, Sharding::none, 2}, 1e14, 50);
    CHECK(s.compute_seconds == doctest::Approx(6.012e-3).epsilon(1e-12));
    CHECK(s.bubble_fraction == doctest::Approx(1.0 / 3).epsilon(1e-15));
    CHECK(s.allreduce_seconds == doctest::Approx(0.03).epsilon(1e-12));
    CHECK(s.seconds() == doctest::Approx(6.012e-3 * 1.5 + 0.03).epsilon(1e-12));
    // ZeRO-3 moves 1.5 × the all-reduce: 3/4 × (1e9 + 2 × 1e9) / 5e10 = 0.045 s
    CHECK(training_step(t, {1, 4, Sharding::zero3, 2}, 1e14, 50).allreduce_seconds ==
          doctest::Approx(0.045).epsilon(1e-12));
    // LoRA at 1%: gradients 2 × 1e7 / 2 = 1e7 B, weights (2e7 + 2e9) / 2 = 1.01e9 B gathered twice:
    // 3/4 × (1e7 + 2.02e9) / 5e10 = 0.03045 s; without ZeRO-3 only the adapters' gradients move:
    // 2 × 3/4 × 1e7 / 5e10 = 3e-4 s.
    LlmTraining lora = t;
    lora.method = TrainingMethod::lora;
    lora.trainable_fraction = 0.01;
    CHECK(training_step(lora, {1, 4, Sharding::zero3, 2}, 1e14, 50).allreduce_seconds ==
          doctest::Approx(0.03045).epsilon(1e-12));
    CHECK(training_step(lora, {1, 4, Sharding::zero2, 2}, 1e14, 50).allreduce_seconds ==
          doctest::Approx(3e-4).epsilon(1e-12));
}

TEST_CASE("links of offerings: listed fabrics with their sources, the assumption otherwise") {
    const GpuLinks p5 = links_of(offering("aws", "p5.48xlarge", "H100", 8));
    CHECK(p5.nvlink_gb_per_second == 450);
    CHECK(p5.network_gb_per_second == 50);  // 3,200 Gbit/s / 8 bits / 8 GPUs
    CHECK(p5.network_listed);
    CHECK(p5.basis ==
          "NVLink 450 GB/s per GPU: NVLink 4, 900 GB/s bidirectional (NVIDIA H100 datasheet, 2023); network 50 GB/s "
          "per GPU: EFA 3,200 Gbit/s per instance (AWS EC2 P5 instances page, 2023-07)");
    const GpuLinks p4d = links_of(offering("aws", "p4d.24xlarge", "A100-40GB", 8));
    CHECK(p4d.network_gb_per_second == 6.25);
    const GpuLinks single = links_of(offering("somecloud", "1x-h100", "H100", 1));
    CHECK_FALSE(single.network_listed);
    CHECK(single.network_gb_per_second == 12.5);
    CHECK(single.basis.ends_with("network 12.5 GB/s per GPU: no cluster network listed, 100 Gbit/s Ethernet per "
                                 "instance assumed"));
}

TEST_CASE("scaling factor: 1 within an instance and on the reference fabric, the step ratio on a slower one") {
    LlmTraining t = small_model_training();
    t.global_batch_sequences = 64;
    const double flops = 1e14;
    const GpuLinks p5 = links_of(offering("aws", "p5.48xlarge", "H100", 8));
    const GpuLinks slow = links_of(offering("somecloud", "8x-h100", "H100", 8));  // 100 Gbit/s / 8 = 1.5625 GB/s
    const TrainingLayout in_one{1, 8, Sharding::none};
    const TrainingLayout two_nodes{1, 16, Sharding::none};
    CHECK(scaling_factor(t, in_one, 8, flops, slow) == 1.0);
    CHECK(scaling_factor(t, two_nodes, 8, flops, p5) == 1.0);
    // by hand: compute 64 × 100 × 6.012e9 / (16 × 1e14) = 0.02405 s; all-reduce of 2e9 B over 16 replicas:
    // 2 × 15/16 × 2e9 = 3.75e9 B, at 1.5625 GB/s 2.4 s, at 50 GB/s 0.075 s
    const double compute = 64 * 100 * 6.012e9 / (16 * 1e14);
    const double expected = (compute / (compute + 3.75e9 / 1.5625e9)) / (compute / (compute + 3.75e9 / 50e9));
    CHECK(scaling_factor(t, two_nodes, 8, flops, slow) == doctest::Approx(expected).epsilon(1e-12));
    CHECK(expected < 0.05);
}

TEST_CASE("the step model is monotone: more bandwidth never slows a step, more micro-batches shrink the bubble") {
    std::mt19937_64 rng(30);
    std::uniform_int_distribution<int> pick(1, 64);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int n = 0; n < 500; ++n) {
        LlmTraining t = small_model_training();
        t.global_batch_sequences = pick(rng) * 8;
        const TrainingLayout layout{1 + pick(rng) % 2, pick(rng), Sharding::zero1, 1 + pick(rng) % 10};
        const double bw = 1 + 100 * unit(rng);
        const StepTime a = training_step(t, layout, 1e14, bw), b = training_step(t, layout, 1e14, 2 * bw);
        CAPTURE(n);
        CHECK(b.seconds() <= a.seconds());
        CHECK(a.efficiency() > 0);
        CHECK(a.efficiency() <= 1);
        const int p = 1 + pick(rng) % 16, m = pick(rng);
        CHECK(pipeline_bubble_fraction(p, m + 1) <= pipeline_bubble_fraction(p, m));
    }
}

TEST_CASE("beside a published scaling table: Llama 3 405B from 8,192 to 16,384 H100s") {
    // Meta, The Llama 3 Herd of Models (arXiv 2407.21783), Table 4, 2024-07: TP 8, PP 16, sequence 8,192,
    // 16M tokens per batch (2,048 sequences); DP 64 → 430 TFLOP/s per GPU, DP 128 → 400: the larger
    // run keeps 400 / 430 = 93.0% of the smaller's speed per GPU.
    LlmTraining t;
    t.model = {.name = "Llama 3 405B", .parameters = 405e9, .layers = 126, .hidden_size = 16384,
               .attention_heads = 128, .kv_heads = 8};
    t.tokens = 15.6e12;
    t.sequence_length = 8192;
    t.global_batch_sequences = 2048;
    const double achieved = 430e12;  // the smaller run's measured FLOP/s per GPU
    const StepTime small = training_step(t, {8, 64, Sharding::zero1, 16}, achieved, reference_network_gb_per_second);
    const StepTime large = training_step(t, {8, 128, Sharding::zero1, 16}, achieved, reference_network_gb_per_second);
    const double measured = 400.0 / 430.0;
    const double modelled = large.efficiency() / small.efficiency();
    // m = 2,048 / 64 = 32 and 16 micro-batches: plain 1F1B bubbles 15/47 and 15/31
    CHECK(small.bubble_fraction == doctest::Approx(15.0 / 47).epsilon(1e-15));
    CHECK(large.bubble_fraction == doctest::Approx(15.0 / 31).epsilon(1e-15));
    // The model keeps 0.76 of the speed where Meta measured 0.93: its bubble is the plain 1F1B one, and
    // Llama 3 ran an interleaved schedule (several stages per GPU, a bubble a few times smaller) with the
    // gradient exchange overlapped. docs/models.md states the gap; this pins it.
    CHECK(modelled == doctest::Approx(0.757).epsilon(0.005));
    CHECK(measured - modelled == doctest::Approx(0.173).epsilon(0.01));
    // The all-reduce alone (not overlapped) costs under 5% at either size on 400 Gbit/s per GPU.
    CHECK(small.allreduce_seconds / small.seconds() < 0.05);
    CHECK(large.allreduce_seconds / large.seconds() < 0.05);
}
