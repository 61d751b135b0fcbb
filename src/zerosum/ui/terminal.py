"""``zerosum play``: a game in the terminal -- a person against an agent, two people, or two agents.

Keys at a person's turn: a move in the game's notation (its ``MOVES_HELP``: a column number for Connect-X,
a cell 1..9 for Tic-Tac-Toe, the stone ``x,y`` for Migration), ``h`` a hint (every legal move's value,
:func:`~zerosum.ui.hints.format_hints`), ``a`` analysis on/off (a hint at each of your turns), ``u`` undo
(your last move, and the engine's reply to it), ``s`` save (the move string and a command that continues
the game with the same players and settings), ``q`` quit, ``?`` help.

It reads moves line by line, so it works the same at a keyboard and in a script:
``printf '4\\n4\\nq\\n' | zerosum play``.  On a terminal each board is drawn in place; elsewhere (or with
``--log``) the session is a scrolling log (:mod:`zerosum.ui.terminal_view`).  Colour (rich) only when the
output is a terminal and neither ``--no-color`` nor ``NO_COLOR`` is set; otherwise plain text without
escape codes.  Bad input is explained and asked again; the end of input ends the game cleanly (exit 0).
The game itself, its turns and keys, is :class:`~zerosum.ui.terminal_session.PlaySession`.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from ..agents.base import Agent
from ..agents.prepare import start, steps_of
from ..agents.registry import make_agent, strongest_agent_spec
from ..agents.unbounded import said
from ..core.processes import usable_cores
from ..errors import UsageError
from ..games import get_game
from .analysis import HINT_TIME, SOLVER_TIME
from .terminal_session import PlaySession, Reader
from .terminal_settings import Settings, unbounded
from .terminal_view import STYLE, Keys, Output, render_plain, render_rich

__all__ = ["PlaySession", "Settings", "play", "render_plain", "render_rich", "Output", "STYLE"]


def use_color(out: TextIO, no_color: bool = False) -> bool:
    """Colour only on a terminal, and never with ``--no-color`` or the ``NO_COLOR`` convention."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty())


def redraws(out: TextIO, log: bool = False) -> bool:
    """Whether boards are drawn in place: on a terminal that can (not ``TERM=dumb``), unless ``log``."""
    isatty = getattr(out, "isatty", None)
    return not log and bool(isatty and isatty()) and os.environ.get("TERM", "") != "dumb"


def _stdin_reader(out: TextIO) -> Reader:
    """Read one line (``None`` at the end of input); on a terminal with line editing via ``input``."""
    stdin = sys.stdin
    interactive = stdin is not None and stdin.isatty() and out is sys.stdout

    def read(prompt: str) -> str | None:
        if stdin is None:  # standard input closed (`zerosum play <&-`): the end of input
            return None
        if interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        out.write(prompt)
        line = stdin.readline()
        out.write(line.rstrip("\n") + "\n")  # echo, so a transcript reads like a session
        out.flush()
        return line if line else None

    return read


def play(
    game_spec: str = "connect4",
    first: str = "human",
    second: str | None = None,
    moves: str = "",
    read: Reader | None = None,
    out: TextIO | None = None,
    seed: int | None = None,
    color: bool | None = None,
    hint_time: float = HINT_TIME,
    solver_time: float = SOLVER_TIME,
    analysis: bool = False,
    log: bool = False,
) -> int:
    """Play one game; ``first``/``second`` are agent specs (``human`` for a person).

    ``read(prompt)`` returns the next line or None at the end of input (default: standard input);
    ``color`` None decides from ``out`` (see :func:`use_color`); ``analysis``: a hint at each of a person's
    turns; ``log``: a scrolling log even on a terminal (else boards are drawn in place there, see
    :func:`redraws`).
    """
    game = get_game(game_spec)
    first = first.strip()
    if second is None:
        second = strongest_agent_spec(game) if first == "human" else "human"
    second = second.strip()
    seats: dict[int, Agent | None] = {}
    for player, spec in ((1, first), (2, second)):
        agent = None if spec == "human" else make_agent(spec, seed=seed)
        if agent is not None:
            agent.use_cores(usable_cores())  # a face: the machine's cores, where the agent can use them
            if callable(check := getattr(agent, "check_game", None)):  # an agent of some games only (the
                check(game)  # homework's player(board), an engine): refused before the board, as match does
        seats[player] = agent
    actions = game.parse_moves(moves) if moves else []
    hint_agent = make_agent(strongest_agent_spec(game))  # the engines' code loads while the person thinks:
    start([s for a in (*seats.values(), hint_agent) if a is not None for s in steps_of(a, game)])
    out = out or sys.stdout
    if out is None:
        raise UsageError("standard output is closed: zerosum play needs somewhere to draw the board")
    output = Output(out, use_color(out) if color is None else color, redraw=redraws(out, log))
    settings = Settings(game.spec, first, second, seed, hint_time, solver_time, analysis, color is False, log)
    keys = Keys(sys.stdin) if read is None and sys.stdin is not None and sys.stdin.isatty() else None
    session = PlaySession(game, seats, read or _stdin_reader(out), output, actions, hint_time=hint_time,
                          solver_time=solver_time, settings=settings, hint_agent=hint_agent, keys=keys)
    for seat, agent in seats.items():  # one that searches to the end of a large game never moves: say so now
        warning = unbounded(game, agent, "--first" if seat == 1 else "--second")
        if warning:
            output.say(warning)
            said(game, [agent])  # the line is said: the agent's searches do not warn again
    return session.run()
