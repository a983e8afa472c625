#pragma once
// One row per instance type across regions: a catalog listing every region of every provider would
// otherwise fill a ranking with the same machine many times over. A caller that names a region, or
// asks for every region, does not use this.
//
//   auto rows = cheapest_region_per_instance(query(Catalog::builtin(), q));
#include <vector>

#include "gputco/catalog/catalog.hpp"

namespace gputco {

/// For each provider, instance type and currency of `offerings`: the offering with the lowest
/// on-demand price, the one with the lowest spot price and the one with the lowest reserved effective
/// rate (the same offering where one region is cheapest for all three), in the order of `offerings`;
/// ties keep the first. The other regions (and zones) of the instance type are left out. A group with
/// none of the three prices (a reservation-only type priced by capacity blocks) keeps its first row.
std::vector<Offering> cheapest_region_per_instance(const std::vector<Offering>& offerings);

}  // namespace gputco
