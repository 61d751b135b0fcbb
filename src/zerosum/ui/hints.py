"""How the terminal speaks of values: hints, the engine's move line, and the thinking shown as it fills in.

One format for every engine and every game, in the one vocabulary of :mod:`zerosum.core.words`:

- **exact** values are words with a distance: ``win in 7 moves``, ``draw``, ``loss in 12 moves`` (or
  ``win (distance not yet proven)`` for a move proven only in win/draw/loss);
- **estimates** are signed numbers marked ``est.``: ``+0.35 est.``, with what they are said once
  (``est.: alphabeta:time=1's heuristic estimate ...``; an engine's move line says the unit its agent
  declares, :class:`~zerosum.agents.traits.ValueUnit`: MCTS's mean result of its simulations, -1..+1).

**Distances count moves, not plies**: the moves of the side concerned
(:func:`~zerosum.core.words.moves_to_end`).  A win in 3 moves is the mover's third move from now; a loss in 3
moves is the opponent's third move from now (the side to move makes 3 moves before it).  A position's first
player wins the empty 7 x 6 board in 21 moves.

:func:`format_hints` is the hint (a headline, one row per legal move in the game's order, then the legend)
as ``(plain, rich markup)`` lines, for any :class:`~zerosum.ui.analysis.Analysis`; :func:`format_move` is the
engine's move line.  On a terminal the rows are redrawn in place while the solver proves each move; written
to a file or a pipe, only the final result is printed.

No wait on a terminal is silent: after a second without news the line under the rows says what the wait is
(:func:`waiting_words`): the preparation the wait needs while its compiled code is still loading or
compiling (``preparing the engine (the solver's search), first run only: compiling for 12 s, about 30 s
more``), else who is thinking and for how long.  The engine's move and a hint first wait for the compiled
code they need (:mod:`zerosum.agents.prepare`, started in the background when the game starts), so they
search at full strength once it is there; a move the opening book answers needs none.  Meanwhile a
terminal's keys are read: ``q`` or Ctrl-D ends the game at once (:func:`~.terminal_view.while_keys`).
"""

from __future__ import annotations

import threading
import time as _time
from typing import Any, Callable

from rich.markup import escape
from rich.text import Text

from ..agents.base import Agent
from ..core.words import DISTANCE_LEGEND, describe_value, estimate_words
from ..agents.prepare import MESSAGE_AFTER, Step, pending, seconds, status, steps_of, warm
from ..agents.traits import ValueUnit
from ..errors import GameError
from ..game import Game
from ..values import is_proven
from ..analysis import service
from .analysis import MOVE_TIME, Analysis, EngineMove, engine_move
from .terminal_view import while_keys

__all__ = ["LiveRow", "Line", "hint_analysis", "show_hint", "format_hints", "format_move", "think", "value_words",
           "from_book",
           "waiting_words", "TICK"]

#: a line of text: plain, and rich markup (escaped) for colour
Line = tuple[str, str]

STYLE_HEADER, STYLE_DIM = "bold cyan", "grey50"
#: seconds between two looks at a wait (a line that says what it is, once it passes ``MESSAGE_AFTER``)
TICK = 0.2


def waiting_words(what: str, since: float, now: float | None = None, needs: list[Step] | None = None) -> str:
    """What a person has waited for since ``since``: the preparation of what the wait ``needs`` (None: any)
    while it runs (:func:`zerosum.agents.prepare.status`), else ``what`` and the seconds so far (``solver is
    thinking: 3 s``), saying when a compile for later runs meanwhile (it slows the machine)."""
    now = _time.perf_counter() if now is None else now
    said = status(since, now, needs)
    if said is not None:
        return said
    other = [s for s in pending() if s.running and s.key != "numba" and now - (s.started or now) > MESSAGE_AFTER]
    later = f" (meanwhile {other[0].label} is being prepared for later)" if other and needs is not None else ""
    return f"{what}: {seconds(now - since)}{later}"


def value_words(found: Analysis, action: Any) -> str:
    """``action``'s value in ``found``: exact words, an estimate (:meth:`Analysis.words`), or ``not yet
    proven``."""
    return found.words(action) or "not yet proven"


def _style(found: Analysis, action: Any) -> str:
    value = found.values.get(action)
    if value is None:
        return STYLE_DIM
    colour = "green" if value > 0 else "red" if value < 0 else "white"
    return f"italic {colour}" if found.estimate(action) else f"bold {colour}"


