#pragma once
// Everything gputco offers, in one include.
#include "gputco/catalog.hpp"
#include "gputco/checkpoint.hpp"
#include "gputco/cost.hpp"
#include "gputco/demand.hpp"
#include "gputco/error.hpp"
#include "gputco/interruption.hpp"
#include "gputco/job.hpp"
#include "gputco/report.hpp"
#include "gputco/spot.hpp"
#include "gputco/statistics.hpp"
#include "gputco/strategy.hpp"
#include "gputco/time.hpp"
