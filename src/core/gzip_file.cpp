#include "gputco/core/gzip_file.hpp"

#include <zlib.h>

#include <array>
#include <cstdio>
#include <memory>
#include <vector>

#include "gputco/core/error.hpp"

namespace gputco {
namespace {

/// zlib's last error as a reason, without the path it prefixes (the message names the path already).
[[noreturn]] void fail_damaged(gzFile in, const std::string& path) {
    int code = 0;
    std::string reason = gzerror(in, &code);
    if (reason.starts_with(path + ": ")) reason.erase(0, path.size() + 2);
    fail("path", path, fmt::format("is damaged gzip data ({})", reason.empty() ? "zlib error" : reason));
}

}  // namespace

bool is_gzip_file(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!in) return false;
    std::array<unsigned char, 2> magic{};
    return std::fread(magic.data(), 1, 2, in.get()) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

void read_file_chunks(const std::string& path, const std::function<void(std::string_view)>& on_chunk,
                      std::size_t chunk_bytes) {
    require(chunk_bytes >= 1 && chunk_bytes <= (std::size_t(1) << 30), "chunk_bytes", chunk_bytes,
            "must be in [1, 2^30]");
    std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzopen(path.c_str(), "rb"), &gzclose);
    require(in != nullptr, "path", path, "cannot be opened for reading");
    gzbuffer(in.get(), 1u << 17);  // 128 KiB of compressed input per read: fewer system calls
    std::vector<char> chunk(chunk_bytes);
    for (;;) {
        const int n = gzread(in.get(), chunk.data(), unsigned(chunk.size()));
        if (n < 0) fail_damaged(in.get(), path);
        if (n > 0) on_chunk(std::string_view(chunk.data(), std::size_t(n)));
        if (std::size_t(n) < chunk.size()) {
            // A short read is the end of the data, or a gzip stream cut short: zlib reports that as
            // Z_BUF_ERROR after the last bytes it could decompress.
            int code = Z_OK;
            gzerror(in.get(), &code);
            if (code != Z_OK && code != Z_STREAM_END) fail_damaged(in.get(), path);
            if (gzeof(in.get()) || n == 0) break;
        }
    }
}

}  // namespace gputco
