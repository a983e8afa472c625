"""Cost per unit of work as DataFrames: rank_offerings, cheapest_within, the seed audit, throughput tables."""
from __future__ import annotations

import math
from typing import Optional

from . import _core
from ._core import (Catalog, LlmServing, LlmTraining, ThroughputTable, Workload, WorkRanking, _LlmRankOptions,
                    _rank_llm_serving, _rank_llm_training, _rank_offerings, audit_seed_work_claims)
from ._frames import Column, declare, frame, TEXT
from ._progress import Report

__all__ = ["rank_offerings", "rank_offerings_raw", "cheapest_within", "seed_audit", "throughput_frame",
           "RANKING_COLUMNS", "llm_training_cost", "llm_serving_cost"]

# The columns the library declares for a ranking row (gputco/app/columns.hpp): the command's workload
# table has the same ones after "workload".
RANKING_COLUMNS = [name for name, _unit, _dtype in _core._columns("ranking")]
RANKING_VIEW = declare("rank_offerings", [
    Column(name, TEXT if dtype == "object" else dtype) for name, _unit, dtype in _core._columns("ranking")
], attrs=("unit", "currency", "workload", "skipped", "prices_as_of", "max_price_age_days", "stale_left_out"))
SEED_AUDIT_VIEW = declare("seed_audit", [
    Column("claim", TEXT), Column("source", TEXT), "seed_figure", "measured_figure", Column("unit", TEXT),
    Column("verdict", TEXT), Column("basis", TEXT), Column("reason", TEXT)])
THROUGHPUT_VIEW = declare("throughput_frame", [
    Column("gpu", TEXT), Column("system", TEXT), Column("gpus", "int64"), Column("precision", TEXT),
    Column("model", TEXT), "per_second", "watts", "price", Column("source", TEXT), Column("as_of", TEXT)])


def rank_offerings_raw(workload: Workload, catalog: Optional[Catalog] = None,
                       throughput: Optional[ThroughputTable] = None, **options) -> WorkRanking:
    """The C++ ranking object (rows, skipped, frontier()); keyword options as for rank_offerings. A
    progress bar counts the offerings (in Jupyter and on a terminal only)."""
    with Report("rank_offerings", "offerings") as report:
        return _rank_offerings(workload, catalog if catalog is not None else Catalog.builtin(),
                               throughput if throughput is not None else ThroughputTable.builtin(), **options,
                               progress=report)


def _frame(ranking: WorkRanking, rows):
    return frame(RANKING_VIEW, [{c: getattr(r, c) for c in RANKING_COLUMNS} for r in rows],
                 attrs={"unit": ranking.unit, "currency": ranking.currency,
                        "workload": ranking.workload.name or ranking.workload.model,
                        "skipped": [(s.offering, s.reason) for s in ranking.skipped],
                        "prices_as_of": ranking.prices_as_of, "max_price_age_days": ranking.max_price_age_days,
                        "stale_left_out": ranking.stale_left_out})


def rank_offerings(workload: Workload, catalog: Optional[Catalog] = None,
                   throughput: Optional[ThroughputTable] = None, **options):
    """Every offering (and owned machine) for `workload`, cheapest run first, as a DataFrame.

    Columns: RANKING_COLUMNS (costs in frame.attrs["currency"]; cost_per_million per million units of
    frame.attrs["unit"]). Offerings left out, with the reason, are in frame.attrs["skipped"].
    Keyword options: currency="USD" (other currencies converted through exchange_rates=ExchangeRates
    (default: the built-in table) at the rate in force at rates_as_of="YYYY-MM-DD" (default: its latest
    rate); each converted row's note names the rate), on_demand/spot/reserved/owned=True, allow_estimates=False,
    gpu_matches=[GpuMatch...], mtbf_hours=20, checkpoint_write_hours=5/60, restart_hours=10/60,
    capacity_wait_hours=0, paths=20000, seed=42, threads=0, ownership=Owned(...) (capex_per_gpu=0 and
    watts_per_gpu=0 take the benchmark's list price and board power), deadline_hours=inf,
    every_region=False (each instance type in its cheapest region per way of buying; True: every region),
    prices_as_of="YYYY-MM-DD" (default: today), max_price_age_days (default: the library's limit,
    gputco.STALE_PRICE_AGE_DAYS), include_stale_prices=False: an offering whose price is older than the
    limit at prices_as_of, or undated, is left out and listed in frame.attrs["skipped"] with its age
    (frame.attrs["stale_left_out"] counts them); with include_stale_prices=True it is ranked (the raw
    ranking's rows carry price_age_days and stale).
    """
    ranking = rank_offerings_raw(workload, catalog, throughput, **options)
    return _frame(ranking, ranking.rows)


