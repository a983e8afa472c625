#pragma once
// Reading a file that may be gzip-compressed, in bounded chunks: cost exports are shipped as .csv.gz
// (AWS Data Exports, Azure FocusCost) and run to gigabytes, so they are decompressed as they are read,
// never held whole. zlib does the decompression (gzread reads plain files through unchanged).
#include <functional>
#include <string>
#include <string_view>

namespace gputco {

/// Whether `path` starts with the gzip magic bytes (1f 8b). False for a file too short or unreadable.
bool is_gzip_file(const std::string& path);

/// Calls `on_chunk` with the file's bytes, decompressed when it is gzip (several concatenated members
/// too), at most `chunk_bytes` at a time. Throws InvalidInput naming `path` when it cannot be opened or
/// its compressed data is damaged or cut short.
void read_file_chunks(const std::string& path, const std::function<void(std::string_view)>& on_chunk,
                      std::size_t chunk_bytes = std::size_t(1) << 20);

}  // namespace gputco
