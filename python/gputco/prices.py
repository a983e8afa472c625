"""Command line for price files: import a provider's file into the catalog format, query a catalog.

    python -m gputco.prices import skypilot gcp/vms.csv --provider gcp --published 2026-04-02 -o gcp.json
    python -m gputco.prices import azure prices.json --published 2026-08-22 --history catalog.json -o catalog.json
    python -m gputco.prices query --catalog gcp.json --gpu A100 --has-spot --currency USD --date 2026-04-02
    python -m gputco.prices fit data/price_history --gpu A100 [--until 2025-01]

`fit` fits the stochastic price model (docs/models.md, section 12) to a GPU family's dated prices (the
CSV files of data/price_history/) and prints each component's parameters with standard errors.

`import` writes the catalog JSON the library reads (Catalog.from_json_file) and prints how many rows
were read, kept and skipped, by reason. With --history the new prices are added to an existing
catalog as dated snapshots (Catalog.with_snapshots).
"""
from __future__ import annotations

import argparse
import glob
import math
import os
import sys
from typing import List, Optional, Sequence

from . import _core
from ._catalog import catalog as builtin_catalog  # noqa: F401  (adds Catalog.query)

FORMATS = {
    "skypilot": _core.import_skypilot_csv,
    "azure": _core.import_azure_retail_prices,
    "aws-get-products": _core.import_aws_get_products,
    "gcp-skus": _core.import_gcp_skus,
    "cyclenerd": _core.import_cyclenerd_pricing_yml,
    "ec2instances": _core.import_ec2instances_json,
}


def _import(args: argparse.Namespace) -> int:
    if args.format == "aws-offer-file":
        result = _core.import_aws_offer_file(args.file, published=args.published or "",
                                             include_cpu_instances=args.include_cpu_instances)
    else:
        text = _core._read_text_file(args.file)  # up to the importers' size limit; errors name the file
        result = FORMATS[args.format](
            text, file=args.file, published=args.published or "", provider=args.provider or "",
            currency=args.currency, include_cpu_instances=args.include_cpu_instances,
            join_extra_fields_into_last_column=args.join_extra_fields)
    print(result.report(args.file), file=sys.stderr)
    imported = result.catalog()
    if args.history:
        imported = _core.Catalog.from_json_file(args.history).with_snapshots(imported)
    text = imported.to_json()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        # A failure midway (full disk, file size limit) leaves the old catalog as it was.
        _core.write_file_atomically(args.output, text)
    return 0


def _query(args: argparse.Namespace) -> int:
    catalog = _core.Catalog.from_json_file(args.catalog) if args.catalog else _core.Catalog.builtin()
    frame = catalog.query(gpu=args.gpu, min_gpu_memory_gb=args.min_gpu_memory_gb,
                          gpus_per_instance=args.gpus_per_instance, provider=args.provider, region=args.region,
                          has_spot=True if args.has_spot else None,
                          has_reservations=True if args.has_reservations else None, as_of=args.as_of,
                          sort_currency=args.currency, price=args.price, date=args.date)
    columns = ["provider", "region", "zone", "instance_type", "gpu", "gpus_per_instance", "currency",
               "on_demand_hourly", "per_gpu_hour", "per_gpu_hour_currency"]
    print(frame[columns].head(args.limit).to_string(index=False))
    return 0


def load_price_history(path: str) -> List["_core.PriceRecord"]:
    """The price records of a price-history CSV file, or of every *.csv in a directory (sorted by name)."""
    files = sorted(glob.glob(os.path.join(path, "*.csv"))) if os.path.isdir(path) else [path]
    records: List[_core.PriceRecord] = []
    for name in files:
        records.extend(_core.read_price_history_csv(name))
    return records


def fit_family(path: str, gpu: str, until: Optional[str] = None) -> "_core.DynamicsFit":
    """The PriceDynamics of GPU family `gpu` fitted to the history at `path` (file or directory), from
    data before `until` (YYYY-MM[-DD]) only if given."""
    return _core.fit_price_dynamics(load_price_history(path), gpu, until=until)


def fit_table(fit: "_core.DynamicsFit") -> str:
    """A text table of a DynamicsFit: per component the estimates ± standard errors."""
    names = ["reversion", "volatility", "drift", "jump_rate", "jump_mean", "jump_sd"]

    def cell(value: float, se: float) -> str:
        if se == 0:
            return f"{value:.4g} (held)"
        return f"{value:.4g} ± {se:.2g}" if math.isfinite(se) else f"{value:.4g} (at bound)"

    lines = ["component      transitions  " + "  ".join(f"{n:>22}" for n in names)]
    for label in ("on_demand", "spot_spread", "reserved_1y_spread", "reserved_3y_spread"):
        part = getattr(fit, label)
        cells = [cell(getattr(part.process, n), getattr(part.standard_error, n)) for n in names]
        lines.append(f"{label:<18} {part.transitions:>7}  " + "  ".join(f"{c:>22}" for c in cells))
    lines.append(f"spot_correlation {cell(fit.dynamics.spot_correlation, fit.spot_correlation_standard_error)}")
    lines.extend(f"note: {n}" for n in fit.notes)
    return "\n".join(lines)


def _fit(args: argparse.Namespace) -> int:
    print(fit_table(fit_family(args.history, args.gpu, until=args.until)))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gputco.prices", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    imp = sub.add_parser("import", help="read a provider's price file, write catalog JSON")
    imp.add_argument("format", choices=[*FORMATS, "aws-offer-file"])
    imp.add_argument("file")
    imp.add_argument("--published", help="publication date of the data (ISO), where the file has none")
    imp.add_argument("--provider", help="SkyPilot vms.csv: aws, azure, gcp, lambda, alibaba, tencent")
    imp.add_argument("--currency", default="USD", help="SkyPilot vms.csv: currency of the prices (CNY for Alibaba/Tencent)")
    imp.add_argument("--include-cpu-instances", action="store_true")
    imp.add_argument("--join-extra-fields", action="store_true",
                     help="CSV: join surplus fields into the last column (Azure 'V1,V2' rows)")
    imp.add_argument("--history", help="existing catalog JSON to add the prices to as dated snapshots")
    imp.add_argument("-o", "--output", default="-")
    imp.set_defaults(run=_import)
    q = sub.add_parser("query", help="filter a catalog and rank by price per GPU-hour")
    q.add_argument("--catalog", help="catalog JSON (default: the built-in catalog)")
    q.add_argument("--gpu")
    q.add_argument("--min-gpu-memory-gb", type=float)
    q.add_argument("--gpus-per-instance", type=int)
    q.add_argument("--provider")
    q.add_argument("--region")
    q.add_argument("--has-spot", action="store_true")
    q.add_argument("--has-reservations", action="store_true")
    q.add_argument("--as-of", help="prices in force at this date")
    q.add_argument("--currency", default="USD", help="rank in this currency")
    q.add_argument("--price", default="on_demand", choices=["on_demand", "spot", "reserved_1y", "reserved_3y"])
    q.add_argument("--date", help="date of the exchange rates (default: --as-of, else today)")
    q.add_argument("--limit", type=int, default=20)
    q.set_defaults(run=_query)
    f = sub.add_parser("fit", help="fit the price model to a GPU family's dated prices")
    f.add_argument("history", help="a price-history CSV or a directory of them (data/price_history)")
    f.add_argument("--gpu", required=True, help="GPU family as in the files' gpu column, e.g. A100")
    f.add_argument("--until", help="use only prices dated before this (YYYY-MM or YYYY-MM-DD)")
    f.set_defaults(run=_fit)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
