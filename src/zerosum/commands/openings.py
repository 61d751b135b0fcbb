"""``zerosum openings``: a file of openings for the arena, judged or random.

A judge (``--with``: the solver on the Connect-X boards it takes, or any search agent on any game) values
every position ``--plies`` in, and the positions within ``--max-score`` are kept: ``--max-score 0`` gives
openings of evaluation 0.  Without a judge (games the solver does not take, no ``--with``) the openings are
random.  Whatever cannot apply is refused in one line.

Kept quick to import: the arena's openings and the solver load inside ``run``.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

__all__ = ["COMMANDS", "MAX_SCORE", "MAX_COUNT"]

#: ``zerosum openings --max-score``: every heuristic value, and below every proven win (beyond 10**6)
MAX_SCORE = 1_000_000
#: ``zerosum openings --count``
MAX_COUNT = 100_000


def _add(p: argparse.ArgumentParser) -> None:
    from ..agents.base import MAX_SEED
    from ..arena.openings import MAX_OPENING_PLIES, MAX_POSITIONS
    from .options import add_game_option, float_arg, int_arg

    add_game_option(p)
    p.add_argument("--plies", type=int_arg(0, MAX_OPENING_PLIES), default=4,
                   help=f"moves into the game, 0..{MAX_OPENING_PLIES} and fewer than the board's cells (default 4); "
                        f"judged openings: at most {MAX_POSITIONS:,} positions at any ply")
    p.add_argument("--with", dest="evaluator", default=None, metavar="SPEC",
                   help="what judges a position: solver (the default on the Connect-X boards it takes: exact "
                        "scores) or a search agent spec on any game (alphabeta:depth=2,eval=window: the value of "
                        "its search, in its own unit; beyond 10**6 is a proven win). Other games without --with: "
                        "random openings")
    p.add_argument("--max-score", type=float_arg(0, MAX_SCORE), default=None, metavar="S",
                   help=f"judged openings: keep positions whose value for the side to move is within +-S, "
                        f"0..{MAX_SCORE:,} (default 2; 0 = evaluation 0 only)")
    p.add_argument("--sample", type=int_arg(1, MAX_POSITIONS), default=None, metavar="N",
                   help=f"judged openings: judge only N of the positions, 1..{MAX_POSITIONS:,}, drawn from --seed "
                        "(default: all)")
    p.add_argument("--count", type=int_arg(1, MAX_COUNT), default=None,
                   help=f"how many openings, 1..{MAX_COUNT:,}: random ones (default 100), or the first N kept "
                        "of the judged positions taken in an order shuffled from --seed (default: all kept, "
                        "in move order)")
    p.add_argument("--seed", type=int_arg(0, MAX_SEED), default=0,
                   help="seed of --sample, of --count's order and of random openings, 0..2**63-1 (default 0)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write here, all at once at the end (default: standard output)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output file")


def _judge(args: argparse.Namespace, game: Any) -> tuple[str | None, Any]:
    """The judge's name and an agent's evaluator (None for the solver; None, None: random openings); one
    UsageError line for an option that cannot apply to ``game``."""
    from ..arena.openings import agent_evaluator, has_balanced_openings
    from .options import UsageError

    judge = args.evaluator
    if judge is None and has_balanced_openings(game):
        judge = "solver"
    if judge is None:  # random openings: every judged option is refused, never ignored
        given = [o for o, v in (("--max-score", args.max_score), ("--sample", args.sample)) if v is not None]
        if given:
            raise UsageError(f"{given[0]} needs a judge, and the solver does not take {game.spec}: give --with "
                             "AGENT (a search agent, e.g. alphabeta:depth=2,eval=window)")
        return None, None
    if judge == "solver":
        if not has_balanced_openings(game):
            raise UsageError(f"--with solver: the solver does not take {game.spec}: give --with AGENT "
                             "(a search agent, e.g. alphabeta:depth=2,eval=window)")
        return judge, None  # the solver loads once the positions are known (a bad option costs nothing)
    return judge, agent_evaluator(game, judge)


def _run(args: argparse.Namespace) -> int:
    import contextlib

    from ..arena.openings import (
        candidate_positions,
        format_opening,
        format_value,
        generate_openings,
        max_plies,
        opening_line,
        solver_evaluator,
    )
    from ..core.files import atomic_output, check_output
    from ..games import get_game
    from .options import UsageError

    game = get_game(args.game)
    if args.plies > max_plies(game):
        raise UsageError(f"--plies {args.plies}: {game.spec} allows openings of 0..{max_plies(game)} plies")
    if args.output:  # everything is checked before any work, and the file is written whole at the end
        check_output(args.output, overwrite=args.overwrite, what="openings file")
    start = time.perf_counter()
    judge, evaluate = _judge(args, game)
    if judge is not None:  # too many plies or positions: refused before the solver loads
        max_score = 2 if args.max_score is None else args.max_score
        candidates = candidate_positions(game, args.plies, args.sample, args.seed)
        evaluate = evaluate or solver_evaluator(game)
    with contextlib.ExitStack() as stack:
        if args.output:
            out = stack.enter_context(atomic_output(args.output, overwrite=args.overwrite, checked=True))
        else:
            out = sys.stdout
        if judge is not None:
            sample = f" --sample {args.sample}" if args.sample else ""
            count = f" --count {args.count}" if args.count else ""
            seed = f" --seed {args.seed}" if sample or count else ""
            unit = "the solver's score" if judge == "solver" else f"{judge}'s value, in its unit"

            def begin(total: int) -> None:  # the positions are known: the header goes first
                out.write(
                    f"# zerosum openings --game {game.spec} --plies {args.plies} --max-score {format_value(max_score)} "
                    f"--with {judge}{sample}{count}{seed}\n"
                    f"# of the {total} positions {args.plies} {'ply' if args.plies == 1 else 'plies'} in{' (a sample)' if sample else ''}, "
                    f"{f'the first {args.count} found in an order shuffled from the seed,' if count else 'those'} whose value is "
                    f"within +-{format_value(max_score)}; the number after each "
                    f"is {unit} for the side to move\n"
                )

            def progress(done: int, total: int) -> None:
                if sys.stderr.isatty():
                    print(f"\r{done}/{total} positions judged", end="", file=sys.stderr, flush=True)

            def found(seq: tuple[Any, ...], score: float) -> None:
                out.write(opening_line(game, seq, format_value(score)) + "\n")
                out.flush()

            kept = generate_openings(game, args.plies, max_score, evaluate, progress, args.sample, args.seed,
                                     found, begin, candidates, args.count)
            if sys.stderr.isatty():
                print(file=sys.stderr)
            written = len(kept)
        else:
            number = 100 if args.count is None else args.count
            openings, exist = _distinct_openings(game, number, args.plies, args.seed)
            if exist is not None:
                print(f"only {exist} distinct open position{'s' * (exist != 1)} {args.plies} "
                      f"{'ply' if args.plies == 1 else 'plies'} into {game.spec}: writing {'all' if exist > 1 else 'it'} "
                      f"(--count {number} asked for more)", file=sys.stderr)
            out.write(f"# zerosum openings --game {game.spec} --plies {args.plies} --count {number} "
                      f"--seed {args.seed}\n")
            out.writelines(format_opening(game, o) + "\n" for o in openings)
            written = len(openings)
    if args.output:
        print(f"wrote {written} openings to {args.output} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    if judge is not None and not written:
        print(f"no position {args.plies} {'ply' if args.plies == 1 else 'plies'} in has a value within +-{format_value(max_score)}", file=sys.stderr)
    return 0


#: the most positions a ply :func:`_all_positions` keeps while it looks for every opening of a small game
MAX_LISTED = 200_000


def _distinct_openings(game: Any, number: int, plies: int, seed: int) -> tuple[list[Any], int | None]:
    """``number`` random openings ``plies`` in, each a different position (two move orders reaching the same
    position count once); when fewer exist, all of them and how many (else None)."""
    import random

    from ..arena.openings import random_openings

    kept: dict[Any, Any] = {}
    for opening in random_openings(game, number, plies, seed):  # distinct move orders, then the same again
        kept.setdefault(_state_after(game, opening), opening)
    if len(kept) >= number:
        return list(kept.values())[:number], None
    every = _all_positions(game, plies)
    if every is None:  # too many to list: what the random draws found
        return list(kept.values()), None
    rest = [opening for state, opening in every.items() if state not in kept]
    random.Random(f"zerosum-openings/{seed}").shuffle(rest)
    openings = [*kept.values(), *rest][:number]
    return openings, (len(every) if len(every) < number else None)


def _state_after(game: Any, opening: Any) -> Any:
    state = game.initial_state
    for action in opening:
        state = game.result(state, action)
    return state


def _all_positions(game: Any, plies: int) -> dict[Any, Any] | None:
    """Every open position ``plies`` in, each with the first move order found to it; None past
    :data:`MAX_LISTED` positions at a ply."""
    level: dict[Any, Any] = {game.initial_state: ()}
    for _ in range(plies):
        following: dict[Any, Any] = {}
        for state, moves in level.items():
            for action in game.actions(state):
                after = game.result(state, action)
                if after not in following:
                    following[after] = (*moves, action)
            if len(following) > MAX_LISTED:
                return None
        level = following
    return {state: moves for state, moves in level.items() if not game.is_terminal(state)}


COMMANDS = {"openings": (_add, _run)}
