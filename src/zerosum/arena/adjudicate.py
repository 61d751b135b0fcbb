"""Adjudication: ending an arena game early with the result it must have (``--adjudicate``).

- ``solver`` (``solver=NODES``): Connect-X boards the solver takes (cols x (rows + 1) <= 64).  After each
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
  is the measure of "near enough to the end" that a weak engine is expected to find the result too.  One
  solver, with a small transposition table (:data:`TABLE_SIZE`), lives as long as its worker process:
  consecutive positions of a game share most of their trees, so each check starts from what the last one
  learned.
- ``draw=N``: a game still undecided after ``N`` moves (plies played by the agents, after the opening) is
  scored a draw: reason ``adjudicated: draw after N moves``.

Both may be given (``--adjudicate solver --adjudicate draw=60``); the run's configuration stores them as
``{"solver": nodes, "draw": n}``.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import UsageError

__all__ = ["parse_adjudicate", "adjudicate_problem", "describe_adjudication", "check_adjudication", "Judge",
           "prove", "DEFAULT_SOLVER_NODES", "MIN_SOLVER_NODES", "MAX_SOLVER_NODES", "MAX_DRAW_MOVES", "TABLE_SIZE"]

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
    from ..solver.solver import supports

    if not supports(game):
        raise UsageError(f"--adjudicate solver: the solver takes Connect-X boards with cols x (rows + 1) <= 64, "
                         f"not {game.spec}: use --adjudicate draw=N, or no adjudication")


_SOLVERS: dict[str, Any] = {}  # game spec -> the adjudicator's solver, one a worker process


def _solver(game: Any) -> Any:
    solver = _SOLVERS.get(game.spec)
    if solver is None:
        from ..solver.solver import Solver

        solver = _SOLVERS[game.spec] = Solver(game, tt_size=TABLE_SIZE, book=False)
    return solver


def prove(solver: Any, state: Any, nodes: int) -> tuple[int, int | None] | None:
    """``(sign, plies)`` when ``solver`` proves ``state`` (not over) within ``nodes`` nodes: the sign of its
    result for the side to move (+1, 0, -1) and, for a win or loss, the plies to its end when a second
    search finds them within the same budget (else None).  None when not proven."""
    from ..solver.solver import BudgetExceeded
    from ..values import plies_to_end, score_to_value

    try:
        sign = solver.solve_bits(state.current, state.mask, weak=True, node_limit=nodes)
    except BudgetExceeded:
        return None
    if sign == 0:
        return 0, None
    try:
        score = solver.solve_bits(state.current, state.mask, weak=False, node_limit=nodes)
    except BudgetExceeded:
        return sign, None
    return sign, plies_to_end(score_to_value(score, state.ply, solver.game.cells))


class Judge:
    """The rules of a run, applied in the worker after each move: ``judge(state, moves)`` is None, or
    ``(winner seat | None, reason)`` to end the game (``moves``: moves played after the opening)."""

    def __init__(self, game: Any, rules: dict[str, int]) -> None:
        self.game = game
        self.nodes = rules.get("solver")
        self.draw = rules.get("draw")
        self.solver = _solver(game) if self.nodes is not None else None
        if self.solver is not None:  # compiled code loads now, before any clock starts
            prove(self.solver, game.initial_state, MIN_SOLVER_NODES)

    def __call__(self, state: Any, moves: int) -> tuple[int | None, str] | None:
        if self.solver is not None:
            proof = prove(self.solver, state, self.nodes)  # type: ignore[arg-type]
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
