#!/usr/bin/env python3
"""Extract the GPU rows of a SkyPilot-format catalog repository into data/catalog/sources/skypilot/.

  python3 scripts/extract-skypilot-catalog.py --git-dir CLONE [--repository anycloud-sh/catalog] [--rev HEAD]

CLONE is a git clone (bare or not) of a repository holding SkyPilot `vms.csv` files per cloud
(`aws/vms.csv`, `azure/vms.csv`, ...; anycloud-sh/catalog is one, updated daily). For every file in
FILES that the revision holds, the file is read with gputco's own importer (`import_skypilot_csv`:
GPU names, shares of a GPU, the GCP machine + GPU join live there, once) and every offering it keeps
is written as one dated row of `<provider>.csv`, in the columns of observations.csv, its
`source_row` naming the line(s) of the original file; `<provider>.source.json` beside it names the
repository, path, commit and date, and counts the rows read, kept and skipped by reason. Zones of a
region at the same prices are one row (region-level, as the rest of the catalog). The file's earlier
versions in the clone's history give `<provider>.history.csv`: each date (a commit's) on which an
offering's on-demand or spot price changed, with that snapshot's commit and line (`history`). Then
scripts/refresh-catalog.py rebuilds builtin.json, so a refresh is this one command and the review is
the diff of data/catalog/.

A file saved in the repository (data/catalog/sources/skypilot/files/, for catalogs too large to
clone whole) is read the same way:

  python3 scripts/extract-skypilot-catalog.py --saved            # every file of files/sources.json
  python3 scripts/extract-skypilot-catalog.py --file files/nebius.vms.csv \
      --provider nebius --repository skypilot-org/skypilot-catalog \
      --path catalogs/v8/nebius/vms.csv --commit 0082b04... [--date 2026-11-30]

where files/sources.json records each saved file's provider, repository, path, commit and date
(`null` where the commit's date is not known: the rows are then undated, never dated by the day they
were read); --file with those flags adds or replaces the file's record there. A record's `currency`
(default USD) is the file's prices' currency and its `row_note`, if any, is written on every row (the
community Tencent file's USD prices were converted from CNY by its source, at its own rate).

Needs gputco importable (an installed wheel, or PYTHONPATH at a built pyroot). The extracts are the
only thing written; nothing outside the repository is referred to by them.
"""
import argparse
import csv
import io
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "catalog" / "sources" / "skypilot"
SAVED = OUT / "files"
MANIFEST = SAVED / "sources.json"

# Clouds whose SkyPilot file the built-in catalog takes, and where it stands in the repository.
FILES = {
    "aws": "aws/vms.csv",
    "azure": "azure/vms.csv",
    "gcp": "gcp/vms.csv",
    "lambda": "lambda/vms.csv",
    "vast": "vast/vms.csv",
}

COLUMNS = ("provider", "region", "instance_type", "gpu", "gpus_per_instance", "currency", "effective_from",
           "on_demand_hourly", "spot_hourly", "billing_increment_seconds", "minimum_billed_seconds",
           "source_name", "source_as_of", "source_row", "notes")


