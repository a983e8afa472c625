"""gputco.read_focus and recommend_from_bill: the providers' FOCUS test files, errors to the letter,
the Parquet path against the CSV one, and a bill → plan run on a generated bill."""
import csv
import math
from pathlib import Path

import numpy as np
import pytest

import gputco

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "focus"


def test_aws_bill_figures_and_hourly_demand():
    bill = gputco.read_focus(DATA / "aws_focus_1_2.csv")
    assert bill.currency == "USD"
    assert bill.bill.version == "1.2"
    # p4d.24xlarge (8 A100s): 1 h on demand, 1 h under the Savings Plan, 1 spot hour split 02:30-03:30.
    assert list(bill.hourly["gpus"]) == [8, 8, 4, 4]
    assert str(bill.hourly["time"].iloc[0]) == "2025-01-01 00:00:00+00:00"
    assert set(bill.hourly["instance_type"]) == {"p4d.24xlarge"}
    f = bill.figures.loc["all"]
    # Worked by hand in tests/test_bill.cpp: list 91.192, effective 63.192, used 20, unused 4.
    assert f["effective_savings_rate"] == pytest.approx(28 / 91.192)
    assert f["commitment_utilisation"] == pytest.approx(20 / 24)
    assert f["coverage"] == pytest.approx(32 / 91.192)
    assert f["waste"] == 4
    assert f["billed_tax"] == 3 and f["billed_credit"] == -10 and f["billed_purchase"] == 24
    assert f["effective_dynamic"] == 12
    assert bill.figures.loc["gpu", "effective_savings_rate"] == pytest.approx(1 / 3)
    assert bill.unmatched.to_dict("records") == [
        {"sku_id": "M5L-OD", "name": "m5.large", "rows": 1, "billed_cost": 0.192, "effective_cost": 0.192}]
    assert bill.figures.attrs["currency"] == "USD"
    sp = bill.commitments.loc["arn:aws:savingsplans::111122223333:savingsplan/sp-1"]
    assert (sp["used_cost"], sp["unused_cost"], sp["purchase_billed"]) == (20, 4, 24)
    assert sp["utilisation"] == pytest.approx(20 / 24)
    assert str(sp["first_start"]) == "2025-01-01 01:00:00+00:00"


@pytest.mark.parametrize("name, version, currency, hours", [
    ("azure_focuscost_1_0.csv", "1.0", "EUR", [8, 16]),
    ("gcp_focus_1_3.csv", "1.3", "JPY", [3, 2]),
    ("aws_focus_1_2.csv", "1.1", "USD", [8, 8, 4, 4]),
])
def test_every_version_and_provider(name, version, currency, hours):
    bill = gputco.read_focus(DATA / name, version=version if version != "1.3" else None)
    assert bill.bill.version == version
    assert bill.currency == currency
    assert list(bill.hourly["gpus"]) == hours


def test_window_and_sku_map():
    bill = gputco.read_focus(DATA / "aws_focus_1_2.csv", window=("2025-01-01T01:00Z", "2025-01-01T03:00Z"))
    assert list(bill.hourly["gpus"]) == [8, 4, 4]
    assert bill.figures.loc["all", "list_cost"] == 64
    mapped = gputco.read_focus(DATA / "aws_focus_1_2.csv", sku_instance_types={"M5L-OD": "g5.xlarge"})
    assert len(mapped.unmatched) == 0
    assert set(mapped.hourly["gpu"]) == {"A100-40GB", "A10G"}


def test_gzip_is_streamed_and_gives_the_csv_result(tmp_path):
    import gzip
    for name in ("aws_focus_1_2.csv", "azure_focuscost_1_0.csv", "gcp_focus_1_3.csv"):
        path = tmp_path / (name + ".gz")
        path.write_bytes(gzip.compress((DATA / name).read_bytes()))
        from_csv, from_gzip = gputco.read_focus(DATA / name), gputco.read_focus(path)
        assert from_gzip.bill.file == str(path)
        assert list(from_gzip.hourly["gpus"]) == list(from_csv.hourly["gpus"])
        assert from_gzip.figures.equals(from_csv.figures)
        assert from_gzip.unmatched.equals(from_csv.unmatched)
    bad = tmp_path / "bad.csv.gz"
    bad.write_bytes(gzip.compress((DATA / "aws_focus_1_2.csv").read_bytes().replace(b",Tax,", b",Duty,")))
    with pytest.raises(ValueError) as e:
        gputco.read_focus(bad)
    assert str(e.value) == (f'{bad}:7 ChargeCategory = "Duty": must be one of Usage, Purchase, Tax, Credit, '
                            "Adjustment")


