#pragma once
// The ranges every input must lie in. Chosen so that every valid input gives finite results: the
// largest cost the library can form is GPUs × price × hours ≤ 1e9 × 1e12 × 876,000 ≈ 1e27, far below
// the largest double (1.8e308), and every loop is bounded by a count known before it starts.
// Each is far beyond any real plan; an input past one is a mistake (a unit slip, a wrong column).
#include <cstddef>

namespace gputco::limits {

/// Longest horizon: 100 years (876,000 hours, 7 MB per hourly demand profile).
inline constexpr int max_horizon_months = 1200;
inline constexpr int max_horizon_years = max_horizon_months / 12;
/// GPUs needed in one hour, fleet sizes and GPU counts of a plan.
inline constexpr double max_gpus = 1e9;
/// Demand models (DemandModel): monthly log growth in [-1, 1] and monthly log volatility in [0, 1] —
/// a factor of e ≈ 2.7 in one month; more is a percentage typed as a number (2 for 2%). Seasonality
/// and hour-of-week factors at most 1e3 (a month's mean is 1; one busy hour of 730 is 730).
inline constexpr double max_monthly_log_growth = 1.0;
inline constexpr double max_monthly_log_volatility = 1.0;
inline constexpr double max_demand_factor = 1e3;
/// GPUs in one instance an offering sells: a GB200 NVL72 rack is one unit of 72; the limit leaves
/// room for larger scale-up domains (NVL576) while catching a GPU count typed in place of an instance's.
inline constexpr int max_gpus_per_instance = 1024;
/// Any amount of money per unit: a price per hour, a capex per GPU, a monthly fee.
inline constexpr double max_money = 1e12;
/// Any duration given in hours: work, checkpoint intervals and writes, restarts, waits, MTBFs.
inline constexpr double max_hours = 1e9;
/// The shortest duration that must be > 0 (work, checkpoint intervals, MTBFs): 3.6 µs. With
/// max_hours it keeps every ratio of two durations within 1e18, so segment counts fit in 64 bits.
inline constexpr double min_hours = 1e-9;
/// Mean time between interruptions: a huge one is the usual way to say "never interrupted", so it may
/// exceed max_hours; up to 1e30 keeps segment/MTBF ratios (>= 1e-39) far from underflow.
inline constexpr double max_mtbf_hours = 1e30;
/// The smallest positive on-demand price per hour (0 = free is allowed). On-demand prices divide
/// break-even utilisation and effective discounts; with the factor limits below every such ratio
/// stays far inside a double.
inline constexpr double min_on_demand_price = 1e-6;
/// Region price factor and voucher price factor: at least 1e-3 (at most 1e3 and 1).
inline constexpr double min_price_factor = 1e-3;
/// Yearly NPV discount rate, as a fraction. Bounded away from -1, where (1 + r)^(-months/12)
/// overflows; the bounds also catch a percentage typed as a number (5 for 5%).
inline constexpr double min_annual_discount_rate = -0.5;
inline constexpr double max_annual_discount_rate = 1.0;
/// The smallest used GPU-hours or baseline cost a ratio divides by: below it (3.6 ns of one GPU, a
/// trillionth of a currency unit) there is nothing to state a ratio against, and total / used hours or
/// savings / baseline could exceed a double (up to 1e27 / 1e-12 = 1e39 is fine).
inline constexpr double min_ratio_divisor = 1e-12;
/// Power per GPU in watts (a whole rack is ~1e5 W).
inline constexpr double max_watts = 1e7;
/// Catalog files: bytes of JSON text, rows of `gpus` or `offerings`, nesting depth of objects/arrays.
inline constexpr std::size_t max_catalog_bytes = std::size_t(16) << 20;  // 16 MiB
inline constexpr std::size_t max_catalog_rows = 100'000;
inline constexpr int max_json_depth = 32;

}  // namespace gputco::limits
