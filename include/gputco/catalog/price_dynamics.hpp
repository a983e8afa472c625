#pragma once
// Prices that move both ways: a stochastic model of an offering's log prices, month by month, per
// purchase option. Each option's log price is a mean-reverting (Ornstein–Uhlenbeck) process around a
// drifting level, with compound-Poisson jumps of either sign (list-price cuts and rises); spot and the
// 1- and 3-year reservations move as spreads over on-demand with their own dynamics, spot's shocks
// correlated with on-demand's; generation launches (price_schedule.hpp) lower the level on top.
// The output is the plan engine's PricePaths, so evaluate_plan, the recommender and sweeps take it.
//
//   PriceDynamics d;
//   d.on_demand = {.reversion = 0.05, .volatility = 0.02, .jump_rate = 0.1, .jump_mean = -0.05, .jump_sd = 0.2};
//   d.spot_spread = {.reversion = 0.3, .volatility = 0.08};
//   d.spot_correlation = 0.5;
//   const PricePaths paths = simulate_price_paths(d, Horizon::years(3), 10'000, 42, 1);
#include <cstddef>
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "gputco/catalog/price_schedule.hpp"
#include "gputco/core/time.hpp"

namespace gputco {

/// One log price x (or log spread) in monthly steps, from x₀ = 0 (today's price on its level):
///   θₘ = drift · m                                   (the level)
///   xₘ₊₁ = θₘ₊₁ + φ (xₘ − θₘ) + ηₘ + Jₘ,   φ = e^(−reversion)
///   ηₘ ~ N(0, volatility² (1 − φ²) / (2 reversion))   (the exact OU step; volatility² when reversion = 0)
///   Jₘ = sum of Nₘ ~ Poisson(jump_rate) jumps, each ~ N(jump_mean, jump_sd²)
/// A jump moves the price and then decays towards the level at the reversion rate (with a small
/// reversion, list-price changes persist for years: half-life ln 2 / reversion months).
struct LogPriceProcess {
    double reversion = 0;   ///< κ, per month, ≥ 0
    double volatility = 0;  ///< σ, log price per √month, ≥ 0
    double drift = 0;       ///< g, log level per month (−0.01 ≈ the level falls 1% a month)
    double jump_rate = 0;   ///< λ, jumps per month, ≥ 0
    double jump_mean = 0;   ///< μ_J, mean log jump (−0.3 ≈ a 26% cut)
    double jump_sd = 0;     ///< s_J, standard deviation of a log jump, ≥ 0
};

/// The model of one offering. Factors are relative to month 0's list prices:
///   on-demand  = exp(x_od),  spot = exp(x_od + x_spot),  reservation of term k = exp(x_od + x_k)
/// and launches multiply them on top as in price_paths(). A reservation keeps the factor of the month
/// it was bought (the plan engine's rule).
struct PriceDynamics {
    LogPriceProcess on_demand;
    LogPriceProcess spot_spread;         ///< log(spot factor / on-demand factor)
    double spot_correlation = 0;         ///< ρ of the spot spread's OU shock with on-demand's, in [−1, 1]
    LogPriceProcess reserved_1y_spread;  ///< log(1-year reservation factor / on-demand factor)
    LogPriceProcess reserved_3y_spread;  ///< log(3-year reservation factor / on-demand factor)
    std::vector<GenerationLaunch> launches;
};

/// Throws InvalidInput naming `field`.<member> unless every member is finite and the rates, volatility
/// and jump sd are ≥ 0.
void validate(const LogPriceProcess& process, std::string_view field);

/// `paths` (months × paths) of one process's log price: column j starts from `initial_deviation`
/// (x₀ − θ₀; 0 = on its level) and uses a stream that depends only on (seed, j).
Eigen::ArrayXXd simulate_log_prices(const LogPriceProcess& process, int months, std::size_t paths, std::uint64_t seed,
                                    double initial_deviation = 0);

/// The same with path j following processes[j] (paths = processes.size()), e.g. parameter sets drawn
/// from a fit's uncertainty (price_fit.hpp, draw_processes); column j's stream is (seed, j), as above.
Eigen::ArrayXXd simulate_log_prices(const std::vector<LogPriceProcess>& processes, int months, std::uint64_t seed,
                                    double initial_deviation = 0);

/// PricePaths of `dynamics` over `horizon` for `futures` futures; `reserved` carries the factor of
/// `term_years` (1 or 3), or with term_years = 0 both terms: `reserved` the 1-year factor and
/// `reserved_3y` the 3-year one (the plan engine prices each commitment at its term's factor). The
/// on-demand, spot and 1-year factors are the same numbers whichever is asked (the 3-year spread then
/// draws from streams of its own). Future f's numbers depend only on (seed, f) (its block's normal and jump
/// sequences: docs/models.md, "Random numbers"), so results are the same for any `threads`
/// (0 = hardware concurrency), any number of futures, any instruction set and any plan. Month 0's
/// factors are 1 (before any launch in month 0).
PricePaths simulate_price_paths(const PriceDynamics& dynamics, Horizon horizon, std::size_t futures,
                                std::uint64_t seed, int term_years, unsigned threads = 1);

/// The same, written into `out`: a caller drawing again and again keeps one PricePaths, whose memory is
/// reused when the shape is unchanged (no allocation, no first touch of fresh pages). The numbers are
/// those of the call above, bit for bit.
void simulate_price_paths(const PriceDynamics& dynamics, Horizon horizon, std::size_t futures, std::uint64_t seed,
                          int term_years, PricePaths& out, unsigned threads = 1);

/// The same with a parameter set per future (e.g. draws from a fit's uncertainty, price_fit.hpp's
/// draw_dynamics): future f follows per_future[f mod per_future.size()], its numbers depending only on
/// (seed, f) and that set. Every part draws its shocks here (a block's sequence may not depend on its
/// futures' parameters), so equal sets give the shared call's numbers only when every component has a
/// volatility. Launches are per_future[0]'s; the others' must be empty. Throws InvalidInput naming
/// per_future[i].<field>.
void simulate_price_paths(const std::vector<PriceDynamics>& per_future, Horizon horizon, std::size_t futures,
                          std::uint64_t seed, int term_years, PricePaths& out, unsigned threads = 1);

/// The hourly price for years 2–3 implied when a provider publishes both a 1-year price p₁ and a
/// 3-year price p₃ (per hour, for the same capacity): 3 p₃ = p₁ + 2 f, so f = (3 p₃ − p₁) / 2. A
/// forward below today's 1-year price says the provider expects prices to fall. Throws InvalidInput
/// unless both are > 0.
double implied_forward_hourly(double one_year_hourly, double three_year_hourly);

}  // namespace gputco
