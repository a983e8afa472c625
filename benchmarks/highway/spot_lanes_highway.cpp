// The Poisson lane kernel written with Google Highway (run-time dispatch over AVX-512, AVX2, SSE4,
// NEON, SVE, ...), for measuring against the library's kernels (src/engines/spot/spot_lanes_kernel.inc,
// GCC vector extensions compiled three times). Same arithmetic, operation for operation, as
// spot_lanes.hpp's rectangle-wedge-tail draws and interrupted, so it gives the same samples bit for bit;
// not part of the library (benchmarks/README.md says why).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "highway/spot_lanes_highway.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "highway/spot_lanes_highway.hpp"

HWY_BEFORE_NAMESPACE();
namespace gputco::bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using detail::Columns;
using detail::JobConstants;
using detail::LaneJob;
using detail::LaneState;
using detail::spot_lanes;

using D = hn::CappedTag<double, spot_lanes>;
using DU = hn::RebindToUnsigned<D>;
using V = hn::Vec<D>;
using VU = hn::Vec<DU>;

// The smaller of a and b; a when equal.
HWY_INLINE V smaller(V a, V b) { return hn::IfThenElse(hn::Lt(b, a), b, a); }

// One xoshiro256+ step of every lane.
HWY_INLINE VU xoshiro_next(VU& s0, VU& s1, VU& s2, VU& s3) {
    const VU result = hn::Add(s0, s3);
    const VU t = hn::ShiftLeft<17>(s1);
    s2 = hn::Xor(s2, s0);
    s3 = hn::Xor(s3, s1);
    s1 = hn::Xor(s1, s2);
    s0 = hn::Xor(s0, s3);
    s2 = hn::Xor(s2, t);
    s3 = hn::Or(hn::ShiftLeft<45>(s3), hn::ShiftRight<19>(s3));
    return result;
}

// A block of Exp(1) variates into `e` (block x the vector's lanes), one word per lane and draw, the draws in
// the remainder finished after the block from each lane's words: spot_lanes_kernel.inc's exponential_block.
HWY_INLINE void exponential_block(D d, const detail::ExponentialTables& t, double* e, std::size_t block, VU& s0,
                                  VU& s1, VU& s2, VU& s3) {
    const DU du;
    const hn::RebindToSigned<D> di;
    const std::size_t width = hn::Lanes(d);
    const VU exponent_52 = hn::Set(du, 0x4330000000000000ULL);
    const VU low_bits = hn::Set(du, (std::uint64_t{1} << detail::ExponentialTables::point_bits) - 1);
    V smallest = hn::Set(d, __builtin_inf());
    for (std::size_t b = 0; b < block; ++b) {
        const VU random = xoshiro_next(s0, s1, s2, s3);
        const VU slot = hn::ShiftRight<detail::ExponentialTables::point_bits>(random);
        const V width_of_slot = hn::GatherIndex(d, t.width, hn::BitCast(di, slot));
        const V half_odd = hn::Sub(hn::BitCast(d, hn::Or(hn::And(random, low_bits), exponent_52)), hn::Set(d, 0x1p52 - 0.5));
        const V x = hn::Mul(half_odd, width_of_slot);
        smallest = smaller(smallest, x);
        hn::Store(x, d, e + b * width);
    }
    if (hn::AllFalse(d, hn::Eq(smallest, hn::Zero(d)))) [[likely]]
        return;
    HWY_ALIGN std::uint64_t words[4][spot_lanes];
    hn::Store(s0, du, words[0]);
    hn::Store(s1, du, words[1]);
    hn::Store(s2, du, words[2]);
    hn::Store(s3, du, words[3]);
    for (std::size_t b = 0; b < block; ++b) {
        for (std::size_t j = 0; j < width; ++j) {
            if (e[b * width + j] != 0.0) continue;
            e[b * width + j] = detail::exponential_remainder(
                t, [&] { return detail::xoshiro_next(words[0][j], words[1][j], words[2][j], words[3][j]); });
        }
    }
    s0 = hn::Load(du, words[0]);
    s1 = hn::Load(du, words[1]);
    s2 = hn::Load(du, words[2]);
    s3 = hn::Load(du, words[3]);
}

