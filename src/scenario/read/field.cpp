// The shared YAML field helpers (read/field.hpp): typo hints and the readers several keys use.
#include "field.hpp"

namespace gputco::scenario_read {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

}  // namespace

std::optional<std::string> closest_name(std::string_view given, const std::vector<std::string>& allowed) {
    std::optional<std::string> best;
    std::size_t best_distance = std::max<std::size_t>(2, given.size() / 3) + 1;
    for (const auto& name : allowed) {
        // The distance is at least the difference in length: a name that far off cannot be nearer, and
        // skipping it keeps a long mistyped key against thousands of catalog keys from taking minutes.
        const std::size_t apart = given.size() > name.size() ? given.size() - name.size() : name.size() - given.size();
        if (apart >= best_distance) continue;
        const std::size_t d = edit_distance(given, name);
        if (d < best_distance) best = name, best_distance = d;
    }
    return best;
}

bool parses_as_number(const std::string& text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

Source read_source(const Field& f) {
    const auto m = f.map({"name", "as_of"});
    Source s;
    if (auto n = m.find("name")) s.name = n->text();
    if (auto d = m.find("as_of")) s.as_of = d->date();
    return s;
}

Payment read_payment(const Field& f) {
    return f.choice<Payment>();
}

int read_term(const Field& f) {
    const long long t = f.integer();
    if (t != 1 && t != 3) f.fail("must be 1 or 3");
    return int(t);
}

double positive(const Field& f) {
    const double v = f.number();
    if (v <= 0) f.fail("must be > 0");
    return v;
}

int read_month(const Field& f, int months) {
    const long long m = f.integer();
    if (m < 0 || m >= months) f.fail(fmt::format("must be in [0, {}) (the horizon's months)", months));
    return int(m);
}

}  // namespace gputco::scenario_read
