// The recommender's dated windows of demand and the capacity blocks it may buy for them (see
// programme.hpp): each block a whole-instance column, each month touched by a window or a block cut
// into pieces as the plan engine cuts it (engines/instruments/windows.hpp), so that the programme's
// served hours in a piece are those of the month with every hour's load moved by the window's GPUs.
#include <algorithm>
#include <cmath>

#include "programme.hpp"

#include "../engines/instruments/capacity_block.hpp"
#include "../engines/instruments/flex_start.hpp"

namespace gputco::detail {
namespace {

/// The block of `days` from `start_day` for a window, with its price and usable hours, as the engine
/// prices it (price_capacity_block checks AWS's rules and names the field).
BlockCandidate candidate(int start_day, int days, const CapacityBlockOption& option, const Offering& offering,
                         double region, int horizon) {
    CapacityBlock b;
    b.instances = 1;
    b.days = days;
    b.start_day = start_day;
    b.lead_days = std::min(option.lead_days, start_day);
    b.price_per_instance_hour = option.price_per_instance_hour;
    b.kind = option.kind;
    const instruments::PricedBlock priced = instruments::price_capacity_block(b, 0, offering, region, horizon);
    BlockCandidate k;
    k.block = b;
    k.gpus_per_instance = offering.gpus_per_instance;
    k.upfront_per_instance = priced.upfront;
    k.purchase_month = priced.purchase_month;
    k.paid_as_it_runs = priced.paid_as_it_runs;
    if (!priced.paid_as_it_runs) k.payments.push_back({priced.purchase_month, priced.upfront});
    else
        for (int m = 0; m < horizon; ++m)
            if (const double paid = priced.paid_in(m); paid > 0) k.payments.push_back({m, paid});
    k.start_hour = priced.start_hour;
    k.end_hour = priced.start_hour + priced.usable_hours;
    return k;
}

}  // namespace

void set_up_windows(Setup& setup, const Offering& offering, const RecommendOptions& o, std::size_t futures) {
    const int horizon = setup.horizon;
    const std::vector<DemandWindow>& windows = o.plan_options.windows;
    for (std::size_t i = 0; i < windows.size(); ++i)
        check_window(windows[i], fmt::format("options.plan_options.windows[{}]", i), horizon);
    if (o.capacity_blocks) {
        const CapacityBlockOption& option = *o.capacity_blocks;
        const bool calendar = option.kind == BlockKind::gcp_calendar_mode;
        if (calendar)
            require(option.lead_days >= 0, "options.capacity_blocks.lead_days", option.lead_days, "must be >= 0");
        else
            require(option.lead_days >= 0 && option.lead_days <= CapacityBlock::max_lead_days,
                    "options.capacity_blocks.lead_days", option.lead_days,
                    fmt::format("must be in [0, {}] (a block starts at most 8 weeks after its purchase)",
                                CapacityBlock::max_lead_days));
        if (option.price_per_instance_hour)
            require_positive("options.capacity_blocks.price_per_instance_hour", *option.price_per_instance_hour);
        else if (calendar)
            fail("options.capacity_blocks.price_per_instance_hour", "none",
                 "is needed for kind gcp_calendar_mode: the catalog has no calendar-mode rate");
        else
            instruments::catalog_block_rate(offering, "options.capacity_blocks.price_per_instance_hour");
        const double horizon_days = horizon * hours_per_month / 24.0;
        const double region = o.plan_options.discounts.region_price_factor;
        for (const DemandWindow& w : windows) {
            if (w.gpus <= 0) continue;
            const int start = int(std::floor(w.start_day));
            const double hours = 24.0 * (w.start_day + w.days - start);
            std::vector<int> lengths;
            if (calendar) {
                // Any whole number of days to 90, every hour usable: the days that hold the window, and
                // one fewer (which leaves less than a day of it).
                const int holds = std::max(1, int(std::ceil(hours / 24.0 - 1e-9)));
                for (int d : {holds, holds - 1})
                    if (d >= 1 && d <= CapacityBlock::calendar_max_days && start + d <= horizon_days)
                        lengths.push_back(d);
                for (int d : lengths) setup.blocks.push_back(candidate(start, d, option, offering, region, horizon));
                continue;
            }
            const std::optional<int> holds = CapacityBlock::shortest_days_for(hours);
            if (holds && start + *holds <= horizon_days) lengths.push_back(*holds);
            // A shorter length sold leaving less than a day of the window to the other tiers.
            for (int d = holds ? *holds - 1 : CapacityBlock::max_weekly_days; d >= 1; --d) {
                if (!CapacityBlock::sellable_days(d)) continue;
                if (24.0 * d >= hours - 24.0 && start + d <= horizon_days) lengths.push_back(d);
                break;
            }
            for (int d : lengths) setup.blocks.push_back(candidate(start, d, option, offering, region, horizon));
        }
    }
    if (o.flex_start) {
        // One request per window start (the engine draws a request's grant from its start), for the
        // window's first seven days at most, priced and drawn by the engine's own instrument.
        const double on_demand = offering.on_demand_per_gpu_hour() * o.plan_options.discounts.region_price_factor;
        std::vector<instruments::PricedFlexStart> priced;
        for (const DemandWindow& w : windows) {
            if (w.gpus <= 0) continue;
            if (std::any_of(setup.flex.begin(), setup.flex.end(),
                            [&](const FlexCandidate& k) { return k.request.start_day == w.start_day; }))
                continue;
            FlexCandidate k;
            k.request = {.gpus = double(offering.gpus_per_instance), .start_day = w.start_day,
                         .days = std::min(w.days, FlexStartRequest::max_days), .discount = o.flex_start->discount,
                         .grant_probability = o.flex_start->grant_probability};
            k.gpus_per_instance = offering.gpus_per_instance;
            priced.push_back(instruments::price_flex_start(k.request, 0, offering, on_demand, horizon));
            const instruments::PricedBlock& run = priced.back().run;
            k.start_hour = run.start_hour;
            k.end_hour = run.start_hour + run.usable_hours;
            for (int m = 0; m < horizon; ++m)
                if (const double paid = run.paid_in(m); paid > 0) k.payments.push_back({m, paid});
            k.granted.resize(futures);
            setup.flex.push_back(std::move(k));
        }
        std::vector<char> granted;
        for (std::size_t f = 0; f < futures; ++f) {
            instruments::draw_grants(priced, o.plan_options.seed, f, granted);
            for (std::size_t j = 0; j < setup.flex.size(); ++j) setup.flex[j].granted[f] = granted[j];
        }
    }
    // Per month, the pieces of windows and candidate blocks, as instruments::month_pieces cuts them.
    setup.pieces.assign(std::size_t(horizon), {});
    setup.window_peak.assign(std::size_t(horizon), 0.0);
    for (int m = 0; m < horizon; ++m) {
        const double first = m * hours_per_month, last = first + hours_per_month;
        std::vector<double> cuts{first, last};
        bool touched = false;
        const auto cut = [&](double start, double end) {
            if (end <= first || start >= last) return;
            touched = true;
            cuts.push_back(std::clamp(start, first, last));
            cuts.push_back(std::clamp(end, first, last));
        };
        for (const DemandWindow& w : windows)
            if (w.gpus > 0) cut(24.0 * w.start_day, 24.0 * (w.start_day + w.days));
        for (const BlockCandidate& b : setup.blocks) cut(b.start_hour, b.end_hour);
        for (const FlexCandidate& k : setup.flex) cut(k.start_hour, k.end_hour);
        if (!touched) continue;
        std::sort(cuts.begin(), cuts.end());
        cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
        std::vector<WindowPiece>& pieces = setup.pieces[std::size_t(m)];
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
            const double mid = 0.5 * (cuts[i] + cuts[i + 1]);
            WindowPiece p{(cuts[i + 1] - cuts[i]) / hours_per_month, 0, {}, {}};
            for (const DemandWindow& w : windows)
                if (w.gpus > 0 && 24.0 * w.start_day <= mid && mid < 24.0 * (w.start_day + w.days)) p.extra += w.gpus;
            for (std::size_t j = 0; j < setup.blocks.size(); ++j)
                if (setup.blocks[j].start_hour <= mid && mid < setup.blocks[j].end_hour) p.blocks.push_back(j);
            for (std::size_t j = 0; j < setup.flex.size(); ++j)
                if (setup.flex[j].start_hour <= mid && mid < setup.flex[j].end_hour) p.flex.push_back(j);
            setup.window_peak[std::size_t(m)] = std::max(setup.window_peak[std::size_t(m)], p.extra);
            const auto same = std::find_if(pieces.begin(), pieces.end(), [&](const WindowPiece& q) {
                return q.extra == p.extra && q.blocks == p.blocks && q.flex == p.flex;
            });
            if (same != pieces.end()) same->weight += p.weight;
            else pieces.push_back(std::move(p));
        }
    }
}

}  // namespace gputco::detail
