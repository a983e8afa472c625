#pragma once
// How spot instances get interrupted. Each model says how long one launched instance runs before
// the provider takes it back; ProviderRules adds what providers document on top (a notice period,
// a protection period after launch, a maximum lifetime).
//
//   Poisson{.mtbf_hours = 20}                                        // memoryless, rate 1/20 per hour
//   Weibull{.shape = 0.7, .scale_hours = 8}                          // hazard falls with instance age
//   Poisson{.mtbf_hours = 20, .rules = aws_rules()}                  // + 2-minute notice, emergency checkpoint
//   advisor_bucket(2)                                                // AWS Spot Advisor "10-15%"
//   Trace::from_node_events(text)                                    // replay measured lifetimes
//   PriceDriven{.reversion_per_hour = 0.1, .volatility_per_sqrt_hour = 0.1, .price_cap_per_hour = 1.5}
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gputco {

/// Provider behaviour around an interruption. The defaults mean "none of these".
struct ProviderRules {
    /// Warning given before the instance is taken back (AWS 2 min, GCP 30 s, Alibaba 5 min), >= 0.
    double notice_hours = 0;
    /// On notice, write a checkpoint of the work done since the last one if the write (delta) fits
    /// in the notice; the instance is released once it is written. Without it the notice is unused.
    bool emergency_checkpoint = false;
    /// No interruption during the first hours after launch (Alibaba spot: 1 h), >= 0.
    double protection_hours = 0;
    /// The provider stops every instance at this age (GCP preemptible VMs: 24 h), > 0; infinity = none.
    double max_lifetime_hours = std::numeric_limits<double>::infinity();

    /// Throws InvalidInput, e.g. "rules.notice_hours = -1: must be finite and >= 0".
    void validate() const;
};

/// AWS spot: 2-minute interruption notice, emergency checkpoint when it fits.
ProviderRules aws_rules();
/// GCP preemptible VM: 30-second notice, emergency checkpoint when it fits, stopped at 24 h.
ProviderRules gcp_preemptible_rules();
/// Alibaba Cloud spot: 5-minute notice, emergency checkpoint when it fits, 1-hour protection period.
ProviderRules alibaba_rules();

/// Interruptions as a Poisson process over running time: exponential lifetimes, mean mtbf_hours.
/// The model of the closed forms in checkpoint.hpp.
struct Poisson {
    double mtbf_hours = 0;  ///< mean time between interruptions, > 0
    ProviderRules rules{};
};

/// Instance lifetime Weibull(shape k, scale lambda) in time since launch: k < 1 means young instances
/// are the likeliest to be taken back, k = 1 is Poisson with MTBF = scale.
struct Weibull {
    double shape = 1;        ///< k > 0
    double scale_hours = 0;  ///< lambda > 0; mean lifetime = lambda Gamma(1 + 1/k)
    ProviderRules rules{};
};

/// Replay of measured instance lifetimes: each launch draws one lifetime uniformly at random (with
/// replacement) from `lifetimes_hours` (a bootstrap of the empirical distribution).
struct Trace {
    std::vector<double> lifetimes_hours;  ///< each finite and > 0, at least one
    std::string source;                   ///< where the lifetimes come from
    std::size_t censored_count = 0;       ///< instances still running when the trace ended (not in the list)
    ProviderRules rules{};

    /// One lifetime in hours per line; blank lines and lines starting with '#' are skipped.
    /// Throws InvalidInput for a malformed line ("trace line 3 = \"abc\": must be a number"),
    /// a lifetime that is not finite and > 0, or no lifetime at all.
    static Trace parse_lifetimes(std::string_view text, std::string source = {});

    /// Node add/remove events "time,add|remove,node" (the format of the Parcae traces, NSDI'24, whose
    /// times are milliseconds): each node's lifetime is from its add to its remove, in hours =
    /// time units * hours_per_time_unit. Nodes never removed are counted in censored_count and left
    /// out, which biases the replay towards short lifetimes (a pessimistic spot estimate).
    /// Blank lines and '#' lines are skipped. Throws InvalidInput for a malformed line, time going
    /// backwards, add of a running node, remove of an unknown node, or no completed lifetime.
    static Trace from_node_events(std::string_view text, double hours_per_time_unit = 1.0 / 3.6e6,
                                  std::string source = {});

    /// Reads a file: node events (times in milliseconds) when its first data line has three
    /// comma-separated fields, otherwise one lifetime in hours per line. The source is the path.
    static Trace load(const std::string& path);

    double mean_lifetime_hours() const;
    void validate() const;
};

/// The spot price follows a mean-reverting log-price (Ornstein-Uhlenbeck) around the quoted price:
///   price(t) = pricing.price_per_hour * exp(X(t)),  dX = -kappa X dt + sigma dW,
/// sampled exactly on a grid of step_hours and held constant within a step; X(0) is drawn from the
/// stationary law N(0, sigma^2 / (2 kappa)), so E[price] = price_per_hour * exp(sigma^2 / (4 kappa)).
/// The instance is stopped (the notice and emergency checkpoint of `rules` apply) at the first grid
/// point where price > price_cap_per_hour, and relaunched at the first grid point, after the capacity
/// wait, where price <= cap. Cost integrates the price actually paid.
struct PriceDriven {
    double reversion_per_hour = 0.1;         ///< kappa > 0
    double volatility_per_sqrt_hour = 0.1;   ///< sigma >= 0
    double price_cap_per_hour = std::numeric_limits<double>::infinity();  ///< > quoted price; infinity = never stop
    double step_hours = 1.0 / 12;            ///< price grid (5 min), > 0
    ProviderRules rules{};

    void validate() const;
};

/// The interruption models simulate_spot() accepts.
using InterruptionModel = std::variant<Poisson, Weibull, Trace, PriceDriven>;

/// Throws InvalidInput for the first invalid field of whichever model is held.
void validate(const InterruptionModel& model);

/// Monthly interruption fraction p (share of instances interrupted within a month of 730 running
/// hours) -> MTBF under a Poisson model: p = 1 - exp(-730 / M), so M = -730 / ln(1 - p).
/// p must be in (0, 1).
double mtbf_from_monthly_interruption_fraction(double fraction);

/// Representative monthly interruption fraction of an AWS Spot Instance Advisor bucket: the midpoint
/// of 0 "<5%", 1 "5-10%", 2 "10-15%", 3 "15-20%"; 0.25 for 4 ">20%" (an assumption: the bucket is
/// open-ended). So 0.025, 0.075, 0.125, 0.175, 0.25.
double advisor_bucket_fraction(int bucket_index);

/// Poisson model of an AWS Spot Advisor bucket (0..4) via mtbf_from_monthly_interruption_fraction()
/// of advisor_bucket_fraction(), with `rules` (AWS by default). Bucket 2 (12.5%) gives M = 5,467 h.
Poisson advisor_bucket(int bucket_index, const ProviderRules& rules = aws_rules());

}  // namespace gputco
