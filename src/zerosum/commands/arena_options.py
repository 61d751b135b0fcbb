"""The arena's options for game clocks and adjudication (``--tc``, ``--adjudicate``), for ``zerosum match``
and ``zerosum tournament`` (:mod:`zerosum.commands.arena`).

Kept quick to import (``--help`` loads no solver): the arena's modules load when a run is built.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_rule_options", "rule_settings", "describe_rules"]


def _tc_arg(text: str) -> list[float]:
    """An argparse ``type`` for ``--tc``: the one-line error of :func:`~zerosum.arena.clock.parse_tc`."""
    from ..arena.clock import parse_tc
    from ..errors import UsageError

    try:
        return parse_tc(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_rule_options(p: argparse.ArgumentParser) -> None:
    from ..arena.adjudicate import (
        DEFAULT_SOLVER_NODES,
        MAX_DRAW_MOVES,
        MAX_SOLVER_NODES,
        MIN_SOLVER_NODES,
    )
    from ..arena.clock import MAX_BASE, MAX_INCREMENT, MOVES_TO_GO

    p.add_argument("--tc", type=_tc_arg, metavar="BASE+INC",
                   help=f"a game clock per player: BASE seconds for the game plus INC seconds after each move "
                        f"(10+0.1; 60 = no increment; BASE above 0 and at most {MAX_BASE:g}, INC 0..{MAX_INCREMENT:g}); "
                        f"a player whose clock runs out loses (time forfeit). Agents with a time limit are told "
                        f"remaining/{MOVES_TO_GO} + INC a move (at most half of what remains, and at most their "
                        f"--time or time=); agents bound by depth, nodes or sims play as always")
    p.add_argument("--adjudicate", action="append", default=[], metavar="RULE",
                   help=f"end games early: 'solver' (Connect-X boards the solver takes: a game ends as soon as the "
                        f"solver proves its result within {DEFAULT_SOLVER_NODES:,} nodes, or solver=NODES, "
                        f"{MIN_SOLVER_NODES:,}..{MAX_SOLVER_NODES:,}) or 'draw=N' (a draw after N moves after the "
                        f"opening, 1..{MAX_DRAW_MOVES:,}); may be given once for each")


def rule_settings(args: argparse.Namespace, game: Any) -> dict[str, Any]:
    """``tc`` and ``adjudicate`` of a new run's configuration, checked against ``game`` (one UsageError line
    for a rule the game cannot have)."""
    from ..arena.adjudicate import check_adjudication, parse_adjudicate

    rules = parse_adjudicate(args.adjudicate)
    check_adjudication(game, rules)
    return {"tc": args.tc, "adjudicate": rules}


def describe_rules(config: Any) -> list[str]:
    """The run's clock and adjudication in words, for its header (nothing when it has neither)."""
    from ..arena.adjudicate import describe_adjudication
    from ..arena.clock import format_tc

    lines = []
    if config.tc:
        lines.append(f"time control {format_tc(config.tc)}: a player whose clock runs out loses on time")
    if config.adjudicate:
        lines.append(describe_adjudication(config.adjudicate))
    return lines
