// Whole files read and written under the library's rules: reads stop at a size limit, writes replace
// a file only once the new text is complete on disk (core/atomic_file.hpp).
#include "register.hpp"

#include <gputco/catalog/importers.hpp>
#include <gputco/core/atomic_file.hpp>

namespace gputco::python {

void register_files(py::module_& m) {
    m.def(
        "write_file_atomically",
        [](const std::string& path, std::string_view text) {
            py::gil_scoped_release release;
            write_file_atomically(path, text);
        },
        py::arg("path"), py::arg("text"),
        "Replaces the file at `path` with `text` (UTF-8), or leaves it as it was and raises ValueError "
        "naming the path and the reason (a full disk, a file size limit): the text is written to a new "
        "file in the same folder, flushed to disk, then renamed over the target.");
    m.def(
        "_read_text_file",
        [](const std::string& path) {
            std::string text;
            {
                py::gil_scoped_release release;
                text = read_text_file(path);
            }
            return py::bytes(text);
        },
        py::arg("path"), "The file's bytes, read up to the importers' size limit (ValueError past it).");
}

}  // namespace gputco::python
