"""Adjudication: ending an arena game early with the result it must have (``--adjudicate``).

- ``solver`` (``solver=NODES``): Connect-X boards the solver takes (cols x (rows + 1) <= 128).  After each
  move the worker asks the solver, within ``NODES`` nodes (default 100), whether the position's result
  is proven; as soon as it is, the game ends with that result: forfeit 0, reason ``adjudicated: solver
  proved a win for the first player in 7 plies`` (or ``... a draw``).

  The result is the one perfect play from there reaches, not necessarily the one the agents would have
  reached: the larger the budget, the further from the end a game is adjudicated, and the more often
  agents that would not have found the win get it scored anyway.  The small default keeps adjudication
  near the end (docs/arena.md has the measurements: on 7 x 6 between alpha-beta and MCTS agents, 100 nodes
  agreed with the played result in 96% of games and skipped 40% of the moves; 200,000 nodes agreed in
  about half and skipped 89%).  The question is first asked weakly
  (win, draw or loss: the cheapest search); once that proves a win, a second search within the same budget
  finds its distance, which the reason gives when it is found in time.  The check runs between moves, so
  no player's clock runs while it does.

  The adjudicator's solver has no opening book: the book proves every position of its depth (ply 8 on
  7 x 6) at once, so it would end every game at its opening, before the agents have played; the node budget
  is the measure of "near enough to the end" that a weak engine is expected to find the result too.  The
  ruling is the analysis service's (:meth:`zerosum.analysis.Service.prove`), on a solver of its own with a
  small transposition table (:data:`TABLE_SIZE`) that lives as long as its worker process: consecutive
  positions of a game share most of their trees, so each check starts from what the last one learned.  It
  is the one solver that does not share the process's table: a table the players' solver has filled would
  prove positions far from the end within the budget (docs/architecture.md has the measurement).
- ``draw=N``: a game still undecided after ``N`` moves (plies played by the agents, after the opening) is
  scored a draw: reason ``adjudicated: draw after N moves``.

Both may be given (``--adjudicate solver --adjudicate draw=60``); the run's configuration stores them as
``{"solver": nodes, "draw": n}``.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import UsageError

__all__ = ["parse_adjudicate", "adjudicate_problem", "describe_adjudication", "check_adjudication", "Judge",
           "DEFAULT_SOLVER_NODES", "MIN_SOLVER_NODES", "MAX_SOLVER_NODES", "MAX_DRAW_MOVES", "TABLE_SIZE"]

#: the solver's node budget per check when ``--adjudicate solver`` names none
DEFAULT_SOLVER_NODES = 100
MIN_SOLVER_NODES = 10
MAX_SOLVER_NODES = 100_000_000
#: ``draw=N``: 1..this many moves
MAX_DRAW_MOVES = 10_000
#: entries of the adjudicator's transposition table (8 bytes each: 16 MB a worker)
TABLE_SIZE = 1 << 21

FORMS = (f"solver, solver=NODES ({MIN_SOLVER_NODES:,}..{MAX_SOLVER_NODES:,} nodes a check, default "
         f"{DEFAULT_SOLVER_NODES:,}) or draw=N (1..{MAX_DRAW_MOVES:,} moves)")


def parse_adjudicate(texts: Sequence[str]) -> dict[str, int] | None:
    """The rules of ``--adjudicate`` options (each ``solver``, ``solver=NODES`` or ``draw=N``, each kind
    at most once) as ``{"solver": nodes, "draw": n}``; None for none.  One UsageError line otherwise."""
    from ..spec import integer, quoted

    rules: dict[str, int] = {}
    for text in texts:
        kind, eq, value = (text.strip() if isinstance(text, str) else "").partition("=")
        kind = kind.strip()
        if kind not in ("solver", "draw") or (kind == "draw" and not eq):
            raise UsageError(f"--adjudicate {quoted(text)}: expected {FORMS}")
        if kind in rules:
            raise UsageError(f"--adjudicate {quoted(text)}: {kind} is given twice")
        lo, hi = (MIN_SOLVER_NODES, MAX_SOLVER_NODES) if kind == "solver" else (1, MAX_DRAW_MOVES)
        try:
            n = integer(value) if eq else DEFAULT_SOLVER_NODES
        except ValueError:
            raise UsageError(f"--adjudicate {quoted(text)}: expected {FORMS}") from None
        if not lo <= n <= hi:
            raise UsageError(f"--adjudicate {quoted(text)} is out of range: expected {FORMS}")
        rules[kind] = n
    return rules or None


def adjudicate_problem(rules: Any) -> str | None:
    """What is wrong with stored rules (types, ranges), or None."""
    if rules is None:
        return None
    if not isinstance(rules, dict) or not rules or not set(rules) <= {"solver", "draw"}:
        return "expected {'solver': nodes, 'draw': moves}"
    for kind, n in rules.items():
        lo, hi = (MIN_SOLVER_NODES, MAX_SOLVER_NODES) if kind == "solver" else (1, MAX_DRAW_MOVES)
        if type(n) is not int or not lo <= n <= hi:
            return f"{kind} must be a whole number in {lo}..{hi}"
    return None


def describe_adjudication(rules: dict[str, int] | None) -> str:
    """The rules in words, for the run's header: ``adjudication: solver (100 nodes a check), draw after 60
    moves``."""
    if not rules:
        return "adjudication: none"
    parts = []
    if "solver" in rules:
        parts.append(f"solver ({rules['solver']:,} nodes a check)")
    if "draw" in rules:
        parts.append(f"draw after {rules['draw']:,} moves")
    return "adjudication: " + ", ".join(parts)


def check_adjudication(game: Any, rules: dict[str, int] | None) -> None:
    """Refuse (one UsageError line) solver adjudication of a game the solver cannot take."""
    if not rules or "solver" not in rules:
        return
    from ..analysis import service

    if not service(game).solves:
        raise UsageError(f"--adjudicate solver: the solver takes Connect-X boards with cols x (rows + 1) <= 128, "
                         f"not {game.spec}: use --adjudicate draw=N, or no adjudication")


class Judge:
    """The rules of a run, applied in the worker after each move: ``judge(state, moves)`` is None, or
    ``(winner seat | None, reason)`` to end the game (``moves``: moves played after the opening)."""

    def __init__(self, game: Any, rules: dict[str, int]) -> None:
        self.game = game
        self.nodes = rules.get("solver")
        self.draw = rules.get("draw")
        self.engine: Any = None
        if self.nodes is not None:  # the analysis service's ruling; its compiled code loads now, before any clock
            from ..analysis import service

            self.engine = service(game)
            self.engine.prove(game.initial_state, MIN_SOLVER_NODES, TABLE_SIZE)

    def __call__(self, state: Any, moves: int) -> tuple[int | None, str] | None:
        if self.engine is not None:
            proof = self.engine.prove(state, self.nodes, TABLE_SIZE)  # nodes: given with the engine
            if proof is not None:
                sign, plies = proof
                if sign == 0:
                    return None, "adjudicated: solver proved a draw"
                mover = self.game.player(state)
                winner = mover if sign > 0 else 3 - mover
                within = "" if plies is None else f" in {plies} {'ply' if plies == 1 else 'plies'}"
                return winner, f"adjudicated: solver proved a win for the {('first', 'second')[winner - 1]} player{within}"
        if self.draw is not None and moves >= self.draw:
            return None, f"adjudicated: draw after {self.draw} moves"
        return None
