#pragma once
// Deadline-aware use of spot capacity (Wu, Chiang, Zhu, Stoica, Yang, "Can't Be Late: Optimizing
// Spot Instance Savings under Deadlines", NSDI'24). A job needs C0 hours of compute before a deadline
// R0. Time runs in ticks; in each tick spot capacity is available or not, and a policy picks spot,
// on-demand or nothing for the whole tick.
//
//   const DeadlineJob job{.compute_hours = 48, .deadline_hours = 72, .changeover_hours = 1};
//   const auto trace = SpotAvailability::markov({.mean_up_hours = 10, .mean_down_hours = 3}, 72, 1.0, 42);
//   const DeadlineResult r = simulate_deadline(job, trace, DeadlinePolicy::uniform_progress, 0.9701, 3.06);
//   r.cost; r.met_deadline; r.decisions;   // one decision per tick, for plots
//
// Model, all in whole ticks so that every figure is exact:
// - A launch (a switch into spot or on-demand from anything else, or a spot relaunch after a
//   preemption) costs `changeover_hours` of billed time with no progress. A new launch replaces what is
//   left of an earlier launch's changeover (overheads do not stack).
// - Spot running in tick k keeps running in tick k + 1 if spot is available then; otherwise it is
//   preempted at the boundary.
// - Every tick of a running instance is billed in full at its price, the tick in which the job
//   finishes included. The job finishes at the end of the tick that completes its compute.
// - The policies see only the availability of the current tick (omniscient_cost() sees the whole trace).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/core/cancel.hpp"
#include "gputco/engines/spot.hpp"  // Cancelled
#include "gputco/results/statistics.hpp"
#include "gputco/strategy/strategy.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// A job with a deadline. All four durations must be whole numbers of ticks (within a relative 1e-9),
/// so choose a finer tick for a fractional changeover (e.g. 0.1 h ticks for a 0.2 h changeover).
struct DeadlineJob {
    double compute_hours = 0;     ///< C0: compute the job needs, > 0
    double deadline_hours = 0;    ///< R0: from the start, >= compute_hours + changeover_hours
    double changeover_hours = 0;  ///< d: no-progress time of every launch, billed, >= 0
    double tick_hours = 1;        ///< length of one decision step, > 0

    /// Throws InvalidInput naming the first field that breaks its rule, e.g.
    /// "deadline_job.compute_hours = -1: must be finite and > 0". A deadline shorter than
    /// compute_hours + changeover_hours is infeasible even on demand and names deadline_job.deadline_hours.
    void validate() const;

    std::size_t compute_ticks() const;     ///< compute_hours / tick_hours (after validate())
    std::size_t deadline_ticks() const;    ///< deadline_hours / tick_hours
    std::size_t changeover_ticks() const;  ///< changeover_hours / tick_hours
};

/// Two-state (up/down) Markov process of spot availability: up and down periods are geometric in
/// ticks with the given means, so each tick an up period ends with probability tick_hours / mean_up_hours.
struct MarkovAvailability {
    double mean_up_hours = 10;   ///< >= tick_hours
    double mean_down_hours = 2;  ///< >= tick_hours

    /// Throws InvalidInput, e.g. "markov.mean_up_hours = 0.5: must be >= tick_hours = 1".
    void validate(double tick_hours) const;
    /// Long-run share of ticks with spot available, mean_up / (mean_up + mean_down).
    double availability_fraction() const { return mean_up_hours / (mean_up_hours + mean_down_hours); }
};

/// What the values of a JSON trace mean. Files in the authors' format do not say, and files of the
/// same shape exist with each meaning, so a reader must be told (by the file or by the caller).
enum class TraceValues {
    unstated,         ///< not said (an option's default: then the file must say)
    available,        ///< one node: 1 = spot available, 0 = not (any other value is an error)
    available_nodes,  ///< the number of nodes available; a tick is available when >= nodes_needed
    preempted,        ///< one node stored the other way round: 1 = preempted (unavailable), 0 = available
};

