"""What ``zerosum play`` was started with, the command that continues a game later (the ``s`` key), and what
the start says: how to type a move (:func:`move_example`), a warning for a search that cannot end
(:func:`zerosum.agents.unbounded.unbounded`)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

from ..agents.unbounded import SEARCHABLE_CELLS, unbounded
from .analysis import HINT_TIME, SOLVER_TIME

__all__ = ["Settings", "move_example", "unbounded", "SEARCHABLE_CELLS"]  # the last two: agents.unbounded


def move_example(game: Any, state: Any) -> str:
    """How to type a move at the prompt: the game's notation without its move-string example, and one move
    legal in ``state`` that the prompt accepts (``1-based columns, ...; one move at a time, e.g. 4``)."""
    help_text = re.sub(r",? e\.g\. \S+$", "", game.MOVES_HELP)
    legal = [] if game.is_terminal(state) else game.actions(state)
    example = game.format_action(legal[len(legal) // 2]) if legal else ""
    try:
        ok = bool(example) and game.parse_action(example, state) == legal[len(legal) // 2]
    except Exception:  # noqa: BLE001 - a game whose notation does not read back: no example
        ok = False
    return f"{help_text}; one move at a time, e.g. {example}" if ok else help_text or "a move"


def _number(x: float) -> str:
    """``x`` as short as it reads back exactly (``60``, ``0.5``, ``0.123456789``)."""
    short = f"{x:g}"
    return short if float(short) == x else repr(float(x))


@dataclass
class Settings:
    """What the game was started with: everything :meth:`command` repeats so ``s`` can continue it later."""

    game: str = "connect4"
    first: str = "human"
    second: str = "human"
    seed: int | None = None
    hint_time: float = HINT_TIME
    solver_time: float = SOLVER_TIME
    analysis: bool = False  # a hint at each of a person's turns (``--analysis``, the ``a`` key)
    no_color: bool = False
    log: bool = False  # a scrolling log even on a terminal

    def command(self, moves: str) -> str:
        """The ``zerosum play`` command that restores the game after ``moves``: the game, the players in
        their seats, the seed, the hint times when not the defaults, analysis, colour and log."""
        args = ["zerosum", "play", "--game", self.game, "--first", self.first, "--second", self.second]
        from ..external import registered

        for seat in dict.fromkeys((self.first, self.second)):  # an external engine's seat: its flags again
            definition = registered(seat.partition(":")[0])
            if definition is not None:
                args += definition.flags()
        if moves:
            args += ["--moves", moves]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        if self.hint_time != HINT_TIME:
            args += ["--hint-time", _number(self.hint_time)]
        if self.solver_time != SOLVER_TIME:
            args += ["--solver-time", _number(self.solver_time)]
        args += [flag for flag, on in (("--analysis", self.analysis), ("--no-color", self.no_color),
                                       ("--log", self.log)) if on]
        return " ".join(shlex.quote(a) for a in args)
