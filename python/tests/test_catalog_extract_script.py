"""scripts/extract-skypilot-catalog.py on the files saved in data/catalog/sources/skypilot/files/: the
committed extracts are what the saved files give through gputco's importer (a refresh's review is the
diff), and an undated file's rows stay undated."""
import csv
import importlib.util
import io
import json
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
KNOWN = gputco.Catalog.builtin()


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_each_saved_file_gives_the_committed_extract(name):
    record = MANIFEST[name]
    rows, meta = extract.extract_saved(extract.SAVED / name, record, gputco.import_skypilot_csv, KNOWN)
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
    rows, meta = extract.extract_text(text, record, gputco.import_skypilot_csv, KNOWN)
    assert meta["date"] is None and meta["skipped_by_reason"] == {"no GPU": 1}
    # A spot price above on demand is not a repeat of it: the columns look swapped, neither is kept.
    swapped = text.replace("28.00,eu-north1,,11.60", "11.60,eu-north1,,28.00")
    assert extract.extract_text(swapped, record, gputco.import_skypilot_csv, KNOWN)[1]["skipped_by_reason"] == {
        "no GPU": 1, "spot price above on demand (the columns look swapped): neither price kept": 1}
    (row,) = rows
    assert (row["effective_from"], row["source_as_of"], row["on_demand_hourly"], row["spot_hourly"],
            row["source_row"]) == ("", "undated", "28.0", "11.6", "line 3")
    o = refresh.observation_offering(row)
    assert "effective_from" not in o and o["source"]["as_of"] == "undated"
    # Beside a dated price of the same offering it cannot be ordered: the refresh says so.
    dated = refresh.observation_offering(dict(row, effective_from="2026-01-01", source_as_of="2026-01-01"))
    offerings, order = {}, []
    refresh.add_extract(offerings, order, dated, "a.csv line 2", [])
    with pytest.raises(SystemExit, match="b.csv line 2: nebius/eu-north1/gpu-h200-sxm_8gpu-128vcpu-1600gb: an undated "
                                         "price cannot sit beside another price of the same offering"):
        refresh.add_extract(offerings, order, o, "b.csv line 2", [])


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
