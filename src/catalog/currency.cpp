// Money, exchange rates in force at a date, and the built-in rate table.
#include "gputco/catalog/currency.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gputco {

// ---------------------------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------------------------

void require_same_currency(const Money& a, const Money& b, std::string_view what) {
    require(a.currency == b.currency, "money.currency", b.currency,
            fmt::format("cannot {} an amount in {} without an exchange rate (convert it first)", what,
                        a.currency));
}

std::partial_ordering Money::operator<=>(const Money& other) const {
    require_same_currency(*this, other, "compare with");
    return amount <=> other.amount;
}

Money operator+(const Money& a, const Money& b) {
    require_same_currency(a, b, "add to");
    return Money{a.amount + b.amount, a.currency};
}

Money operator-(const Money& a, const Money& b) {
    require_same_currency(a, b, "subtract from");
    return Money{a.amount - b.amount, a.currency};
}

// ---------------------------------------------------------------------------------------------
// ExchangeRate, RateQuote
// ---------------------------------------------------------------------------------------------

namespace {

bool is_currency_code(std::string_view code) {
    return code.size() == 3 && std::all_of(code.begin(), code.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

void require_code(std::string_view field, std::string_view code) {
    require(is_currency_code(code), field, code, "must be a three-letter upper-case ISO 4217 code");
}

}  // namespace

void ExchangeRate::validate(std::string_view field) const {
    require_code(fmt::format("{}.from", field), from);
    require_code(fmt::format("{}.to", field), to);
    require(from != to, fmt::format("{}.to", field), to, "must differ from `from`");
    require_positive(fmt::format("{}.rate", field), rate);
    require(!source.name.empty(), fmt::format("{}.source.name", field), source.name, "must not be empty");
}

std::string RateQuote::describe() const {
    std::vector<std::string> parts;
    for (const ExchangeRate& r : legs) {
        parts.push_back(fmt::format("1 {} = {} {} ({}, {})", r.from, r.rate, r.to, r.source.name, r.date.iso()));
    }
    return parts.empty() ? "same currency" : fmt::format("{}", fmt::join(parts, "; "));
}

// ---------------------------------------------------------------------------------------------
// ExchangeRates
// ---------------------------------------------------------------------------------------------

ExchangeRates::ExchangeRates(std::vector<ExchangeRate> rates) : rates_(std::move(rates)) {
    std::set<std::tuple<std::string, std::string, long long>> seen;
    for (std::size_t i = 0; i < rates_.size(); ++i) {
        const std::string at = fmt::format("rates[{}]", i);
        rates_[i].validate(at);
        const ExchangeRate& r = rates_[i];
        // A pair and its reverse on one date would be two answers to one question.
        const auto key = r.from < r.to ? std::tuple{r.from, r.to, r.date.days_since_epoch()}
                                       : std::tuple{r.to, r.from, r.date.days_since_epoch()};
        require(seen.insert(key).second, fmt::format("{}.date", at), r.date.iso(),
                fmt::format("a second {}/{} rate on the same date", r.from, r.to));
    }
}

ExchangeRates ExchangeRates::merged_with(const ExchangeRates& other) const {
    std::vector<ExchangeRate> out;
    auto same = [](const ExchangeRate& a, const ExchangeRate& b) {
        return a.date == b.date && ((a.from == b.from && a.to == b.to) || (a.from == b.to && a.to == b.from));
    };
    for (const ExchangeRate& mine : rates_) {
        const bool replaced = std::any_of(other.rates_.begin(), other.rates_.end(),
                                          [&](const ExchangeRate& theirs) { return same(mine, theirs); });
        if (!replaced) out.push_back(mine);
    }
    out.insert(out.end(), other.rates_.begin(), other.rates_.end());
    return ExchangeRates(std::move(out));
}

const ExchangeRate* ExchangeRates::latest(std::string_view from, std::string_view to, const Date& date) const {
    const ExchangeRate* best = nullptr;
    for (const ExchangeRate& r : rates_) {
        if (r.date > date) continue;
        if (!((r.from == from && r.to == to) || (r.from == to && r.to == from))) continue;
        if (!best || r.date > best->date) best = &r;
    }
    return best;
}

namespace {

double read_leg(const ExchangeRate& r, std::string_view from) { return r.from == from ? r.rate : 1.0 / r.rate; }

}  // namespace

RateQuote ExchangeRates::quote(std::string_view from, std::string_view to, const Date& date) const {
    require_code("currency", from);
    require_code("to_currency", to);
    if (from == to) return RateQuote{};
    if (const ExchangeRate* direct = latest(from, to, date)) {
        return RateQuote{read_leg(*direct, from), {*direct}};
    }
    std::set<std::string> via;
    for (const ExchangeRate& r : rates_) {
        via.insert(r.from);
        via.insert(r.to);
    }
    for (const std::string& middle : via) {  // sorted: the same cross rate every time
        if (middle == from || middle == to) continue;
        const ExchangeRate* first = latest(from, middle, date);
        const ExchangeRate* second = first ? latest(middle, to, date) : nullptr;
        if (first && second) {
            return RateQuote{read_leg(*first, from) * read_leg(*second, middle), {*first, *second}};
        }
    }
    std::set<std::string> pairs;
    for (const ExchangeRate& r : rates_) pairs.insert(fmt::format("{}/{} from {}", r.from, r.to, r.date.iso()));
    fail("currency", from,
         fmt::format("no exchange rate to {} in force at {} (known: {})", to, date.iso(),
                     pairs.empty() ? std::string("none") : fmt::format("{}", fmt::join(pairs, ", "))));
}

Money ExchangeRates::convert(const Money& money, std::string_view to_currency, const Date& date) const {
    return Money{money.amount * rate(money.currency, to_currency, date), std::string(to_currency)};
}

Offering ExchangeRates::convert(const Offering& offering, std::string_view to_currency, const Date& date) const {
    const RateQuote q = quote(offering.currency, to_currency, date);
    if (q.legs.empty()) return offering;
    Offering out = offering.converted(to_currency, q.rate);
    out.notes += fmt::format(" (rate in force at {}: {})", date.iso(), q.describe());
    return out;
}

// ---------------------------------------------------------------------------------------------
// ECB reference-rate CSV
// ---------------------------------------------------------------------------------------------

namespace {

std::vector<std::string_view> split_fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        std::string_view f = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        while (!f.empty() && (f.front() == ' ')) f.remove_prefix(1);
        while (!f.empty() && (f.back() == ' ' || f.back() == '\r')) f.remove_suffix(1);
        out.push_back(f);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (!out.empty() && out.back().empty()) out.pop_back();  // ECB rows end with a comma
    return out;
}

}  // namespace

namespace {

/// The date of an ECB row: ISO in the history file (eurofxref-hist.csv: "2024-06-28"), day, English
/// month name and year in the daily file (eurofxref.csv: "28 June 2024", "03 June 2021").
Date ecb_date(std::string_view text, std::string_view field) {
    if (Date::is_date(text)) return Date::parse(text, field);
    static constexpr std::array<std::string_view, 12> months{"January", "February", "March",     "April",   "May",      "June",
                                                             "July",    "August",   "September", "October", "November", "December"};
    const std::size_t first = text.find(' '), last = text.rfind(' ');
    if (first != std::string_view::npos && first != last && first <= 2 && text.size() - last - 1 == 4) {
        int day = 0;
        const std::string_view day_text = text.substr(0, first);
        const auto [end, error] = std::from_chars(day_text.data(), day_text.data() + day_text.size(), day);
        const auto month = std::find(months.begin(), months.end(), text.substr(first + 1, last - first - 1));
        const std::string iso = fmt::format("{}-{:02}-{:02}", text.substr(last + 1), month - months.begin() + 1, day);
        if (error == std::errc() && end == day_text.data() + day_text.size() && month != months.end() && iso.size() == 10 &&
            Date::is_date(iso)) {
            return Date::parse(iso);
        }
    }
    fail(field, text, "must be a date that exists, as YYYY-MM-DD (eurofxref-hist.csv) or as 28 June 2024 (eurofxref.csv)");
}

}  // namespace

ExchangeRates ExchangeRates::from_ecb_csv(std::string_view text, std::string_view file) {
    std::vector<ExchangeRate> rates;
    std::vector<std::string_view> header;
    std::map<long long, std::size_t> line_of_day;  // a second row of one date would be a second rate
    std::size_t line_no = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        const std::vector<std::string_view> fields = split_fields(line);
        if (fields.empty()) continue;
        const std::string at = fmt::format("{}:{}", file, line_no);
        if (header.empty()) {
            require(fields[0] == "Date", at + ": column 1", fields[0], "must be \"Date\" (the ECB reference-rate CSV header)");
            header = fields;
            for (std::size_t c = 1; c < header.size(); ++c) {
                const std::string column = fmt::format("{}: column {}", at, c + 1);
                require_code(column, header[c]);
                require(header[c] != "EUR", column, header[c], "must not be EUR (the rates are per EUR)");
                const auto first = std::find(header.begin() + 1, header.begin() + static_cast<std::ptrdiff_t>(c), header[c]);
                require(first == header.begin() + static_cast<std::ptrdiff_t>(c), column, header[c],
                        fmt::format("appears twice (also column {})", first - header.begin() + 1));
            }
            continue;
        }
        require(fields.size() == header.size(), at, fields.size(),
                fmt::format("fields on the line, the header has {}", header.size()));
        const Date date = ecb_date(fields[0], at + ": Date");
        const auto [seen, fresh] = line_of_day.try_emplace(date.days_since_epoch(), line_no);
        require(fresh, at + ": Date", fields[0], fmt::format("a second row of the same date (line {})", seen->second));
        for (std::size_t c = 1; c < fields.size(); ++c) {
            if (fields[c] == "N/A" || fields[c].empty()) continue;
            double value = 0;
            const auto [ptr, ec] = std::from_chars(fields[c].data(), fields[c].data() + fields[c].size(), value);
            const std::string field = fmt::format("{}: {}", at, header[c]);
            require(ec == std::errc() && ptr == fields[c].data() + fields[c].size(), field, fields[c], "must be a number or N/A");
            require(std::isfinite(value) && value > 0, field, fields[c], "must be a finite rate > 0 (units per EUR)");
            rates.push_back(ExchangeRate{"EUR", std::string(header[c]), value, date,
                                         Source{fmt::format("ECB euro foreign exchange reference rates ({})", file),
                                                date.iso()}});
        }
    }
    require(!header.empty(), file, std::string_view(), "has no header line");
    return ExchangeRates(std::move(rates));
}

// ---------------------------------------------------------------------------------------------
// The built-in table
// ---------------------------------------------------------------------------------------------

const ExchangeRates& ExchangeRates::builtin() {
    // ECB euro reference rates of 2024-06-28 (eurofxref-daily.xml of that day): 1 EUR = 1.0705 USD,
    // 7.7748 CNY. USD/CNY follows as a cross rate through EUR. Add newer rates with merged_with().
    static const ExchangeRates table([] {
        const Source ecb{"ECB euro foreign exchange reference rates (eurofxref-daily.xml)", "2024-06-28"};
        const Date day{2024, 6, 28};
        return std::vector<ExchangeRate>{
            {"EUR", "USD", 1.0705, day, ecb},
            {"EUR", "CNY", 7.7748, day, ecb},
        };
    }());
    return table;
}

}  // namespace gputco
