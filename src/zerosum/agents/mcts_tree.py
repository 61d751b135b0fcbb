"""The tree of :mod:`zerosum.agents.mcts` on the generic path: nodes, MCTS-Solver proofs, UCT selection and
the rule that picks the move from the root's children (the numba path rebuilds its root as these nodes to
answer by the same rule).

Proofs are for the player who moved into a node: ``WON``, ``LOST``, ``DRAWN`` or ``UNKNOWN``.

Children are made as the search needs them (:class:`Untried`, :func:`widen`), in the order a shuffle of the
node's actions gives, so a node of thousands of moves costs one child per visit, not all of them at once;
the search goes as it did when every child was made (and proven) at expansion.  ``deadline`` (a
``time.perf_counter()`` reading) stops making children, and a child's check of the opponent's wins in one,
when it passes (the child is then left unproven).
"""

from __future__ import annotations

import math
import sys
import time
from itertools import count, islice
from typing import Any, Callable

from ..game import Game, Origin
from ..values import HEURISTIC_BOUND, loss_value, win_value
from .base import SearchResult, Tracer
from .tactics import OutOfTime, wins_now

__all__ = ["UNKNOWN", "WON", "LOST", "DRAWN", "REWARD", "Node", "Untried", "state_bytes", "child", "widen",
           "select", "prove", "report", "distance", "answer", "CHECK_DEPTH", "WIDE"]

UNKNOWN, WON, LOST, DRAWN = 0, 1, -1, 2  # proofs, for the player who moved into a node

#: the reward of a proven node, for the player who moved into it
REWARD = {WON: 1.0, LOST: -1.0, DRAWN: 0.0}
#: a node with more actions than this draws its children's order one at a time (else it shuffles them at once)
WIDE = 4096
PROVEN = (WON, LOST, DRAWN)  # :func:`widen` at an expansion passes these (it stops at the first unproven child)


class Node:
    __slots__ = ("state", "parent", "action", "children", "visits", "total", "proof", "plies", "untried")

    def __init__(self, state: Any, parent: "Node | None", action: Any) -> None:
        self.state = state
        self.parent = parent
        self.action = action
        self.children: list[Node] | None = None
        self.visits = 0
        self.total = 0.0  # sum of rewards for the player who moved into this node
        self.proof = UNKNOWN
        self.plies = 0  # for a proven node: plies to the end along the proof found (a bound: :func:`distance`)
        self.untried: Untried | None = None  # an expanded node's actions not yet made children


class Untried:
    """An expanded node's actions not yet made children, taken in a random order: shuffled at once
    (``random.shuffle``: the order every child was once made in), or, past ``WIDE`` actions, one draw a take."""

    __slots__ = ("actions", "next", "rng")

    def __init__(self, actions: list[Any], rng: Any) -> None:
        self.actions = list(actions)
        self.next = 0
        self.rng = rng if len(self.actions) > WIDE else None
        if self.rng is None:
            rng.shuffle(self.actions)

    def __len__(self) -> int:
        return len(self.actions) - self.next

    def take(self) -> Any:
        i, acts = self.next, self.actions
        if self.rng is not None:  # Fisher-Yates, one step
            j = i + self.rng.randrange(len(acts) - i)
            acts[i], acts[j] = acts[j], acts[i]
        self.next = i + 1
        return acts[i]

    def rest(self) -> list[Any]:
        """The actions not taken yet (on a wide node, not in their final order)."""
        return self.actions[self.next:]


#: :func:`state_bytes` reads at most this many items of a container and scales their sizes to its length
SAMPLE_ITEMS = 1024


def state_bytes(state: Any, depth: int = 3) -> int:
    """An estimate of the memory a state holds (its containers and their items, a few levels deep: of a long
    container, its first ``SAMPLE_ITEMS`` items scaled to its length); the root of a move history
    (:class:`zerosum.game.Origin`) is one object shared by every state of a game, so it counts nothing."""
    if isinstance(state, Origin):
        return 0
    size = sys.getsizeof(state)
    if depth > 0:
        if isinstance(state, (tuple, list, set, frozenset, dict)):
            items = list(islice(state.items() if isinstance(state, dict) else state, SAMPLE_ITEMS))
            part = sum(state_bytes(x, depth - 1) for x in items) if not isinstance(state, dict) else sum(
                state_bytes(k, depth - 1) + state_bytes(v, depth - 1) for k, v in items)
            size += part if len(items) == len(state) else part * len(state) // len(items)
        else:
            names = getattr(type(state), "__slots__", ()) or tuple(getattr(state, "__dict__", ()))
            names = (names,) if isinstance(names, str) else names
            size += sum(state_bytes(getattr(state, n, None), depth - 1) for n in names)
    return size