/// How to read a JSON trace whose file does not say what its values mean (see from_json).
struct TraceReadOptions {
    TraceValues values = TraceValues::unstated;
    /// With available_nodes: nodes the job needs; a tick is available when at least this many are.
    /// 0 = unstated (then the file's metadata.nodes_needed, else an error).
    std::size_t nodes_needed = 0;
};

/// Whether spot capacity is available in each tick (index 0 = the tick starting at time 0).
struct SpotAvailability {
    std::vector<bool> available;
    /// Length of one tick in hours when the trace says (from_json: gap_seconds / 3600); 0 = not
    /// stated, the trace then takes the job's tick. A stated tick must equal the job's: resample first.
    double tick_hours = 0;
    /// How from_json read the file's values, e.g. "single node (1 = available)", "available nodes
    /// (available when >= 16 of 16)", "preempted flags (1 = preempted)"; empty for other traces.
    std::string layout;

    /// Longest trace accepted (from_json, resampled, window sweeps): 1e8 ticks, about 12 MB of
    /// flags, so that a wrong file or a far too fine tick fails at once instead of exhausting memory.
    static constexpr std::size_t max_ticks = 100'000'000;

    std::size_t ticks() const { return available.size(); }
    /// Number of ticks with spot available.
    std::size_t available_ticks() const;

    /// Trace text, one tick per line: "1" (available) or "0". A line with commas is a CSV row whose
    /// last field is the 0/1 value (e.g. "2024-01-01T00:00,1"); a first row whose last field is not
    /// 0 or 1 is a header and skipped. Blank lines and lines starting with '#' are ignored.
    /// Throws InvalidInput("availability line 3 = \"x\": must be 0 or 1"), or for no ticks at all.
    static SpotAvailability from_text(std::string_view text);
    /// The JSON trace format the Can't Be Late authors released:
    /// {"metadata": {"gap_seconds": 600, ...}, "data": [n0, n1, ...]}. What a value n means is said by
    /// the file (metadata.values: "available", "available_nodes" with metadata.nodes_needed or
    /// metadata.nodes, or "preempted") or by the caller (`options`); saying neither, or both
    /// differently, is an error, and `layout` tells which reading was taken. A single-node or
    /// preempted-flag trace must hold only 0 and 1 (a multi-node file read as one node is an error,
    /// not "any node up counts as available"); with metadata.nodes a count above it is an error.
    /// Other metadata keys are ignored; a key given twice (at the top or in metadata) is an error.
    /// Read as a stream, one bit per tick; more than max_ticks ticks stops reading at the first one
    /// too many. Throws InvalidInput naming the JSON path, e.g. "trace.data[3] = -1: must be a whole
    /// number >= 0".
    static SpotAvailability from_json(std::string_view text, const TraceReadOptions& options = {});
    /// Generated from `process` with Boost.Random on a xoshiro256++ stream: the same seed gives the
    /// same trace everywhere. The first tick is up with probability availability_fraction().
    static SpotAvailability markov(const MarkovAvailability& process, std::size_t ticks, double tick_hours,
                                   std::uint64_t seed);
    /// Spot available in each of `ticks` ticks.
    static SpotAvailability always_available(std::size_t ticks);

    /// Ticks [start, start + length) of this trace (same tick length).
    /// Throws InvalidInput("window.start = 90: must leave length = 20 ticks inside the trace of 100").
    SpotAvailability window(std::size_t start, std::size_t length) const;
    /// The trace in ticks of `tick_hours`; needs a stated tick. One tick must be a whole number of the
    /// other (relative 1e-9). Finer: each tick repeats. Coarser: a coarse tick is available only if every
    /// fine tick in it is (spot that vanishes inside a tick preempts the instance); a trailing part
    /// tick is dropped.
    SpotAvailability resampled(double tick_hours) const;
};

/// The longest tick that divides both `a_hours` and `b_hours` into whole numbers (relative 1e-9),
/// searched as a_hours / n for n = 1, 2, ..., 1e6: the tick to resample a trace of tick a to so that a
/// changeover of b hours is whole ticks (1 h trace, 0.2 h changeover -> 0.2 h). b = 0 gives a.
/// Throws InvalidInput if no n up to 1e6 fits (an irrational-looking ratio).
double common_tick_hours(double a_hours, double b_hours);

