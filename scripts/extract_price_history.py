#!/usr/bin/env python3
"""Dated GPU prices from the git history of public price files, as CSV under data/price_history/.

Two sources, each a git clone given by its directory:

* ``--gcp``: github.com/Cyclenerd/google-cloud-pricing-cost-calculator, file ``pricing.yml`` (weekly
  snapshots of Google Cloud's prices since 2022, Apache-2.0): per machine type and region the
  on-demand ``hour``, ``hour_spot`` and the 1- and 3-year commitment ``month_1y``/``month_3y``
  (converted to hours at 730 h a month).
* ``--skypilot``: a SkyPilot-format catalog repository (github.com/anycloud-sh/catalog: ``<cloud>/vms.csv``
  with InstanceType, AcceleratorName, AcceleratorCount, Price, SpotPrice, Region).

Each snapshot is dated by its commit's author date. A row is written when a series' price differs from
its previous snapshot, and for its first and last snapshot, so the file holds every change with the span
observed. Every row names its source: repository, path and commit.

    python3 scripts/extract_price_history.py --gcp /path/to/google-cloud-pricing-cost-calculator \\
        --skypilot /path/to/anycloud-catalog -o data/price_history
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import subprocess
import sys

HOURS_PER_MONTH = 730.0
# GPU machine types followed, with their GPU family, and the regions followed (one series each).
# One size per machine family: the other sizes are priced in proportion and would count the same move twice.
GCP_TYPES = {"a2-highgpu-1g": "A100", "a2-ultragpu-1g": "A100", "a3-highgpu-8g": "H100", "a3-megagpu-8g": "H100",
             "g2-standard-4": "L4"}
GCP_REGIONS = ("us-central1", "europe-west4", "asia-southeast1")
GCP_FIELDS = {"hour": ("on_demand", 1.0), "hour_spot": ("spot", 1.0),
              "month_1y": ("reserved_1y", 1 / HOURS_PER_MONTH), "month_3y": ("reserved_3y", 1 / HOURS_PER_MONTH)}
SKYPILOT_GPUS = {"A100": "A100", "A100-80GB": "A100", "H100": "H100", "H100-SXM": "H100", "L4": "L4",
                 "V100": "V100", "V100-32GB": "V100", "H200": "H200", "B200": "B200"}
COLUMNS = ["date", "provider", "region", "instance_type", "gpu", "option", "usd_per_hour",
           "source_repo", "source_path", "source_commit"]


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True, text=True).stdout


def git_dir(path: str) -> str:
    return path if os.path.isfile(os.path.join(path, "HEAD")) and not os.path.isdir(os.path.join(path, ".git")) \
        else os.path.join(path, ".git")


def snapshots(repo: str, path: str):
    """(date, commit) of each commit that changed `path` and still holds it, oldest first."""
    out = []
    for line in git(repo, "log", "--format=%H %ad", "--date=short", "--", path).splitlines():
        commit, date = line.split()
        if subprocess.run(["git", "--git-dir", repo, "cat-file", "-e", f"{commit}:{path}"],
                          capture_output=True).returncode == 0:
            out.append((date, commit))
    return sorted(out)


def gcp_prices(text: str):
    """{(instance_type, region, option): usd_per_hour} from pricing.yml, read line by line (the file
    is 4 MB; a YAML parser takes seconds a snapshot)."""
    prices, instance, region, in_instances, in_cost = {}, None, None, False, False
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip(" "))
        key, _, value = line.strip().partition(":")
        if indent == 2:
            in_instances = key == "instance"
            instance = None
        elif not in_instances:
            continue
        elif indent == 4:
            instance = key if key in GCP_TYPES else None
            in_cost = False
        elif instance and indent == 6:
            in_cost = key == "cost"
        elif instance and in_cost and indent == 8:
            region = key if key in GCP_REGIONS else None
        elif instance and in_cost and region and indent == 10 and key in GCP_FIELDS and value.strip():
            option, scale = GCP_FIELDS[key]
            prices[(instance, region, option)] = float(value) * scale
    return plausible(prices)


def plausible(prices):
    """Drops spot and commitment prices that are not at least 0.1 % below on-demand, or commitments below a fifth of
    it: listing errors upstream (e.g. a2-ultragpu-1g's 1-year price at $0.69/h for one week of 2022,
    a3-megagpu-8g's at $6.99/h against $88/h on demand)."""
    out = {}
    for (instance, region, option), price in prices.items():
        on_demand = prices.get((instance, region, "on_demand"))
        low = 0.2 * on_demand if on_demand and option.startswith("reserved") else 0.0
        if option == "on_demand" or (on_demand and low <= price < 0.999 * on_demand):
            out[(instance, region, option)] = price
    return out


SKYPILOT_REGIONS = ("us-east-1", "us-central1", "eastus")  # one per cloud: Lambda lists one price in every region


def skypilot_prices(text: str):
    prices = {}
    for row in csv.DictReader(io.StringIO(text)):
        gpu = SKYPILOT_GPUS.get(row.get("AcceleratorName") or "")
        if not gpu or row.get("Region") not in SKYPILOT_REGIONS:
            continue
        for option, column in (("on_demand", "Price"), ("spot", "SpotPrice")):
            value = (row.get(column) or "").strip()
            if value and float(value) > 0:
                key = (row["InstanceType"], row.get("Region", ""), option)
                prices[key] = min(prices.get(key, float("inf")), float(value))  # cheapest zone
    return prices


def changes(repo_name, repo, path, parse, provider, family_of):
    rows, last, seen = [], {}, {}
    snaps = snapshots(repo, path)
    for i, (date, commit) in enumerate(snaps):
        prices = parse(git(repo, "show", f"{commit}:{path}"))
        for key, price in sorted(prices.items()):
            instance, region, option = key
            row = [date, provider, region, instance, family_of(instance), option, f"{price:.6g}",
                   repo_name, path, commit]
            if last.get(key) != round(price, 9):
                rows.append(row)
            seen[key] = row
            last[key] = round(price, 9)
        print(f"{repo_name} {path} {date} {i + 1}/{len(snaps)}", file=sys.stderr)
    final = {tuple(r[1:6]): r for r in rows}
    for key, row in seen.items():  # the last snapshot of each series marks the span observed
        if final[(row[1], row[2], row[3], row[4], row[5])] is not row:
            rows.append(row)
    return sorted(rows, key=lambda r: (r[1], r[2], r[3], r[5], r[0]))


def write(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {path}", file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gcp", help="clone of Cyclenerd/google-cloud-pricing-cost-calculator")
    parser.add_argument("--skypilot", help="clone of a SkyPilot-format catalog (anycloud-sh/catalog)")
    parser.add_argument("-o", "--output", default="data/price_history")
    args = parser.parse_args(argv)
    if args.gcp:
        write(changes("Cyclenerd/google-cloud-pricing-cost-calculator", git_dir(args.gcp), "pricing.yml",
                      gcp_prices, "gcp", GCP_TYPES.get), os.path.join(args.output, "gcp_cyclenerd.csv"))
    if args.skypilot:
        rows = []
        for cloud in ("lambda",):  # GCP comes from --gcp (longer history); AWS has one snapshot
            sky_families = {}

            def parse(text, families=sky_families):
                prices = skypilot_prices(text)
                for row in csv.DictReader(io.StringIO(text)):
                    gpu = SKYPILOT_GPUS.get(row.get("AcceleratorName") or "")
                    if gpu:
                        families[row["InstanceType"]] = gpu
                return prices
            rows += changes("anycloud-sh/catalog", git_dir(args.skypilot), f"{cloud}/vms.csv", parse, cloud,
                            lambda t, families=sky_families: families.get(t, ""))
        write(rows, os.path.join(args.output, "skypilot_anycloud.csv"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
