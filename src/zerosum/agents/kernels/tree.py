"""The MCTS tree in arrays, shared by the bitboard and the cell-array MCTS kernels.

Node i: ``ints[i, F]`` for the fields below, ``total[i]`` the sum of rewards for the player who moved into
node i.  Node 0 is the root.  Selection (UCT), proofs carried up (MCTS-Solver) and backup live here; the
kernels add their board (expansion and playouts).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels.connectx import shuffle

__all__ = ["T_FIELDS", "P_UNKNOWN", "P_WON", "P_LOST", "P_DRAWN", "prove", "select_child", "settle_expansion",
           "proof_reward", "backup", "init_child", "init_root", "copy_allowed",
           "open_children"]

T_PARENT, T_FIRST, T_NCH, T_MOVE, T_VISITS, T_PROOF, T_PLIES = range(7)
T_FIELDS = 7
P_UNKNOWN, P_WON, P_LOST, P_DRAWN = 0, 1, -1, 2  # proofs, for the player who moved into the node


@njit(cache=True)
def prove(node: int, ints: np.ndarray) -> None:
    """Carry a proof at ``node`` up the tree as far as it goes (MCTS-Solver)."""
    while node > 0 and ints[node, T_PROOF] != P_UNKNOWN:
        parent = ints[node, T_PARENT]
        if ints[parent, T_PROOF] != P_UNKNOWN or ints[parent, T_FIRST] < 0:
            return
        if ints[node, T_PROOF] == P_WON:
            ints[parent, T_PROOF] = P_LOST
            ints[parent, T_PLIES] = ints[node, T_PLIES] + 1
        else:
            first = ints[parent, T_FIRST]
            all_proven = True
            any_draw = False
            longest = 0
            for ch in range(first, first + ints[parent, T_NCH]):
                p = ints[ch, T_PROOF]
                if p == P_UNKNOWN:
                    all_proven = False
                    break
                if p == P_DRAWN:
                    any_draw = True
                longest = max(longest, ints[ch, T_PLIES])
            if not all_proven:
                return
            if any_draw:
                ints[parent, T_PROOF] = P_DRAWN
            else:
                ints[parent, T_PROOF] = P_WON
                ints[parent, T_PLIES] = longest + 1
        node = parent


@njit(cache=True, inline="always")
def select_child(node: int, ints: np.ndarray, total: np.ndarray, c: float) -> int:
    """UCT selection below an expanded, unproven node.

    Children proven lost (for the player who would move into them) are skipped; the first unvisited child
    in the order fixed at expansion comes first; otherwise the highest ``q + c * sqrt(ln N / n)`` with
    ``q`` the mean reward mapped to 0..1 (a proven draw counts 0.5), ties to the earlier child.
    """
    first = ints[node, T_FIRST]
    log_n = np.log(max(ints[node, T_VISITS], 1))
    best = -1
    best_score = -1e300
    for ch in range(first, first + ints[node, T_NCH]):
        p = ints[ch, T_PROOF]
        if p == P_LOST:
            continue
        v = ints[ch, T_VISITS]
        if v == 0:
            return ch
        q = 0.5 if p == P_DRAWN else (total[ch] / v + 1.0) / 2.0
        score = q + c * np.sqrt(log_n / v)
        if score > best_score:
            best = ch
            best_score = score
    return best


@njit(cache=True, inline="always")
def settle_expansion(node: int, ints: np.ndarray) -> int:
    """After expanding ``node``: carry the children's proofs up, and return the first unproven child
    (the one the playout starts from; the first child when all are proven)."""
    first = ints[node, T_FIRST]
    for ch in range(first, first + ints[node, T_NCH]):
        if ints[ch, T_PROOF] != P_UNKNOWN:
            prove(ch, ints)
    for ch in range(first, first + ints[node, T_NCH]):
        if ints[ch, T_PROOF] == P_UNKNOWN:
            return ch
    return int(first)


@njit(cache=True, inline="always")
def proof_reward(p: int) -> float:
    """The reward of a proven node for the player who moved into it."""
    if p == P_WON:
        return 1.0
    if p == P_LOST:
        return -1.0
    return 0.0


@njit(cache=True, inline="always")
def backup(node: int, reward: float, ints: np.ndarray, total: np.ndarray) -> None:
    """Add one visit and ``reward`` from ``node`` up to the root, flipping the sign at each ply."""
    while node >= 0:
        ints[node, T_VISITS] += 1
        total[node] += reward
        reward = -reward
        node = ints[node, T_PARENT]


@njit(cache=True, inline="always")
def init_child(ints: np.ndarray, node: int, parent: int, move: int) -> None:
    """Make ``node`` a fresh leaf below ``parent`` reached by ``move`` (its proof is the caller's)."""
    ints[node, T_PARENT] = parent
    ints[node, T_FIRST] = -1
    ints[node, T_NCH] = 0
    ints[node, T_MOVE] = move
    ints[node, T_VISITS] = 0
    ints[node, T_PLIES] = 0


@njit(cache=True, inline="always")
def init_root(ints: np.ndarray) -> None:
    """Make node 0 a root with no children yet."""
    init_child(ints, 0, -1, -1)
    ints[0, T_PROOF] = P_UNKNOWN


@njit(cache=True, inline="always")
def copy_allowed(allowed: np.ndarray, cand: np.ndarray) -> int:
    """Copy the ``allowed`` moves into ``cand``; how many there are (0: every legal move is allowed)."""
    for i in range(allowed.shape[0]):
        cand[i] = allowed[i]
    return int(allowed.shape[0])


@njit(cache=True, inline="always")
def open_children(node: int, used: int, cand: np.ndarray, n: int, ints: np.ndarray, rng: np.ndarray) -> None:
    """Give ``node`` the children ``used .. used + n - 1`` for the moves ``cand[:n]``, shuffled: unvisited
    children are tried in this order."""
    shuffle(cand, n, rng)
    ints[node, T_FIRST] = used
    ints[node, T_NCH] = n
