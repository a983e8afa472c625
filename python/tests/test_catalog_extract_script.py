"""scripts/extract-skypilot-catalog.py on the files saved in data/catalog/sources/skypilot/files/: the
committed extracts are what the saved files give through gputco's importer (a refresh's review is the
diff), and an undated file's rows stay undated."""
import csv
import importlib.util
import io
import json
import os
import pathlib

import gputco
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("extract_skypilot", ROOT / "scripts" / "extract-skypilot-catalog.py")
extract = importlib.util.module_from_spec(spec)
spec.loader.exec_module(extract)
spec = importlib.util.spec_from_file_location("refresh_catalog", ROOT / "scripts" / "refresh-catalog.py")
refresh = importlib.util.module_from_spec(spec)
spec.loader.exec_module(refresh)

MANIFEST = json.loads(extract.MANIFEST.read_text())
CATALOG = gputco.Catalog.builtin()


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_each_saved_file_gives_the_committed_extract(name):
    record = MANIFEST[name]
    rows, meta = extract.extract_saved(extract.SAVED / name, record, gputco.import_skypilot_csv, CATALOG)
    provider = record["provider"]
    with open(extract.OUT / f"{provider}.csv", newline="") as f:
        assert list(csv.DictReader(f)) == rows
    assert json.loads((extract.OUT / f"{provider}.source.json").read_text()) == meta
    # Every row read is kept or counted under its reason; zones at the same prices merge.
    assert meta["offerings_kept"] + sum(meta["skipped_by_reason"].values()) == meta["rows_read"]
    assert meta["rows_written"] <= meta["offerings_kept"] <= meta["offerings_read"]


def test_an_undated_file_gives_undated_rows_and_no_date_of_its_reading():
    text = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\r\n"
            "cpu-d3_4vcpu-16gb,,0,4,16,0.0992,eu-north1,,\r\n"
            "gpu-h200-sxm_8gpu-128vcpu-1600gb,H200,8,128,1600,28.00,eu-north1,,11.60\r\n")
    record = {"provider": "nebius", "repository": "o/r", "path": "p/vms.csv", "commit": "0" * 40, "date": None}
    rows, meta = extract.extract_text(text, record, gputco.import_skypilot_csv, CATALOG)
    assert meta["date"] is None and meta["skipped_by_reason"] == {"no GPU": 1}
    # A spot price above on demand is not a repeat of it: the columns look swapped, neither is kept.
    swapped = text.replace("28.00,eu-north1,,11.60", "11.60,eu-north1,,28.00")
    assert extract.extract_text(swapped, record, gputco.import_skypilot_csv, CATALOG)[1]["skipped_by_reason"] == {
        "no GPU": 1, "spot price above on demand (the columns look swapped): neither price kept": 1}
    (row,) = rows
    assert (row["effective_from"], row["source_as_of"], row["on_demand_hourly"], row["spot_hourly"],
            row["source_row"]) == ("", "undated", "28.0", "11.6", "line 3")
    o = refresh.observation_offering(row)
    assert "effective_from" not in o and o["source"]["as_of"] == "undated"
    # Beside a dated price of the same offering it cannot be ordered: the dated price stays listed and the
    # undated row is compared with it (cross-check.csv: 43.20 vs 28.00 is 54.3% apart, the dated one used).
    dated = refresh.observation_offering(dict(row, effective_from="2026-10-01", source_as_of="2026-10-07",
                                              on_demand_hourly="43.2", spot_hourly="", source_name="a page"))
    offerings, order, compared = {}, [], []
    refresh.add_extract(offerings, order, dated, "a.csv line 2", [], compared)
    refresh.add_extract(offerings, order, o, "b.csv line 2", [], compared)
    k = ("nebius", "eu-north1", "gpu-h200-sxm_8gpu-128vcpu-1600gb", "")
    listed = refresh.with_newest_listed(offerings[k])
    assert (listed["on_demand_hourly"], listed["effective_from"], listed.get("history", [])) == (43.2, "2026-10-01", [])
    assert compared == [(offerings[k], o)]
    (check,) = refresh.cross_check_rows(offerings, set(), [], compared)
    assert (check["offering"], check["extract_date"], check["extract_on_demand"], check["other_date"],
            check["other_on_demand"], check["apart"], check["used"]) == (
        "nebius/eu-north1/gpu-h200-sxm_8gpu-128vcpu-1600gb", "undated", "28.0", "2026-10-07", "43.2", "54.3%", "other")
    # Two different prices of the same date are still an error.
    with pytest.raises(SystemExit, match="c.csv line 2: nebius/eu-north1/gpu-h200-sxm_8gpu-128vcpu-1600gb already has "
                                         "a price dated 2026-10-01"):
        refresh.add_extract(offerings, order, dict(dated, on_demand_hourly=40.0), "c.csv line 2", [], compared)



