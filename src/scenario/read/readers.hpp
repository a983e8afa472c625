// The readers of a scenario file's top-level keys, one file each under src/scenario/read/, and what
// they share besides the Scenario they fill. read_scenario() (scenario_yaml.cpp) runs them in order
// from its table; a reader throws InvalidInput with each of its errors on a line of its own (it reads
// on past an error where what follows does not depend on it: Errors in field.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "field.hpp"

namespace gputco::scenario_read {

/// What the readers pass on to the ones after them and to the checks across keys.
struct ReadState {
    Catalog catalog = Catalog::builtin();  // built step by step by `catalog`, so a file that does not load is named at its place
    std::optional<Field> offering_field;   // the top-level `offering`, for "not in the catalog"
    std::vector<Field> deadline_fields;    // each deadline job's place, for the offering's spot price check
    std::vector<Field> plan_fields;        // each plan's place, for the pricing check
};

/// Reads one top-level key (or a check of it) of `top` into `s`.
using KeyReader = void (*)(const Field::Map& top, Scenario& s, ReadState& state);

// settings.cpp: the scalar settings, discounts and outputs.
void read_name(const Field::Map& top, Scenario& s, ReadState& state);
void read_description(const Field::Map& top, Scenario& s, ReadState& state);
void read_horizon_months(const Field::Map& top, Scenario& s, ReadState& state);
void read_currency(const Field::Map& top, Scenario& s, ReadState& state);
void read_annual_discount_rate(const Field::Map& top, Scenario& s, ReadState& state);
void read_units(const Field::Map& top, Scenario& s, ReadState& state);
void read_seed(const Field::Map& top, Scenario& s, ReadState& state);
void read_discounts(const Field::Map& top, Scenario& s, ReadState& state);
void read_outputs(const Field::Map& top, Scenario& s, ReadState& state);

// offering.cpp: `catalog` (file, price files, offerings) and `offering`.
void read_catalog(const Field::Map& top, Scenario& s, ReadState& state);
void read_offering_key(const Field::Map& top, Scenario& s, ReadState& state);
/// The scenario's offering in the catalog built by read_catalog, or InvalidInput at `offering`.
const Offering& find_offering(const Scenario& s, const ReadState& state);

// demand.cpp
void read_demand_key(const Field::Map& top, Scenario& s, ReadState& state);

// strategies.cpp: `strategies`; read_owned is also a plan's owned purchase's terms.
void read_strategies(const Field::Map& top, Scenario& s, ReadState& state);
Owned read_owned(const Field& f);

// spot_jobs.cpp
void read_spot_jobs(const Field::Map& top, Scenario& s, ReadState& state);

// deadline_jobs.cpp
void read_deadline_jobs(const Field::Map& top, Scenario& s, ReadState& state);
/// A deadline job without its own prices needs the offering's spot price.
void check_deadline_prices(const Scenario& s, const ReadState& state, const Offering& offering);

// services.cpp
void read_services(const Field::Map& top, Scenario& s, ReadState& state);

// futures.cpp: `futures`, and its check that plans use them.
void read_futures_key(const Field::Map& top, Scenario& s, ReadState& state);
void check_futures_have_plans(const Field::Map& top, Scenario& s, ReadState& state);

// price_model.cpp: `price_model`, and its check that plans use it.
void read_price_model_key(const Field::Map& top, Scenario& s, ReadState& state);
void check_price_model_has_plans(const Field::Map& top, Scenario& s, ReadState& state);

// plans.cpp
void read_plans(const Field::Map& top, Scenario& s, ReadState& state);
/// A commitment already held (a plan's `held` item, a recommend section's `held` item).
HeldCommitment read_held(const Field& item);
/// A Savings Plan item: a plan's (start_month a month of the horizon, renew or lapse), or one already held
/// (`held`: start_month required and < 0, no renewal; a recommend section's held_savings_plans).
SavingsPlan read_savings_plan(const Field& item, int months, bool held);
/// `demand_windows`: dated windows of demand on top of the plans' futures.
void read_demand_windows(const Field::Map& top, Scenario& s, ReadState& state);
/// Each plan must price on the offering (a reservation it lists, a spot price): one future tells.
void check_plans_price(const Scenario& s, const ReadState& state, const Offering& offering);

// recommend.cpp: `recommend`, a recommendation over the futures (after futures and demand_windows).
void read_recommend_key(const Field::Map& top, Scenario& s, ReadState& state);

// workloads.cpp: read once the catalog and the offering are known to be good.
void read_workloads(const Field::Map& top, Scenario& s, const ReadState& state, const Offering& offering);

// llm_training.cpp, llm_serving.cpp (sharing llm_common.hpp): LLM jobs, read once the catalog and the
// offering (its currency) are known to be good.
void read_llm_training(const Field::Map& top, Scenario& s, const ReadState& state, const Offering& offering);
void read_llm_serving(const Field::Map& top, Scenario& s, const ReadState& state, const Offering& offering);

}  // namespace gputco::scenario_read
