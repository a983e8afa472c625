#pragma once
// Fitting a LogPriceProcess (price_dynamics.hpp) to monthly log prices by maximum likelihood.
//
// Method. Each series is one offering's monthly log price (or log spread) with its level starting at
// its first month, θₘ = x₀ + g m. Given xₘ, the next month is a Poisson mixture of normals (the
// model's exact monthly transition):
//   xₘ₊₁ − θₘ₊₁ | xₘ  ~  Σₙ Poisson(n; λ) · N(φ (xₘ − θₘ) + n μ_J,  v + n s_J²),  v = σ² (1 − φ²)/(2κ)
// (n up to max_jumps_per_month). The log-likelihood of all transitions of all series (one shared
// parameter set: a GPU generation's offerings pooled) is maximised by Nelder–Mead on unconstrained
// transforms (log κ, log(σ − σ_min), g, log λ, μ_J, log s_J); standard errors are the square roots
// of the diagonal of the inverse observed information (the negative Hessian of the log-likelihood in
// the natural parameters, by central differences). A parameter at its bound (κ or λ → 0, σ → σ_min)
// has no standard error (NaN).
//
//   const ProcessFit fit = fit_log_price_process({series_a, series_b});
//   fit.process.jump_rate;  fit.standard_error.jump_rate;
#include <limits>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "gputco/catalog/price_dynamics.hpp"
#include "gputco/core/date.hpp"

namespace gputco {

struct FitOptions {
    /// σ's lower bound, log price per √month. List prices are quoted in cents and hold for months, so
    /// below about 0.1% a month the diffusion cannot be told from quoting; the bound keeps the
    /// likelihood finite when a series does not move between jumps.
    double min_volatility = 1e-3;
    int max_jumps_per_month = 4;  ///< terms of the Poisson mixture, in [1, 20]
    bool jumps = true;            ///< false fits a pure OU with drift (λ = 0), e.g. for spot spreads
    int max_iterations = 4000;    ///< Nelder–Mead iterations, ≥ 100
    /// κ held at this value (≥ 0) instead of fitted; its standard error is then 0.
    std::optional<double> fixed_reversion;
};

struct ProcessFit {
    LogPriceProcess process;         ///< the estimates
    LogPriceProcess standard_error;  ///< per parameter, NaN where not identified (at a bound)
    /// Inverse observed information over (κ, σ, g, λ, μ_J, s_J) in that order; rows and columns of a
    /// parameter without a standard error are 0 (held or at a bound: not drawn by draw_processes).
    Eigen::Matrix<double, 6, 6> covariance = Eigen::Matrix<double, 6, 6>::Zero();
    double log_likelihood = 0;
    std::size_t transitions = 0;     ///< monthly transitions used
    std::size_t series = 0;          ///< series with at least one transition
};

/// Maximum-likelihood fit of one process shared by `series` (each a run of monthly log values; series
/// with fewer than 2 months are skipped). Throws InvalidInput naming the field when a value is not
/// finite, an option is out of range, or fewer than 8 transitions remain.
ProcessFit fit_log_price_process(const std::vector<std::vector<double>>& series, const FitOptions& options = {});

/// Parameter uncertainty carried into paths: `count` parameter sets, set j drawn from fits[j mod
/// fits.size()]'s approximate posterior (the normal of its estimate and covariance, with κ, σ, λ and
/// s_J log-normal by the delta method, so they stay > 0; g and μ_J normal). Parameters without a
/// standard error keep their estimate. With several fits (one per past period, fit_by_period) the sets
/// also carry how the dynamics moved between periods. Set j depends only on (seed, j). Throws
/// InvalidInput naming `fits` when it is empty.
std::vector<LogPriceProcess> draw_processes(const std::vector<ProcessFit>& fits, std::size_t count, std::uint64_t seed);

/// `count` PriceDynamics drawn from `fit`'s uncertainty: each component by draw_processes on its own
/// fit (components with no standard errors keep their estimates), the spot correlation and launches as
/// fitted. Set j depends only on (seed, j). For simulate_price_paths' per-future overload.
std::vector<PriceDynamics> draw_dynamics(const struct DynamicsFit& fit, std::size_t count, std::uint64_t seed);

/// One fit per period of `period_months` months (months counted from `first_month[s]` of each series,
/// periods aligned on the earliest month), each on the parts of the series inside it; periods with fewer
/// than 8 transitions are skipped. Throws InvalidInput when series and first_month differ in length or
/// period_months < 3.
std::vector<ProcessFit> fit_by_period(const std::vector<std::vector<double>>& series, const std::vector<int>& first_month,
                                      int period_months, const FitOptions& options = {});

/// The log-likelihood fit_log_price_process maximises, for `process` (exposed for tests and profiles).
double log_likelihood(const LogPriceProcess& process, const std::vector<std::vector<double>>& series,
                      int max_jumps_per_month = 4);

/// A dated price of one series (one offering and purchase option).
struct PriceObservation {
    std::string series;  ///< e.g. "aws/us-east-1/p4d.24xlarge/on_demand"
    Date date;
    double price = 0;    ///< > 0
};

/// Monthly log prices of each series: month k's value is the last observation in or before month k
/// (list prices hold until changed), from the month of the first observation to the month of the last.
/// With `until`, observations on or after it are ignored (a forecast made then sees only the past) and
/// a series runs to the month before `until`'s if it was observed that long: the files record every
/// change, so a price with no later change is still in force. Series come in order of first
/// appearance. Throws InvalidInput naming observations[i].price when a price is not finite and > 0.
struct MonthlySeries {
    std::string name;
    Date first_month;            ///< the 1st of month 0
    std::vector<double> log_price;
};
std::vector<MonthlySeries> monthly_log_series(const std::vector<PriceObservation>& observations,
                                              const std::optional<Date>& until = std::nullopt);

/// One row of a price-history file (data/price_history/*.csv, columns date, provider, region,
/// instance_type, gpu, option, usd_per_hour, source_repo, source_path, source_commit): the observation's
/// series is "provider/region/instance_type"; option is on_demand, spot, reserved_1y or reserved_3y.
struct PriceRecord {
    PriceObservation observation;
    std::string gpu;
    std::string option;
    std::string source;  ///< "repo path commit", as the file gives them
};

/// The rows of a price-history CSV file. Throws InvalidInput naming the file, line and column when a
/// column is missing, a date or price does not parse, or an option is not one of the four.
std::vector<PriceRecord> read_price_history_csv(const std::string& path);

/// A PriceDynamics fitted to one GPU family's records: on-demand on the on-demand log prices, the spot
/// and reservation spreads on log(option price / on-demand price) over the months both are known,
/// each by fit_log_price_process; spot_correlation is the correlation of the monthly changes of
/// on-demand and of the spot spread (0 when either does not move). A component with fewer than 8
/// monthly transitions stays at zero (no movement) with transitions < 8 and NaN standard errors.
/// On-demand and the reservation spreads are list prices: where their κ is not identified (the fit
/// ends at κ's upper bound: no series is observed long after its jumps) they are fitted again with
/// κ = 0, "a list price holds until changed", and `notes` says so.
struct DynamicsFit {
    PriceDynamics dynamics;
    ProcessFit on_demand, spot_spread, reserved_1y_spread, reserved_3y_spread;
    std::vector<std::string> notes;
    double spot_correlation_standard_error = std::numeric_limits<double>::quiet_NaN();
};
DynamicsFit fit_price_dynamics(const std::vector<PriceRecord>& records, std::string_view gpu,
                               const FitOptions& options = {}, const std::optional<Date>& until = std::nullopt);

}  // namespace gputco