def cheapest_within(workload: Workload, deadline_hours: float, probability: float = 0.95,
                    catalog: Optional[Catalog] = None, throughput: Optional[ThroughputTable] = None,
                    **options) -> Optional[dict]:
    """The cheapest way (by mean cost per run) to finish within `deadline_hours` with probability >=
    `probability`, as a dict of RANKING_COLUMNS; None if no way does."""
    if not (probability > 0 and probability <= 1):
        raise ValueError(f"probability = {probability:g}: must be in (0, 1]")
    if not (deadline_hours > 0 and math.isfinite(deadline_hours)):
        raise ValueError(f"deadline_hours = {deadline_hours:g}: must be finite and > 0")
    options["deadline_hours"] = deadline_hours
    ranking = rank_offerings_raw(workload, catalog, throughput, **options)
    for row in ranking.rows:
        if row.probability_within_deadline >= probability:
            return {c: getattr(row, c) for c in RANKING_COLUMNS}
    return None


def seed_audit(catalog: Optional[Catalog] = None, throughput: Optional[ThroughputTable] = None):
    """The seed articles' performance claims beside the measured figures, as a DataFrame."""
    rows = audit_seed_work_claims(catalog if catalog is not None else Catalog.builtin(),
                                  throughput if throughput is not None else ThroughputTable.builtin())
    return frame(SEED_AUDIT_VIEW, [{c: getattr(r, c) for c in SEED_AUDIT_VIEW.names} for r in rows])


def throughput_frame(table: Optional[ThroughputTable] = None):
    """A throughput table as a long DataFrame: one row per GPU, count, precision and model."""
    table = table if table is not None else ThroughputTable.builtin()
    return frame(THROUGHPUT_VIEW, [{"gpu": r.gpu, "system": r.system, "gpus": r.gpus, "precision": r.precision,
                                    "model": r.model, "per_second": r.per_second, "watts": r.watts, "price": r.price,
                                    "source": r.source.name, "as_of": r.source.as_of} for r in table.rows])


# The columns the library declares for LLM ranking rows (gputco/app/columns.hpp): the command's
# llm_training and llm_serving tables have the same ones after the job's name.
LLM_TRAINING_COLUMNS = [name for name, _unit, _dtype in _core._columns("llm_training")]
LLM_SERVING_COLUMNS = [name for name, _unit, _dtype in _core._columns("llm_serving")]


def _library_columns(result: str) -> list:
    return [Column(name, TEXT if dtype == "object" else dtype) for name, _unit, dtype in _core._columns(result)]


LLM_TRAINING_VIEW = declare("llm_training_cost", _library_columns("llm_training"),
                            attrs=("currency", "flops", "flops_per_token", "skipped"))
LLM_SERVING_VIEW = declare("llm_serving_cost", _library_columns("llm_serving"),
                           attrs=("currency", "skipped"))


def llm_training_cost(training: LlmTraining, catalog: Optional[Catalog] = None, **options):
    """Every offering's cost of an LLM training run, cheapest first, as a DataFrame (LLM_TRAINING_COLUMNS).

    Layout = the smallest fitting one on whole instances; GPU-hours = training_flops / (peak x MFU x 3600).
    frame.attrs: currency, flops, flops_per_token, skipped ([(offering, reason)]). Keyword options:
    currency="USD", on_demand/spot/reserved=True, capacity_block=True (a row where the offering has a
    capacity-block rate: the shortest block sold that holds the run, paid in full), every_region=False (each
    provider's instance type in its cheapest region only, as rank_offerings), gpus=[catalog GPU names], min_gpus=0, max_gpus=65536,
    mfu=0 (0: the built-in rows), usable_memory_fraction=0.9, mtbf_hours=20 (per instance),
    restart_hours=10/60, storage_gb_per_second_per_instance=2, paths=4000, seed=42, and your own rows before
    the built-in ones: mfu_csv="gpu,precision,mfu,kind,as_of,source\\n..." and
    peaks_csv="gpu,fp8_tflops,fp4_tflops,as_of,source\\n..." (source: the rest of the line), or as row
    objects: mfu_rows=[MfuRow(gpu="MI300X", mfu=0.3, kind="estimate", source=Source("...", "2026-11"))]
    (before the CSV's rows; gputco.builtin_training_mfu() lists the built-in ones).
    """
    r = _rank_llm_training(training, catalog if catalog is not None else Catalog.builtin(), _LlmRankOptions(**options))
    return frame(LLM_TRAINING_VIEW, r["rows"], attrs={"currency": r["currency"], "flops": r["flops"],
                                                      "flops_per_token": r["flops_per_token"],
                                                      "skipped": r["skipped"]})


def llm_serving_cost(serving: LlmServing, catalog: Optional[Catalog] = None, **options):
    """Every offering's hourly cost of an inference service and its $ per million input and output tokens,
    cheapest fleet first, as a DataFrame (LLM_SERVING_COLUMNS). frame.attrs: currency, skipped.
    Keyword options as llm_training_cost, plus decode_bandwidth_efficiency=0.7."""
    r = _rank_llm_serving(serving, catalog if catalog is not None else Catalog.builtin(), _LlmRankOptions(**options))
    return frame(LLM_SERVING_VIEW, r["rows"], attrs={"currency": r["currency"], "skipped": r["skipped"]})
