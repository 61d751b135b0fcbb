"""OpenSpiel's game strings (``"connect_four(rows=5,columns=9)"``) read and checked before pyspiel loads them.

pyspiel prints ``OpenSpiel exception: ...`` on standard error itself before it raises, so a string it would
refuse (an unknown parameter, a value of the wrong type, a missing bracket) is refused here first, in one
line and with nothing else printed.
"""

from __future__ import annotations

import re
from typing import Any, Collection

from ..errors import AgentError, InvalidSpecError
from ..spec import quoted

__all__ = ["load"]

#: a parameter's value as OpenSpiel's string reads it, by the type of its default
_VALUES = {bool: (r"true|false", "true or false"), int: (r"[+-]?\d+", "a whole number"),
           float: (r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", "a number")}


def load(text: str, pyspiel: Any, names: Collection[str], known: str) -> Any:
    """``pyspiel.load_game(text)`` for a game named in ``names`` (else AgentError naming ``known``), its
    parameters checked first against the game's own (InvalidSpecError, one line)."""
    text = text.strip()
    name, bracket, rest = text.partition("(")
    name = name.strip()
    if name not in names:
        raise AgentError(f"zerosum has no counterpart of OpenSpiel's {quoted(name)}: {known}")
    refused = f"OpenSpiel cannot load {quoted(text)}"
    if bracket and not rest.endswith(")"):
        raise InvalidSpecError(f"{refused}: its parameters end with ')'")
    defaults = pyspiel.load_game(name).get_type().parameter_specification
    given = []
    for item in filter(None, (part.strip() for part in rest[:-1].split(","))):
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals:
            raise InvalidSpecError(f"{refused}: {quoted(item)} is not key=value")
        if key not in defaults:
            raise InvalidSpecError(f"{refused}: {quoted(key)} is not one of its parameters "
                                   f"({', '.join(sorted(defaults)) or 'it has none'})")
        pattern, what = _VALUES.get(type(defaults[key]), (r".+", "a value"))
        if not re.fullmatch(pattern, value):
            raise InvalidSpecError(f"{refused}: {key} is {what}, not {quoted(value)}")
        given.append(f"{key}={value}")
    try:  # without the spaces pyspiel would take as part of a name
        return pyspiel.load_game(f"{name}({','.join(given)})" if given else name)
    except pyspiel.SpielError as exc:
        raise InvalidSpecError(f"{refused}: {str(exc).splitlines()[0]}") from None
