"""The nodes of a traced search (:class:`Node`) and the recording tracer that builds them.

A search reports to a tracer (:class:`zerosum.agents.base.Tracer`): minimax and alpha-beta ``enter`` each
node they count and ``leave`` it with its value; MCTS reports its final tree after the search.  The
:class:`Recorder` turns those calls into :class:`Node` objects, at most ``limit`` of them and for at most
``max_time`` seconds (past either, one :class:`~zerosum.errors.AgentError` line asks for a smaller search:
:mod:`zerosum.trace.bounds`), and :class:`~zerosum.trace.tree.Tree` reads them.

Two points of view.  Each node keeps what the search computed: ``value``, ``alpha`` and ``beta`` from the
side to move's view *at that node* (negamax).  The drawings and ``score`` show the textbook's view instead:
the root's side to move is MAX, every value is from MAX's view, and a MIN node's window is ``(-beta,
-alpha)``, which is the window the textbook's max/min recursion passes down.
"""

from __future__ import annotations

import math
import numbers
import time
from decimal import Decimal
from typing import Any, Iterator

from ..core.words import exact_words, short_words
from ..game import Game, safe_repr
from ..values import INF, is_proven, to_parent
from .bounds import DEFAULT_MAX_NODES, too_long, too_many_nodes

__all__ = ["Node", "Recorder", "short_value", "value_text", "PROOF_LEGEND"]

_CLOCK_EVERY = 64  # the recorder reads the clock at every 64th node (a few microseconds a node otherwise)


class Node:
    """One node the search visited.

    ``state``, ``action`` (the move into it; None at the root), ``depth`` (plies below the root); ``alpha``
    and ``beta``: the window on entry (None for minimax and MCTS); ``value``: as the search left it (the
    side to move's view; None when the search stopped before leaving it); ``cutoff``: None, ``"beta"`` (a
    fail-high: the remaining moves were skipped; :attr:`cut_by` is the child that caused it), ``"table"``
    (answered by the transposition table), ``"depth"`` (evaluated at the depth limit) or ``"terminal"``;
    ``evals``: evaluation calls at this node; ``visits``/``total``: MCTS's counts (``mean`` is the mean reward
    of the move into the node, for the player who made it).
    """

    __slots__ = ("state", "action", "depth", "alpha", "beta", "value", "cutoff", "evals", "visits", "total",
                 "parent", "children", "index", "discounted")

    def __init__(self, state: Any, action: Any, depth: int, alpha: float | None, beta: float | None,
                 parent: "Node | None", index: int, discounted: bool = True) -> None:
        self.state, self.action, self.depth = state, action, depth
        self.alpha, self.beta = alpha, beta
        self.value: float | None = None
        self.cutoff: str | None = None
        self.evals = 0
        self.visits: int | None = None
        self.total: float | None = None
        self.parent = parent
        self.children: list[Node] = []
        self.index = index  # the order in which the search entered it
        self.discounted = discounted  # proven values move one ply per level (the search's to_parent)

    # ---- what the search found ----------------------------------------------------------------

    @property
    def is_max(self) -> bool:
        """The root's side to move is to move here (MAX in the textbook's picture)."""
        return self.depth % 2 == 0

    def _up(self, v: float) -> float:
        if v >= INF or v <= -INF:  # an open end of a window
            return -v
        return to_parent(v) if self.discounted else -v  # type: ignore[arg-type]

    @property
    def score(self) -> float | None:
        """``value`` as the root sees it: from MAX's view (the root's side to move), a proven value counted in
        plies from the root; carried up a level at a time as the search does, so a MAX node's score is
        the largest of its children's and a MIN node's the smallest (for a root move: its entry in
        ``SearchResult.scores``)."""
        if self.value is None:
            return None
        v = self.value
        for _ in range(self.depth):
            v = self._up(v)
        return v

    @property
    def window(self) -> tuple[float, float] | None:
        """The alpha-beta window on entry as the root sees it (MAX's view: a MIN node's ``(-beta, -alpha)``,
        the window the textbook's max/min recursion passes down)."""
        if self.alpha is None or self.beta is None:
            return None
        lo, hi = self.alpha, self.beta
        for _ in range(self.depth):
            lo, hi = self._up(hi), self._up(lo)
        return lo, hi

    @property
    def bound(self) -> str:
        """``"exact"``, ``"upper"`` or ``"lower"``: what :attr:`value` is (the side to move's view), by the
        fail-soft rule: a value at or below alpha is an upper bound, at or above beta a lower bound."""
        if self.value is None or self.alpha is None or self.beta is None or self.cutoff in ("depth", "terminal"):
            return "exact"
        if self.value <= self.alpha:
            return "upper"
        if self.value >= self.beta:
            return "lower"
        return "exact"

    @property
    def score_bound(self) -> str:
        """:attr:`bound` for :attr:`score` (MAX's view: upper and lower swap at MIN nodes)."""
        kind = self.bound
        if kind == "exact" or self.is_max:
            return kind
        return "lower" if kind == "upper" else "upper"

    @property
    def mean(self) -> float | None:
        """MCTS: the mean reward of the move into this node, for the player who made it."""
        if self.visits is None or self.total is None:
            return None
        return self.total / self.visits if self.visits else 0.0

    @property
    def cut_by(self) -> "Node | None":
        """For a beta cut-off: the child whose value reached beta (the last one searched)."""
        return self.children[-1] if self.cutoff == "beta" and self.children else None

    def skipped(self, game: Game[Any, Any]) -> list[Any]:
        """The legal moves a beta cut-off left unsearched, in the game's order ([] for other nodes)."""
        if self.cutoff != "beta":
            return []
        searched = {child.action for child in self.children}
        return [a for a in game.actions(self.state) if a not in searched]

    def best_child(self) -> "Node | None":
        """The child the search prefers: the most visited (MCTS), else the lowest value from the child's
        view (the best for the side to move here); ties to the first searched; None at a leaf."""
        done = [c for c in self.children if c.value is not None]
        if not done:
            return None
        if self.visits is not None:
            return max(done, key=lambda c: c.visits or 0)
        return min(done, key=lambda c: c.value if c.value is not None else 0)

    def path(self) -> tuple[Any, ...]:
        """The moves from the root to this node."""
        moves: list[Any] = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            moves.append(node.action)
            node = node.parent
        return tuple(reversed(moves))

    def walk(self, depth: int | None = None) -> Iterator["Node"]:
        """This node and those below it, parents first (depth first), down to ``depth`` plies from the root."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            if depth is None or node.depth < depth:
                stack.extend(reversed(node.children))

    def size(self) -> int:
        """How many nodes are in this node's subtree, itself included."""
        return sum(1 for _ in self.walk())

    def __repr__(self) -> str:
        move = "root" if self.parent is None else repr(self.action)
        return f"<Node {move} depth={self.depth} value={self.value!r} cutoff={self.cutoff!r}>"


