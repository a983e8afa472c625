#pragma once
// Findings of the fuzz targets that are known and not yet fixed (docs/fuzzing.md describes each,
// with its reproducer under fuzz/findings/). Each flag relaxes exactly one check so that the CI run
// can look for new findings meanwhile; whoever fixes one sets its flag to false (or deletes it) and
// the targets check it again.
namespace gputco::fuzz::known {

/// F1: evaluate() returns effective_cost_per_used_gpu_hour = NaN, undocumented, when no GPU-hour is used.
inline constexpr bool nan_cost_per_hour_without_use = true;
/// F2: messages quote the input's bytes as they are, so a NUL in the input cuts what() short.
inline constexpr bool message_cut_at_nul = true;
/// F3: a message can carry invalid UTF-8 for valid UTF-8 input (catalog JSON: the parser's own message).
inline constexpr bool message_not_utf8 = true;
/// F4: Catalog::from_json lets the JSON parser's own exception out for a number too large for a
/// double ("[json.exception.out_of_range.406] number overflow parsing '1e400'").
inline constexpr bool json_exception_escapes = true;

}  // namespace gputco::fuzz::known
