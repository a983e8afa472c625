// Closed forms for a checkpointed job under Poisson interruptions (Daly 2006) and the Job itself.
#include "register.hpp"

#include <fmt/format.h>
#include <gputco/engines/checkpoint.hpp>

namespace gputco::python {

void register_checkpoint(py::module_& m) {
    py::class_<Job>(m, "Job", "Work done in checkpointed segments on interruptible capacity.")
        .def(py::init([](double work_hours, double checkpoint_interval_hours, double checkpoint_write_hours,
                         double restart_hours, double capacity_wait_hours, double deadline_hours) {
                 Job job{work_hours,    checkpoint_interval_hours, checkpoint_write_hours,
                         restart_hours, capacity_wait_hours,       deadline_hours};
                 job.validate();
                 return job;
             }),
             py::kw_only(), py::arg("work_hours"), py::arg("checkpoint_interval_hours"),
             py::arg("checkpoint_write_hours") = 0.0, py::arg("restart_hours") = 0.0,
             py::arg("capacity_wait_hours") = 0.0,
             py::arg("deadline_hours") = std::numeric_limits<double>::infinity())
        .def_readonly("work_hours", &Job::work_hours)
        .def_readonly("checkpoint_interval_hours", &Job::checkpoint_interval_hours)
        .def_readonly("checkpoint_write_hours", &Job::checkpoint_write_hours)
        .def_readonly("restart_hours", &Job::restart_hours)
        .def_readonly("capacity_wait_hours", &Job::capacity_wait_hours)
        .def_readonly("deadline_hours", &Job::deadline_hours)
        .def("__repr__", [](const Job& j) {
            return fmt::format("Job(work_hours={}, checkpoint_interval_hours={}, checkpoint_write_hours={}, "
                               "restart_hours={}, capacity_wait_hours={}, deadline_hours={})",
                               j.work_hours, j.checkpoint_interval_hours, j.checkpoint_write_hours,
                               j.restart_hours, j.capacity_wait_hours, j.deadline_hours);
        });

    py::class_<ExpectedSpotTime>(m, "ExpectedSpotTime", "Expected totals for one job (closed form).")
        .def_readonly("billed_hours", &ExpectedSpotTime::billed_hours)
        .def_readonly("wall_hours", &ExpectedSpotTime::wall_hours)
        .def_readonly("interruptions", &ExpectedSpotTime::interruptions)
        .def("_asdict",
             [](const ExpectedSpotTime& t) {
                 py::dict d;
                 d["billed_hours"] = t.billed_hours;
                 d["wall_hours"] = t.wall_hours;
                 d["interruptions"] = t.interruptions;
                 return d;
             })
        .def("__repr__", [](const ExpectedSpotTime& t) {
            return fmt::format("ExpectedSpotTime(billed_hours={}, wall_hours={}, interruptions={})",
                               t.billed_hours, t.wall_hours, t.interruptions);
        });

    m.def(
        "optimal_checkpoint_interval",
        [](double checkpoint_write_hours, double mtbf_hours, std::string_view method) {
            return optimal_checkpoint_interval(checkpoint_write_hours, mtbf_hours, parse<CheckpointMethod>(method, "method"));
        },
        py::arg("checkpoint_write_hours"), py::arg("mtbf_hours"), py::arg("method") = "exact",
        "Hours of work between checkpoints minimising expected run time under Poisson interruptions; "
        "method is 'young', 'daly' or 'exact' (Lambert W).");

    m.def(
        "expected_spot_time",
        [](double work_hours, double checkpoint_interval_hours, double checkpoint_write_hours,
           double restart_hours, double mtbf_hours, double capacity_wait_hours) {
            Job job;
            job.work_hours = work_hours;
            job.checkpoint_interval_hours = checkpoint_interval_hours;
            job.checkpoint_write_hours = checkpoint_write_hours;
            job.restart_hours = restart_hours;
            job.capacity_wait_hours = capacity_wait_hours;
            return expected_spot_time(job, mtbf_hours);
        },
        py::arg("work_hours"), py::arg("checkpoint_interval_hours"), py::arg("checkpoint_write_hours"),
        py::arg("restart_hours"), py::arg("mtbf_hours"), py::arg("capacity_wait_hours") = 0.0,
        "Expected billed hours, wall hours and interruptions (Daly's complete model, summed over segments).");

    m.def("segment_count", &segment_count, py::arg("work_hours"), py::arg("interval_hours"));
}

}  // namespace gputco::python
