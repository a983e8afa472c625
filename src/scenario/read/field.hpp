// The YAML field helpers every scenario reader shares: a node with its place in the file (`Field`),
// a mapping whose keys were checked (`Field::Map`), and the small readers several keys use.
// Private to src/scenario: the public API is include/gputco/scenario/scenario.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "gputco/core/date.hpp"
#include "gputco/core/enum_text.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"
#include "gputco/scenario/scenario.hpp"

namespace gputco::scenario_read {

/// The closest allowed name, if close enough to be a typo.
std::optional<std::string> closest_name(std::string_view given, const std::vector<std::string>& allowed);

bool parses_as_number(const std::string& text);

/// A node and where it is: file, line, column, field path.
class Field {
public:
    Field(YAML::Node node, std::string path, std::shared_ptr<const std::string> file)
        : node_(std::move(node)), path_(std::move(path)), file_(std::move(file)) {}

    const std::string& path() const { return path_; }
    const YAML::Node& node() const { return node_; }

    std::string location() const {
        const YAML::Mark mark = node_.Mark();
        return fmt::format("{}:{}:{}", printable_utf8(*file_), mark.line + 1, mark.column + 1);
    }
    std::string shown_value() const {
        if (node_.IsMap()) return "{...}";
        if (node_.IsSequence()) return "[...]";
        if (node_.IsNull()) return "null";
        // A scalar may hold any bytes ("\0" is a valid YAML escape): shown as printable UTF-8.
        const std::string s = printable_utf8(node_.Scalar(), 80);
        return parses_as_number(s) || s == "true" || s == "false" ? s : fmt::format("\"{}\"", s);
    }
    [[noreturn]] void fail(std::string_view rule) const {
        throw InvalidInput(fmt::format("{}: {} = {}: {}", location(), printable_utf8(path_), shown_value(), rule));
    }
    /// Fails with this node's path and value at another node's place (a key's, for key errors).
    [[noreturn]] void fail_at(const Field& where, std::string_view rule) const {
        throw InvalidInput(fmt::format("{}: {} = {}: {}", where.location(), printable_utf8(path_), shown_value(), rule));
    }
    /// Runs a library check; its InvalidInput is prefixed with this node's place in the file.
    template <class F>
    auto checked(F&& f) const {
        try {
            return f();
        } catch (const InvalidInput& e) {
            throw InvalidInput(fmt::format("{}: {}", location(), e.what()));
        }
    }

