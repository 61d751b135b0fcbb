"""The page's "why?": a search's traced tree as rows (``GET /api/explain``), as ``zerosum explain`` prints it.

:func:`check_explain` checks the request (a position in play and a searching agent whose own budget fits the
trace's bounds: :mod:`zerosum.trace.bounds`); :func:`explain_job` runs in an engine worker, its traced search
bounded while it runs (:data:`MAX_EXPLAIN_NODES` nodes, ``MAX_TIME`` seconds), and returns only JSON-ready
values.  Which agents can be explained, and how, is what they declare (:mod:`zerosum.agents.traits`): a
traced search is explained by its tree, an agent of exact values by its exact analysis; values are worded by
:mod:`zerosum.core.words`.
"""

from __future__ import annotations

from typing import Any

from ..agents.registry import agent_class
from ..errors import AgentError
from ..spec import listed
from ..trace.bounds import TraceBound
from ..trace.exact import analysed, handed_on
from ..trace.tree import LEFT_OUT, proved
from .position import player_name
from .service import DEFAULT_TIME, MAX_TIME, MoveRequest, check_move, number, server_agents

__all__ = ["check_explain", "explain_job", "explained", "over_http", "MAX_EXPLAIN_NODES"]

#: the most nodes one explanation records
MAX_EXPLAIN_NODES = 100_000  # about 70 MB of nodes: well inside a worker's memory bound
_ENDED = {"terminal": "ends the game", "depth": "evaluated at the depth limit",
          "table": "answered from the transposition table"}


def check_explain(game_spec: str | None, moves: str | None, agent_spec: str | None,
                  max_time: float = MAX_TIME) -> MoveRequest:
    """A checked ``/api/explain`` request: a position still in play and a searching agent the trace follows."""
    from ..trace.bounds import check_budget

    request = check_move(game_spec, moves, agent_spec, None, max_time)
    traits = request.agent.TRAITS
    refused = handed_on(request.agent, request.game, DEFAULT_TIME)  # its agent hands the board on
    if refused:
        raise AgentError(refused)
    if not traits.traced and not traits.exact:
        raise AgentError(f"agent {request.agent.name!r} does not search, so there is nothing to explain: "
                         f"choose one of {listed(explained())}")
    try:
        check_budget(request.agent, MAX_EXPLAIN_NODES, max_time)  # refused before it is queued
    except TraceBound as exc:
        raise over_http(exc) from None
    return request


def over_http(exc: Any) -> AgentError:
    """A traced search's bound (:class:`~zerosum.trace.bounds.TraceBound`) as a request to this server meets
    it: the server's own cap (:data:`MAX_EXPLAIN_NODES` nodes, its engine time), and what to change in the
    request's ``agent=``: a smaller search where the agent has a budget that makes it smaller (``exc.smaller``),
    else a later position (the engine time is the server's; the agent's code, compiled on a first run, is
    prepared before the search and outside it: :func:`zerosum.ui.warmup.prepare_job`)."""
    smaller = "ask about a smaller search (a lower depth= or sims= in agent=)"
    if exc.bound == "nodes":
        said = f"the search visits more than {exc.limit:,} nodes, the most this server traces: {smaller}"
    elif exc.bound == "time":
        change = (f"ask about a smaller search ({exc.smaller} in agent=)" if exc.smaller
                  else "this position needs more time than this server gives: ask about a later one")
        said = f"the search did not end within {exc.limit:g} s, this server's engine time: {change}"
    elif exc.bound == "search time":
        said = (f"agent={exc.spec} searches for {exc.amount:g} s, more than this server's engine time "
                f"({exc.limit:g} s): ask with a lower time= in agent=")
    else:
        said = (f"agent={exc.spec} runs {exc.amount:,} simulations, each adding a node to its tree: more than "
                f"this server traces ({exc.limit:,} nodes): ask with a lower sims= in agent=")
    return AgentError(f"why: {said}")


def explained() -> list[str]:
    """The agents the page can explain: those it offers whose search is traced, or whose values are exact."""
    return [name for name in server_agents() if (cls := agent_class(name)) is not None
            and (cls.TRAITS.traced or cls.TRAITS.exact)]


