"""Progress bars of the long calls (sweep, recommend, rank_offerings) by tqdm's convention: tqdm.auto
draws a widget in Jupyter and a bar on a terminal and nothing otherwise (disable=None: a pipe, a file,
a CI log stay clean); without tqdm installed, nothing. One helper for every call."""
from __future__ import annotations

import sys


class _Silent:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress(total: int, desc: str, unit: str):
    """A bar of `total` units (update(n) adds n, close() ends it), or a silent stand-in."""
    loaded = set(sys.modules)
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _Silent()
    except KeyboardInterrupt:
        # Ctrl-C during the first bar's import (tqdm.auto imports asyncio, which takes a while) leaves the
        # submodules finished so far in sys.modules without their package, and every later import of that
        # package fails (a NameError inside asyncio's __init__): forget what this import loaded.
        for name in set(sys.modules) - loaded:
            del sys.modules[name]
        raise
    return tqdm(total=total, desc=desc, unit=unit, disable=None)


class Report:
    """The library's (done, total) progress reports drawn on one bar; a call that runs several passes
    (a recommendation study: the fit, then each judgement) starts a new bar when a pass starts over.

        with Report("recommend", "futures") as report:
            _core._run_recommend_study(..., progress=report)
    """

    def __init__(self, desc: str, unit: str) -> None:
        self.desc, self.unit = desc, unit
        self.bar = None
        self.done = self.total = 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None or total != self.total or done < self.done:
            self.close()
            self.bar, self.done, self.total = progress(total, self.desc, self.unit), 0, total
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> "Report":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
