"""``zerosum explain MOVES --agent SPEC``: why a search plays what it plays.

It traces the agent's search of the position (:func:`zerosum.trace.trace`) and prints each root move's score
(``SearchResult.scores``, from the side to move's view; for alpha-beta the chosen move's score is the
search's value and a refuted move's is a bound, "at most"; a value that is no bound is "searched", the
search's value to its depth, or "exact" where it is a proof), the principal variation, and for every other
move its refutation:
the opponent's reply that gave it its score in the tree, with the score after it.  Then the traced tree as
indented text to ``--depth`` plies (with boards unless ``--no-boards``).  What the agent's search is (traced,
what its counts and values are, why it chooses) comes from its declared traits
(:mod:`zerosum.agents.traits`); values are worded by :mod:`zerosum.core.words` (distances in moves).
A search that is not traced (the solver, in compiled code) is explained by its exact analysis, as the
page's why? explains it (:mod:`zerosum.trace.exact`): every legal move's score (the solver's own figure)
with its value in words; on a board the solver does not take, alpha-beta moves for it, and the trace says
to explain that instead.  That search's compiled code is prepared before it (a first run compiles it for tens
of seconds: said on standard error as ``zerosum analyze`` says it), so ``--max-time`` is the search's time.

This module imports quickly; the search loads inside ``run``.
"""

from __future__ import annotations

import argparse
from typing import Any

from .options import add_game_option, float_arg, int_arg

__all__ = ["COMMANDS", "MAX_TREE_DEPTH", "explain"]

#: the deepest ``--depth`` (the printed tree, not the search: the search's depth is in the agent's spec)
MAX_TREE_DEPTH = 8
DEFAULT_AGENT = "alphabeta:plain=1,depth=4"


def _add(parser: argparse.ArgumentParser) -> None:
    from ..trace.bounds import DEFAULT_MAX_NODES, DEFAULT_MAX_TIME, MAX_TRACE_NODES, MAX_TRACE_TIME

    parser.add_argument("moves", nargs="?", default="", metavar="MOVES",
                        help="the position as a move string in the game's notation (default: the start)")
    parser.add_argument("--agent", default=DEFAULT_AGENT, metavar="SPEC",
                        help=f"the search to explain, an agent spec with its options (default: {DEFAULT_AGENT})")
    add_game_option(parser)
    parser.add_argument("--depth", type=int_arg(0, MAX_TREE_DEPTH), default=1, metavar="D",
                        help=f"print the traced tree to D plies, 0..{MAX_TREE_DEPTH} (default 1; 0: no tree)")
    parser.add_argument("--no-boards", action="store_true", help="print the tree without a board at each node")
    parser.add_argument("--max-nodes", type=int_arg(1, MAX_TRACE_NODES), default=DEFAULT_MAX_NODES, metavar="N",
                        help=f"stop (one error line) when the search visits more than N nodes, "
                             f"1..{MAX_TRACE_NODES} (default {DEFAULT_MAX_NODES}); an MCTS asking for more "
                             f"simulations is refused before it starts")
    parser.add_argument("--max-time", type=float_arg(hi=MAX_TRACE_TIME, above=0), default=DEFAULT_MAX_TIME,
                        metavar="SECONDS",
                        help=f"stop (one error line) when the search runs longer, above 0 and at most "
                             f"{MAX_TRACE_TIME:g} (default {DEFAULT_MAX_TIME:g}); an agent asking for more "
                             f"time= is refused before it starts; a first run's compile of the engine's code "
                             f"comes before the search and is not counted")


def _kind(tree: Any, action: Any) -> str:
    """Whether a root move's score is exact or a bound, or what it is (MCTS: a mean).  A bound the search
    itself reports (``SearchResult.score_kinds``) is always shown as one."""
    from ..agents.kinds import KINDS

    said = tree.result.score_kinds.get(action)
    if said in ("upper", "lower"):
        return KINDS[said]
    child = tree.child(action)
    if child is None:
        return "proven lost" if action in tree.left_out() else "not searched"
    if child.visits is not None:
        return f"mean of {child.visits}"
    return {"upper": "at most", "lower": "at least"}.get(child.score_bound) or tree.value_kind(action)


def _why(tree: Any, action: Any) -> str:
    """Why a root move scores what it does: its refutation in the tree, or how its node ended."""
    from ..trace.nodes import short_value

    game = tree.game
    child = tree.child(action)
    if child is None:
        from ..trace.tree import LEFT_OUT

        return LEFT_OUT if action in tree.left_out() else "not searched"
    reply = tree.refutation(action)
    if reply is None:
        ended = {"terminal": "ends the game", "depth": "evaluated at the depth limit",
                 "table": "answered from the transposition table"}
        return ended.get(child.cutoff or "", "not searched below")
    how = "refuted by" if child.cutoff == "beta" or child.visits is not None else "best reply"
    said = tree.words(reply) if reply.visits is None else "Q=" + short_value(reply.score)
    return f"{how} {game.format_action(reply.action)} ({said})"