def from_book(game: Game[Any, Any], ply: int, nodes: int, exact: bool) -> bool:
    """Whether an exact answer with no nodes searched at ``ply`` came from the solver's opening book (the
    position's moves all lie within the book's depth: the analysis service says), rather than a search."""
    if not exact or nodes:
        return False
    depth = service(game).book_depth  # the solver's own book, read without its compiled code
    return depth is not None and ply + 1 <= depth


def _proven_best(found: Analysis) -> bool:
    return found.best is not None and (found.done or found.values.get(found.best, 0) > 0)


def format_hints(game: Game[Any, Any], state: Any, found: Analysis, *, ply: int | None = None,
                 headline: bool = True) -> list[Line]:
    """The hint for ``found`` as ``(plain, rich markup)`` lines: a headline (who answered, exact or estimate,
    the best move, time and nodes), one row per legal move in ``game.actions`` order with its value, the best
    marked, then the legend of what is shown (distances in moves; what ``est.`` means).  ``ply``: the
    position's ply, to say when the answer came from the opening book.  The engine's own note last."""
    lines: list[Line] = []
    actions = game.actions(state)
    exact = found.exact or (found.done and not any(found.estimate(a) for a in actions))
    if headline:
        kind = "exact" if exact else "estimates" if found.done else "partial"
        engine = f"{found.engine} ({kind})"
        stats = f"{found.elapsed:.2f} s" + (f", {found.nodes:,} nodes" if found.nodes else "")
        if ply is not None and from_book(game, ply, found.nodes, exact):
            stats += ", from the opening book"
        if not _proven_best(found):
            head = "so far nothing is proven better than the rest"
            lines.append((f"Hint from {engine}: {head}; {stats}.",
                          f"[bold]Hint[/] from {escape(engine)}: {head}; [dim]{stats}[/]."))
        else:
            best, said = game.format_action(found.best), value_words(found, found.best)
            lines.append((f"Hint from {engine}: play {best}, {said}; {stats}.",
                          f"[bold]Hint[/] from {escape(engine)}: play [bold green]{escape(best)}[/], "
                          f"{escape(said)}; [dim]{stats}[/]."))
    width = max([4, *(len(game.format_action(a)) for a in actions)])
    lines.append((f"  {'move'.rjust(width)}  value", f"[{STYLE_HEADER}]  {'move'.rjust(width)}  value[/]"))
    for a in actions:
        name, said = game.format_action(a).rjust(width), value_words(found, a)
        mark = "  <- best" if a == found.best and _proven_best(found) else ""
        lines.append((f"  {name}  {said}{mark}",
                      f"  [{STYLE_HEADER}]{escape(name)}[/]  [{_style(found, a)}]{escape(said)}[/]{mark}"))
    if any(a in found.values and a not in found.classes and is_proven(found.values[a]) for a in actions):
        lines.append((f"({DISTANCE_LEGEND})", f"[{STYLE_DIM}]({DISTANCE_LEGEND})[/]"))
    if any(found.estimate(a) for a in actions):
        unit = f"est.: {found.engine}'s heuristic estimate; + favours the mover; not a proof"
        lines.append((f"({unit})", f"[{STYLE_DIM}]({escape(unit)})[/]"))
    if found.note:
        lines.append((f"({found.note})", f"({escape(found.note)})"))
    return lines


