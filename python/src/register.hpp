#pragma once
// One function per concern, each defined in its own register_<concern>.cpp.
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <pybind11/pybind11.h>

#include <gputco/core/cancel.hpp>
#include <gputco/core/error.hpp>

#include <gputco/engines/cost.hpp>

namespace gputco::python {

namespace py = pybind11;

/// The options of evaluate() from the keyword arguments every cost entry point takes.
inline EvaluationOptions evaluation_options(const std::optional<Discounts>& discounts, double annual_discount_rate) {
    EvaluationOptions options;
    if (discounts) options.discounts = *discounts;
    options.annual_discount_rate = annual_discount_rate;
    return options;
}

/// The `units` keyword of the cost entry points: "instances" (whole instances) or "gpus".
inline Units parse_units(std::string_view text) { return parse<Units>(text, "units"); }

/// `value` as a T, or TypeError("<field> = <repr>: must be <expected>, not <type>") — the library's
/// own form, naming the field — instead of pybind11's "Unable to cast Python instance ..." RuntimeError.
template <class T>
T cast_argument(const py::handle& value, std::string_view field, std::string_view expected) {
    try {
        return value.cast<T>();
    } catch (const py::cast_error&) {
        throw py::type_error(fmt::format("{} = {}: must be {}, not {}", field,
                                         printable_utf8(py::repr(value).cast<std::string>(), 60), expected,
                                         Py_TYPE(value.ptr())->tp_name));
    }
}

/// For a C++ call running without the GIL: takes it for a moment and says whether Ctrl-C (or any
/// signal handler's error) is pending; that error then stays set for the caller to raise.
inline bool ctrl_c_pressed() {
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0 || PyErr_Occurred() != nullptr;  // or one a progress report left
}

/// A Python (done, total) callable (or None) as the library's ProgressReport, for the progress bars of
/// gputco/_progress.py. It runs without the GIL, so it takes it; it holds the callable by its pointer
/// (the caller keeps it alive for the call), since copying a py::object needs the GIL. An error in the
/// callable is reported as unraisable, not let loose inside the engine, except a KeyboardInterrupt,
/// which stays pending for ctrl_c_pressed() to see.
inline ProgressReport progress_of(const py::object& report) {
    if (report.is_none()) return {};
    return [fn = report.ptr()](std::size_t done, std::size_t total) {
        py::gil_scoped_acquire gil;
        // A Ctrl-C already pending (seen by ctrl_c_pressed, not yet acted on): no Python call may run
        // with an error set, and the call is about to stop anyway.
        if (PyErr_Occurred() != nullptr) return;
        try {
            const py::handle callable(fn);
            callable(done, total);
        } catch (py::error_already_set& e) {
            // Ctrl-C while the bar drew: left pending, so the engine's next ctrl_c_pressed() stops it
            if (e.matches(PyExc_KeyboardInterrupt)) e.restore();
            else e.discard_as_unraisable("gputco progress report");
        }
    };
}

/// Runs `call` without the GIL (other Python threads run meanwhile; `call` polls ctrl_c_pressed);
/// a Cancelled becomes the pending Python error (KeyboardInterrupt) itself.
template <class Call>
auto without_gil_until_ctrl_c(Call&& call) {
    std::optional<decltype(call())> result;
    bool cancelled = false;
    {
        py::gil_scoped_release release;
        try {
            result.emplace(call());
        } catch (const Cancelled&) {
            cancelled = true;
        }
    }
    if (cancelled) {
        if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    }
    return std::move(*result);
}

void register_errors(py::module_& m);
void register_files(py::module_& m);
void register_catalog(py::module_& m);
void register_currency(py::module_& m);
void register_import(py::module_& m);
void register_checkpoint(py::module_& m);
void register_interruption(py::module_& m);
void register_spot(py::module_& m);
void register_deadline(py::module_& m);
void register_demand(py::module_& m);
void register_strategy(py::module_& m);
void register_cost(py::module_& m);
void register_optimise(py::module_& m);
void register_work(py::module_& m);
void register_llm(py::module_& m);
void register_plan(py::module_& m);
void register_recommend(py::module_& m);
void register_price_dynamics(py::module_& m);
void register_scenario(py::module_& m);
void register_bills(py::module_& m);
void register_study(py::module_& m);
void register_report(py::module_& m);
void register_serving(py::module_& m);

/// A keyword that was renamed: `value`, or the value given under `old_name`, the old spelling (still
/// accepted, with a DeprecationWarning); both given is an InvalidInput (ValueError) naming both.
inline std::optional<double> renamed_keyword(std::optional<double> value, std::optional<double> old_value,
                                             std::string_view name, std::string_view old_name) {
    if (!old_value) return value;
    if (value)
        throw InvalidInput(fmt::format("{} = {}: the old spelling of {}, which is given too: give one of them",
                                       old_name, *old_value, name));
    const std::string warning = fmt::format("{} is the old spelling of {}", old_name, name);
    if (PyErr_WarnEx(PyExc_DeprecationWarning, warning.c_str(), 1) < 0) throw py::error_already_set();
    return old_value;
}

/// Reading an attribute under its old spelling: a DeprecationWarning, then the value.
inline void warn_renamed_attribute(std::string_view old_name, std::string_view name) {
    const std::string warning = fmt::format("{} is the old spelling of {}", old_name, name);
    if (PyErr_WarnEx(PyExc_DeprecationWarning, warning.c_str(), 1) < 0) throw py::error_already_set();
}

}  // namespace gputco::python
