// Capacity blocks for dated windows of demand and short (1-, 3-, 6-month) terms in the recommender:
// chosen beside reservations, spot and on demand, equal to brute force priced by the engine, and two
// cases worked by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "plan_fixtures.hpp"
#include "gputco/optimise/recommend.hpp"

using namespace gputco;
using doctest::Approx;

namespace {

/// The test offering sold in instances of `gpus` GPUs (the same prices per GPU), with a block rate.
Offering offering_of(int gpus, double block_per_gpu_hour) {
    Offering o = test::plan_test_offering_in_instances(gpus);
    o.capacity_block_hourly = block_per_gpu_hour * gpus;
    return o;
}

using test::random_paths;

/// The blocks RecommendOptions::capacity_blocks offers for `w` (recommend.hpp): from its first day,
/// the shortest length sold that holds it, and a shorter one leaving less than a day uncovered.
std::vector<CapacityBlock> blocks_for(const DemandWindow& w, int lead_days) {
    const int start = int(std::floor(w.start_day));
    const double hours = 24.0 * (w.start_day + w.days - start);
    const int holds = *CapacityBlock::shortest_days_for(hours);
    std::vector<CapacityBlock> out{{.instances = 1, .days = holds, .start_day = start,
                                    .lead_days = std::min(lead_days, start), .price_per_instance_hour = {}}};
    for (int d = holds - 1; d >= 1; --d) {
        if (!CapacityBlock::sellable_days(d)) continue;
        if (24.0 * d >= hours - 24.0) {
            out.push_back(out.front());
            out.back().days = d;
        }
        break;
    }
    return out;
}

/// The GCP calendar-mode reservations offered for `w`: from its first day, the whole days that hold it
/// (every hour usable) and one day fewer, at `price`.
std::vector<CapacityBlock> calendar_blocks_for(const DemandWindow& w, int lead_days, double price) {
    const int start = int(std::floor(w.start_day));
    const int holds = int(std::ceil(24.0 * (w.start_day + w.days - start) / 24.0 - 1e-9));
    std::vector<CapacityBlock> out;
    for (int d : {holds, holds - 1})
        if (d >= 1)
            out.push_back({.instances = 1, .days = d, .start_day = start, .lead_days = std::min(lead_days, start),
                           .price_per_instance_hour = price, .kind = BlockKind::gcp_calendar_mode});
    return out;
}

}  // namespace

