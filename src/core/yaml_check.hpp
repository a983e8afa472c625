#pragma once
// A pass over YAML text before it is loaded, for what yaml-cpp's loader lets through: aliases that
// expand past a limit (the "billion laughs": a 1 KB file whose nodes, aliases expanded, number 10^9,
// so reading the loaded tree never ends; the tree itself shares the aliased nodes and is small), and
// optionally a key twice in one mapping (the loader keeps both and a lookup finds the first).
#include <cstddef>
#include <string_view>

namespace YAML {
class EventHandler;
}

namespace gputco::detail {

/// Nodes of a YAML document counted with every alias expanded: a price file or scenario has at most
/// one per its bytes or so; 10^7 is far above any real file (Cyclenerd's pricing.yml: ~6 x 10^5).
inline constexpr std::size_t max_yaml_nodes = 10'000'000;

/// Throws InvalidInput "<file>:<line>:<column>: yaml nodes = <n>: more than the limit of 10000000 with
/// aliases expanded" at the node that passes the limit, and, with `unique_keys`, "<file>:<line>:<column>:
/// key = \"<key>\": appears twice in one mapping (first at line <n>)". Text that is not YAML passes:
/// the loader reports it with its own words.
void check_yaml(std::string_view text, std::string_view file, bool unique_keys);

/// The same checks in one pass with a reader of the events: each event of the first document is
/// checked, then handed to `next`, so a large file is parsed once and never held as a tree. yaml-cpp's
/// exceptions (text that is not YAML) reach the caller, with their mark.
void parse_yaml_checked(std::string_view text, std::string_view file, bool unique_keys, YAML::EventHandler& next);

}  // namespace gputco::detail