    double number() const {
        if (!node_.IsScalar() || !parses_as_number(node_.Scalar())) fail("must be a number");
        double value = 0;
        std::from_chars(node_.Scalar().data(), node_.Scalar().data() + node_.Scalar().size(), value);
        if (!std::isfinite(value)) fail("must be a finite number");
        return value;
    }
    double non_negative() const {
        const double v = number();
        if (v < 0) fail("must be >= 0");
        return v;
    }
    /// A duration in hours within the library's range (a Job's work, its checkpoint interval, a mean
    /// time between failures): refused here, at its place in the file, rather than by the engine later.
    double duration() const {
        const double v = number();
        if (!(v >= limits::min_hours && v <= limits::max_hours))
            fail(fmt::format("must be in [{:g}, {:g}] hours", limits::min_hours, limits::max_hours));
        return v;
    }
    /// A duration that may be 0 (a checkpoint write, a restart, a wait), at most the library's limit.
    double hours_or_zero() const {
        const double v = non_negative();
        if (v > limits::max_hours) fail(fmt::format("must be <= {:g} hours", limits::max_hours));
        return v;
    }
    double fraction() const {
        const double v = number();
        if (v < 0 || v > 1) fail("must be in [0, 1]");
        return v;
    }
    long long integer() const {
        long long value = 0;
        const std::string& s = node_.IsScalar() ? node_.Scalar() : std::string();
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        if (!node_.IsScalar() || s.empty() || ec != std::errc() || end != s.data() + s.size()) fail("must be an integer");
        return value;
    }
    std::string text() const {
        if (!node_.IsScalar()) fail("must be a string");
        return node_.Scalar();
    }
    std::string choice(const std::vector<std::string>& allowed) const {
        std::string s = text();
        if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
            const auto near = closest_name(s, allowed);
            fail(fmt::format("must be one of {}{}", fmt::join(allowed, ", "),
                             near ? fmt::format("; did you mean \"{}\"?", *near) : ""));
        }
        return s;
    }
    /// One of E's names (its EnumText table), with the same message and hint as choice().
    template <TextEnum E>
    E choice() const {
        return parse<E>(choice(text_names<E>()), "value");  // checked by choice(): parse cannot fail
    }
    /// An ISO date, YYYY-MM or YYYY-MM-DD, with a real month and day.
    std::string date() const {
        // The library's one date parser (sscanf read " 202-01" and "-001-01" as dates).
        const std::string s = text();
        if ((s.size() != 7 && s.size() != 10) || !Date::is_date(s)) fail("must be a date YYYY-MM or YYYY-MM-DD");
        return s;
    }
    std::vector<Field> list() const {
        if (!node_.IsSequence()) fail("must be a list");
        std::vector<Field> items;
        for (std::size_t i = 0; i < node_.size(); ++i)
            items.emplace_back(node_[i], fmt::format("{}[{}]", path_, i), file_);
        return items;
    }
    template <std::size_t N>
    std::array<double, N> numbers() const {
        const auto items = list();
        if (items.size() != N) fail(fmt::format("must have {} numbers", N));
        std::array<double, N> out{};
        for (std::size_t i = 0; i < N; ++i) out[i] = items[i].non_negative();
        return out;
    }

    class Map;
    Map map(std::vector<std::string> allowed) const;
    /// A mapping whose key errors go to `errors`, so that its known keys are read on.
    Map map(std::vector<std::string> allowed, class Errors& errors) const;

private:
    YAML::Node node_;
    std::string path_;
    std::shared_ptr<const std::string> file_;
};

/// A required key missing from a mapping that has an unknown key close to it: that key misspelt, so
/// not an error of its own (the unknown key's error says "did you mean" it). Errors and read_scenario()
/// count it as a failure without reporting it.
struct MissingAfterUnknownKey : InvalidInput {
    using InvalidInput::InvalidInput;
};

/// The errors of one part of a file, gathered so that a reader goes on past a field's error and a
/// run reports them all: each read that does not depend on an earlier one runs through attempt(), and
/// done() throws what was kept, one message per line (read_scenario sorts them into file order).
class Errors {
public:
    /// Runs `read`; an InvalidInput it throws is kept and false returned.
    template <class F>
    bool attempt(F&& read) {
        try {
            read();
            return true;
        } catch (const MissingAfterUnknownKey& e) {
            consequence_ = e.what();
            return false;
        } catch (const InvalidInput& e) {
            messages_.emplace_back(e.what());
            return false;
        }
    }
    bool empty() const { return messages_.empty() && consequence_.empty(); }
    const std::vector<std::string>& messages() const { return messages_; }
    /// Throws the kept errors together (one InvalidInput, a message per line), if any; a read that
    /// failed only for a misspelt key passes its failure on unreported.
    void done() const {
        if (!messages_.empty()) throw InvalidInput(fmt::format("{}", fmt::join(messages_, "\n")));
        if (!consequence_.empty()) throw MissingAfterUnknownKey(consequence_);
    }

private:
    std::vector<std::string> messages_;
    std::string consequence_;
};