TEST_CASE("a 10-day window of 64 GPUs over a steady 16: GCP calendar mode at the same price holds it whole, "
          "worked by hand") {
    // As the AWS case below, but a calendar-mode reservation uses every hour of its days:
    //   16 GPUs reserved 1 year at 0.7 × 6.88 = 4.816/GPU-h: 16 × 8,760 × 4.816        = 675,010.56
    //   8 VMs × 10 days: 8 × 240 h × 39.33, charged as the hours run (all in month 2)    =  75,513.60
    //   total (nothing left to on demand)                                                = 750,524.16
    // Against: 9 days (8 × 216 × 39.33 = 67,962.24) leaves 64 × 24 h on demand (10,567.68): 78,529.92.
    Offering offering = offering_of(8, 39.33 / 8);
    offering.on_demand_hourly = 55.04;
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(16, Horizon::months(12)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.3}};
    options.start_months = {0};
    options.plan_options.windows = {{.start_day = 60, .days = 10, .gpus = 64}};
    options.capacity_blocks = CapacityBlockOption{.lead_days = 0, .price_per_instance_hour = 39.33,
                                                  .kind = BlockKind::gcp_calendar_mode};
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    REQUIRE(r.plan.capacity_blocks.size() == 1);
    CHECK(r.plan.capacity_blocks[0].kind == BlockKind::gcp_calendar_mode);
    CHECK(r.plan.capacity_blocks[0].instances == 8);
    CHECK(r.plan.capacity_blocks[0].days == 10);
    CHECK(r.proven_optimal);
    CHECK(r.in_sample.total.mean == Approx(750'524.16).epsilon(1e-12));
    CHECK(r.solver_objective == Approx(750'524.16).epsilon(1e-12));
    // Calendar mode is charged as it runs: an upfront limit of 0 leaves it free to buy.
    options.limits.upfront_per_period = 0.0;
    CHECK(recommend_plan(futures, offering, options).in_sample.total.mean == Approx(750'524.16).epsilon(1e-12));
    options.capacity_blocks->price_per_instance_hour.reset();
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.capacity_blocks.price_per_instance_hour = \"none\": is needed for kind "
                         "gcp_calendar_mode: the catalog has no calendar-mode rate",
                         InvalidInput);
}

TEST_CASE("a 10-day window of 64 GPUs over a steady 16: a 1-year reservation, a 10-day block of 8 instances and "
          "on demand for the block's last half hour, worked by hand") {
    // 8-GPU instances at 55.04 an hour on demand (6.88 per GPU-hour), blocks at 39.33 per instance-hour.
    Offering offering = offering_of(8, 39.33 / 8);
    offering.on_demand_hourly = 55.04;
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(16, Horizon::months(12)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.3}};
    options.start_months = {0};
    options.plan_options.windows = {{.start_day = 60, .days = 10, .gpus = 64}};
    options.capacity_blocks = CapacityBlockOption{};
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    Plan shown = r.plan;
    shown.name.clear();
    INFO(describe(shown) << "; " << r.status << "; solver " << r.solver_objective << ", engine " << r.in_sample.total.mean);
    // Blocks offered: 11 days (264 h, 263.5 usable, holds the window's 240 h) and 10 days (239.5 usable).
    //   16 GPUs reserved 1 year at 0.7 × 6.88 = 4.816/GPU-h: 16 × 8,760 × 4.816        = 675,010.56
    //   8 instances × 10 days: 8 × 240 h × 39.33, paid at day 60                         =  75,513.60
    //   the window's last 0.5 h the block stops for, on demand: 64 × 0.5 × 6.88          =     220.16
    //   total                                                                            = 750,744.32
    // Against: the 11-day block 8 × 264 × 39.33 = 83,064.96 (> 75,733.76); the window on demand
    // 64 × 240 × 6.88 = 105,676.80; more instances serve nothing (the steady 16 are reserved).
    REQUIRE(r.plan.capacity_blocks.size() == 1);
    CHECK(r.plan.capacity_blocks[0].instances == 8);
    CHECK(r.plan.capacity_blocks[0].days == 10);
    CHECK(r.plan.capacity_blocks[0].start_day == 60);
    REQUIRE(r.plan.commitments.size() == 1);
    CHECK(r.plan.commitments[0].count == 16);
    CHECK(!r.plan.spot);
    CHECK(r.proven_optimal);
    CHECK(r.in_sample.total.mean == Approx(750'744.32).epsilon(1e-12));
    CHECK(r.solver_objective == Approx(750'744.32).epsilon(1e-12));
}

TEST_CASE("three months of 32 more GPUs over a steady 16: a 3-month term for the window beside a 1-year "
          "reservation, worked by hand") {
    Offering offering = offering_of(1, 1.0);  // 2.00 per GPU-hour on demand
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(16, Horizon::months(12)));
    RecommendOptions options;
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.3},
                           {.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.2, .term_months = 3}};
    options.start_months = {0, 3, 6, 9};
    options.plan_options.windows = {{.start_day = 91.25, .days = 91.25, .gpus = 32}};  // months 3 to 5
    options.plan_options.threads = 1;
    const Recommendation r = recommend_plan(futures, offering, options);
    Plan shown = r.plan;
    shown.name.clear();
    INFO(describe(shown) << "; " << r.status << "; solver " << r.solver_objective << ", engine " << r.in_sample.total.mean);
    //   16 GPUs × 1 year at 0.7 × 2 = 1.40/GPU-h: 16 × 8,760 × 1.40   = 196,224.00
    //   32 GPUs × 3 months from month 3 at 0.8 × 2 = 1.60: 32 × 2,190 × 1.60 = 112,128.00
    //   total                                                          = 308,352.00
    // Against: the window on demand 32 × 2,190 × 2 = 140,160; a year for it 32 × 8,760 × 1.40 = 392,448;
    // 3-month terms all year for the steady 16 (1.60 > 1.40) cost more.
    REQUIRE(r.plan.commitments.size() == 2);
    CHECK(r.plan.commitments[0].count == 16);
    CHECK(r.plan.commitments[0].term_months == 0);
    CHECK(r.plan.commitments[1].count == 32);
    CHECK(r.plan.commitments[1].term_months == 3);
    CHECK(r.plan.commitments[1].start_month == 3);
    CHECK(r.in_sample.total.mean == Approx(308'352.0).epsilon(1e-12));
    CHECK(r.solver_objective == Approx(308'352.0).epsilon(1e-12));
}

TEST_CASE("over 60 random small problems with a dated window, capacity blocks and 1-month terms the "
          "recommendation equals brute force priced by the engine") {
    Xoshiro256pp engine(2029);
    const int months = 4;
    const std::size_t count = 3;
    PlanOptions one_thread;
    one_thread.threads = 1;
    int with_block = 0, with_term = 0, cvar_trials = 0, with_calendar = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int g = test::uniform_int(engine, 1, 2);
        const Offering offering = offering_of(g, test::uniform(engine, 1.0, 2.6));  // on demand 2.00 per GPU-hour
        DemandModel model;
        model.base_gpus = test::uniform(engine, 1, 6);
        model.monthly_log_volatility = test::uniform(engine, 0, 0.3);
        model.hour_of_week = test::office_week();
        const DemandFutures futures = DemandFutures::generate(model, Horizon::months(months), count, std::uint64_t(trial));
        const PricePaths prices = random_paths(engine, months, count);
        // Whole instances of window GPUs: billed per instance, the recommender requires them.
        const int window_gpus = test::uniform_int(engine, 1, 6);
        const DemandWindow window{.start_day = test::uniform(engine, 0, 100), .days = test::uniform(engine, 0.5, 12),
                                  .gpus = double(g * ((window_gpus + g - 1) / g))};
        RecommendOptions options;
        const double discount = test::uniform(engine, 0.05, 0.45);
        options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = discount,
                                .term_months = 1}};
        options.start_months = {0, 2};
        options.max_count = 2;
        options.unit = g > 1 ? CountUnit::instances : CountUnit::gpus;
        options.plan_options.windows = {window};
        options.plan_options.threads = 1;
        options.capacity_blocks = CapacityBlockOption{.lead_days = test::uniform_int(engine, 0, 20),
                                                      .price_per_instance_hour = {}};
        // Every third trial offers GCP calendar-mode reservations at the same rate instead.
        const bool calendar = trial % 3 == 1;
        if (calendar) {
            options.capacity_blocks->kind = BlockKind::gcp_calendar_mode;
            options.capacity_blocks->price_per_instance_hour = *offering.capacity_block_hourly;
        }
        const double overhead = test::uniform(engine, 1, 2), availability = test::uniform(engine, 0.3, 1);
        options.spot = {{.name = "spot", .overhead = overhead, .availability = availability, .price_per_gpu_hour = {},
                         .deadline_miss_probability = {}}};
        PlanOptions engine_options = one_thread;
        engine_options.windows = {window};
        const bool with_cvar = trial % 3 == 2;
        Plan on_demand;  // billed as the recommender bills (per instance when it counts in instances)
        if (g > 1) on_demand.billing = Units::instances;
        const double on_demand_cvar = evaluate_plan(on_demand, futures, offering, prices, engine_options).total.cvar95;
        if (with_cvar) options.limits.cvar95 = on_demand_cvar * test::uniform(engine, 0.85, 1.0);
        const std::vector<CapacityBlock> blocks =
            calendar ? calendar_blocks_for(window, options.capacity_blocks->lead_days, *offering.capacity_block_hourly)
                     : blocks_for(window, options.capacity_blocks->lead_days);

        // Brute force: every count of each term and block, and every spot count where the cost can
        // turn (an hour's demand, window included or not, less any capacity the plan can have there).
        double best = 1e300;
        Plan best_plan;
        const int block_choices = blocks.size() == 2 ? 9 : 3;
        for (int first = 0; first <= 2; ++first)
            for (int second = 0; second <= 2; ++second)
                for (int b = 0; b < block_choices; ++b) {
                    Plan plan;
                    // Billed per instance as the recommender bills when it counts in instances.
                    if (g > 1) plan.billing = Units::instances;
                    for (const auto& [units, start] : {std::pair{first, 0}, std::pair{second, 2}})
                        if (units > 0)
                            plan.commitments.push_back({.count = double(units), .unit = options.unit, .term_years = 1,
                                                        .payment = Payment::no_upfront, .start_month = start,
                                                        .renewal = Renewal::lapse, .reservation_discount = discount,
                                                        .offering = {}, .term_months = 1});
                    const int counts[2] = {b % 3, b / 3};
                    for (std::size_t j = 0; j < blocks.size(); ++j)
                        if (counts[j] > 0) {
                            plan.capacity_blocks.push_back(blocks[j]);
                            plan.capacity_blocks.back().instances = counts[j];
                        }
                    std::set<double> spots{0.0};
                    for (int m = 0; m < months; ++m) {
                        const double committed = g * ((m == 0 ? first : 0) + (m == 2 ? second : 0));
                        for (std::size_t f = 0; f < count; ++f)
                            for (double s : test::distinct_sorted(futures.shape(f, m).sorted))
                                for (double extra : {0.0, window.gpus})
                                    for (int j = 0; j < 4; ++j) {
                                        const double blocked = (j & 1 ? counts[0] * g : 0) + (j & 2 ? counts[1] * g : 0);
                                        spots.insert(std::max(0.0, futures.level(f, m) * s + extra - committed - blocked));
                                    }
                    }
                    const auto price = [&](double s) {
                        plan.spot.reset();
                        if (s > 0)
                            plan.spot = SpotShare{.gpus = s, .price_per_gpu_hour = {}, .overhead = overhead,
                                                  .availability = availability, .periods = {}};
                        const PlanDistribution d = evaluate_plan(plan, futures, offering, prices, engine_options);
                        if (!(with_cvar && d.total.cvar95 > *options.limits.cvar95 * (1 + 1e-9)) && d.total.mean < best)
                            best = d.total.mean, best_plan = plan;
                        return d;
                    };
                    if (g > 1) {  // spot in whole instances: every count up to the largest turn
                        for (double k = 0; k <= std::ceil(*spots.rbegin() / g); ++k) price(k * g);
                        continue;
                    }
                    std::vector<PlanDistribution> at;
                    for (double s : spots) at.push_back(price(s));
                    if (!with_cvar) continue;
                    // Under a CVaR limit the optimum may also lie where a future's cost, linear between
                    // the turns, crosses the limit.
                    const double limit = *options.limits.cvar95;
                    const std::vector<double> turns(spots.begin(), spots.end());
                    for (std::size_t i = 0; i + 1 < turns.size(); ++i)
                        for (std::size_t f = 0; f < count; ++f) {
                            const double lo = at[i].futures[f].total - limit, hi = at[i + 1].futures[f].total - limit;
                            if (lo * hi < 0) price(turns[i] + lo / (lo - hi) * (turns[i + 1] - turns[i]));
                        }
                }
        INFO("trial " << trial << (with_cvar ? ", CVaR95 limit" : "") << "; brute force: " << describe(best_plan));
        if (best == 1e300) {
            CHECK_THROWS_AS(recommend_plan(futures, offering, options, prices), InvalidInput);
            continue;
        }
        cvar_trials += with_cvar;
        with_block += !best_plan.capacity_blocks.empty();
        with_calendar += calendar && !best_plan.capacity_blocks.empty();
        with_term += !best_plan.commitments.empty();
        const Recommendation r = recommend_plan(futures, offering, options, prices);
        Plan shown = r.plan;
        shown.name.clear();
        INFO("recommended: " << describe(shown));
        CHECK(r.proven_optimal);
        CHECK(r.in_sample.total.mean == Approx(best).epsilon(1e-9));
        CHECK(r.solver_objective == Approx(r.in_sample.total.mean).epsilon(1e-9));
    }
    CHECK(with_block >= 15);  // the draws make blocks and terms pay often enough to test them
    CHECK(with_calendar >= 5);
    CHECK(with_term >= 15);
    CHECK(cvar_trials >= 10);
}

TEST_CASE("capacity blocks and short terms in the recommender: errors name the field and the rule") {
    const Offering offering = offering_of(8, 4.9);
    const DemandFutures futures = DemandFutures::from_profile(DemandProfile::constant(16, Horizon::months(6)));
    RecommendOptions options;
    options.capacity_blocks = CapacityBlockOption{};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.plan_options.windows.size = 0: must be >= 1 with options.capacity_blocks (a block "
                         "is bought for a dated window of demand)",
                         InvalidInput);
    options.plan_options.windows = {{.start_day = 30, .days = 5, .gpus = 64}};
    options.capacity_blocks->lead_days = 57;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.capacity_blocks.lead_days = 57: must be in [0, 56] (a block starts at most 8 weeks "
                         "after its purchase)",
                         InvalidInput);
    options.capacity_blocks->lead_days = 0;
    options.limits.capacity_assurance = 0.9;
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "limits.capacity_assurance = 0.9: cannot be used with options.plan_options.windows (1 "
                         "windows): the assurance row does not see dated windows",
                         InvalidInput);
    options.limits.capacity_assurance.reset();
    options.commitments = {{.term_years = 1, .payment = Payment::no_upfront, .reservation_discount = 0.2, .term_months = 2}};
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.commitments[0].term_months = 2: must be 0 (a term of term_years), or 1, 3 or 6 (a "
                         "month term)",
                         InvalidInput);
    options.commitments[0].term_months = 3;
    options.commitments[0].reservation_discount.reset();
    CHECK_THROWS_WITH_AS(recommend_plan(futures, offering, options),
                         "options.commitments[0].term_months = 3: offering testcloud/test-1/g1 lists no 3-month term "
                         "price; set options.commitments[0].reservation_discount",
                         InvalidInput);
}
