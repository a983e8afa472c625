"""Wrong argument types named by their parameter.

pybind11 rejects an argument of the wrong type with a TypeError that lists the whole signature and
every argument given ("incompatible function arguments ... Invoked with: ..."). This module finds the
parameter to blame from that same signature and raises TypeError in the library's own form,

    work_hours = 'x': must be a number, not str

Only the message changes: a call that pybind11 accepts is never touched (the check runs after the
TypeError), and when no single parameter can be blamed the original error is raised unchanged.
"""
from __future__ import annotations

import collections.abc
import functools
import re
from typing import Any, Callable

from . import _core

_INCOMPATIBLE = ("incompatible function arguments", "incompatible constructor arguments")


def _split_top_level(text: str) -> list[str]:
    """Splits "a: X[b, c], d: Y" on the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _parameters(signature_line: str) -> list[tuple[str, str, bool]] | None:
    """(name, annotation, keyword_only) for each parameter of one pybind11 signature line."""
    open_at = signature_line.find("(")
    if open_at < 0:
        return None
    depth = 0
    for close_at in range(open_at, len(signature_line)):
        depth += signature_line[close_at] in "(["
        depth -= signature_line[close_at] in ")]"
        if depth == 0:
            break
    else:
        return None
    params, keyword_only = [], False
    for part in _split_top_level(signature_line[open_at + 1:close_at]):
        if part == "*":
            keyword_only = True
            continue
        if part == "/" or part.startswith("*"):
            continue
        name, _, rest = part.partition(":")
        annotation = rest.split(" = ")[0].strip() if rest else "object"
        params.append((name.strip(), annotation, keyword_only))
    return params


def _type_rule(annotation: str, value: Any) -> str | None:
    """None if `value` can be what `annotation` asks for, else what it must be."""
    options = [a.strip() for a in _split_top_level(annotation.replace(" | ", ","))]
    # pybind11 writes a C++ double as "SupportsFloat | SupportsIndex" and an integer as
    # "SupportsInt | SupportsIndex": the SupportsIndex adds nothing to either.
    if "typing.SupportsFloat" in options or "typing.SupportsInt" in options:
        options = [o for o in options if o != "typing.SupportsIndex"]
    rules = []
    for option in options:
        rule = _option_rule(option, value)
        if rule is None:
            return None
        rules.append(rule)
    return " or ".join(dict.fromkeys(rules))


def _option_rule(option: str, value: Any) -> str | None:
    if option == "None":
        return None if value is None else "None"
    if option in ("typing.SupportsFloat", "float"):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**1024:
            return "a number within the range of a float"
        return None if hasattr(value, "__float__") and not isinstance(value, (str, bytes)) else "a number"
    if option in ("typing.SupportsIndex", "typing.SupportsInt", "int"):
        return None if hasattr(value, "__index__") else "a whole number"
    if option == "str":
        return None if isinstance(value, (str, bytes)) else "a str"
    if option.startswith(("collections.abc.Sequence", "collections.abc.Iterable", "list[")):
        ok = isinstance(value, collections.abc.Iterable) and not isinstance(value, (str, bytes))
        return None if ok else "a sequence"
    match = re.fullmatch(r"gputco\._core\.(\w+)", option)
    if match and isinstance(getattr(_core, match.group(1), None), type):
        return None if isinstance(value, getattr(_core, match.group(1))) else f"a gputco.{match.group(1)}"
    return None  # anything else (arrays, paths, bool, object): not blamed


def _integer(annotation: str, value: Any) -> int | None:
    if "SupportsInt" not in annotation or not hasattr(value, "__index__"):
        return None
    return value.__index__()


def _integer_rule(annotation: str, value: Any) -> str | None:
    """For an int that passed the type check: is it outside every C++ integer type?"""
    n = _integer(annotation, value)
    return None if n is None or -(2**63) <= n < 2**64 else "a whole number that fits in 64 bits"


def _narrow_integer_rule(annotation: str, value: Any) -> str | None:
    """A negative or >= 2^31 int may not fit the parameter's C++ type (unsigned, 32-bit)."""
    n = _integer(annotation, value)
    return None if n is None or 0 <= n < 2**31 else "a whole number in the range of this parameter's type"


def _blame(signature_line: str, args: tuple, kwargs: dict, skip_self: bool) -> str | None:
    params = _parameters(signature_line)
    if params is None:
        return None
    if skip_self and params and params[0][0] == "self":
        params = params[1:]
    positional = [p for p in params if not p[2]]
    given = list(zip(positional, args)) + [(p, kwargs[p[0]]) for p in params if p[0] in kwargs]
    def message(name: str, value: Any, rule: str) -> str:
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        return f"{name} = {shown}: must be {rule}, not {type(value).__name__}"

    for check in (_type_rule, _integer_rule):
        for (name, annotation, _), value in given:
            rule = check(annotation, value)
            if rule is not None:
                return message(name, value, rule)
            # A sequence of the right kind with an item of the wrong type: name the item.
            inner = re.fullmatch(r"(?:collections\.abc\.Sequence|list)\[(.*)\]", annotation)
            if inner and isinstance(value, collections.abc.Iterable) and not isinstance(value, (str, bytes)):
                for i, item in enumerate(list(value)[:10_000]):
                    rule = check(inner.group(1), item)
                    if rule is not None:
                        return message(f"{name}[{i}]", item, rule)
    # Only one integer that might not fit: that is the one (several: no single one to blame).
    suspects = [(p[0], v, r) for p, v in given if (r := _narrow_integer_rule(p[1], v)) is not None]
    if len(suspects) == 1:
        return message(*suspects[0])
    return None


def _rethrow_named(error: TypeError, function: Any, args: tuple, kwargs: dict, skip_self: bool) -> None:
    if not any(text in str(error) for text in _INCOMPATIBLE):
        return
    doc = (getattr(function, "__doc__", None) or "").strip()
    lines = [line for line in doc.splitlines() if line.strip()]
    # One overload: the first line; several: lines "1. (...)", "2. (...)" and no single one to blame.
    if not lines or re.match(r"\w+\(\*args, \*\*kwargs\)", lines[0]):
        return
    message = _blame(lines[0], args, kwargs, skip_self)
    if message is not None:
        raise TypeError(message) from None


def named_type_errors(function: Callable) -> Callable:
    """`function` (a pybind11 function) raising TypeError that names the parameter of wrong type."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except TypeError as error:
            _rethrow_named(error, function, args, kwargs, skip_self=False)
            raise

    return call


def _method(function: Callable) -> Callable:
    @functools.wraps(function)
    def call(self, *args, **kwargs):
        try:
            return function(self, *args, **kwargs)
        except TypeError as error:
            _rethrow_named(error, function, args, kwargs, skip_self=True)
            raise

    return call


def name_type_errors_of_class(cls: type) -> None:
    """Wraps the constructor, static methods and methods of a pybind11 class (not its operators)."""
    for name, attribute in list(vars(cls).items()):
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(attribute, staticmethod):
            setattr(cls, name, staticmethod(named_type_errors(attribute.__func__)))
        elif type(attribute).__name__ == "instancemethod":  # pybind11's methods (not Python ones)
            setattr(cls, name, _method(attribute.__func__))
