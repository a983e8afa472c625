#pragma once
// A recommendation study as the front doors run it: the plan, judged beside the baselines people would
// pick, all priced the same way.
#include "gputco/catalog/catalog.hpp"
#include "gputco/optimise/recommend.hpp"

namespace gputco {

/// The offering a study's baselines are bought and judged on: `offering` with `commitment`'s price
/// when the commitment is given as a discount (reserved_from_discount, in place of a catalog price of
/// the same term and payment), so the baselines pay what the recommended plan pays for the same term.
/// Without a discount, `offering` as it is.
Offering offering_for_baselines(const Offering& offering, const CommitmentOption& commitment);

}  // namespace gputco