def child(game: Game[Any, Any], parent: Node, action: Any, plain: bool, deadline: float | None = None) -> Node:
    """The child of ``parent`` after ``action``, proven at once where it ends the game or lets the opponent
    win at once (``plain``: nothing is proven; ``deadline`` passed during the check: left unproven)."""
    s = game.result(parent.state, action)
    node = Node(s, parent, action)
    if plain:  # plain UCT proves nothing: a finished node is scored each time it is reached
        return node
    if game.is_terminal(s):
        won_by = game.winner(s)  # the mover, in most games; the other side in a misère game (Nim)
        node.proof = DRAWN if won_by is None else WON if won_by == game.player(parent.state) else LOST
    else:
        try:
            if wins_now(game, s, game.player(s), deadline):  # the opponent wins at once: lost, never selected
                node.proof, node.plies = LOST, 1
        except OutOfTime:
            pass
    return node


def widen(game: Game[Any, Any], node: Node, plain: bool, deadline: float | None, skip: tuple[int, ...]) -> Node | None:
    """Make ``node``'s next children from its untried actions, each proven as :func:`child` proves it (the
    proof carried up), until one whose proof is not in ``skip``: that child; None when none is left, when a
    child proved ``node`` itself, or when ``deadline`` passed."""
    untried = node.untried
    kids = node.children
    assert kids is not None
    while untried:
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        ch = child(game, node, untried.take(), plain, deadline)
        kids.append(ch)
        if ch.proof != UNKNOWN:
            prove(ch)
            if node.proof != UNKNOWN:
                return None
        if ch.proof not in skip:
            return ch
    return None


def select(node: Node, c: float, grow: "Callable[[Node], Node | None] | None" = None) -> Node | None:
    """UCT: an unvisited child first, else (``grow``: a new child while the node has untried actions, as
    :func:`widen` makes them) the best upper bound; proven losses are never selected.  None: no child to
    select (a deadline stopped ``grow`` before any child not lost, or ``grow`` proved the node)."""
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
    if node.untried and grow is not None:
        fresh = grow(node)
        if fresh is not None or node.proof != UNKNOWN:
            return fresh
    return best


def prove(node: Node) -> None:
    """Carry a new proof at ``node`` up the tree as far as it goes."""
    while node.parent is not None and node.proof != UNKNOWN:
        parent = node.parent
        if parent.proof != UNKNOWN or parent.children is None:
            return
        if node.proof == WON:
            parent.proof, parent.plies = LOST, node.plies + 1
        elif not parent.untried and all(ch.proof != UNKNOWN for ch in parent.children):
            if any(ch.proof == DRAWN for ch in parent.children):
                parent.proof = DRAWN
            else:
                parent.proof, parent.plies = WON, max(ch.plies for ch in parent.children) + 1
        else:
            return
        node = parent


def report(game: Game[Any, Any], root: Node, tracer: Tracer) -> None:
    """The final tree to ``tracer.mcts``, parents before children (breadth first); an expanded node's untried
    actions too, as unvisited children, unless it has more than ``WIDE``."""
    queue: list[tuple[Any, Node]] = [(None, root)]
    for parent, node in queue:
        handle = tracer.mcts(parent, node.action, node.state, node.visits, node.total)
        queue.extend((handle, ch) for ch in node.children or ())
        if node.untried and node.untried.rng is None:
            queue.extend((handle, Node(game.result(node.state, a), node, a)) for a in node.untried.rest())


#: deeper than this below the root, a proof's distance is not checked (taken as not proven: never wrongly exact)
CHECK_DEPTH = 200


def distance(node: Node, depth: int = 0) -> int | None:
    """The exact distance in plies of a node proven won or lost, when the tree proves it is the game-theoretic
    one (the winner's fastest, the loser's slowest), else None.

    A proof's ``plies`` is only a bound: the line found, and a node is proven lost as soon as one child wins, so
    a faster win may stay unsearched.  Exact, by construction: a finished game (0 plies) and any proof of 1 ply
    (an unfinished game lasts at least 1); a node whose children are all lost for its mover, at the slowest of
    their exact distances; a node whose mover wins, at the fastest of its children's exact wins when no other
    child (unproven, or a win of unknown distance: at least 1 ply) could win faster."""
    if node.proof not in (WON, LOST):
        return None
    kids = node.children
    if not kids or node.plies <= 1:
        return node.plies if node.plies <= 1 else None
    if depth > CHECK_DEPTH:
        return None
    if node.proof == WON:  # every child is lost for the side to move here: its slowest loss
        slowest = 0
        for k in kids:
            d = distance(k, depth + 1) if k.proof == LOST else None
            if d is None:
                return None
            slowest = max(slowest, d)
        return slowest + 1
    fastest = _fastest_win(kids, depth + 1, bool(node.untried))
    return None if fastest is None else fastest + 1


