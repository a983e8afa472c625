#pragma once
// Everything gputco offers, in one include. The folders are the layers, data flowing down:
// core → catalog → work → strategy → results → engines → optimise.
#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "gputco/core/time.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/work/demand.hpp"
#include "gputco/work/job.hpp"
#include "gputco/strategy/strategy.hpp"
#include "gputco/results/report.hpp"
#include "gputco/results/statistics.hpp"
#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/cost.hpp"
#include "gputco/engines/deadline.hpp"
#include "gputco/engines/interruption.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/optimise/optimise.hpp"