class Recorder:
    """A :class:`~zerosum.agents.base.Tracer` that builds :class:`Node` objects: at most ``limit``, and none
    once ``max_time`` seconds have passed since it was made (None: no time bound)."""

    def __init__(self, limit: int = DEFAULT_MAX_NODES, discounted: bool = True, max_time: float | None = None) -> None:
        self.limit, self.discounted, self.max_time = limit, discounted, max_time
        self.deadline = None if max_time is None else time.perf_counter() + max_time
        self.nodes: list[Node] = []
        self.roots: list[Node] = []
        self.stack: list[Node] = []

    def _new(self, state: Any, action: Any, depth: int, alpha: Any, beta: Any, parent: Node | None) -> Node:
        count = len(self.nodes)
        if count >= self.limit:
            raise too_many_nodes(self.limit)
        if self.deadline is not None and not count % _CLOCK_EVERY and time.perf_counter() > self.deadline:
            raise too_long(self.max_time or 0.0)
        node = Node(state, action, depth, alpha, beta, parent, len(self.nodes), self.discounted)
        self.nodes.append(node)
        if parent is None:
            self.roots.append(node)
        else:
            parent.children.append(node)
        return node

    def enter(self, state: Any, action: Any, depth: int, alpha: float | None, beta: float | None) -> None:
        self.stack.append(self._new(state, action, depth, alpha, beta, self.stack[-1] if self.stack else None))

    def leave(self, value: float, cutoff: str | None = None, evals: int = 0) -> None:
        node = self.stack.pop()
        node.value, node.cutoff, node.evals = value, cutoff, evals

    def mcts(self, parent: Any, action: Any, state: Any, visits: int, total: float) -> Any:
        node = self._new(state, action, 0 if parent is None else parent.depth + 1, None, None, parent)
        node.visits, node.total = visits, total
        node.value = -(total / visits) if visits else 0.0  # the side to move's view, as everywhere
        return node


#: what a proof's short figure in a drawing means (:func:`short_value`; values from MAX's view)
PROOF_LEGEND = "W n / L n: a win / loss for MAX in n moves, the game over within n moves of each side"


def short_value(value: float | None, discounted: bool = True) -> str:
    """A value in a few characters: ``+24``, ``-0.35``, ``W2`` / ``L3`` (a proven win / loss in 2 / 3 moves
    of the side concerned: :func:`zerosum.core.words.short_words`), ``win`` / ``loss`` (a search without a
    depth discount proves no distance)."""
    if value is None:
        return "?"
    if is_proven(value):
        return short_words(value) if discounted else "win" if value > 0 else "loss"
    return number_text(value)


def number_text(value: Any) -> str:
    """An estimate in a few characters, for any real number an evaluation may return (an int, a float, a
    Fraction, a numpy number...): ``+24``, ``-0.35``, ``0``; one too large for a float in powers of ten."""
    if isinstance(value, numbers.Integral):
        whole = int(value)
        return f"{whole:+d}" if whole else "0"
    try:
        figure = float(value)
    except OverflowError:  # a fraction beyond a float: its whole part, in powers of ten
        return f"{Decimal(math.floor(value)):+.2e}"
    except (TypeError, ValueError):  # a value that is no number (no evaluation returns one): as it is
        return safe_repr(value, 20)
    return f"{figure:+.2f}" if figure else "0"


def value_text(value: float | None, discounted: bool = True) -> str:
    """A value where there is room for words: a proof's distance in moves (``win in 2 moves``), else
    :func:`short_value`."""
    if value is not None and is_proven(value) and discounted:
        return exact_words(value)
    return short_value(value, discounted)
