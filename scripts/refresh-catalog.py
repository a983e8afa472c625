#!/usr/bin/env python3
"""Regenerate data/catalog/builtin.json from the sources in data/catalog/sources/.

  python3 scripts/refresh-catalog.py          # writes data/catalog/builtin.json
  python3 scripts/refresh-catalog.py --check  # exit 1 if builtin.json is not what the sources give

Inputs (docs/catalog.md, "Refreshing the built-in catalog"):
  curated.json      GPUs and the offerings kept by hand (seed prices, derived reservations), each with
                    its source; dated prices of an offering as its history.
  observations.csv  one dated price observation per row (provider, region, instance type, GPU, prices,
                    source, source date, row in the source).
  skypilot/*.csv    the GPU rows of SkyPilot-format catalog files, every region, in the same columns
                    (plus zone), written by scripts/extract-skypilot-catalog.py with the repository,
                    path, commit and date in skypilot/*.source.json beside each; skypilot/*.history.csv
                    their earlier prices from the files' git history.
  aws/*.csv         AWS in every region (scripts/extract-aws-regions.py), the same columns; offerings
                    kept by hand in curated.json are compared with it (cross-check.csv), not replaced.
Every observation becomes a dated snapshot of its offering. The rule the library relies on: an
offering's listed prices are its newest snapshot, so Catalog::builtin() answers at today's prices and
older ones are its history (price_at / as_of).

curated.json's "sold_only_through_reservations" names instance types sold by no on-demand hours (each
with its source): every region's offering of that type is marked reservation_only (Offering::reservation_only;
its on-demand list price stays, as the price reservations are billed at or discounted from).

Where an extract meets a curated or observed offering, the newest dated price is listed and the other
is history; a curated listing with no date is replaced by the extract's dated price (its reservations
kept where the on-demand price is unchanged, its notes where the spot price is too); an undated file's
row of an offering that has a dated price is compared with it, not added (it has no place in time). Extract prices more than CROSS_CHECK_TOLERANCE apart
from the curated/observed price of the same offering are listed in skypilot/cross-check.csv (also
written by this script, so --check covers it), naming the price used.
"""
import argparse
import csv
import io
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "data" / "catalog" / "sources"
OUT = ROOT / "data" / "catalog" / "builtin.json"
EXTRACTS = SOURCES / "skypilot"
# AWS in every region (scripts/extract-aws-regions.py), in the same columns.
AWS_REGIONS = SOURCES / "aws"
CROSS_CHECK = EXTRACTS / "cross-check.csv"
# gputco's cross_check default (include/gputco/catalog/price_trust.hpp): 10% of the lower price.
CROSS_CHECK_TOLERANCE = 0.10
# Providers that publish one price for every region: their observations (recorded at this region)
# are prices of the same instance type in every region the extracts list.
UNIFORM_PRICE = {"lambda": "us-east-1", "runpod": "US"}

SNAPSHOT_FIELDS = ("on_demand_hourly", "spot_hourly", "reserved", "source", "notes", "spot_only")


def key(o):
    return (o["provider"], o["region"], o["instance_type"], o.get("zone", ""))


def name(k):
    """An offering's key as the catalog writes it: provider/region/instance_type[/zone]."""
    return "/".join(p for p in k if p)


def observation_offering(row):
    source = {"name": row["source_name"], "as_of": row["source_as_of"]}
    if row["source_row"]:
        source["row"] = row["source_row"]
    o = {
        "provider": row["provider"],
        "region": row["region"],
        "instance_type": row["instance_type"],
    }
    if row.get("zone"):
        o["zone"] = row["zone"]
    o.update({
        "gpu": row["gpu"],
        "gpus_per_instance": int(row["gpus_per_instance"]),
        "currency": row["currency"],
        # An empty on-demand price is a row sold only as spot capacity (Offering::spot_only).
        "on_demand_hourly": float(row["on_demand_hourly"] or 0),
        "spot_hourly": float(row["spot_hourly"]) if row["spot_hourly"] else None,
        "reserved": [],
        "billing_increment_seconds": float(row["billing_increment_seconds"]),
        "minimum_billed_seconds": float(row["minimum_billed_seconds"]),
        "source": source,
        "notes": row["notes"],
    })
    if row["effective_from"]:  # none: an undated file's row (its source's as_of says "undated")
        o["effective_from"] = row["effective_from"]
    # A snapshot's own flag: the same offering may be sold only as spot at one date and on demand at another.
    o["spot_only"] = not row["on_demand_hourly"]
    return o


