// The FinOps figures row by row: worked by hand, NaN where there is nothing to state, and bounds that
// hold for every bill of non-negative charges.
#include <cmath>
#include <random>

#include <doctest/doctest.h>

#include "gputco/bills/finops.hpp"

using namespace gputco;

namespace {

FocusRow row(ChargeCategory category, PricingCategory pricing, CommitmentStatus status, double list, double effective,
             double billed) {
    FocusRow r;
    r.charge_category = category;
    r.pricing_category = pricing;
    r.commitment_status = status;
    r.list_cost = list;
    r.contracted_cost = list;
    r.effective_cost = effective;
    r.billed_cost = billed;
    return r;
}

}  // namespace

TEST_CASE("no rows: the ratios are NaN, not 0") {
    const FinOpsFigures f;
    CHECK(std::isnan(f.commitment_utilisation()));
    CHECK(std::isnan(f.coverage()));
    CHECK(std::isnan(f.effective_savings_rate()));
    CHECK(f.waste() == 0);
}

TEST_CASE("the figures worked by hand") {
    using C = ChargeCategory;
    using P = PricingCategory;
    using S = CommitmentStatus;
    FinOpsFigures f;
    f.add(row(C::usage, P::standard, S::none, 10, 10, 10));     // on demand
    f.add(row(C::usage, P::committed, S::used, 10, 6, 0));      // under a commitment
    f.add(row(C::usage, P::committed, S::unused, 0, 2, 0));     // the commitment's idle part
    f.add(row(C::usage, P::dynamic, S::none, 10, 3, 3));        // spot
    f.add(row(C::purchase, P::committed, S::none, 0, 0, 8));    // the commitment's fee
    f.add(row(C::tax, P::none, S::none, 0, 1, 1));
    f.add(row(C::credit, P::none, S::none, 0, -2, -2));
    // L = 10 + 10 + 0 + 10 = 30, E = 10 + 6 + 2 + 3 = 21, used 6, unused 2, covered list 10, eligible 30.
    CHECK(f.list_cost == 30);
    CHECK(f.effective_cost == 21);
    CHECK(f.effective_savings_rate() == doctest::Approx(0.3));   // 1 − 21 / 30
    CHECK(f.commitment_utilisation() == 0.75);                     // 6 / (6 + 2)
    CHECK(f.coverage() == doctest::Approx(1.0 / 3));               // 10 / 30
    CHECK(f.waste() == 2);
    CHECK(f.billed_cost == 20);                                    // 10 + 3 + 8 + 1 − 2
    CHECK(f.effective_by_pricing[std::size_t(P::committed)] == 8);
    CHECK(f.effective_by_pricing[std::size_t(P::dynamic)] == 3);
    CHECK(f.billed_by_charge[std::size_t(C::purchase)] == 8);
    CHECK(f.rows == 7);
}

TEST_CASE("property: with non-negative charges, utilisation and coverage are in [0, 1] and ESR <= 1") {
    const std::array<ChargeCategory, 5> categories{ChargeCategory::usage, ChargeCategory::purchase, ChargeCategory::tax,
                                                   ChargeCategory::credit, ChargeCategory::adjustment};
    for (std::uint64_t seed = 1; seed <= 500; ++seed) {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> money(0, 100);
        FinOpsFigures f;
        const int n = 1 + int(rng() % 40);
        for (int i = 0; i < n; ++i) {
            // One draw a statement, the last argument first as GCC drew them, so every compiler adds the same rows.
            const double billed = money(rng);
            const double effective = money(rng);
            const double list = money(rng);
            const auto status = CommitmentStatus(rng() % 3);
            const auto pricing = PricingCategory(rng() % 5);
            f.add(row(categories[rng() % 5], pricing, status, list, effective, billed));
        }
        INFO("seed ", seed);
        if (!std::isnan(f.commitment_utilisation())) CHECK((f.commitment_utilisation() >= 0 && f.commitment_utilisation() <= 1));
        if (!std::isnan(f.coverage())) CHECK((f.coverage() >= 0 && f.coverage() <= 1));
        if (!std::isnan(f.effective_savings_rate())) CHECK(f.effective_savings_rate() <= 1);
        CHECK(f.waste() >= 0);
        double by_pricing = 0;
        for (double v : f.effective_by_pricing) by_pricing += v;
        CHECK(by_pricing == doctest::Approx(f.effective_cost));
    }
}
