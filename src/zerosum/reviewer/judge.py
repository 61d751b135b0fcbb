"""Judging moves: :class:`Mark` (one move's verdict) and :func:`marks`, which yields each move's mark as soon as
it is known, from the analysis service (:mod:`zerosum.analysis`: exact where the solver takes the game) or from
a named engine's estimates.

The classes (values from the mover's view, before the move: the position's value, its best move's; after: the
value of the move played):

- ``best``: the move keeps the value (the same result, as fast a win or as slow a loss as the best move);
- ``good``: it keeps the result (win, draw or loss) but wins more slowly or loses sooner, by :attr:`Mark.slower`
  moves;
- ``mistake``: a win becomes a draw, or a draw a loss;
- ``blunder``: a win becomes a loss.

A move is an *only move* (:attr:`Mark.only`) when it keeps the result and no other legal move does.  With
estimates a value's result is its proven sign where a search proved it and "open" (counted as a draw) otherwise,
so only proven wins and losses make mistakes and blunders; every mark says whether it is exact
(:attr:`Mark.exact`).  A blunder by estimates is proven (a proven win to a proven loss), a mistake is not
(:attr:`Mark.proven`): a proven win to an open value (the win may be kept: past the solver's reach a short win
is often proven before a move and not after it), or an open value to a proven loss (it may have been lost
already).  Such a mistake says so (``mistake (not proven)``), takes PGN's ``?!`` (dubious) rather than ``?``,
and is no player's first decisive error.

A mark agrees with the next row: the position a move leads to, valued for the next row anyway, is valued before
the move is classified, and where it is proven (the next row's ``before`` exact) the move's value is that one,
seen from the mover, though the move's own position was not proven in time.  Where the solver runs out of its
time a position, the moves it proved by then keep their exact values; only the others are estimated.
"""

from __future__ import annotations

import time as _time
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Sequence

from ..agents.base import MAX_TIME as AGENT_MAX_TIME
from ..analysis import REACH, SOLVER_NAME, Analysis, service
from ..analysis.estimate import child_values
from ..analysis.result import best_action, centre_order
from ..game import Game
from ..values import is_proven, to_parent
from .mark import CLASSES, Mark, classify, result_of

__all__ = ["Mark", "Doing", "marks", "proves", "classify", "result_of", "CLASSES", "LINE", "SOLVER_TIME",
           "MAX_TIME"]

#: plies of the line shown after a move that is not the best (the refutation)
LINE = 8
#: seconds the solver gets a position on a board without an opening book (past them: an estimate)
SOLVER_TIME = 10.0
#: the most seconds of either time a position (``seconds``, ``solver_time``; ``--time``, ``--solver-time``): an
#: agent's own bound on a move, as ``zerosum play --solver-time``'s
MAX_TIME = AGENT_MAX_TIME


@dataclass
class Doing:
    """What the judge is doing, for a face that says a long wait (:func:`.text.wait_words`): the ply being
    judged (0 between marks), since when (``time.perf_counter()``), whether it is the refutation ``line`` of
    that move, and the ``search`` under way in words (``the solver (at most 10 s a position)``)."""

    ply: int = 0
    since: float = 0.0
    line: bool = False
    search: str = ""


