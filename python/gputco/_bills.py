"""gputco.read_focus: a FOCUS cost export in, hourly GPU demand, FinOps figures and unmatched SKUs out;
gputco.recommend_from_bill: that demand's fitted futures through the recommender, beside the lookback
baselines on the same history.

    bill = gputco.read_focus("focus.csv")                 # or .parquet (needs pyarrow)
    bill.figures                                           # utilisation, coverage, waste, ESR, ...
    p4d = gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")
    plan = gputco.recommend_from_bill(bill, p4d, horizon_months=36)
    plan.result.baselines                                  # recommended vs lookback advice, held out

The rules (columns, allowed values, definitions of the figures) live in C++; see docs/bills.md.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

from . import _core
from ._frames import Column, declare, frame, INFER, TEXT

__all__ = ["FocusBill", "BillPlan", "offering_at_bill_rates", "read_focus", "recommend_from_bill"]

HOURLY_VIEW = declare("FocusBill.hourly", [
    Column("time", INFER), Column("provider", TEXT), Column("gpu", TEXT),
    Column("instance_type", TEXT), Column("region", TEXT), "gpus"])
FIGURES_VIEW = declare("FocusBill.figures", [
    "list_cost", "contracted_cost", "effective_cost", "billed_cost", "commitment_utilisation", "coverage", "waste",
    "effective_savings_rate", "effective_standard", "effective_dynamic", "effective_committed", "effective_other",
    "effective_null", "billed_usage", "billed_purchase", "billed_tax", "billed_credit", "billed_adjustment"],
    index=Column("scope", TEXT))
COMMITMENTS_VIEW = declare("FocusBill.commitments", [
    Column("type", TEXT), "used_cost", "unused_cost", "utilisation", "covered_list_cost", "purchase_billed",
    Column("first_start", INFER), Column("last_end", INFER)], index=Column("id", TEXT))
UNMATCHED_VIEW = declare("FocusBill.unmatched", [
    Column("sku_id", TEXT), Column("name", TEXT), Column("rows", "int64"), "billed_cost", "effective_cost"])

# A Parquet export is reduced before C++ reads it: grouped by the text columns the reader uses, the
# amounts summed (the lists live in C++: FocusReader::grouped_columns, summed_columns).
_GROUPED = _core.FOCUS_GROUPED_COLUMNS
_SUMMED = _core.FOCUS_SUMMED_COLUMNS
PARQUET_ENGINES = ("arrow", "duckdb", "dask")


def _figures_row(f) -> dict:
    pricing = f.effective_by_pricing_category
    charge = f.billed_by_charge_category
    return {"list_cost": f.list_cost, "contracted_cost": f.contracted_cost, "effective_cost": f.effective_cost,
            "billed_cost": f.billed_cost, "commitment_utilisation": f.commitment_utilisation,
            "coverage": f.coverage, "waste": f.waste, "effective_savings_rate": f.effective_savings_rate,
            "effective_standard": pricing["Standard"], "effective_dynamic": pricing["Dynamic"],
            "effective_committed": pricing["Committed"], "effective_other": pricing["Other"],
            "effective_null": pricing["(null)"], "billed_usage": charge["Usage"], "billed_purchase": charge["Purchase"],
            "billed_tax": charge["Tax"], "billed_credit": charge["Credit"], "billed_adjustment": charge["Adjustment"]}


@dataclass
class FocusBill:
    """What read_focus returns. `bill` is the C++ result (series, unmatched, figures); the frames are pandas."""

    bill: Any          # gputco.Bill
    hourly: Any        # one row per hour and GPU series: time (UTC), provider, gpu, instance_type, region, gpus
    figures: Any       # FinOps figures, scope "all" (every row in the window) and "gpu" (the GPU rows)
    unmatched: Any     # compute SKUs naming no known GPU, by effective cost
    commitments: Any   # one row per CommitmentDiscountId: used and unused cost, utilisation, fees, first and last hour

    @property
    def currency(self) -> str:
        return self.bill.currency

    def demand(self, gpu: Optional[str] = None):
        """A DemandProfile of the GPU-hours per hour (of `gpu`, or all), over the bill's latest whole
        730-hour months: a history for DemandModel.from_history, baseline_plans and recommend."""
        return self.bill.demand(gpu or "")


def _window(window) -> Tuple[Optional[int], Optional[int]]:
    if window is None:
        return None, None
    import pandas as pd

    def seconds(t):
        if t is None:
            return None
        stamp = pd.Timestamp(t)
        stamp = stamp.tz_localize("UTC") if stamp.tzinfo is None else stamp.tz_convert("UTC")
        return int(stamp.value // 1_000_000_000)
    start, end = window
    return seconds(start), seconds(end)


def _text_rows(header, columns, count):
    """Rows of text for the C++ reader: None as an empty field, floats as repr (no digit lost)."""
    return [["" if c[i] is None else (repr(c[i]) if isinstance(c[i], float) else str(c[i])) for c in columns]
            for i in range(count)]


def _parquet_rows_arrow(path: str, batch_rows: int):
    """Header and rows of the Parquet file aggregated in Arrow: one row per distinct combination of the
    grouped columns, amounts summed. Read batch by batch (never whole); the partial sums are re-aggregated
    whenever they grow past a batch, so memory follows the distinct combinations, not the rows."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(path)
    names = parquet.schema_arrow.names
    grouped = [c for c in _GROUPED if c in names]
    summed = [c for c in _SUMMED if c in names]

    def as_text(table):
        columns = []
        for name in grouped:
            column = table.column(name)
            if pa.types.is_timestamp(column.type):
                column = pc.strftime(column, format="%Y-%m-%dT%H:%M:%SZ")
            elif not pa.types.is_string(column.type):
                column = pc.cast(column, pa.string())
            columns.append(column)
        return pa.table(columns + [pc.cast(table.column(n), pa.float64()) for n in summed], names=grouped + summed)

    def aggregate(table):
        out = table.group_by(grouped, use_threads=False).aggregate([(n, "sum") for n in summed])
        return out.rename_columns([n.removesuffix("_sum") for n in out.column_names])

    partial = None
    for batch in parquet.iter_batches(batch_size=batch_rows, columns=grouped + summed):
        table = aggregate(as_text(pa.Table.from_batches([batch])))
        partial = table if partial is None else pa.concat_tables([partial, table])
        if partial.num_rows > batch_rows:
            partial = aggregate(partial)
    partial = aggregate(partial) if partial is not None else None
    header = grouped + summed
    if partial is None:
        return header, []
    return header, _text_rows(header, [partial.column(n).to_pylist() for n in header], partial.num_rows)


