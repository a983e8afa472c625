// LLM training and serving: models, jobs, FLOPs, memory, layouts and the two rankings. Enums cross as
// strings ("bf16", "lora", "zero3"); rankings cross as lists of dicts in the library's columns
// (app/columns.hpp), made DataFrames in gputco/_work.py.
#include "register.hpp"
#include "register_columns.hpp"

#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include <gputco/engines/llm_cost.hpp>
#include <gputco/work/llm_scaling.hpp>

namespace gputco::python {

namespace {

py::dict layout_dict(const TrainingLayout& l) {
    return py::dict(py::arg("tensor_parallel") = l.tensor_parallel, py::arg("data_parallel") = l.data_parallel,
                    py::arg("sharding") = std::string(to_string(l.sharding)), py::arg("gpus") = l.gpus());
}

py::list skipped_list(const std::vector<SkippedOffering>& skipped) {
    py::list out;
    for (const auto& s : skipped) out.append(py::make_tuple(s.offering, s.reason));
    return out;
}

LlmRankOptions rank_options(const std::string& currency, bool on_demand, bool spot, bool reserved,
                            bool capacity_block, bool every_region, const std::vector<std::string>& gpus, int min_gpus, int max_gpus,
                            double mfu, double decode_bandwidth_efficiency, double usable_memory_fraction,
                            double mtbf_hours, double restart_hours, double storage_gb_per_second_per_instance,
                            std::size_t paths,
                            std::uint64_t seed, const std::string& mfu_csv, const std::string& peaks_csv,
                            const std::vector<MfuRow>& mfu_rows) {
    LlmRankOptions o;
    // The row objects first, then the CSV's rows, then the built-in ones: the first match is used.
    o.gpu.mfu = mfu_rows;
    if (!mfu_csv.empty())
        for (MfuRow& row : mfu_rows_from_csv(mfu_csv)) o.gpu.mfu.push_back(std::move(row));
    if (!peaks_csv.empty()) o.gpu.peaks = peak_rows_from_csv(peaks_csv);
    o.currency = currency;
    o.on_demand = on_demand;
    o.spot = spot;
    o.reserved = reserved;
    o.capacity_block = capacity_block;
    o.every_region = every_region;
    o.gpus = gpus;
    o.min_gpus = min_gpus;
    o.max_gpus = max_gpus;
    o.gpu.mfu_override = mfu;
    o.gpu.decode_bandwidth_efficiency = decode_bandwidth_efficiency;
    o.gpu.usable_memory_fraction = usable_memory_fraction;
    o.spot_assumptions.mtbf_hours = mtbf_hours;
    o.spot_assumptions.restart_hours = restart_hours;
    o.spot_assumptions.simulation.paths = paths;
    o.spot_assumptions.simulation.seed = seed;
    o.storage_gb_per_second_per_instance = storage_gb_per_second_per_instance;
    return o;
}

}  // namespace

void register_llm(py::module_& m) {
    py::class_<MfuRow>(m, "MfuRow",
                       "An achieved training MFU on one GPU and precision, with its kind and source: the user's rows "
                       "go before the built-in ones (llm_training_cost(..., mfu_rows=[...])).")
        .def(py::init([](const std::string& gpu, double mfu, const std::string& precision, const std::string& kind,
                         const Source& source, const std::string& basis) {
                 MfuRow row{gpu, parse<LlmPrecision>(precision, "mfu_row.precision"), mfu,
                            parse<MatchKind>(kind, "mfu_row.kind"), basis, source};
                 // The library's rules for a row (LlmGpuOptions::validate), named for this one row.
                 LlmGpuOptions check;
                 check.mfu = {row};
                 try {
                     check.validate();
                 } catch (const InvalidInput& e) {
                     const std::string_view what = e.what(), prefix = "options.gpu.mfu[0].";
                     if (!what.starts_with(prefix)) throw;
                     throw InvalidInput("mfu_row." + std::string(what.substr(prefix.size())));
                 }
                 return row;
             }),
             py::kw_only(), py::arg("gpu"), py::arg("mfu"), py::arg("precision") = "bf16", py::arg("kind") = "estimate",
             py::arg("source"), py::arg("basis") = "")
        .def_readonly("gpu", &MfuRow::gpu)
        .def_readonly("mfu", &MfuRow::mfu)
        .def_property_readonly("precision", [](const MfuRow& r) { return std::string(to_string(r.precision)); })
        .def_property_readonly("kind", [](const MfuRow& r) { return std::string(to_text(r.kind)); })
        .def_readonly("basis", &MfuRow::basis)
        .def_readonly("source", &MfuRow::source)
        .def("__repr__", [](const MfuRow& r) {
            return fmt::format("MfuRow(gpu='{}', mfu={:g}, precision='{}', kind='{}', source='{}')", r.gpu, r.mfu,
                               to_string(r.precision), to_text(r.kind), r.source.name);
        });
    m.def("builtin_training_mfu", &builtin_training_mfu,
          "The built-in MFU rows (MfuRow), each with its kind and source: copy one and change it to override.");

    py::class_<LlmModel>(m, "LlmModel", "A decoder-only transformer: parameters (total and active) and its shape.")
        .def(py::init([](double parameters, double active_parameters, int layers, int hidden_size, int attention_heads,
                         int kv_heads, const std::string& name) {
                 LlmModel model{name, parameters, active_parameters, layers, hidden_size, attention_heads, kv_heads};
                 model.validate();
                 return model;
             }),
             py::kw_only(), py::arg("parameters"), py::arg("active_parameters") = 0.0, py::arg("layers") = 0,
             py::arg("hidden_size") = 0, py::arg("attention_heads") = 0, py::arg("kv_heads") = 0, py::arg("name") = "")
        .def_readonly("name", &LlmModel::name)
        .def_readonly("parameters", &LlmModel::parameters)
        .def_property_readonly("active_parameters", &LlmModel::active)
        .def_readonly("layers", &LlmModel::layers)
        .def_readonly("hidden_size", &LlmModel::hidden_size)
        .def_readonly("attention_heads", &LlmModel::attention_heads)
        .def_property_readonly("kv_heads", &LlmModel::kv_head_count)
        .def("__repr__", [](const LlmModel& mo) {
            return fmt::format("LlmModel(name='{}', parameters={:g}, active_parameters={:g}, layers={})", mo.name,
                               mo.parameters, mo.active(), mo.layers);
        });

    py::class_<LlmTraining>(m, "LlmTraining", "Pre-training or fine-tuning (full, lora, qlora) of a model on tokens.")
        .def(py::init([](const LlmModel& model, double tokens, int sequence_length, const std::string& precision,
                         const std::string& method, double trainable_fraction, bool activation_checkpointing,
                         int micro_batch_sequences, int global_batch_sequences, const std::string& name) {
                 LlmTraining t{name,
                               model,
                               tokens,
                               sequence_length,
                               parse<LlmPrecision>(precision, "training.precision"),
                               parse<TrainingMethod>(method, "training.method"),
                               trainable_fraction,
                               activation_checkpointing,
                               micro_batch_sequences,
                               global_batch_sequences};
                 t.validate();
                 return t;
             }),
             py::kw_only(), py::arg("model"), py::arg("tokens"), py::arg("sequence_length") = 4096,
             py::arg("precision") = "bf16", py::arg("method") = "full", py::arg("trainable_fraction") = 0.005,
             py::arg("activation_checkpointing") = true, py::arg("micro_batch_sequences") = 1,
             py::arg("global_batch_sequences") = 256, py::arg("name") = "")
        .def_readonly("name", &LlmTraining::name)
        .def_readonly("model", &LlmTraining::model)
        .def_readonly("tokens", &LlmTraining::tokens)
        .def_readonly("sequence_length", &LlmTraining::sequence_length)
        .def_property_readonly("precision", [](const LlmTraining& t) { return std::string(to_string(t.precision)); })
        .def_property_readonly("method", [](const LlmTraining& t) { return std::string(to_string(t.method)); })
        .def_readonly("trainable_fraction", &LlmTraining::trainable_fraction)
        .def_readonly("activation_checkpointing", &LlmTraining::activation_checkpointing)
        .def_readonly("global_batch_sequences", &LlmTraining::global_batch_sequences)
        .def("trainable_parameters", &LlmTraining::trainable_parameters);

    py::class_<LlmServing>(m, "LlmServing", "An inference service: a model at a request rate under latency targets.")
        .def(py::init([](const LlmModel& model, double input_tokens, double output_tokens, double requests_per_second,
                         const std::string& precision, double kv_bytes_per_value, double max_seconds_per_output_token,
                         double max_seconds_to_first_token, int max_batch, const std::string& name) {
                 LlmServing s{name,
                              model,
                              parse<LlmPrecision>(precision, "serving.precision"),
                              kv_bytes_per_value,
                              input_tokens,
                              output_tokens,
                              requests_per_second,
                              max_seconds_per_output_token,
                              max_seconds_to_first_token,
                              max_batch};
                 s.validate();
                 return s;
             }),
             py::kw_only(), py::arg("model"), py::arg("input_tokens") = 1000.0, py::arg("output_tokens") = 200.0,
             py::arg("requests_per_second") = 1.0, py::arg("precision") = "bf16", py::arg("kv_bytes_per_value") = 2.0,
             py::arg("max_seconds_per_output_token") = 0.05, py::arg("max_seconds_to_first_token") = 2.0,
             py::arg("max_batch") = 256, py::arg("name") = "")
        .def_readonly("name", &LlmServing::name)
        .def_readonly("model", &LlmServing::model)
        .def_readonly("input_tokens", &LlmServing::input_tokens)
        .def_readonly("output_tokens", &LlmServing::output_tokens)
        .def_readonly("requests_per_second", &LlmServing::requests_per_second);

    m.def("training_flops", &training_flops, py::arg("training"),
          "Model FLOPs of the run: (6 N_active + 12 L h s) D, adapters (4 N_active + 6 P + 12 L h s) D.");
    m.def("training_flops_per_token", &training_flops_per_token, py::arg("training"));
    m.def(
        "llm_training_memory",
        [](const LlmTraining& t, int tensor_parallel, int data_parallel, const std::string& sharding,
           int pipeline_parallel) {
            const TrainingMemory mem = training_memory(
                t, {tensor_parallel, data_parallel, parse<Sharding>(sharding, "layout.sharding"), pipeline_parallel});
            return py::dict(py::arg("weights") = mem.weights, py::arg("gradients") = mem.gradients,
                            py::arg("optimizer") = mem.optimizer, py::arg("activations") = mem.activations,
                            py::arg("total") = mem.total());
        },
        py::arg("training"), py::kw_only(), py::arg("tensor_parallel") = 1, py::arg("data_parallel") = 1,
        py::arg("sharding") = "none", py::arg("pipeline_parallel") = 1,
        "Bytes per GPU: dict(weights, gradients, optimizer, activations, total).");
    m.def("pipeline_bubble_fraction", &pipeline_bubble_fraction, py::arg("stages"), py::arg("micro_batches"),
          "Idle share of a pipeline's step: (p - 1) / (m + p - 1).");
    m.def("allreduce_seconds", &allreduce_seconds, py::arg("bytes"), py::arg("replicas"), py::arg("gb_per_second"),
          "Ring all-reduce time: 2 (n - 1) / n x bytes / (GB/s x 1e9)."); 
    m.def(
        "smallest_training_layout",
        [](const LlmTraining& t, int gpus_per_node, double memory_gb, double usable_fraction, int min_gpus,
           int max_gpus) -> std::optional<py::dict> {
            const auto layout = smallest_training_layout(t, gpus_per_node, memory_gb, usable_fraction, min_gpus, max_gpus);
            if (!layout) return std::nullopt;
            return layout_dict(*layout);
        },
        py::arg("training"), py::kw_only(), py::arg("gpus_per_node"), py::arg("memory_gb"),
        py::arg("usable_fraction") = 0.9, py::arg("min_gpus") = 0, py::arg("max_gpus") = 65'536,
        "dict(tensor_parallel, data_parallel, sharding, gpus) of the smallest fitting layout, or None.");
    m.def("kv_cache_bytes_per_token", &kv_cache_bytes_per_token, py::arg("model"), py::arg("bytes_per_value") = 2.0);

    // The keyword options of llm_training_cost and llm_serving_cost, read once into the library's struct
    // that both rankings take.
    py::class_<LlmRankOptions>(m, "_LlmRankOptions")
        .def(py::init(&rank_options), py::kw_only(), py::arg("currency") = "USD", py::arg("on_demand") = true,
             py::arg("spot") = true, py::arg("reserved") = true, py::arg("capacity_block") = true,
             py::arg("every_region") = false, py::arg("gpus") = std::vector<std::string>{}, py::arg("min_gpus") = 0, py::arg("max_gpus") = 65'536,
             py::arg("mfu") = 0.0, py::arg("decode_bandwidth_efficiency") = 0.7, py::arg("usable_memory_fraction") = 0.9,
             py::arg("mtbf_hours") = 20.0, py::arg("restart_hours") = 10.0 / 60,
             py::arg("storage_gb_per_second_per_instance") = 2.0, py::arg("paths") = std::size_t(4'000),
             py::arg("seed") = std::uint64_t(42), py::arg("mfu_csv") = "", py::arg("peaks_csv") = "",
             py::arg("mfu_rows") = std::vector<MfuRow>{});

    m.def(
        "_rank_llm_training",
        [](const LlmTraining& t, const Catalog& catalog, const LlmRankOptions& o) {
            const LlmTrainingRanking r = without_gil_until_ctrl_c([&] { return rank_llm_training(t, catalog, o); });
            const py::list rows = rows_of(llm_training_columns(), r.rows);
            return py::dict(py::arg("rows") = rows, py::arg("skipped") = skipped_list(r.skipped),
                            py::arg("flops") = r.flops, py::arg("flops_per_token") = r.flops_per_token,
                            py::arg("currency") = r.currency);
        },
        py::arg("training"), py::arg("catalog"), py::arg("options"));

    m.def(
        "_rank_llm_serving",
        [](const LlmServing& s, const Catalog& catalog, const LlmRankOptions& o) {
            const LlmServingRanking r = without_gil_until_ctrl_c([&] { return rank_llm_serving(s, catalog, o); });
            const py::list rows = rows_of(llm_serving_columns(), r.rows);
            return py::dict(py::arg("rows") = rows, py::arg("skipped") = skipped_list(r.skipped),
                            py::arg("currency") = r.currency);
        },
        py::arg("serving"), py::arg("catalog"), py::arg("options"));
}

}  // namespace gputco::python
