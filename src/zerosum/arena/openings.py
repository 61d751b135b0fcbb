"""Openings: short move sequences that every game pair starts from, and the judged ones ``zerosum openings`` writes.

How an opening is written (the game's notation, a line of an openings file) and the openings a run plays from
(a file's, the set a game ships, random ones drawn from the seed) live in :mod:`zerosum.arena.opening_files`
(re-exported here).  This module judges openings: every distinct open position some plies in
(:func:`candidate_positions`) whose value is within a bound (:func:`generate_openings`), the judge being the
solver (:func:`solver_evaluator`, the boards :func:`has_balanced_openings` says it takes) or any search agent
(:func:`agent_evaluator`); and it bounds the plies of any opening (:func:`max_plies`).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..errors import GameError
from ..game import Game
from ..spec import quoted
from .opening_files import (
    Opening,
    format_opening,
    opening_field,
    opening_line,
    parse_opening,
    play_opening,
    random_openings,
    read_openings,
    shipped_openings,
    write_openings,
)

__all__ = [
    "parse_opening", "format_opening", "opening_line", "opening_field", "read_openings", "write_openings",
    "shipped_openings", "random_openings", "has_balanced_openings", "generate_openings", "solver_evaluator",
    "agent_evaluator", "max_plies", "candidate_positions", "format_value", "MAX_OPENING_PLIES", "MAX_POSITIONS",
]

#: the most plies of any opening (``--plies``, ``--opening-plies``); fewer than the board's cells too
MAX_OPENING_PLIES = 100
#: the most distinct positions ``zerosum openings`` enumerates at one ply (7 x 6 Connect Four: up to ply 8)
MAX_POSITIONS = 200_000


# ---- judged openings: every position some plies in whose value is within a bound --------------------
# The judge is the solver (Connect-X boards it takes: exact scores) or any search agent (any game: the value
# of its search, in its own unit), so "openings with evaluation 0" mean the same on every board.

Evaluator = Callable[[Any], float]


def _mirror_key(game: Game[Any, Any], seq: tuple[Any, ...]) -> Any:
    """The state of ``seq`` played mirrored, where the game's rules have that symmetry
    (:meth:`~zerosum.game.Game.mirrored_actions`: Connect-X's columns); None for the others."""
    mirrored = game.mirrored_actions(seq)
    if mirrored is None:
        return None
    state = game.initial_state
    for action in mirrored:
        state = game.result(state, action)
    return state


def _ordered(actions: list[Any]) -> list[Any]:
    try:
        return sorted(actions)
    except TypeError:  # actions without an order of their own: the game's order
        return list(actions)


def _positions(game: Game[Any, Any], plies: int) -> list[tuple[Any, ...]]:
    """One move sequence for every distinct open position ``plies`` in (Connect-X: mirror images once).

    Built ply by ply from the positions one ply less (transpositions once: states are equal when their
    positions are), each reached by its first move sequence in the order of the actions, in that order.
    More than :data:`MAX_POSITIONS` positions at any ply is a :class:`~zerosum.errors.GameError` (fewer
    plies, please), raised before anything is judged.
    """
    start = game.initial_state
    try:
        level: dict[Any, tuple[Any, ...]] = {start: ()}
    except TypeError:
        raise GameError(f"{game.spec}: its states cannot be told apart (they are not hashable), so its "
                        "positions cannot be enumerated: use random openings (no --with)") from None
    for ply in range(1, plies + 1):
        nxt: dict[Any, tuple[Any, ...]] = {}
        for state, seq in level.items():
            for a in _ordered(game.actions(state)):  # none once the game is over
                child = game.result(state, a)
                if child not in nxt:
                    nxt[child] = seq + (a,)
            if len(nxt) > MAX_POSITIONS:
                raise GameError(f"more than {MAX_POSITIONS:,} positions {ply} plies into {game.spec}: "
                                "ask for fewer plies")
        level = nxt
    seen: set[Any] = set()
    out = []
    for state, seq in level.items():
        if game.is_terminal(state) or state in seen:
            continue
        seen.add(state)
        mirror = _mirror_key(game, seq)
        if mirror is not None:
            seen.add(mirror)
        out.append(seq)
    return out


def max_plies(game: Game[Any, Any]) -> int:
    """The most plies an opening of ``game`` may have: fewer than the board's cells, at most 100."""
    cells = getattr(game, "cells", None)
    if not isinstance(cells, int) and game.TURN_FROM_PIECES:  # every move fills a cell of the board
        view = game.board_view(game.initial_state)
        cells = view.rows * view.cols
    if isinstance(cells, int):
        return max(0, min(MAX_OPENING_PLIES, cells - 1))
    return MAX_OPENING_PLIES


#: the widest board (bits, cols x (rows + 1)) whose openings the solver judges: an opening is a few plies
#: deep, and the solver proves an early position of a wider board (8 x 8 at ply 4) in hours, not seconds
JUDGED_BITS = 64


def has_balanced_openings(game: Game[Any, Any]) -> bool:
    """Whether the solver judges ``game``'s openings (it takes the game, it fits ``JUDGED_BITS``, and the
    solver is installed); any game's can be judged by a search agent (:func:`agent_evaluator`)."""
    try:
        from ..solver.solver import supports  # numba: imported only when asked for
    except ImportError:
        return False
    return supports(game) and _bits(game) <= JUDGED_BITS


def _bits(game: Game[Any, Any]) -> int:
    board: Any = game  # a game the solver takes has rows and cols (a column bitboard)
    return int(board.cols * (board.rows + 1))


def balanced_game(game: Game[Any, Any]) -> Any:
    """``game`` as the solver takes it (:func:`zerosum.solver.boards.solver_game`), within ``JUDGED_BITS``;
    GameError for the others, which a search agent judges instead."""
    try:
        from ..solver.solver import solver_game  # numba: imported only when asked for
    except ImportError:
        raise GameError(f"the solver is not installed here, so it cannot judge openings of {game.spec}: "
                        "judge them with a search agent (--with AGENT)") from None
    try:
        found = solver_game(game)
    except GameError as exc:
        raise GameError(f"the solver cannot judge openings of {game.spec} ({exc}): judge them with a search "
                        "agent (--with AGENT, e.g. alphabeta:depth=2)") from None
    if _bits(found) > JUDGED_BITS:
        raise GameError(f"the solver judges openings of boards up to {JUDGED_BITS} bits; an early position of "
                        f"{game.spec} ({_bits(found)} bits) takes it hours: judge them with a search agent "
                        "(--with AGENT, e.g. alphabeta:depth=2)")
    return found


def solver_evaluator(game: Game[Any, Any]) -> Evaluator:
    """The solver's exact score of a position (side to move's view; DESIGN.md's convention)."""
    from ..solver import Solver  # numba: imported only when asked for

    solver = Solver(balanced_game(game))
    return lambda state: int(solver.solve(state))


def agent_evaluator(game: Game[Any, Any], spec: str) -> Evaluator:
    """A search agent as judge, on any game: a position's value is the value of the agent's search of it
    (``SearchResult.value``, the side to move's view), in the agent's own unit: its evaluation's at a depth
    limit, beyond 10**6 for a proven win.  Each position is searched by a fresh agent (seed 0), so a value
    never depends on the positions judged before it.  AgentError for a spec that does not search."""
    from ..agents.base import SearchAgent
    from ..agents.registry import make_agent
    from ..errors import AgentError

    if not isinstance(make_agent(spec, seed=0), SearchAgent):
        raise AgentError(f"{quoted(spec)} does not search, so it cannot judge openings: give a search agent "
                         "(alphabeta:depth=2, minimax:depth=1,eval=..., mcts:sims=200)")

    def evaluate(state: Any) -> float:
        agent = make_agent(spec, seed=0)
        assert isinstance(agent, SearchAgent)
        value = agent.search(game, state).value
        return int(value) if float(value).is_integer() else float(value)

    return evaluate


def format_value(value: float) -> str:
    """A judged value as the openings file writes it: ``0``, ``-3``, ``0.25`` (whole numbers without a point)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def candidate_positions(game: Game[Any, Any], plies: int, sample: int | None = None, seed: int = 0
                        ) -> list[tuple[Any, ...]]:
    """The move sequences :func:`generate_openings` judges (``sample`` of them, drawn from ``seed``);
    :class:`~zerosum.errors.GameError` for more plies than the board allows, too many positions, or none."""
    if not 0 <= plies <= max_plies(game):
        raise GameError(f"{plies} plies: {game.spec} allows openings of 0..{max_plies(game)} plies")
    candidates = _positions(game, plies)
    if not candidates:
        raise GameError(f"no open position {plies} plies into {game.spec}: ask for fewer plies")
    if sample is not None and sample < len(candidates):
        chosen = set(random.Random(f"zerosum-sample/{seed}").sample(range(len(candidates)), sample))
        candidates = [c for i, c in enumerate(candidates) if i in chosen]
    return candidates


def generate_openings(
    game: Game[Any, Any],
    plies: int,
    max_score: float,
    evaluate: Evaluator | None = None,
    progress: Callable[[int, int], None] | None = None,
    sample: int | None = None,
    seed: int = 0,
    found: Callable[[Opening, float], None] | None = None,
    begin: Callable[[int], None] | None = None,
    candidates: list[tuple[Any, ...]] | None = None,
    count: int | None = None,
) -> list[tuple[Opening, float]]:
    """Every distinct position ``plies`` moves in (Connect-X: mirror images once) whose value is within
    ``±max_score``.

    ``evaluate(state) -> value`` defaults to the solver (the games it takes); :func:`agent_evaluator` judges
    any game.  ``sample=N`` judges only N of the positions, drawn from ``seed``.  ``count=N`` keeps the first
    N found, judging the positions in an order shuffled from ``seed`` (randomized openings, the same for the
    same seed); without it every position is judged, in move-string order.  Returns ``(actions, value)``;
    ``begin(total)`` is called once the positions are known (before any is judged), ``progress(done,
    total)`` after each position judged and ``found(actions, value)`` for each one kept, as it is found.
    Too many plies for the board is a :class:`~zerosum.errors.GameError` before any work.
    ``candidates``: the positions from :func:`candidate_positions`, when the caller has them already.
    """
    if candidates is None:
        candidates = candidate_positions(game, plies, sample, seed)
    if evaluate is None:
        evaluate = solver_evaluator(game)
        game = balanced_game(game)
    if count is not None:
        candidates = list(candidates)
        random.Random(f"zerosum-openings-order/{seed}").shuffle(candidates)
    if begin is not None:
        begin(len(candidates))
    out: list[tuple[Opening, float]] = []
    for i, seq in enumerate(candidates):
        score = evaluate(play_opening(game, seq))
        if abs(score) <= max_score:
            out.append((tuple(seq), score))
            if found is not None:
                found(tuple(seq), score)
        if progress is not None:
            progress(i + 1, len(candidates))
        if count is not None and len(out) >= count:
            break
    return out