def iso_date(text):
    """`text` if it is a whole ISO date (2026-07-30), else None ("undated", "2025-H1", "2026-08")."""
    parts = text.split("-")
    if len(parts) == 3 and all(p.isdigit() for p in parts) and len(parts[0]) == 4:
        return text
    return None


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
        raise SystemExit(f"{name(key(o))}: an undated price cannot sit beside dated ones")
    snaps.sort(key=lambda pair: pair[0])
    newest_date, newest = snaps[-1]
    out = {k: v for k, v in o.items() if k not in SNAPSHOT_FIELDS + ("history", "effective_from")}
    out.update(newest)
    out["effective_from"] = newest_date
    out["history"] = [dict(effective_from=d, **s) for d, s in snaps[:-1]]
    return out


def add_snapshot(offerings, order, new, where):
    """Adds the observation `new` to its offering (a new key becomes a new offering)."""
    k = key(new)
    if k not in offerings:
        offerings[k] = new
        order.append(k)
        return
    have = offerings[k]
    for field in ("gpu", "gpus_per_instance", "currency"):
        if have[field] != new[field]:
            raise SystemExit(f"{where}: {name(k)}: {field} = {new[field]!r} differs from {have[field]!r}")
    dates = [d for d, _ in snapshots(have)]
    if not new.get("effective_from") or "" in dates:
        raise SystemExit(f"{where}: {name(k)}: an undated price cannot sit beside another price of the same offering")
    if new["effective_from"] in dates:
        raise SystemExit(f"{where}: {name(k)} already has a price dated {new['effective_from']}")
    have.setdefault("history", []).append({"effective_from": new["effective_from"], **{f: new[f] for f in SNAPSHOT_FIELDS}})


def same_prices(a, b):
    return a["on_demand_hourly"] == b["on_demand_hourly"] and a["spot_hourly"] == b["spot_hourly"]


def add_extract(offerings, order, new, where, replaced, compared):
    """Adds an extract's row: the rules of add_snapshot, and for an offering kept by hand with no
    date on its listing, the listing's source date where it is a whole date; otherwise (undated) the
    dated extract replaces it, keeping its reservations if the on-demand price is the same and its
    notes if the spot price is too. An undated file's row of an offering that has a dated price
    cannot be placed in time beside it: the dated prices stay and the row is compared (`compared`)."""
    k = key(new)
    have = offerings.get(k)
    if have is not None and not new.get("effective_from") and any(d for d, _ in snapshots(have)):
        compared.append((have, new))
        return
    if have is None or have.get("effective_from") or have.get("history"):
        if have is not None and any(d == new.get("effective_from", "") and same_prices(snap, new) for d, snap in snapshots(have)):
            return  # the same observation (an earlier copy of the same file)
        add_snapshot(offerings, order, new, where)
        return
    dated = iso_date(have["source"]["as_of"])
    if dated and new.get("effective_from") and dated != new["effective_from"]:
        have["effective_from"] = dated
        add_snapshot(offerings, order, new, where)
        return
    for field in ("gpu", "gpus_per_instance", "currency"):
        if have[field] != new[field]:
            raise SystemExit(f"{where}: {name(k)}: {field} = {new[field]!r} differs from {have[field]!r}")
    kept = dict(have)
    for f in SNAPSHOT_FIELDS:
        kept[f] = new[f]
    kept.pop("effective_from", None)
    if new.get("effective_from"):
        kept["effective_from"] = new["effective_from"]
    if same_prices(have, new):
        # The listing's clauses the extract does not already say (both may note the same conversion).
        said = new["notes"].split("; ") if new["notes"] else []
        kept["notes"] = "; ".join(said + [n for n in have.get("notes", "").split("; ") if n and n not in said])
    if have["on_demand_hourly"] == new["on_demand_hourly"]:  # reservations derive from it; spot is a market price
        kept["reserved"] = [dict(r, source=r.get("source", have["source"])) for r in have.get("reserved", [])]
        if kept["reserved"] and not same_prices(have, new):
            kept["notes"] = "; ".join(n for n in (new["notes"], "reservations kept from the undated listing of the "
                                                  "same on-demand price (their source says which)") if n)
    else:
        replaced.append((have, new))
    offerings[k] = kept


