#include <doctest/doctest.h>

#include "gputco/work/workload.hpp"

using namespace gputco;

TEST_CASE("workload validation names the field") {
    Workload w{.name = "w", .model = "resnet50", .work_per_epoch = 1000, .epochs = 2};
    CHECK_NOTHROW(w.validate());
    CHECK(w.total_work() == 2000);
    w.epochs = 0;
    CHECK_THROWS_WITH_AS(w.validate(), "workload.epochs = 0: must be finite and > 0", InvalidInput);
    w.epochs = 1;
    w.utilisation = 1.2;
    CHECK_THROWS_WITH_AS(w.validate(), "workload.utilisation = 1.2: must be in (0, 1]", InvalidInput);
    w.utilisation = 1;
    w.memory_gb = -1;
    CHECK_THROWS_WITH_AS(w.validate(), "workload.memory_gb = -1: must be finite and >= 0", InvalidInput);
    w.memory_gb = 0;
    w.work_per_epoch = -3;
    CHECK_THROWS_WITH_AS(w.validate(), "workload.work_per_epoch = -3: must be finite and > 0", InvalidInput);
    w.work_per_epoch = 1;
    w.model = "";
    CHECK_THROWS_WITH_AS(w.validate(), "workload.model = \"\": must name a model of the throughput table",
                         InvalidInput);
}

TEST_CASE("training memory: parameters x bytes per parameter + activations") {
    // BERT-large: 340e6 x 16 B = 5.44 GB, + 6 GB of activations.
    CHECK(training_memory_gb(340e6, 16, 6) == doctest::Approx(11.44));
    CHECK(training_memory_gb(7e9) == doctest::Approx(112));  // 7 B parameters with Adam: 112 GB
    CHECK_THROWS_WITH_AS(training_memory_gb(0), "parameters = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(training_memory_gb(1e6, 16, -1), "activations_gb = -1: must be finite and >= 0",
                         InvalidInput);
}
