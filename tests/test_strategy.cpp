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
    CHECK_NOTHROW((Discounts{.on_demand_discount = 0.3, .free_gpu_hours = 100, .voucher_price_factor = 0.6,
                             .region_price_factor = 0.75}
                       .validate()));
    CHECK_THROWS_WITH_AS(Discounts{.on_demand_discount = 1.0}.validate(),
                         "discounts.on_demand_discount = 1: must be in [0, 1)", InvalidInput);
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

TEST_CASE("amounts beyond the documented limits are rejected, so no cost overflows") {
    // Owned(capex_per_gpu=1e308) gave savings = -inf.
    CHECK_THROWS_WITH_AS(Owned{.capex_per_gpu = 1e308}.validate(), "owned.capex_per_gpu = 1e+308: must be <= 1e+12",
                         InvalidInput);
    CHECK_NOTHROW(Owned{.capex_per_gpu = 1e12}.validate());
    CHECK_THROWS_WITH_AS(Owned{.watts_per_gpu = 1e300}.validate(), "owned.watts_per_gpu = 1e+300: must be <= 1e+07",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.pue = 1e308}.validate(), "owned.pue = 1e+308: must be <= 100", InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.electricity_per_kwh = 1e13}.validate(),
                         "owned.electricity_per_kwh = 10000000000000: must be <= 1e+12", InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.maintenance_fraction_per_year = 11}.validate(),
                         "owned.maintenance_fraction_per_year = 11: must be <= 10", InvalidInput);
    CHECK_THROWS_WITH_AS(Owned{.staff_per_month = 1e200}.validate(), "owned.staff_per_month = 1e+200: must be <= 1e+12",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Discounts{.free_gpu_hours = 1e308}.validate(),
                         "discounts.free_gpu_hours = 1e+308: must be <= 1e+15", InvalidInput);
    CHECK_THROWS_WITH_AS(Discounts{.region_price_factor = 1e308}.validate(),
                         "discounts.region_price_factor = 1e+308: must be <= 1000", InvalidInput);
}

TEST_CASE("spot tranches and mixes check their own fields and limits") {
    CHECK_NOTHROW(SpotTranche{}.validate());
    CHECK_THROWS_WITH_AS(SpotTranche{.price_per_gpu_hour = 1e308}.validate(),
                         "spot.price_per_gpu_hour = 1e+308: must be <= 1e+12", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotTranche{.price_per_gpu_hour = -1.0}.validate(),
                         "spot.price_per_gpu_hour = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotTranche{.overhead = 0.5}.validate(),
                         "spot.overhead = 0.5: must be finite and >= 1 (billed per useful hour)", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotTranche{.overhead = 1e7}.validate(), "spot.overhead = 10000000: must be <= 1e+06",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(SpotTranche{.availability = 2}.validate(), "spot.availability = 2: must be in [0, 1]",
                         InvalidInput);
    CHECK_THROWS_WITH_AS((SpotTranche{.overhead_samples = {1.0, std::nan("")}}.validate()),
                         "spot.overhead_samples[1] = nan: must be finite and >= 1 (billed per useful hour)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS((Mix{{{1.0, OnDemand{}}}, 1e308}.validate()), "mix.fleet_gpus = 1e+308: must be <= 1e+09",
                         InvalidInput);
    CHECK_THROWS_WITH_AS((Mix{{{0.5, OnDemand{}}, {0.5, Owned{.capex_per_gpu = -1}}}}.validate()),
                         "owned.capex_per_gpu = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS((Mix{{{0.5, OnDemand{}}, {0.5, SpotTranche{.overhead = 1e9}}}}.validate()),
                         "spot.overhead = 1000000000: must be <= 1e+06", InvalidInput);
}
