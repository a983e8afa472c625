"""Commitments already held and changes of commitments from Python: the engine's numbers, the
per-commitment hours, the recommender starting from what is held, and errors as ValueError to the letter."""
import pytest


@pytest.fixture(scope="module")
def p4d(catalog):
    return catalog.offering("aws", "p4d.24xlarge", "us-east-1")


def constant(gputco, gpus, months):
    return gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(gpus, gputco.Horizon.months(months)))


def test_a_held_commitment_pays_its_hourly_charges_left_and_reports_its_hours(gputco, p4d):
    # 1 instance (8 GPUs) held to month 6 at 1.00/GPU-h, upfront sunk; demand 8 GPUs for 12 months:
    # months 0-5 cost 8 × 730 × 1.00 = 5,840 each, months 6-11 run on demand.
    held = gputco.HeldCommitment(1, unit="instances", start_month=-6, end_month=6, hourly_per_gpu=1.0,
                                 upfront_per_gpu=9999.0, id="ri-1")
    result = gputco.evaluate_plan(gputco.Plan(held=[held]), constant(gputco, 8, 12), p4d)
    od = p4d.on_demand_per_gpu_hour()
    assert result.total.mean == pytest.approx(6 * 5840 + 6 * 8 * 730 * od)
    [use] = result.commitment_use
    assert (use.name, use.held, use.first_month, use.end_month) == ("ri-1", True, 0, 6)
    assert use.paid_gpu_hours == pytest.approx(6 * 5840)
    assert use.unused_gpu_hours == pytest.approx(0)
    assert result.mean_months[0].held_gpu_hours == pytest.approx(5840)
    assert result.mean_months[6].held_gpu_hours == 0
    assert held.kind == "standard" and held.unit == "instances"


def test_a_resale_and_an_exchange_from_python(gputco, p4d):
    # A standard held one sold in month 3 for 1,000: 880 received, its charges stop.
    held = gputco.HeldCommitment(8, start_month=-12, end_month=24, hourly_per_gpu=1.0)
    sale = gputco.CommitmentChange("resale", month=3, held=0, price=1000.0)
    result = gputco.evaluate_plan(gputco.Plan(held=[held], changes=[sale]), constant(gputco, 0, 12), p4d)
    assert result.total.mean == pytest.approx(3 * 8 * 730 * 1.0 - 880)
    assert result.mean_months[3].commitment_changes == pytest.approx(-880)
    assert result.changes == ["held[0]: sold in month 3 for 1000.00 USD less the marketplace's 12% fee: 880.00 "
                              "received; its hourly charges pass to the buyer"]
    # A standard one is not exchanged.
    swap = gputco.CommitmentChange("exchange", month=3, held=0,
                                   into=gputco.Commitment(16, term_years=3, payment="no_upfront"))
    with pytest.raises(ValueError, match=r'^plan\.changes\[0\]\.kind = "exchange": held\[0\] is a standard '
                                         r'reservation; only a convertible one is exchanged \(a standard one may be '
                                         r'resold\)$'):
        gputco.evaluate_plan(gputco.Plan(held=[held], changes=[swap]), constant(gputco, 0, 12), p4d)


def test_an_azure_exchange_from_python(gputco, p4d):
    # 16 GPUs, 36,000 upfront each for month -12 to 24: 16 × 36,000 × 12 / 36 = 192,000 refunded in month 12
    # (no hourly charge left), and the new 1-year all-upfront reservation of 4 instances bought in full.
    held = gputco.HeldCommitment(2, unit="instances", start_month=-12, end_month=24, hourly_per_gpu=0.0,
                                 upfront_per_gpu=36000.0)
    swap = gputco.CommitmentChange("azure_exchange", month=12, held=0,
                                   into=gputco.Commitment(4, unit="instances", term_years=1, payment="all_upfront"))
    result = gputco.evaluate_plan(gputco.Plan(held=[held], changes=[swap]), constant(gputco, 0, 24), p4d)
    assert result.mean_months[12].commitment_changes == pytest.approx(-192000)
    [old, new] = result.commitment_use
    assert (old.end_month, new.first_month, new.end_month) == (12, 12, 24)
    assert result.mean_months[12].upfront == pytest.approx(4 * p4d.reserved_price(1, "all_upfront").upfront)


