"""gputco.report(): scenarios as one self-contained HTML page, the page `gputco report` writes.

    gputco.report("examples/scenarios/a100_three_year.yaml", output="a100.html")
    html = gputco.report(["a.yaml", "b.yaml"])          # the page as a string, nothing written

The page is rendered by the library's C++ (include/gputco/report/), the same code as the command's,
so the two give the same bytes for the same scenarios.
"""
from __future__ import annotations

import os
from typing import Mapping, Optional, Sequence, Union

from . import _core
from ._scenario import _text

Scenario = Union[Mapping, str, os.PathLike]


def report(scenarios: Union[Scenario, Sequence[Scenario]], output: Optional[Union[str, os.PathLike]] = None) -> str:
    """The HTML report of one scenario or several (files or dicts, as run_scenario takes them): a
    summary, each result's table and chart, prices with their sources, and the inputs. Written to
    `output` (whole or not at all) when given; the page is returned either way."""
    if isinstance(scenarios, (Mapping, str, os.PathLike)):
        scenarios = [scenarios]
    pairs = [_text(s) for s in scenarios]
    out = "" if output is None else os.fspath(output)
    command = " ".join(["gputco report", *(file for _, file in pairs), "-o", out or "-"])
    return _core._report_html(pairs, command, out)
