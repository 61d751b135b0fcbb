"""Openings: short move sequences that every game pair starts from.

A file holds one opening a line; the first field is the opening, anything after whitespace is a comment
(the generator writes the solver's score there), and lines starting with ``#`` are comments.  Notation:
the game's own move strings (:meth:`~zerosum.game.Game.parse_moves`, :meth:`~zerosum.game.Game.format_moves`),
e.g. ``"4453"`` for Connect Four, ``"159"`` for Tic-Tac-Toe, ``"1,0;4,1"`` for Migration.

A game may ship its own openings as ``data/openings-NAME.txt``, NAME one of its registered spec names
(:func:`shipped_openings`; Connect Four ships ``openings-connect4.txt``: positions a few plies in whose
solved value is a draw or close to it, written by ``zerosum openings`` with the solver).  Other games get
random short openings drawn from the seed (:func:`random_openings`).
"""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

from ..errors import GameError, IllegalMoveError
from ..game import Game
from ..games import get_game
from ..games.registry import game_names
from ..spec import quoted

__all__ = [
    "parse_opening",
    "format_opening",
    "read_openings",
    "write_openings",
    "shipped_openings",
    "random_openings",
    "has_balanced_openings",
    "generate_openings",
    "solver_evaluator",
    "agent_evaluator",
    "max_plies",
    "candidate_positions",
    "MAX_OPENING_PLIES",
    "MAX_POSITIONS",
]

Opening = tuple[Any, ...]

#: the most plies of any opening (``--plies``, ``--opening-plies``); fewer than the board's cells too
MAX_OPENING_PLIES = 100
#: the most distinct positions ``zerosum openings`` enumerates at one ply (7 x 6 Connect Four: up to ply 8)
MAX_POSITIONS = 200_000


def parse_opening(game: Game[Any, Any], text: str) -> Opening:
    """The actions of one opening written in the game's notation; raises IllegalMoveError if not playable."""
    text = text.strip()
    if text in ("", "-"):
        return ()
    actions = game.parse_moves(text)  # checks every move, naming the one that fails
    state = play_opening(game, actions)
    if game.is_terminal(state):
        raise IllegalMoveError(f"opening {quoted(text)} ends the game")
    return tuple(actions)


def format_opening(game: Game[Any, Any], actions: Sequence[Any]) -> str:
    """The notation :func:`parse_opening` reads (``-`` for the start position)."""
    return game.format_moves(actions) if actions else "-"


def play_opening(game: Game[Any, Any], actions: Sequence[Any]) -> Any:
    state = game.initial_state
    for a in actions:
        state = game.result(state, a)
    return state


def read_openings(path: str | Path, game: Game[Any, Any]) -> list[Opening]:
    """Every opening in a file (first field of each line; ``#`` comments); raises GameError on a bad line."""
    from ..core.files import read_text

    text = read_text(path, "openings file")
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            openings.append(parse_opening(game, line.split()[0]))
        except GameError as exc:
            raise type(exc)(f"{path}, line {number}: {exc}") from None
    if not openings:
        raise GameError(f"openings file {str(path)!r} holds no openings")
    return openings


def write_openings(
    path: str | Path, game: Game[Any, Any], openings: Sequence[tuple[Opening, Any]], header: Sequence[str] = (),
    overwrite: bool = False,
) -> None:
    """Write ``(actions, comment)`` pairs, one a line, after ``#`` header lines (all at once, never over an
    existing file unless ``overwrite``)."""
    lines = [f"# {h}" for h in header]
    for actions, comment in openings:
        text = format_opening(game, actions)
        lines.append(text if comment is None else f"{text} {comment}")
    from ..core.files import atomic_output

    with atomic_output(path, overwrite=overwrite, what="openings file") as fh:
        fh.write("\n".join(lines) + "\n")