// Lanes [first, first + Lanes(d)) for at most `iterations` launches: spot_lanes_kernel.inc's run_group.
HWY_INLINE bool run_group(const LaneJob& lanes, LaneState& state, std::size_t first, std::uint64_t iterations) {
    const D d;
    const DU du;
    const std::size_t width = hn::Lanes(d);
    const JobConstants& job = lanes.constants;
    const Columns& out = lanes.out;
    std::size_t active = 0;
    for (std::size_t j = 0; j < width; ++j) active += state.path[first + j] < lanes.count ? 1 : 0;
    if (active == 0) return true;
    VU s0 = hn::LoadU(du, state.rng[0] + first), s1 = hn::LoadU(du, state.rng[1] + first);
    VU s2 = hn::LoadU(du, state.rng[2] + first), s3 = hn::LoadU(du, state.rng[3] + first);
    V rest = hn::LoadU(d, state.rest + first), billed = hn::LoadU(d, state.billed + first);
    V lost = hn::LoadU(d, state.lost + first), restart = hn::LoadU(d, state.restart + first);
    V interruptions = hn::LoadU(d, state.interruptions + first);
    const V zero = hn::Zero(d), one = hn::Set(d, 1.0);
    const V c_restart = hn::Set(d, job.restart), tail = hn::Set(d, job.tail), last_work = hn::Set(d, job.last_work);
    const V tau = hn::Set(d, job.tau), seg = hn::Set(d, job.seg), inv_seg = hn::Set(d, job.inv_seg);
    const V mtbf = hn::Set(d, job.mtbf), fresh_rest = hn::Set(d, job.first_rest);
    const detail::ExponentialTables& tables = detail::exponential_tables();
    constexpr std::uint64_t block = detail::exponential_block_size;
    HWY_ALIGN double kills[block * spot_lanes];
    HWY_ALIGN double lane_values[6][spot_lanes];
    HWY_ALIGN std::uint64_t finished_bits[spot_lanes];
    for (std::uint64_t step = 0; step < iterations; ++step) {
        const std::uint64_t in_block = step % block;
        if (in_block == 0) {
            exponential_block(d, tables, kills, block, s0, s1, s2, s3);
            for (std::uint64_t b = 0; b < block; ++b)
                hn::Store(hn::Mul(hn::Load(d, kills + b * width), mtbf), d, kills + b * width);
        }
        const V kill = hn::Load(d, kills + in_block * width);
        const V run = hn::Sub(kill, restart);
        const auto finished = hn::Ge(run, rest);
        const bool any_finished = !hn::AllFalse(d, finished);
        if (any_finished) [[unlikely]] {
            hn::Store(hn::BitCast(du, hn::VecFromMask(d, finished)), du, finished_bits);
            hn::Store(billed, d, lane_values[0]);
            hn::Store(restart, d, lane_values[1]);
            hn::Store(rest, d, lane_values[2]);
            hn::Store(interruptions, d, lane_values[3]);
            hn::Store(lost, d, lane_values[4]);
            for (std::size_t j = 0; j < width; ++j) {
                if (finished_bits[j] == 0) continue;
                const std::size_t lane = first + j;
                const std::size_t i = state.path[lane];
                const double paid = lane_values[0][j] + (lane_values[1][j] + lane_values[2][j]);
                const double count = lane_values[3][j];
                out.wall[i] = paid + count * job.wait;
                out.billed[i] = paid;
                out.charged[i] = paid;
                out.cost[i] = paid * job.price;
                out.interruptions[i] = count;
                out.lost[i] = lane_values[4][j];
                state.path[lane] = i + spot_lanes;
            }
        }
        // interrupted(): every lane as if killed; the finished ones start afresh below.
        const V worked = hn::IfThenElse(hn::Lt(run, zero), zero, run);
        const V last_starts = hn::Sub(rest, tail);
        V whole = hn::Floor(hn::Mul(worked, inv_seg));
        whole = hn::IfThenElse(hn::Gt(hn::Mul(whole, seg), worked), hn::Sub(whole, one), whole);
        const V skipped = hn::Mul(whole, seg);
        const auto in_last = hn::Gt(worked, last_starts);
        const V lost_now = hn::IfThenElse(in_last, smaller(hn::Sub(worked, last_starts), last_work),
                                          smaller(hn::Sub(worked, skipped), tau));
        rest = hn::IfThenElse(in_last, tail, hn::Sub(rest, skipped));
        billed = hn::Add(billed, kill);
        lost = hn::Add(lost, lost_now);
        interruptions = hn::Add(interruptions, one);
        restart = c_restart;
        if (!any_finished) [[likely]]
            continue;
        rest = hn::IfThenElse(finished, fresh_rest, rest);
        billed = hn::IfThenElse(finished, zero, billed);
        lost = hn::IfThenElse(finished, zero, lost);
        restart = hn::IfThenElse(finished, zero, restart);
        interruptions = hn::IfThenElse(finished, zero, interruptions);
        HWY_ALIGN double rest_lanes[spot_lanes];
        hn::Store(rest, d, rest_lanes);
        bool changed = false;
        for (std::size_t j = 0; j < width; ++j) {
            if (finished_bits[j] != 0 && state.path[first + j] >= lanes.count) {
                rest_lanes[j] = __builtin_inf();  // no paths left: never finishes again
                changed = true;
                --active;
            }
        }
        if (changed) rest = hn::Load(d, rest_lanes);
        if (active == 0) break;
    }
    hn::StoreU(s0, du, state.rng[0] + first);
    hn::StoreU(s1, du, state.rng[1] + first);
    hn::StoreU(s2, du, state.rng[2] + first);
    hn::StoreU(s3, du, state.rng[3] + first);
    hn::StoreU(rest, d, state.rest + first);
    hn::StoreU(billed, d, state.billed + first);
    hn::StoreU(lost, d, state.lost + first);
    hn::StoreU(restart, d, state.restart + first);
    hn::StoreU(interruptions, d, state.interruptions + first);
    return active == 0;
}

bool PoissonLanes(const LaneJob& job, LaneState& state, std::uint64_t iterations) {
    const std::size_t width = hn::Lanes(D());
    bool all_done = true;
    for (std::size_t first = 0; first < spot_lanes; first += width)
        all_done = run_group(job, state, first, iterations) && all_done;
    return all_done;
}

}  // namespace gputco::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gputco::bench {

HWY_EXPORT(PoissonLanes);

bool poisson_lanes_highway(const detail::LaneJob& job, detail::LaneState& state, std::uint64_t iterations) {
    return HWY_DYNAMIC_DISPATCH(PoissonLanes)(job, state, iterations);
}

const char* highway_target() {
    const std::int64_t targets = hwy::SupportedTargets() & HWY_TARGETS;
    return hwy::TargetName(targets & -targets);  // the lowest bit is the best target
}

}  // namespace gputco::bench
#endif
