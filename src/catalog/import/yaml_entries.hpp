#pragma once
// A YAML price file read as parser events (yaml-cpp's YAML::Parser), one mapping entry at a time:
// the entries of the mappings at chosen paths ("compute" → "instance") are built as small trees and
// handed over one by one, then dropped, so a 4 MB file is never held as a whole tree (the loader's
// tree of Cyclenerd's pricing.yml took about 140 MiB and most of the import's time).
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/mark.h>

#include "gputco/catalog/importers.hpp"

namespace gputco::import {

/// A node built from events: a scalar, null, a mapping (its children key, value, key, value, ...) or a
/// sequence, with the place it starts. An alias shares the anchored node (as yaml-cpp's loader does).
class YamlNode {
public:
    enum class Kind { undefined, null, scalar, map, sequence };

    bool defined() const { return self().kind_ != Kind::undefined; }
    bool is_null() const { return self().kind_ == Kind::null; }
    bool is_scalar() const { return self().kind_ == Kind::scalar; }
    bool is_map() const { return self().kind_ == Kind::map; }
    bool is_sequence() const { return self().kind_ == Kind::sequence; }
    /// The text of a scalar ("" for any other node).
    const std::string& scalar() const { return self().text_; }
    const YAML::Mark& mark() const { return self().mark_; }
    /// A mapping's entries, in file order: (key, value) at 2i, 2i + 1.
    std::size_t size() const { return self().children_.size() / 2; }
    const YamlNode& key(std::size_t i) const { return self().children_[2 * i]; }
    const YamlNode& value(std::size_t i) const { return self().children_[2 * i + 1]; }
    /// The value of the first scalar key equal to `key` in a mapping; an undefined node when this is no
    /// mapping or has no such key (what yaml-cpp's loader answers).
    const YamlNode& member(std::string_view key) const;

private:
    friend class YamlEntryReader;
    const YamlNode& self() const { return target_ ? *target_ : *this; }

    Kind kind_ = Kind::undefined;
    std::string text_;
    YAML::Mark mark_;
    std::vector<YamlNode> children_;
    std::shared_ptr<const YamlNode> target_;  // an alias's (or an anchored node's) shared node
};

/// Which mappings' entries to hand over, and what to do with each.
struct YamlEntries {
    /// The paths (scalar keys from the root, e.g. {"compute", "instance"}) of the mappings whose
    /// entries are wanted. A mapping reached through a sequence or a key that is not a scalar is not.
    std::vector<std::vector<std::string>> paths;
    /// Called with the index of the path in `paths` and one entry, in file order.
    std::function<void(std::size_t path, const YamlNode& key, const YamlNode& value)> use;
    /// Called when a wanted path is reached with a mapping (also an empty one).
    std::function<void(std::size_t path)> seen;
};

/// Reads the first document of `text` in one pass: the checks of check_yaml (aliases expanded past
/// max_yaml_nodes, a key twice in one mapping), options.max_depth (levels of nested mappings and
/// sequences: "<file>:<line>:<column> = <depth>: levels of nesting: more than the limit of <n>
/// (ImportOptions::max_depth)"), and `entries`. yaml-cpp's own exceptions reach the caller.
void read_yaml_entries(std::string_view text, const std::string& file, const ImportOptions& options,
                       const YamlEntries& entries);

}  // namespace gputco::import