def test_a_uniform_price_provider_s_dated_price_takes_the_place_of_an_undated_row_in_every_region():
    # RunPod prices alike in every region (refresh.UNIFORM_PRICE, listed region US): its page's dated
    # price, recorded at US, is also the price of the same type in Canada, whose row from an undated file
    # has no place in time beside it.
    assert refresh.UNIFORM_PRICE["runpod"] == "US"
    base = {"provider": "runpod", "instance_type": "2x_H200-SXM_SECURE", "gpu": "H200", "gpus_per_instance": "2",
            "currency": "USD", "spot_hourly": "", "billing_increment_seconds": "3600", "minimum_billed_seconds": "0",
            "source_row": "line 7", "notes": "", "zone": ""}
    undated = dict(base, effective_from="", source_as_of="undated", on_demand_hourly="7.98", spot_hourly="7.18",
                   source_name="SkyPilot-format catalog o/r runpod/vms.csv, commit 0000000")
    page = dict(base, effective_from="2026-09-08", source_as_of="2026-09-08", on_demand_hourly="9.18",
                billing_increment_seconds="1", source_name="runpod.io/pricing", source_row="H200: 4.59 x 2")
    offerings, order, compared = {}, [], []
    refresh.add_snapshot(offerings, order, refresh.observation_offering(dict(page, region="US")), "obs line 2")
    keys = set()
    for region in ("US", "CA"):
        row = refresh.observation_offering(dict(undated, region=region))
        refresh.add_extract(offerings, order, row, f"x.csv {region}", [], compared)
        keys.add(refresh.key(row))
    assert [refresh.key(new) for _, new in compared] == [("runpod", "US", "2x_H200-SXM_SECURE", "")]
    refresh.uniform_prices(offerings, keys, compared)
    canada = refresh.with_newest_listed(offerings[("runpod", "CA", "2x_H200-SXM_SECURE", "")])
    # The page's 9.18 from 2026-09-08, its per-second billing, no spot price; the file's 7.98 gone.
    assert (canada["on_demand_hourly"], canada.get("spot_hourly"), canada["effective_from"],
            canada["billing_increment_seconds"], canada["notes"], canada.get("history", [])) == (
        9.18, None, "2026-09-08", 1.0, "one price in every region: the US observation", [])
    # Its undated row has the US row's prices, compared there: not compared a second time.
    assert len(compared) == 1
    # A region whose undated row has other prices than the listed region's is compared too.
    offerings2, order2, compared2 = {}, [], []
    refresh.add_snapshot(offerings2, order2, refresh.observation_offering(dict(page, region="US")), "obs line 2")
    for region, price in (("US", "7.98"), ("SE", "8.50")):
        refresh.add_extract(offerings2, order2, refresh.observation_offering(dict(undated, region=region,
                                                                                  on_demand_hourly=price)),
                            f"x.csv {region}", [], compared2)
    refresh.uniform_prices(offerings2, {("runpod", r, "2x_H200-SXM_SECURE", "") for r in ("US", "SE")}, compared2)
    assert sorted(refresh.key(new)[1] for _, new in compared2) == ["SE", "US"]


LAMBDA_HEAD = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n"


def lambda_row(itype, gpu, count, price, region):
    return f"{itype},{gpu},{count}.0,26.0,200.0,{price},{region},,\n"


