#pragma once
// The seed articles' performance claims beside what the throughput table and the catalog give. Each
// row says whether they agree within a relative 10% (the tables' own spread between runs of one GPU,
// e.g. the H100 SXM5 rows of different systems, is several per cent), and why not where they do not.
//
//   for (const WorkAuditRow& row : audit_seed_work_claims(Catalog::builtin(), ThroughputTable::builtin()))
//       fmt::print("{}: seed {} vs {}\n", row.claim, row.seed_figure, row.measured_figure);
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/work/throughput.hpp"

namespace gputco {

/// Relative difference under which a seed figure counts as consistent with the measured one.
inline constexpr double seed_audit_tolerance = 0.10;

struct WorkAuditRow {
    std::string claim;        ///< e.g. "AMP speed-up on A100"
    std::string source;       ///< seed article, e.g. "seed 000"
    double seed_figure = 0;
    double measured_figure = 0;  ///< NaN when nothing comparable was measured
    std::string unit;         ///< e.g. "x", "% of linear", "img/s", "USD per run"
    std::string verdict;      ///< "consistent", "inconsistent" or "not measured"
    std::string basis;        ///< what the measured figure is, row by row
    std::string reason;       ///< why they differ (or agree)
};

/// The audit of seed 000's claims: AMP 2.3x on A100, 8xA100 at 92% of linear, 3,200 img/s ResNet-50
/// per A100 instance (+45% vs V100), BERT-large fine-tuning on 2xT4 at about $0.7 per run (45-min
/// epoch), Mask R-CNN epochs 12 h -> 3.2 h on 4xA100. Throws InvalidInput if a needed row or offering
/// is missing from `table` or `catalog`.
std::vector<WorkAuditRow> audit_seed_work_claims(const Catalog& catalog, const ThroughputTable& table);

}  // namespace gputco
