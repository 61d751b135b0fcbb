"""Game review (``zerosum.review``; the package is ``zerosum.reviewer``, so that the name ``zerosum.review``
stays the function): every move of a game judged by perfect play (or, where the solver does not go, by a named
engine's estimate), with the best alternatives and the line that refutes each move that was not the best.

>>> import zerosum
>>> found = zerosum.review("4441", game="connect4")
>>> [(m.ply, m.move, m.kind) for m in found.marks]
[(1, '4', 'best'), (2, '4', 'best'), (3, '4', 'best'), (4, '1', 'good')]
>>> found.marks[3].verdict()
'good: loss in 19 moves -> loss in 16 moves (3 moves sooner); best 4; refutation 5 3 4 3 4 4 5 5'

* :func:`review` ``(record_or_moves, game=None, agent=None, *, seconds=1.0, line=8, threads=None,
  on_mark=None, solver_time=10.0)`` -> :class:`Review`.  ``record_or_moves``: a move string in the game's notation (``"4453"``),
  a list of actions, a :class:`zerosum.records.Record` (its Game tag names the game; the moves of its Opening
  tag are played, not judged) or what :func:`zerosum.play_game` returns.  ``game``: a game or a spec
  (default the record's game, else ``connect4``).  ``agent``: an engine spec (``"alphabeta:time=0.5"``) or an
  agent whose estimates judge the moves instead of the solver.  ``on_mark`` is called with each
  :class:`~.judge.Mark` as soon as it is known (the first in well under a second on 7 x 6).  ``solver_time``:
  on a board the solver takes without an opening book (every board but 7 x 6), the seconds it gets a
  position; a position it does not prove in time is estimated by alpha-beta, and its mark says so
  (``exact`` False).  ``seconds`` and ``solver_time`` are each above 0 and at most :data:`MAX_TIME` (3,600 s,
  as ``zerosum review --time`` / ``--solver-time``).
* :func:`iter_review` takes the same arguments and yields each mark as it is computed (a generator: stop
  whenever you like); :func:`start_review` returns ``(review, marks)``: a :class:`Review` (its ``engine`` known
  at once) that fills in as the ``marks`` iterator runs; :func:`review` is it, run to the end.
* A :class:`Review` holds ``marks``, ``engine`` (who judged: ``"the solver"`` or an engine spec), ``exact``,
  ``seconds``, :meth:`Review.summary` (per player: moves, moves that kept the theoretical result and their
  share, each class's count, the first decisive error), :meth:`Review.to_json` (DESIGN's list of ``{ply, move,
  before, after, class, best}`` with more keys: see :meth:`~.judge.Mark.to_json`), :meth:`Review.table` (the
  text ``zerosum review`` prints) and :meth:`Review.record` (an annotated :class:`zerosum.records.Record`:
  ``?`` / ``??`` / ``!`` after the moves and a comment with each verdict, which ``zerosum replay`` reads);
  ``doing`` (a :class:`~.judge.Doing`) is what its judge is doing meanwhile, by which a face says a long wait
  (:func:`.text.wait_words`).

The classes and their rules are in :mod:`.judge`; values are worded in the one vocabulary
(:mod:`zerosum.core.words`: ``win in 7 moves``, ``draw``, ``loss in 3 moves``, ``+0.35 est.``).
"""

from __future__ import annotations

import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..core.checks import check_real, check_whole, guarded, safe_repr
from ..errors import UsageError
from ..game import Game
from .judge import CLASSES, LINE, MAX_TIME, SOLVER_TIME, Doing, Mark, classify, marks, proves, result_of

__all__ = ["review", "iter_review", "start_review", "Review", "Mark", "Doing", "classify", "result_of", "CLASSES",
           "LINE", "SOLVER_TIME", "MAX_TIME"]


@dataclass
class Review:
    """A game reviewed: its marks (one a move judged), who judged and how long it took (see the module
    docstring)."""

    game: Game[Any, Any]
    actions: list[Any]
    start: int  # the moves before it (an opening) were played, not judged
    marks: list[Mark] = field(default_factory=list)
    engine: str = ""
    exact: bool = True  # every mark is a proof (until the first mark: whether the judge proves every value,
    # judge.proves: not a solver with a time a position, which may not prove one in time)
    seconds: float = 0.0
    source: Any = None  # what was reviewed (a record keeps its tags and notes in :meth:`record`)
    doing: Doing = field(default_factory=Doing)  # what the judge is doing now (a face says a long wait by it)

    def summary(self) -> dict[int, dict[str, Any]]:
        """Per player (1, 2): ``moves`` judged, ``kept`` (moves that kept the theoretical result: best or
        good), ``share`` (kept / moves, None without moves), the count of each class, ``estimated`` (moves
        judged by estimates, where only a proven win or loss can be lost: :attr:`Mark.exact` false), and
        ``first_error``: the first proven mistake or blunder as ``{ply, move, class}`` (None without one; a
        mistake by estimates is not proven: :attr:`Mark.proven`)."""
        out: dict[int, dict[str, Any]] = {}
        for player in (1, 2):
            mine = [m for m in self.marks if m.player == player]
            kept = sum(m.kept for m in mine)
            error = next((m for m in mine if not m.kept and m.proven), None)
            out[player] = {"moves": len(mine), "kept": kept, "share": kept / len(mine) if mine else None,
                           **{c: sum(m.kind == c for m in mine) for c in CLASSES},
                           "only": sum(m.only for m in mine), "estimated": sum(not m.exact for m in mine),
                           "first_error": None if error is None else {"ply": error.ply, "move": error.move,
                                                                      "class": error.kind}}
        return out

    @property
    def done(self) -> bool:
        """Whether every move to judge has its mark."""
        return len(self.marks) >= len(self.actions) - self.start

    def to_json(self) -> list[dict[str, Any]]:
        """DESIGN's JSON: a list of ``{ply, move, before, after, class, best, ...}`` (:meth:`Mark.to_json`)."""
        return [m.to_json() for m in self.marks]

    def table(self) -> str:
        """The review as text: a line a move, then the summary per player."""
        from .text import table

        return table(self)

    def record(self, tags: dict[str, str] | None = None, result: str | None = None) -> Any:
        """The game as an annotated :class:`zerosum.records.Record` (:func:`.text.annotated`): ``?`` after a
        mistake, ``??`` after a blunder, ``!`` after an only move, a comment with each verdict."""
        from .text import annotated

        return annotated(self, tags, result)


