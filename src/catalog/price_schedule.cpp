// Prices over time (see price_schedule.hpp).
#include "gputco/catalog/price_schedule.hpp"

#include <algorithm>
#include <charconv>

#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "gputco/core/random.hpp"

namespace gputco {
namespace {

/// Months since year 0 of "YYYY-MM".
int absolute_month(std::string_view date, std::string_view field) {
    int year = 0, month = 0;
    const bool shaped = date.size() == 7 && date[4] == '-';
    const bool parsed = shaped && std::from_chars(date.data(), date.data() + 4, year).ec == std::errc{} &&
                        std::from_chars(date.data() + 5, date.data() + 7, month).ec == std::errc{};
    require(parsed && month >= 1 && month <= 12, field, date, "must be a month written YYYY-MM");
    return year * 12 + month - 1;
}

void require_factor(const std::string& field, double factor) { require_positive(field, factor); }

}  // namespace

int month_index(std::string_view start, std::string_view date, std::string_view field) {
    return absolute_month(date, field) - absolute_month(start, "price_model.start");
}

void check_reserved_3y(const PricePaths& prices) {
    if (prices.reserved_3y.size() == 0) return;
    require(prices.reserved_3y.rows() == prices.on_demand.rows() && prices.reserved_3y.cols() == prices.on_demand.cols(),
            "prices.reserved_3y", fmt::format("{} x {}", prices.reserved_3y.rows(), prices.reserved_3y.cols()),
            fmt::format("must be {} x {} (months x futures, as on_demand) or empty", prices.on_demand.rows(),
                        prices.on_demand.cols()));
}

PricePaths price_paths(const PriceModel& model, Horizon horizon, std::size_t futures, std::uint64_t seed) {
    require(futures >= 1, "futures", futures, "must be >= 1");
    const int months = horizon.month_count();
    // The scheduled level, shared by every future.
    Eigen::ArrayXd on_demand = Eigen::ArrayXd::Ones(months), spot = on_demand, reserved = on_demand;
    std::vector<std::pair<int, const PriceChange*>> dated;
    for (std::size_t i = 0; i < model.changes.size(); ++i) {
        const PriceChange& c = model.changes[i];
        const std::string field = fmt::format("price_model.changes[{}]", i);
        require(!model.start.empty(), "price_model.start", model.start, "must be set (YYYY-MM) when changes are dated");
        require_factor(field + ".on_demand_factor", c.on_demand_factor);
        require_factor(field + ".spot_factor", c.spot_factor);
        require_factor(field + ".reserved_factor", c.reserved_factor);
        dated.emplace_back(month_index(model.start, c.date, field + ".date"), &c);
    }
    std::stable_sort(dated.begin(), dated.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [first, change] : dated) {
        for (int m = std::max(first, 0); m < months; ++m) {
            on_demand[m] = change->on_demand_factor;
            spot[m] = change->spot_factor;
            reserved[m] = change->reserved_factor;
        }
    }
    for (std::size_t i = 0; i < model.launches.size(); ++i) {
        const GenerationLaunch& l = model.launches[i];
        const std::string field = fmt::format("price_model.launches[{}]", i);
        require_fraction(field + ".probability", l.probability);
        require(l.first_month >= 0 && l.first_month < months, field + ".first_month", l.first_month,
                fmt::format("must be in [0, {}) (the horizon's months)", months));
        require(l.last_month >= l.first_month && l.last_month < months, field + ".last_month", l.last_month,
                fmt::format("must be in [first_month, {}) (the horizon's months)", months));
        require_factor(field + ".on_demand_factor", l.on_demand_factor);
        require_factor(field + ".spot_factor", l.spot_factor);
        require_factor(field + ".reserved_factor", l.reserved_factor);
    }

    PricePaths paths;
    const Eigen::Index columns = model.launches.empty() ? 1 : Eigen::Index(futures);
    paths.on_demand = on_demand.replicate(1, columns);
    paths.spot = spot.replicate(1, columns);
    paths.reserved = reserved.replicate(1, columns);
    paths.launch_month = Eigen::ArrayXXi::Constant(Eigen::Index(model.launches.size()), Eigen::Index(futures), -1);
    for (std::size_t f = 0; f < futures && !model.launches.empty(); ++f) {
        Xoshiro256pp engine(splitmix64(seed ^ splitmix64(f)));
        for (std::size_t i = 0; i < model.launches.size(); ++i) {
            const GenerationLaunch& l = model.launches[i];
            const bool happens = boost::random::uniform_01<double>()(engine) < l.probability;
            const int month = boost::random::uniform_int_distribution<int>(l.first_month, l.last_month)(engine);
            if (!happens) continue;
            paths.launch_month(Eigen::Index(i), Eigen::Index(f)) = month;
            const Eigen::Index col = Eigen::Index(f), tail = months - month;
            paths.on_demand.col(col).tail(tail) *= l.on_demand_factor;
            paths.spot.col(col).tail(tail) *= l.spot_factor;
            paths.reserved.col(col).tail(tail) *= l.reserved_factor;
        }
    }
    return paths;
}

const std::vector<AwsJune2025Cut>& aws_june_2025_cut_table() {
    // Cells as the blog's table gives them, in its order (P4d and P4de share a row of the table).
    static const std::vector<AwsJune2025Cut> table{
        {"p4d.24xlarge", 0.33, 0.31, 0.25, 0.31, std::nullopt},
        {"p4de.24xlarge", 0.33, 0.31, 0.25, 0.31, std::nullopt},
        {"p5.48xlarge", 0.44, std::nullopt, 0.45, 0.44, 0.25},
        {"p5en.48xlarge", 0.25, std::nullopt, 0.26, 0.25, std::nullopt},
    };
    return table;
}

PriceChange aws_june_2025_price_cut(const Offering& offering, int term_years) {
    const auto& table = aws_june_2025_cut_table();
    const auto row = std::find_if(table.begin(), table.end(),
                                  [&](const AwsJune2025Cut& r) { return r.instance_type == offering.instance_type; });
    const bool known = offering.provider == "aws" && offering.region == "us-east-1" && row != table.end();
    require(known, "offering", offering.key(),
            "the June 2025 cut is recorded for aws/us-east-1 p4d.24xlarge, p4de.24xlarge, p5.48xlarge and p5en.48xlarge only");
    require(term_years == 0 || term_years == 1 || term_years == 3, "term_years", term_years, "must be 0, 1 or 3");
    // Both prices are dated rows of the built-in catalog's history for this offering.
    const Offering& listed = Catalog::builtin().offering("aws", offering.instance_type, "us-east-1");
    const Offering before = listed.price_at(Date::parse("2025-05-31", "date"));
    const Offering after = listed.price_at(Date::parse("2025-06-01", "date"));
    PriceChange cut;
    cut.date = "2025-06";
    cut.on_demand_factor = after.on_demand_hourly / before.on_demand_hourly;
    const std::optional<double> instance_plan = term_years == 1 ? row->instance_savings_plan_1y : row->instance_savings_plan_3y;
    const std::optional<double> compute_plan = term_years == 1 ? row->compute_savings_plan_1y : row->compute_savings_plan_3y;
    std::string reserved;
    if (term_years != 0 && (instance_plan || compute_plan)) {
        const double reduction = instance_plan ? *instance_plan : *compute_plan;
        cut.reserved_factor = 1 - reduction;
        reserved = fmt::format("{}-year commitments bought from then on {:g}% lower ({} Savings Plan, AWS News Blog 2025-06-05)",
                               term_years, reduction * 100, instance_plan ? "EC2 Instance" : "Compute");
    } else {
        cut.reserved_factor = cut.on_demand_factor;
        reserved = term_years == 0 ? "reservations bought from then on at the same ratio (no term given)"
                                   : fmt::format("{}-year reservations at the same ratio (AWS published no {}-year Savings Plan cut for {})",
                                                 term_years, term_years, offering.instance_type);
    }
    cut.source = fmt::format("{}: on-demand {} → {} USD/h ({}, {}); {}; spot unchanged", offering.instance_type,
                             before.on_demand_hourly, after.on_demand_hourly, after.source.name, after.source.as_of, reserved);
    return cut;
}

std::optional<double> aws_june_2025_reduction(const AwsJune2025Cut& row, std::optional<SavingsPlanType> type,
                                              int term_years) {
    if (!type) return row.on_demand;
    require(*type == SavingsPlanType::aws_ec2_instance || *type == SavingsPlanType::aws_compute, "type", to_text(*type),
            "the June 2025 table has aws_ec2_instance and aws_compute Savings Plans only");
    require(term_years == 1 || term_years == 3, "term_years", term_years, "must be 1 or 3");
    if (*type == SavingsPlanType::aws_ec2_instance)
        return term_years == 1 ? row.instance_savings_plan_1y : row.instance_savings_plan_3y;
    return term_years == 1 ? row.compute_savings_plan_1y : row.compute_savings_plan_3y;
}

PriceChange aws_june_2025_price_cut(const Offering& offering, SavingsPlanType type, int term_years) {
    PriceChange cut = aws_june_2025_price_cut(offering, 0);  // checks the offering; on demand from the catalog
    const auto& table = aws_june_2025_cut_table();
    const auto row = std::find_if(table.begin(), table.end(),
                                  [&](const AwsJune2025Cut& r) { return r.instance_type == offering.instance_type; });
    const std::optional<double> reduction = aws_june_2025_reduction(*row, type, term_years);
    require(reduction.has_value(), "type", to_text(type),
            fmt::format("AWS published no {}-year {} Savings Plan reduction for {} in June 2025", term_years,
                        type == SavingsPlanType::aws_ec2_instance ? "EC2 Instance" : "Compute", offering.instance_type));
    cut.reserved_factor = 1 - *reduction;
    cut.source = fmt::format("{}: on-demand factor {:.6g}; {}-year {} Savings Plans bought from then on {:g}% lower "
                             "(AWS News Blog 2025-06-05); spot unchanged",
                             offering.instance_type, cut.on_demand_factor, term_years,
                             type == SavingsPlanType::aws_ec2_instance ? "EC2 Instance" : "Compute", *reduction * 100);
    return cut;
}

}  // namespace gputco