class _Judge:
    """Every position's values, by the solver (through the analysis service) or by an engine's estimates; each
    position valued once (the refutation lines and the game's next move meet in the cache)."""

    def __init__(self, game: Game[Any, Any], agent: Any, seconds: float, threads: int | None,
                 solver_time: float | None = SOLVER_TIME, doing: Doing | None = None) -> None:
        self.game, self.agent, self.seconds, self.threads = game, agent, seconds, threads
        self.doing = Doing() if doing is None else doing
        self.service = service(game)
        named = None
        if agent is not None and proves(game, agent):  # the solver agent: the service's solver judges for it
            named, self.agent = getattr(agent, "spec", None) or type(agent).__name__, None
        self.exact = self.agent is None and self.service.solves
        #: without an opening book the solver may not prove an early position in any time: it gets
        #: ``solver_time`` seconds a position, and a position it does not prove is estimated
        self.solver_time = solver_time if self.exact and self.service.book_depth is None else None
        #: the first ply (counted from 1, as marks are) the solver judges: past 64 bits it is not asked about a
        #: position with more than REACH empty cells (hours of proof), so the position before it (REACH + 1
        #: empty cells) is judged by its moves' positions, each within reach (:meth:`_by_children`), and those
        #: before by alpha-beta's estimates
        self.reach = 1
        if self.solver_time is not None and not getattr(game, "fits_64", True):
            self.reach = max(1, game.cells - REACH)  # type: ignore[attr-defined]
        self.engine = named or (SOLVER_NAME if self.exact else getattr(agent, "spec", None) or type(agent).__name__)
        if self.solver_time is not None and self.reach > 1:
            self.engine += (f" from ply {self.reach}, at most {self.solver_time:g} s a position (then alpha-beta's "
                            f"estimates); before ply {self.reach}, alpha-beta's estimates (about {seconds:g} s a "
                            "position)")
        elif self.solver_time is not None:
            self.engine += (f" (at most {self.solver_time:g} s a position, then alpha-beta's estimates, about "
                            f"{seconds:g} s a position)")
        self._cache: dict[Any, Analysis] = {}
        self._agents: dict[int, Any] = {}  # the default estimator, by the moves it shares its time among
        if agent is None and not self.exact:
            self.engine = f"alphabeta (about {seconds:g} s a position, shared among its moves)"

    def estimator(self, state: Any) -> Any:
        """The engine that estimates ``state``'s moves: the named agent, else alpha-beta with the time a
        position shared among its moves (at least 0.01 s a move)."""
        if self.agent is not None:
            return self.agent
        moves = max(1, len(self.game.actions(state)))
        if moves not in self._agents:
            from ..agents.registry import make_agent

            self._agents[moves] = make_agent(f"alphabeta:time={max(self.seconds / moves, 0.01):.3g}")
        return self._agents[moves]

    def values(self, state: Any) -> Analysis:
        """Every legal move's value at ``state`` (not over)."""
        found = self._cache.get(state)
        if found is None:
            timed = f" (at most {self.solver_time:g} s a position)" if self.solver_time is not None else ""
            self.doing.search = f"{SOLVER_NAME}{timed}" if self.exact else self._estimating()
            if self.exact and self.solver_time is None:
                found = self.service.analyse(state, threads=self.threads)
            elif self.exact and self.service.reaches(state):
                found = self.service.analyse(state, threads=self.threads, seconds=self.solver_time)
            elif self.exact and state.ply + 1 >= self.reach:  # each move's position is within the solver's reach
                found = self._by_children(state, self.solver_time or 0.0)
            if found is None or not found.done:  # an engine's estimates (within ``seconds``): the solver was not
                # asked (out of its reach), or ran out of time (the moves it proved keep their exact values)
                found = self._estimated(state, found)
            self._cache[state] = found
        return found

    def _estimated(self, state: Any, cut: Analysis | None) -> Analysis:
        """``state``'s moves valued by the estimating engine, but for those the solver proved in ``cut`` (an
        analysis it did not finish, or None), whose exact values are kept (:attr:`Analysis.exact_moves`)."""
        self.doing.search = self._estimating()
        actions = self.game.actions(state)
        kept = {a: cut.values[a] for a in actions if a in cut.exact_moves} if cut is not None else {}
        values, exact, nodes = child_values(self.game, state, [a for a in actions if a not in kept],
                                            self.estimator(state))
        values = {a: kept[a] if a in kept else values[a] for a in actions}
        best = best_action(values, centre_order(self.game, state, actions))
        return Analysis(self.engine, exact or all(a in kept or is_proven(v) for a, v in values.items()),
                        dict(values), dict(values), best, nodes, exact_moves=set(kept))

    def settled(self, states: Sequence[Any], actions: Sequence[Any], i: int, line: int) -> Analysis:
        """The analysis that judges ``actions[i]`` (``line``: the plies of its refutation): ``states[i]``'s, the
        move valued by the proven value of the position it leads to, seen from the mover, where its own value is
        not exact and that position is valued anyway (:meth:`_waits`), as the next row values it (settled first
        where its own move is all it lacks to be exact): so the mark agrees with the next row."""
        rows: list[int] = []
        j = i
        while self._waits(states, actions, j, line):
            rows.append(j)
            known = self.values(states[j + 1])
            if known.exact or j + 1 == len(actions) or not _exact_but(known, actions[j + 1]):
                break
            j += 1
        for j in reversed(rows):
            found, known = self.values(states[j]), self.values(states[j + 1])
            if known.exact and known.value is not None:
                values = {**found.values, actions[j]: float(to_parent(int(known.value)))}
                self._cache[states[j]] = replace(
                    found, exact=_exact_but(found, actions[j]), values=values, scores={**found.scores, **values},
                    exact_moves=found.exact_moves | {actions[j]},
                    best=best_action(values, centre_order(self.game, states[j], list(values))))
        return self.values(states[i])

    def _waits(self, states: Sequence[Any], actions: Sequence[Any], j: int, line: int) -> bool:
        """Whether the mark of ``actions[j]`` waits for the value of the position it leads to: the move's own is
        not exact, and that position is valued anyway (by the next row; after the game's last move, by the first
        step of the refutation line, which values positions where the solver has a time a position)."""
        found, action = self.values(states[j]), actions[j]
        if found.exact or action in found.exact_moves or self.game.is_terminal(states[j + 1]):
            return False
        return j + 1 < len(actions) or bool(line and self.solver_time is not None and
                                            classify(found.values[found.best], found.values[action]) != "best")

    def _estimating(self) -> str:
        """The estimates under way, in words (:class:`Doing`)."""
        if self.agent is None:
            return f"alpha-beta's estimates (about {self.seconds:g} s a position)"
        return f"{getattr(self.agent, 'spec', None) or type(self.agent).__name__}'s estimates"

    def _by_children(self, state: Any, seconds: float) -> Analysis:
        """The solver's analysis of ``state``, one ply out of its reach (REACH + 1 empty cells): every move's
        exact score is its position's, and each of those is within reach (the next mark's own position among
        them), proven within ``seconds`` in all, as a position within reach is; not ``done`` when time ran out."""
        from ..solver.progressive import Progressive

        follow, found = self.service.follower(state), Analysis(SOLVER_NAME, done=False)  # nothing proven yet
        with self.service.borrowed() as solver:
            run = Progressive(solver, state, threads=self.threads or self.service.threads)
            for event in run.events(deadline=_time.perf_counter() + seconds):
                found = follow(event)
        return found

    def line(self, state: Any, plies: int) -> list[Any]:
        """The best play from ``state`` for at most ``plies`` plies (to the end of the game if sooner)."""
        out: list[Any] = []
        if not plies or self.game.is_terminal(state):  # nothing to search (nor a solver to borrow)
            return out
        if not self.exact:
            self.doing.search = self._estimating()
            found = self.estimator(state).search(self.game, state)  # an estimate's own line
            return list(found.pv[:plies]) if found.pv else [found.action]
        if self.solver_time is not None:  # no book: each step within the solver's time a position
            while len(out) < plies and not self.game.is_terminal(state):
                found = self.values(state)
                if not found.exact:  # the solver ran out of time: the estimating engine's own line
                    self.doing.search = self._estimating()
                    more = self.estimator(state).search(self.game, state)
                    return out + list((more.pv or (more.action,))[: plies - len(out)])
                out.append(found.best)
                state = self.game.result(state, out[-1])
            return out
        self.doing.search = SOLVER_NAME
        with self.service.borrowed() as solver:
            while len(out) < plies and not self.game.is_terminal(state):
                found = self._cache.get(state)
                best = found.best if found is not None else self._first_best(solver, state)
                out.append(best)
                state = self.game.result(state, best)
        return out

    def _first_best(self, solver: Any, state: Any) -> Any:
        """The best move of ``state`` as an analysis would choose it (the centre-most of the best scores),
        found by solving the position and then its children in that order until one keeps its score: most
        lines need two or three solves, not one a column."""
        game = self.game
        target = solver.solve(state)
        for a in centre_order(game, state, game.actions(state)):
            child = game.result(state, a)
            out = game.outcome(child)
            if out is not None:  # a draw, or the mover's win on this ply (the solver's convention)
                score = 0 if out.winner is None else (game.cells + 2 - child.ply) // 2  # type: ignore[attr-defined]
            else:
                score = -solver.solve(child)
            if score == target:
                return a
        raise AssertionError("no move keeps the position's score")  # pragma: no cover - negamax says one does


