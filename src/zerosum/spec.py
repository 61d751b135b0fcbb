"""Spec strings such as ``alphabeta:depth=6,eval=window`` or ``connectx:rows=8,cols=8,k=4``.

A spec is a name, optionally followed by ``:`` and comma-separated ``key=value`` options.  Values stay
strings here; each consumer converts them with :func:`convert` and says what it accepts.
"""

from __future__ import annotations

import re
from typing import Callable, TypeVar

__all__ = ["parse_spec", "convert"]

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]*$")
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

T = TypeVar("T")


def parse_spec(spec: str, error: type[Exception]) -> tuple[str, dict[str, str]]:
    """Split ``name:k=v,k=v`` into the name and a dict of raw option strings.

    Raises ``error`` (with a one-line message quoting the spec) when the text is malformed.
    """
    if not isinstance(spec, str):
        raise error(f"a spec must be a string, not {type(spec).__name__}")
    text = spec.strip()
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not _NAME.match(name):
        raise error(f"malformed spec {spec!r}: expected a name such as 'alphabeta' or 'connect4'")
    options: dict[str, str] = {}
    if sep and rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not _KEY.match(key) or not value:
                raise error(f"malformed option {part.strip()!r} in spec {spec!r}: expected key=value")
            if key in options:
                raise error(f"option {key!r} given twice in spec {spec!r}")
            options[key] = value
    elif sep:
        raise error(f"malformed spec {spec!r}: nothing after ':'")
    return name.lower(), options


def convert(
    key: str,
    value: str,
    kind: Callable[[str], T],
    error: type[Exception],
    spec: str,
    check: Callable[[T], bool] | None = None,
    expect: str = "",
) -> T:
    """Convert one option value, raising ``error`` with a message that names the option and the spec."""
    try:
        result = kind(value)
    except (TypeError, ValueError):
        raise error(f"option {key}={value!r} in {spec!r} is not {expect or kind.__name__}") from None
    if check is not None and not check(result):
        raise error(f"option {key}={value!r} in {spec!r} is out of range: expected {expect}")
    return result