def _parquet_rows_duckdb(path: str):
    """The same reduction in DuckDB, which streams the files (a glob or a folder of them too) and spills
    to disk past its memory limit: for exports larger than memory."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    source = f"read_parquet({_sql_text(path)})"
    types = dict(con.execute(f"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM {source})").fetchall())
    grouped = [c for c in _GROUPED if c in types]
    summed = [c for c in _SUMMED if c in types]

    def text(name):
        if types[name].startswith("TIMESTAMP"):
            return f"strftime(\"{name}\", '%Y-%m-%dT%H:%M:%SZ') AS \"{name}\""
        return f"CAST(\"{name}\" AS VARCHAR) AS \"{name}\""

    keys = ", ".join(f"\"{n}\"" for n in grouped)
    select = ", ".join([text(n) for n in grouped] + [f"SUM(CAST(\"{n}\" AS DOUBLE)) AS \"{n}\"" for n in summed])
    rows = con.execute(f"SELECT {select} FROM {source} GROUP BY {keys}").fetchall()
    header = grouped + summed
    return header, _text_rows(header, list(zip(*rows)) if rows else [[] for _ in header], len(rows))


def _parquet_rows_dask(path: str):
    """The same reduction on Dask (dask.dataframe over the Parquet files, a glob or a folder of them):
    for exports spread over a cluster. Each partition is grouped where it lies; only the sums travel."""
    import dask.dataframe as dd
    import pandas as pd

    frame = dd.read_parquet(path)
    grouped = [c for c in _GROUPED if c in frame.columns]
    summed = [c for c in _SUMMED if c in frame.columns]
    frame = frame[grouped + summed]

    def as_text(part):
        out = pd.DataFrame(index=part.index)
        for name in grouped:
            column = part[name]
            if pd.api.types.is_datetime64_any_dtype(column):
                text = column.dt.strftime("%Y-%m-%dT%H:%M:%SZ")
            else:
                text = column.astype("string")
            out[name] = text.astype(object).where(column.notna(), "")
        for name in summed:
            out[name] = part[name].astype("float64")
        return out

    meta = pd.DataFrame({**{n: pd.Series(dtype=object) for n in grouped},
                         **{n: pd.Series(dtype="float64") for n in summed}})
    reduced = (frame.map_partitions(as_text, meta=meta)
               .groupby(grouped, dropna=False, sort=False)[summed].sum(min_count=1)
               .compute().reset_index())
    header = grouped + summed
    columns = [[None if (isinstance(v, float) and v != v) else v for v in reduced[n].tolist()] for n in header]
    return header, _text_rows(header, columns, len(reduced))


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def read_focus(path: Union[str, os.PathLike], catalog=None, *, version: Optional[str] = None,
               window: Optional[Tuple[Any, Any]] = None, sku_instance_types: Optional[Mapping[str, str]] = None,
               max_row_bytes: int = _core.FOCUS_DEFAULT_MAX_ROW_BYTES,
               max_series: int = _core.BILL_DEFAULT_MAX_SERIES, batch_rows: int = 1 << 16,
               engine: str = "arrow") -> FocusBill:
    """Reads a FOCUS 1.0–1.3 cost export: CSV, plain or gzip-compressed (``.csv.gz``, told by its first
    bytes), streamed and decompressed in C++ (memory bounded by the longest row), or
    Parquet (``.parquet``, or a glob or folder of them with the duckdb and dask engines) reduced to the
    columns the reader uses (``FOCUS_GROUPED_COLUMNS`` grouped, ``FOCUS_SUMMED_COLUMNS`` summed) and
    handed to the same C++ rows: by `engine` "arrow" (pyarrow, batch by batch), "duckdb" (streams and
    spills: exports larger than memory) or "dask" (a cluster's partitions); all three give the same bill.
    `version` ("1.0" … "1.3") overrides the one read from the header; `window` = (start, end) keeps
    rows whose ChargePeriodStart is in [start, end) (UTC); `sku_instance_types` maps SkuId → instance
    type for SKUs the export does not name one for. Bad files raise ValueError naming file, row and column
    (for Parquet, the row of the aggregated table)."""
    catalog = catalog if catalog is not None else _core.Catalog.builtin()
    start, end = _window(window)
    options = dict(version=version, window_start=start, window_end=end,
                   sku_instance_types=dict(sku_instance_types or {}), max_row_bytes=max_row_bytes,
                   max_series=max_series)
    path = os.fspath(path)
    if engine not in PARQUET_ENGINES:
        raise ValueError(f"engine = {engine!r}: must be one of {', '.join(PARQUET_ENGINES)}")
    parquet = path.endswith(".parquet") or os.path.isdir(path) or any(c in path for c in "*?[")
    if parquet:
        module = {"arrow": "pyarrow", "duckdb": "duckdb", "dask": "dask.dataframe"}[engine]
        try:
            __import__(module)
        except ImportError as e:
            raise ImportError(f"read_focus of Parquet with engine={engine!r} needs {module.split('.')[0]} "
                              f"(pip install {module.split('.')[0]})") from e
        if engine == "arrow":
            header, rows = _parquet_rows_arrow(path, batch_rows)
        elif engine == "duckdb":
            header, rows = _parquet_rows_duckdb(path)
        else:
            header, rows = _parquet_rows_dask(path)
        bill = _core._bill_from_rows(f"{path} (aggregated)", header, rows, catalog, **options)
    else:
        bill = _core._read_bill(path, catalog, **options)
    return _wrap(bill)


def _wrap(bill) -> FocusBill:
    import numpy as np
    import pandas as pd

    parts = {c.name: [] for c in HOURLY_VIEW.columns}
    for s in bill.series:
        gpus = np.asarray(s.gpus)
        parts["time"].append((s.first_hour + np.arange(len(gpus), dtype=np.int64)) * 3600)
        for name in ("provider", "gpu", "instance_type", "region"):
            parts[name].append([getattr(s, name)] * len(gpus))
        parts["gpus"].append(gpus)
    hourly = frame(HOURLY_VIEW, {
        "time": pd.to_datetime(np.concatenate(parts["time"]) if parts["time"] else np.zeros(0, np.int64),
                               unit="s", utc=True),
        **{n: [v for chunk in parts[n] for v in chunk] for n in ("provider", "gpu", "instance_type", "region")},
        "gpus": np.concatenate(parts["gpus"]) if parts["gpus"] else np.zeros(0)})
    figures = frame(FIGURES_VIEW, [{"scope": "all", **_figures_row(bill.figures)},
                                   {"scope": "gpu", **_figures_row(bill.gpu_figures)}])
    unmatched = frame(UNMATCHED_VIEW, [{"sku_id": u.sku_id, "name": u.name, "rows": u.rows,
                                        "billed_cost": u.billed_cost, "effective_cost": u.effective_cost}
                                       for u in bill.unmatched])
    commitments = frame(COMMITMENTS_VIEW, [
        {"id": c.id, "type": c.type, "used_cost": c.used_cost, "unused_cost": c.unused_cost,
         "utilisation": c.utilisation, "covered_list_cost": c.covered_list_cost, "purchase_billed": c.purchase_billed,
         "first_start": pd.Timestamp(c.first_start, unit="s", tz="UTC"),
         "last_end": pd.Timestamp(c.last_end, unit="s", tz="UTC")} for c in bill.commitments])
    for f in (hourly, figures, unmatched, commitments):
        f.attrs.update({"currency": bill.currency, "file": bill.file, "focus_version": bill.version})
    return FocusBill(bill=bill, hourly=hourly, figures=figures, unmatched=unmatched, commitments=commitments)


def offering_at_bill_rates(bill: FocusBill, offering):
    """`offering` priced at what the bill paid (gputco.at_bill_rates) for the bill's series of the same
    provider, instance type and region."""
    for s in bill.bill.series:
        if (s.provider, s.instance_type, s.region) == (offering.provider, offering.instance_type, offering.region):
            return _core.at_bill_rates(offering, bill.bill, s)
    raise ValueError(f"offering = {offering.provider}/{offering.region}/{offering.instance_type}: "
                     "no usage of it in the bill")


@dataclass
class BillPlan:
    """What recommend_from_bill returns."""

    history: Any   # the bill's DemandProfile the futures were fitted to (and the baselines looked back on)
    model: Any     # the DemandModel fitted to it (DemandModel.from_history)
    futures: Any   # the fitted futures the plan was chosen on
    held_out: Any  # fresh futures of the same model the plan and the baselines are judged on
    result: Any    # gputco.RecommendResult: plan, summary, baselines (recommended vs lookback advice)
    offering: Any  # the offering planned with (at the bill's rates with bill_rates=True)
    figures: Any   # the bill's FinOps figures (FocusBill.figures)


def recommend_from_bill(bill: FocusBill, offering, *, gpu: Optional[str] = None, horizon_months: int = 36,
                        futures: int = 200, held_out: int = 400, seed: int = 1,
                        baseline_term_years: int = 1, baseline_payment: str = "all_upfront",
                        bill_rates: bool = False, **keywords) -> BillPlan:
    """The bill's GPU-hours per hour (of `gpu`, default the offering's GPU) as a history; demand futures
    fitted to it (DemandModel.from_history: the bootstrap of its month-to-month changes and its
    hour-of-week shape); the recommended plan over `horizon_months` on those futures, judged on
    `held_out` fresh ones beside all on demand and the providers' 7/30/60-day lookback advice on the
    same history. With `bill_rates=True` the offering is priced at what the bill paid for it
    (offering_at_bill_rates). Other keywords go to recommend (commitments, spot, cvar95_limit, ...). The futures
    start where the history ends; prices are the offering's (convert it to the bill's currency first
    when they differ)."""
    if not isinstance(bill, FocusBill):
        raise TypeError(f"bill = {bill!r}: must be a FocusBill (gputco.read_focus), not {type(bill).__name__}")
    if bill_rates:
        offering = offering_at_bill_rates(bill, offering)
    history = bill.demand(gpu or offering.gpu)
    model = _core.DemandModel.from_history(history)
    horizon = _core.Horizon.months(horizon_months)
    fitted = _core.DemandFutures.generate(model, horizon, futures, seed)
    fresh = _core.DemandFutures.generate(model, horizon, held_out, seed + 1)
    from ._recommend import recommend
    result = recommend(fitted, offering, held_out=fresh, history=history, baseline_term_years=baseline_term_years,
                       baseline_payment=baseline_payment, **keywords)
    return BillPlan(history=history, model=model, futures=fitted, held_out=fresh, result=result,
                    offering=offering, figures=bill.figures)
