"""Serving on spot across zones: hand-computed runs, the plan search and its messages."""
import json
from pathlib import Path

import numpy as np
import pytest

import gputco

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "spot_traces_aws_2023_02_15"
ONE = {"values": "available_nodes", "nodes_needed": 1}  # the authors' traces count instances; one is needed
ZONES = ("us-east-1c", "us-east-2a", "us-west-2a")


def zone(name, bits, price=1.0):
    return gputco.SpotRegion(name, gputco.SpotAvailability(bits), price)


def test_a_launch_delay_leaves_a_gap_that_a_notice_closes():
    # One zone down in ticks 10-14, N = 2, $1 spot, $3 on demand, 2-tick launch: on-demand launched at 10
    # is ready at 12 and released at 17, when spot relaunched at 15 is ready.
    zones = [zone("a", [1] * 10 + [0] * 5 + [1] * 5)]
    late = gputco.simulate_serving(zones, "even_spread_fallback", target_replicas=2, on_demand_price_per_hour=3.0,
                                   launch_hours=2)
    assert late.cost == 30 + 14 * 3.0
    assert late.availability == pytest.approx(0.9)
    assert late.ready_histogram == [2, 0, 18]
    assert late.saving == pytest.approx(1 - late.cost / 120.0)
    warned = gputco.simulate_serving(zones, "even_spread_fallback", target_replicas=2, on_demand_price_per_hour=3.0,
                                     launch_hours=2, notice_hours=2)
    assert warned.availability == 1.0
    np.testing.assert_array_equal(warned.ready, np.full(20, 2, dtype=np.uint32))
    # On-demand with no capacity in ticks 10-11 (no launch delay): the fallback waits until 12.
    scarce = gputco.simulate_serving(zones, "even_spread_fallback", target_replicas=2, on_demand_price_per_hour=3.0,
                                     on_demand=gputco.SpotAvailability([1] * 10 + [0] * 2 + [1] * 8))
    assert scarce.on_demand_hours == 6
    assert scarce.ready_histogram == [2, 0, 18]


def test_the_real_trace_each_policy_and_the_bound():
    zones = [gputco.SpotRegion(z, gputco.SpotAvailability.from_json(DATA / f"{z}_v100_1.json", **ONE), 0.9731)
             for z in ZONES]
    # Each zone's share, from the JSON text read here.
    for z, region in zip(ZONES, zones):
        data = json.loads((DATA / f"{z}_v100_1.json").read_text())["data"]
        assert region.availability.available_ticks() == sum(data)
    # With instant re-placement SpotHedge (E = 0, one spot price) is the bound; the bound is N times the
    # cheapest price on offer in each tick, computed here from the flags.
    flags = np.array([[bool(x) for x in json.loads((DATA / f"{z}_v100_1.json").read_text())["data"]] for z in ZONES])
    tick = 195 / 3600
    expected = 4 * tick * np.where(flags.any(axis=0), 0.9731, 3.06).sum()
    bound = gputco.serving_lower_bound(zones, target_replicas=4, on_demand_price_per_hour=3.06)
    hedge = gputco.simulate_serving(zones, "spot_hedge", target_replicas=4, on_demand_price_per_hour=3.06)
    assert bound.cost == pytest.approx(expected, rel=1e-12)
    assert hedge.cost == pytest.approx(expected, rel=1e-12)
    assert hedge.availability == 1.0
    assert gputco.serving_policies() == ["static_spread", "even_spread_fallback", "spot_hedge"]


def test_the_plan_is_the_cheapest_candidate_meeting_the_target():
    zones = [gputco.SpotRegion(z, gputco.SpotAvailability.from_json(DATA / f"{z}_v100_1.json", **ONE), 0.9731)
             for z in ZONES]
    plan = gputco.choose_serving_plan(zones, target_replicas=4, on_demand_price_per_hour=3.06,
                                      availability_target=0.99, max_extra=3, max_on_demand_base=4,
                                      launch_hours=4 * 195 / 3600)
    assert len(plan.candidates) == 3 * 4 * 5
    meeting = [c for c in plan.candidates if c.meets_target]
    assert plan.best is not None
    best = plan.candidates[plan.best]
    assert best.result.cost == min(c.result.cost for c in meeting)
    assert all((c.result.availability >= 0.99) == c.meets_target for c in plan.candidates)
    # One candidate run again on its own gives the same figures.
    again = gputco.simulate_serving(zones, best.policy, target_replicas=4, on_demand_price_per_hour=3.06,
                                    extra_spot=best.extra_spot, on_demand_base=best.on_demand_base,
                                    launch_hours=4 * 195 / 3600)
    assert again.cost == best.result.cost
    assert plan.lower_bound.availability == 1.0
    # The frontier: cost and availability both rise along it; the best for 0.99 is on it.
    frontier = gputco.serving_frontier(plan)
    points = [(plan.candidates[i].result.cost, plan.candidates[i].result.availability) for i in frontier]
    assert points == sorted(points) and all(a[1] < b[1] for a, b in zip(points, points[1:]))
    assert plan.best in frontier