/// A mapping whose keys were checked: no duplicates, none outside `allowed` (every such key reported).
class Field::Map {
public:
    Map(const Field& self, std::vector<std::string> allowed) : self_(self) {
        if (!self.node().IsMap()) self.fail("must be a mapping");
        Errors errors;
        for (auto it = self.node().begin(); it != self.node().end(); ++it) errors.attempt([&] { add(it, allowed); });
        errors.done();
    }
    /// The same, keeping an unknown or repeated key's error in `errors` (the other keys are read on).
    Map(const Field& self, std::vector<std::string> allowed, Errors& errors) : self_(self) {
        if (!self.node().IsMap()) self.fail("must be a mapping");
        for (auto it = self.node().begin(); it != self.node().end(); ++it) errors.attempt([&] { add(it, allowed); });
    }
    bool has(std::string_view key) const {
        return std::any_of(values_.begin(), values_.end(), [&](const auto& kv) { return kv.first == key; });
    }
    std::optional<Field> find(std::string_view key) const {
        for (const auto& [k, v] : values_)
            if (k == key) return Field(v, child_path(k), self_.file_);
        return std::nullopt;
    }
    /// `key`, or `old_key`, its old spelling, still accepted (as the path of `key`, so that messages
    /// name the new field); both given is an error naming both.
    std::optional<Field> find(std::string_view key, std::string_view old_key) const {
        auto given = find(key);
        auto old = find(old_key);
        if (given && old)
            old->fail(fmt::format("the old spelling of {}, which is given too: give one of them", key));
        if (old) return Field(old->node(), child_path(key), self_.file_);
        return given;
    }
    Field get(std::string_view key, std::string_view rule = "required") const {
        if (auto f = find(key)) return *f;
        const std::string message =
            fmt::format("{}: {} = (missing): {}", self_.location(), printable_utf8(child_path(key)), rule);
        if (std::find(suggested_.begin(), suggested_.end(), key) != suggested_.end()) throw MissingAfterUnknownKey(message);
        throw InvalidInput(message);
    }
    const Field& self() const { return self_; }

private:
    /// Checks one key of the mapping and keeps its value (InvalidInput if unknown or repeated).
    void add(YAML::const_iterator it, const std::vector<std::string>& allowed) {
        const Field& self = self_;
        const YAML::Node key_node = it->first;
        const YAML::Node value_node = it->second;
        const std::string key = key_node.IsScalar() ? key_node.Scalar() : "?";
        const Field key_field(key_node, child_path(key), self.file_);
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            const auto near = closest_name(key, allowed);
            if (near) suggested_.push_back(*near);
            Field(value_node, child_path(key), self.file_)
                .fail_at(key_field, near ? fmt::format("unknown key; did you mean \"{}\"?", *near)
                                         : fmt::format("unknown key (allowed: {})", fmt::join(allowed, ", ")));
        }
        for (const auto& [seen, mark] : seen_) {
            if (seen == key)
                Field(value_node, child_path(key), self.file_)
                    .fail_at(key_field, fmt::format("duplicate key (first at line {})", mark.line + 1));
        }
        seen_.emplace_back(key, key_node.Mark());
        values_.emplace_back(key, value_node);
    }
    std::string child_path(std::string_view key) const {
        return self_.path().empty() ? std::string(key) : fmt::format("{}.{}", self_.path(), key);
    }
    Field self_;
    std::vector<std::pair<std::string, YAML::Mark>> seen_;
    std::vector<std::pair<std::string, YAML::Node>> values_;
    std::vector<std::string> suggested_;  ///< the keys unknown keys were taken for ("did you mean")
};

inline Field::Map Field::map(std::vector<std::string> allowed) const { return Map(*this, std::move(allowed)); }
inline Field::Map Field::map(std::vector<std::string> allowed, Errors& errors) const {
    return Map(*this, std::move(allowed), errors);
}

Source read_source(const Field& f);
Payment read_payment(const Field& f);
/// A reservation's term: 1 or 3 years.
int read_term(const Field& f);
/// A number > 0.
double positive(const Field& f);
/// A month of the horizon, [0, months).
int read_month(const Field& f, int months);

}  // namespace gputco::scenario_read
