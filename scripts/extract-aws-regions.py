#!/usr/bin/env python3
"""Extract AWS GPU instance prices in every region into data/catalog/sources/aws/.

  python3 scripts/extract-aws-regions.py --git-dir CLONE [--rev HEAD]

CLONE is a git clone (bare or not) of github.com/tsaol/aws-gpu (MIT), whose `data/all_gpu_instances.js`
holds the on-demand Linux price of every AWS GPU and accelerator instance type in every region (and
Local Zone) it is sold in, taken from instances.vantage.sh (the ec2instances.info data, from the AWS
Price List API) by the repository's update script. The file is one JavaScript array of records
(`name`, `gpu`, `gpuCount`, `pricing: {region: {onDemand, reserved}}`); each version is re-shaped
into the ec2instances.info layout (instance type and `pricing/<region>/linux/ondemand` only) and read
with gputco's own importer (`import_ec2instances_json`: the GPU of each instance type from the AWS table
in gpu_names, types it does not know counted, not guessed). The `reserved` figure is not used: the file
does not say its term or payment. Written, in the columns of skypilot/*.csv:

  aws/aws.csv          the newest version's offerings, one per (region, instance type), each citing
                       its JSON pointer in the file's array (/<index>/pricing/<region>/onDemand)
  aws/aws.history.csv  earlier prices from the file's git history (as extract-skypilot-catalog.py does)
  aws/aws.source.json  repository, path, commit, date, rows read, kept and skipped by reason

then scripts/refresh-catalog.py rebuilds builtin.json (offerings kept by hand in curated.json, us-east-1
with reservations and the June 2025 cut, stay as they are: the refresh compares, see its docstring).
Needs gputco importable (an installed wheel, or PYTHONPATH at a built pyroot).
"""
import argparse
import importlib.util
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "catalog" / "sources" / "aws"
PATH = "data/all_gpu_instances.js"
REPOSITORY = "tsaol/aws-gpu"

spec = importlib.util.spec_from_file_location("extract_skypilot", ROOT / "scripts" / "extract-skypilot-catalog.py")
sky = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sky)


def records(text):
    """The file's array: the text between its first '[' and last ']' is JSON."""
    return json.loads(text[text.index("["):text.rindex("]") + 1])


def as_ec2instances(items):
    """The records in the ec2instances.info layout the importer reads, in the same order (so a row's
    index is the file's)."""
    return json.dumps([{"instance_type": r["name"],
                        "pricing": {region: {"linux": {"ondemand": p["onDemand"]}}
                                    for region, p in r.get("pricing", {}).items() if "onDemand" in p}}
                       for r in items])


def extract_text(text, commit, date, importer, catalog):
    """The rows and the .source.json of one version of the file."""
    items = records(text)
    result = importer(as_ec2instances(items), file=PATH, published=date, provider="aws")
    skipped = dict(result.skipped_reasons)
    kept = sky.usable(result.offerings, catalog, skipped)
    rows = sky.rows_of(kept, "aws", source_name(commit), date)
    for r in rows:  # the importer's pointer into the re-shaped text, as a pointer into the file's array
        r["source_row"] = r["source_row"].removesuffix("/linux") + "/onDemand"
    meta = {
        "repository": f"https://github.com/{REPOSITORY}",
        "path": PATH,
        "commit": commit,
        "date": date,
        "records": len(items),
        "rows_read": result.rows_read,
        "offerings_read": len(result.offerings),
        "offerings_kept": len(kept),
        "rows_written": len(rows),
        "skipped_by_reason": dict(sorted(skipped.items())),
        "reserved_not_used": sum(1 for r in items for p in r.get("pricing", {}).values() if "reserved" in p),
    }
    return rows, meta


def source_name(commit):
    return f"AWS prices (instances.vantage.sh) in {REPOSITORY} {PATH}, commit {commit[:7]}"


def extract(git_dir, rev, importer, catalog):
    commit = sky.git(git_dir, "rev-parse", f"{rev}^{{commit}}")
    last_commit, date = sky.git(git_dir, "log", "-1", "--format=%H %cs", commit, "--", PATH).split()

    def rows_at(day, c):
        return extract_text(sky.git(git_dir, "cat-file", "blob", f"{c}:{PATH}", binary=True).decode("utf-8"), c, day,
                            importer, catalog)[0]
    rows, meta = extract_text(sky.git(git_dir, "cat-file", "blob", f"{last_commit}:{PATH}", binary=True).decode("utf-8"),
                              last_commit, date, importer, catalog)
    earlier, counts = sky.history_of(sky.daily_snapshots(git_dir, last_commit, PATH), rows_at, rows)
    meta["history"] = counts
    return rows, meta, earlier


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True, help=f"a clone of github.com/{REPOSITORY}")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--no-refresh", action="store_true", help="write the extracts only")
    args = parser.parse_args()
    import gputco  # noqa: E402  (imported late: --help works without it)

    git_dir = pathlib.Path(args.git_dir)
    if (git_dir / ".git").exists():
        git_dir = git_dir / ".git"
    rows, meta, earlier = extract(git_dir, args.rev, gputco.import_ec2instances_json,
                                  gputco.Catalog.builtin())
    OUT.mkdir(parents=True, exist_ok=True)
    sky.write_rows(OUT / "aws.csv", rows)
    if earlier:
        sky.write_rows(OUT / "aws.history.csv", earlier)
    else:
        (OUT / "aws.history.csv").unlink(missing_ok=True)
    (OUT / "aws.source.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    print(f"aws: {meta['records']} instance types, {meta['rows_read']} prices read, {meta['rows_written']} rows written, "
          f"{meta['history']['changes']} earlier prices ({PATH} at {meta['commit'][:7]}, {meta['date']})")
    if args.no_refresh:
        return 0
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "refresh-catalog.py")]).returncode


if __name__ == "__main__":
    sys.exit(main())