def _exact_but(found: Analysis, action: Any) -> bool:
    """Whether every move of ``found`` but ``action`` has an exact value (the solver's, or a proven one)."""
    return all(a == action or a in found.exact_moves or is_proven(v) for a, v in found.values.items())


def proves(game: Game[Any, Any], agent: Any = None, solver_time: float | None = None) -> bool:
    """Whether the judge of ``game`` gives proofs before a move is judged: the solver where it takes the game,
    by default or named (an agent whose traits declare the exact solver's values,
    :class:`~zerosum.agents.traits.AgentTraits`); a named solver judges as the default judge does, lines and
    all.  Other judges estimate, though a search may prove some values (each mark says).  ``solver_time``: the
    solver's seconds a position where it has no opening book (None: no limit); with a limit it may not prove a
    position in time (nor is it asked, out of its reach past 64 bits), so only the marks can say."""
    exact = agent is None or bool(getattr(getattr(agent, "TRAITS", None), "exact", False))
    found = service(game)
    return exact and found.solves and (solver_time is None or found.book_depth is not None)


def marks(game: Game[Any, Any], actions: Sequence[Any], start: int = 0, *, agent: Any = None,
          seconds: float = 1.0, line: int = LINE, threads: int | None = None,
          on_mark: Callable[[Mark], None] | None = None, engine: list[str] | None = None,
          solver_time: float | None = SOLVER_TIME, doing: Doing | None = None) -> Iterator[Mark]:
    """Each move of ``actions`` from index ``start`` (the moves before it, an opening, are played unjudged),
    judged as soon as its values are known (see the module docstring).  ``agent``: an engine (a SearchAgent)
    whose estimates judge the moves instead of the solver; where the solver does not take the game and no
    agent is named, alpha-beta estimates within about ``seconds`` a position.  ``line``: plies of each
    refutation line.  ``on_mark`` sees each mark too; ``engine`` (a list), when given, gets who judged;
    ``doing``, when given, what the judge is doing as it goes (:class:`Doing`: a face says a long wait by it).
    ``solver_time``: on a board the solver takes but has no opening book for, the seconds it gets a position
    (None: no limit); a position it does not prove in time is estimated by alpha-beta (its mark not exact), and
    so is, within ``seconds``, one out of its reach past 64 bits, where it is not asked (more than REACH + 1
    empty cells: 8 x 8 before ply 24; at REACH + 1, ply 24, each move's position is within reach, and the
    solver proves those within ``solver_time`` in all)."""
    judge = _Judge(game, agent, seconds, threads, solver_time, doing)  # made now: who judges is known at once
    if engine is not None:
        engine.append(judge.engine)
    return _marks(judge, game, actions, start, line, on_mark)


