"""The ``solver`` agent: perfect play on every Connect-X board that fits 64 bits.

It plays a best move -- the centre-most among the columns with the best score, so from a lost position the
move that loses slowest -- and reports the position's value as ``win_value(plies)`` / ``loss_value(plies)``
/ 0 (:func:`zerosum.values.score_to_value`; ``exact`` is set) with every legal column's solver score in ``SearchResult.scores``.

Without a ``time`` limit it always solves, however long that takes (7 x 6 positions just beyond the
opening book take seconds to a minute to score every column).  With ``solver:time=T`` it tries with node budgets that double while time
is left (the table keeps what each try proved); a position it cannot solve in time is played by
``alphabeta`` for the rest of the time instead, and ``agent.last_fallback`` says so.

On a game the solver cannot take (not Connect-X, or a board beyond 64 bits) it says so once on standard
error, keeps the reason in ``agent.fallback_reason``, and plays ``alphabeta:time=T`` instead (T: the
``time`` limit, default 1 s), or ``random`` when the alpha-beta agent is not installed.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ..agents.base import Agent, Limits, Option, SearchAgent, SearchResult
from ..errors import AgentError, GameError
from ..game import Game
from ..values import score_to_value

__all__ = ["SolverAgent", "flag"]

#: the ``tt`` option: a table of 2**tt entries (the solver commands' ``--tt-log-size`` range)
TT_RANGE = (10, 31)
_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")


def flag(text: str) -> bool:
    """A yes/no option value: ``1/true/yes/on`` or ``0/false/no/off`` (any case); ValueError otherwise."""
    word = text.strip().lower() if isinstance(text, str) else ""
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise ValueError(f"{text!r} is not yes or no")


flag.__name__ = "yes or no"


class SolverAgent(SearchAgent):
    """Perfect play from the solver; alpha-beta on boards it cannot take."""

    name = "solver"
    description = "perfect play (Connect-X boards up to 64 bits; falls back to alpha-beta elsewhere)"
    LIMITS = ("time",)
    OPTIONS = {
        "book": Option(flag, "use the opening book (default yes)", None, "one of 1/0, true/false, yes/no, on/off"),
        "tt": Option(int, "transposition table of 2**tt entries, 8 bytes each (default 24: 128 MB)",
                     lambda v: TT_RANGE[0] <= v <= TT_RANGE[1], f"a whole number {TT_RANGE[0]}..{TT_RANGE[1]}"),
    }

    def __init__(self, *, limits: Limits | None = None, seed: int | None = None, book: bool = True,
                 tt: int = 24) -> None:
        if isinstance(tt, bool) or not isinstance(tt, int) or not TT_RANGE[0] <= tt <= TT_RANGE[1]:
            raise AgentError(f"solver: tt={tt!r} is outside {TT_RANGE[0]}..{TT_RANGE[1]}")
        super().__init__(limits=limits, seed=seed)
        self.use_book = book
        self.tt = tt
        self._solvers: dict[str, Any] = {}
        self._fallback: Agent | None = None
        #: why this agent is not solving (None while it solves)
        self.fallback_reason: str | None = None
        #: why the last move was not solved (its time ran out), or None
        self.last_fallback: str | None = None

    def _solver_for(self, game: Game[Any, Any]) -> Any:
        from ..games.connectx import ConnectX

        spec = getattr(game, "spec", repr(game))
        if spec in self._solvers:
            return self._solvers[spec]
        solver = None
        if not isinstance(game, ConnectX):
            reason = f"the solver plays Connect-X only, not {spec}"
        elif not game.fits_64:
            reason = (f"the solver takes boards with cols x (rows + 1) <= 64; {game.rows} x {game.cols} "
                      f"needs {game.cols * (game.rows + 1)} bits")
        else:
            from .solver import Solver

            solver = Solver(game, tt_size=1 << self.tt, book=self.use_book)
            reason = None
        if solver is None:
            self._start_fallback(str(reason))
        self._solvers[spec] = solver
        return solver

    def _start_fallback(self, reason: str) -> None:
        seconds = self.limits.time or 1.0
        self._fallback = self._alphabeta(seconds)
        self.fallback_reason = f"{reason}: playing {self._fallback.spec} instead"
        print(f"solver: {self.fallback_reason}", file=sys.stderr)

    def _alphabeta(self, seconds: float) -> SearchAgent:
        """Alpha-beta with ``seconds`` a move: it plays where the solver cannot (imported only then)."""
        from ..agents.alphabeta import AlphaBetaAgent

        agent = AlphaBetaAgent(limits=Limits(time=seconds), seed=self.seed)
        agent.spec = f"alphabeta:time={seconds}"
        return agent

    def search(self, game: Game[Any, Any], state: Any) -> SearchResult:
        solver = self._solver_for(game)
        if solver is None:
            assert self._fallback is not None
            if isinstance(self._fallback, SearchAgent):
                return self._fallback.search(game, state)
            return SearchResult(action=self._fallback(game, state))
        if game.is_terminal(state):
            raise AgentError("no legal action: the game is over")
        from .solver import BudgetExceeded, best_of

        start = time.perf_counter()
        self.last_fallback = None
        deadline = None if self.limits.time is None else start + self.limits.time
        budget = 100_000
        scores = None
        try:
            while scores is None:
                tried = time.perf_counter()
                try:
                    scores = solver.analyze(state, node_limit=None if deadline is None else budget)
                except BudgetExceeded:
                    # the table keeps what this try proved, so the next, larger try starts ahead; stop
                    # when a try twice as long would not end in time
                    now = time.perf_counter()
                    if deadline is not None and now + 2 * (now - tried) >= deadline:
                        break
                    budget *= 2
            if scores is None:
                assert deadline is not None
                left = max(0.05, deadline - time.perf_counter())
                self.last_fallback = f"not solved within {self.limits.time} s: alphabeta:time={left:.2f} chose"
                return self._alphabeta(round(left, 3)).search(game, state)
        except GameError as exc:
            raise AgentError(f"the solver failed: {exc}") from None
        cx = solver.game
        best = best_of(scores, cx.cols)
        score = scores[best]
        assert score is not None
        return SearchResult(
            action=best,
            value=score_to_value(score, state.ply, cx.cells),
            nodes=solver.nodes,
            depth=cx.cells - state.ply,
            elapsed=time.perf_counter() - start,
            pv=(best,),
            scores={c: s for c, s in enumerate(scores) if s is not None},
            exact=True,
        )