def shipped_openings(game: Game[Any, Any]) -> Path | None:
    """The openings file that ships with the package for ``game``, if present: ``data/openings-NAME.txt`` for
    the first of the game's registered spec names that has one (Connect Four's: ``openings-connect4.txt``)."""
    try:
        data = Path(str(resources.files("zerosum") / "data"))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover
        return None
    for name in game_names():
        path = data / f"openings-{name}.txt"
        if path.is_file() and get_game(name) == game:
            return path
    return None


def random_openings(game: Game[Any, Any], count: int, plies: int, seed: int) -> list[Opening]:
    """``count`` random openings of ``plies`` uniformly random moves that leave the game open.

    Distinct while the game has enough of them, then the same ones again in the same order; the same seed
    gives the same list.
    """
    if plies <= 0:
        return [()] * count
    rng = random.Random(f"zerosum-openings/{seed}")
    seen: set[Opening] = set()
    pool: list[Opening] = []
    attempts = misses = 0
    while len(pool) < count and misses < 1000:  # give up on new ones after 1000 draws in a row bring none
        attempts += 1
        state, actions = game.initial_state, []
        for _ in range(plies):
            legal = game.actions(state)
            if not legal:
                break
            a = legal[rng.randrange(len(legal))]
            actions.append(a)
            state = game.result(state, a)
        opening = tuple(actions)
        if game.is_terminal(state) or len(actions) < plies or opening in seen:
            misses += 1
            continue
        misses = 0
        seen.add(opening)
        pool.append(opening)
    if not pool:
        raise GameError(f"no open position {plies} plies into {game.spec}: use fewer opening plies")
    return [pool[i % len(pool)] for i in range(count)]


# ---- balanced openings for Connect-X, from an evaluator (the solver by default) -----------------------

Evaluator = Callable[[Any], int]


def _positions(game: Any, plies: int) -> list[tuple[int, ...]]:
    """One move sequence for every distinct open position ``plies`` in, mirror images counted once.

    Built ply by ply from the positions one ply less (transpositions once), each reached by its
    alphabetically first move sequence, in that order.  More than :data:`MAX_POSITIONS` positions at any
    ply is a :class:`~zerosum.errors.GameError` (fewer plies, please), raised before anything is judged.
    """
    start = game.initial_state
    level: dict[tuple[int, int], tuple[tuple[int, ...], Any]] = {(start.current, start.mask): ((), start)}
    for ply in range(1, plies + 1):
        nxt: dict[tuple[int, int], tuple[tuple[int, ...], Any]] = {}
        for seq, state in level.values():
            for c in sorted(game.actions(state)):  # none once the game is over
                child = game.result(state, c)
                key = (child.current, child.mask)
                if key not in nxt:
                    nxt[key] = (seq + (c,), child)
            if len(nxt) > MAX_POSITIONS:
                raise GameError(f"more than {MAX_POSITIONS:,} positions {ply} plies into {game.spec}: "
                                "ask for fewer plies")
        level = nxt
    seen: set[tuple[int, int]] = set()
    out = []
    for key, (seq, state) in level.items():
        if game.is_terminal(state):
            continue
        mirror = game.from_moves([game.cols - 1 - c for c in seq])
        canon = min(key, (mirror.current, mirror.mask))
        if canon not in seen:
            seen.add(canon)
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


def has_balanced_openings(game: Game[Any, Any]) -> bool:
    """Whether ``game`` has balanced openings (the solver, installed, takes it); others get random ones."""
    try:
        from ..solver.solver import supports  # numba: imported only when asked for
    except ImportError:
        return False
    return supports(game)


def balanced_game(game: Game[Any, Any]) -> Any:
    """``game`` as the solver takes it: balanced openings are judged in the solver's scores, so the solver
    says which games have them (:func:`zerosum.solver.solver.solver_game`); GameError for the others."""
    try:
        from ..solver.solver import solver_game  # numba: imported only when asked for
    except ImportError:
        raise GameError(f"balanced openings need the solver, which is not installed here ({game.spec})") from None
    try:
        return solver_game(game)
    except GameError as exc:
        raise GameError(f"balanced openings are judged in the solver's scores: {exc}") from None