def format_move(game: Game[Any, Any], agent: Agent, played: EngineMove, *, who: Line | None = None,
                ply: int | None = None) -> Line:
    """The engine's move line: ``O (solver) plays 4: loss in 20 moves (exact, from the opening book), 0.01 s.``
    or ``O (alphabeta:depth=3) plays 4: +0.35 est. (alphabeta depth 3 estimate), 1,234 nodes, 0.05 s.``
    ``who``: who plays, plain and rich (default: the agent's spec); ``ply``: the position's ply, to say when
    the move came from the opening book."""
    move = game.format_action(played.action)
    who = who or (agent.spec, escape(agent.spec))
    plain, rich = f"{who[0]} plays {move}", f"{who[1]} plays [bold]{escape(move)}[/]"
    found = played.found
    if found is None:
        return plain + f" ({played.elapsed:.2f} s).", rich + f" [dim]({played.elapsed:.2f} s)[/]."
    effort = f"{found.nodes:,} {agent.TRAITS.counts}, {played.elapsed:.2f} s"  # what its count counts, as it says
    if "nodes" in found.unknown:  # an external engine that reported none
        effort = f"{played.elapsed:.2f} s"
    if "value" in found.unknown and not played.proof:  # nor a score: no words for one
        return plain + f" ({effort}).", rich + f" [dim]({effort})[/]."
    if played.proof:  # proven in win/draw/loss only
        said, how = played.proof, "exact win/draw/loss"
    elif played.fallback:  # another search chose it for the agent: its estimate, and why
        said, how = estimate_words(found.value), played.fallback
    elif played.exact:
        said, how = describe_value(found.value, True, marked=False), "exact"  # as SearchResult.describe() says
        if ply is not None and from_book(game, ply, found.nodes, True):
            how, effort = "exact, from the opening book", f"{played.elapsed:.2f} s"
    else:
        said = estimate_words(found.value)
        traits = agent.TRAITS  # the unit of its values, as the agent declares it
        name = str(getattr(agent, "name", "") or agent.spec)
        how = (traits.values or ValueUnit()).describe(name=name, label=traits.label or name, spec=agent.spec,
                                                      depth=found.depth, nodes=found.nodes)
    return (f"{plain}: {said} ({how}), {effort}.",
            f"{rich}: [bold]{escape(said)}[/] ({escape(how)}), [dim]{effort}[/].")


def hint_analysis(game: Game[Any, Any], state: Any, *, time: float, solver_time: float,
                  report: Callable[[Analysis], None] | None = None) -> Analysis:
    """A hint's analysis: the solver's, filling in for at most ``solver_time`` seconds (what it proved by then),
    else alpha-beta's for ``time`` seconds (the analysis service: :mod:`zerosum.analysis`)."""
    return service(game).analyse(state, seconds=solver_time, on_update=report, time=time)


class LiveRow:
    """Lines redrawn in place on a terminal (rich's ``Live`` in colour, a carriage return in plain text);
    nothing at all elsewhere (a file or a pipe gets the final result only, printed by the caller).

    ``idle``: what the wait is (``solver is thinking``); after ``MESSAGE_AFTER`` seconds without an update a
    line says so, with the seconds waited (:func:`waiting_words`), refreshed every ``TICK`` seconds by a
    thread of its own -- it speaks while the one that updates is busy (loading compiled code, searching)."""

    def __init__(self, output: Any, idle: str | None = None, needs: list[Step] | None = None) -> None:
        self.output, self.needs = output, needs  # needs: the preparation the wait is for (None: any)
        out = output.out
        self.live_ok = bool(getattr(out, "isatty", None) and out.isatty())
        self.idle = idle
        self._live: Any = None
        self._width = 0
        self._lock = threading.Lock()
        self._shown: tuple[str, Any] = ("", None)  # the last update: plain text, rich renderable
        self._since = self._news = _time.perf_counter()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __enter__(self) -> "LiveRow":
        if self.live_ok and self.output.console is not None:
            from rich.live import Live

            self._live = Live(Text(""), console=self.output.console, transient=True, auto_refresh=False)
            self._live.__enter__()
        if self.live_ok and self.idle is not None:
            self._ticker = threading.Thread(target=self._tick, name="zerosum-waiting", daemon=True)
            self._ticker.start()
        return self

    def update(self, plain: str, rich: Any = None) -> None:
        with self._lock:
            self._shown, self._news = (plain, rich), _time.perf_counter()
            self._draw(plain, rich)

    def _draw(self, plain: str, rich: Any, note: str = "") -> None:
        """Show ``plain`` (``rich`` in colour), with ``note`` under it; the caller holds the lock."""
        if not self.live_ok:
            return
        if self._live is not None:
            body = rich if rich is not None else Text(plain)
            if note:
                body = Text.assemble(*([body, "\n"] if plain else []), (note, STYLE_DIM))
            self._live.update(body, refresh=True)
            return
        line = (note or plain).splitlines()[0][:79] if note or plain else ""
        self.output.out.write("\r" + line.ljust(self._width))
        self._width = len(line)
        self.output.out.flush()

    def _tick(self) -> None:
        assert self.idle is not None
        while not self._stop.wait(TICK):
            now = _time.perf_counter()
            if now - self._news >= MESSAGE_AFTER:
                note = waiting_words(self.idle, self._since, now, self.needs)
                with self._lock:
                    if not self._stop.is_set():
                        self._draw(*self._shown, note=note)

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._live is not None:
            self._live.__exit__(*exc)
        elif self.live_ok and self._width:
            self.output.out.write("\r" + " " * self._width + "\r")
            self.output.out.flush()


