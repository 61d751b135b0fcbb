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
"""

from __future__ import annotations

import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..agents.base import MAX_TIME as AGENT_MAX_TIME
from ..analysis import REACH, SOLVER_NAME, Analysis, service
from ..analysis.estimate import child_values
from ..analysis.result import best_action, centre_order
from ..core.words import moves_to_end, value_words
from ..game import Game
from ..values import is_proven

__all__ = ["Mark", "Doing", "marks", "proves", "classify", "result_of", "CLASSES", "LINE", "SOLVER_TIME",
           "MAX_TIME"]

#: the classes, best first
CLASSES = ("best", "good", "mistake", "blunder")
#: the suffix PGN puts after a move of each class (:attr:`Mark.suffix`: ``?!`` for a mistake not proven, and
#: ``!`` after an only move found)
SUFFIX = {"best": "", "good": "", "mistake": "?", "blunder": "??"}
#: plies of the line shown after a move that is not the best (the refutation)
LINE = 8
#: seconds the solver gets a position on a board without an opening book (past them: an estimate)
SOLVER_TIME = 10.0
#: the most seconds of either time a position (``seconds``, ``solver_time``; ``--time``, ``--solver-time``): an
#: agent's own bound on a move, as ``zerosum play --solver-time``'s
MAX_TIME = AGENT_MAX_TIME


def result_of(value: float) -> int:
    """A value's result for the mover: +1 a (proven) win, -1 a loss, 0 a draw or an unproven estimate."""
    if is_proven(value):
        return 1 if value > 0 else -1
    return 0


def classify(before: float, after: float) -> str:
    """The class of a move that turns the mover's value ``before`` into ``after`` (see the module docstring)."""
    rb, ra = result_of(before), result_of(after)
    if after >= before:
        return "best"
    if ra == rb:
        return "good"
    if rb == 1 and ra == -1:
        return "blunder"
    return "mistake"


@dataclass
class Mark:
    """One move judged.  ``ply`` counts from 1 at the start position (an opening's moves included);
    ``before``/``after`` are agent values (:mod:`zerosum.values`) from the mover's view; ``best``: the best
    moves (the played one among them when it is best); ``alternatives``: the other moves' values, best first, as
    ``(move, value)``; ``line``: the best play after the move played (for a move that is not the best: the line
    that refutes it), in the game's notation."""

    ply: int
    player: int
    move: str
    action: Any
    before: float
    after: float
    kind: str  # one of CLASSES (JSON: "class")
    only: bool = False
    exact: bool = True
    best: list[str] = field(default_factory=list)
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    line: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def slower(self) -> int:
        """For a ``good`` move: how many moves later it wins, or sooner it loses (else 0)."""
        if self.kind != "good" or not (is_proven(self.before) and is_proven(self.after)):
            return 0
        return abs(moves_to_end(self.after) - moves_to_end(self.before))

    @property
    def proven(self) -> bool:
        """Whether the class is proven (the module doc): every class of an exact mark, and every class but a
        mistake by estimates."""
        return self.exact or self.kind != "mistake"

    @property
    def suffix(self) -> str:
        """PGN's suffix of the mark: ``??`` a blunder, ``?`` a mistake, ``?!`` a mistake not proven, then ``!``
        for an only move found."""
        return ("?!" if not self.proven else SUFFIX[self.kind]) + ("!" if self.only else "")

    @property
    def kept(self) -> bool:
        """Whether the move kept the theoretical result (``best`` or ``good``)."""
        return self.kind in ("best", "good")

    def words(self, value: float) -> str:
        """A value of this mark in words (the one vocabulary: ``win in 7 moves``, ``draw``, ``+0.35 est.``)."""
        return value_words(value, self.exact)

    def verdict(self) -> str:
        """The mark in one line: ``blunder: win in 5 moves -> loss in 3 moves; best 4 (win in 5 moves)``."""
        said = self.kind + (" (only move)" if self.only else "") + ("" if self.proven else " (not proven)")
        text = f"{said}: {self.words(self.before)}"
        if self.kind != "best":
            text += f" -> {self.words(self.after)}"
        if self.kind == "good" and self.slower:
            text += f" ({self.slower} move{'s' if self.slower != 1 else ''} " \
                    f"{'slower' if self.after > 0 else 'sooner'})"
        if self.kind != "best" and self.best:
            text += f"; best {' '.join(self.best)}"
        if self.kind != "best" and self.line:
            text += f"; refutation {' '.join(self.line)}"
        return text

    def to_json(self) -> dict[str, Any]:
        """DESIGN's ``{ply, move, before, after, class, best}`` and more: ``before``/``after`` in words,
        ``before_value``/``after_value`` as agent values (:mod:`zerosum.values`, the mover's view),
        ``before_result``/``after_result`` as +1 / 0 / -1 (win / draw or open estimate / loss, the mover's view),
        ``player`` (1 or 2), ``only``, ``exact``, ``slower`` (a good move's moves lost), ``alternatives`` (the
        three best other moves, ``{move, value}``), ``line`` (the refutation, moves in the game's notation) and
        ``seconds`` (the time this mark took)."""
        return {"ply": self.ply, "player": self.player, "move": self.move,
                "before": self.words(self.before), "after": self.words(self.after),
                "class": self.kind, "best": list(self.best), "only": self.only, "exact": self.exact,
                "slower": self.slower, "before_value": self.before, "after_value": self.after,
                "before_result": result_of(self.before), "after_result": result_of(self.after),
                "alternatives": [{"move": m, "value": self.words(v)} for m, v in self.alternatives],
                "line": list(self.line), "seconds": round(self.seconds, 4)}


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
            if found is None or not found.done:  # an engine's estimates (within ``seconds``), or the solver was
                # not asked (out of its reach) or ran out of time
                self.doing.search = self._estimating()
                actions = self.game.actions(state)
                values, exact, nodes = child_values(self.game, state, actions, self.estimator(state))
                best = best_action(values, centre_order(self.game, state, actions))
                found = Analysis(self.engine, exact or all(is_proven(v) for v in values.values()), dict(values),
                                 dict(values), best, nodes)
            self._cache[state] = found
        return found

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
        if not self.exact and plies and not self.game.is_terminal(state):
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
        found = judge.values(state)
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