def explain_job(request: MoveRequest, max_nodes: int = MAX_EXPLAIN_NODES, max_time: float = MAX_TIME) -> dict[str, Any]:
    """Why the agent plays what it plays in the request's position (runs in a worker): its search, traced,
    as rows -- each root move's score and kind (``exact``, ``bound`` (``at most``/``at least``) or MCTS's
    ``mean``), its refutation (the reply that gave it its score) or why it has none, its line, and the
    chosen one.  Scores are from the side to move's view, as ``zerosum explain`` prints them.  ``traced``: whether
    the rows are a search run again and traced (else an agent of exact values' analysis, asked again: the
    page's first line says which)."""
    from ..agents.kinds import KINDS
    from ..trace import trace
    from ..trace.nodes import short_value, value_text

    game, traits = request.game, request.agent.TRAITS
    if traits.exact:  # its search is compiled code, not traced: its exact analysis instead
        return _exact_why(request)
    try:
        tree = trace(request.agent, game, request.state, max_nodes=max_nodes, max_time=max_time)
    except TraceBound as exc:
        raise over_http(exc) from None
    fmt, result, side = game.format_action, tree.result, player_name(game, game.player(request.state))

    def maybe(v: float | None) -> float | int | None:
        return None if v is None else number(v)

    def line(node: Any) -> list[str]:
        moves = []
        while node is not None:
            moves.append(fmt(node.action))
            node = node.best_child()
        return moves

    rows = []
    for action in game.actions(request.state):
        child, chosen, score = tree.child(action), action == result.action, result.scores.get(action)
        reply = tree.refutation(action)
        mcts = child is not None and child.visits is not None
        # a bound the search itself reports (SearchResult.score_kinds) is a bound, as `zerosum explain` says
        said = result.score_kinds.get(action)
        kind_of = said if said in ("upper", "lower") else child.score_bound if child is not None else None
        bound = None if child is None or mcts or kind_of not in ("upper", "lower") else KINDS[kind_of]
        left_out = child is None and action in tree.left_out()  # MCTS: proven lost before any simulation
        kind = ("proven lost" if left_out else "not searched" if child is None else "mean" if mcts
                else "bound" if bound else tree.value_kind(action))
        refutation = None if reply is None else {
            "move": fmt(reply.action), "value": maybe(reply.score),
            "score": f"Q={short_value(reply.score)}" if mcts else tree.words(reply)}
        if chosen:
            why = "chosen: " + (traits.chooses or "no other move scores more")
        elif child is None:
            why = LEFT_OUT if left_out else "not searched"
        elif reply is None:
            why = _ENDED.get(child.cutoff or "", "not searched below")
        else:
            how = "refuted by" if child.cutoff == "beta" or mcts else "best reply"  # as `zerosum explain` says
            why = f"{how} {refutation['move']} ({refutation['score']})"  # type: ignore[index]
        rows.append({"move": fmt(action), "score": None if score is None else value_text(score, tree.discounted),
                     "value": maybe(score), "kind": kind, "bound": bound, "visits": child.visits if child else None,
                     "refutation": refutation, "why": why, "pv": line(child) if child is not None else [],
                     "chosen": chosen})
    move = fmt(result.action)
    best = result.scores.get(result.action)
    bounded = sum(1 for r in rows if r["bound"] == "at most")
    label = traits.label or request.agent.name
    verdict = (f"{move} is chosen: {label} plays {traits.chooses}{proved(result)}" if traits.chooses
               else f"{move} is chosen" if best is None
               else f"{move} is chosen: it scores {value_text(best, tree.discounted)} from {side}'s view, and no "
                    f"other move scores more" + (f" (the {bounded} other move{'s' if bounded > 1 else ''} "
                                                 "refuted: each scores at most what is shown)" if bounded else ""))
    return {"game": game.spec, "moves": game.format_moves(request.actions), "agent": request.agent.spec,
            "search": tree.kind, "side": side, "move": move, "rows": rows, "pv": [fmt(a) for a in tree.pv or result.pv],
            "nodes": result.nodes, "counts": traits.counts, "per_depth": tree.counts_per_depth(),
            "discounted": tree.discounted, "verdict": verdict, "note": tree.note or None, "traced": True}

def _exact_why(request: MoveRequest) -> dict[str, Any]:
    """The solver's "why": its exact analysis, no trace (its search is compiled code): each move's score; out of
    its reach, alpha-beta's estimates within the agent's time (:func:`_exact_note`)."""
    game, fmt = request.game, request.game.format_action
    found = analysed(request.agent, game, request.state, default=DEFAULT_TIME)
    best = found.scores.get(found.best)
    alone = sum(1 for v in found.scores.values() if v == best) == 1
    rows = [{"move": fmt(a), "score": str(found.point(a)), "value": number(v),
             "kind": "estimate" if found.estimate(a) else "exact", "bound": None, "visits": None, "refutation": None,
             "why": (("exact scores: the other columns score less" if alone else "exact scores: no other column scores "
                      "more") if found.exact else "the best estimate") if a == found.best else found.words(a),
             "pv": [fmt(a)], "chosen": a == found.best} for a, v in found.scores.items()]
    move = fmt(found.best) if found.best is not None else None
    return {"game": game.spec, "moves": game.format_moves(request.actions), "agent": request.agent.spec,
            "search": found.engine, "side": player_name(game, game.player(request.state)), "move": move,
            "rows": rows, "pv": [move] if move else [], "nodes": found.nodes, "counts": request.agent.TRAITS.counts,
            "per_depth": [], "discounted": True,
            "verdict": f"{move} is chosen: {found.words(found.best) if move else ''} ({found.engine})",
            "note": _exact_note(found), "traced": False}


def _exact_note(found: Any) -> str | None:
    """The note of the solver's "why": out of its reach (an early position past 64 bits: hours of proof) it does
    what the solver agent does there within a time, alpha-beta chooses (:meth:`Service.analyse
    <zerosum.analysis.Service.analyse>` given a time: its estimates at once, never the hours of proof)."""
    if found.exact:
        return found.note or "the solver's own search is not traced: these are its exact scores"
    if found.note:
        return f"{found.note}: {found.engine} chose, as the solver agent does here"
    return None
