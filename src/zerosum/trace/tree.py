"""The tree a search visited (:class:`Tree`), read from the :class:`~zerosum.trace.nodes.Node` objects a
:class:`~zerosum.trace.nodes.Recorder` built; its drawings are in :mod:`zerosum.trace.draw`."""

from __future__ import annotations

from typing import Any, Iterator

from ..game import Game
from .draw import dot as _dot, html as _html, svg as _svg, text as _text
from .nodes import Node, Recorder, short_value, value_text

__all__ = ["Tree"]


#: why a root move an MCTS search never tried scores nothing (:meth:`Tree.left_out`), as both faces say it
LEFT_OUT = "left out: the opponent wins within two of its moves (the root check)"


def proved(result: Any) -> str:
    """What a search that keeps means (MCTS) proved of the position, if anything (``; it proved the position:
    draw``), for a verdict: its means say nothing of it."""
    if result.exact is not True and result.outcome is None:
        return ""
    return f"; it proved the position: {result.describe()}"


class Tree:
    """The tree a search visited (see :func:`zerosum.trace.trace`).

    ``result``: the search's :class:`~zerosum.agents.base.SearchResult`; ``nodes``: every recorded node in the
    order entered (``len(tree)`` equals ``result.nodes`` for minimax and alpha-beta; for MCTS it is the size
    of the final tree, and the root's visits equal the simulations); ``iterations``: the root of each
    iteration (iterative deepening enters the root once per depth); ``root``: the last finished one, which is
    what the drawings show; ``note``: what the trace does not show (the solver's search is not traced).
    """

    def __init__(self, game: Game[Any, Any], agent: Any, state: Any, result: Any, recorder: Recorder,
                 *, discounted: bool = True, note: str = "") -> None:
        self.game, self.agent, self.state, self.result = game, agent, state, result
        self.nodes = recorder.nodes
        self.iterations = tuple(recorder.roots)
        finished = [root for root in self.iterations if root.value is not None]
        self.root = finished[-1] if finished else self.iterations[-1]
        self.discounted = discounted
        self.note = note
        #: the agent's declared traits (:mod:`zerosum.agents.traits`): what its values and counts are
        self.traits = getattr(agent, "TRAITS", None)
        #: the shape of the search, read from the tree itself: "exact" (an untraced search of exact values:
        #: the root alone), "mcts" (visits and means), "minimax" (no window) or "alphabeta" (windows)
        self.kind = ("exact" if self.traits is not None and self.traits.exact and not self.traits.traced
                     else "mcts" if self.root.visits is not None
                     else "minimax" if self.root.alpha is None else "alphabeta")
        self._left_out: list[Any] | None = None  # :meth:`left_out`, once asked

    def __len__(self) -> int:
        return len(self.nodes)

    def untraced(self) -> str:
        """What an untraced search (:attr:`kind` ``"exact"``: the solver) counted, as both headers say it."""
        counts = getattr(self.traits, "counts", "nodes") or "nodes"
        return f"{self.result.nodes:,} {counts} searched, not traced (the root alone recorded)"

    def value_kind(self, action: Any) -> str:
        """What a root move's score is when it is no bound and no mean: ``"exact"`` where it is a proof (the
        search says its result is exact, or the score is a proven win or loss), else ``"searched"``: the
        search's value to its depth (a heuristic evaluation at its leaves), which is no proof."""
        from ..values import is_proven

        score = self.result.scores.get(action)
        proof = self.kind == "exact" or self.result.exact is True or (score is not None and is_proven(score))
        return "exact" if proof else "searched"

    def left_out(self) -> list[Any]:
        """The root moves an MCTS search's root check proves lost before any simulation, which it therefore
        never tries (:func:`zerosum.agents.tactics.tactical_move`: each lets the opponent win at once, or force a
        win on its next turn) and which have no node here; none for other searches and for plain UCT.  Proven
        again here, whole (a search under a time limit may have stopped its check early)."""
        if self.kind != "mcts" or getattr(self.agent, "plain", False):
            return []
        if self._left_out is None:
            from ..agents.tactics import tactical_move

            safe = tactical_move(self.game, self.state)[2]
            self._left_out = [a for a in self.game.actions(self.state) if a not in safe and self.child(a) is None]
        return self._left_out

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def counts_per_depth(self, root_only: bool = False) -> list[int]:
        """How many nodes were recorded at each depth (index 0: the root); ``root_only``: in :attr:`root`'s
        tree alone (the last deepening iteration), not in every iteration."""
        counts: list[int] = []
        for node in (self.root.walk() if root_only else self.nodes):
            while len(counts) <= node.depth:
                counts.append(0)
            counts[node.depth] += 1
        return counts

    @property
    def evals(self) -> int:
        """Evaluation calls recorded at the nodes (equals ``result.evals`` for a finished search)."""
        return sum(node.evals for node in self.nodes)

    @property
    def cutoffs(self) -> list[Node]:
        """The nodes that failed high (beta cut-offs), in the order entered."""
        return [node for node in self.nodes if node.cutoff == "beta"]

    def child(self, action: Any) -> Node | None:
        """The root's child reached by ``action`` (None when the search did not go there)."""
        return next((c for c in self.root.children if c.action == action), None)

    @property
    def pv_nodes(self) -> list[Node]:
        """The principal variation in the tree: from the root, the move the search chose, then at each node
        its :meth:`~Node.best_child` (the most visited for MCTS)."""
        chosen = self.child(self.result.action) if self.result is not None else None
        line: list[Node] = []
        node = chosen or self.root.best_child()
        while node is not None:
            line.append(node)
            node = node.best_child()
        return line

    @property
    def pv(self) -> tuple[Any, ...]:
        """The moves of :attr:`pv_nodes`."""
        return tuple(node.action for node in self.pv_nodes)

    def refutation(self, action: Any) -> Node | None:
        """The reply that gave root move ``action`` its value in the tree: the child that cut it off, else its
        best child (most visited for MCTS); None when the move was not searched or ends the search there."""
        child = self.child(action)
        return None if child is None else child.best_child()

    def describe(self, node: Node) -> str:
        """A node's value from MAX's view, with ``<=``/``>=`` when it is a bound: ``<=+24``, ``W2`` (a win in
        2 moves: :func:`~zerosum.trace.nodes.short_value`)."""
        text = short_value(node.score, self.discounted)
        kind = node.score_bound
        return ("<=" if kind == "upper" else ">=" if kind == "lower" else "") + text

    def words(self, node: Node) -> str:
        """:meth:`describe` where there is room for words: an exact proof's distance in moves (``win in 2
        moves``: :func:`~zerosum.trace.nodes.value_text`), a bound as :meth:`describe` has it."""
        return value_text(node.score, self.discounted) if node.score_bound == "exact" else self.describe(node)

    # ---- drawings (zerosum.trace.draw) --------------------------------------------------------

    def text(self, depth: int | None = 2, boards: bool = True) -> str:
        """Indented text to ``depth`` plies (None: all), with the board at each node when ``boards``."""
        return _text(self, depth, boards)

    def svg(self, depth: int | None = None) -> str:
        """An SVG drawing of :attr:`root`'s tree to ``depth`` plies (default: as deep as stays readable)."""
        return _svg(self, depth)

    def dot(self, depth: int | None = None) -> str:
        """Graphviz dot text of :attr:`root`'s tree to ``depth`` plies (None: all)."""
        return _dot(self, depth)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_html_(self) -> str:
        return _html(self)

    def __repr__(self) -> str:
        counts = ", ".join(str(c) for c in self.counts_per_depth())
        return (f"<Tree of {getattr(self.agent, 'spec', self.agent)!r}: {len(self.nodes)} nodes "
                f"(per depth {counts}), value {short_value(self.root.value, self.discounted)}>")
