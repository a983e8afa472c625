"""The recommender's capacity-assurance limit and the frontier of price against assurance, through Python
(the hand-worked case of tests/test_recommend_capacity.cpp)."""
import math

import pytest

import gputco


def _case():
    offering = gputco.Offering(provider="testcloud", region="test-1", instance_type="g1", gpu="A100-40GB",
                               gpus_per_instance=1, on_demand_hourly=2.0, spot_hourly=0.8,
                               source=gputco.Source("hand-made test offering", "2026-01"))
    futures = gputco.DemandFutures.generate(gputco.DemandModel(4), gputco.Horizon.months(12), 1, 7)
    keywords = dict(commitments=[gputco.CommitmentOption(term_years=1, payment="no_upfront", reservation_discount=0.2)],
                    start_months=[0],
                    spot=[gputco.SpotOption(name="spot", overhead=1, availability=0.5, price_per_gpu_hour=0.6)],
                    on_demand_capacity=gputco.OnDemandCapacity(unavailable_share=0.2, mean_wait_hours=2),
                    threads=1)
    return offering, futures, keywords


def test_the_limit_and_the_frontier_match_the_hand_worked_case():
    # 8,760 h × (1.60 c + 1.30 (4 − c)) at assurance 0.9 + 0.025 c (c committed GPUs).
    offering, futures, keywords = _case()
    free = gputco.recommend_plan(futures, offering, **keywords)
    assert free.in_sample.total.mean == pytest.approx(45_552.0)
    assert free.capacity_assurance == pytest.approx(0.9)
    limited = gputco.recommend_plan(futures, offering, capacity_assurance=0.95, **keywords)
    assert limited.in_sample.total.mean == pytest.approx(50_808.0)
    assert limited.capacity_assurance == pytest.approx(0.95)
    assert gputco.capacity_assurance(limited.plan, futures, offering, keywords["on_demand_capacity"]) == \
        pytest.approx(0.95)
    points = gputco.capacity_assurance_frontier(futures, offering, [0.97, 1.0], **keywords)
    assert [p.mean for p in points] == pytest.approx([53_436.0, 56_064.0])
    assert [p.assurance for p in points] == pytest.approx([0.975, 1.0])


def test_a_level_no_plan_meets_is_a_value_error_and_a_marked_point():
    offering, futures, keywords = _case()
    keywords["max_count"] = 1
    with pytest.raises(ValueError, match=r"^limits\.capacity_assurance = 0\.95: no plan meets it over these futures "
                                         r"\(all on demand has capacity assurance 0\.800000"):
        gputco.recommend_plan(futures, offering, capacity_assurance=0.95, **keywords)
    (point,) = gputco.capacity_assurance_frontier(futures, offering, [0.95], **keywords)
    assert not point.feasible and math.isnan(point.mean)
    assert point.reason.startswith("limits.capacity_assurance = 0.95: no plan meets it")
    with pytest.raises(ValueError, match=r"^limits\.capacity_assurance = 1\.5: must be in \[0, 1\]$"):
        gputco.recommend_plan(futures, offering, capacity_assurance=1.5, **keywords)
