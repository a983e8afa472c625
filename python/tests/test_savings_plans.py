"""Savings Plans from Python: gputco.SavingsPlan in a Plan, priced by the engine, and its errors."""
import pytest


def test_a_savings_plan_pays_its_commitment_and_covers_commitment_over_rate_gpus(gputco, catalog):
    p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    on_demand = p4d.on_demand_hourly / p4d.gpus_per_instance
    sp = gputco.SavingsPlan(12.0, type="aws_compute", term_years=1, payment="no_upfront", rate_per_gpu_hour=2.0)
    assert sp.type == "aws_compute" and sp.payment == "no_upfront" and sp.rate_per_gpu_hour == 2.0
    plan = gputco.Plan(savings_plans=[sp], name="sp")
    assert plan.savings_plans[0].commitment_per_hour == 12.0
    demand = gputco.DemandProfile.constant(10, gputco.Horizon.years(1))
    result = gputco.evaluate_plan(plan, gputco.DemandFutures.from_profile(demand), p4d)
    # $12/h at $2/GPU-h pays for 6 GPUs; 4 GPUs on demand. A year: 12 × 8,760 + 4 × 8,760 × on-demand.
    expected = 12 * 8760 + 4 * 8760 * on_demand
    assert result.total.mean == pytest.approx(expected, abs=0.005)


def test_savings_plan_errors_name_the_field(gputco, catalog):
    with pytest.raises(ValueError, match=r"^savings_plan\.type = \"ec2\": must be one of aws_ec2_instance, "
                                         r"aws_compute, aws_sagemaker, azure_compute, gcp_flexible$"):
        gputco.SavingsPlan(1.0, type="ec2")
    p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    demand = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(1, gputco.Horizon.years(1)))
    bad = gputco.Plan(savings_plans=[gputco.SavingsPlan(-3.0, rate_per_gpu_hour=1.0)])
    with pytest.raises(ValueError, match=r"^plan\.savings_plans\[0\]\.commitment_per_hour = -3: must be finite and > 0$"):
        gputco.evaluate_plan(bad, demand, p4d)


def test_june_2025_cut_per_purchase_option(gputco, catalog):
    p5 = catalog.offering("aws", "p5.48xlarge", "us-east-1")
    # AWS News Blog 2025-06-05: p5 3-year EC2 Instance SP −45 %, 3-year Compute SP −25 %.
    assert gputco.aws_june_2025_price_cut(p5, 3, savings_plan_type="aws_ec2_instance").reserved_factor == pytest.approx(0.55)
    assert gputco.aws_june_2025_price_cut(p5, 3, savings_plan_type="aws_compute").reserved_factor == pytest.approx(0.75)
    with pytest.raises(ValueError, match=r"^type = \"aws_ec2_instance\": AWS published no 1-year EC2 Instance Savings "
                                         r"Plan reduction for p5\.48xlarge in June 2025$"):
        gputco.aws_june_2025_price_cut(p5, 1, savings_plan_type="aws_ec2_instance")


def test_recommend_plan_chooses_a_savings_plan_level(gputco, catalog):
    # Demand 5 GPUs every hour of a year, on demand 2.00 (a hand-made offering without reservations):
    # a 1-year plan at 1.00 per GPU-hour covers all of it, $5.00/h; with at most 17,520 upfront a year, an
    # all-upfront plan covers 17,520 / 8,760 = 2 GPUs, $2.00/h.
    offering = gputco.Offering(provider="testcloud", region="test-1", instance_type="g1", gpu="A100-40GB",
                               on_demand_hourly=2.0, source=gputco.Source("hand-made", "2026-01"))
    futures = gputco.DemandFutures.generate(gputco.DemandModel(5), gputco.Horizon.months(12), 2, 3)
    option = gputco.SavingsPlanOption("aws_compute", term_years=1, payment="all_upfront", rate_per_gpu_hour=1.0)
    free = gputco.recommend_plan(futures, offering, savings_plans=[option], start_months=[0], threads=1)
    assert [round(s.commitment_per_hour, 6) for s in free.plan.savings_plans] == [5.0]
    limited = gputco.recommend_plan(futures, offering, savings_plans=[option], start_months=[0], threads=1,
                                    upfront_per_period=17520, upfront_period_months=12)
    assert limited.plan.savings_plans[0].commitment_per_hour == pytest.approx(2.0)


def test_provider_savings_plan_advice_by_hand(gputco):
    # 0 0 1 2 2 3 4 4 4 6 at 1.20 against 2.00: covering 2 GPUs saves most (tests/test_recommend_savings_plans.cpp).
    assert gputco.provider_savings_plan_advice([0, 0, 1, 2, 2, 3, 4, 4, 4, 6], 0, 1.2, 2.0) == pytest.approx(2.4)


def test_an_offering_with_savings_plan_rates_prices_a_plan_from_them(gputco):
    # 8 GPUs per instance at 16.00/h on demand; a 3-year all-upfront Compute plan at 9.60 per instance-hour
    # (1.20 per GPU-hour): $6/h covers 5 GPUs. Demand 5 GPUs for 3 years: 6 × 26,280 = 157,680 upfront.
    source = gputco.Source("hand-made", "2026-01")
    offering = gputco.Offering(provider="testcloud", region="test-1", instance_type="g8", gpu="A100-40GB",
                               gpus_per_instance=8, on_demand_hourly=16.0, source=source,
                               savings_plans=[gputco.SavingsPlanRate(type="aws_compute", term_years=3,
                                                                     payment="all_upfront", hourly=9.6, source=source)])
    assert offering.savings_plans[0].type == "aws_compute"
    plan = gputco.Plan(savings_plans=[gputco.SavingsPlan(6.0, term_years=3, payment="all_upfront")])
    demand = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(5, gputco.Horizon.years(3)))
    result = gputco.evaluate_plan(plan, demand, offering)
    assert result.total.mean == pytest.approx(157680.0, abs=0.005)
    with pytest.raises(ValueError, match=r"^offering\.savings_plans\[0\]\.hourly = -1: must be finite and > 0$"):
        gputco.Offering(provider="testcloud", region="test-1", instance_type="g8", gpu="A100-40GB", on_demand_hourly=16.0,
                        source=source, savings_plans=[gputco.SavingsPlanRate(type="aws_compute", hourly=-1.0)])
