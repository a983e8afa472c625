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


def _view(name: str, result: str, index: Optional[str] = None, times: Sequence[str] = ()):
    """A frame declared from the library's column list for `result` (app/bill_plan.hpp), indexed by
    `index`; the `times` columns (ISO text in C++) become UTC timestamps here."""
    columns = [Column(n, INFER if n in times else TEXT if dtype == "object" else dtype)
               for n, _unit, dtype in _core._columns(result)]
    return declare(name, [c for c in columns if c.name != index],
                   index=next((c for c in columns if c.name == index), None))


FIGURES_VIEW = _view("FocusBill.figures", "bill_figures", index="scope")
SERIES_VIEW = _view("FocusBill.series", "bill_series", times=("first_hour",))
COMMITMENTS_VIEW = _view("FocusBill.commitments", "bill_commitments", index="id", times=("first_start", "last_end"))
UNMATCHED_VIEW = _view("FocusBill.unmatched", "bill_unmatched")

# A Parquet export is reduced before C++ reads it: grouped by the text columns the reader uses, the
# amounts summed (the lists live in C++: FocusReader::grouped_columns, summed_columns).
_GROUPED = _core.FOCUS_GROUPED_COLUMNS
_SUMMED = _core.FOCUS_SUMMED_COLUMNS
PARQUET_ENGINES = ("arrow", "duckdb", "dask")


@dataclass
class FocusBill:
    """What read_focus returns. `bill` is the C++ result (series, unmatched, figures); the frames are pandas."""

    bill: Any          # gputco.Bill
    hourly: Any        # one row per hour and GPU series: time (UTC), provider, gpu, instance_type, region, gpus
    figures: Any       # FinOps figures, scope "all" (every row in the window) and "gpu" (the GPU rows)
    unmatched: Any     # compute SKUs naming no known GPU, by effective cost
    commitments: Any   # one row per CommitmentDiscountId: used and unused cost, utilisation, fees, first and last hour
    series: Any = None  # one row per GPU series: hours, GPU-hours, list and effective cost per GPU-hour

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
               engine: str = "arrow", contracts: Union[str, os.PathLike, None] = None) -> FocusBill:
    """Reads a FOCUS 1.0–1.3 cost export: CSV, plain or gzip-compressed (``.csv.gz``, told by its first
    bytes), streamed and decompressed in C++ (memory bounded by the longest row), or
    Parquet (``.parquet``, or a glob or folder of them with the duckdb and dask engines) reduced to the
    columns the reader uses (``FOCUS_GROUPED_COLUMNS`` grouped, ``FOCUS_SUMMED_COLUMNS`` summed) and
    handed to the same C++ rows: by `engine` "arrow" (pyarrow, batch by batch), "duckdb" (streams and
    spills: exports larger than memory) or "dask" (a cluster's partitions); all three give the same bill.
    `version` ("1.0" … "1.3") overrides the one read from the header; `window` = (start, end) keeps
    rows whose ChargePeriodStart is in [start, end) (UTC); `sku_instance_types` maps SkuId → instance
    type for SKUs the export does not name one for. `contracts`: a FOCUS 1.3 Contract Commitment file (CSV,
    plain or gzip, or Parquet) whose terms the held commitments take (``bill.bill.contract_commitments``;
    joined by ContractCommitmentId = CommitmentDiscountId). Bad files raise ValueError naming file, row and
    column (for Parquet, the row of the aggregated table)."""
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
    if contracts is not None:
        bill.contract_commitments = read_contract_commitments(contracts)
    return _wrap(bill)


def read_contract_commitments(path: Union[str, os.PathLike]):
    """The rows of a FOCUS 1.3 Contract Commitment file (gputco.ContractCommitment): CSV, plain or gzip,
    read in C++, or Parquet read with pyarrow and checked by the same C++ rules."""
    path = os.fspath(path)
    if not path.endswith(".parquet"):
        return _core._read_contract_commitments(path)
    import pyarrow.compute as pc
    import pyarrow.parquet as pq
    import pyarrow as pa

    table = pq.read_table(path)
    header = table.column_names
    columns = []
    for name in header:
        column = table.column(name)
        if pa.types.is_timestamp(column.type):
            column = pc.strftime(column, format="%Y-%m-%dT%H:%M:%SZ")
        columns.append(column.to_pylist())
    return _core._contract_commitments_from_rows(path, header, _text_rows(header, columns, table.num_rows))


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
    tables = _core._bill_tables(bill)

    def timed(rows, times):  # ISO text from C++ as UTC timestamps
        return [{k: (pd.Timestamp(v) if k in times else v) for k, v in row.items()} for row in rows]

    figures = frame(FIGURES_VIEW, tables["figures"])
    series = frame(SERIES_VIEW, timed(tables["series"], ("first_hour",)))
    unmatched = frame(UNMATCHED_VIEW, tables["unmatched"])
    commitments = frame(COMMITMENTS_VIEW, timed(tables["commitments"], ("first_start", "last_end")))
    for f in (hourly, figures, unmatched, commitments, series):
        f.attrs.update({"currency": bill.currency, "file": bill.file, "focus_version": bill.version})
    return FocusBill(bill=bill, hourly=hourly, figures=figures, unmatched=unmatched, commitments=commitments,
                     series=series)


