"""Monte Carlo tree search (UCT) with MCTS-Solver proofs.

``mcts:sims=N`` or ``mcts:time=S`` (no limit: 1000 simulations), exploration ``c=`` (default 0.7, on
rewards scaled to 0..1), playout policy ``playout=random|greedy|alphabeta`` or any callable
``f(game, state) -> action`` (an agent), ``seed=`` for reproducible play.

One simulation: select by UCT down the tree (an unvisited child first, in the random order fixed when its
parent was expanded), play one playout, and back the result up (+1 win, 0 draw, -1 loss, for the player
who moved into each node).  A leaf is expanded (all its children at once, in a random order) the second
time it is reached; the first time, the playout starts from the leaf itself.

MCTS-Solver: a child that ends the game is proven at once, and so is a child after which the opponent can
win at once (proven lost, so no simulation is spent on such a move anywhere in the tree); a node with a
child proven won for the side to move is proven lost for the player who moved into it, and a node whose
children are all proven is proven by the best of them.  Proven losses are never selected again; a proven root ends the search early.

Before searching, the root is checked four plies deep, so MCTS never misses a win in one or two: it
plays a winning move at once (the first in ``game.actions`` order), then a move that wins on its next turn
whatever the reply; and it leaves out moves that let the opponent win at once, or force a win on its next
turn, whenever another move exists (so it blocks a loss in one and avoids walking into a loss in two).

The move: a child proven won if there is one; otherwise the most visited child that is not proven lost,
ties broken by the higher mean reward, then by ``game.actions`` order.  ``SearchResult.value`` is the
mean reward of that child (-1..1, side to move's view) or a proven ``win_value``/``loss_value`` (its
plies counted along the proof found, which need not be the shortest line); ``nodes`` counts simulations,
``scores`` holds each root action's mean reward.

``plain=1`` is plain UCT with random playouts and nothing else: no proofs (a finished node is simply
scored each time it is reached), no root check; the move is the most visited child (ties as above); it
always runs on the generic path.  A tracer (``search(game, state, tracer)``) also sends the search down the
generic path; after the search it gets the final tree (``tracer.mcts``, parents before children, each
node's visits and total reward for the player who moved into it; the root's visits are the simulations).

Connect-X runs in the numba kernels of :mod:`zerosum.agents.kernels` when the playout is ``random`` or
``greedy`` and numba is installed (``fast=0`` forces the generic path): on bitboards where the board fits in
64 bits, else on cell arrays (each simulation replays its moves from the root).  :meth:`warm_up` loads the
kernels before the clock starts (``search`` calls it before reading the clock).

Limits: ``sims=`` (1..``MAX_SIMULATIONS``) and ``time=`` (seconds, at most ``MAX_TIME``); when both are
given, whichever comes first stops the search, on every path (the numba path runs in slices of about
``SLICE_SECONDS`` between clock readings).  The tree's memory is bounded by ``TREE_MEMORY`` (256 MB): at
most ``TREE_MEMORY // FAST_NODE_BYTES`` nodes (3,355,443) on the numba path, and on the generic path
``TREE_MEMORY // (GENERIC_NODE_BYTES + the root state's size)`` (about 700,000 on Connect Four).  Once the
tree is full no leaf is expanded: the simulations go on, each playout starting from the leaf it reaches.
``tree_nodes`` holds the size of the last search's tree.
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Any, Callable

from ..errors import AgentError
from ..game import Game, Origin, other
from ..values import loss_value, win_value
from .base import (Agent, Limits, Option, SearchAgent, SearchResult, Tracer, bounded, check_range, flag as _flag,
                   kernels)
from .tactics import tactical_move, winning_actions, wins_now

__all__ = ["MCTSAgent", "PLAYOUTS", "tactical_move", "TREE_MEMORY", "MAX_C"]

DEFAULT_SIMULATIONS = 1000
MAX_C = 100.0  # the largest exploration constant
CHUNK = 16384  # fast path without a time limit: simulations per kernel call
SLICE_SECONDS = 0.005  # fast path with a time limit: each kernel call runs about this long
FIRST_SLICE = 256  # ... the first call's simulations, before the speed is measured
#: the memory a search tree may use, in bytes (see the module doc)
TREE_MEMORY = 256 * 2**20
FAST_NODE_BYTES = 80  # numba path: a position (16 bytes), seven int64 fields and a float64 total
GENERIC_NODE_BYTES = 200  # generic path: a node object and its share of its parent's children list
_WARM: set[tuple[str, bool]] = set()  # (game spec, bitboards) whose kernels this process has loaded
UNKNOWN, WON, LOST, DRAWN = 0, 1, -1, 2  # proofs, for the player who moved into a node

_REWARD = {WON: 1.0, LOST: -1.0, DRAWN: 0.0}

PLAYOUTS = ("random", "greedy", "alphabeta")


def _playout_name(text: str) -> str:
    if text not in PLAYOUTS:
        raise ValueError(text)
    return text


class _Node:
    __slots__ = ("state", "parent", "action", "children", "visits", "total", "proof", "plies")

    def __init__(self, state: Any, parent: "_Node | None", action: Any) -> None:
        self.state = state
        self.parent = parent
        self.action = action
        self.children: list[_Node] | None = None
        self.visits = 0
        self.total = 0.0  # sum of rewards for the player who moved into this node
        self.proof = UNKNOWN
        self.plies = 0  # for a proven node: plies to the end along the proof


def _state_bytes(state: Any, depth: int = 3) -> int:
    """An estimate of the memory a state holds (its containers and their items, a few levels deep); the root
    of a move history (:class:`zerosum.game.Origin`) is one object shared by every state of a game, so it
    counts nothing."""
    if isinstance(state, Origin):
        return 0
    size = sys.getsizeof(state)
    if depth > 0:
        if isinstance(state, (tuple, list, set, frozenset)):
            size += sum(_state_bytes(x, depth - 1) for x in state)
        elif isinstance(state, dict):
            size += sum(_state_bytes(k, depth - 1) + _state_bytes(v, depth - 1) for k, v in state.items())
        else:
            names = getattr(type(state), "__slots__", ()) or tuple(getattr(state, "__dict__", ()))
            names = (names,) if isinstance(names, str) else names
            size += sum(_state_bytes(getattr(state, n, None), depth - 1) for n in names)
    return size


class MCTSAgent(SearchAgent):
    """UCT with MCTS-Solver proofs and a root check for wins in one or two (see module doc)."""

    name = "mcts"
    description = "Monte Carlo tree search (UCT) with proven wins and losses"
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
            raise AgentError(f"unknown playout {playout!r}: choose one of {', '.join(PLAYOUTS)} or pass a callable")
        if not isinstance(playout, str) and not callable(playout):
            raise AgentError(f"a playout is a name or a callable f(game, state) -> action, not {playout!r}")
        self.c = check_range(self.name, "c", c, 0, MAX_C, whole=False)
        self.playout = playout
        self.fast = fast
        self.rng = random.Random(seed)
        self._playout_agent: Agent | None = None
        self._cells = False  # True: the cell-array kernel even where the bitboard one fits (tests)
        self.tree_nodes = 0  # the size of the last search's tree

    def reset(self) -> None:
        self.rng = random.Random(self.seed)

    def _uses_fast_path(self, game: Game[Any, Any]) -> bool:
        from ..games.connectx import ConnectX

        return bool(self.fast and not self.plain and isinstance(game, ConnectX)
                    and self.playout in ("random", "greedy") and kernels() is not None)

    def warm_up(self, game: Game[Any, Any]) -> None:
        """Load (or compile) the numba kernels ``game`` needs with a tiny search, once per process."""
        if self.playout == "alphabeta":  # its playouts search with alpha-beta
            self._alphabeta_playout().warm_up(game)
        if not self._uses_fast_path(game):
            return
        key = (getattr(game, "spec", ""), bool(game.fits_64 and not self._cells))  # type: ignore[attr-defined]
        if key in _WARM:
            return
        _WARM.add(key)
        probe = MCTSAgent(limits=Limits(simulations=16), seed=0, c=self.c, playout=self.playout)
        probe._cells = self._cells
        state = game.initial_state
        actions = game.actions(state)
        if actions:
            probe._search_fast(game, state, actions, 16, None, time.perf_counter())

    def _budget(self) -> tuple[int | None, float | None]:
        sims, seconds = self.limits.simulations, self.limits.time
        if sims is None and seconds is None:
            sims = DEFAULT_SIMULATIONS
        deadline = None if seconds is None else time.perf_counter() + max(0.0, seconds * 0.97 - 0.005)
        return sims, deadline

    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        if tracer is None:
            self.warm_up(game)  # before the clock: loading compiled code is not thinking time
        start = time.perf_counter()
        self.tree_nodes = 0
        actions = game.actions(state)
        if not actions:
            raise AgentError("no legal action: the game is over")
        sims, deadline = self._budget()  # the root check counts against the time limit
        if self.plain:
            return self._search_generic(game, state, actions, sims, deadline, start, tracer)
        action, value, safe = tactical_move(game, state)
        if action is not None:
            if tracer is not None:  # the root check answered: a tree of the root alone
                tracer.mcts(None, None, state, 0, 0.0)
            return SearchResult(action=action, value=value, nodes=0, depth=1 if value == win_value(1) else 3,
                                elapsed=time.perf_counter() - start, pv=(action,), scores={action: value})
        if tracer is None and self._uses_fast_path(game):
            return self._search_fast(game, state, safe, sims, deadline, start)
        return self._search_generic(game, state, safe, sims, deadline, start, tracer)

    # ---- the generic path ---------------------------------------------------------------------

    def _playout_policy(self, game: Game[Any, Any]) -> Callable[[Any, list[Any]], Any]:
        rng = self.rng
        if callable(self.playout):
            policy = self.playout
            return lambda s, acts: policy(game, s)
        if self.playout == "random":
            return lambda s, acts: acts[rng.randrange(len(acts))]
        if self.playout == "greedy":
            return lambda s, acts: self._greedy(game, s, acts)
        agent = self._alphabeta_playout()
        return lambda s, acts: agent(game, s)

    def _alphabeta_playout(self) -> Agent:
        if self._playout_agent is None:
            from .alphabeta import AlphaBetaAgent

            self._playout_agent = AlphaBetaAgent(limits=Limits(depth=2), tt=0)
        return self._playout_agent

    def _greedy(self, game: Game[Any, Any], s: Any, acts: list[Any]) -> Any:
        """Take a win, else block the opponent's win in one, else a random move."""
        from ..games.connectx import ConnectX

        rng = self.rng
        me = game.player(s)
        if isinstance(game, ConnectX):
            from .heuristics import winning_cells

            playable = (s.mask + game.bottom_mask) & game.board_mask
            mine = winning_cells(game, s.current, s.mask) & playable
            theirs = winning_cells(game, s.current ^ s.mask, s.mask) & playable
            target = mine or theirs
            if target:
                low = target & -target
                return (low.bit_length() - 1) // game.height
            return acts[rng.randrange(len(acts))]
        wins = winning_actions(game, s, acts, me)
        if wins:
            return wins[rng.randrange(len(wins))]
        order = list(acts)
        rng.shuffle(order)
        for a in order:  # the first move after which the opponent cannot win at once
            s1 = game.result(s, a)
            if game.is_terminal(s1) or not winning_actions(game, s1, game.actions(s1), other(me)):
                return a
        return order[0]

    def _search_generic(
        self,
        game: Game[Any, Any],
        state: Any,
        safe: list[Any],
        sims: int | None,
        deadline: float | None,
        start: float,
        tracer: Tracer | None = None,
    ) -> SearchResult:
        rng = self.rng
        c = self.c
        plain = self.plain
        policy = self._playout_policy(game)
        result, actions_of, winner, player = game.result, game.actions, game.winner, game.player
        root = _Node(state, None, None)
        root.children = [self._child(game, root, a) for a in safe]
        rng.shuffle(root.children)
        for ch in root.children:
            if not plain:
                self._prove(ch)
        max_nodes = max(TREE_MEMORY // (GENERIC_NODE_BYTES + _state_bytes(state)), 1 + len(safe))
        created = 1 + len(safe)
        done = 0
        max_depth = 0
        while root.proof == UNKNOWN:
            if sims is not None and done >= sims:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            done += 1
            node, depth = root, 0
            # selection
            while node.children is not None and node.proof == UNKNOWN:
                node = self._select(node, c)
                depth += 1
            max_depth = max(max_depth, depth)
            leaf_actions = actions_of(node.state) if node.proof == UNKNOWN and node.visits > 0 else ()
            if leaf_actions and created + len(leaf_actions) <= max_nodes:  # a full tree grows no more
                # expansion of a leaf seen before: every child at once, in a random order
                created += len(leaf_actions)
                node.children = [self._child(game, node, a) for a in leaf_actions]
                rng.shuffle(node.children)
                for ch in node.children:
                    if ch.proof != UNKNOWN and not plain:
                        self._prove(ch)
                if node.proof == UNKNOWN:
                    node = next((ch for ch in node.children if ch.proof == UNKNOWN), node.children[0])
            if node.proof != UNKNOWN:
                reward = _REWARD[node.proof]
            else:
                # playout: from the node's position to the end
                s = node.state
                acts = actions_of(s)
                while acts:
                    s = result(s, policy(s, acts))
                    acts = actions_of(s)
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
        self.tree_nodes = created
        if tracer is not None:
            self._report(root, tracer)
        return self._answer(game, state, root, done, max_depth, start)

    @staticmethod
    def _report(root: _Node, tracer: Tracer) -> None:
        """The final tree to ``tracer.mcts``, parents before children (breadth first)."""
        queue = [(None, root)]
        for parent, node in queue:
            handle = tracer.mcts(parent, node.action, node.state, node.visits, node.total)
            queue.extend((handle, ch) for ch in node.children or ())

    def _child(self, game: Game[Any, Any], parent: _Node, action: Any) -> _Node:
        s = game.result(parent.state, action)
        node = _Node(s, parent, action)
        if self.plain:  # plain UCT proves nothing: a finished node is scored each time it is reached
            return node
        if game.is_terminal(s):
            node.proof = DRAWN if game.winner(s) is None else WON  # only the mover can have just won
        elif wins_now(game, s, game.player(s)):  # the opponent wins at once: lost, never selected
            node.proof, node.plies = LOST, 1
        return node

    def _select(self, node: _Node, c: float) -> _Node:
        assert node.children is not None
        best, best_score = None, -math.inf
        log_n = math.log(max(node.visits, 1))
        for ch in node.children:
            if ch.proof == LOST:
                continue
            if ch.visits == 0:
                return ch
            q = 0.5 if ch.proof == DRAWN else (ch.total / ch.visits + 1.0) / 2.0
            score = q + c * math.sqrt(log_n / ch.visits)
            if score > best_score:
                best, best_score = ch, score
        assert best is not None  # a node whose children are all lost is proven, never selected from
        return best

    def _prove(self, node: _Node) -> None:
        """Carry a new proof at ``node`` up the tree as far as it goes."""
        while node.parent is not None and node.proof != UNKNOWN:
            parent = node.parent
            if parent.proof != UNKNOWN or parent.children is None:
                return
            if node.proof == WON:
                parent.proof, parent.plies = LOST, node.plies + 1
            elif all(ch.proof != UNKNOWN for ch in parent.children):
                if any(ch.proof == DRAWN for ch in parent.children):
                    parent.proof = DRAWN
                else:
                    parent.proof, parent.plies = WON, max(ch.plies for ch in parent.children) + 1
            else:
                return
            node = parent

    def _answer(self, game: Game[Any, Any], state: Any, root: _Node, sims: int, depth: int,
                start: float) -> SearchResult:
        assert root.children is not None
        rank = {a: i for i, a in enumerate(game.actions(state))}
        children = root.children
        won = [ch for ch in children if ch.proof == WON]
        if won:
            best = min(won, key=lambda ch: (ch.plies, rank[ch.action]))
            value: float = win_value(best.plies + 1)
        else:
            pool = [ch for ch in children if ch.proof != LOST] or children
            best = min(pool, key=lambda ch: (-ch.visits, -(ch.total / ch.visits if ch.visits else 0.0),
                                             rank[ch.action]))
            if best.proof == LOST:
                value = loss_value(best.plies + 1)
            elif best.proof == DRAWN:
                value = 0
            else:
                value = best.total / best.visits if best.visits else 0.0
        pv = [best.action]
        node = best
        while node.children:
            node = max(node.children, key=lambda ch: ch.visits)
            if node.visits == 0:
                break
            pv.append(node.action)
        scores = {ch.action: (ch.total / ch.visits if ch.visits else 0.0) for ch in children}
        return SearchResult(action=best.action, value=value, nodes=sims, depth=depth,
                            elapsed=time.perf_counter() - start, pv=tuple(pv), scores=scores)

    # ---- the numba path (Connect-X in 64 bits) ---------------------------------------------------

    def _search_fast(self, game: Any, state: Any, safe: list[int], sims: int | None, deadline: float | None,
                     start: float) -> SearchResult:
        import numpy as np

        fast = kernels()
        assert fast is not None
        cols = game.cols
        # the arrays bound the tree; np.zeros takes fresh zeroed pages, so memory is used as the tree grows
        limit = TREE_MEMORY // FAST_NODE_BYTES
        capacity = limit if sims is None else min(limit, 1 + cols * (sims + 2))
        pos = np.zeros((capacity, 2), dtype=np.uint64)
        ints = np.zeros((capacity, fast.T_FIELDS), dtype=np.int64)
        total = np.zeros(capacity, dtype=np.float64)
        meta = np.zeros(2, dtype=np.int64)
        rng = np.array([(self.rng.getrandbits(63) * 0x9E3779B97F4A7C15 | 1) % (1 << 64)], dtype=np.uint64)
        allowed = np.array(sorted(safe), dtype=np.int64)
        bitboards = game.fits_64 and not self._cells
        if bitboards:
            fast.mcts_init(np.uint64(state.current), np.uint64(state.mask), allowed, pos, ints, total, meta,
                           game.rows, cols, game.k, rng)
        else:
            grid, heights, _ = fast.grid_of(game, state, np.zeros((2, game.cells), dtype=np.uint64))
            fast.mcts_init_grid(grid, heights, state.to_move, state.ply, allowed, ints, total, meta, game.rows, cols,
                                game.k, rng)
        greedy = self.playout == "greedy"
        done = 0
        chunk = CHUNK if deadline is None else FIRST_SLICE
        while ints[0, fast.T_PROOF] == fast.P_UNKNOWN:  # whichever limit comes first stops the search
            n = chunk if sims is None else min(chunk, sims - done)
            if n <= 0:
                break
            if deadline is not None:
                t0 = time.perf_counter()
                if t0 >= deadline:
                    break
            if bitboards:
                ran = fast.mcts_run(pos, ints, total, meta, n, game.rows, cols, game.k, self.c, greedy, rng)
            else:
                ran = fast.mcts_run_grid(ints, total, meta, n, game.rows, cols, game.k, self.c, greedy, rng,
                                         grid, heights, state.to_move, state.ply)
            done += ran
            if deadline is not None:  # the next slice: about SLICE_SECONDS at the speed just measured
                spent = time.perf_counter() - t0
                chunk = max(16, min(CHUNK, int(ran * SLICE_SECONDS / spent))) if spent > 0 and ran else chunk
        self.tree_nodes = int(meta[0])
        return self._answer_arrays(game, state, pos, ints, total, done, int(meta[1]), start)

    def _answer_arrays(self, game: Any, state: Any, pos: Any, ints: Any, total: Any, sims: int, depth: int,
                       start: float) -> SearchResult:
        """The generic answer, rebuilt from the kernel's arrays (the same rules and tie-breaks)."""
        from . import kernels as fast

        proofs = {fast.P_UNKNOWN: UNKNOWN, fast.P_WON: WON, fast.P_LOST: LOST, fast.P_DRAWN: DRAWN}

        def build(i: int, parent: _Node | None, levels: int) -> _Node:
            node = _Node(None, parent, int(ints[i, fast.T_MOVE]))
            node.visits = int(ints[i, fast.T_VISITS])
            node.total = float(total[i])
            node.proof = proofs[int(ints[i, fast.T_PROOF])]
            node.plies = int(ints[i, fast.T_PLIES])
            first = int(ints[i, fast.T_FIRST])
            if first >= 0 and levels > 0:
                node.children = [build(ch, node, levels - 1) for ch in range(first, first + int(ints[i, fast.T_NCH]))]
            return node

        root = build(0, None, 1)
        answer = self._answer(game, state, root, sims, depth, start)
        # the principal variation: most visited children from the chosen move down
        pv = [answer.action]
        first = int(ints[0, fast.T_FIRST])
        node = next(i for i in range(first, first + int(ints[0, fast.T_NCH])) if ints[i, fast.T_MOVE] == answer.action)
        while ints[node, fast.T_FIRST] >= 0:
            first = int(ints[node, fast.T_FIRST])
            kids = range(first, first + int(ints[node, fast.T_NCH]))
            node = max(kids, key=lambda i: int(ints[i, fast.T_VISITS]))
            if ints[node, fast.T_VISITS] == 0:
                break
            pv.append(int(ints[node, fast.T_MOVE]))
        return SearchResult(action=answer.action, value=answer.value, nodes=sims, depth=depth,
                            elapsed=time.perf_counter() - start, pv=tuple(pv), scores=answer.scores)
