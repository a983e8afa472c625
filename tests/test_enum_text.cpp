#include <doctest/doctest.h>

#include <set>
#include <string>

#include "gputco/core/enum_text.hpp"
#include "gputco/gputco.hpp"

using namespace gputco;

namespace {
/// Every value's name parses back to the value, names are distinct, and a name that is not one of
/// them is rejected with the field, the text and the full list.
template <class E>
void round_trips(std::size_t expected_count) {
    std::set<std::string> names;
    for (const E value : all_values<E>()) {
        const std::string_view name = to_text(value);
        CAPTURE(name);
        CHECK(name != "unknown");
        CHECK(parse<E>(name, "field") == value);
        names.emplace(name);
    }
    CHECK(names.size() == expected_count);
    CHECK(all_values<E>().size() == expected_count);
    std::string list;
    for (const auto& n : text_names<E>()) list += (list.empty() ? "" : ", ") + n;
    if constexpr (!requires { EnumText<E>::aliases; }) {
        CHECK_THROWS_WITH_AS(parse<E>("no such value", "a.field"),
                             ("a.field = \"no such value\": must be one of " + list).c_str(), InvalidInput);
    }
}
}  // namespace

TEST_CASE("text -> enum -> text for every value of every enum written as text") {
    round_trips<Payment>(3);
    round_trips<PriceKind>(4);
    round_trips<DeadlinePolicy>(5);
    round_trips<TickDecision>(3);
    round_trips<RegionPolicy>(3);
    round_trips<BuyingWay>(5);
    round_trips<MatchKind>(4);
    round_trips<Precision>(2);
    round_trips<Units>(2);
    round_trips<Renewal>(2);
    round_trips<Rounding>(4);
    round_trips<CountUnit>(2);
    round_trips<CheckpointMethod>(3);
    round_trips<Objective>(2);
}

TEST_CASE("the names are the ones written before the tables") {
    CHECK(to_text(Payment::partial_upfront) == "partial_upfront");
    CHECK(to_text(PriceKind::reserved_3y) == "reserved_3y");
    CHECK(to_text(DeadlinePolicy::uniform_progress_prose) == "uniform_progress_prose");
    CHECK(to_text(RegionPolicy::skypilot_eager_next_region) == "skypilot_eager_next_region");
    CHECK(to_text(BuyingWay::owned) == "owned");
    CHECK(to_text(MatchKind::none) == "none");
    CHECK(to_text(Units::instances) == "instances");
    CHECK(to_text(Rounding::nearest) == "nearest");
    CHECK(to_text(CheckpointMethod::daly) == "daly");
    // The old entry points forward to the tables.
    CHECK(to_string(Payment::all_upfront) == "all_upfront");
    CHECK(parse_payment("no_upfront") == Payment::no_upfront);
    CHECK(all_deadline_policies() == all_values<DeadlinePolicy>());
}

TEST_CASE("aliases parse but are never written") {
    CHECK(parse<Precision>("tf32", "precision") == Precision::fp32);
    CHECK(parse<Precision>("fp16", "precision") == Precision::mixed);
    CHECK(parse<Precision>("amp", "precision") == Precision::mixed);
    CHECK(to_text(parse<Precision>("amp", "precision")) == "mixed");
    CHECK_THROWS_WITH_AS(parse<Precision>("int8", "workload.precision"),
                         "workload.precision = \"int8\": must be one of fp32, mixed (aliases: tf32 = fp32, fp16 = "
                         "mixed, amp = mixed)",
                         InvalidInput);
    CHECK_THROWS_AS(parse<Payment>("All_Upfront", "payment"), InvalidInput);  // case-sensitive
}
