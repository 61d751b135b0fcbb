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
to a file or a pipe, or as a scrolling log on a terminal (``--log``, ``TERM=dumb``: :func:`_scrolls`), only the
final result is printed.

No wait on a terminal is silent: after a second without news the line under the rows says what the wait is
(:func:`~.terminal_waits.waiting_words`, fitted to the terminal's width): the preparation the wait needs while
its compiled code is still loading or compiling (``preparing the engine (the solver's search), first run only:
compiling for 12 s, about 30 s more``), else who is thinking and for how long.  The compiled code a search
needs is prepared in the background from the game's start (:mod:`zerosum.agents.prepare`); an engine's move
waits for it first, so it searches at full strength (a move the opening book answers needs none) -- but an
engine with a time limit keeps to it, the loading counted in (:func:`think`) -- and a hint waits for the
solver's at most ``solver_time`` seconds in all, then alpha-beta answers (:func:`show_hint`).  A time shown
is the search's, followed by the wait for its code when there was one to say (``after 12 s preparing the
engine``).  Meanwhile a terminal's keys are read: ``q`` or Ctrl-D ends the game at once
(:func:`~.terminal_view.while_keys`).
"""

from __future__ import annotations

import os
import time as _time
from typing import Any, Callable

from rich.markup import escape
from rich.text import Text

from ..agents.base import Agent
from ..core.words import describe_value, distance_legend, estimate_words
from ..agents.prepare import MESSAGE_AFTER, preparing, seconds, settle, steps_of, warm
from ..agents.traits import ValueUnit
from ..errors import GameError
from ..game import Game
from ..values import is_proven
from ..analysis import service
from .analysis import MOVE_TIME, Analysis, EngineMove, engine_move
from .terminal_view import while_keys
from .terminal_waits import TICK, LiveRow, waiting_words

__all__ = ["LiveRow", "Line", "hint_analysis", "show_hint", "format_hints", "format_move", "think", "value_words",
           "from_book",
           "waiting_words", "TICK"]

#: a line of text: plain, and rich markup (escaped) for colour
Line = tuple[str, str]

STYLE_HEADER, STYLE_DIM = "bold cyan", "grey50"


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


def _after(prepared: float) -> str:
    """The words for a wait on an engine's compiled code before it searched (``prepared`` seconds), when the
    wait was long enough to be said on screen: the time a hint or a move shows is its search's, and says so."""
    return f", after {seconds(prepared)} preparing the engine" if prepared >= MESSAGE_AFTER else ""


def format_hints(game: Game[Any, Any], state: Any, found: Analysis, *, ply: int | None = None,
                 headline: bool = True, prepared: float = 0.0) -> list[Line]:
    """The hint for ``found`` as ``(plain, rich markup)`` lines: a headline (who answered, exact or estimate,
    the best move, time and nodes), one row per legal move in ``game.actions`` order with its value, the best
    marked, then the legend of what is shown (distances in moves; what ``est.`` means).  ``ply``: the
    position's ply, to say when the answer came from the opening book; ``prepared``: the seconds the engine's
    compiled code was waited for before it searched (:func:`_after`).  The engine's own note last."""
    lines: list[Line] = []
    actions = game.actions(state)
    exact = found.exact or (found.done and not any(found.estimate(a) for a in actions))
    if headline:
        kind = "exact" if exact else "estimates" if found.done else "partial"
        engine = f"{found.engine} ({kind})"
        stats = f"{found.elapsed:.2f} s" + (f", {found.nodes:,} nodes" if found.nodes else "")
        if ply is not None and from_book(game, ply, found.nodes, exact):
            stats += ", from the opening book"
        stats += _after(prepared)
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
        legend = distance_legend(game)
        lines.append((f"({legend})", f"[{STYLE_DIM}]({legend})[/]"))
    if any(found.estimate(a) for a in actions):
        unit = f"est.: {found.engine}'s heuristic estimate; + favours the mover; not a proof"
        lines.append((f"({unit})", f"[{STYLE_DIM}]({escape(unit)})[/]"))
    if found.note:
        lines.append((f"({found.note})", f"({escape(found.note)})"))
    return lines


def format_move(game: Game[Any, Any], agent: Agent, played: EngineMove, *, who: Line | None = None,
                ply: int | None = None, prepared: float = 0.0) -> Line:
    """The engine's move line: ``O (solver) plays 4: loss in 20 moves (exact, from the opening book), 0.01 s.``
    or ``O (alphabeta:depth=3) plays 4: +0.35 est. (alphabeta depth 3 estimate), 1,234 nodes, 0.05 s.``
    ``who``: who plays, plain and rich (default: the agent's spec); ``ply``: the position's ply, to say when
    the move came from the opening book; ``prepared``: the seconds its compiled code was waited for before it
    searched (:func:`_after`: the time shown is the search's)."""
    move = game.format_action(played.action)
    who = who or (agent.spec, escape(agent.spec))
    plain, rich = f"{who[0]} plays {move}", f"{who[1]} plays [bold]{escape(move)}[/]"
    found, after = played.found, _after(prepared)
    if found is None:
        return plain + f" ({played.elapsed:.2f} s{after}).", rich + f" [dim]({played.elapsed:.2f} s{after})[/]."
    effort = f"{found.nodes:,} {agent.TRAITS.counts}, {played.elapsed:.2f} s{after}"  # what its count counts
    if "nodes" in found.unknown:  # an external engine that reported none
        effort = f"{played.elapsed:.2f} s{after}"
    if "value" in found.unknown and not played.proof:  # nor a score: no words for one
        return plain + f" ({effort}).", rich + f" [dim]({effort})[/]."
    if played.proof:  # proven in win/draw/loss only
        said, how = played.proof, "exact win/draw/loss"
    elif played.fallback:  # another search chose it for the agent: its estimate, and why
        said, how = estimate_words(found.value), played.fallback
    elif played.exact:
        said, how = describe_value(found.value, True, marked=False), "exact"  # as SearchResult.describe() says
        if ply is not None and from_book(game, ply, found.nodes, True):
            how, effort = "exact, from the opening book", f"{played.elapsed:.2f} s{after}"
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


def _progress(game: Game[Any, Any], state: Any, found: Analysis, what: str,
              seconds: float | None = None) -> tuple[str, Any]:
    """The analysis so far: a one-line count in plain text, the hint's rows in colour; ``seconds``: the wall
    time it took so far, when ``found.elapsed`` is not (a search on several threads adds up theirs)."""
    actions = game.actions(state)
    proven = sum(a in found.values for a in actions)
    plain = f"{what}: {proven} of {len(actions)} moves proven ({found.elapsed if seconds is None else seconds:.1f} s)"
    rows = format_hints(game, state, found, headline=False)
    return plain, Text.from_markup("\n".join([escape(plain), *(r for _, r in rows)]))


def _scrolls(session: Any) -> bool:
    """Whether ``session`` is a scrolling log on a terminal (``--log``, ``TERM=dumb``): its analysis filling
    in is not redrawn there (no cursor movement), its result printed once (docs/terminal.md)."""
    settings = getattr(session, "settings", None)
    return bool(getattr(settings, "log", False)) or os.environ.get("TERM", "") == "dumb"


def _ignored(typed: list[str], who: str) -> str:
    """The note on lines typed while ``who`` prepared or thought (:func:`~.terminal_view.while_keys`)."""
    return (f"ignored {', '.join(repr(t) for t in typed)}: typed while {who}; type it at the prompt "
            "(q quits at once, even then)") if typed else ""


def _fallback(session: Any, needs: list[Any]) -> Analysis:
    """The hint when the solver's compiled code is still compiling after ``solver_time`` seconds (a first run):
    alpha-beta's estimates for ``hint_time`` seconds, saying why, in the name of what was compiling then -- the
    solver's own step, or one it waited behind (alpha-beta's kernel, on a board past 64 bits: not "the solver's
    tables", which had not begun) -- while the compile goes on in the background."""
    under_way = preparing(needs)  # now, before alpha-beta's search: what the hint gave up waiting for
    what = under_way.label if under_way is not None else next((s.label for s in needs if not s.ready),
                                                              "the engine's code")
    ahead = "" if under_way is None or under_way in needs else " (the solver's code waits behind it)"
    found = service(session.game).analyse(session.state, use_solver=False, time=session.hint_time)
    found.note = (f"first run: {what} was still compiling{ahead} after --solver-time {session.solver_time:g} s, "
                  "so alpha-beta estimated")
    return found


def show_hint(session: Any) -> None:
    """The ``h`` key: the analysis filling in, then the hint (:func:`format_hints`).  ``q`` typed meanwhile
    ends the game (:class:`~.terminal_view.Quit`).  The solver's compiled code is waited for first (it loads
    in about a second, started with the game), but on a first run, whose compile takes longer, for at most
    ``solver_time`` seconds in all: then alpha-beta answers (:func:`_fallback`); the hint's time says how long
    its engine's preparation took besides its search (its code waited for, a first hint's solver made, even
    where the opening book answers), when that was said on screen."""
    game, state, say = session.game, session.state, session.say
    solver = game.traits.solver  # the solver's analysis fills in as it goes
    hint_agent = getattr(session, "hint_agent", None)  # the engine that answers hints: its code first
    needs = steps_of(hint_agent, game, state) if hint_agent is not None else []
    typed: list[str] = []
    began, prepared = _time.perf_counter(), [0.0]
    with LiveRow(session.output, idle="analysing", needs=needs, log=_scrolls(session)) as live:
        def report(found: Analysis) -> None:
            live.update(*_progress(game, state, found, "analysing"))

        def work() -> Analysis:
            compiled = settle(needs, began + session.solver_time) if solver else True
            if not solver:  # alpha-beta answers: its code first, as before a move
                warm(needs)
            prepared[0] = _time.perf_counter() - began
            if not compiled:  # a first run: the solver's compile outlasts the hint's time for it
                live.turn("alpha-beta is estimating", [])
                return _fallback(session, needs)
            left = session.solver_time - prepared[0] if solver and needs else session.solver_time
            found: Analysis = session.analyzer(game, state, time=session.hint_time, solver_time=max(left, 0.01),
                                               report=report if solver else None)
            # the wait outside its search said too: a first hint's solver made (its code loaded, its book read)
            prepared[0] = max(prepared[0], _time.perf_counter() - began - found.elapsed)
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
    for plain, rich in format_hints(game, state, found, ply=len(session.actions), prepared=prepared[0]):
        say(plain, rich)


def think(session: Any, agent: Agent) -> tuple[EngineMove, str, float]:
    """``agent``'s move, a note ("" normally; the lines a person typed meanwhile, ignored) and the seconds its
    compiled code was waited for before it searched.  An agent that can show its analysis as it goes (the
    solver: ``search_within``) thinks here, its moves filling in on a terminal, and takes at most ``MOVE_TIME``
    seconds (or ``solver_time`` when smaller) for the exact distance once its move is proven; others think as
    :func:`~zerosum.ui.analysis.engine_move` lets them (behind a spinner on a terminal).  An agent with a time
    limit keeps to it, its compiled code's loading counted in (on a first run it searches on the generic path
    while the code compiles, as it does from Python: docs/agents.md); another first waits for its compiled
    code, so it searches at full strength (none where the opening book answers), the wait said as such.  On a
    terminal the keys are read meanwhile: ``q`` or Ctrl-D ends the game at once
    (:class:`~.terminal_view.Quit`; :func:`~.terminal_view.while_keys`)."""
    game, state = session.game, session.state
    search_within = getattr(agent, "search_within", None)
    solving = search_within is not None and game.traits.solver
    timed = not solving and getattr(getattr(agent, "limits", None), "time", None) is not None
    needs, typed, prepared = steps_of(agent, game, state), list[str](), [0.0]
    with LiveRow(session.output, idle=f"{agent.spec} is thinking", needs=[] if timed else needs,
                 log=_scrolls(session)) as live:
        def work() -> EngineMove:
            if not timed:  # a timed search waits for its code within its own limit (prepare.settle_search)
                began = _time.perf_counter()
                warm(needs)
                prepared[0] = _time.perf_counter() - began
            if not solving or search_within is None:
                return engine_move(game, state, agent)
            follow = service(game).follower(state)  # the agent's results, as the analysis they add up to
            began = _time.perf_counter()

            def report(event: Any) -> None:  # the time on the clock: an event's seconds add up the threads'
                live.update(*_progress(game, state, follow(event), f"{agent.spec} is thinking",
                                       _time.perf_counter() - began))

            seconds = agent.limits.time if agent.limits.time is not None else min(MOVE_TIME, session.solver_time)
            return engine_move(game, state, agent, lambda g, s: search_within(g, s, seconds, report))

        played = while_keys(work, getattr(session, "keys", None), typed)
    return played, _ignored(typed, f"{agent.spec} was thinking"), prepared[0]
