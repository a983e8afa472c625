#pragma once
// Prices over time. An offering's list prices hold at the plan's first month; a PriceModel scales
// them month by month: scheduled, dated changes (AWS's June 2025 P4/P5 cut) and uncertain launches of
// a new GPU generation that lower the older GPUs' prices. A commitment keeps the reservation price of
// the month it was bought (the factor of its start month), so a cut leaves earlier reservations at
// their price.
//
//   PriceModel prices;
//   prices.start = "2025-01";
//   prices.changes.push_back(aws_june_2025_price_cut(catalog.offering("aws", "p4d.24xlarge")));
//   prices.launches.push_back({.probability = 0.5, .first_month = 12, .last_month = 24,
//                              .on_demand_factor = 0.8, .spot_factor = 0.7, .reserved_factor = 0.8});
//   const PricePaths paths = price_paths(prices, Horizon::years(3), 10'000, 42);
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "gputco/catalog/catalog.hpp"
#include "gputco/core/time.hpp"

namespace gputco {

/// From `date` ("YYYY-MM", the first of that month) on, prices are the list prices times these
/// factors (not compounded with earlier changes: each change states the level against the list).
struct PriceChange {
    std::string date;
    double on_demand_factor = 1;
    double spot_factor = 1;
    double reserved_factor = 1;  ///< applies to commitments bought from `date` on
    std::string source;
};

/// A new GPU generation that, with `probability`, launches in a month drawn uniformly from
/// [first_month, last_month] (0-based plan months) and from then on multiplies the older GPUs' prices
/// by these factors (on top of the scheduled level).
struct GenerationLaunch {
    double probability = 0;
    int first_month = 0;
    int last_month = 0;
    double on_demand_factor = 1;
    double spot_factor = 1;
    double reserved_factor = 1;
};

/// Prices over the plan's months: `start` names month 0 ("YYYY-MM"), needed when changes are dated.
struct PriceModel {
    std::string start;
    std::vector<PriceChange> changes;
    std::vector<GenerationLaunch> launches;
};

/// Price factors per month (rows) and future (columns; one column when every future shares them).
struct PricePaths {
    Eigen::ArrayXXd on_demand;
    Eigen::ArrayXXd spot;
    Eigen::ArrayXXd reserved;
    /// The 3-year reservation factor where it moves apart from `reserved` (months × futures like it;
    /// AWS cut 1- and 3-year Savings Plans by other percentages in June 2025). Empty: every term
    /// follows `reserved`.
    Eigen::ArrayXXd reserved_3y;
    /// Month each future's launches happened, −1 if not (launches × futures), for reports and tests.
    Eigen::ArrayXXi launch_month;
    bool empty() const { return on_demand.size() == 0; }
    /// The column of future f (the shared one when there is only one).
    Eigen::Index column(std::size_t future) const { return on_demand.cols() == 1 ? 0 : Eigen::Index(future); }
    /// The factor table of a commitment of `term_months`: reserved_3y for terms of 36 months or more when
    /// it is given, else reserved.
    const Eigen::ArrayXXd& reserved_for(int term_months) const {
        return term_months >= 36 && reserved_3y.size() > 0 ? reserved_3y : reserved;
    }
};

/// Throws InvalidInput naming prices.reserved_3y unless it is empty or shaped like on_demand.
void check_reserved_3y(const PricePaths& prices);

/// 0-based plan month of `date` ("YYYY-MM") when month 0 is `start`; throws InvalidInput naming `field`.
int month_index(std::string_view start, std::string_view date, std::string_view field);

/// The factors of `model` over `horizon` for `futures` futures; launches drawn from a stream that
/// depends only on (seed, future), so the paths are the same for any thread count and any plan.
/// Throws InvalidInput naming the field (probability outside [0, 1], months outside the horizon, a
/// factor not finite and > 0, a dated change without `start`).
PricePaths price_paths(const PriceModel& model, Horizon horizon, std::size_t futures, std::uint64_t seed);

/// One row of AWS's June 2025 GPU price cut as AWS published it (AWS News Blog, 2025-06-05, "Announcing
/// up to 45% price reduction for Amazon EC2 NVIDIA GPU-accelerated instances"): the reduction of each
/// purchase option from the 2025-05-31 price, on demand from 2025-06-01, Savings Plans bought after
/// 2025-06-04. nullopt where the table shows "–".
struct AwsJune2025Cut {
    std::string instance_type;
    double on_demand = 0;
    std::optional<double> instance_savings_plan_1y, instance_savings_plan_3y;
    std::optional<double> compute_savings_plan_1y, compute_savings_plan_3y;
};
/// The table's rows for the instance types the catalog holds: p4d.24xlarge, p4de.24xlarge,
/// p5.48xlarge, p5en.48xlarge.
const std::vector<AwsJune2025Cut>& aws_june_2025_cut_table();

/// AWS's June 2025 price cut (p4d.24xlarge $32.77 → $21.96/h, p4de.24xlarge −33%, p5.48xlarge $98.32 →
/// $55.04/h, p5en.48xlarge $84.80 → $63.296/h on demand) as a dated change of `offering` (one of the
/// table's instance types, us-east-1), the on-demand factor read from the built-in catalog's rows before
/// and after the cut. Commitments bought from the cut on: with `term_years` 1 or 3, the EC2 Instance
/// Savings Plan reduction AWS published for that term (the Compute Savings Plan one where the blog
/// gives no EC2 Instance figure); with 0, or where neither is published, the on-demand ratio (an
/// assumption the source names). Spot prices are left alone (they are a market, not a list).
PriceChange aws_june_2025_price_cut(const Offering& offering, int term_years = 0);

/// The same cut for a Savings Plan of `type` (aws_ec2_instance or aws_compute) and `term_years` (1 or
/// 3): its reserved factor is that purchase option's own published reduction, never another option's
/// (the table's cell; on demand as above). Throws InvalidInput where AWS published "–" for that cell.
PriceChange aws_june_2025_price_cut(const Offering& offering, SavingsPlanType type, int term_years);

/// The cell of the June 2025 table for a purchase option: on demand (no type) or a Savings Plan of
/// `type` and `term_years`; nullopt where the blog shows "–".
std::optional<double> aws_june_2025_reduction(const AwsJune2025Cut& row, std::optional<SavingsPlanType> type,
                                              int term_years);

}  // namespace gputco
