"""Monte Carlo tree search (UCT) with MCTS-Solver proofs.

``mcts:sims=N`` or ``mcts:time=S`` (no limit: 1000 simulations), exploration ``c=`` (default 0.7, on
rewards scaled to 0..1), playout policy ``playout=random|greedy|alphabeta`` or any callable
``f(game, state) -> action`` (an agent), ``seed=`` for reproducible play.

One simulation: select by UCT down the tree (an unvisited child first, in the random order fixed when its
parent was expanded), play one playout, and back the result up (+1 win, 0 draw, -1 loss, for the player
who moved into each node).  A leaf is expanded the second time it is reached (the first time, the playout
starts from the leaf itself): its moves put in a random order, each made a child as the search needs it
(:func:`.mcts_tree.widen`: a new child once the made ones are all visited), so a node of thousands of moves
costs a child a visit; the search, simulation for simulation, is the one that made every child at once.

MCTS-Solver: a child that ends the game is proven at once, and so is a child after which the opponent can
win at once (proven lost, so no simulation is spent on such a move anywhere in the tree); a node with a
child proven won for the side to move is proven lost for the player who moved into it, and a node whose
children are all proven is proven by the best of them.  Proven losses are never selected again; a proven root ends the search early.

Before searching, the root is checked four plies deep, so MCTS never misses a win in one or two: it
plays a winning move at once (the first in ``game.actions`` order), then a move that wins on its next turn
whatever the reply; and it leaves out moves that let the opponent win at once, or force a win on its next
turn, whenever another move exists (so it blocks a loss in one and avoids walking into a loss in two).
Under a time limit the check takes at most ``TACTICS_SHARE`` of it and stops there, keeping only what it
proved (a win found, the moves proven to lose); every move it did not reach stays in.

The move: a child proven won if there is one; otherwise the most visited child that is not proven lost,
ties broken by the higher mean reward, then by ``game.actions`` order.  ``SearchResult.value`` is the
mean reward of that child (-1..1, side to move's view, not exact) unless the root is proven.  A proof's
plies are counted along the line found, which need not be the shortest (a node is proven lost as soon as
one reply wins), so a win or loss is exact, ``win_value``/``loss_value``, only where
:func:`.mcts_tree.distance` proves its distance minimal; otherwise it is proven in outcome only:
``value`` +/-``HEURISTIC_BOUND``, ``exact`` False, ``outcome`` +1/-1 (``win (distance not yet proven)``),
and ``last_proof`` says so in words (with the bound the proof found).  A root proven drawn (every move
proven, none wins) is an exact draw, 0; the search stops there, before its budget.  ``nodes`` counts
simulations, ``scores`` holds each root action's mean reward (on a root of more than ``mcts_tree.WIDE``
moves, of the moves made children).  No simulation made (a deadline reached first) and nothing proven: the
first move in ``game.actions`` order not proven lost, with no value claimed (``unknown`` ``("value",)``).

``plain=1`` is plain UCT with random playouts and nothing else: no proofs (a finished node is simply
scored each time it is reached), no root check; the move is the most visited child (ties as above); it
always runs on the generic path.  A tracer (``search(game, state, tracer)``) also sends the search down the
generic path; after the search it gets the final tree (``tracer.mcts``, parents before children, each
node's visits and total reward for the player who moved into it; the root's visits are the simulations).

Connect-X runs in the numba kernels of :mod:`zerosum.agents.kernels` when the playout is ``random`` or
``greedy`` and numba is installed (``fast=0`` forces the generic path): on bitboards where the board fits in
64 bits, else on cell arrays (each simulation replays its moves from the root).  The kernels are loaded
once per process (:mod:`.prepare`; :meth:`warm_up` loads them before a clock starts): a search without a
time limit loads them first, so a simulation budget searches the same either way; a time limit counts
from the call, loading included, and when the kernels are not loaded within ``1 - prepare.SPARE`` of it
(a cold cache, or numba's own start in a new process) the search takes the generic path for the time
left while the loading goes on in the background (so do ``playout=alphabeta``'s playouts).

Limits: ``sims=`` (1..``MAX_SIMULATIONS``) and ``time=`` (seconds, at most ``MAX_TIME``); when both are
given, whichever comes first stops the search, on every path (the numba path runs in slices of about
``mcts_fast.SLICE_SECONDS`` between clock readings; the generic path reads the clock before each move
played in a child's check or a playout, and while a greedy or alpha-beta playout chooses a move, which on a
game of thousands of moves can take far longer than the limit; a playout that does not end before the
deadline is dropped, not counted as a simulation: :mod:`.mcts_playouts`).  The tree's memory is
bounded by ``TREE_MEMORY`` (256 MB): at most ``TREE_MEMORY // FAST_NODE_BYTES`` nodes (3,355,443) on the
numba path, and on the generic path ``TREE_MEMORY // (GENERIC_NODE_BYTES + the root state's size)`` (about
700,000 on Connect Four; an expanded node counts all its moves, made children or not).  Once the tree is full
no leaf is expanded: the simulations go on, each playout starting from the leaf it reaches.
``tree_nodes`` holds the size of the last search's tree.

The rooms: this module (the agent, its options and the generic search loop), :mod:`.mcts_playouts` (the
playout policies and their deadline), :mod:`.mcts_tree` (nodes, proofs, selection, the answer) and
:mod:`.mcts_fast` (the numba path).
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from ..core.words import moves_to_end
from ..errors import AgentError
from ..game import COLUMN_BITBOARD, Game, other
from ..spec import quoted
from ..values import win_value
from . import mcts_fast
from .base import (Agent, Limits, Option, SearchAgent, SearchResult, Tracer, bounded, check_game, check_range,
                   check_search, flag as _flag)
from .budget import deadline_of
from .mcts_fast import FAST_NODE_BYTES  # noqa: F401 - the tree's bound, named where the module doc names it
from .mcts_playouts import Policy, depth_searcher, play_out, playout_policy
from .mcts_tree import (LOST, PROVEN, REWARD as _REWARD, UNKNOWN, Node as _Node, Untried, answer, child, report,
                        select, state_bytes as _state_bytes, widen)
from .prepare import Step, numba_step, numba_usable, settle_search, step, steps_of, warm
from .tactics import OutOfTime, tactical_move
from .traits import MEAN, AgentTraits, ServerTraits, ValueUnit

__all__ = ["MCTSAgent", "PLAYOUTS", "tactical_move", "TREE_MEMORY", "MAX_C"]

DEFAULT_SIMULATIONS = 1000
MAX_C = 100.0  # the largest exploration constant
#: the memory a search tree may use, in bytes (see the module doc)
TREE_MEMORY = 256 * 2**20
GENERIC_NODE_BYTES = 200  # generic path: a node object and its share of its parent's children list
#: seconds the kernels take to compile on a cold cache (an idle two-core machine; :mod:`.prepare`)
COLD_SECONDS = 4.5
#: under a time limit, the share of it the root check may take (it stops there: :func:`.tactics.tactical_move`)
TACTICS_SHARE = 0.5

PLAYOUTS = ("random", "greedy", "alphabeta")


def _playout_name(text: str) -> str:
    if text not in PLAYOUTS:
        raise ValueError(text)
    return text


class MCTSAgent(SearchAgent):
    """UCT with MCTS-Solver proofs and a root check for wins in one or two (see module doc)."""

    name = "mcts"
    description = "Monte Carlo tree search (UCT) with proven wins and losses"
    TRAITS = AgentTraits(label="MCTS", short="mcts", traced=True, counts="simulations",
                         chooses="the move it visited most", server=ServerTraits(),
                         values=ValueUnit(kind=MEAN, low=-1, high=1,
                                          words="{name}: mean result of {nodes:,} simulations, -1 loss .. +1 win"),
                         opponent=("time=1", "MCTS, 1 s a move"), strength=30)
    LIMITS = ("simulations", "time")
    OPTIONS = {
        "c": bounded(float, "exploration constant (rewards scaled to 0..1)", 0, MAX_C),
        "playout": Option(_playout_name, "playout policy: random, greedy, alphabeta", None,
                          "one of random, greedy, alphabeta"),
        "fast": Option(_flag, "use the numba kernels on Connect-X when possible (default 1)", None, "0 or 1"),
        "plain": Option(_flag, "plain UCT with random playouts: no proofs, no root tactics (default 0)", None,
                        "0 or 1"),
    }

    def __init__(
        self,
        *,
        limits: Limits | None = None,
        seed: int | None = None,
        c: float = 0.7,
        playout: "str | Callable[[Game[Any, Any], Any], Any]" = "random",
        fast: bool = True,
        plain: bool = False,
    ) -> None:
        super().__init__(limits=limits, seed=seed)
        if plain and playout != "random":
            raise AgentError("mcts:plain=1 plays random playouts only: leave out playout=")
        self.plain = plain
        if isinstance(playout, str) and playout not in PLAYOUTS:
            raise AgentError(f"unknown playout {quoted(playout)}: choose one of {', '.join(PLAYOUTS)} or pass a callable")
        if not isinstance(playout, str) and not callable(playout):
            raise AgentError(f"a playout is a name or a callable f(game, state) -> action, not {quoted(playout)}")
        self.c = check_range(self.name, "c", c, 0, MAX_C, whole=False)
        self.playout = playout
        self.fast = fast
        self.rng = random.Random(seed)
        self._playout_agent: Agent | None = None
        self._cells = False  # True: the cell-array kernel even where the bitboard one fits (tests)
        self.tree_nodes = 0  # the size of the last search's tree
        #: when the last search proved a win or loss but not its distance (``SearchResult.outcome``), what that
        #: means in words (the faces then say ``win (distance not yet proven)``); else None
        self.last_proof: str | None = None
        self._bound: int | None = None  # plies: the proof found for the last ``outcome``

    def reset(self) -> None:
        self.rng = random.Random(self.seed)

    def _uses_fast_path(self, game: Game[Any, Any]) -> bool:
        return bool(self.fast and not self.plain and game.traits.layout == COLUMN_BITBOARD
                    and self.playout in ("random", "greedy") and numba_usable())

    def preparation(self, game: Game[Any, Any], state: Any = None) -> list[Step]:
        """The compiled code a search of ``game`` needs (:mod:`.prepare`): the kernels of its board (bitboards
        or cell arrays), or alpha-beta's for ``playout=alphabeta``; none off the numba path."""
        check_game(self.spec, game)
        if self.playout == "alphabeta":  # its playouts search with alpha-beta
            return steps_of(self._alphabeta_playout(), game)
        if not self._uses_fast_path(game):
            return []
        bitboards = bool(game.fits_64 and not self._cells)  # type: ignore[attr-defined]
        kind = "bitboards" if bitboards else "cell arrays"
        return [numba_step(), step(f"mcts {kind}", f"MCTS's kernels on {kind}", lambda: _probe(game, bitboards),
                                   COLD_SECONDS)]

    def warm_up(self, game: Game[Any, Any]) -> None:
        """Load (or compile) the numba kernels ``game`` needs, once per process."""
        check_game(self.spec, game)
        warm(self.preparation(game))

    def _budget(self, start: float, forced: bool = False) -> tuple[int | None, float | None]:
        """(simulations, deadline) of a search called at ``start`` (``forced``: one legal action: a tenth of the
        time, :func:`~.budget.deadline_of`)."""
        sims, seconds = self.limits.simulations, self.limits.time
        if sims is None and seconds is None:
            sims = DEFAULT_SIMULATIONS
        return sims, deadline_of(start, seconds, forced)

    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        self.last_proof = self._bound = None
        found = self._search(game, state, tracer)
        if found.outcome is not None and self._bound is not None:  # proven, its distance not: what that means
            n = moves_to_end(win_value(self._bound))
            self.last_proof = (f"a proven win; distance not yet proven (the line found wins within {n} moves)"
                               if found.outcome > 0 else
                               "a proven loss whatever it plays; distance not yet proven (after the move chosen, "
                               f"the opponent can win within {n} moves)")
        return found

    def _search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None) -> SearchResult:
        check_search(self.spec, game, state, tracer, ("mcts",))
        start = time.perf_counter()  # a time limit counts from here, loading compiled code included
        self.tree_nodes = 0
        actions = game.actions(state)
        if not actions:
            raise AgentError("no legal action: the game is over")
        # the root check counts against the time limit (stops at its share)
        sims, deadline = self._budget(start, len(actions) == 1)
        if self.plain:
            return self._search_generic(game, state, actions, sims, deadline, start, tracer)
        action, value, safe = tactical_move(game, state, None if deadline is None else
                                            start + (deadline - start) * TACTICS_SHARE)
        if action is not None:
            if tracer is not None:  # the root check answered: a tree of the root alone
                tracer.mcts(None, None, state, 0, 0.0)
            return SearchResult(action=action, value=value, nodes=0, depth=1 if value == win_value(1) else 3,
                                elapsed=time.perf_counter() - start, pv=(action,), scores={action: value},
                                score_kinds={action: "exact"})
        # the compiled code this search would use (a traced search takes the generic path, its playouts do not)
        compiled = (tracer is None or self.playout == "alphabeta") and settle_search(self.preparation(game), start,
                                                                                      deadline)
        if tracer is None and compiled and self._uses_fast_path(game):
            return self._search_fast(game, state, safe, sims, deadline, start)
        return self._search_generic(game, state, safe, sims, deadline, start, tracer, compiled)

    # ---- the generic path ---------------------------------------------------------------------

    def _playout_policy(self, game: Game[Any, Any], deadline: float | None = None,
                        compiled: bool = True) -> Policy:
        searcher = self._alphabeta_playout() if self.playout == "alphabeta" else None
        return playout_policy(game, self.playout, self.rng, deadline, searcher, compiled)

    def _alphabeta_playout(self) -> Agent:
        if self._playout_agent is None:
            self._playout_agent = depth_searcher()
        return self._playout_agent

    def _search_generic(
        self,
        game: Game[Any, Any],
        state: Any,
        safe: list[Any],
        sims: int | None,
        deadline: float | None,
        start: float,
        tracer: Tracer | None = None,
        compiled: bool = True,
    ) -> SearchResult:
        """``compiled`` False: the compiled code the playouts would use was not loaded in time."""
        rng = self.rng
        c = self.c
        plain = self.plain
        policy = self._playout_policy(game, deadline, compiled)
        actions_of, winner, player = game.actions, game.winner, game.player
        root = _Node(state, None, None)
        # children are made as needed (mcts_tree.widen), the first up to the first unproven one now: a root whose
        # moves are all proven at once is proven before any simulation
        root.children, root.untried = [], Untried(safe, rng)
        widen(game, root, plain, deadline, PROVEN)

        def grow(node: _Node) -> _Node | None:
            return widen(game, node, plain, deadline, (LOST,))

        max_nodes = max(TREE_MEMORY // (GENERIC_NODE_BYTES + _state_bytes(state)), 1 + len(safe))
        created = 1 + len(safe)
        done = 0
        max_depth = 0
        while root.proof == UNKNOWN:
            if sims is not None and done >= sims:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            node, depth = root, 0
            # selection (a new child while the node has untried moves: mcts_tree.select)
            while node.children is not None and node.proof == UNKNOWN:
                picked = select(node, c, grow)
                if picked is None:  # the deadline stopped the making of a child: play out from here
                    break
                node = picked
                depth += 1
            max_depth = max(max_depth, depth)
            expand = node.proof == UNKNOWN and node.visits > 0 and node.children is None
            leaf_actions = actions_of(node.state) if expand else ()
            if leaf_actions and created + len(leaf_actions) <= max_nodes:  # a full tree grows no more
                # expansion of a leaf seen before: its moves in a random order, made children as needed (the
                # first up to its first unproven one now)
                created += len(leaf_actions)
                node.children, node.untried = [], Untried(leaf_actions, rng)
                node = widen(game, node, plain, deadline, PROVEN) or node
            if node.proof != UNKNOWN:
                reward = _REWARD[node.proof]
            else:
                # playout: from the node's position to the end (dropped, uncounted, at the deadline)
                try:
                    s = play_out(game, node.state, policy, deadline)
                except OutOfTime:
                    break
                w = winner(s)
                mover = other(player(node.state))
                reward = 0.0 if w is None else (1.0 if w == mover else -1.0)
            # backpropagation: the reward is for the player who moved into ``node``
            up: _Node | None = node
            while up is not None:
                up.visits += 1
                up.total += reward
                reward = -reward
                up = up.parent
            done += 1
        self.tree_nodes = created
        if tracer is not None:
            report(game, root, tracer)
        return self._answer(game, state, root, done, max_depth, start)

    def _child(self, game: Game[Any, Any], parent: _Node, action: Any) -> _Node:
        return child(game, parent, action, self.plain)

    def _answer(self, game: Game[Any, Any], state: Any, root: _Node, sims: int, depth: int,
                start: float) -> SearchResult:
        found = answer(game, state, root, sims, depth, start)
        if found.outcome is not None:  # the proof found: its plies bound the distance
            self._bound = 1 + next(ch.plies for ch in root.children or () if ch.action == found.action)
        return found

    def _search_fast(self, game: Any, state: Any, safe: list[int], sims: int | None, deadline: float | None,
                     start: float) -> SearchResult:
        result, self.tree_nodes = mcts_fast.search(
            game, state, safe, sims, deadline, start, c=self.c, greedy=self.playout == "greedy", cells=self._cells,
            rng=self.rng, memory=TREE_MEMORY, answer=self._answer)
        return result


def _probe(game: Game[Any, Any], bitboards: bool) -> None:
    """A 16-simulation search of ``game``'s start on the numba path: its kernels compiled (or loaded)."""
    probe = MCTSAgent(limits=Limits(simulations=16), seed=0)
    probe._cells = not bitboards
    state = game.initial_state
    actions = game.actions(state)
    if actions:
        probe._search_fast(game, state, actions, 16, None, time.perf_counter())