def test_messages_name_the_field():
    zones = [zone("a", [1, 1, 0])]
    with pytest.raises(ValueError, match=r"^policy = \"hedge\": must be one of static_spread, even_spread_fallback, "
                                         r"spot_hedge$"):
        gputco.simulate_serving(zones, "hedge", target_replicas=1, on_demand_price_per_hour=3.0)
    with pytest.raises(ValueError, match=r"^serving.on_demand_base = 2: must be <= target_replicas = 1$"):
        gputco.simulate_serving(zones, "spot_hedge", target_replicas=1, on_demand_price_per_hour=3.0, on_demand_base=2)
    with pytest.raises(ValueError, match=r"^policies\[1\] = \"x\": must be one of"):
        gputco.choose_serving_plan(zones, target_replicas=1, on_demand_price_per_hour=3.0,
                                   policies=["spot_hedge", "x"])
    with pytest.raises(ValueError, match=r"^search.availability_target = 1.5: must be in \(0, 1\]$"):
        gputco.choose_serving_plan(zones, target_replicas=1, on_demand_price_per_hour=3.0, availability_target=1.5)


def test_a_deadline_failover_that_finds_no_on_demand():
    # Greedy, d = 0, C0 = 4 h due at 6 h, spot never: on-demand at slack 0 (tick 2) finds none until 3.
    job = gputco.DeadlineJob(compute_hours=4, deadline_hours=6)
    r = gputco.simulate_deadline_with_capacity(job, gputco.SpotAvailability([0] * 6),
                                               gputco.SpotAvailability([0, 0, 0, 1, 1, 1]), "greedy", 1.0, 3.0)
    assert (r.finish_hours, r.met_deadline, r.cost) == (7, False, 12)
    # On-demand only with no slack meets its deadline iff its first launch finds capacity: 1 - u.
    capacity = gputco.OnDemandCapacity(unavailable_share=0.25, mean_wait_hours=2, source="assumption")
    risk = gputco.deadline_capacity_risk(gputco.DeadlineJob(compute_hours=6, deadline_hours=7, changeover_hours=1),
                                         gputco.MarkovAvailability(mean_up_hours=5, mean_down_hours=2), capacity,
                                         "on_demand_only", 1.0, 3.0, paths=4000, seed=2)
    assert abs(risk.deadline_met_probability - 0.75) <= 4 * (0.75 * 0.25 / 4000) ** 0.5
    with pytest.raises(ValueError, match=r"^capacity.unavailable_share = 1: must be in \[0, 1\)$"):
        gputco.OnDemandCapacity(unavailable_share=1)


def test_a_scenario_with_a_service_runs_in_python_as_in_the_library():
    path = Path(__file__).resolve().parents[2] / "examples" / "scenarios" / "serve_on_spot.yaml"
    rows = gputco.run_services(path)
    assert list(rows["policy"]) == ["static_spread", "even_spread_fallback", "spot_hedge", "omniscient_bound"]
    assert list(rows["chosen"]).count("yes") == 1
    # The chosen row is the search's best, run here directly.
    zones = [gputco.SpotRegion(z, gputco.SpotAvailability.from_json(DATA / f"{z}_v100_1.json", **ONE), 0.9731)
             for z in ZONES]
    plan = gputco.choose_serving_plan(zones, target_replicas=4, on_demand_price_per_hour=3.06,
                                      availability_target=0.99, max_extra=4, max_on_demand_base=4,
                                      launch_hours=0.21666666666666667)
    best = plan.candidates[plan.best]
    chosen = rows[rows["chosen"] == "yes"].iloc[0]
    assert (chosen["policy"], chosen["extra_spot"], chosen["on_demand_base"]) == \
        (best.policy, best.extra_spot, best.on_demand_base)
    assert chosen["cost"] == best.result.cost


def test_a_committed_base_plus_spot_on_top_by_hand():
    # N = 2, base 1 on a $2/h offering with a $8,760 1-year all-upfront reservation; spot $0.80 up half
    # the run. The run: spot 5 × 0.8 + base 10 × 2 + fallback 5 × 2 = $34, above the base $1.40/h. Over
    # the year: $8,760 + 1.40 × 8,760 = $21,024 (tests/test_serving_commitment.cpp, the same case).
    offering = gputco.Offering(provider="testcloud", region="test-1", instance_type="g1", gpu="A100-40GB",
                               gpus_per_instance=1, on_demand_hourly=2.0, spot_hourly=0.8,
                               reserved=[gputco.ReservedPrice(term_years=1, payment="all_upfront", upfront=8760.0,
                                                              hourly=0.0, source=gputco.Source("test", "2026-01"))],
                               source=gputco.Source("hand-made test offering", "2026-01"))
    plan = gputco.choose_serving_plan([zone("a", [1] * 5 + [0] * 5, 0.8)], target_replicas=2,
                                      on_demand_price_per_hour=2.0, availability_target=1.0, max_extra=0,
                                      max_on_demand_base=1, policies=["even_spread_fallback"], threads=1)
    (with_base,) = [c for c in plan.candidates if c.on_demand_base == 1]
    assert with_base.result.cost == pytest.approx(34.0)
    cost = gputco.committed_base_cost(with_base, offering, target_replicas=2, on_demand_price_per_hour=2.0)
    assert (cost.base_commitment_cost, cost.spot_and_fallback_cost, cost.total) == \
        pytest.approx((8760.0, 12_264.0, 21_024.0))
    # Without a base the run is 2 spot × 5 × 0.8 + 2 fallback × 5 × 2 = $28, the cheapest on demand, but
    # $2.80/h over the year is $24,528: committed, the base of 1 wins.
    assert plan.candidates[plan.best].on_demand_base == 0
    best = gputco.cheapest_with_committed_base(plan, offering, target_replicas=2, on_demand_price_per_hour=2.0)
    assert plan.candidates[best].on_demand_base == 1
    with pytest.raises(ValueError, match=r"^base\.term_years = 2: must be 1 or 3$"):
        gputco.committed_base_cost(with_base, offering, target_replicas=2, on_demand_price_per_hour=2.0, term_years=2)