def uniform_prices(offerings, extract_keys, compared):
    """UNIFORM_PRICE providers: the observations of the listed region are snapshots of the same
    instance type in every region an extract lists (dates the region already has are left). A region
    whose row comes from an undated file has no place in time beside them: the dated prices (and the
    listed region's billing terms) replace it, and the row is compared (`compared`) unless the listed
    region's own undated row, compared there, has the same prices."""
    compared_at = {key(new): new for _, new in compared}
    for k in sorted(extract_keys):
        provider, region, itype, zone = k
        at = UNIFORM_PRICE.get(provider)
        if at is None or region == at or (provider, at, itype, zone) not in offerings:
            continue
        listed = offerings[(provider, at, itype, zone)]
        dated = [(d, s) for d, s in snapshots(listed)
                 if d and not s["source"]["name"].startswith("SkyPilot-format catalog")]
        if not dated:
            continue
        here = offerings[k]
        if not any(d for d, _ in snapshots(here)):
            undated = here
            here = {f: v for f, v in undated.items() if f not in SNAPSHOT_FIELDS + ("history", "effective_from")}
            for f in ("billing_increment_seconds", "minimum_billed_seconds"):
                here[f] = listed[f]
            offerings[k] = here
            twin = compared_at.get((provider, at, itype, zone))
            if twin is None or not same_prices(twin, undated):
                compared.append((here, undated))
        dates = {d for d, _ in snapshots(here) if d}
        for date, snap in dated:
            if date in dates:
                continue
            # Its own note spoke of the listed region; a short one says where the price comes from.
            snap = dict(snap, notes=f"one price in every region: the {at} observation")
            if "effective_from" not in here:
                here.update(snap)
                here["effective_from"] = date
            else:
                here.setdefault("history", []).append(dict(effective_from=date, **snap))
            dates.add(date)


def cross_check_rows(offerings, extract_keys, replaced, compared=()):
    """Extract prices more than CROSS_CHECK_TOLERANCE apart from the other sources' newest price of the
    same offering, with the price used (the newest dated; for `compared`, (kept, extract) pairs of
    offerings kept by hand, the kept one)."""
    out = []
    for k in sorted(extract_keys):
        if k[0] in UNIFORM_PRICE and k[1] != UNIFORM_PRICE[k[0]]:
            continue  # the same prices as the listed region's row, reported there
        snaps = sorted((d, s) for d, s in snapshots(offerings[k]) if d)
        ours = [(d, s) for d, s in snaps if s["source"]["name"].startswith("SkyPilot-format catalog")]
        theirs = [(d, s) for d, s in snaps if not s["source"]["name"].startswith("SkyPilot-format catalog")]
        if not ours or not theirs:
            continue
        (d1, a), (d2, b) = ours[-1], theirs[-1]
        out.append((k, d1, a, d2, b, snaps[-1][0]))
    for have, new in replaced:
        out.append((key(new), new["effective_from"], new, have["source"]["as_of"], have, new["effective_from"]))
    for have, new in compared:
        kept = with_newest_listed(have)
        out.append((key(new), new.get("effective_from", new["source"]["as_of"]), new, kept["source"]["as_of"], kept, None))
    rows = []
    for k, d1, a, d2, b, used in sorted(out, key=lambda r: r[0]):
        x, y = a["on_demand_hourly"], b["on_demand_hourly"]
        if not x or not y or abs(x - y) <= CROSS_CHECK_TOLERANCE * min(x, y):
            continue
        rows.append({"offering": "/".join(p for p in k if p), "extract_date": d1, "extract_on_demand": repr(x),
                     "other_date": d2, "other_on_demand": repr(y), "other_source": b["source"]["name"],
                     "apart": f"{abs(x - y) / min(x, y):.1%}", "used": "extract" if used == d1 else "other"})
    return rows