def offering_at_bill_rates(bill: FocusBill, offering):
    """`offering` priced at what the bill paid (gputco.at_bill_rates) for the bill's series of the same
    provider, instance type and region."""
    return _core.at_bill_rates(offering, bill.bill, _core._bill_series_of(bill.bill, offering))


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
    held: Any = ()        # the HeldCommitments the recommendation started from (the bill's in force)
    held_notes: Any = ()  # each bill commitment taken as held or left out, and why
    held_savings_plans: Any = ()  # the SavingsPlans held (start_month < 0) it started from


def recommend_from_bill(bill: FocusBill, offering, *, gpu: Optional[str] = None, horizon_months: int = 36,
                        futures: int = 200, held_out: int = 400, seed: int = 1,
                        baseline_term_years: int = 1, baseline_payment: str = "all_upfront",
                        bill_rates: bool = False, hindsight_bound: bool = False,
                        cvar95_limits: Optional[Sequence[float]] = None, held_from_bill: bool = True,
                        held_term_years: int = 1, options=None, **keywords) -> BillPlan:
    """The bill's GPU-hours per hour (of `gpu`, default the offering's GPU) as a history; demand futures
    fitted to it (DemandModel.from_history: the bootstrap of its month-to-month changes and its
    hour-of-week shape); the recommended plan over `horizon_months` on those futures, judged on
    `held_out` fresh ones beside all on demand and the providers' 7/30/60-day lookback advice on the
    same history. With `bill_rates=True` the offering is priced at what the bill paid for it
    (offering_at_bill_rates). Other keywords go to recommend (commitments, spot, cvar95_limit, ...). The
    futures start where the history ends; prices are the offering's (convert it to the bill's currency
    first when they differ). The plan starts from the reservations and Savings Plans the bill shows in
    force (`held_from_bill`; each for its term from the bill's contract commitments when read with
    `contracts`, else taken as bought at its first row for at least `held_term_years`, see
    docs/models.md, "From a bill") and advises what to add. Runs in C++, as `gputco recommend --bill`
    does (app/bill_plan.hpp)."""
    if not isinstance(bill, FocusBill):
        raise TypeError(f"bill = {bill!r}: must be a FocusBill (gputco.read_focus), not {type(bill).__name__}")
    from ._recommend import RecommendResult, _options, SUMMARY_VIEW, BASELINES_VIEW, FRONTIER_VIEW
    from ._progress import Report
    with Report("recommend", "futures") as report:  # shown in Jupyter and on a terminal only
        history, model, fitted, fresh, planned, study, held, held_notes, held_plans = _core._recommend_from_bill(
            bill.bill, offering, _options(options, keywords), gpu=gpu or "", horizon_months=horizon_months,
            futures=futures, held_out=held_out, seed=seed, bill_rates=bill_rates,
            baseline_term_years=baseline_term_years, baseline_payment=baseline_payment,
            hindsight_bound=hindsight_bound, cvar95_limits=list(cvar95_limits or []), held_from_bill=held_from_bill,
            held_term_years=held_term_years, progress=report)
    summary, baselines, frontier, rec, judged, _plans = study
    result = RecommendResult(plan=rec.plan, recommendation=rec, distribution=judged.to_frame(),
                             summary=frame(SUMMARY_VIEW, summary), frontier=frame(FRONTIER_VIEW, frontier),
                             baselines=frame(BASELINES_VIEW, baselines))
    return BillPlan(history=history, model=model, futures=fitted, held_out=fresh, result=result,
                    offering=planned, figures=bill.figures, held=list(held), held_notes=list(held_notes),
                    held_savings_plans=list(held_plans))
