#pragma once
// Findings of the fuzz targets that are known and not yet fixed (docs/fuzzing.md describes each,
// with its reproducer under fuzz/findings/). Each flag relaxes exactly one check so that the CI run
// can look for new findings meanwhile; whoever fixes one sets its flag to false (or deletes it) and
// the targets check it again.
namespace gputco::fuzz::known {

/// F1: evaluate() returned effective_cost_per_used_gpu_hour = NaN, undocumented, when no GPU-hour is used.
inline constexpr bool nan_cost_per_hour_without_use = false;  // fixed: none (std::optional) instead
/// F15: evaluate() reported break_even_utilisation = +infinity when the committed GPU never pays back
/// (an owned GPU whose power costs more than the on-demand price paid).
inline constexpr bool break_even_infinite_when_never_paid_back = false;  // fixed: none instead
/// F2: messages quote the input's bytes as they are, so a NUL in the input cuts what() short.
inline constexpr bool message_cut_at_nul = false;  // fixed: messages show control bytes as \xNN
/// F3: a message can carry invalid UTF-8 for valid UTF-8 input (catalog JSON: the parser's own message).
inline constexpr bool message_not_utf8 = false;  // fixed: messages go through printable_utf8
/// F4: Catalog::from_json lets the JSON parser's own exception out for a number too large for a
/// double ("[json.exception.out_of_range.406] number overflow parsing '1e400'").
inline constexpr bool json_exception_escapes = false;  // fixed: the loader translates parser errors
/// F5: optimal_checkpoint_interval() returns 0 when write x MTBF underflows (e.g. 1.7e-307 h and a
/// denormal MTBF with Young's formula; Daly's then gives -delta < 0) and infinity when it overflows
/// (1e308 h each): intervals that
/// Job::validate() then rejects. Its inputs have no stated range.
inline constexpr bool checkpoint_interval_out_of_range = false;  // fixed: inputs have a range
/// F6: segment_count() converts W / tau to an integer without a bound: undefined behaviour (UBSan
/// float-cast-overflow) once it passes 2^64, e.g. W = 2000 h and a denormal tau, in expected_spot_time()
/// and simulate_spot(). The targets skip jobs with more than 2^53 segments while it stands.
inline constexpr bool segment_count_overflows = false;  // fixed: durations in [1e-9, 1e9] h bound W / tau by 1e18
/// F7: expected_spot_time() returns NaN or infinity for valid jobs whose segments are long against
/// the MTBF (e^{L/M} overflows), instead of a finite answer or InvalidInput.
inline constexpr bool expected_spot_time_not_finite = false;  // fixed: result checked, names mtbf_hours
/// F8: simulate_spot() has no bound on the work of one run: a tiny price step, MTBF, Weibull scale or
/// lifetime against a long job runs for minutes or hours. The targets cancel a run after 1 s
/// (SimulationOptions::should_stop) while it stands; without the flag a slow run is a libFuzzer timeout.
inline constexpr bool spot_run_unbounded = false;  // fixed: launch and price-grid estimates checked before a run
/// F9: evaluate() accepts prices, capex, GPU counts and rates of any finite size and its figures
/// then overflow to infinity or NaN (break-even utilisation, savings, totals). The targets skip the
/// finiteness checks of evaluate() when an input number's magnitude is above 1e12 or below 1e-12
/// while it stands.
inline constexpr bool evaluate_overflows_on_extremes = false;  // fixed: ranges in core/limits.hpp
/// F10: DemandProfile::steps() writes past its array (ASan heap-buffer-overflow) when a step after the
/// first starts at or after the horizon's end, and sizes a segment negatively when steps go backwards,
/// before reaching its own check. The targets only build steps inside the horizon while it stands.
inline constexpr bool demand_steps_overflow = false;  // fixed: every step checked before any is written
/// F11: simulate_spot() accepts prices and times of any finite size and its summaries then overflow
/// (a standard error or interval of infinity; effective_discount infinite for a denormal on-demand
/// price). The targets skip the finiteness checks of simulate_spot() when an input number's magnitude
/// is above 1e12 or below 1e-12 while it stands.
inline constexpr bool spot_summary_overflows_on_extremes = false;  // fixed: price and time ranges
/// F12: the price-driven model converts (wall time / step_hours) to a grid index without a bound:
/// undefined behaviour (UBSan float-cast-overflow) for a tiny step. The targets skip price-driven runs
/// with an input number of extreme magnitude (as F11) while it stands.
inline constexpr bool price_grid_index_overflows = false;  // fixed: step and grid length bounded
/// F13: simulate_spot() summarises on helper threads, and summarize() throws InvalidInput for a
/// non-finite sample (a cost that overflows for an extreme price): the exception leaves a std::jthread
/// and std::terminate ends the process. The targets run on one thread when an input number has an
/// extreme magnitude (as F11) while it stands.
inline constexpr bool spot_summary_throws_on_helper_thread = false;  // fixed: the executor rethrows on the caller
/// F14: DemandProfile::compound_growth() accepts a rate whose growth overflows (3.5e204 a year over 55
/// months: infinite GPUs), and evaluate() then converts the NaN it derives to an integer in
/// paid_gpu_hours(): undefined behaviour (UBSan float-cast-overflow). The targets skip evaluate() for
/// inputs holding a number of extreme magnitude (as F9) while it stands.
inline constexpr bool evaluate_infinite_demand_ub = false;  // fixed: demand limited to 1e9 GPUs after growth

/// F16: evaluate()'s two ratios against a demand of almost nothing overflowed: the cost per used GPU-hour
/// (total / used GPU-hours) and the savings fraction (savings / baseline) were infinite when a commitment
/// is paid for a demand below about 1e-280 GPU-hours; so could the break-even utilisation, whose divisor
/// is the on-demand price after the on-demand discount.
inline constexpr bool ratios_overflow_for_near_zero_demand = false;  // fixed: divisors below 1e-12 give none / 0

}  // namespace gputco::fuzz::known
