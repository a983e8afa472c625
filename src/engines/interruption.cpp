#include "gputco/engines/interruption.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>

#include "gputco/core/error.hpp"
#include "gputco/core/time.hpp"

namespace gputco {
namespace {

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r");
    return s.substr(first, last - first + 1);
}

// Calls f(line_number, trimmed line) for every line that is neither blank nor a '#' comment.
template <class F>
void for_each_data_line(std::string_view text, F&& f) {
    std::size_t line_number = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = trim(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++line_number;
        if (line.empty() || line.front() == '#') continue;
        f(line_number, line);
    }
}

bool parse_double(std::string_view s, double& out) {
    s = trim(s);
    if (s.empty()) return false;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && ptr == s.data() + s.size();
}

[[noreturn]] void bad_line(std::size_t line_number, std::string_view line, std::string_view rule) {
    fail("trace line " + std::to_string(line_number), line, rule);
}

}  // namespace

void ProviderRules::validate() const {
    require_at_most("rules.notice_hours", notice_hours, limits::max_hours);
    require_at_most("rules.protection_hours", protection_hours, limits::max_hours);
    require(max_lifetime_hours > 0.0, "rules.max_lifetime_hours", max_lifetime_hours,
            "must be > 0 (infinity = no limit)");
    if (std::isfinite(max_lifetime_hours)) require_duration("rules.max_lifetime_hours", max_lifetime_hours);
    require(!(protection_hours >= max_lifetime_hours), "rules.protection_hours", protection_hours,
            "must be < rules.max_lifetime_hours");
}

ProviderRules aws_rules() { return {.notice_hours = 2.0 / 60.0, .emergency_checkpoint = true}; }
ProviderRules gcp_preemptible_rules() {
    return {.notice_hours = 30.0 / 3600.0, .emergency_checkpoint = true, .max_lifetime_hours = 24.0};
}
ProviderRules alibaba_rules() {
    return {.notice_hours = 5.0 / 60.0, .emergency_checkpoint = true, .protection_hours = 1.0};
}

Trace Trace::parse_lifetimes(std::string_view text, std::string source) {
    Trace trace;
    trace.source = std::move(source);
    for_each_data_line(text, [&](std::size_t number, std::string_view line) {
        double hours = 0;
        if (!parse_double(line, hours)) bad_line(number, line, "must be a number");
        if (!(std::isfinite(hours) && hours > 0.0)) bad_line(number, line, "lifetime must be finite and > 0");
        trace.lifetimes_hours.push_back(hours);
    });
    trace.validate();
    return trace;
}

Trace Trace::from_node_events(std::string_view text, double hours_per_time_unit, std::string source) {
    require_positive("hours_per_time_unit", hours_per_time_unit);
    Trace trace;
    trace.source = std::move(source);
    std::map<std::string, double, std::less<>> running;  // node -> add time
    double previous_time = -std::numeric_limits<double>::infinity();
    for_each_data_line(text, [&](std::size_t number, std::string_view line) {
        const auto c1 = line.find(',');
        const auto c2 = c1 == std::string_view::npos ? c1 : line.find(',', c1 + 1);
        if (c2 == std::string_view::npos || line.find(',', c2 + 1) != std::string_view::npos)
            bad_line(number, line, "must be \"time,add|remove,node\"");
        double time = 0;
        if (!parse_double(line.substr(0, c1), time) || !std::isfinite(time))
            bad_line(number, line, "time must be a finite number");
        if (time < previous_time) bad_line(number, line, "time must not go backwards");
        previous_time = time;
        const std::string_view action = trim(line.substr(c1 + 1, c2 - c1 - 1));
        const std::string_view node = trim(line.substr(c2 + 1));
        if (node.empty()) bad_line(number, line, "node must not be empty");
        if (action == "add") {
            if (!running.emplace(std::string(node), time).second) bad_line(number, line, "node is already running");
        } else if (action == "remove") {
            const auto it = running.find(node);
            if (it == running.end()) bad_line(number, line, "node is not running");
            const double hours = (time - it->second) * hours_per_time_unit;
            running.erase(it);
            if (hours > 0.0) trace.lifetimes_hours.push_back(hours);
        } else {
            bad_line(number, line, "action must be add or remove");
        }
    });
    trace.censored_count = running.size();
    trace.validate();
    return trace;
}

Trace Trace::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("trace.path", path, "cannot be opened");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    bool events = false;
    bool seen = false;
    for_each_data_line(text, [&](std::size_t, std::string_view line) {
        if (seen) return;
        seen = true;
        events = std::count(line.begin(), line.end(), ',') == 2;
    });
    return events ? from_node_events(text, 1.0 / 3.6e6, path) : parse_lifetimes(text, path);
}

double Trace::mean_lifetime_hours() const {
    double sum = 0;
    for (double x : lifetimes_hours) sum += x;
    return lifetimes_hours.empty() ? 0.0 : sum / static_cast<double>(lifetimes_hours.size());
}

void Trace::validate() const {
    require(!lifetimes_hours.empty(), "trace.lifetimes_hours.size", lifetimes_hours.size(), "must be > 0");
    for (std::size_t i = 0; i < lifetimes_hours.size(); ++i)
        require_positive("trace.lifetimes_hours[" + std::to_string(i) + "]", lifetimes_hours[i]);
    rules.validate();
}

void PriceDriven::validate() const {
    require_positive("price_driven.reversion_per_hour", reversion_per_hour);
    require_non_negative("price_driven.volatility_per_sqrt_hour", volatility_per_sqrt_hour);
    require(price_cap_per_hour > 0.0, "price_driven.price_cap_per_hour", price_cap_per_hour,
            "must be > 0 (infinity = no cap)");
    require_duration("price_driven.step_hours", step_hours);
    rules.validate();
}

void validate(const InterruptionModel& model) {
    std::visit(
        [](const auto& m) {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, Poisson>) {
                require_positive("poisson.mtbf_hours", m.mtbf_hours);
                m.rules.validate();
            } else if constexpr (std::is_same_v<M, Weibull>) {
                require_positive("weibull.shape", m.shape);
                require_positive("weibull.scale_hours", m.scale_hours);
                m.rules.validate();
            } else {
                m.validate();
            }
        },
        model);
}

double mtbf_from_monthly_interruption_fraction(double fraction) {
    require(fraction > 0.0 && fraction < 1.0, "monthly_interruption_fraction", fraction, "must be in (0, 1)");
    const double mtbf = -hours_per_month / std::log1p(-fraction);
    // A tiny fraction (a denormal) would give an MTBF of infinity; past the duration limit it is a mistake.
    require(mtbf <= limits::max_mtbf_hours, "monthly_interruption_fraction", fraction,
            fmt::format("must be >= {:.6g} (an MTBF of at most {:g} hours)",
                        -std::expm1(-hours_per_month / limits::max_mtbf_hours), limits::max_mtbf_hours));
    return mtbf;
}

double advisor_bucket_fraction(int bucket_index) {
    require(bucket_index >= 0 && bucket_index <= 4, "advisor_bucket_index", bucket_index, "must be in 0..4");
    constexpr double fractions[] = {0.025, 0.075, 0.125, 0.175, 0.25};
    return fractions[bucket_index];
}

Poisson advisor_bucket(int bucket_index, const ProviderRules& rules) {
    return Poisson{.mtbf_hours = mtbf_from_monthly_interruption_fraction(advisor_bucket_fraction(bucket_index)),
                   .rules = rules};
}

}  // namespace gputco