def _progress(game: Game[Any, Any], state: Any, found: Analysis, what: str) -> tuple[str, Any]:
    """The analysis so far: a one-line count in plain text, the hint's rows in colour."""
    actions = game.actions(state)
    proven = sum(a in found.values for a in actions)
    plain = f"{what}: {proven} of {len(actions)} moves proven ({found.elapsed:.1f} s)"
    rows = format_hints(game, state, found, headline=False)
    return plain, Text.from_markup("\n".join([escape(plain), *(r for _, r in rows)]))


def _ignored(typed: list[str], who: str) -> str:
    """The note on lines typed while ``who`` prepared or thought (:func:`~.terminal_view.while_keys`)."""
    return (f"ignored {', '.join(repr(t) for t in typed)}: typed while {who}; type it at the prompt "
            "(q quits at once, even then)") if typed else ""


def show_hint(session: Any) -> None:
    """The ``h`` key: the analysis filling in, then the hint (:func:`format_hints`).  ``q`` typed meanwhile
    ends the game (:class:`~.terminal_view.Quit`)."""
    game, state, say = session.game, session.state, session.say
    solver = game.traits.solver  # the solver's analysis fills in as it goes
    hint_agent = getattr(session, "hint_agent", None)  # the engine that answers hints: its code first
    needs = steps_of(hint_agent, game, state) if hint_agent is not None else []
    typed: list[str] = []
    with LiveRow(session.output, idle="analysing", needs=needs) as live:
        def report(found: Analysis) -> None:
            live.update(*_progress(game, state, found, "analysing"))

        def work() -> Analysis:
            warm(needs)
            found: Analysis = session.analyzer(game, state, time=session.hint_time, solver_time=session.solver_time,
                                               report=report if solver else None)
            return found

        try:
            found = while_keys(work, getattr(session, "keys", None), typed)
        except GameError as exc:
            say(f"No hint: {exc}.")
            return
    if typed:
        say(f"({_ignored(typed, 'the hint was worked out')})")
    if not found.engine:
        say(f"No hint: {found.note}.")
        return
    for plain, rich in format_hints(game, state, found, ply=len(session.actions)):
        say(plain, rich)


def think(session: Any, agent: Agent) -> tuple[EngineMove, str]:
    """``agent``'s move and a note ("" normally; the lines a person typed meanwhile, ignored).  An agent that
    can show its analysis as it goes (the solver: ``search_within``) thinks here, its moves filling in on a
    terminal, and takes at most ``MOVE_TIME`` seconds (or ``solver_time`` when smaller) for the exact distance
    once its move is proven; others think as :func:`~zerosum.ui.analysis.engine_move` lets them (behind a
    spinner on a terminal).  First its compiled code, so it searches at full strength (none where the opening
    book answers).  On a terminal the keys are read meanwhile: ``q`` or Ctrl-D ends the game at once
    (:class:`~.terminal_view.Quit`; :func:`~.terminal_view.while_keys`)."""
    game, state = session.game, session.state
    search_within = getattr(agent, "search_within", None)
    needs, typed = steps_of(agent, game, state), list[str]()
    with LiveRow(session.output, idle=f"{agent.spec} is thinking", needs=needs) as live:
        def work() -> EngineMove:
            warm(needs)
            if search_within is None or not game.traits.solver:
                return engine_move(game, state, agent)
            follow = service(game).follower(state)  # the agent's results, as the analysis they add up to

            def report(event: Any) -> None:
                live.update(*_progress(game, state, follow(event), f"{agent.spec} is thinking"))

            seconds = agent.limits.time if agent.limits.time is not None else min(MOVE_TIME, session.solver_time)
            return engine_move(game, state, agent, lambda g, s: search_within(g, s, seconds, report))

        played = while_keys(work, getattr(session, "keys", None), typed)
    return played, _ignored(typed, f"{agent.spec} was thinking")