def test_errors_name_the_field(gputco, p4d):
    with pytest.raises(ValueError, match=r'^held\.kind = "flexible": must be one of standard, convertible$'):
        gputco.HeldCommitment(1, start_month=0, end_month=3, kind="flexible")
    with pytest.raises(ValueError, match=r'^change\.kind = "swap": must be one of exchange, resale, refund, '
                                         r'azure_exchange$'):
        gputco.CommitmentChange("swap", month=2, held=0)
    with pytest.raises(ValueError, match=r'^change\.held = "none": give one of held or commitment \(the index of '
                                         r'the one changed\)$'):
        gputco.CommitmentChange("refund", month=2)
    bad = gputco.HeldCommitment(1, start_month=-3, end_month=0, hourly_per_gpu=1.0)
    with pytest.raises(ValueError, match=r"^plan\.held\[0\]\.end_month = 0: must be > 0 \(the first month it no "
                                         r"longer runs; one that has ended is not held\)$"):
        gputco.evaluate_plan(gputco.Plan(held=[bad]), constant(gputco, 1, 12), p4d)


def test_the_recommender_adds_to_what_is_held(gputco, p4d):
    futures = constant(gputco, 16, 12)
    held = gputco.HeldCommitment(1, unit="instances", start_month=-6, end_month=12, hourly_per_gpu=0.5)
    options = gputco.recommend_options(commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")],
                                       review_months=12, unit="instances", held=[held])
    plan = gputco.recommend_plan(futures, p4d, options).plan
    assert len(plan.held) == 1
    assert [c.count for c in plan.commitments] == [1]  # 16 GPUs demanded, 8 held: one more instance