def _verdict(tree: Any, found: Any = None) -> str:
    """One line: why the chosen move beats the others (``found``: the exact analysis of an untraced search)."""
    from ..trace.nodes import value_text
    from ..trace.tree import proved

    result, traits = tree.result, tree.traits
    move = tree.game.format_action(result.action if found is None else found.best)
    best = result.scores.get(result.action)
    label = traits.label or tree.agent.name
    if found is not None:  # its scores are its own (the solver's convention); its value in words
        proves = "proves" if found.kind(found.best) == "exact" else "estimates"
        return (f"{move} is chosen: {label} {proves} it scores {found.point(found.best)} "
                f"({found.words(found.best)}), the best there is")
    if traits.chooses:
        return f"{move} is chosen: {label} plays {traits.chooses}{proved(result)}"  # MCTS: its proof, if any
    if best is None:
        return f"{move} is chosen"
    value = value_text(best, tree.discounted)
    bounded = sum(1 for a in result.scores if a != result.action and _kind(tree, a) == "at most")
    why = (f"; {bounded} of the others only bounded (refuted: each scores at most what is shown)"
           if bounded else "")
    return f"{move} is chosen: it scores {value}, and no other move scores more{why}; ties go to the first searched"


def explain(tree: Any, moves: str, depth: int, boards: bool, found: Any = None) -> str:
    """The text ``zerosum explain`` prints for a traced ``tree`` of the position ``moves``; for a search that is
    not traced (the solver), ``found``, its exact analysis (:func:`zerosum.trace.exact.analysed`), scores
    every move."""
    from ..trace.nodes import value_text

    game, result = tree.game, tree.result
    side = game.player_label(game.player(tree.state))
    spec = getattr(tree.agent, "spec", "")
    counts = " ".join(str(c) for c in tree.counts_per_depth())
    searched = (tree.untraced() if tree.kind == "exact"
                else f"{result.nodes} {tree.traits.counts} (recorded per depth {counts})")
    lines = [f"{game.title}, {('after ' + moves) if moves.strip() else 'the start'}: {side} to move",
             f"{spec}: {searched}, {result.evals} evaluations; "
             f"scores from {side}'s view" + ("" if tree.discounted else " (no depth discount)")]
    if tree.note:
        lines.append(tree.note)
    if found is not None:
        lines.append(found.legend)
    rows = []
    for action in game.actions(tree.state):
        if found is not None:  # the exact analysis: the solver's score, and the value in words
            chosen = action == found.best
            text, kind = found.point(action) or "-", found.kind(action) or "not scored"
            why = "chosen" if chosen else found.words(action) or "not scored"
            rows.append(("*" if chosen else " ", game.format_action(action), text, kind, why))
            continue
        score = result.scores.get(action)
        chosen = action == result.action
        text = "-" if score is None else value_text(score, tree.discounted)
        why = ("chosen" if chosen else _why(tree, action))
        rows.append(("*" if chosen else " ", game.format_action(action), text, _kind(tree, action), why))
    widths = [max(len(r[i]) for r in rows + [("", "move", "score", "", "")]) for i in range(5)]
    lines.append("")
    lines.append(f"  {'move'.ljust(widths[1])}  {'score'.ljust(widths[2])}  {''.ljust(widths[3])}  why")
    for mark, move, text, kind, why in rows:
        lines.append(f"{mark} {move.ljust(widths[1])}  {text.ljust(widths[2])}  {kind.ljust(widths[3])}  {why}")
    pv = (found.best,) if found is not None else tree.pv or result.pv
    lines += ["", f"principal variation: {' '.join(game.format_action(a) for a in pv)}"]
    lines.append(_verdict(tree, found))
    if depth > 0 or boards:
        lines += ["", tree.text(depth=depth, boards=boards)]
    return "\n".join(lines)


def _prepared(agent: Any, game: Any, state: Any) -> None:
    """The compiled code the explained search runs untraced (the solver's), loaded or compiled here, before the
    search and outside ``--max-time``; a wait of over a second said on standard error, with a compile's
    progress (:func:`zerosum.agents.prepare.announce`), as ``zerosum analyze`` says it."""
    from ..agents.prepare import announce, warm
    from ..agents.prepare_words import on_stderr
    from ..trace.bounds import compiled_first

    steps = compiled_first(agent, game, state)
    announce(steps, on_stderr)
    warm(steps)


def _run(args: argparse.Namespace) -> int:
    from ..agents.registry import make_agent
    from ..trace import trace

    from ..games.registry import get_game

    game = get_game(args.game)
    state = game.parse_position(args.moves)[1]  # a move string, always (a game's own states may be strings)
    agent = make_agent(args.agent)
    _prepared(agent, game, state)
    tree = trace(agent, game, state, max_nodes=args.max_nodes, max_time=args.max_time)
    found = None
    if tree.kind == "exact":  # not traced: its exact analysis scores every move, as the page's why? does
        from ..trace.bounds import too_long
        from ..trace.exact import analysed

        found = analysed(tree.agent, game, state, seconds=args.max_time)
        if not found.done:
            raise too_long(args.max_time, tree.agent)
    print(explain(tree, args.moves, args.depth, not args.no_boards, found))
    return 0


COMMANDS = {"explain": (_add, _run)}
