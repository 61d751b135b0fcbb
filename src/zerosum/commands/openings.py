"""``zerosum openings``: a file of balanced openings for the arena (Connect-X: positions the solver, or a
search agent, judges close to even; other games: random openings).

Kept quick to import: the arena's openings and the solver load inside ``run``.
"""

from __future__ import annotations

import argparse
import sys
import time

__all__ = ["COMMANDS", "MAX_SCORE", "MAX_COUNT"]

#: ``zerosum openings --max-score``: more than any board's score (64 x 64 Connect-X: 2,049)
MAX_SCORE = 10_000
#: ``zerosum openings --count``
MAX_COUNT = 100_000


def _add(p: argparse.ArgumentParser) -> None:
    from ..agents.base import MAX_SEED
    from ..arena.openings import MAX_OPENING_PLIES, MAX_POSITIONS
    from .options import add_game_option, int_arg

    add_game_option(p)
    p.add_argument("--plies", type=int_arg(0, MAX_OPENING_PLIES), default=4,
                   help=f"moves into the game, 0..{MAX_OPENING_PLIES} and fewer than the board's cells (default 4); "
                        f"Connect-X: at most {MAX_POSITIONS:,} positions at any ply")
    p.add_argument("--max-score", type=int_arg(0, MAX_SCORE), default=2,
                   help=f"Connect-X: keep positions whose solved score is within +-this, 0..{MAX_SCORE} "
                        "(default 2; 0 = draws only)")
    p.add_argument("--with", dest="evaluator", default="solver", metavar="SPEC",
                   help="Connect-X: what judges a position: solver (default) or a search agent spec, whose "
                        "unproven values count as balanced")
    p.add_argument("--sample", type=int_arg(1, MAX_POSITIONS), default=None, metavar="N",
                   help=f"Connect-X: judge only N of the positions, 1..{MAX_POSITIONS:,}, drawn from --seed "
                        "(default: all)")
    p.add_argument("--count", type=int_arg(1, MAX_COUNT), default=100,
                   help=f"other games: how many random openings, 1..{MAX_COUNT:,} (default 100)")
    p.add_argument("--seed", type=int_arg(0, MAX_SEED), default=0,
                   help="seed of --sample and of random openings, 0..2**63-1 (default 0)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write here, all at once at the end (default: standard output)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing output file")


def _run(args: argparse.Namespace) -> int:
    import contextlib

    from ..arena.openings import (
        agent_evaluator,
        candidate_positions,
        format_opening,
        generate_openings,
        has_balanced_openings,
        max_plies,
        random_openings,
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
    balanced = has_balanced_openings(game)  # the solver says which games it judges; others get random openings
    if balanced:  # a bad --with, too many plies or positions: refused before the solver loads
        evaluate = None if args.evaluator == "solver" else agent_evaluator(game, args.evaluator)
        candidates = candidate_positions(game, args.plies, args.sample, args.seed)
        evaluate = evaluate or solver_evaluator(game)
    with contextlib.ExitStack() as stack:
        if args.output:
            out = stack.enter_context(atomic_output(args.output, overwrite=args.overwrite, checked=True))
        else:
            out = sys.stdout
        if balanced:
            sample = f" --sample {args.sample} --seed {args.seed}" if args.sample else ""

            def begin(total: int) -> None:  # the positions are known: the header goes first
                out.write(
                    f"# zerosum openings --game {game.spec} --plies {args.plies} --max-score {args.max_score} "
                    f"--with {args.evaluator}{sample}\n"
                    f"# positions {args.plies} plies in (mirror images once{', a sample' if sample else ''}) whose "
                    f"value is within +-{args.max_score}; the number after each is its score for the side to move\n"
                )

            def progress(done: int, total: int) -> None:
                if sys.stderr.isatty():
                    print(f"\r{done}/{total} positions judged", end="", file=sys.stderr, flush=True)

            def found(seq: tuple[int, ...], score: int) -> None:
                out.write(f"{format_opening(game, seq)} {score}\n")
                out.flush()

            kept = generate_openings(game, args.plies, args.max_score, evaluate, progress, args.sample, args.seed,
                                     found, begin, candidates)
            if sys.stderr.isatty():
                print(file=sys.stderr)
            count = len(kept)
        else:
            openings = random_openings(game, args.count, args.plies, args.seed)
            out.write(f"# zerosum openings --game {game.spec} --plies {args.plies} --count {args.count} "
                      f"--seed {args.seed}\n")
            out.writelines(format_opening(game, o) + "\n" for o in openings)
            count = len(openings)
    if args.output:
        print(f"wrote {count} openings to {args.output} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


COMMANDS = {"openings": (_add, _run)}
