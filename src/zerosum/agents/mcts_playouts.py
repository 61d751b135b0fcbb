"""The playouts of :mod:`zerosum.agents.mcts` on the generic path, and how a deadline stops them.

A policy is ``policy(state, actions) -> action``: ``random`` (a uniform draw), ``greedy`` (:func:`greedy`),
``alphabeta`` (an alpha-beta search ``PLAYOUT_DEPTH`` plies deep, no table) or any callable
``f(game, state) -> action``.  :func:`play_out` plays one from a position to the end of the game.

Under a deadline (a ``time.perf_counter()`` reading) a playout counts only if it ends before it.  The clock
is read before each move and once the game is over, and also while greedy or alpha-beta chooses a move: on
a game of ``b`` moves one greedy move may play about ``b**2`` moves (every move tried, and every reply to
it), and one alpha-beta move sort ``b`` lists of ``b`` moves, far longer than a time limit on a course game
of thousands of moves.  Greedy reads the clock before each move it plays; alpha-beta searches with the time
left as its time limit, and a search it cuts short counts as interrupted.  An interrupted policy raises
:class:`.tactics.OutOfTime`, and so does :func:`play_out`: the playout is dropped, scores nothing and is not
counted as a simulation.  A callable policy is not interrupted: its move is waited for, and the playout
dropped if the deadline passed meanwhile.  Without a deadline nothing reads the clock, and every policy
plays exactly the moves (and draws exactly the random numbers) it did before the deadline was watched.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..game import COLUMN_BITBOARD, Game, other
from ..values import is_proven
from .base import Agent, Limits, SearchAgent
from .tactics import OutOfTime, winning_actions

__all__ = ["PLAYOUT_DEPTH", "Policy", "depth_searcher", "greedy", "playout_policy", "play_out"]

#: plies the ``alphabeta`` playout searches before each move
PLAYOUT_DEPTH = 2

Policy = Callable[[Any, list[Any]], Any]


def depth_searcher(fast: bool = True) -> SearchAgent:
    """The alpha-beta agent of the ``alphabeta`` playout (``fast`` False: never the numba kernel)."""
    from .alphabeta import AlphaBetaAgent

    return AlphaBetaAgent(limits=Limits(depth=PLAYOUT_DEPTH), tt=0, fast=fast)


def play_out(game: Game[Any, Any], state: Any, policy: Policy, deadline: float | None) -> Any:
    """The final state of a playout from ``state`` (:class:`.tactics.OutOfTime` when ``deadline`` passes
    before it ends)."""
    result, actions_of = game.result, game.actions
    s = state
    acts = actions_of(s)
    if deadline is None:
        while acts:
            s = result(s, policy(s, acts))
            acts = actions_of(s)
        return s
    clock = time.perf_counter
    while acts:
        if clock() >= deadline:
            raise OutOfTime
        s = result(s, policy(s, acts))  # greedy and alpha-beta raise OutOfTime themselves
        acts = actions_of(s)
    if clock() >= deadline:  # the last move was chosen too late (a callable policy is not interrupted)
        raise OutOfTime
    return s


def playout_policy(game: Game[Any, Any], playout: "str | Callable[[Game[Any, Any], Any], Any]", rng: Any,
                   deadline: float | None, searcher: Agent | None = None, compiled: bool = True) -> Policy:
    """The policy ``playout`` names, drawing from ``rng``; ``searcher``: the ``alphabeta`` playout's agent
    (:func:`depth_searcher`), ``compiled`` False: its kernel is not loaded in time (the generic alpha-beta)."""
    if callable(playout):
        chooser = playout
        return lambda s, acts: chooser(game, s)
    if playout == "random":
        return lambda s, acts: acts[rng.randrange(len(acts))]
    if playout == "greedy":
        return lambda s, acts: greedy(game, s, acts, rng, deadline)
    if deadline is None:
        agent = searcher if searcher is not None and compiled else depth_searcher(fast=compiled)
        return lambda s, acts: agent(game, s)
    timed = depth_searcher(fast=compiled)  # its limits are set before each move: the time left

    def choose(s: Any, acts: list[Any]) -> Any:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise OutOfTime
        timed.limits = Limits(depth=PLAYOUT_DEPTH, time=left)
        found = timed.search(game, s)
        if found.depth < PLAYOUT_DEPTH and not found.exact and not is_proven(found.value):
            raise OutOfTime  # cut short by the time left (a search that saw every end, or proved one, is whole)
        return found.action

    return choose


def greedy(game: Game[Any, Any], s: Any, acts: list[Any], rng: Any, deadline: float | None = None) -> Any:
    """Take a win, else a move after which the opponent cannot win at once, else any move (random among
    equals, drawn from ``rng``).  :class:`.tactics.OutOfTime` when ``deadline`` passes before it chooses."""
    me = game.player(s)
    if game.traits.layout == COLUMN_BITBOARD:  # a few bit operations: no clock
        from ..games.connectx_eval import winning_cells

        bits: Any = game  # its masks and geometry, as the layout names them (GameTraits)
        playable = (s.mask + bits.bottom_mask) & bits.board_mask
        mine = winning_cells(bits, s.current, s.mask) & playable
        theirs = winning_cells(bits, s.current ^ s.mask, s.mask) & playable
        target = mine or theirs
        if target:
            low = target & -target
            return (low.bit_length() - 1) // bits.height
        return acts[rng.randrange(len(acts))]
    wins = winning_actions(game, s, acts, me, deadline)
    if wins:
        return wins[rng.randrange(len(wins))]
    order = list(acts)
    rng.shuffle(order)
    for a in order:  # the first move after which the opponent cannot win at once
        s1 = game.result(s, a)
        if game.is_terminal(s1) or not winning_actions(game, s1, game.actions(s1), other(me), deadline):
            return a
    return order[0]
