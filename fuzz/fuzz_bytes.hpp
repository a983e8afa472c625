#pragma once
// The fuzzer's bytes read as a target's inputs: raw IEEE-754 doubles (so NaN, infinities, denormals
// and extremes come up as often as ordinary values), plain numbers of a useful size, and choices.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gputco::fuzz {

/// Reads the fuzzer's bytes in order; past the end every value is 0.
class Bytes {
public:
    Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
    /// One of n choices, n <= 256.
    unsigned choice(unsigned n) { return byte() % n; }
    double number() {
        unsigned char raw[sizeof(double)] = {};
        for (auto& b : raw) b = byte();
        double value;
        std::memcpy(&value, raw, sizeof value);
        const double size = std::abs(value);
        extreme_ = extreme_ || (std::isfinite(value) && (size > 1e12 || (size > 0 && size < 1e-12)));
        return value;
    }
    /// Any int (four bytes), for indices and months whose out-of-range values must be refused.
    std::int32_t integer() {
        std::uint32_t raw = 0;
        for (int i = 0; i < 4; ++i) raw = raw << 8 | byte();
        return static_cast<std::int32_t>(raw);
    }
    /// A raw double one time in four, else a signed byte over `scale` (0 and the edges of small
    /// ranges come up often): raw doubles alone are nearly always rejected at once, which leaves the
    /// code behind validation unvisited.
    double value(double scale = 16) {
        if (choice(4) == 0) return number();
        return static_cast<double>(static_cast<std::int8_t>(byte())) / scale;
    }
    /// Whether a finite number above 1e12 or below 1e-12 (not 0) in magnitude has been read.
    bool extreme() const { return extreme_; }
    bool empty() const { return at_ >= size_; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
    bool extreme_ = false;
};

}  // namespace gputco::fuzz
