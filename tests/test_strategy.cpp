#include <doctest/doctest.h>

#include "gputco/strategy/strategy.hpp"

using namespace gputco;

TEST_CASE("describe names every kind of strategy") {
    CHECK(describe(OnDemand{}) == "100% on-demand");
    CHECK(describe(Reserved{.term_years = 3, .payment = Payment::partial_upfront}) == "100% reserved 3y partial_upfront");
    CHECK(describe(Owned{.life_years = 5}) == "100% owned 5y life");
    CHECK(describe(Mix{{{0.5, Owned{}}, {0.25, SpotTranche{}}, {0.25, OnDemand{}}}}) ==
          "50% owned 4y life + 25% spot + 25% on-demand");
}

TEST_CASE("discounts: defaults are valid, each rule names its field") {
    CHECK_NOTHROW(Discounts{}.validate());
    CHECK_NOTHROW((Discounts{.plan_discount = 0.3, .free_gpu_hours = 100, .voucher_price_factor = 0.6,
                             .region_price_factor = 0.75}
                       .validate()));
    CHECK_THROWS_WITH_AS(Discounts{.plan_discount = 1.0}.validate(), "discounts.plan_discount = 1: must be in [0, 1)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Discounts{.free_gpu_hours = -1}.validate(), "discounts.free_gpu_hours = -1: must be finite and >= 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Discounts{.voucher_price_factor = 1.2}.validate(),
                         "discounts.voucher_price_factor = 1.2: must be in (0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(Discounts{.region_price_factor = 0}.validate(),
                         "discounts.region_price_factor = 0: must be finite and > 0", InvalidInput);
}

TEST_CASE("ownership terms: defaults are valid, each rule names its field") {
    CHECK_NOTHROW(Owned{}.validate());
    CHECK_THROWS_WITH_AS(Owned{.life_years = 11}.validate(), "owned.life_years = 11: must be in [1, 10]", InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.watts_per_gpu = -400}.validate(), "owned.watts_per_gpu = -400: must be finite and >= 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.electricity_per_kwh = std::nan("")}.validate(),
                         "owned.electricity_per_kwh = nan: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.colocation_per_gpu_month = -1}.validate(),
                         "owned.colocation_per_gpu_month = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.maintenance_fraction_per_year = -0.1}.validate(),
                         "owned.maintenance_fraction_per_year = -0.1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.staff_per_month = -10}.validate(), "owned.staff_per_month = -10: must be finite and >= 0",
                         InvalidInput);
}