def git(git_dir, *args, binary=False):
    out = subprocess.run(["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True)
    return out.stdout if binary else out.stdout.decode().strip()


def number(x):
    """A price as the file's own digits would print it: shortest round trip."""
    return repr(float(x))


def usable(offerings, catalog, skipped):
    """The offerings the built-in catalog can hold: a GPU with a spec in `catalog`, or a share of one
    (Catalog.knows_gpu); others counted in `skipped` by reason, as the importer counts its own."""
    out = []
    for o in offerings:
        if not catalog.knows_gpu(o.gpu):
            reason = f"GPU {o.gpu} has no spec in the built-in catalog"
        elif o.spot_only and spot_of(o)[0] is None:
            reason = "sold only as spot at a spot price of 0"
        elif not o.spot_only and o.spot_hourly is not None and o.spot_hourly > o.on_demand_hourly > 0:
            # Not a repeat of the on-demand price (dropped in spot_of): which column is which is unknown.
            reason = "spot price above on demand (the columns look swapped): neither price kept"
        else:
            out.append(o)
            continue
        skipped[reason] = skipped.get(reason, 0) + 1
    return out


def spot_of(o):
    """The spot price, or None with the reason where the file's is none: 0, or not below on demand
    (some copies repeat the on-demand price in the spot column)."""
    if o.spot_hourly is None:
        return None, ""
    if o.spot_hourly <= 0:
        return None, f"the file's spot price is {o.spot_hourly:g}: no spot price recorded"
    if not o.spot_only and o.spot_hourly >= o.on_demand_hourly:
        return None, f"the file's spot price {o.spot_hourly:g} is not below on demand: no spot price recorded"
    return o.spot_hourly, ""


def rows_of(offerings, provider, source_name, date):
    """One observation row per (region, instance type); zones of a region at the same prices merge."""
    by_region = {}
    for o in offerings:
        by_region.setdefault((o.region, o.instance_type), []).append(o)
    out = []
    for (region, itype), group in sorted(by_region.items()):
        prices = {(o.gpu, o.gpus_per_instance, o.on_demand_hourly, o.spot_hourly, o.spot_only) for o in group}
        if len(prices) == 1:
            merged = [(group, "")]
        else:
            merged = [([o], o.zone) for o in sorted(group, key=lambda o: o.zone)]
        for members, zone in merged:
            o = min(members, key=lambda m: m.zone)
            zones = sorted(m.zone for m in members if m.zone)
            notes = [o.notes] if o.notes else []
            spot, why = spot_of(o)
            if why:
                notes.append(why)
            if len(zones) > 1 and not zone:
                notes.append(f"same prices in zones {', '.join(zones)}; the row of {zones[0]} cited")
            elif zones and not zone:
                notes.append(f"zone {zones[0]}")
            out.append({
                "provider": provider,
                "region": region,
                "instance_type": itype,
                "zone": zone,
                "gpu": o.gpu,
                "gpus_per_instance": str(o.gpus_per_instance),
                "currency": o.currency,
                "effective_from": date,  # empty: an undated file
                "on_demand_hourly": "" if o.spot_only else number(o.on_demand_hourly),
                "spot_hourly": "" if spot is None else number(spot),
                "billing_increment_seconds": number(o.billing_increment_seconds),
                "minimum_billed_seconds": number(o.minimum_billed_seconds),
                "source_name": source_name,
                "source_as_of": date or "undated",
                "source_row": o.source.row,
                "notes": "; ".join(notes),
            })
    return out


def extract_text(text, record, importer, catalog):
    """The rows and the .source.json of one file's text; `record` names its provider, repository,
    path, commit and date (None: undated), as files/sources.json does."""
    provider, repository, path, commit = (record[k] for k in ("provider", "repository", "path", "commit"))
    date = record.get("date") or ""
    source_name = f"SkyPilot-format catalog {repository} {path}, commit {commit[:7]}"
    result = importer(text, file=f"{repository} {path}", published=date, provider=provider,
                      currency=record.get("currency", "USD"), join_extra_fields_into_last_column=True)
    skipped = dict(result.skipped_reasons)
    kept = usable(result.offerings, catalog, skipped)
    rows = rows_of(kept, provider, source_name, date)
    if record.get("row_note"):  # what the whole file's prices are (e.g. converted by its source): on every row
        for r in rows:
            r["notes"] = "; ".join(n for n in (record["row_note"], r["notes"]) if n)
    meta = {
        "repository": f"https://github.com/{repository}",
        "path": path,
        "commit": commit,
        "date": date or None,
        "rows_read": result.rows_read,
        "offerings_read": len(result.offerings),
        "offerings_kept": len(kept),  # rows_read = offerings_kept + every row skipped
        "rows_written": len(rows),
        "skipped_by_reason": dict(sorted(skipped.items())),
        "kept_by_way": result.kept_by_way(),
    }
    return rows, meta


def extract_saved(file, record, importer, catalog):
    """A file saved in files/ (read as bytes: its line ends are its own), with its record."""
    rows, meta = extract_text(file.read_bytes().decode("utf-8"), record, importer, catalog)
    meta = {"file": str(file.relative_to(OUT)), **meta}
    for k in ("read", "date_note"):
        if record.get(k):
            meta[k] = record[k]
    return rows, meta


def extract(git_dir, repository, rev, provider, path, importer, catalog):
    commit = git(git_dir, "rev-parse", f"{rev}^{{commit}}")
    # The data's date: the commit that last changed the file (the catalogs are regenerated daily).
    last = git(git_dir, "log", "-1", "--format=%H %cs", commit, "--", path)
    if not last:
        return None
    last_commit, date = last.split()
    try:
        text = git(git_dir, "cat-file", "blob", f"{last_commit}:{path}", binary=True)
    except subprocess.CalledProcessError as e:
        # A partial clone (blobless, or a mirror that left its largest files out) has the commit only.
        print(f"{provider}: {repository} {path} at {last_commit[:7]}: the clone does not hold the file's content "
              f"({e.stderr.decode().strip()}); extract left as it is", file=sys.stderr)
        return None
    record = {"provider": provider, "repository": repository, "path": path, "commit": last_commit, "date": date}
    rows, meta = extract_text(text.decode("utf-8"), record, importer, catalog)
    earlier, counts = history(git_dir, repository, last_commit, path, provider, rows, importer, catalog)
    meta["history"] = counts
    return rows, meta, earlier


def daily_snapshots(git_dir, commit, path):
    """(date, commit) of the last commit of each day that changed `path`, up to `commit`, oldest first
    (a day's earlier commits were replaced the same day; one price per offering and date)."""
    by_day = {}
    for line in git(git_dir, "log", "--reverse", "--format=%H %cs", commit, "--", path).splitlines():
        c, date = line.split()
        by_day[date] = c
    return sorted(by_day.items())


def runs_of(observed):
    """[(date, value, row)] → runs of one value, each (first date, value, row of that date); a value the
    series comes back to was in force throughout: the runs between are dropped (REVERTED), counted."""
    runs = []
    for date, value, row in observed:
        if not runs or runs[-1][1] != value:
            runs.append((date, value, row))
    dropped = 0
    i = 0
    while i < len(runs):
        back = [j for j in range(len(runs) - 1, i, -1) if runs[j][1] == runs[i][1]]
        if back:
            dropped += back[0] - i - 1
            del runs[i + 1:back[0] + 1]
        i += 1
    return runs, dropped


# Why an earlier price the file lists is not a change (docs/catalog.md, "History from the snapshots"):
# the generator of a SkyPilot-format file sometimes lists another meter for a day (Azure's Windows
# prices, 0.046 USD per vCPU-hour above Linux) or no price, and the next snapshot has the price again.
REVERTED = "a price the file later comes back to: the prices between are not counted as changes"


def in_force(runs, date):
    """The run of `runs` in force at `date`, or None before the first."""
    now = None
    for run in runs:
        if run[0] <= date:
            now = run
    return now


def history(git_dir, repository, commit, path, provider, newest, importer, catalog):
    """Earlier prices of the offerings of `newest` (the extract's rows at `commit`) from every day's last
    snapshot of `path` before it: one row per date an on-demand or spot price changed, dated by that
    commit's date; the listed rows' effective_from becomes the first day of their prices. Returns the
    history rows and the counts for .source.json."""
    def rows_at(date, c):
        record = {"provider": provider, "repository": repository, "path": path, "commit": c, "date": date}
        text = git(git_dir, "cat-file", "blob", f"{c}:{path}", binary=True)
        return extract_text(text.decode("utf-8"), record, importer, catalog)[0]
    return history_of(daily_snapshots(git_dir, commit, path), rows_at, newest)


def history_of(days, rows_at, newest):
    """history() for any file: `days` its (date, commit) snapshots, oldest first; `rows_at(date, commit)`
    the extract's rows of one snapshot (raises CalledProcessError where the clone lacks it)."""
    series = {key_of(r): [] for r in newest}
    counts = {"daily_snapshots": len(days), "first": days[0][0] if days else None,
              "offerings_not_in_the_newest": 0, "reverted_runs_dropped": 0, "changes": 0}
    gone = set()
    for date, c in days:
        try:
            rows = rows_at(date, c)
        except subprocess.CalledProcessError:
            counts.setdefault("snapshots_not_held", []).append(c)
            continue
        for r in rows:
            k = key_of(r)
            if k in series:
                series[k].append(r)
            else:
                gone.add(k)
    counts["offerings_not_in_the_newest"] = len(gone)
    out = []
    for listed in newest:
        seen = [r for r in series[key_of(listed)]
                if (r["gpu"], r["gpus_per_instance"]) == (listed["gpu"], listed["gpus_per_instance"])]
        if not listed["on_demand_hourly"] or not seen:
            continue  # sold only as spot: no history (a snapshot holds an on-demand price)
        # A day with no on-demand price listed is no observation of it (the row then holds spot only).
        od, d1 = runs_of([(r["effective_from"], r["on_demand_hourly"], r) for r in seen if r["on_demand_hourly"]])
        spot, d2 = runs_of([(r["effective_from"], r["spot_hourly"], r) for r in seen])
        counts["reverted_runs_dropped"] += d1 + d2
        dates = sorted({run[0] for run in od + spot})
        listed["effective_from"] = max(od[-1][0], spot[-1][0])
        for date in dates:
            if date >= listed["effective_from"]:
                break
            o, s = in_force(od, date), in_force(spot, date)
            if o is None:
                continue  # no on-demand price yet: nothing to hold
            row = next(r for r in seen if r["effective_from"] == date)
            # The importer's note on a row sold only as spot that day does not hold for the price in force.
            notes = [n for n in row["notes"].split("; ") if n and not (not row["on_demand_hourly"] and n.startswith("spot only"))]
            prices = {"on_demand_hourly": o[1], "spot_hourly": s[1] if s else ""}
            for column, name in (("on_demand_hourly", "on demand"), ("spot_hourly", "spot")):
                if prices[column] == row[column]:
                    continue
                if column == "on_demand_hourly" and not row[column]:
                    notes.append(f"{name}: none in this snapshot (a day with no on-demand price is no observation of it)")
                else:
                    notes.append(f"{name} {row[column] or 'none'} in this snapshot: {REVERTED}")
            out.append(dict(row, **prices, notes="; ".join(notes)))
    counts["changes"] = len(out)
    return out, counts


def key_of(row):
    return (row["region"], row["instance_type"], row["zone"])


def write_rows(file, rows):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS + ("zone",), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    file.write_text(buf.getvalue())


def write(provider, rows, meta, earlier=None):
    """`<provider>.csv` (the newest rows), `.source.json`, and `<provider>.history.csv` (their earlier
    prices) when `earlier` is given."""
    OUT.mkdir(parents=True, exist_ok=True)
    write_rows(OUT / f"{provider}.csv", rows)
    if earlier:
        write_rows(OUT / f"{provider}.history.csv", earlier)
    elif earlier is not None:
        (OUT / f"{provider}.history.csv").unlink(missing_ok=True)  # one snapshot: no earlier prices
    (OUT / f"{provider}.source.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")


def report(provider, meta):
    print(f"{provider}: {meta['rows_read']} rows read, {meta['offerings_read']} offerings, "
          f"{meta['rows_written']} rows written ({meta['path']} at {meta['commit'][:7]}, {meta['date'] or 'undated'})")


def saved_records(args, parser):
    """(file, record) for --saved or --file, from files/sources.json; --file with --provider,
    --repository (not the default), --path and --commit records a new file there first."""
    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    if args.saved:
        return [(SAVED / name, record) for name, record in sorted(manifest.items())]
    file = pathlib.Path(args.file).resolve()
    if file.parent != SAVED.resolve():
        parser.error(f"--file {args.file}: must be saved in {SAVED.relative_to(ROOT)}/ (the extract cites it)")
    given = {"provider": (args.provider or [None])[0], "path": args.path, "commit": args.commit}
    if any(given.values()):
        missing = [f"--{k}" for k, v in given.items() if not v]
        if missing or args.repository == parser.get_default("repository"):
            parser.error(f"--file with a new record needs --provider, --repository, --path and --commit "
                         f"(missing: {', '.join(missing) or '--repository'})")
        record = dict(manifest.get(file.name, {}), **given, repository=args.repository, date=args.date)
        manifest[file.name] = record
        MANIFEST.write_text(json.dumps(dict(sorted(manifest.items())), indent=1, ensure_ascii=False) + "\n")
    elif file.name not in manifest:
        parser.error(f"--file {args.file}: not in {MANIFEST.relative_to(ROOT)}; give --provider, --repository, "
                     f"--path and --commit")
    return [(file, manifest[file.name])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--git-dir", help="a clone of the SkyPilot-format catalog repository")
    where.add_argument("--file", help="a vms.csv saved in data/catalog/sources/skypilot/files/")
    where.add_argument("--saved", action="store_true", help="every file recorded in files/sources.json")
    parser.add_argument("--repository", default="anycloud-sh/catalog", help="its GitHub owner/name, written beside the rows")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--provider", action="append",
                        help="only these clouds (repeatable; default: every one the revision holds); "
                             "with --file: the file's cloud")
    parser.add_argument("--path", help="with --file: the file's path in its repository")
    parser.add_argument("--commit", help="with --file: the commit the file was read at")
    parser.add_argument("--date", help="with --file: the commit's date (ISO); none: the rows are undated")
    parser.add_argument("--no-refresh", action="store_true", help="write the extracts only")
    args = parser.parse_args()
    import gputco  # noqa: E402  (imported late: --help works without it)

    catalog = gputco.Catalog.builtin()
    if not args.git_dir:
        for file, record in saved_records(args, parser):
            rows, meta = extract_saved(file, record, gputco.import_skypilot_csv, catalog)
            write(record["provider"], rows, meta)
            report(record["provider"], meta)
        return 0 if args.no_refresh else subprocess.run([sys.executable, str(ROOT / "scripts" / "refresh-catalog.py")]).returncode
    unknown = sorted(set(args.provider or []) - set(FILES))
    if unknown:
        parser.error(f"--provider {', '.join(unknown)}: not a cloud of the repository (known: {', '.join(sorted(FILES))})")
    git_dir = pathlib.Path(args.git_dir)
    if (git_dir / ".git").exists():
        git_dir = git_dir / ".git"
    for provider in args.provider or sorted(FILES):
        got = extract(git_dir, args.repository, args.rev, provider, FILES[provider], gputco.import_skypilot_csv,
                      catalog)
        if got is None:
            print(f"{provider}: no {FILES[provider]} read from {args.repository} at {args.rev}; extract left as it is")
            continue
        rows, meta, earlier = got
        write(provider, rows, meta, earlier)
        report(provider, meta)
    if args.no_refresh:
        return 0
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "refresh-catalog.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
