"""Python-side additions to the deadline policies: reading trace files, sweeps and runs as DataFrames."""
from __future__ import annotations

import os
from typing import Optional, Union

from . import _core
from ._core import DeadlineResult, MultiRegionResult, SpotAvailability, WindowSweep, _tick_decisions
from ._frames import Column, declare, frame, TEXT

__all__: list[str] = []

TICKS_VIEW = declare("DeadlineResult.to_frame", [
    "start_hours", Column("spot_available", "bool"), Column("decision", "category", tuple(_tick_decisions)),
    "progress_hours"], index="tick")
# The tick log and the spot instance's region: its index (-1 off spot), or its name (None off spot).
REGION_INDEX_VIEW = declare("MultiRegionResult.to_frame", [*TICKS_VIEW.columns, Column("region", "int32")],
                            index="tick")
REGION_NAME_VIEW = declare("MultiRegionResult.to_frame(names)", [*TICKS_VIEW.columns, Column("region", TEXT)],
                           index="tick")
# The summary's columns and rows come from C++ (app/columns.hpp: sweep_summary_columns, sweep_summary_rows).
SWEEP_SUMMARY_VIEW = declare("WindowSweep.summary", [
    Column(n, TEXT if dtype == "object" else dtype) for n, _unit, dtype in _core._columns("deadline_sweep_summary")
    if n != "policy"], index=Column("policy", TEXT))
SWEEP_WINDOWS_VIEW = declare("WindowSweep.to_frame", [], index=Column("start_tick", "uint64"),
                             extra="float64")  # a cost column per policy


# A str is JSON text when, after white space and a UTF-8 byte-order mark, it starts with a character
# that starts a JSON document ({, [ or ") or is a JSON word (null, true, false); anything else is a
# file name. So '[1, 0, 1]' and '  null' are read (and refused as not a trace), never looked up as
# files; a file whose name looks like JSON is read through a pathlib.Path (always a file).
_JSON_WORDS = ("null", "true", "false")


def _is_json_text(text: str) -> bool:
    body = text.lstrip(" \t\r\n\ufeff")
    return body[:1] in ("{", "[", '"') or body.rstrip(" \t\r\n") in _JSON_WORDS


def _from_json(source: Union[str, bytes, os.PathLike], *, values: Optional[str] = None,
               nodes_needed: Optional[int] = None) -> SpotAvailability:
    """A trace in the Can't Be Late authors' JSON format, {"metadata": {"gap_seconds": N, ...},
    "data": [n0, n1, ...]}, from JSON text (str or bytes) or a file (a path-like, or a str that is not
    JSON text: see _is_json_text). tick_hours is gap_seconds / 3600. A file that cannot be read is a
    ValueError naming it.

    What a value means must be said by the file (metadata.values) or here: values="available" (one
    node, 1 = available), "available_nodes" (a count of nodes; available when >= nodes_needed) or
    "preempted" (one node, 1 = preempted). The result's `layout` says which reading was taken."""
    if isinstance(source, str) and _is_json_text(source):
        source = source.encode()
    elif not isinstance(source, bytes):
        source = _core._read_text_file(os.fspath(source))
    if source.startswith(b"\xef\xbb\xbf"):  # a byte-order mark is no part of the JSON
        source = source[3:]
    return SpotAvailability._from_json_text(source, values=values or "unstated", nodes_needed=nodes_needed or 0)


def _tick_frame(self: DeadlineResult):
    """One row per tick (index `tick`): start_hours, spot_available, decision, progress_hours."""
    return frame(TICKS_VIEW, self._tick_columns())


def _sweep_summary(self: WindowSweep):
    """The summary table, one row per policy (and "omniscient" when computed): mean, standard_error, p50, p95,
    max, deadline_misses, miss_rate and gap_closed (share of the Greedy-to-optimum gap closed)."""
    rows = _core._sweep_summary_rows(self)
    return frame(SWEEP_SUMMARY_VIEW, rows)


def _sweep_frame(self: WindowSweep):
    """One row per window (index: its start tick in the trace), one cost column per policy and
    "omniscient" when computed."""
    columns = {o.policy: o.cost_samples for o in self.policies}
    if self.omniscient_cost is not None:
        columns["omniscient"] = self.omniscient_samples
    return frame(SWEEP_WINDOWS_VIEW, columns, extra=list(columns), index_values=self.window_starts)


def _multi_region_frame(self: MultiRegionResult, names=None):
    """The tick log (DeadlineResult.to_frame()) with a `region` column: the spot instance's region
    index, or its name when `names` (e.g. [r.name for r in regions]) is given; -1 / None otherwise."""
    columns = self.run._tick_columns()
    region = self.region
    if names is None:
        columns["region"] = region
        return frame(REGION_INDEX_VIEW, columns)
    columns["region"] = [names[r] if r >= 0 else None for r in region]
    return frame(REGION_NAME_VIEW, columns)


DeadlineResult.to_frame = _tick_frame
SpotAvailability.from_json = staticmethod(_from_json)
WindowSweep.summary = _sweep_summary
WindowSweep.to_frame = _sweep_frame
MultiRegionResult.to_frame = _multi_region_frame
