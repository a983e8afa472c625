#pragma once
// The owned instrument: hardware bought at a month and replaced at the end of each life. Its month's
// arithmetic is pricing::PricedOwned (shared with the recommender's objective); its validation and its
// line in the report are here.
#include <string>

#include "../pricing.hpp"
#include "commitment.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco::instruments {

using PricedOwned = pricing::PricedOwned;

/// The month fields owned hardware writes (PricedOwned::add_month): purchases, running costs, resale and
/// its hours; no cloud money, so vouchers leave it alone.
inline constexpr std::array<std::string_view, 5> owned_columns{"capex", "operating", "resale", "owned_gpu_hours",
                                                                "owned_used_gpu_hours"};

/// Owned purchase `i` of a plan checked ("plan.owned[i].month"; the terms as "owned.*").
PricedOwned price_owned(const OwnedPurchase& o, std::size_t i, Naming naming, int horizon);

/// "owned 8 GPUs at 25,000 USD each, ...": the report's line.
std::string describe_owned(const PricedOwned& o, const std::string& currency);

}  // namespace gputco::instruments
