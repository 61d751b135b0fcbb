"""Options shared by every subcommand: the game option, bounded numbers, and :class:`UsageError`.

Every numeric option is read by :func:`int_arg` or :func:`float_arg` with its documented range, so a
value out of range (or ``nan``, ``inf``, ``4²``, a number past 2**63) is one usage line, exit status 2,
before anything runs.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from ..errors import UsageError
from ..spec import integer, quoted, real

__all__ = ["UsageError", "add_game_option", "int_arg", "float_arg", "refuse_empty"]


#: the game of a command that names none
DEFAULT_GAME = "connect4"


def add_game_option(parser: argparse.ArgumentParser, default: str = DEFAULT_GAME, solver: bool = False) -> None:
    """``--game SPEC``; ``solver``: a command of the solver's, which takes Connect-X boards only, and says so."""
    from ..games.registry import spec_forms  # the registered games, so a new game needs no edit here

    if solver:
        forms = ", ".join(f for f in spec_forms().split(", ") if f.startswith("connect"))
        parser.add_argument("--game", default=default, metavar="SPEC",
                            help=f"the board, a Connect-X one (the solver's: docs/solver.md): {forms} "
                                 f"(default: {default})")
        return
    parser.add_argument("--game", default=default, metavar="SPEC",
                        help=f"the game: {spec_forms()}; or your own, path/to/file.py:ClassName (with arguments: "
                             f"'file.py:ClassName(4, k=3)'; a file of one class alone, path/to/file.py; docs/games.md) (default: {default})")


def refuse_empty(args: argparse.Namespace, options: dict[str, tuple[str, str]]) -> None:
    """One line for an option of ``options`` (its attribute -> ``(its flag, what it takes)``) given an empty
    value, which names nothing: read as the option left out, it let a run go ahead without it."""
    for key, (flag, takes) in options.items():
        value = getattr(args, key, None)
        if value is not None and not str(value).strip():
            raise UsageError(f"{flag} {quoted(str(value))} is empty: give {takes}, or leave {flag} out")


def _bounded(parse: Callable[[str], Any], what: str, lo: float | None, hi: float | None,
             above: float | None = None) -> Callable[[str], Any]:
    def show(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:g}"

    bounds = ([f">= {show(lo)}"] if lo is not None else []) + ([f"> {show(above)}"] if above is not None else [])
    bounds += [f"<= {show(hi)}"] if hi is not None else []
    if lo is not None and hi is not None and above is None:
        expect = f"{what} in {show(lo)}..{show(hi)}"
    else:
        expect = f"{what} {' and '.join(bounds)}".rstrip()

    def convert(text: str) -> Any:
        try:
            value = parse(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not {expect}") from None
        if (lo is not None and value < lo) or (hi is not None and value > hi) or (above is not None and value <= above):
            raise argparse.ArgumentTypeError(f"{quoted(text)} is out of range: expected {expect}")
        return value

    convert.__name__ = what  # argparse names the type in some messages
    return convert


#: the largest whole number any option takes (``hi`` left out): numbers past 2**63 are refused everywhere
MAX_WHOLE = 2**63 - 1


def int_arg(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number in ASCII digits within ``lo..hi`` (``hi`` at most :data:`MAX_WHOLE`)."""
    return _bounded(integer, "a whole number", lo, MAX_WHOLE if hi is None else min(hi, MAX_WHOLE))


def float_arg(lo: float | None = None, hi: float | None = None, *, above: float | None = None) -> Callable[[str], float]:
    """An argparse ``type``: a finite number within ``lo..hi`` (``above``: strictly greater than it)."""
    return _bounded(real, "a number", lo, hi, above)
