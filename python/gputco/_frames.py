"""Every DataFrame view of a result, built one way.

A result type declares its view once, beside the code that fills it: the columns in order, each with
its dtype, and the index. `frame(view, data)` builds the DataFrame from columns or rows and gives each
column the declared dtype, so a view cannot drift from its declaration (python/tests/test_frames.py
checks every view in VIEWS against the frame it produces).

    MONTHS = declare("CostReport.to_frame", [Column("total"), Column("break_even_month", "Int64")],
                     index=Column("month", "int64"))
    frame(MONTHS, {"month": [0, 1], "total": [1.0, 2.0], "break_even_month": [None, 3]})

Dtypes: "float64", "int64", "bool" (NumPy; None becomes NaN in float64); "Int64" / "Float64" for
figures that may not apply (pandas' nullable types: None becomes <NA>); "category" with its
categories; "text" for strings (pandas' default string dtype: object before pandas 3, str from 3);
"infer" for values the user chose (a sweep's grid), typed as pandas types them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

__all__ = ["Column", "View", "VIEWS", "declare", "frame", "TEXT", "INFER"]

TEXT = "text"
INFER = "infer"
_NULLABLE = ("Int64", "Float64", "boolean")


@dataclass(frozen=True)
class Column:
    name: str
    dtype: str = "float64"
    categories: tuple = ()  # for dtype "category", in order


@dataclass(frozen=True)
class View:
    """A DataFrame's shape: its columns and its index (a Column taken from the data and set as index,
    or the name of the default 0..n-1 index, or None for an unnamed one)."""

    name: str
    columns: tuple[Column, ...]
    index: Union[Column, str, None] = None
    attrs: tuple[str, ...] = ()  # the keys of frame.attrs the view always sets
    extra: Optional[str] = None  # the dtype of columns named per call, after the declared ones

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def with_extra(self, extra: Sequence[Union[Column, str]]) -> tuple[Column, ...]:
        """The columns of one call: the declared ones, then `extra` (a bare name has the dtype `extra`)."""
        if extra and self.extra is None:
            raise ValueError(f"extra = {[getattr(c, 'name', c) for c in extra]}: view {self.name} has no "
                             "columns named per call")
        return self.columns + tuple(c if isinstance(c, Column) else Column(c, self.extra) for c in extra)  # type: ignore[arg-type]


VIEWS: dict[str, View] = {}  # every declared view by name: the tests check each one


def declare(name: str, columns: Sequence[Union[Column, str]], *, index: Union[Column, str, None] = None,
            attrs: Sequence[str] = (), extra: Optional[str] = None) -> View:
    """A view, registered under `name` ("Type.method"); a bare string is a float64 column."""
    view = View(name, tuple(c if isinstance(c, Column) else Column(c) for c in columns), index, tuple(attrs), extra)
    if name in VIEWS:
        raise ValueError(f"view = {name!r}: declared twice")
    VIEWS[name] = view
    return view


def _values(column: Column, values: Any):
    import numpy as np
    import pandas as pd

    if column.dtype in _NULLABLE:
        return pd.array(values if isinstance(values, np.ndarray) else list(values), dtype=column.dtype)
    if column.dtype == "category":
        return pd.Categorical(list(values), categories=list(column.categories))
    if column.dtype == INFER:
        return pd.Series(list(values)).array
    if column.dtype == TEXT:
        values = list(values)  # pandas infers its string dtype (None becomes missing); empty: the same dtype
        return pd.Series(values, dtype=None if values else str).array
    out = np.asarray(values, dtype=column.dtype)  # no copy when the values already have the dtype
    if out.dtype.kind in "iub":  # whole numbers and flags: refuse values the cast would change (2.5 -> 2)
        given = np.asarray(values)
        changed = np.flatnonzero(out != given) if given.shape == out.shape else [0]
        if len(changed):
            raise ValueError(f"{column.name} = {given.flat[changed[0]].item()!r}: must be {column.dtype} (declared so)")
    return out


def frame(view: View, data: Union[Mapping[str, Any], Sequence[Mapping[str, Any]]], *,
          attrs: Optional[Mapping[str, Any]] = None, extra: Sequence[Union[Column, str]] = (),
          index_values: Any = None):
    """The DataFrame of `view` from `data`: a mapping of column name to values (NumPy arrays of the
    declared dtype are used without a copy) or a sequence of row mappings. `extra` names the columns
    of this call after the declared ones (views with `extra`); `index_values` gives the index when
    the view's index is a Column that is not in the data (e.g. window starts)."""
    import pandas as pd

    index = view.index if isinstance(view.index, Column) else None
    from_data = [*view.with_extra(extra), *([index] if index is not None and index_values is None else [])]
    wanted = {c.name for c in from_data}
    keys = set(data) if isinstance(data, Mapping) else {key for row in data for key in row}
    if keys - wanted:  # a field the result has and the view does not: declare it, or leave it out upstream
        raise ValueError(f"columns = {sorted(keys - wanted)}: not in view {view.name}")
    if isinstance(data, Mapping):
        raw = {c.name: data[c.name] for c in from_data}
    else:
        raw = {c.name: [row[c.name] for row in data] for c in from_data}
    out = pd.DataFrame({c.name: _values(c, raw[c.name]) for c in from_data}, copy=False)
    if index is not None and index_values is None:
        out = out.set_index(index.name)
    elif index is not None:
        out.index = pd.Index(_values(index, index_values), name=index.name)
    elif isinstance(view.index, str):
        out.index.name = view.index
    missing = [key for key in view.attrs if key not in (attrs or {})]
    if missing:
        raise ValueError(f"attrs = {sorted(attrs or {})}: view {view.name} needs {', '.join(missing)}")
    out.attrs.update(attrs or {})
    return out
