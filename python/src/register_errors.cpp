// Errors: gputco::InvalidInput is Python's ValueError with exactly the same message; a cancelled
// run (gputco::Cancelled) is KeyboardInterrupt, the only way a Python caller cancels one.
#include "register.hpp"

#include <gputco/core/error.hpp>
#include <gputco/engines/spot.hpp>

namespace gputco::python {

void register_errors(py::module_& m) {
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error) std::rethrow_exception(error);
        } catch (const InvalidInput& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const Cancelled& e) {
            PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
        }
    });
    // Lets tests check the mapping without depending on one particular bad input.
    m.def("_raise_invalid_input", [](const std::string& message) { throw InvalidInput(message); },
          py::arg("message"));
}

}  // namespace gputco::python
