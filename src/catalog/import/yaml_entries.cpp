// read_yaml_entries (yaml_entries.hpp): the parser's events turned into small trees, one wanted
// mapping entry at a time; everything else is passed over without being kept.
#include "yaml_entries.hpp"

#include <map>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>

#include "../../core/yaml_check.hpp"
#include "gputco/core/error.hpp"

namespace gputco::import {

const YamlNode& YamlNode::member(std::string_view key) const {
    static const YamlNode undefined;
    const YamlNode& s = self();
    if (s.kind_ != Kind::map) return undefined;
    for (std::size_t i = 0; i + 1 < s.children_.size(); i += 2) {
        if (s.children_[i].is_scalar() && s.children_[i].scalar() == key) return s.children_[i + 1];
    }
    return undefined;
}

class YamlEntryReader : public YAML::EventHandler {
public:
    YamlEntryReader(const std::string& file, int max_depth, const YamlEntries& entries)
        : file_(file), max_depth_(max_depth), entries_(entries) {}

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        YamlNode n;
        n.kind_ = YamlNode::Kind::null;
        n.mark_ = mark;
        leaf(std::move(n), anchor);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        YamlNode n;
        n.mark_ = mark;
        // An anchor on a mapping the wanted entries are streamed from is not kept: its alias reads as
        // undefined (price files have no anchors; the loader would share the node).
        if (const auto it = anchors_.find(anchor); it != anchors_.end()) n.target_ = it->second;
        leaf(std::move(n), 0);
    }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string& value) override {
        YamlNode n;
        n.kind_ = YamlNode::Kind::scalar;
        n.text_ = value;
        n.mark_ = mark;
        leaf(std::move(n), anchor);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
        open(YamlNode::Kind::sequence, mark, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
        open(YamlNode::Kind::map, mark, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    /// An open mapping or sequence outside the node being built.
    struct Frame {
        bool map = false;
        bool on_path = false;  // reached from the root through mappings and scalar keys only
        int wanted = -1;       // its index in entries_.paths when its entries are handed over
        bool key_next = true;  // in a mapping: the next node is a key
        bool key_scalar = false;
        std::string key;  // the last key, when a scalar
    };

    void leaf(YamlNode n, YAML::anchor_t anchor) {
        if (anchor) n = shared(std::move(n), anchor);
        if (!build_.empty()) {
            build_.back()->children_.push_back(std::move(n));
            return;
        }
        placed(std::move(n));
    }

    /// `n` kept under its anchor; the node left in its place refers to it.
    YamlNode shared(YamlNode n, YAML::anchor_t anchor) {
        const YAML::Mark mark = n.mark_;
        auto node = std::make_shared<const YamlNode>(std::move(n));
        anchors_[anchor] = node;
        YamlNode ref;
        ref.mark_ = mark;
        ref.target_ = std::move(node);
        return ref;
    }

    /// A complete node (a leaf, or a built container) in the innermost open frame.
    void placed(YamlNode&& n) {
        if (frames_.empty() || !frames_.back().map) return;  // the root, or an item of a sequence passed over
        Frame& f = frames_.back();
        if (f.wanted >= 0) {
            if (f.key_next) {
                key_ = std::move(n);
            } else {
                entries_.use(std::size_t(f.wanted), key_, n);
                key_ = YamlNode();
            }
        } else if (f.key_next) {
            f.key_scalar = n.is_scalar();
            f.key = f.key_scalar ? n.scalar() : std::string();
        }
        f.key_next = !f.key_next;
    }

    bool leads_to_wanted() const {
        for (const auto& p : entries_.paths) {
            if (p.size() >= path_.size() && std::equal(path_.begin(), path_.end(), p.begin())) return true;
        }
        return false;
    }

    void open(YamlNode::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
        ++depth_;
        require(depth_ <= max_depth_, fmt::format("{}:{}:{}", file_, mark.line + 1, mark.column + 1), depth_,
                fmt::format("levels of nesting: more than the limit of {} (ImportOptions::max_depth)", max_depth_));
        YamlNode n;
        n.kind_ = kind;
        n.mark_ = mark;
        if (!build_.empty()) {
            n.children_.reserve(16);  // a region's prices: 6 keys and values, without regrowing
            auto& children = build_.back()->children_;
            children.push_back(std::move(n));
            build_.push_back(&children.back());
            build_anchors_.push_back(anchor);
            return;
        }
        Frame f;
        f.map = kind == YamlNode::Kind::map;
        if (frames_.empty()) {
            f.on_path = true;
        } else {
            const Frame& parent = frames_.back();
            if (parent.wanted >= 0) {  // a key or value of a wanted entry: built
                start_building(std::move(n), anchor);
                return;
            }
            f.on_path = parent.on_path && parent.map && !parent.key_next && parent.key_scalar;
        }
        if (f.on_path && !frames_.empty()) path_.push_back(frames_.back().key);
        if (anchor && !(f.on_path && leads_to_wanted())) {  // kept whole for its aliases
            if (f.on_path && !frames_.empty()) path_.pop_back();
            start_building(std::move(n), anchor);
            return;
        }
        if (f.on_path && f.map) {
            for (std::size_t i = 0; i < entries_.paths.size(); ++i) {
                if (entries_.paths[i] == path_) f.wanted = static_cast<int>(i);
            }
        }
        frames_.push_back(std::move(f));
        if (frames_.back().wanted >= 0 && entries_.seen) entries_.seen(std::size_t(frames_.back().wanted));
    }

    void start_building(YamlNode n, YAML::anchor_t anchor) {
        holder_ = std::move(n);
        build_.push_back(&holder_);
        build_anchors_.push_back(anchor);
    }

    void close() {
        --depth_;
        if (!build_.empty()) {
            YamlNode* done = build_.back();
            const YAML::anchor_t anchor = build_anchors_.back();
            build_.pop_back();
            build_anchors_.pop_back();
            if (anchor) *done = shared(std::move(*done), anchor);
            if (build_.empty()) {
                YamlNode n = std::move(holder_);
                holder_ = YamlNode();
                placed(std::move(n));
            }
            return;
        }
        const Frame f = std::move(frames_.back());
        frames_.pop_back();
        if (f.on_path && !frames_.empty()) path_.pop_back();
        placed(YamlNode());  // the parent's key or value is complete (not a scalar)
    }

    const std::string& file_;
    int max_depth_;
    const YamlEntries& entries_;
    int depth_ = 0;
    std::vector<Frame> frames_;
    std::vector<std::string> path_;        // the scalar keys of the open frames on the path, from the root
    YamlNode holder_;                      // the node being built (a wanted entry's key or value, or an anchored one)
    std::vector<YamlNode*> build_;         // its open containers, innermost last
    std::vector<YAML::anchor_t> build_anchors_;
    YamlNode key_;                         // the key of the wanted entry whose value comes next
    std::map<YAML::anchor_t, std::shared_ptr<const YamlNode>> anchors_;
};

void read_yaml_entries(std::string_view text, const std::string& file, const ImportOptions& options,
                       const YamlEntries& entries) {
    YamlEntryReader reader(file, options.max_depth, entries);
    detail::parse_yaml_checked(text, file, true, reader);
}

}  // namespace gputco::import
