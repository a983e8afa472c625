#pragma once
// A dated window of demand: `gpus` more GPUs busy every hour from `start_day` for `days` days (a
// training run "64 GPUs from week 6 to week 8"), on top of the steady demand of a profile or of every
// future. Days count from the horizon's first hour (day 0); fractions of a day are allowed.
//
//   PlanOptions options;
//   options.windows.push_back({.start_day = 35, .days = 21, .gpus = 64});  // weeks 6 to 8
//
// How the engine places a window inside a month, and what it assumes there, is in docs/models.md
// ("Dated windows and capacity blocks").
#include <string_view>
#include <vector>

namespace gputco {

struct DemandWindow {
    double start_day = 0;
    double days = 0;
    double gpus = 0;
};

/// Throws InvalidInput naming `field` (e.g. "options.windows[2].days") unless the window has a
/// finite start >= 0, a length > 0, GPUs in [0, limits::max_gpus] and ends inside a horizon of
/// `horizon_months` months of 730 hours.
void check_window(const DemandWindow& window, std::string_view field, int horizon_months);

}  // namespace gputco
