"""Capacity blocks, dated windows of demand and short terms from Python (docs/models.md, section 7.1)."""
import pytest

import gputco


def p5():
    return gputco.catalog().offering("aws", "p5.48xlarge", "us-east-1")


def test_block_for_a_window_by_hand():
    # 2 × p5.48xlarge for 10 days at the catalog's $39.33/h: 2 × 240 × 39.33 = 18,878.40 paid at
    # purchase; 2 × 239.5 = 479 usable instance-hours; the window's last half hour (16 × 0.5 GPU-h)
    # runs on demand at 55.04 / 8 = 6.88 per GPU-h, per GPU (a plan's default billing): 55.04.
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(0, gputco.Horizon.months(3)))
    plan = gputco.Plan(capacity_blocks=[gputco.CapacityBlock(instances=2, days=10, start_day=35, lead_days=14)])
    window = gputco.DemandWindow(start_day=35, days=10, gpus=16)
    d = gputco.evaluate_plan(plan, futures, p5(), windows=[window])
    assert d.total.mean == pytest.approx(18878.40 + 55.04, rel=1e-12)
    assert d.mean_committed_spend / 479 == pytest.approx(39.41210856, rel=1e-9)
    assert plan.capacity_blocks[0].usable_hours == 239.5
    both = gputco.compare_plans([gputco.Plan(), plan], futures, p5(), windows=[window])
    assert both[0].total.mean == pytest.approx(16 * 240 * 6.88, rel=1e-12)
    # No price given: the result names the catalog's rate, its source and its date.
    assert len(d.catalog_rates) == 1
    assert d.catalog_rates[0].startswith("plan.capacity_blocks[0]: 39.3300 USD/instance-h, the capacity-block rate "
                                         "of aws/us-east-1/p5.48xlarge in the catalog, AWS, 'Amazon EC2 Capacity "
                                         "Blocks for ML Pricing'")
    assert d.catalog_rates[0].endswith("(2024-12)")
    assert both[0].catalog_rates == []


def test_catalog_block_rate_has_its_own_source_and_date():
    # AWS's Capacity Blocks for ML pricing table (prices in force until 2025-01-01), row
    # "p5.48xlarge  US East (N. Virginia)  $39.33 USD  $4.916 USD".
    o = p5()
    assert o.capacity_block_hourly == 39.33
    assert o.capacity_block_source.as_of == "2024-12"
    assert "$39.33" in o.capacity_block_source.row
    assert o.capacity_block_source.as_of != o.source.as_of  # not the on-demand price's date
    # GCP A4 is sold only through reservations (its list price kept for them): no on-demand hours.
    a4 = [x for x in gputco.catalog().find(provider="gcp") if x.instance_type == "a4-highgpu-8g"]
    assert a4 and all(x.reservation_only and not x.sells_on_demand() for x in a4)


def test_rules_reach_python_as_value_errors():
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(0, gputco.Horizon.months(3)))
    plan = gputco.Plan(capacity_blocks=[gputco.CapacityBlock(instances=65, days=1, start_day=0)])
    with pytest.raises(ValueError, match=r"^plan\.capacity_blocks\[0\]\.instances = 65: must be in \[1, 64\]$"):
        gputco.evaluate_plan(plan, futures, p5())
    with pytest.raises(ValueError, match=r"^options\.windows\[0\]\.days = 0: must be finite and > 0$"):
        gputco.evaluate_plan(gputco.Plan(), futures, p5(), windows=[gputco.DemandWindow(start_day=0, days=0, gpus=1)])
    short = gputco.Plan([gputco.Commitment(8, term_months=4, reservation_discount=0.2)])
    with pytest.raises(ValueError, match=r"term_months = 4: must be 0 \(a term of term_years\), or 1, 3 or 6"):
        gputco.evaluate_plan(short, futures, p5())


def test_short_term():
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(8, gputco.Horizon.months(6)))
    plan = gputco.Plan([gputco.Commitment(8, term_months=3, reservation_discount=0.25)])
    assert plan.commitments[0].term_months == 3
    d = gputco.evaluate_plan(plan, futures, p5())
    # 3 months at 0.75 × 6.88 per GPU-h, then 3 on demand at 6.88.
    assert d.total.mean == pytest.approx(8 * 730 * 6.88 * (3 * 0.75 + 3), rel=1e-12)


def test_recommender_buys_a_block_for_the_window_by_hand():
    # A steady 16 GPUs for a year plus 64 GPUs for 10 days from day 60, on p5.48xlarge (55.04/h on
    # demand = 6.88 per GPU-h; blocks 39.33 per instance-hour). Worked in tests/test_recommend_blocks.cpp:
    # 16 GPUs × 8,760 h × 0.7 × 6.88 = 675,010.56 reserved; 8 instances × 240 h × 39.33 = 75,513.60 for
    # a 10-day block; the block's last half hour on demand 64 × 0.5 × 6.88 = 220.16; total 750,744.32.
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(16, gputco.Horizon.months(12)))
    r = gputco.recommend_plan(futures, p5(),
                              commitments=[gputco.CommitmentOption(1, "no_upfront", reservation_discount=0.3)],
                              start_months=[0], windows=[gputco.DemandWindow(start_day=60, days=10, gpus=64)],
                              capacity_blocks=gputco.CapacityBlockOption(), threads=1)
    assert [(b.instances, b.days, b.start_day) for b in r.plan.capacity_blocks] == [(8, 10, 60)]
    assert [c.count for c in r.plan.commitments] == [16]
    assert r.in_sample.total.mean == pytest.approx(750744.32, rel=1e-12)
    # The option gave no price: the recommended plan's block took the catalog's rate, and says so.
    assert [line.split(", the capacity-block rate")[0] for line in r.in_sample.catalog_rates] == \
        ["plan.capacity_blocks[0]: 39.3300 USD/instance-h"]
    assert r.in_sample.catalog_rates[0].endswith("(2024-12)")
    with pytest.raises(ValueError, match=r"^options\.plan_options\.windows\.size = 0: must be >= 1 with options\.capacity_blocks"):
        gputco.recommend_plan(futures, p5(), capacity_blocks=gputco.CapacityBlockOption(), threads=1)


def test_calendar_mode_by_hand():
    # 2 VMs of 8 GPUs at a given $60/h for 30 days from day 20: charged as it runs, 2 × 250 h × 60 in
    # month 0 and 2 × 470 h × 60 in month 1 (tests/test_capacity_block.cpp works it through).
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(0, gputco.Horizon.months(3)))
    block = gputco.CapacityBlock(instances=2, days=30, start_day=20, lead_days=20, price_per_instance_hour=60.0,
                                 kind="gcp_calendar_mode")
    assert block.usable_hours == 720
    d = gputco.evaluate_plan(gputco.Plan(capacity_blocks=[block]), futures, p5(),
                             windows=[gputco.DemandWindow(start_day=20, days=30, gpus=16)])
    assert [m.reserved_recurring for m in d.mean_months[:2]] == pytest.approx([30000.0, 56400.0], rel=1e-12)
    assert d.total.mean == pytest.approx(86400.0, rel=1e-12)