/// The policies of Wu et al., as the authors' published simulator runs them, and named variants. In
/// every rule "slack" is remaining time - remaining compute, in ticks, at the start of the tick.
enum class DeadlinePolicy {
    /// Greedy as the authors' code runs it: spot when available, else idle. When idle or on
    /// on-demand, on-demand once slack <= 2d (it stays so: slack only falls). A running spot instance
    /// is kept until preempted; only one still in its changeover is dropped for on-demand once
    /// slack <= d. With d = 0 switching is free: spot whenever available, else on-demand at slack 0.
    greedy,
    /// Uniform Progress as the authors' code runs it; ep(t) = t C0 / R0, cp(t) the compute done:
    /// 1. idle and cp(t) < ep(t): on-demand to catch up;
    /// 2. spot whenever available, kept until preempted;
    /// 3. on on-demand, stay while spot is unavailable or cp(t) <= ep(t + 2d); leave it only for spot,
    ///    never for idling (idling and relaunching on-demand pays a second changeover);
    /// 4. idle (or leaving on-demand) with slack <= 2d: on-demand to the end (the paper writes <; at
    ///    d = 0 a tick of idling at equality would miss).
    /// At d = 0 (the authors' code, not the contract's "to the end"): at slack 0 spot when available,
    /// else on-demand — a tick of available spot is as safe as one of on-demand when switching is free.
    uniform_progress,
    /// On-demand from the first tick to the end: cost (C0 + d) x on-demand price.
    on_demand_only,
    /// Variant, the paper's prose: spot when available, else idle; on-demand for good from the first
    /// tick with slack <= d, even abandoning a spot instance.
    greedy_simple,
    /// Variant, the paper's prose of Uniform Progress (this library's first version): on on-demand,
    /// stay while cp(t) < ep(t + 2d), then fall to the idle rules, which may idle and later relaunch
    /// on-demand; on spot, stay until preempted; idle: on-demand for good if slack <= 2d, else spot if
    /// available, else on-demand if cp(t) < ep(t), else idle.
    uniform_progress_prose,
};

/// What a policy runs in one tick.
enum class TickDecision : std::uint8_t { none, spot, on_demand };

template <>
struct EnumText<DeadlinePolicy> {
    static constexpr std::array<EnumName<DeadlinePolicy>, 5> names{{
        {DeadlinePolicy::greedy, "greedy"},
        {DeadlinePolicy::uniform_progress, "uniform_progress"},
        {DeadlinePolicy::on_demand_only, "on_demand_only"},
        {DeadlinePolicy::greedy_simple, "greedy_simple"},
        {DeadlinePolicy::uniform_progress_prose, "uniform_progress_prose"},
    }};
};
template <>
struct EnumText<TraceValues> {
    static constexpr std::array<EnumName<TraceValues>, 4> names{{
        {TraceValues::unstated, "unstated"},
        {TraceValues::available, "available"},
        {TraceValues::available_nodes, "available_nodes"},
        {TraceValues::preempted, "preempted"},
    }};
};
template <>
struct EnumText<TickDecision> {
    static constexpr std::array<EnumName<TickDecision>, 3> names{{
        {TickDecision::none, "none"},
        {TickDecision::spot, "spot"},
        {TickDecision::on_demand, "on_demand"},
    }};
};
inline std::string_view to_string(DeadlinePolicy policy) { return to_text(policy); }
inline std::string_view to_string(TickDecision decision) { return to_text(decision); }

struct DeadlineResult {
    double cost = 0;             ///< spot_hours x spot price + on_demand_hours x on-demand price
    double spot_hours = 0;       ///< billed spot time (changeovers included)
    double on_demand_hours = 0;  ///< billed on-demand time (changeovers included)
    double idle_hours = 0;       ///< ticks with nothing running, before the finish
    std::size_t changeovers = 0;  ///< launches, the first one included
    std::size_t preemptions = 0;  ///< spot instances lost because spot became unavailable
    double finish_hours = 0;      ///< end of the tick in which the compute completed
    bool met_deadline = false;    ///< finish_hours <= deadline_hours
    double tick_hours = 0;        ///< the job's, so that tick k starts at k x tick_hours
    /// The tick log, one entry per tick up to the finish: the decision, whether spot was available and
    /// the compute done by the tick's end.
    std::vector<TickDecision> decisions;
    std::vector<bool> spot_available;
    std::vector<double> progress_hours;
};