def _fastest_win(kids: list[Node], depth: int, more: bool = False) -> int | None:
    """The fastest exact win among ``kids`` (proven for the side to move above them), when none of the others
    (``more``: nor a move not yet made a child) could win faster; else None."""
    fastest, unknown = None, more
    for k in kids:
        if k.proof in (LOST, DRAWN):
            continue
        d = distance(k, depth) if k.proof == WON else None
        if d is None:
            unknown = True  # unproven, or a win of unknown distance: at least 1 ply away
        elif fastest is None or d < fastest:
            fastest = d
    return None if fastest is None or (unknown and fastest > 1) else fastest


def answer(game: Game[Any, Any], state: Any, root: Node, sims: int, depth: int, start: float) -> SearchResult:
    """The move from the root's children: a proven win (the fastest exact one, else the shortest proof found),
    else the most visited child not proven lost, ties broken by the higher mean reward, then by ``game.actions``
    order (every child lost: the slowest exact loss, when every loss is exact).

    The value: an exact ``win_value``/``loss_value`` only when :func:`distance` proves it minimal; a win or loss
    proven without its distance is ``+/-HEURISTIC_BOUND`` with ``outcome`` (not exact); a draw is exact when the
    root is proven drawn (every move proven, none wins); otherwise the chosen child's mean reward.

    Nothing simulated or proven for any move (a deadline before the first simulation): the first move in
    ``game.actions`` order not proven lost, with no value claimed (``unknown`` ``("value",)``, no scores)."""
    assert root.children is not None
    actions = game.actions(state)
    rank = dict(zip(actions, count()))
    children = root.children
    untried = root.untried

    def most_visited(ch: Node) -> tuple[int, float, int]:
        return -ch.visits, -(ch.total / ch.visits if ch.visits else 0.0), rank[ch.action]

    outcome: int | None = None
    exact = False
    won = [ch for ch in children if ch.proof == WON]
    if won:
        fastest = _fastest_win(children, 1, bool(untried))  # a move left out at the root is no win (tactical_move)
        if fastest is not None:
            best = min((ch for ch in won if distance(ch, 1) == fastest), key=lambda ch: rank[ch.action])
            value: float = win_value(fastest + 1)
        else:
            best = min(won, key=lambda ch: (ch.plies, rank[ch.action]))
            value, outcome = HEURISTIC_BOUND, 1
    elif not untried and all(ch.proof == LOST for ch in children):  # every move loses
        lengths = {ch.action: distance(ch, 1) for ch in children}
        known = [d for d in lengths.values() if d is not None]
        slowest = max(known) if len(known) == len(children) else None
        # the moves left out at the root lose within 4 plies: the slowest loss is among these when it is longer
        if slowest is not None and (len(children) == len(actions) or slowest + 1 >= 4):
            best = min((ch for ch in children if lengths[ch.action] == slowest), key=most_visited)
            value = loss_value(slowest + 1)
        else:
            best = min(children, key=most_visited)
            value, outcome = -HEURISTIC_BOUND, -1
    else:
        open_ = [ch for ch in children if ch.proof != LOST]
        exact = not untried and all(ch.proof in (LOST, DRAWN) for ch in children)  # proven drawn: no distance
        if not exact and (not open_ or min(open_, key=most_visited).visits == 0):  # nothing to tell
            move = min([ch.action for ch in open_] + (untried.rest() if untried else []), key=rank.__getitem__)
            return SearchResult(action=move, value=0, nodes=sims, depth=depth, elapsed=time.perf_counter() - start,
                                pv=(move,), unknown=("value",))
        best = min(open_, key=most_visited)
        value = 0 if exact else best.total / best.visits if best.visits else 0.0
    pv = [best.action]
    node = best
    while node.children:
        node = max(node.children, key=lambda ch: ch.visits)
        if node.visits == 0:
            break
        pv.append(node.action)
    scores = {ch.action: (ch.total / ch.visits if ch.visits else 0.0) for ch in children}
    if untried and untried.rng is None:  # the moves not yet made children, unvisited (a wide root: left out)
        scores.update(dict.fromkeys(untried.rest(), 0.0))
    return SearchResult(action=best.action, value=value, nodes=sims, depth=depth,
                        elapsed=time.perf_counter() - start, pv=tuple(pv), scores=scores, exact=exact,
                        outcome=outcome, score_kinds=dict.fromkeys(scores, "exact"))  # means: not bounds
