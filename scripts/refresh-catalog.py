#!/usr/bin/env python3
"""Regenerate data/catalog/builtin.json from the sources in data/catalog/sources/.

  python3 scripts/refresh-catalog.py          # writes data/catalog/builtin.json
  python3 scripts/refresh-catalog.py --check  # exit 1 if builtin.json is not what the sources give

Inputs (docs/catalog.md, "Refreshing the built-in catalog"):
  curated.json      GPUs and the offerings kept by hand (seed prices, derived reservations), each with
                    its source; dated prices of an offering as its history.
  observations.csv  one dated price observation per row (provider, region, instance type, GPU, prices,
                    source, source date, row in the source).
Every observation becomes a dated snapshot of its offering. The rule the library relies on: an
offering's listed prices are its newest snapshot, so Catalog::builtin() answers at today's prices and
older ones are its history (price_at / as_of).
"""
import argparse
import csv
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "data" / "catalog" / "sources"
OUT = ROOT / "data" / "catalog" / "builtin.json"

SNAPSHOT_FIELDS = ("on_demand_hourly", "spot_hourly", "reserved", "source", "notes")


def key(o):
    return (o["provider"], o["region"], o["instance_type"], o.get("zone", ""))


def observation_offering(row):
    source = {"name": row["source_name"], "as_of": row["source_as_of"]}
    if row["source_row"]:
        source["row"] = row["source_row"]
    return {
        "provider": row["provider"],
        "region": row["region"],
        "instance_type": row["instance_type"],
        "gpu": row["gpu"],
        "gpus_per_instance": int(row["gpus_per_instance"]),
        "currency": row["currency"],
        "on_demand_hourly": float(row["on_demand_hourly"]),
        "spot_hourly": float(row["spot_hourly"]) if row["spot_hourly"] else None,
        "reserved": [],
        "billing_increment_seconds": float(row["billing_increment_seconds"]),
        "minimum_billed_seconds": float(row["minimum_billed_seconds"]),
        "source": source,
        "notes": row["notes"],
        "effective_from": row["effective_from"],
    }


def snapshots(o):
    """The listed prices and the history of `o` as (date, snapshot) pairs; undated listing first."""
    listed = {f: o.get(f) for f in SNAPSHOT_FIELDS}
    out = [(o.get("effective_from") or "", listed)]
    for s in o.get("history", []):
        out.append((s["effective_from"], {f: s.get(f) for f in SNAPSHOT_FIELDS}))
    return out


def with_newest_listed(o):
    """`o` with its newest dated snapshot as the listed prices and the others as history."""
    snaps = snapshots(o)
    if len(snaps) == 1:
        return o
    if any(date == "" for date, _ in snaps):
        raise SystemExit(f"{'/'.join(key(o))}: an undated price cannot sit beside dated ones")
    snaps.sort(key=lambda pair: pair[0])
    newest_date, newest = snaps[-1]
    out = {k: v for k, v in o.items() if k not in SNAPSHOT_FIELDS + ("history", "effective_from")}
    out.update(newest)
    out["effective_from"] = newest_date
    out["history"] = [dict(effective_from=d, **s) for d, s in snaps[:-1]]
    return out


def build():
    curated = json.loads((SOURCES / "curated.json").read_text())
    offerings = {key(o): o for o in curated["offerings"]}
    order = [key(o) for o in curated["offerings"]]
    with open(SOURCES / "observations.csv", newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            new = observation_offering(row)
            k = key(new)
            if k not in offerings:
                offerings[k] = new
                order.append(k)
                continue
            have = offerings[k]
            dates = [d for d, _ in snapshots(have)]
            if new["effective_from"] in dates:
                raise SystemExit(f"observations.csv line {line}: {'/'.join(k)} already has a price dated {new['effective_from']}")
            for field in ("gpu", "gpus_per_instance", "currency"):
                if have[field] != new[field]:
                    raise SystemExit(f"observations.csv line {line}: {field} = {new[field]!r} differs from {have[field]!r}")
            history = have.setdefault("history", [])
            history.append({"effective_from": new["effective_from"], **{f: new[f] for f in SNAPSHOT_FIELDS}})
    catalog = {
        "format": curated["format"],
        "version": curated["version"],
        "gpus": curated["gpus"],
        "offerings": [with_newest_listed(offerings[k]) for k in order],
    }
    return json.dumps(catalog, indent=1, ensure_ascii=False) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with builtin.json instead of writing it")
    args = parser.parse_args()
    text = build()
    if args.check:
        if OUT.read_text() != text:
            print(f"{OUT} is out of date: run scripts/refresh-catalog.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
