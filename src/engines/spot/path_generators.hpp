#pragma once
// Path generators, one per interruption model: each draws from a lane's random stream when the
// instance of a launch is taken back. Lifetime models give one lifetime per launch; the price-driven
// model gives the spot price on its grid, generated as far as a path reads it.
#include <cmath>
#include <cstddef>
#include <vector>

#include <boost/random/normal_distribution.hpp>

#include "gputco/core/random.hpp"
#include "gputco/engines/interruption.hpp"
#include "spot_lanes.hpp"

namespace gputco::spot {

using Engine = Xoshiro256pp;

/// Exp(1) variates of the lane kernels' rectangle-wedge-tail tables, in their blocks:
/// exponential_block_size words, then the block's draws that fell in the remainder finished from the
/// words after it, in order (spot_lanes.hpp), so that a lane's scalar loop and its lane kernel draw the
/// same variates, bit for bit.
class ExponentialBlock {
public:
    double operator()(Engine& e) {
        if (next_ == detail::exponential_block_size) fill(e);
        return block_[next_++];
    }

private:
    void fill(Engine& e) {
        for (double& x : block_) {
            const std::uint64_t random = e.next_plus();
            x = detail::exponential_point<double>(random, tables_->width[detail::exponential_slot(random)]);
        }
        for (double& x : block_)
            if (x == 0.0) x = detail::exponential_remainder(*tables_, [&e] { return e.next_plus(); });
        next_ = 0;
    }

    const detail::ExponentialTables* tables_ = &detail::exponential_tables();
    double block_[detail::exponential_block_size] = {};
    std::size_t next_ = detail::exponential_block_size;
};

/// Poisson: an Exp(MTBF) lifetime, MTBF times an Exp(1) variate (so the scalar loops and the lane
/// kernels draw the same lifetimes, bit for bit). Stateful: one per lane's stream.
struct PoissonLifetimes {
    double mtbf;
    ExponentialBlock exponentials{};
    explicit PoissonLifetimes(const Poisson& m) : mtbf(m.mtbf_hours) {}
    double operator()(Engine& e) { return exponentials(e) * mtbf; }
};

/// Weibull in time since launch: lambda E^(1/k) of an Exp(1) variate E, by the lane kernels' own
/// logarithm and exponential (the same lifetimes as the lane kernels, bit for bit). Stateful: one per
/// lane's stream.
struct WeibullLifetimes {
    double scale, inv_shape;
    ExponentialBlock exponentials{};
    explicit WeibullLifetimes(const Weibull& m) : scale(m.scale_hours), inv_shape(1.0 / m.shape) {}
    double operator()(Engine& e) { return detail::weibull_of_exponential<double>(exponentials(e), scale, inv_shape); }
    detail::LifetimeLaw law() const {
        return {.kind = detail::LifetimeLaw::Kind::weibull, .scale = scale, .inv_shape = inv_shape};
    }
};

/// Trace replay: a lifetime picked uniformly from the observed ones (the lane kernels' pick).
struct TraceLifetimes {
    const double* lifetimes;
    double count;
    explicit TraceLifetimes(const Trace& m)
        : lifetimes(m.lifetimes_hours.data()), count(static_cast<double>(m.lifetimes_hours.size())) {}
    double operator()(Engine& e) const {
        const double i = detail::index_of_uniform<double>(e.next_plus(), count, detail::FloorByRounding{});
        return lifetimes[static_cast<std::size_t>(i)];
    }
    detail::LifetimeLaw law() const {
        return {.kind = detail::LifetimeLaw::Kind::table, .table = lifetimes, .table_size = count};
    }
};

/// Price-driven: a mean-reverting log price (Ornstein-Uhlenbeck, exact on the grid) around the quoted
/// price, started from its stationary law. price_at(j) is the price of grid step j of the current path.
class PricePath {
public:
    PricePath(const PriceDriven& model, double quoted, Engine& engine)
        : engine_(engine),
          quoted_(quoted),
          decay_(std::exp(-model.reversion_per_hour * model.step_hours)),
          step_sd_(model.volatility_per_sqrt_hour *
                   std::sqrt(-std::expm1(-2.0 * model.reversion_per_hour * model.step_hours) /
                             (2.0 * model.reversion_per_hour))),
          stationary_sd_(model.volatility_per_sqrt_hour / std::sqrt(2.0 * model.reversion_per_hour)) {}

    /// Starts a new path.
    void restart() { prices_.clear(); }

    double price_at(std::size_t j) {
        while (prices_.size() <= j) {
            x_ = prices_.empty() ? stationary_sd_ * normal_(engine_) : decay_ * x_ + step_sd_ * normal_(engine_);
            prices_.push_back(quoted_ * std::exp(x_));
        }
        return prices_[j];
    }

private:
    Engine& engine_;
    double quoted_, decay_, step_sd_, stationary_sd_;
    boost::random::normal_distribution<double> normal_;
    std::vector<double> prices_;
    double x_ = 0;
};

}  // namespace gputco::spot