def _marks(judge: _Judge, game: Game[Any, Any], actions: Sequence[Any], start: int, line: int,
           on_mark: Callable[[Mark], None] | None) -> Iterator[Mark]:
    states = game.states_of(list(actions))
    doing = judge.doing
    for i in range(start, len(actions)):
        began = _time.perf_counter()
        doing.ply, doing.since, doing.line = i + 1, began, False
        state, action = states[i], actions[i]
        found = judge.settled(states, actions, i, line)
        before = found.values[found.best]
        after = found.values[action]
        kind = classify(before, after)
        result = result_of(before)
        keepers = [a for a, v in found.values.items() if result_of(v) == result]
        order = centre_order(game, state, list(found.values))
        best = [a for a in order if found.values[a] == before]
        others = sorted((a for a in order if a != action), key=lambda a: -found.values[a])
        doing.line = True
        refutation = [] if kind == "best" else judge.line(states[i + 1], line)
        doing.ply = 0  # between marks
        mark = Mark(i + 1, game.player(state), game.format_action(action), action, before, after, kind,
                    only=kind in ("best", "good") and len(found.values) > 1 and keepers == [action],
                    exact=found.exact,
                    best=[game.format_action(a) for a in best],
                    alternatives=[(game.format_action(a), found.values[a]) for a in others[:3]],
                    line=[game.format_action(a) for a in refutation], seconds=_time.perf_counter() - began)
        if on_mark is not None:
            on_mark(mark)
        yield mark
