#pragma once
// Writing a file so that a failure (a full disk, a file size limit, a crash) never leaves it partly
// written or clobbered: the text goes to a new file in the same directory, is flushed to the disk,
// and only then renamed over the target (a rename within one file system is atomic on POSIX).
#include <string>
#include <string_view>

namespace gputco {

/// Replaces the file at `path` with `text`, or leaves it as it was and throws InvalidInput
/// ("path = \"<path>\": cannot be written: <reason>"). A new file gets the mode a plain open would
/// give it (0666 less the umask), a replaced one keeps its mode; a symbolic link is followed, so
/// the file it points to is replaced, not the link.
void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace gputco
