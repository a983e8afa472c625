"""Writes focus_aws_quarter.csv.gz: a quarter's AWS cost export in FOCUS 1.2 ("FOCUS 1.2 with AWS
columns"), hourly, for a team training on p4d.24xlarge (8 × A100-40GB) in us-east-1.

    python3 examples/data/make_focus_quarter.py [OUT]     # default: beside this script

It also writes focus_aws_contract_commitments.csv beside OUT: the Savings Plan's real term as FOCUS 1.3's
Contract Commitment dataset (for `--contracts` / `read_focus(..., contracts=...)`).

The bill is made up, its prices are not: the built-in catalog's p4d.24xlarge prices in us-east-1
(data/catalog/builtin.json) — on demand 21.96/h (AWS's June 2025 price cut), spot 6.7915/h (the
2025-H1 quote of zone use1-az1) and the 1-year all-upfront rate 122,023.87 / 8,760 h as the Savings
Plan rate. What it holds, each hour of 2026-07-01 .. 2026-10-01 (2,208 h, three whole 730-h months
and more):
- instances in use: 6 on weekdays (7 from 08:00 to 20:00 UTC), 3 at weekends, growing 10% over the
  quarter, with noise, rounded to whole instances;
- a Compute Savings Plan (1 year, all upfront, bought 2026-03-01, so no purchase row this quarter)
  committed to 4 instances' worth an hour at its rate: the first 4 instances each hour are covered
  (Used), and what they leave of the commitment shows as an Unused row (weekends and quiet hours);
- of the instances beyond it, each runs on spot (Dynamic) with probability 0.3, else on demand;
- an m5.2xlarge (CPU) each hour: compute the plan leaves out;
- sales tax each month (6.25% of the month's billed cost) and one promotional credit of 5,000.
Standard library only; a fixed seed, so the file is the same on every run.
"""
import csv
import gzip
import io
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

ON_DEMAND = 21.96                    # p4d.24xlarge us-east-1 per instance-hour
SPOT = 6.7915
SAVINGS_PLAN = 122023.87331903998 / 8760  # the 1-year all-upfront rate per instance-hour
COMMITTED_INSTANCES = 4
M5_ON_DEMAND = 0.384                 # m5.2xlarge us-east-1 per hour
TAX_RATE = 0.0625
CREDIT = 5000.0
START = datetime(2026, 7, 1, tzinfo=timezone.utc)
MONTHS = [(2026, 7), (2026, 8), (2026, 9)]
HOURS = 92 * 24
SP_ARN = "arn:aws:savingsplans::111122223333:savingsplan/2b8e7c1f-sp-compute-1y"

HEADER = ["BilledCost", "BillingAccountId", "BillingCurrency", "BillingPeriodEnd", "BillingPeriodStart",
          "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargeFrequency", "ChargePeriodEnd",
          "ChargePeriodStart", "CommitmentDiscountCategory", "CommitmentDiscountId", "CommitmentDiscountStatus",
          "CommitmentDiscountType", "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "EffectiveCost", "ListCost",
          "PricingCategory", "ProviderName", "RegionId", "ServiceCategory", "ServiceName", "SkuId", "x_UsageType"]


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def money(x):
    return f"{x:.6f}".rstrip("0").rstrip(".")


def period(t):
    """The billing period (calendar month) holding t."""
    start = t.replace(day=1, hour=0)
    end = (start + timedelta(days=32)).replace(day=1)
    return iso(end), iso(start)


def instances_in_use(hour, rng):
    t = START + timedelta(hours=hour)
    weekday = t.weekday() < 5
    level = (7 if 8 <= t.hour < 20 else 6) if weekday else 3
    growth = 1 + 0.10 * hour / HOURS
    return max(0, round(level * growth + rng.gauss(0, 0.4)))


