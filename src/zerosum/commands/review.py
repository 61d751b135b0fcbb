"""``zerosum review MOVES|FILE [--game SPEC] [--json] [--agent SPEC] [-o FILE]``: every move of a game judged
(:func:`zerosum.review`, docs/review.md): a row a move as it is judged, then the summary per player; ``--json``
the marks as DESIGN's list of ``{ply, move, before, after, class, best, ...}``; ``-o FILE`` an annotated
record (``?`` / ``??`` / ``!`` and a comment a verdict) that ``zerosum replay`` reads.

Quick to import: the review loads inside ``run``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .options import DEFAULT_GAME, UsageError, add_game_option, float_arg, int_arg

__all__ = ["COMMANDS", "MAX_LINE", "MAX_TIME"]

#: the longest refutation line (plies) and the most seconds an estimate takes a position
MAX_LINE, MAX_TIME = 42, 600.0


def _add(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", metavar="MOVES|FILE",
                   help="the game: a move string in the game's notation (4453...), or a record file (every game "
                        "of it, or --index N)")
    add_game_option(p)
    p.set_defaults(game=None)  # a record's Game tag is its game; --game given with a record must name it
    option = p._option_string_actions["--game"]
    option.help = (f"{option.help}; with a record file, the record's game: needed for a record of your own game "
                   "file, which a record never runs (the same file name and class as its Game tag)")
    p.add_argument("--index", "-n", type=int_arg(1, 10_000_000), default=None, metavar="N",
                   help="review only game N of a record file, counted from 1 (default: every game)")
    p.add_argument("--agent", default=None, metavar="SPEC",
                   help="judge by this engine's estimates (alphabeta:time=0.5) instead of the solver; where the "
                        "solver does not go, alpha-beta estimates within --time a position")
    p.add_argument("--time", type=float_arg(hi=MAX_TIME, above=0), default=1.0, metavar="SECONDS",
                   help=f"estimates: about SECONDS a position (default 1, at most {MAX_TIME:g})")
    p.add_argument("--solver-time", type=float_arg(hi=MAX_TIME, above=0), default=10.0, metavar="SECONDS",
                   help="boards the solver takes without an opening book (all but 7 x 6): its seconds a position; "
                        "a position not proven by then is estimated by alpha-beta (default 10); past 64 bits one with more than "
                        "40 empty cells is estimated within --time, the solver not asked")
    p.add_argument("--line", type=int_arg(0, MAX_LINE), default=8, metavar="PLIES",
                   help=f"plies of each refutation line (default 8, 0..{MAX_LINE})")
    p.add_argument("--json", action="store_true",
                   help="print the marks as JSON (a list of {ply, move, before, after, class, best, ...}; a list of "
                        "such lists for a file of several games)")
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="write the annotated record(s) to FILE (refused if FILE exists, unless --overwrite)")
    p.add_argument("--overwrite", action="store_true", help="-o may replace an existing file")


def _sources(args: argparse.Namespace) -> list[Any]:
    """What to review: records of a file, or the move string."""
    from ..records import read
    from ..records.trust import names_file

    text = args.source
    if os.path.exists(text) or text.endswith((".pgn", ".txt", ".records")) or os.sep in text:
        given = args.game
        own = given if given is not None and names_file(given) else None  # a record never runs a file it names
        found = read(text, game=own)  # a missing or malformed file is one line; a game file's, without --game
        if not found:
            raise UsageError(f"record file {text!r} holds no games")
        if args.index is not None:
            if args.index > len(found):
                raise UsageError(f"--index {args.index}: record file {text!r} holds {len(found)} game"
                                 f"{'s' if len(found) != 1 else ''}")
            found = [found[args.index - 1]]
        for record in found:
            if given is not None and own is None and _spec(given) != record.game.spec:
                raise UsageError(f"--game {given}: the record is a game of {record.game.spec} (its Game tag)")
        return found
    if args.index is not None:
        raise UsageError("--index picks a game of a record file; MOVES is one game")
    if not text.strip():
        raise UsageError("MOVES is empty: there is no move to judge (give a move string such as 4453, or a file)")
    return [text]


def _same_file(one: str, two: str) -> bool:
    try:
        return os.path.samefile(one, two)
    except (OSError, ValueError):  # either missing (a move string, a new file): not the same
        return False


def _spec(text: str) -> str:
    from ..games import get_game

    return str(get_game(text).spec)


def _run(args: argparse.Namespace) -> int:
    import json

    from ..core.files import check_output
    from ..games import get_game
    from ..records import write
    from ..reviewer import Review, start_review
    from ..reviewer.text import heading, judged_line, row, summary_lines

    if args.output is not None:  # before any work: what the record writer refuses is refused now
        check_output(args.output, overwrite=args.overwrite, what="record file")
        if _same_file(args.output, args.source):  # --overwrite would replace every game read with those reviewed
            raise UsageError(f"-o {args.output}: that is the record file being reviewed; write the annotated "
                             "records to another file")
    sources = _sources(args)
    game = get_game(args.game or DEFAULT_GAME) if isinstance(sources[0], str) else None
    reviews: list[Review] = []
    for number, source in enumerate(sources, 1):
        found, marks = start_review(source, game, args.agent, seconds=args.time, line=args.line,
                                    solver_time=args.solver_time)
        reviews.append(found)
        if args.json:
            for _ in marks:
                pass
            continue
        if len(sources) > 1:
            print(f"{'' if number == 1 else chr(10)}Game {number} of {len(sources)}")
        print("\n".join(heading(found)), flush=True)
        for mark in marks:
            print(row(mark), flush=True)
        print(judged_line(found) + "\n" + "\n".join(summary_lines(found)), flush=True)
    if args.json:
        data: Any = reviews[0].to_json() if len(reviews) == 1 else [r.to_json() for r in reviews]
        json.dump(data, sys.stdout, indent=1)
        print()
    if args.output is not None:
        count = write([r.record() for r in reviews], args.output, overwrite=args.overwrite)
        print(f"wrote {count} annotated record{'s' if count != 1 else ''} to {args.output}",
              file=sys.stderr if args.json else sys.stdout)
    return 0


COMMANDS = {"review": (_add, _run)}