def test_errors_name_file_row_and_column(tmp_path):
    text = (DATA / "aws_focus_1_2.csv").read_text().replace(",Dynamic,", ",Spot,")
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    with pytest.raises(ValueError) as e:
        gputco.read_focus(bad)
    assert str(e.value) == (f'{bad}:6 PricingCategory = "Spot": must be one of Standard, Dynamic, Committed, Other '
                            "or empty")
    with pytest.raises(ValueError) as e:
        gputco.read_focus(DATA / "aws_focus_1_2.csv", version="2.0")
    assert str(e.value) == 'focus.version = "2.0": must be one of 1.0, 1.1, 1.2, 1.3'
    with pytest.raises(ValueError) as e:
        gputco.read_focus(DATA / "aws_focus_1_2.csv", version="1.3")
    assert str(e.value) == f"{DATA / 'aws_focus_1_2.csv'}:1 ServiceProviderName = (missing): required by FOCUS 1.3"
    with pytest.raises(ValueError) as e:
        gputco.read_focus(DATA / "aws_focus_1_2.csv").demand()
    assert str(e.value) == "bill.hours = 4: must be >= 730 (one whole month of usage) to make a demand history"


def test_parquet_is_aggregated_in_arrow_and_gives_the_csv_result(tmp_path):
    pa_csv = pytest.importorskip("pyarrow.csv")
    pq = pytest.importorskip("pyarrow.parquet")
    for name in ("aws_focus_1_2.csv", "azure_focuscost_1_0.csv", "gcp_focus_1_3.csv"):
        table = pa_csv.read_csv(DATA / name)  # timestamps and numbers typed as Arrow infers them
        path = tmp_path / name.replace(".csv", ".parquet")
        pq.write_table(table, path)
        from_csv = gputco.read_focus(DATA / name)
        from_parquet = gputco.read_focus(path, batch_rows=2)  # partial sums re-aggregated across batches
        assert from_parquet.bill.file == f"{path} (aggregated)"
        assert from_parquet.bill.currency == from_csv.bill.currency
        assert list(from_parquet.hourly["gpus"]) == list(from_csv.hourly["gpus"])
        for column in from_csv.figures.columns:
            for scope in ("all", "gpu"):
                a, b = from_csv.figures.loc[scope, column], from_parquet.figures.loc[scope, column]
                assert (math.isnan(a) and math.isnan(b)) or b == pytest.approx(a), (name, scope, column)
        assert list(from_parquet.unmatched["effective_cost"]) == pytest.approx(list(from_csv.unmatched["effective_cost"]))


@pytest.mark.parametrize("engine", ["duckdb", "dask"])
def test_parquet_engines_give_the_arrow_result(tmp_path, engine):
    pytest.importorskip("pyarrow.parquet")
    pytest.importorskip({"duckdb": "duckdb", "dask": "dask.dataframe"}[engine])
    import pyarrow.csv as pa_csv
    import pyarrow.parquet as pq
    for name in ("aws_focus_1_2.csv", "azure_focuscost_1_0.csv", "gcp_focus_1_3.csv"):
        table = pa_csv.read_csv(DATA / name)
        folder = tmp_path / name.replace(".csv", "")
        folder.mkdir()
        half = table.num_rows // 2  # an export in two files, read as one through a glob
        pq.write_table(table.slice(0, half), folder / "part-0.parquet")
        pq.write_table(table.slice(half), folder / "part-1.parquet")
        pq.write_table(table, tmp_path / "whole.parquet")
        arrow = gputco.read_focus(tmp_path / "whole.parquet")
        other = gputco.read_focus(str(folder / "*.parquet"), engine=engine)
        assert other.bill.file == f"{folder / '*.parquet'} (aggregated)"
        assert list(other.hourly["gpus"]) == pytest.approx(list(arrow.hourly["gpus"]), rel=1e-12)
        for column in arrow.figures.columns:
            for scope in ("all", "gpu"):
                a, b = arrow.figures.loc[scope, column], other.figures.loc[scope, column]
                assert (math.isnan(a) and math.isnan(b)) or b == pytest.approx(a, rel=1e-12), (name, scope, column)
        assert list(other.unmatched["sku_id"]) == list(arrow.unmatched["sku_id"])
    with pytest.raises(ValueError) as e:
        gputco.read_focus(tmp_path / "whole.parquet", engine="spark")
    assert str(e.value) == "engine = 'spark': must be one of arrow, duckdb, dask"


def test_the_reduction_columns_are_the_readers():
    # Every column the C++ reader parses, except ResourceId, is kept; amounts are summed.
    assert gputco._core.FOCUS_SUMMED_COLUMNS == ("BilledCost", "EffectiveCost", "ListCost", "ContractedCost",
                                                 "ConsumedQuantity")
    assert "ResourceId" not in gputco._core.FOCUS_GROUPED_COLUMNS
    assert {"ChargePeriodStart", "SkuId", "x_UsageType", "CommitmentDiscountStatus"} <= set(
        gputco._core.FOCUS_GROUPED_COLUMNS)


