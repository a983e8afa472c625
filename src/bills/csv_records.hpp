#pragma once
// The RFC 4180 record splitter of the FOCUS readers (cost rows, contract commitments): bytes in chunks of
// any size, one record's bytes kept at a time, so memory is bounded by the longest record.
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "fail_note.hpp"

namespace gputco::bills {

/// Splits a byte stream into CSV records (RFC 4180), keeping one record's bytes at a time.
class CsvRecords {
public:
    CsvRecords(std::string file, std::size_t max_row_bytes) : file_(std::move(file)), max_row_bytes_(max_row_bytes) {}

    /// Feeds `n` bytes; calls on_record(fields) for each complete record. `last` flushes the tail.
    template <class F>
    void feed(const char* data, std::size_t n, bool last, F&& on_record) {
        std::size_t i = 0;
        while (i < n) {
            // The common record: whole in this chunk, no quotes, no stray '\r'. Its fields are views of
            // the chunk itself, nothing copied; any other record takes the byte-by-byte path below.
            if (!quoted_ && buffer_.empty() && ends_.empty()) {
                if (const std::size_t next = whole_record(data, i, n); next != 0) {
                    if (!fields_.empty()) on_record(record_, fields_);
                    i = next;
                    continue;
                }
            }
            if (quoted_) {
                // Inside quotes everything up to the next quote is the field's text.
                const char* q = static_cast<const char*>(std::memchr(data + i, '"', n - i));
                const std::size_t end = q ? std::size_t(q - data) : n;
                append(data + i, end - i);
                i = end;
                if (q) {
                    quoted_ = false;
                    quote_closed_ = true;
                    ++i;
                }
                continue;
            }
            // Outside quotes: copy the run of ordinary bytes at once, then act on the byte that ends it.
            std::size_t end = i;
            while (end < n && !special(data[end])) ++end;
            if (end > i) {
                quote_closed_ = false;
                append(data + i, end - i);
                i = end;
                continue;
            }
            const char c = data[i++];
            if (c == '"') {
                if (quote_closed_) append("\"", 1);  // "" inside a quoted field: a literal quote
                quoted_ = true;
                quote_closed_ = false;
            } else if (c == ',') {
                quote_closed_ = false;
                ends_.push_back(buffer_.size());
            } else if (c == '\n') {
                end_record(on_record);
            } else {
                quote_closed_ = false;  // '\r' outside quotes: dropped (CRLF)
            }
        }
        if (last) {
            if (quoted_) bills::fail_note(fmt::format("{}:{}", file_, record_ + 1), "(end of file)", "inside a quoted field");
            if (!buffer_.empty() || !ends_.empty()) end_record(on_record);
        }
    }
    std::size_t records() const { return record_; }

private:
    /// The record starting at data[i] split into fields_ as views of `data` when it ends in this chunk
    /// and holds no '"' and no '\r' but one before its '\n' (what the general path would read the
    /// same): returns the index after its '\n', else 0 (nothing changed). A blank line leaves fields_
    /// empty (no record, as the general path).
    std::size_t whole_record(const char* data, std::size_t i, std::size_t n) {
        const char* begin = data + i;
        const char* nl = static_cast<const char*>(std::memchr(begin, '\n', n - i));
        if (nl == nullptr || std::size_t(nl - begin) > max_row_bytes_) return 0;
        const char* end = nl > begin && nl[-1] == '\r' ? nl - 1 : nl;
        fields_.clear();
        const char* field = begin;
        for (const char* p = begin; p < end; ++p) {
            if (!special(*p)) continue;
            if (*p != ',') return 0;  // a quote or a '\r' inside: the general path
            fields_.emplace_back(field, std::size_t(p - field));
            field = p + 1;
        }
        ++record_;
        if (end != begin) fields_.emplace_back(field, std::size_t(end - field));
        return std::size_t(nl - data) + 1;
    }
    /// The bytes that end a run outside quotes, as a table: one load per byte instead of four compares.
    static constexpr std::array<bool, 256> special_bytes = [] {
        std::array<bool, 256> t{};
        t[','] = t['\n'] = t['"'] = t['\r'] = true;
        return t;
    }();
    static bool special(char c) { return special_bytes[static_cast<unsigned char>(c)]; }
    void append(const char* p, std::size_t n) {
        buffer_.append(p, n);
        if (buffer_.size() > max_row_bytes_) {
            bills::fail_note(fmt::format("{}:{}", file_, record_ + 1), fmt::format("more than {} bytes", max_row_bytes_),
                 "a row longer than the limit (FocusOptions::max_row_bytes)");
        }
    }
    template <class F>
    void end_record(F&& on_record) {
        ++record_;
        quote_closed_ = false;
        if (buffer_.empty() && ends_.empty()) return;  // a blank line
        ends_.push_back(buffer_.size());
        fields_.clear();
        std::size_t begin = 0;
        for (std::size_t end : ends_) {
            fields_.emplace_back(buffer_.data() + begin, end - begin);
            begin = end;
        }
        on_record(record_, fields_);
        buffer_.clear();
        ends_.clear();
    }

    std::string file_;
    std::size_t max_row_bytes_;
    std::string buffer_;               ///< the record's field bytes, back to back
    std::vector<std::size_t> ends_;    ///< where each field ends in buffer_
    std::vector<std::string_view> fields_;
    std::size_t record_ = 0;
    bool quoted_ = false;
    bool quote_closed_ = false;
};

}  // namespace gputco::bills
