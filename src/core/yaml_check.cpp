// check_yaml: one pass of yaml-cpp's event parser, sizes of anchored nodes remembered by anchor, so
// each alias counts the nodes it stands for without expanding them (linear in the text).
#include "yaml_check.hpp"

#include <map>
#include <istream>
#include <streambuf>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "gputco/core/error.hpp"

namespace gputco::detail {
namespace {

class Counter : public YAML::EventHandler {
public:
    Counter(std::string_view file, bool unique_keys, YAML::EventHandler* next = nullptr)
        : file_(file), unique_keys_(unique_keys), next_(next) {}

    // Each event is checked first, then passed on (parse_yaml_checked).
    void OnDocumentStart(const YAML::Mark& mark) override {
        if (next_) next_->OnDocumentStart(mark);
    }
    void OnDocumentEnd() override {
        if (next_) next_->OnDocumentEnd();
    }
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        leaf(mark, anchor, nullptr);
        if (next_) next_->OnNull(mark, anchor);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        const auto it = sizes_.find(anchor);
        add(mark, it == sizes_.end() ? 1 : it->second, nullptr);
        if (next_) next_->OnAlias(mark, anchor);
    }
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor, const std::string& value) override {
        leaf(mark, anchor, &value);
        if (next_) next_->OnScalar(mark, tag, anchor, value);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override {
        open(mark, anchor, false);
        if (next_) next_->OnSequenceStart(mark, tag, anchor, style);
    }
    void OnSequenceEnd() override {
        close();
        if (next_) next_->OnSequenceEnd();
    }
    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override {
        open(mark, anchor, true);
        if (next_) next_->OnMapStart(mark, tag, anchor, style);
    }
    void OnMapEnd() override {
        close();
        if (next_) next_->OnMapEnd();
    }

private:
    struct Open {
        YAML::Mark mark;
        YAML::anchor_t anchor;
        bool map;
        std::size_t size = 1;      // nodes inside, itself included, aliases expanded
        std::size_t children = 0;  // in a mapping, even children are keys
        std::map<std::string, int> keys;
    };

    void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, const std::string* text) {
        if (anchor) sizes_[anchor] = 1;
        add(mark, 1, text);
    }
    void open(const YAML::Mark& mark, YAML::anchor_t anchor, bool map) {
        key(mark, nullptr);
        stack_.push_back(Open{mark, anchor, map});
        count(mark, 1);
    }
    void close() {
        Open done = std::move(stack_.back());
        stack_.pop_back();
        if (done.anchor) sizes_[done.anchor] = done.size;
        if (!stack_.empty()) stack_.back().size += done.size;
    }
    /// A complete node of `size` nodes (a scalar, or an alias) inside the innermost open node.
    void add(const YAML::Mark& mark, std::size_t size, const std::string* text) {
        key(mark, text);
        if (!stack_.empty()) stack_.back().size += size;
        count(mark, size);
    }
    /// In a mapping every other child is a key: a scalar key may appear once.
    void key(const YAML::Mark& mark, const std::string* text) {
        if (stack_.empty() || !stack_.back().map) return;
        Open& m = stack_.back();
        if (m.children++ % 2 != 0 || !unique_keys_ || !text) return;
        const auto [it, fresh] = m.keys.emplace(*text, mark.line + 1);
        if (!fresh) {
            throw InvalidInput(fmt::format("{}:{}:{}: key = \"{}\": appears twice in one mapping (first at line {})",
                                           printable_utf8(file_), mark.line + 1, mark.column + 1, printable_utf8(*text, 80),
                                           it->second));
        }
    }
    void count(const YAML::Mark& mark, std::size_t size) {
        total_ += size;
        if (total_ > max_yaml_nodes) {
            throw InvalidInput(fmt::format("{}:{}:{}: yaml nodes = {}: more than the limit of {} with aliases expanded",
                                           printable_utf8(file_), mark.line + 1, mark.column + 1, total_, max_yaml_nodes));
        }
    }

    std::string_view file_;
    bool unique_keys_;
    YAML::EventHandler* next_;
    std::vector<Open> stack_;
    std::map<YAML::anchor_t, std::size_t> sizes_;
    std::size_t total_ = 0;
};

/// The text as a stream without a copy (yaml-cpp reads an std::istream).
class ViewBuffer : public std::streambuf {
public:
    explicit ViewBuffer(std::string_view text) {
        char* begin = const_cast<char*>(text.data());  // read only: the get area is never written
        setg(begin, begin, begin + text.size());
    }
};

}  // namespace

void parse_yaml_checked(std::string_view text, std::string_view file, bool unique_keys, YAML::EventHandler& next) {
    ViewBuffer buffer(text);
    std::istream in(&buffer);
    Counter counter(file, unique_keys, &next);
    YAML::Parser parser(in);
    parser.HandleNextDocument(counter);  // the first document, as YAML::Load reads it
}

void check_yaml(std::string_view text, std::string_view file, bool unique_keys) {
    ViewBuffer buffer(text);
    std::istream in(&buffer);
    Counter counter(file, unique_keys);
    try {
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(counter)) {
        }
    } catch (const YAML::Exception&) {
        // Not YAML: the loader that follows reports where and why.
    }
}

}  // namespace gputco::detail
