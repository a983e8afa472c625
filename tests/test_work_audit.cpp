#include <cmath>

#include <doctest/doctest.h>

#include "gputco/engines/work_audit.hpp"

using namespace gputco;

TEST_CASE("each seed claim beside the figure read from the tables and the catalog") {
    const std::vector<WorkAuditRow> rows = audit_seed_work_claims(Catalog::builtin(), ThroughputTable::builtin());
    REQUIRE(rows.size() == 7);
    for (const WorkAuditRow& r : rows) {
        CAPTURE(r.claim);
        CHECK(r.source == "seed 000");
        CHECK_FALSE(r.basis.empty());
        CHECK_FALSE(r.reason.empty());
        const bool close = std::abs(r.seed_figure - r.measured_figure) <= 0.10 * r.measured_figure;
        CHECK(r.verdict == (close ? "consistent" : "inconsistent"));
    }
    // AMP: the largest mixed / FP32 ratio on one A100 80GB SXM4 is BERT-large, 152 / 75 = 2.027.
    CHECK(rows[0].measured_figure == doctest::Approx(152.0 / 75));
    CHECK(rows[0].verdict == "inconsistent");
    // 8xA100 ResNet-50: 11,439 / (8 x 1,582) = 90.4% of linear.
    CHECK(rows[1].measured_figure == doctest::Approx(100 * 11439.0 / (8 * 1582)));
    CHECK(rows[1].verdict == "consistent");
    CHECK(rows[2].measured_figure == 11439);
    // A100 vs V100 8-GPU instances, ResNet-50 mixed: 11,439 / 6,174 - 1 = +85.3%.
    CHECK(rows[3].measured_figure == doctest::Approx(100 * (11439.0 / 6174 - 1)));
    // 2xT4 BERT-large, estimated: 87 seq/s (2x V100) x 65 / 125 = 45.24 seq/s; 88,641 / 45.24 = 1,959.4 s = 32.66 min.
    CHECK(rows[4].measured_figure == doctest::Approx(88641 / (87 * 65.0 / 125) / 60));
    // Two such epochs on 2 GPUs at g4dn.xlarge's $0.526: 2 x 0.5443 h x 2 x 0.526 = $1.145.
    CHECK(rows[5].measured_figure == doctest::Approx(2 * 88641 / (87 * 65.0 / 125) / 3600 * 2 * 0.526));
    // SSD on 4 vs 1 A100 80GB SXM4: 1,766 / 458 = 3.856x against the seed's 12 / 3.2 = 3.75x.
    CHECK(rows[6].measured_figure == doctest::Approx(1766.0 / 458));
    CHECK(rows[6].verdict == "consistent");
}

TEST_CASE("the audit needs its rows") {
    CHECK_THROWS_WITH_AS(audit_seed_work_claims(Catalog::builtin(), ThroughputTable()),
                         "throughput = \"A100 80GB SXM4 x1 mixed resnet50\": row needed by the seed audit",
                         InvalidInput);
}