/// Runs `policy` over `availability`, which must cover the deadline (at least deadline_ticks() ticks).
/// Throws InvalidInput for an invalid job, a short trace or a price that is not finite and > 0.
DeadlineResult simulate_deadline(const DeadlineJob& job, const SpotAvailability& availability, DeadlinePolicy policy,
                                 double spot_price_per_hour, double on_demand_price_per_hour);

/// The least cost of any schedule that knows the whole trace in advance and finishes by the deadline,
/// under the same model (launches, changeovers, whole-tick billing): exact, by dynamic programming over
/// (tick, compute done, instance, changeover left), O(deadline_ticks x compute_ticks x changeover_ticks).
/// A lower bound for every policy on the same trace. `should_stop` is called once per 2^20 states
/// visited (a few milliseconds); true throws Cancelled.
double omniscient_cost(const DeadlineJob& job, const SpotAvailability& availability, double spot_price_per_hour,
                       double on_demand_price_per_hour, const StopCheck& should_stop = {});

struct DeadlineSimulationOptions {
    std::size_t paths = 1000;  ///< generated traces, > 0
    std::uint64_t seed = 0;
    double confidence = 0.95;  ///< of every Summary, in (0, 1)
    bool omniscient = false;   ///< also summarise omniscient_cost() per trace (slower for long jobs)
    /// Optional, polled between traces; returning true stops the run and throws Cancelled.
    std::function<bool()> should_stop;
    /// Optional: traces done of `paths`, between traces at most every 50 ms and at the end.
    ProgressReport progress;
    void validate() const;
};

struct DeadlinePolicyOutcome {
    DeadlinePolicy policy = DeadlinePolicy::greedy;
    std::vector<double> cost_samples;  ///< one per path, in path order
    Summary cost;
    double deadline_miss_probability = 0;  ///< share of paths that finished after the deadline
};

struct DeadlineComparison {
    std::vector<DeadlinePolicyOutcome> policies;  ///< in the order asked for
    std::optional<Summary> omniscient_cost;       ///< if options.omniscient
    std::vector<double> omniscient_samples;       ///< one per path if options.omniscient
    std::size_t paths = 0;
    std::uint64_t seed = 0;
};

/// Monte Carlo over `options.paths` traces generated by `process` (deadline_ticks() ticks each); every
/// policy runs on the same traces. Single-threaded; path i's trace depends only on (seed, i), so the
/// result for a seed never changes.
DeadlineComparison compare_deadline_policies(const DeadlineJob& job, const MarkovAvailability& process,
                                             double spot_price_per_hour, double on_demand_price_per_hour,
                                             const DeadlineSimulationOptions& options = {},
                                             const std::vector<DeadlinePolicy>& policies = {
                                                 DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress,
                                                 DeadlinePolicy::on_demand_only});

/// Every policy, in the order of the enumeration.
std::vector<DeadlinePolicy> all_deadline_policies();
/// The policy named `name` ("greedy", ...); throws InvalidInput("<field> = <name>: must be one of ...").
DeadlinePolicy parse_deadline_policy(std::string_view name, std::string_view field = "policy");

/// A deadline job's cost distribution as a spot tranche of a plan (like spot_tranche() for
/// simulate_spot): priced at `spot_price_per_hour` per useful hour with overhead = cost / (C0 x spot
/// price) per sample, so the on-demand and changeover hours the policy bought are in the overhead.
/// Availability is 1: the policy already covers spot outages with on-demand. Throws InvalidInput for
/// no samples or a sample that gives an overhead below 1 (on-demand cheaper than spot).
SpotTranche deadline_tranche(const std::vector<double>& cost_samples, const DeadlineJob& job,
                             double spot_price_per_hour);

}  // namespace gputco