# Fields the reader defaults when absent (docs/catalog.md, JSON format): left out when empty.
EMPTY_DEFAULTS = ("reserved", "notes", "spot_hourly", "history", "savings_plans", "month_terms")


def without_empty(o):
    """`o` (and its history) without the empty fields the reader defaults."""
    out = {k: v for k, v in o.items() if not (k in EMPTY_DEFAULTS and v in ([], "", None))}
    if not out.get("spot_only"):  # false is the reader's default, for an offering and a snapshot alike
        out.pop("spot_only", None)
    if "history" in out:
        out["history"] = [without_empty(s) for s in out["history"]]
    return out


def compact(catalog):
    """One GPU or offering per line, no spaces: the embedded text stays small and quick to load
    (benchmarks/README.md) while a refresh's diff still reads offering by offering."""
    line = lambda x: json.dumps(x, separators=(",", ":"), ensure_ascii=False)
    head = f'{{"format":{line(catalog["format"])},"version":{line(catalog["version"])},\n'
    gpus = ",\n".join(line(g) for g in catalog["gpus"])
    offerings = ",\n".join(line(without_empty(o)) for o in catalog["offerings"])
    return f'{head}"gpus":[\n{gpus}\n],\n"offerings":[\n{offerings}\n]}}\n'


def mark_reservation_only(offerings, marks):
    """Marks every offering of each listed instance type (all regions) reservation_only, with a note
    naming the source; a listed type no offering has is an error (a mark that marks nothing)."""
    for mark in marks:
        hits = [o for (provider, _, itype, _), o in offerings.items()
                if provider == mark["provider"] and itype == mark["instance_type"]]
        if not hits:
            raise SystemExit(f"curated.json sold_only_through_reservations: no offering of "
                             f"{mark['provider']}/{mark['instance_type']}")
        note = f"reservation only: {mark['notes']} ({mark['source']['name']}, {mark['source']['as_of']})"
        for o in hits:
            o["reservation_only"] = True
            o["notes"] = "; ".join(n for n in (note, o.get("notes", "")) if n)


def build():
    curated = json.loads((SOURCES / "curated.json").read_text())
    offerings = {key(o): o for o in curated["offerings"]}
    order = [key(o) for o in curated["offerings"]]
    with open(SOURCES / "observations.csv", newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            add_snapshot(offerings, order, observation_offering(row), f"observations.csv line {line}")
    extract_keys, replaced, compared = set(), [], []
    by_hand = set(offerings)
    for path in sorted(EXTRACTS.glob("*.csv")) + sorted(AWS_REGIONS.glob("*.csv")):
        if path == CROSS_CHECK:
            continue
        with open(path, newline="") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                new = observation_offering(row)
                if path.parent == AWS_REGIONS and key(new) in by_hand:
                    # Kept by hand with AWS's reservations and the June 2025 cut: compared, not added (the
                    # file has no reservations: a newer snapshot from it would list none).
                    if not path.name.endswith(".history.csv"):
                        compared.append((offerings[key(new)], new))
                    continue
                add_extract(offerings, order, new, f"{path.relative_to(SOURCES)} line {line}", replaced, compared)
                extract_keys.add(key(new))
    uniform_prices(offerings, extract_keys, compared)
    mark_reservation_only(offerings, curated.get("sold_only_through_reservations", []))
    catalog = {
        "format": curated["format"],
        "version": curated["version"],
        "gpus": curated["gpus"],
        "offerings": [with_newest_listed(offerings[k]) for k in order],
    }
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=("offering", "extract_date", "extract_on_demand", "other_date",
                                        "other_on_demand", "other_source", "apart", "used"), lineterminator="\n")
    w.writeheader()
    w.writerows(cross_check_rows(offerings, extract_keys, replaced, compared))
    return compact(catalog), buf.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with builtin.json instead of writing it")
    args = parser.parse_args()
    text, cross_check = build()
    outputs = [(OUT, text)] + ([(CROSS_CHECK, cross_check)] if EXTRACTS.exists() else [])
    if args.check:
        stale = [str(p) for p, t in outputs if not p.exists() or p.read_text() != t]
        if stale:
            print(f"{', '.join(stale)} out of date: run scripts/refresh-catalog.py", file=sys.stderr)
            return 1
        return 0
    for p, t in outputs:
        p.write_text(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
