#pragma once
// Shared by the plan engine and recommender tests (test_plan_engine, test_recommend): the hand-made
// offering their arithmetic is written against, seeded draws and random price paths.
#include <vector>

#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/price_schedule.hpp"
#include "gputco/core/random.hpp"

namespace gputco::test {

/// One GPU per instance at $2.00/h on demand, $0.80/h spot; a 1-year all-upfront reservation for
/// $8,760 (effective $1.00/h, critical fraction 1 − 1/2 = 0.5) and a 3-year no-upfront one at $0.70/h
/// (critical 0.65).
inline Offering plan_test_offering() {
    Offering o;
    o.provider = "testcloud";
    o.region = "test-1";
    o.instance_type = "g1";
    o.gpu = "A100-40GB";
    o.gpus_per_instance = 1;
    o.on_demand_hourly = 2.0;
    o.spot_hourly = 0.8;
    o.reserved.push_back({.term_years = 1, .payment = Payment::all_upfront, .upfront = 8760.0, .hourly = 0.0, .source = {"test", "2026-01"}});
    o.reserved.push_back({.term_years = 3, .payment = Payment::no_upfront, .upfront = 0.0, .hourly = 0.7, .source = {"test", "2026-01"}});
    o.source = {"hand-made test offering", "2026-01"};
    return o;
}

/// plan_test_offering sold in instances of `gpus` GPUs: the same prices per GPU, each instance's prices
/// `gpus` times one GPU's.
inline Offering plan_test_offering_in_instances(int gpus) {
    Offering o = plan_test_offering();
    o.gpus_per_instance = gpus;
    o.on_demand_hourly *= gpus;
    o.spot_hourly = *o.spot_hourly * gpus;
    for (ReservedPrice& r : o.reserved) r.upfront *= gpus, r.hourly *= gpus;
    return o;
}

/// Busy 1.0 on weekday working hours, 0.4 otherwise (DemandModel::hour_of_week): two distinct levels
/// a month, so the recommender's programme is exact.
inline std::vector<double> office_week() {
    std::vector<double> week(168, 0.4);
    for (int day = 0; day < 5; ++day)
        for (int hour = 8; hour < 20; ++hour) week[std::size_t(day * 24 + hour)] = 1.0;
    return week;
}

inline double uniform(Xoshiro256pp& engine, double low, double high) {
    return low + (high - low) * boost::random::uniform_01<double>()(engine);
}
inline int uniform_int(Xoshiro256pp& engine, int low, int high) {
    return boost::random::uniform_int_distribution<int>(low, high)(engine);
}

/// The distinct values of an ascending vector, each once. A month's sorted shape repeats a few levels
/// over its 730 hours; the brute-force searches take each level once as a turning point (inserting
/// every hour's copy into a set cost most of their time, many times that under AddressSanitizer).
inline std::vector<double> distinct_sorted(const std::vector<double>& sorted) {
    std::vector<double> out;
    for (const double v : sorted)
        if (out.empty() || v != out.back()) out.push_back(v);
    return out;
}

/// Per future, each price steps once at a random month by a random factor (cuts and rises).
inline PricePaths random_paths(Xoshiro256pp& engine, int months, std::size_t futures) {
    PricePaths p;
    p.on_demand.setOnes(months, Eigen::Index(futures));
    p.spot.setOnes(months, Eigen::Index(futures));
    p.reserved.setOnes(months, Eigen::Index(futures));
    for (Eigen::ArrayXXd* table : {&p.on_demand, &p.spot, &p.reserved})
        for (Eigen::Index f = 0; f < Eigen::Index(futures); ++f) {
            const int from = uniform_int(engine, 0, months - 1);
            const double factor = table == &p.spot ? uniform(engine, 0.6, 2.5) : uniform(engine, 0.3, 1.4);
            table->col(f).tail(months - from) = factor;
        }
    return p;
}

}  // namespace gputco::test
