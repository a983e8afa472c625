// Errors: gputco::InvalidInput is Python's ValueError with exactly the same message; a cancelled
// run (gputco::Cancelled) is KeyboardInterrupt, the only way a Python caller cancels one.
#include "register.hpp"

#include <gputco/core/error.hpp>
#include <gputco/core/cancel.hpp>

namespace gputco::python {

namespace {

/// Sets a Python exception whose text is always a valid str: bytes that are not UTF-8 (from bytes
/// arguments, files) become U+FFFD instead of raising UnicodeDecodeError in place of the real error.
void set_error(PyObject* type, const char* message) {
    const std::string_view text(message);
    PyObject* str = PyUnicode_DecodeUTF8(text.data(), Py_ssize_t(text.size()), "replace");
    if (!str) {  // only if memory is exhausted
        PyErr_Clear();
        PyErr_SetString(type, "(message not shown)");
        return;
    }
    PyErr_SetObject(type, str);
    Py_DECREF(str);
}

}  // namespace

// The one boundary where C++ exceptions become Python ones (the library translates its dependencies'
// exceptions where they enter it, so only these reach here):
//   InvalidInput -> ValueError; Cancelled -> KeyboardInterrupt; a failed conversion of an argument
//   (pybind11 cast_error) -> TypeError; std::bad_alloc -> MemoryError (pybind11's own mapping, which
//   with the documented limits only a machine out of memory can reach).
void register_errors(py::module_& m) {
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error) std::rethrow_exception(error);
        } catch (const InvalidInput& e) {
            set_error(PyExc_ValueError, e.what());
        } catch (const Cancelled& e) {
            // The check that asked to stop has already set the Python error (KeyboardInterrupt, or
            // what a signal handler raised); keep it.
            if (!PyErr_Occurred()) set_error(PyExc_KeyboardInterrupt, e.what());
        } catch (const py::cast_error& e) {
            set_error(PyExc_TypeError, e.what());
        }
    });
    // Lets tests check the mapping without depending on one particular bad input.
    m.def("_raise_invalid_input", [](const std::string& message) { throw InvalidInput(message); },
          py::arg("message"));
}

}  // namespace gputco::python
