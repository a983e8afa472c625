// Plans over time (see plan.hpp): the Mix shorthand converted. A plan's short name, describe(Plan), is
// in src/engines/plan_core.cpp beside the other places that list every kind of instrument.
#include "gputco/strategy/plan.hpp"

namespace gputco {
Plan plan_from_mix(const Mix& mix, double default_fleet_gpus) {
    Plan plan = plan_from_mix_in_units(mix, default_fleet_gpus, Units::gpus, 1);
    plan.name = describe(Strategy{mix});
    return plan;
}

Plan plan_from_mix_in_units(const Mix& mix, double default_fleet_gpus, Units units, int gpus_per_instance) {
    require(!mix.tranches.empty(), "mix.tranches.size", mix.tranches.size(), "must be >= 1");
    mix.validate();
    double fraction_sum = 0;
    for (std::size_t i = 0; i < mix.tranches.size(); ++i) {
        fraction_sum += require_fraction(fmt::format("mix.tranches[{}].fraction", i), mix.tranches[i].fraction);
    }
    require(std::abs(fraction_sum - 1.0) <= 1e-9, "mix.fractions (sum)", fraction_sum, "must sum to 1");
    const double fleet = mix.fleet_gpus ? require_non_negative("mix.fleet_gpus", *mix.fleet_gpus)
                                        : require_non_negative("fleet_gpus", default_fleet_gpus);
    Plan plan;
    plan.billing = units;
    // Cloud shares are bought in whole units (instances or GPUs); owned hardware by the GPU.
    const double unit = units == Units::instances ? gpus_per_instance : 1;
    const Rounding unit_rounding = unit > 1 && mix.rounding == Rounding::none ? Rounding::up : mix.rounding;
    for (std::size_t i = 0; i < mix.tranches.size(); ++i) {
        const Tranche& tranche = mix.tranches[i];
        const double share = tranche.fraction * fleet;
        const double gpus = std::holds_alternative<Owned>(tranche.kind) ? round_count(share, mix.rounding)
                                                                         : unit * round_count(share / unit, unit_rounding);
        if (const auto* reserved = std::get_if<Reserved>(&tranche.kind)) {
            plan.commitments.push_back(Commitment{.count = gpus,
                                                  .unit = CountUnit::gpus,
                                                  .term_years = reserved->term_years,
                                                  .payment = reserved->payment,
                                                  .start_month = 0,
                                                  .renewal = reserved->renewal,
                                                  .reservation_discount = reserved->reservation_discount,
                                                  .offering = std::nullopt});
        } else if (const auto* owned = std::get_if<Owned>(&tranche.kind)) {
            plan.owned.push_back(OwnedPurchase{gpus, 0, *owned});
        } else if (const auto* spot = std::get_if<SpotTranche>(&tranche.kind)) {
            SpotShare part{gpus, spot->price_per_gpu_hour, spot->overhead, spot->availability, {},
                            spot->overhead_samples};
            if (plan.spot) {
                plan.more_spot.push_back(std::move(part));
            } else {
                plan.spot = std::move(part);
            }
        }
    }
    return plan;
}

double held_gpus_in(const std::vector<HeldCommitment>& held, int month, int gpus_per_instance) {
    double gpus = 0;
    for (const HeldCommitment& h : held) {
        if (month < h.start_month || month >= h.end_month) continue;
        gpus += h.unit == CountUnit::gpus ? h.count : h.count * (h.offering ? h.offering->gpus_per_instance : gpus_per_instance);
    }
    return gpus;
}

}  // namespace gputco