def write_bill(path, hours, seed):
    """A generated AWS FOCUS bill: p4d.24xlarge instances each hour (a weekday/weekend pattern with
    noise, growing), half of the first 2 instances under a Savings Plan, the rest on demand, some spot."""
    rng = np.random.default_rng(seed)
    t0 = 1735689600  # 2025-01-01T00:00Z
    header = ["BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "BillingCurrency", "ChargeCategory",
              "ChargeClass", "ChargePeriodStart", "ChargePeriodEnd", "PricingCategory", "ConsumedQuantity",
              "ConsumedUnit", "ProviderName", "ServiceCategory", "SkuId", "RegionId", "CommitmentDiscountId",
              "CommitmentDiscountStatus", "x_UsageType"]
    iso = lambda s: np.datetime_as_string(np.datetime64(int(s), "s")) + "Z"
    total = 0.0
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for h in range(hours):
            weekday = (h // 24) % 7 < 5
            instances = max(0, int(round((3 if weekday else 1.5) * (1 + h / hours * 0.3) + rng.normal(0, 0.3))))
            start, end = iso(t0 + 3600 * h), iso(t0 + 3600 * (h + 1))
            committed = min(instances, 1)
            if committed:
                w.writerow([0, 20, 32.77, 32.77, "USD", "Usage", "", start, end, "Committed", committed, "Hrs", "AWS",
                            "Compute", "P4D", "us-east-1", "sp-1", "Used", "USE1-BoxUsage:p4d.24xlarge"])
            else:
                w.writerow([0, 20, 0, 0, "USD", "Usage", "", start, end, "Committed", "", "", "AWS", "Compute", "",
                            "us-east-1", "sp-1", "Unused", "ComputeSP:1yrNoUpfront"])
            if instances > committed:
                n = instances - committed
                w.writerow([32.77 * n, 32.77 * n, 32.77 * n, 32.77 * n, "USD", "Usage", "", start, end, "Standard", n,
                            "Hrs", "AWS", "Compute", "P4D", "us-east-1", "", "", "USE1-BoxUsage:p4d.24xlarge"])
            total += 8 * instances
    return total


def test_bill_to_plan_end_to_end(tmp_path):
    path = tmp_path / "generated.csv"
    gpu_hours = write_bill(path, 3 * 730, seed=7)
    bill = gputco.read_focus(path)
    assert bill.hourly["gpus"].sum() == pytest.approx(gpu_hours)
    history = bill.demand("A100-40GB")
    assert history.horizon.month_count == 3
    assert np.asarray(history.gpus_per_hour).sum() == pytest.approx(gpu_hours)
    figures = bill.figures.loc["all"]
    assert 0 < figures["commitment_utilisation"] <= 1
    p4d = gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")
    plan = gputco.recommend_from_bill(bill, p4d, horizon_months=12, futures=40, held_out=80, seed=3,
                                      commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")],
                                      review_months=12)
    assert plan.model.base_gpus == pytest.approx(np.asarray(history.gpus_per_hour)[-730:].mean())
    baselines = plan.result.baselines
    names = list(baselines.index)
    assert names[0] == plan.result.plan.name  # the recommended plan first
    assert "all on demand" in names
    assert any("30" in n for n in names)  # the provider-style 30-day lookback advice
    # Demand never falls below ~8 GPUs: reserving beats all on demand on the held-out futures.
    assert baselines["mean"].iloc[0] < baselines.loc["all on demand", "mean"]
    assert plan.figures is bill.figures
    # At the bill's own rates (on demand 32.77 per instance-hour, as the catalog's 32.7726 rounded up).
    at_rates = gputco.recommend_from_bill(bill, p4d, horizon_months=12, futures=20, held_out=20, seed=3,
                                          commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")],
                                          review_months=12, bill_rates=True)
    assert at_rates.offering.on_demand_hourly == pytest.approx(32.77)


def test_offering_at_bill_rates():
    bill = gputco.read_focus(DATA / "aws_focus_1_2.csv")
    p4d = gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")
    billed = gputco.offering_at_bill_rates(bill, p4d)
    assert billed.on_demand_hourly == 32  # 8 Standard GPU-hours for 32, × 8 GPUs
    assert billed.spot_hourly == 12       # 8 Dynamic GPU-hours for 12, × 8 GPUs
    p5 = gputco.catalog().offering("aws", "p5.48xlarge", "us-east-1")
    with pytest.raises(ValueError) as e:
        gputco.offering_at_bill_rates(bill, p5)
    assert str(e.value) == 'offering = "aws/us-east-1/p5.48xlarge": no usage of it in the bill'
    with pytest.raises(ValueError) as e:
        gputco.at_bill_rates(p5, bill.bill, bill.bill.series[0])
    assert str(e.value) == "series.gpu = \"A100-40GB\": must be the offering's GPU (H100)"


def test_recommend_from_bill_needs_a_bill():
    p4d = gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")
    with pytest.raises(TypeError) as e:
        gputco.recommend_from_bill("bill.csv", p4d)
    assert str(e.value) == "bill = 'bill.csv': must be a FocusBill (gputco.read_focus), not str"