def _focus_with_reservations(path, hours=1488):
    """Two months of hourly p4d.24xlarge rows: one instance under the standard reservation ri-1 (billed 12,
    effective 20), the convertible ri-2 idle, one instance on demand (as tests/test_held_from_bill.cpp)."""
    from datetime import datetime, timedelta, timezone
    head = ("BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,ChargeCategory,ChargeClass,"
            "ChargePeriodStart,ChargePeriodEnd,PricingCategory,ConsumedQuantity,ConsumedUnit,ProviderName,"
            "ServiceCategory,SkuId,RegionId,CommitmentDiscountId,CommitmentDiscountStatus,CommitmentDiscountType,"
            "CommitmentDiscountCategory,x_UsageType")
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    rows = [head]
    for h in range(hours):
        a = (start + timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        b = (start + timedelta(hours=h + 1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        where = f"{a},{b}"
        rows.append(f"12,20,32,32,USD,Usage,,{where},Committed,1,Hrs,AWS,Compute,P4D,us-east-1,ri-1,Used,"
                    "Reserved Instance,Usage,USE1-BoxUsage:p4d.24xlarge")
        rows.append(f"12,20,32,32,USD,Usage,,{where},Committed,1,Hrs,AWS,Compute,P4D,us-east-1,ri-2,Unused,"
                    "Convertible Reserved Instance,Usage,USE1-BoxUsage:p4d.24xlarge")
        rows.append(f"32,32,32,32,USD,Usage,,{where},Standard,1,Hrs,AWS,Compute,P4D,us-east-1,,,,,"
                    "USE1-BoxUsage:p4d.24xlarge")
    path.write_text("\n".join(rows) + "\n")


def test_recommend_from_a_bill_starts_from_its_reservations(gputco, p4d, tmp_path):
    path = tmp_path / "reservations.csv"
    _focus_with_reservations(path)
    bill = gputco.read_focus(path)
    plan = gputco.recommend_from_bill(bill, p4d, horizon_months=12, futures=10, held_out=10,
                                      commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")],
                                      review_months=6)
    assert [h.id for h in plan.held] == ["ri-1", "ri-2"]
    assert [h.kind for h in plan.held] == ["standard", "convertible"]
    assert plan.held[0].hourly_per_gpu == pytest.approx(1.5)
    assert (plan.held[0].start_month, plan.held[0].end_month) == (-3, 9)
    assert plan.held_notes[0].startswith("ri-1 (Reserved Instance): held: 8 GPUs at 1.5000 USD/GPU-h")
    assert len(plan.result.plan.held) == 2
    without = gputco.recommend_from_bill(bill, p4d, horizon_months=12, futures=10, held_out=10, held_from_bill=False,
                                         commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")],
                                         review_months=6)
    assert without.held == [] and len(without.result.plan.held) == 0


def test_the_command_lists_the_bills_commitments_it_starts_from(tmp_path):
    import json
    from test_cli import gputco_cmd
    path = tmp_path / "reservations.csv"
    _focus_with_reservations(path)
    out = json.loads(gputco_cmd("recommend", "--bill", path, "--offering", "aws/p4d.24xlarge/us-east-1",
                                "--horizon-months", 12, "--futures", 10, "--held-out", 10,
                                "--commitment", "1y:all_upfront", "--format", "json").stdout)
    assert [note.split(" ")[0] for note in out["held"]] == ["ri-1", "ri-2"]
    table = gputco_cmd("recommend", "--bill", path, "--offering", "aws/p4d.24xlarge/us-east-1", "--horizon-months",
                       12, "--futures", 10, "--held-out", 10, "--commitment", "1y:all_upfront").stdout
    assert "Commitments in the bill:\n  ri-1 (Reserved Instance): held: 8 GPUs" in table


def test_a_savings_plan_held_pays_only_its_hourly_part_left(gputco, p4d):
    # $48/h at $2/GPU-h (24 GPUs), 1 year, partial upfront, bought in month -3: runs in months 0-8. Demand
    # 24 GPUs for 12 months. Months 0-8: no upfront (sunk), half the commitment by the hour 0.5 × 48 × 730
    # = 17,520, nothing on demand; months 9-11: 24 GPUs on demand.
    sp = gputco.SavingsPlan(48, payment="partial_upfront", start_month=-3, rate_per_gpu_hour=2.0, id="sp-9")
    result = gputco.evaluate_plan(gputco.Plan(savings_plans=[sp]), constant(gputco, 24, 12), p4d)
    od = p4d.on_demand_per_gpu_hour()
    assert result.total.mean == pytest.approx(9 * 17520 + 3 * 24 * 730 * od)
    assert result.mean_months[0].upfront == 0
    [use] = result.commitment_use
    assert (use.name, use.held, use.first_month, use.end_month) == ("sp-9", True, 0, 9)
    with pytest.raises(ValueError, match=r"^plan\.savings_plans\[0\]\.start_month = -12: must be in \[-11, 12\) "
                                         r"\(the horizon's months, or before them for a plan held that still runs in "
                                         r"month 0\)$"):
        gputco.evaluate_plan(gputco.Plan(savings_plans=[gputco.SavingsPlan(1, start_month=-12, rate_per_gpu_hour=1.0)]),
                             constant(gputco, 1, 12), p4d)


def _focus_with_savings_plan(path, hours=1488):
    """Two months of hourly p4d.24xlarge rows: two instances under the Compute Savings Plan sp-9 (16 an
    instance-hour, all billed: no upfront), its idle rest (Unused 16), one instance on demand (as
    tests/test_held_from_bill.cpp)."""
    from datetime import datetime, timedelta, timezone
    head = ("BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,ChargeCategory,ChargeClass,"
            "ChargePeriodStart,ChargePeriodEnd,PricingCategory,ConsumedQuantity,ConsumedUnit,ProviderName,"
            "ServiceCategory,SkuId,RegionId,CommitmentDiscountId,CommitmentDiscountStatus,CommitmentDiscountType,"
            "CommitmentDiscountCategory,x_UsageType")
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    rows = [head]
    for h in range(hours):
        a = (start + timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        b = (start + timedelta(hours=h + 1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        rows.append(f"32,32,64,64,USD,Usage,,{a},{b},Committed,2,Hrs,AWS,Compute,P4D,us-east-1,sp-9,Used,"
                    "Compute Savings Plans,Spend,USE1-BoxUsage:p4d.24xlarge")
        rows.append(f"16,16,0,0,USD,Usage,,{a},{b},Committed,,,AWS,Compute,,us-east-1,sp-9,Unused,"
                    "Compute Savings Plans,Spend,ComputeSP:1yrNoUpfront")
        rows.append(f"32,32,32,32,USD,Usage,,{a},{b},Standard,1,Hrs,AWS,Compute,P4D,us-east-1,,,,,"
                    "USE1-BoxUsage:p4d.24xlarge")
    path.write_text("\n".join(rows) + "\n")


CONTRACTS = ("BillingCurrency,ContractCommitmentCategory,ContractCommitmentCost,ContractCommitmentDescription,"
             "ContractCommitmentId,ContractCommitmentPeriodEnd,ContractCommitmentPeriodStart,"
             "ContractCommitmentQuantity,ContractCommitmentType,ContractCommitmentUnit,ContractId,ContractPeriodEnd,"
             "ContractPeriodStart\n"
             "USD,Spend,438000,,sp-9,2025-10-01T00:00:00Z,2024-10-01T00:00:00Z,,Savings Plan,,c-1,"
             "2025-10-01T00:00:00Z,2024-10-01T00:00:00Z\n")


def test_recommend_from_a_bill_starts_from_its_savings_plan(gputco, p4d, tmp_path):
    # Commitment (1,488 × 32 + 1,488 × 16) / 1,488 h = 48/h at 32 / 16 GPU-h = 2/GPU-h: 24 GPUs, the whole
    # history; no upfront; bought at its first row, month -3, a year to month 9. Months 0-8 pay
    # 48 × 730 = 35,040 and run nothing on demand.
    path = tmp_path / "savings_plan.csv"
    _focus_with_savings_plan(path)
    bill = gputco.read_focus(path)
    plan = gputco.recommend_from_bill(bill, p4d, horizon_months=12, futures=10, held_out=10,
                                      commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")])
    [sp] = plan.held_savings_plans
    assert (sp.id, sp.type, sp.payment, sp.start_month, sp.term_years) == ("sp-9", "aws_compute", "no_upfront", -3, 1)
    assert sp.commitment_per_hour == pytest.approx(48)
    assert sp.rate_per_gpu_hour == pytest.approx(2)
    assert plan.held_notes == ["sp-9 (Compute Savings Plans): held: aws_compute savings plan 48.0000 USD/h at 2.0000 "
                               "USD/GPU-h (24 GPUs) from month -3 to 9 (assumed 1-year term from its first row), "
                               "no_upfront (0% of it upfront)"]
    assert plan.result.plan.savings_plans[0].id == "sp-9"
    month0 = plan.result.recommendation.in_sample.mean_months[0]
    assert month0.on_demand_gpu_hours == pytest.approx(0, abs=1e-9)
    assert month0.reserved_recurring == pytest.approx(35040)
    # FOCUS 1.3 contract commitments: its real term (2024-10-01 .. 2025-10-01, month -5 to 7) and amount
    # (438,000 over 8,760 h = 50/h).
    contracts = tmp_path / "contracts.csv"
    contracts.write_text(CONTRACTS)
    dated = gputco.read_focus(path, contracts=contracts)
    [k] = dated.bill.contract_commitments
    assert (k.id, k.category, k.cost, k.quantity) == ("sp-9", "Spend", 438000, None)
    plan = gputco.recommend_from_bill(dated, p4d, horizon_months=12, futures=10, held_out=10,
                                      commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")])
    [sp] = plan.held_savings_plans
    assert (sp.start_month, sp.term_years) == (-5, 1)
    assert sp.commitment_per_hour == pytest.approx(50)
    contracts.write_text(CONTRACTS.replace(",Spend,", ",Other,"))
    with pytest.raises(ValueError, match=r'contracts\.csv:2 ContractCommitmentCategory = "Other": must be Spend or '
                                         r'Usage$'):
        gputco.read_focus(path, contracts=contracts)


def test_the_command_starts_from_the_bills_savings_plan(tmp_path):
    from test_cli import gputco_cmd
    path = tmp_path / "savings_plan.csv"
    _focus_with_savings_plan(path)
    contracts = tmp_path / "contracts.csv"
    contracts.write_text(CONTRACTS)
    args = ("recommend", "--bill", path, "--offering", "aws/p4d.24xlarge/us-east-1", "--horizon-months", 12,
            "--futures", 10, "--held-out", 10, "--commitment", "1y:all_upfront")
    table = gputco_cmd(*args).stdout
    assert ("Commitments in the bill:\n  sp-9 (Compute Savings Plans): held: aws_compute savings plan 48.0000 USD/h "
            "at 2.0000 USD/GPU-h (24 GPUs) from month -3 to 9") in table
    dated = gputco_cmd(*args, "--contracts", contracts).stdout
    assert "savings plan 50.0000 USD/h at 2.0000 USD/GPU-h (25 GPUs) from month -5 to 7 (term 2024-10-01" in dated
    bill = gputco_cmd("bill", path, "--contracts", contracts).stdout
    assert "sp-9" in bill


def test_contract_commitments_from_parquet_read_as_from_csv(gputco, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import csv
    import io
    import pyarrow.parquet as pq
    from datetime import datetime
    rows = list(csv.reader(io.StringIO(CONTRACTS)))
    header, values = rows[0], rows[1]
    columns = {}
    for name, value in zip(header, values):
        if name.endswith(("PeriodStart", "PeriodEnd")):  # timestamps, as an export writes them
            columns[name] = pa.array([datetime.fromisoformat(value.replace("Z", "+00:00"))], pa.timestamp("s", "UTC"))
        elif name in ("ContractCommitmentCost", "ContractCommitmentQuantity"):
            columns[name] = pa.array([float(value) if value else None], pa.float64())
        else:
            columns[name] = pa.array([value or None], pa.string())
    path = tmp_path / "contracts.parquet"
    pq.write_table(pa.table(columns), path)
    csv_path = tmp_path / "contracts.csv"
    csv_path.write_text(CONTRACTS)
    [a], [b] = gputco.read_contract_commitments(path), gputco.read_contract_commitments(csv_path)
    for field in ("id", "category", "type", "cost", "quantity", "period_start", "period_end", "contract_id"):
        assert getattr(a, field) == getattr(b, field), field


def test_the_recommender_sells_a_held_reservation_where_demand_ends(gputco, p4d):
    # 8 GPUs held from month 0 to 36 (standard, 0.70/GPU-h, 8,760 upfront each, sunk); demand 8 GPUs to
    # month 12, then none. Sold in month 12 asking half the prorated upfront left, 0.5 × 8 × 8,760 × 24/36
    # = 23,360, of which 88% (20,556.80) is received: 8 × 0.70 × 730 × 12 = 49,056 − 20,556.80 = 28,499.20.
    futures = gputco.DemandFutures.from_profile(
        gputco.DemandProfile.steps([(0, 8.0), (12, 0.0)], gputco.Horizon.months(36)))
    held = gputco.HeldCommitment(8, start_month=0, end_month=36, hourly_per_gpu=0.7, upfront_per_gpu=8760.0)
    changes = gputco.ChangeOptions(resale_price_share=0.5)
    options = gputco.recommend_options(commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")],
                                       review_months=6, held=[held], changes=changes, threads=1)
    assert options.changes.resale_price_share == 0.5
    result = gputco.recommend_plan(futures, p4d, options)
    [sale] = result.plan.changes
    assert (sale.kind, sale.month, sale.held, sale.index) == ("resale", 12, True, 0)
    assert sale.price == pytest.approx(23360)
    assert result.in_sample.total.mean == pytest.approx(28499.2, rel=1e-12)
    with pytest.raises(ValueError, match=r"^options\.changes\.resale_price_share = 1\.5: must be in \[0, 1\] "
                                         r"\(of the prorated upfront left\)$"):
        gputco.recommend_plan(futures, p4d, held=[held], changes=gputco.ChangeOptions(resale_price_share=1.5))


def test_the_command_takes_the_changes_the_recommender_may_make(tmp_path):
    # The bill's demand is 16 GPUs an hour and both reservations (8 GPUs each, 1.5/GPU-h against 4 on
    # demand) serve it, so no sale, exchange or refund pays: the plan is the same with the flags.
    import json
    from test_cli import gputco_cmd
    path = tmp_path / "reservations.csv"
    _focus_with_reservations(path)
    args = ("recommend", "--bill", path, "--offering", "aws/p4d.24xlarge/us-east-1", "--horizon-months", 12,
            "--futures", 10, "--held-out", 10, "--commitment", "1y:all_upfront", "--format", "json")
    kept = json.loads(gputco_cmd(*args).stdout)
    allowed = json.loads(gputco_cmd(*args, "--refund", "--resale-price-share", 0.5, "--exchange-into",
                                    "3y:all_upfront").stdout)
    assert allowed["summary"]["buys"] == kept["summary"]["buys"]
    assert allowed["summary"]["in_sample_mean"] == kept["summary"]["in_sample_mean"]
    bad = gputco_cmd(*args, "--exchange-into", "1:all", check=False)
    assert bad.stderr == ('gputco: --exchange-into = "1:all": must be <years>y:<payment>, e.g. 1y:all_upfront or '
                          '3y:no_upfront\n')
    bad = gputco_cmd(*args, "--resale-price-share", 2, check=False)
    assert bad.stderr == ("gputco: options.changes.resale_price_share = 2: must be in [0, 1] (of the prorated "
                          "upfront left)\n")


def test_the_azure_exchange_the_recommender_may_make_from_python_and_the_command(gputco, p4d, tmp_path):
    # The option renders from C++ (ChangeOptions.azure_exchange_into), its rule is C++'s, and the command
    # takes it as it takes --exchange-into.
    import json
    from test_cli import gputco_cmd
    changes = gputco.ChangeOptions(azure_exchange_into=[gputco.CommitmentOption(term_years=1, payment="all_upfront")])
    assert [(c.term_years, c.payment) for c in changes.azure_exchange_into] == [(1, "all_upfront")]
    held = gputco.HeldCommitment(8, start_month=-12, end_month=24, hourly_per_gpu=1.0, upfront_per_gpu=8760.0)
    monthly = gputco.ChangeOptions(azure_exchange_into=[
        gputco.CommitmentOption(term_years=1, payment="no_upfront", reservation_discount=0.3, term_months=3)])
    with pytest.raises(ValueError, match=r"^options\.changes\.azure_exchange_into\[0\]\.term_months = 3: must be 0 "
                                         r"\(an Azure reservation is exchanged for a term of years\)$"):
        gputco.recommend_plan(constant(gputco, 8, 12), p4d, held=[held], changes=monthly)
    path = tmp_path / "reservations.csv"
    _focus_with_reservations(path)
    args = ("recommend", "--bill", path, "--offering", "aws/p4d.24xlarge/us-east-1", "--horizon-months", 12,
            "--futures", 10, "--held-out", 10, "--commitment", "1y:all_upfront", "--format", "json")
    bad = gputco_cmd(*args, "--azure-exchange-into", "1:all", check=False)
    assert bad.stderr == ('gputco: --azure-exchange-into = "1:all": must be <years>y:<payment>, e.g. 1y:all_upfront '
                          'or 3y:no_upfront\n')
    allowed = json.loads(gputco_cmd(*args, "--azure-exchange-into", "1y:all_upfront").stdout)
    assert allowed["summary"]["billing"] == "gpus"
