"""The terminal's hints and the engine's thinking, shown as they fill in (:mod:`zerosum.ui.terminal` uses them).

On a terminal the row of column figures is redrawn in place each time the solver proves a column (its
win/draw/loss ``W`` / ``0`` / ``L`` first, then its exact score); written to a file or a pipe, only the final
result is printed.  Nothing waits behind a spinner with nothing to show.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.markup import escape
from rich.text import Text

from ..agents.base import Agent
from ..errors import GameError
from ..game import Game
from .analysis import (MOVE_TIME, Analysis, EngineMove, engine_move, live_analyze,
                       partial_analysis)

__all__ = ["LiveRow", "hint_analysis", "show_hint", "score_row", "think"]

STYLE_HEADER, STYLE_DIM = "bold cyan", "grey50"


def hint_analysis(game: Game[Any, Any], state: Any, *, time: float, solver_time: float,
                  report: Callable[[Analysis], None] | None = None) -> Analysis:
    """A hint's analysis: the solver's, filling in for at most ``solver_time`` seconds (what it proved by then),
    else alpha-beta's for ``time`` seconds."""
    return live_analyze(game, state, solver_time, report, time=time)


class LiveRow:
    """Lines redrawn in place on a terminal (rich's ``Live`` in colour, a carriage return in plain text);
    nothing at all elsewhere (a file or a pipe gets the final result only, printed by the caller)."""

    def __init__(self, output: Any) -> None:
        self.output = output
        out = output.out
        self.live_ok = bool(getattr(out, "isatty", None) and out.isatty())
        self._live: Any = None
        self._width = 0

    def __enter__(self) -> "LiveRow":
        if self.live_ok and self.output.console is not None:
            from rich.live import Live

            self._live = Live(Text(""), console=self.output.console, transient=True, auto_refresh=False)
            self._live.__enter__()
        return self

    def update(self, plain: str, rich: Any = None) -> None:
        if not self.live_ok:
            return
        if self._live is not None:
            self._live.update(rich if rich is not None else Text(plain), refresh=True)
            return
        line = plain.replace("\n", " | ")[:79]
        self.output.out.write("\r" + line.ljust(self._width))
        self._width = len(line)
        self.output.out.flush()

    def __exit__(self, *exc: Any) -> None:
        if self._live is not None:
            self._live.__exit__(*exc)
        elif self.live_ok and self._width:
            self.output.out.write("\r" + " " * self._width + "\r")
            self.output.out.flush()


def score_row(game: Game[Any, Any], state: Any, found: Analysis) -> tuple[str, Any]:
    """Every move's short figure (:meth:`Analysis.point`; ``~`` before an estimate, ``?`` not proven yet,
    ``#`` no move there) under the column labels of a board whose moves are columns, plus the rich version."""
    view = game.board_view(state)
    actions = [game.action_at(state, 0, c) for c in range(view.cols)]
    cells = [("~" if found.estimate(a) else "") + found.point(a) if a in found.values else
             "#" if a is None else "?" for a in actions]
    width = max(3, *(len(x) for x in cells))
    header = " ".join(label.rjust(width) for label in view.col_labels)
    row = " ".join(x.rjust(width) for x in cells)
    guessed = any(found.estimate(a) for a in found.values)
    legend = f"({found.legend}; {'~ an estimate, ' if guessed else ''}{'' if found.done else '? not yet proven, '}# full)"
    text = Text()
    text.append(header + "\n", style=STYLE_HEADER)
    for c, x in enumerate(cells):
        v = found.values.get(actions[c])
        style = "grey42" if v is None else "bold green" if v > 0 else "bold red" if v < 0 else "white"
        if actions[c] is not None and actions[c] == found.best and found.done:
            style += " reverse"
        text.append(("" if c == 0 else " ") + x.rjust(width), style=style)
    text.append("\n" + legend, style=STYLE_DIM)
    return f"{header}\n{row}\n{legend}", text


def show_hint(session: Any) -> None:
    """The ``h`` key: the analysis filling in, then the best move and every move's figure."""
    game, state, say = session.game, session.state, session.say
    gravity = game.board_view(state).gravity
    with LiveRow(session.output) as live:
        def report(found: Analysis) -> None:
            plain, rich = score_row(game, state, found)
            live.update(f"analysing: {plain.splitlines()[1].strip()}", rich)

        try:
            found = session.analyzer(game, state, time=session.hint_time, solver_time=session.solver_time,
                                     report=report if gravity else None)
        except GameError as exc:
            say(f"No hint: {exc}.")
            return
    if not found.engine:
        say(f"No hint: {found.note}.")
        return
    # the analysis' own word: who answered, and whether its scores are proofs or estimates
    engine = found.engine + ("" if found.exact or found.classes or not found.done else " (estimates)")
    stats = f"{found.elapsed:.2f} s" + (f", {found.nodes:,} nodes" if found.nodes else "")
    if found.best is None or (not found.done and found.values.get(found.best, 0) <= 0):
        head = "so far nothing is proven better than the rest"
        say(f"Hint from {engine}: {head}; {stats}.", f"[bold]Hint[/] from {escape(engine)}: {head}; [dim]{stats}[/].")
    else:
        best, said = game.format_action(found.best), found.words(found.best)
        say(f"Hint from {engine}: play {best} ({said}); {stats}.",
            f"[bold]Hint[/] from {escape(engine)}: play [bold green]{escape(best)}[/] ({said}); [dim]{stats}[/].")
    if found.note:
        say(f"({found.note})")
    if gravity:
        say(*score_row(game, state, found))
        return
    width = max(len(game.format_action(a)) for a in found.scores)
    ordered = sorted(found.scores, key=lambda a: -found.values[a])
    for a in ordered:
        say(f"  {game.format_action(a).rjust(width)}  {found.words(a)}" + ("  (estimate)" if found.estimate(a) else ""))


def think(session: Any, agent: Agent) -> tuple[EngineMove, str]:
    """``agent``'s move and a note ("" normally).  An agent that can show its analysis as it goes (the solver:
    ``search_within``) thinks here, its columns filling in on a terminal, and takes at most ``MOVE_TIME``
    seconds (or ``solver_time`` when smaller) for the exact distance once its move is proven; others think as
    :func:`~zerosum.ui.analysis.engine_move` lets them (behind a spinner on a terminal)."""
    game, state = session.game, session.state
    search_within = getattr(agent, "search_within", None)
    if search_within is None or not game.board_view(state).gravity:
        with session.output.thinking(f"{agent.spec} is thinking..."):
            return engine_move(game, state, agent), ""
    actions = game.actions(state)
    with LiveRow(session.output) as live:
        wdl: dict[int, int] = {}
        exact: dict[int, int] = {}

        def report(event: Any) -> None:
            (exact if event.kind == "exact" else wdl)[event.column] = event.value
            if event.kind == "exact" or event.value == 0:
                wdl[event.column] = (event.value > 0) - (event.value < 0)
            found = partial_analysis(game, state, actions, wdl, exact, event.seconds)
            plain, rich = score_row(game, state, found)
            live.update(f"{agent.spec} is thinking: {plain.splitlines()[1].strip()}", rich)

        seconds = agent.limits.time if agent.limits.time is not None else min(MOVE_TIME, session.solver_time)
        played = engine_move(game, state, agent, lambda g, s: search_within(g, s, seconds, report))
    return played, ""