def solver_evaluator(game: Game[Any, Any]) -> Evaluator:
    """The solver's exact score of a position (side to move's view; DESIGN.md's convention)."""
    from ..solver import Solver  # numba: imported only when asked for

    solver = Solver(balanced_game(game))
    return lambda state: int(solver.solve(state))


def agent_evaluator(game: Game[Any, Any], spec: str) -> Evaluator:
    """A search agent as evaluator: a proven value becomes the solver's score, anything else counts as 0."""
    from ..agents.base import SearchAgent, is_proven, plies_to_end
    from ..agents.registry import make_agent
    from ..errors import AgentError

    board = balanced_game(game)
    agent = make_agent(spec, seed=0)
    if not isinstance(agent, SearchAgent):
        raise AgentError(f"{spec!r} does not search, so it cannot evaluate openings")

    def evaluate(state: Any) -> int:
        value = agent.search(game, state).value
        if not is_proven(value):
            return 0
        end_ply = state.ply + plies_to_end(value)  # the ply of the winning stone
        score = (board.cells + 2 - end_ply) // 2
        return int(score if value > 0 else -score)

    return evaluate


def candidate_positions(game: Game[Any, Any], plies: int, sample: int | None = None, seed: int = 0
                        ) -> list[tuple[int, ...]]:
    """The move sequences :func:`generate_openings` judges (``sample`` of them, drawn from ``seed``);
    :class:`~zerosum.errors.GameError` for a game the solver does not take, more plies than the board
    allows, too many positions, or none."""
    board = balanced_game(game)
    if not 0 <= plies <= max_plies(board):
        raise GameError(f"{plies} plies: a {board.rows} x {board.cols} board allows openings of 0..{max_plies(board)} plies")
    candidates = _positions(board, plies)
    if not candidates:
        raise GameError(f"no open position {plies} plies into {game.spec}: ask for fewer plies")
    if sample is not None and sample < len(candidates):
        candidates = sorted(random.Random(f"zerosum-sample/{seed}").sample(candidates, sample))
    return candidates


def generate_openings(
    game: Game[Any, Any],
    plies: int,
    max_score: int,
    evaluate: Evaluator | None = None,
    progress: Callable[[int, int], None] | None = None,
    sample: int | None = None,
    seed: int = 0,
    found: Callable[[Opening, int], None] | None = None,
    begin: Callable[[int], None] | None = None,
    candidates: list[tuple[int, ...]] | None = None,
) -> list[tuple[Opening, int]]:
    """Every distinct position ``plies`` moves in (mirror images once) whose value is within ``±max_score``.

    ``evaluate(state) -> score`` defaults to the solver.  ``sample=N`` judges only N of the positions,
    drawn from ``seed`` (for depths where judging all of them takes too long).  Returns ``(columns, score)``
    in move-string order; ``begin(total)`` is called once the positions are known (before any is judged),
    ``progress(done, total)`` after each position judged and ``found(columns, score)`` for each one kept, as
    it is found.  Too many plies for the board is a :class:`~zerosum.errors.GameError` before any work.
    ``candidates``: the positions from :func:`candidate_positions`, when the caller has them already.
    """
    board = balanced_game(game)
    if candidates is None:
        candidates = candidate_positions(game, plies, sample, seed)
    if evaluate is None:
        evaluate = solver_evaluator(game)
    if begin is not None:
        begin(len(candidates))
    out = []
    for i, seq in enumerate(candidates):
        score = evaluate(board.from_moves(list(seq)))
        if abs(score) <= max_score:
            out.append((tuple(seq), score))
            if found is not None:
                found(tuple(seq), score)
        if progress is not None:
            progress(i + 1, len(candidates))
    return out