def _source(record_or_moves: Any, game: Any) -> tuple[Game[Any, Any], list[Any], int]:
    """The game, every action from the start and how many of them are an opening (played, not judged)."""
    from ..games import get_game
    from ..games.course_objects import is_course_game

    if game is not None:
        game = get_game(game) if isinstance(game, str) or is_course_game(game) else game  # your own, adapted
        if not isinstance(game, Game):
            raise UsageError(f"game is a game or a game spec such as 'connect4', not {safe_repr(game)}")
    if isinstance(record_or_moves, str):
        game = game or get_game("connect4")
        return game, list(game.parse_moves(record_or_moves)), 0
    if isinstance(record_or_moves, (list, tuple)):
        game = game or get_game("connect4")
        actions = list(record_or_moves)
        game.states_of(actions)  # every move legal, or one IllegalMoveError line
        return game, actions, 0
    own = getattr(record_or_moves, "game", None)
    acts = getattr(record_or_moves, "actions", None)
    if isinstance(own, Game) and acts is not None:
        actions = list(acts() if callable(acts) else acts)
        if game is not None and getattr(game, "spec", None) != getattr(own, "spec", None):
            raise UsageError(f"the record is a game of {own.spec}, not {game.spec}")
        return own, actions, len(list(getattr(record_or_moves, "opening", []) or []))
    raise UsageError("review takes a move string, a list of actions, a record (zerosum.records.Record) or a "
                     f"played game (zerosum.play_game), not {safe_repr(record_or_moves)}")


def iter_review(record_or_moves: Any, game: Any = None, agent: Any = None, *, seconds: float = 1.0,
                line: int = LINE, threads: int | None = None, on_mark: Callable[[Mark], None] | None = None,
                solver_time: float | None = SOLVER_TIME) -> Iterator[Mark]:
    """Each move's :class:`Mark` as soon as it is computed (the arguments are :func:`review`'s)."""
    return start_review(record_or_moves, game, agent, seconds=seconds, line=line, threads=threads,
                        on_mark=on_mark, solver_time=solver_time)[1]


def start_review(record_or_moves: Any, game: Any = None, agent: Any = None, *, seconds: float = 1.0,
                 line: int = LINE, threads: int | None = None, on_mark: Callable[[Mark], None] | None = None,
                 solver_time: float | None = SOLVER_TIME) -> tuple[Review, Iterator[Mark]]:
    """A :class:`Review` that fills in as the iterator beside it runs: each mark is added to ``marks`` as it
    is yielded, and ``exact`` and ``seconds`` are set when the last one is.  ``engine`` (who judges) is known
    at once.  The arguments are :func:`review`'s; bad ones raise here, before anything is judged."""
    g, actions, start = _source(record_or_moves, game)
    seconds = check_real(seconds, "seconds", 0.0, MAX_TIME, UsageError, above=True)
    line = check_whole(line, "line (plies)", 0, 1000, UsageError)
    if solver_time is not None:
        solver_time = check_real(solver_time, "solver_time", 0.0, MAX_TIME, UsageError, above=True)
    if agent is not None and not hasattr(agent, "search"):
        from ..agents.registry import make_agent

        agent = make_agent(agent)
        if not hasattr(agent, "search"):
            raise UsageError(f"agent {getattr(agent, 'spec', None) or safe_repr(agent)} does not search, so it has "
                             "no values to judge by (name a search: alphabeta, mcts, minimax)")
    if on_mark is not None and not callable(on_mark):
        raise UsageError(f"on_mark is a function of a Mark, not {safe_repr(on_mark)}")
    on_mark = None if on_mark is None else guarded("review: on_mark(mark)", on_mark, UsageError)
    engine: list[str] = []
    began, doing = _time.perf_counter(), Doing()
    stream = marks(g, actions, start, agent=agent, seconds=seconds, line=line, threads=threads, on_mark=on_mark,
                   engine=engine, solver_time=solver_time, doing=doing)
    found = Review(g, actions, start, [], engine[0], proves(g, agent, solver_time), 0.0, record_or_moves, doing)

    def filled() -> Iterator[Mark]:
        for mark in stream:
            found.exact = mark.exact and (found.exact or not found.marks)  # every mark a proof, at the end
            found.marks.append(mark)
            found.seconds = _time.perf_counter() - began
            yield mark

    return found, filled()


def review(record_or_moves: Any, game: Any = None, agent: Any = None, *, seconds: float = 1.0,
           line: int = LINE, threads: int | None = None, on_mark: Callable[[Mark], None] | None = None,
           solver_time: float | None = SOLVER_TIME) -> Review:
    """Every move of a game judged (see the module docstring)."""
    found, stream = start_review(record_or_moves, game, agent, seconds=seconds, line=line, threads=threads,
                                 on_mark=on_mark, solver_time=solver_time)
    for _ in stream:
        pass
    return found