def commit_file(repo, path, text, date, message):
    """Commits `text` at `path` in the bare-less repository `repo`, dated `date` (author and committer)."""
    import os
    import subprocess
    env = dict(os.environ, GIT_AUTHOR_DATE=f"{date}T04:00:00+00:00", GIT_COMMITTER_DATE=f"{date}T04:00:00+00:00",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(text)
    subprocess.run(["git", "-C", str(repo), "add", path], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", message], check=True, env=env)


def test_history_from_the_git_history_dates_each_change_by_its_commit(tmp_path):
    import subprocess
    repo = tmp_path / "catalog"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    path = "lambda/vms.csv"
    a10 = lambda price, region="us-east-1": lambda_row("gpu_1x_a10", "A10", 1, price, region)
    h100 = lambda price: lambda_row("gpu_8x_h100_sxm5", "H100", 8, price, "us-east-1")
    # 04-02: 0.86 and 27.52. 04-04: A10 at 1.50 for part of a day, then back (the day's last snapshot
    # counts). 04-06: both rise. 04-07: A10 at 9.99 for a day, 04-08 back: reverted, not a change.
    # 04-09: a region only there once (not in the newest: not kept).
    commit_file(repo, path, LAMBDA_HEAD + a10(0.86) + h100(27.52), "2026-04-02", "first")
    commit_file(repo, path, LAMBDA_HEAD + a10(1.50) + h100(27.52), "2026-04-04", "morning")
    commit_file(repo, path, LAMBDA_HEAD + h100(27.52) + a10(0.86), "2026-04-04", "evening")
    commit_file(repo, path, LAMBDA_HEAD + a10(1.29) + h100(31.92), "2026-04-06", "rise")
    commit_file(repo, path, LAMBDA_HEAD + a10(9.99) + h100(31.92), "2026-04-07", "a day's other meter")
    commit_file(repo, path, LAMBDA_HEAD + a10(1.29) + h100(31.92) + a10(1.29, "me-west-1"), "2026-04-08", "back")
    commit_file(repo, path, LAMBDA_HEAD + a10(1.29) + h100(31.92), "2026-04-09", "newest")
    rows, meta, earlier = extract.extract(repo / ".git", "o/r", "HEAD", "lambda", path, gputco.import_skypilot_csv,
                                          CATALOG)
    listed = {r["instance_type"]: r for r in rows}
    assert {k: (r["on_demand_hourly"], r["effective_from"], r["source_as_of"]) for k, r in listed.items()} == {
        "gpu_1x_a10": ("1.29", "2026-04-06", "2026-04-09"), "gpu_8x_h100_sxm5": ("31.92", "2026-04-06", "2026-04-09")}
    assert [(r["instance_type"], r["effective_from"], r["on_demand_hourly"], r["source_row"], r["notes"])
            for r in earlier] == [("gpu_1x_a10", "2026-04-02", "0.86", "line 2", ""),
                                  ("gpu_8x_h100_sxm5", "2026-04-02", "27.52", "line 3", "")]
    first = subprocess.run(["git", "-C", str(repo), "rev-list", "--max-parents=0", "HEAD"], capture_output=True,
                           text=True, check=True).stdout.strip()
    assert earlier[0]["source_name"] == f"SkyPilot-format catalog o/r lambda/vms.csv, commit {first[:7]}"
    assert meta["history"] == {"daily_snapshots": 6, "first": "2026-04-02", "offerings_not_in_the_newest": 1,
                               "reverted_runs_dropped": 1, "changes": 2}
    # The refresh makes them one offering each with its history, in force by date.
    offerings, order = {}, []
    for r in rows + earlier:
        refresh.add_extract(offerings, order, refresh.observation_offering(r), "x", [], [])
    o = refresh.with_newest_listed(offerings[("lambda", "us-east-1", "gpu_1x_a10", "")])
    assert (o["on_demand_hourly"], o["effective_from"]) == (1.29, "2026-04-06")
    assert [(s["effective_from"], s["on_demand_hourly"]) for s in o["history"]] == [("2026-04-02", 0.86)]


def test_a_day_with_no_on_demand_price_is_no_observation_of_it(tmp_path):
    import subprocess
    repo = tmp_path / "catalog"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    path = "lambda/vms.csv"
    row = lambda price, spot: f"gpu_1x_a10,A10,1.0,26.0,200.0,{price},us-east-1,,{spot}\n"
    commit_file(repo, path, LAMBDA_HEAD + row(0.86, ""), "2026-04-02", "on demand")
    commit_file(repo, path, LAMBDA_HEAD + row("", 0.3), "2026-04-03", "spot only that day")
    commit_file(repo, path, LAMBDA_HEAD + row(1.29, 0.3), "2026-04-06", "both")
    rows, meta, earlier = extract.extract(repo / ".git", "o/r", "HEAD", "lambda", path, gputco.import_skypilot_csv,
                                          CATALOG)
    assert [(r["effective_from"], r["on_demand_hourly"], r["spot_hourly"]) for r in rows] == [("2026-04-06", "1.29", "0.3")]
    # 04-03 is a change (spot from none to 0.3); on demand stays 0.86 until 04-06, said in the note.
    assert [(r["effective_from"], r["on_demand_hourly"], r["spot_hourly"], r["notes"]) for r in earlier] == [
        ("2026-04-02", "0.86", "", ""),
        ("2026-04-03", "0.86", "0.3", "on demand: none in this snapshot (a day with no on-demand price is no observation "
                                      "of it)")]


def test_the_committed_history_extracts_hold_only_changes_before_their_listing():
    """Every row of <provider>.history.csv is an earlier price of a listed row of <provider>.csv, and
    each differs from the next price of its offering (only changes are stored)."""
    for file in sorted(extract.OUT.glob("*.history.csv")):
        provider = file.name.split(".")[0]
        with open(extract.OUT / f"{provider}.csv", newline="") as f:
            listed = {extract.key_of(r): r for r in csv.DictReader(f)}
        with open(file, newline="") as f:
            earlier = list(csv.DictReader(f))
        meta = json.loads((extract.OUT / f"{provider}.source.json").read_text())
        assert meta["history"]["changes"] == len(earlier) > 0
        by_key = {}
        for r in earlier:
            by_key.setdefault(extract.key_of(r), []).append(r)
        for k, snaps in by_key.items():
            now = listed[k]
            dates = [r["effective_from"] for r in snaps]
            assert dates == sorted(set(dates)) and dates[-1] < now["effective_from"], k
            prices = [(r["on_demand_hourly"], r["spot_hourly"]) for r in snaps + [now]]
            assert all(a != b for a, b in zip(prices, prices[1:])), k
            assert all(r["source_as_of"] == r["effective_from"] for r in snaps), k


CLONE = os.environ.get("GPUTCO_SKYPILOT_CLONE")


@pytest.mark.skipif(not CLONE, reason="needs GPUTCO_SKYPILOT_CLONE: a clone of github.com/anycloud-sh/catalog")
@pytest.mark.parametrize("provider", ["azure", "gcp", "lambda", "vast"])
def test_a_clone_gives_the_committed_extracts(provider):
    """The refresh's review: a clone of the repository at the committed extract's commit (or later, if
    the file is unchanged since) gives the committed rows, history and counts, byte for byte."""
    meta_now = json.loads((extract.OUT / f"{provider}.source.json").read_text())
    rows, meta, earlier = extract.extract(pathlib.Path(CLONE), "anycloud-sh/catalog", meta_now["commit"], provider,
                                          extract.FILES[provider], gputco.import_skypilot_csv, CATALOG)
    assert meta == meta_now
    with open(extract.OUT / f"{provider}.csv", newline="") as f:
        assert list(csv.DictReader(f)) == rows
    history = extract.OUT / f"{provider}.history.csv"
    if earlier:
        with open(history, newline="") as f:
            assert list(csv.DictReader(f)) == earlier
    else:
        assert not history.exists()


spec = importlib.util.spec_from_file_location("extract_aws", ROOT / "scripts" / "extract-aws-regions.py")
aws = importlib.util.module_from_spec(spec)
spec.loader.exec_module(aws)


def test_the_aws_file_is_read_with_the_ec2instances_importer_and_cited_by_pointer():
    text = """// Auto-generated from instances.vantage.sh data
const allGPUInstances = [
  {"name": "inf2.xlarge", "gpu": "AWS Inferentia2", "gpuCount": 1, "pricing": {"us-east-1": {"onDemand": 0.7582}}},
  {"name": "p5.48xlarge", "gpu": "NVIDIA H100", "gpuCount": 8,
   "pricing": {"us-east-1": {"onDemand": 55.04}, "eu-north-1": {"onDemand": 58.8928, "reserved": 37.1}}},
  {"name": "g3.4xlarge", "gpu": "NVIDIA Tesla M60", "gpuCount": 1, "pricing": {"us-east-1": {"onDemand": 1.14}}}
];
"""
    rows, meta = aws.extract_text(text, "a" * 40, "2026-01-21", gputco.import_ec2instances_json, CATALOG)
    assert [(r["region"], r["instance_type"], r["gpu"], r["gpus_per_instance"], r["on_demand_hourly"], r["spot_hourly"],
             r["source_row"], r["effective_from"]) for r in rows] == [
        ("eu-north-1", "p5.48xlarge", "H100", "8", "58.8928", "", "/1/pricing/eu-north-1/onDemand", "2026-01-21"),
        ("us-east-1", "g3.4xlarge", "M60", "1", "1.14", "", "/2/pricing/us-east-1/onDemand", "2026-01-21"),
        ("us-east-1", "p5.48xlarge", "H100", "8", "55.04", "", "/1/pricing/us-east-1/onDemand", "2026-01-21")]
    assert rows[0]["source_name"] == "AWS prices (instances.vantage.sh) in tsaol/aws-gpu data/all_gpu_instances.js, commit aaaaaaa"
    # The AWS table in gpu_names knows no Inferentia: counted, never guessed.
    assert meta["skipped_by_reason"] == {"no GPU field, and not a GPU type of the AWS table (gpu_names.hpp)": 1}
    assert meta["reserved_not_used"] == 1
    # A card the catalog has no spec for is counted, not kept: the same file against a catalog without the M60.
    without_m60 = gputco.Catalog([g for g in CATALOG.gpus if g.name != "M60"], [])
    rows, meta = aws.extract_text(text, "a" * 40, "2026-01-21", gputco.import_ec2instances_json, without_m60)
    assert [r["instance_type"] for r in rows] == ["p5.48xlarge", "p5.48xlarge"]
    assert meta["skipped_by_reason"] == {"GPU M60 has no spec in the built-in catalog": 1,
                                         "no GPU field, and not a GPU type of the AWS table (gpu_names.hpp)": 1}


def test_the_aws_file_s_fractional_sizes_are_shares_of_an_l4_and_an_unknown_one_is_counted():
    # tsaol/aws-gpu data/all_gpu_instances.js (7412fd2, 2026-01-21): g6f.large in us-east-1 at 0.202 (gpuCount
    # 0.125, named "NVIDIA L40" there); the AWS table in gpu_names makes it an eighth of one L4. g6f.8xlarge is
    # made up: a size of the family the table does not know is counted, never given a share.
    text = """const allGPUInstances = [
  {"name": "g6f.large", "gpu": "NVIDIA L40", "gpuCount": 0.125, "pricing": {"us-east-1": {"onDemand": 0.202}}},
  {"name": "g6f.8xlarge", "gpu": "NVIDIA L40", "gpuCount": 1, "pricing": {"us-east-1": {"onDemand": 3.8}}}
];
"""
    rows, meta = aws.extract_text(text, "a" * 40, "2026-01-21", gputco.import_ec2instances_json, CATALOG)
    assert [(r["instance_type"], r["gpu"], r["gpus_per_instance"], r["on_demand_hourly"], r["notes"]) for r in rows] == [
        ("g6f.large", "L4/8", "1", "0.202", "a 1/8 share of one L4 (the AWS table's share): one unit is the share")]
    assert meta["skipped_by_reason"] == {
        "g6f.8xlarge is of a family that rents shares of one GPU and is not in the AWS table (gpu_names.hpp): "
        "its share is unknown": 1}


AWS_CLONE = os.environ.get("GPUTCO_AWS_GPU_CLONE")


@pytest.mark.skipif(not AWS_CLONE, reason="needs GPUTCO_AWS_GPU_CLONE: a clone of github.com/tsaol/aws-gpu")
def test_a_clone_of_the_aws_file_gives_the_committed_extract():
    meta_now = json.loads((aws.OUT / "aws.source.json").read_text())
    rows, meta, earlier = aws.extract(pathlib.Path(AWS_CLONE), meta_now["commit"], gputco.import_ec2instances_json, CATALOG)
    assert meta == meta_now
    with open(aws.OUT / "aws.csv", newline="") as f:
        assert list(csv.DictReader(f)) == rows
    assert earlier == [] and not (aws.OUT / "aws.history.csv").exists()


def test_a_row_sold_only_as_spot_at_one_date_and_on_demand_at_another_keeps_each_snapshots_way():
    row = {"provider": "gcp", "region": "us-central1", "instance_type": "a3-highgpu-1g", "zone": "", "gpu": "H100",
           "gpus_per_instance": "1", "currency": "USD", "effective_from": "2026-01-01", "on_demand_hourly": "",
           "spot_hourly": "2.5", "billing_increment_seconds": "1.0", "minimum_billed_seconds": "60.0",
           "source_name": "s", "source_as_of": "2026-01-01", "source_row": "line 2", "notes": ""}
    offerings, order = {}, []
    refresh.add_snapshot(offerings, order, refresh.observation_offering(row), "a.csv line 2")
    later = dict(row, effective_from="2026-05-01", source_as_of="2026-05-01", on_demand_hourly="11.0", spot_hourly="3.0")
    refresh.add_snapshot(offerings, order, refresh.observation_offering(later), "a.csv line 3")
    listed = refresh.without_empty(refresh.with_newest_listed(offerings[order[0]]))
    assert "spot_only" not in listed and listed["on_demand_hourly"] == 11.0
    (before,) = listed["history"]
    assert before["spot_only"] is True and before["on_demand_hourly"] == 0
    # The library reads it back: sold only as spot before May, on demand after.
    catalog = gputco.Catalog.from_json(json.dumps({"format": "gputco-catalog", "version": 1, "gpus": [],
                                                   "offerings": [listed]}))
    o = catalog.offerings[0]
    assert o.history[0].spot_only and not o.spot_only
    assert o.price_at("2026-02-01").spot_only
    assert not o.price_at("2026-06-01").spot_only