def rows(rng):
    billed = {m: 0.0 for m in MONTHS}

    def row(t, end, billed_cost, category, description, frequency, effective, list_cost, pricing, quantity="", unit="",
            sku="", usage_type="", commitment=("", "", "", ""), contracted=None, service="Compute"):
        billed[(t.year, t.month)] += billed_cost
        period_end, period_start = period(t)
        cd_category, cd_id, cd_status, cd_type = commitment
        return [money(billed_cost), "111122223333", "USD", period_end, period_start, category, "", description,
                frequency, iso(end), iso(t), cd_category, cd_id, cd_status, cd_type, quantity, unit,
                money(list_cost if contracted is None else contracted), money(effective), money(list_cost), pricing,
                "AWS", "us-east-1", service, "Amazon Elastic Compute Cloud", sku, usage_type]

    sp = ("Spend", SP_ARN, "Used", "Compute Savings Plans")
    for hour in range(HOURS):
        t = START + timedelta(hours=hour)
        end = t + timedelta(hours=1)
        n = instances_in_use(hour, rng)
        covered = min(n, COMMITTED_INSTANCES)
        if covered:
            yield row(t, end, 0.0, "Usage", "p4d.24xlarge covered by Savings Plan", "Usage-Based",
                      covered * SAVINGS_PLAN, covered * ON_DEMAND, "Committed", covered, "Hrs", "P4D-OD",
                      "USE1-BoxUsage:p4d.24xlarge", sp)
        if covered < COMMITTED_INSTANCES:
            yield row(t, end, 0.0, "Usage", "Savings Plan unused commitment", "Usage-Based",
                      (COMMITTED_INSTANCES - covered) * SAVINGS_PLAN, 0.0, "Committed",
                      usage_type="ComputeSP:1yrAllUpfront", commitment=("Spend", SP_ARN, "Unused", "Compute Savings Plans"))
        rest = n - covered
        spot = sum(rng.random() < 0.3 for _ in range(rest))
        if rest - spot:
            q = rest - spot
            yield row(t, end, q * ON_DEMAND, "Usage", "On Demand Linux p4d.24xlarge Instance Hour", "Usage-Based",
                      q * ON_DEMAND, q * ON_DEMAND, "Standard", q, "Hrs", "P4D-OD", "USE1-BoxUsage:p4d.24xlarge")
        if spot:
            yield row(t, end, spot * SPOT, "Usage", "Spot Linux p4d.24xlarge Instance Hour", "Usage-Based",
                      spot * SPOT, spot * ON_DEMAND, "Dynamic", spot, "Hrs", "P4D-SPOT", "USE1-SpotUsage:p4d.24xlarge")
        yield row(t, end, M5_ON_DEMAND, "Usage", "On Demand Linux m5.2xlarge Instance Hour", "Usage-Based",
                  M5_ON_DEMAND, M5_ON_DEMAND, "Standard", 1, "Hrs", "M52XL-OD", "USE1-BoxUsage:m5.2xlarge")
    credit_at = datetime(2026, 8, 1, tzinfo=timezone.utc)
    yield row(credit_at, credit_at + timedelta(days=31), -CREDIT, "Credit", "AWS promotional credit", "One-Time",
              -CREDIT, 0.0, "")
    for year, month in MONTHS:
        start = datetime(year, month, 1, tzinfo=timezone.utc)
        end = (start + timedelta(days=32)).replace(day=1)
        tax = round(TAX_RATE * billed[(year, month)], 2)
        yield row(start, end, tax, "Tax", "Tax for product code AmazonEC2", "One-Time", tax, 0.0, "")


CONTRACT_HEADER = ["BillingCurrency", "ContractCommitmentCategory", "ContractCommitmentCost",
                   "ContractCommitmentDescription", "ContractCommitmentId", "ContractCommitmentPeriodEnd",
                   "ContractCommitmentPeriodStart", "ContractCommitmentQuantity", "ContractCommitmentType",
                   "ContractCommitmentUnit", "ContractId", "ContractPeriodEnd", "ContractPeriodStart"]


def write_contracts(out):
    """The Savings Plan's terms as FOCUS 1.3's Contract Commitment dataset: bought 2026-03-01 for a year,
    its commitment over the year (4 instances' worth an hour × 8,760 h)."""
    bought = datetime(2026, 3, 1, tzinfo=timezone.utc)
    ends = datetime(2027, 3, 1, tzinfo=timezone.utc)
    text = io.StringIO()
    w = csv.writer(text, lineterminator="\n")
    w.writerow(CONTRACT_HEADER)
    w.writerow(["USD", "Spend", money(COMMITTED_INSTANCES * SAVINGS_PLAN * 8760), "Compute Savings Plan, 1 year, all upfront",
                SP_ARN, iso(ends), iso(bought), "", "Compute Savings Plans", "", "111122223333-sp", iso(ends), iso(bought)])
    out.write_text(text.getvalue())
    print(f"{out}: 1 contract commitment")


def main(out):
    rng = random.Random(2026)
    text = io.StringIO()
    w = csv.writer(text, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows(rng))
    # mtime 0: the same bytes on every run.
    out.write_bytes(gzip.compress(text.getvalue().encode(), compresslevel=9, mtime=0))
    print(f"{out}: {out.stat().st_size:,} bytes, {text.getvalue().count(chr(10)) - 1:,} rows")
    write_contracts(out.with_name("focus_aws_contract_commitments.csv"))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("focus_aws_quarter.csv.gz"))
