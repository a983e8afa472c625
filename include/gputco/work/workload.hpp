#pragma once
// A training job described by its work rather than its hours: so many units (images, sequences,
// tokens) per epoch of a model in the throughput table, so many epochs, a precision, and what memory
// each GPU needs. Hours follow from a GPU's measured throughput (work_cost.hpp).
//
//   Workload resnet{.name = "ResNet-50 on ImageNet", .model = "resnet50",
//                   .work_per_epoch = 1'281'167, .epochs = 90, .precision = Precision::mixed};
#include <string>

#include "gputco/core/error.hpp"
#include "gputco/work/throughput.hpp"

namespace gputco {

struct Workload {
    std::string name;             ///< label for reports
    std::string model;            ///< a model column of the throughput table (built-in or the user's)
    double work_per_epoch = 0;    ///< units of the model per epoch (model_unit(model)), > 0
    double epochs = 1;            ///< > 0 (fractions allowed: a part of an epoch)
    Precision precision = Precision::mixed;
    /// Memory each GPU needs, GB (data parallel: every GPU holds the whole model); 0 = no constraint.
    /// GPUs with less memory are ruled out. See training_memory_gb().
    double memory_gb = 0;
    /// Share of the benchmark's throughput this job reaches (data loading, smaller batches), in (0, 1].
    double utilisation = 1.0;

    double total_work() const { return work_per_epoch * epochs; }

    /// Throws InvalidInput naming the first field that breaks its rule, e.g.
    /// "workload.epochs = 0: must be finite and > 0".
    void validate() const {
        require(!model.empty(), "workload.model", model, "must name a model of the throughput table");
        require_positive("workload.work_per_epoch", work_per_epoch);
        require_positive("workload.epochs", epochs);
        require_non_negative("workload.memory_gb", memory_gb);
        require(utilisation > 0.0 && utilisation <= 1.0, "workload.utilisation", utilisation,
                "must be in (0, 1]");
    }
};

/// Memory of training one replica: parameters × bytes_per_parameter / 1e9 + activations_gb.
/// bytes_per_parameter 16 = mixed-precision Adam (2 B FP16 weights + 2 B gradients + 4 B FP32 master
/// weights + 8 B Adam moments); 4 + 4 + 8 = 16 for FP32 Adam too; 8 for SGD with momentum in FP32.
inline double training_memory_gb(double parameters, double bytes_per_parameter = 16, double activations_gb = 0) {
    require_positive("parameters", parameters);
    require_positive("bytes_per_parameter", bytes_per_parameter);
    require_non_negative("activations_gb", activations_gb);
    return parameters * bytes_per_parameter / 1e9 + activations_gb;
}

}  // namespace gputco
