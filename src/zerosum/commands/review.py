"""``zerosum review MOVES|FILE [--game SPEC] [--json] [--agent SPEC] [-o FILE]``: every move of a game judged
(:func:`zerosum.review`, docs/review.md): a row a move as it is judged, then the summary per player; ``--json``
the marks as DESIGN's list of ``{ply, move, before, after, class, best, ...}``; ``-o FILE`` an annotated
record (``?`` / ``??`` / ``!`` and a comment a verdict) that ``zerosum replay`` reads.

No wait is silent (:class:`_Waits`): once nothing has shown for :data:`LIVE_AFTER` seconds, a line on the
terminal says what the review is doing (``judging ply 25: the solver (at most 10 s a position), 4.2 s``),
redrawn in place and erased when the next row comes -- on standard output when it is the terminal the rows go
to, else on standard error when that is a terminal (``--json``, a pipe); where neither is one, a line on
standard error after :data:`SAID_AFTER` seconds and again every :data:`SAID_AGAIN` seconds.  Never in the
JSON.  Loading a large record file says so once (:func:`.replay.reading`); with ``--index N`` reading stops
after game N.

Quick to import: the review loads inside ``run``.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from typing import Any

from .options import DEFAULT_GAME, UsageError, add_game_option, float_arg, int_arg

__all__ = ["COMMANDS", "MAX_LINE", "LIVE_AFTER", "SAID_AFTER", "SAID_AGAIN"]

#: the longest refutation line (plies)
MAX_LINE = 42
#: seconds without news before a wait is said: on a terminal, a line redrawn in place (refreshed every
#: ``TICK``); elsewhere a line on standard error, and again every ``SAID_AGAIN`` seconds while it lasts
LIVE_AFTER, SAID_AFTER, SAID_AGAIN, TICK = 1.0, 1.5, 10.0, 0.2


def _add(p: argparse.ArgumentParser) -> None:
    from ..reviewer.judge import MAX_TIME  # the one bound of review(seconds=, solver_time=) and of these options
    from .replay import MAX_GAME_NUMBER

    p.add_argument("source", metavar="MOVES|FILE",
                   help="the game: a move string in the game's notation (4453...), or a record file (every game "
                        "of it, or --index N)")
    add_game_option(p)
    p.set_defaults(game=None)  # a record's Game tag is its game; --game given with a record must name it
    option = p._option_string_actions["--game"]
    option.help = (f"{option.help}; with a record file, the record's game: needed for a record of your own game "
                   "file, which a record never runs (the same file name and class as its Game tag)")
    p.add_argument("--index", "-n", type=int_arg(1, MAX_GAME_NUMBER), default=None, metavar="N",
                   help=f"review only game N of a record file, counted from 1, at most {MAX_GAME_NUMBER:,} (the "
                        "file is read no further; default: every game)")
    p.add_argument("--agent", default=None, metavar="SPEC",
                   help="judge by this engine's estimates (alphabeta:time=0.5) instead of the solver; where the "
                        "solver does not go, alpha-beta estimates within --time a position")
    p.add_argument("--time", type=float_arg(hi=MAX_TIME, above=0), default=None, metavar="SECONDS",
                   help=f"alpha-beta's estimates, when no --agent is named: about SECONDS a position (default 1, at "
                        f"most {MAX_TIME:,.0f}); a named agent keeps its own limit (--agent alphabeta:time=0.1)")
    p.add_argument("--solver-time", type=float_arg(hi=MAX_TIME, above=0), default=10.0, metavar="SECONDS",
                   help="boards the solver takes without an opening book (all but 7 x 6): its seconds a position; "
                        "a position not proven by then is estimated by alpha-beta (default 10, at most "
                        f"{MAX_TIME:,.0f}); past 64 bits one with more than 41 empty cells is estimated within "
                        "--time, the solver not asked (at 41, each move's position is proven)")
    p.add_argument("--line", type=int_arg(0, MAX_LINE), default=8, metavar="PLIES",
                   help=f"plies of each refutation line (default 8, 0..{MAX_LINE})")
    p.add_argument("--json", action="store_true",
                   help="print the marks as JSON (a list of {ply, move, before, after, class, best, ...}; a list of "
                        "such lists for a file of several games)")
    p.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="write the annotated record(s) to FILE (refused if FILE exists, unless --overwrite)")
    p.add_argument("--overwrite", action="store_true", help="-o may replace an existing file")


def _sources(args: argparse.Namespace) -> list[Any]:
    """What to review: records of a file (with ``--index N``, read no further than game N), or the move
    string."""
    import itertools

    from ..core.files import shown
    from ..errors import InvalidFileError
    from ..records.reading import iter_read
    from ..records.trust import names_file
    from .replay import reading

    text = args.source
    if os.path.exists(text) or text.endswith((".pgn", ".txt", ".records")) or os.sep in text:
        given = args.game
        own = given if given is not None and names_file(given) else None  # a record never runs a file it names
        found, failed = [], False
        try:  # a missing or malformed file is one line; a game file's, without --game, too
            with reading(text, "review", args.index):
                found = list(itertools.islice(iter_read(text, game=own), args.index))
        except MemoryError:
            failed = True
        if failed:  # outside the handler, so that the games read so far are let go first
            raise InvalidFileError(f"record file {shown(text)}: not enough memory to hold its games")
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


class _Waits:
    """Says what the review is doing once a wait passes :data:`LIVE_AFTER` (a terminal) or :data:`SAID_AFTER`
    seconds (the module docstring): a thread of its own looks every :data:`TICK` seconds.  ``table``: the rows
    go to standard output as they come (else it is JSON, or nothing); every line the command prints goes
    through :meth:`say`, which first erases a line drawn in place."""

    def __init__(self, table: bool) -> None:
        out, err = sys.stdout, sys.stderr
        #: the terminal a line is redrawn on (None: none; lines on standard error instead, if there is one)
        self.live = out if table and _terminal(out) else err if _terminal(err) else None
        self.plain = self.live is None and err is not None
        self.lock = threading.Lock()
        self.last = time.perf_counter()  # when something last showed
        self.said: float | None = None  # when a plain line last said the wait (None: not this wait yet)
        self.drawn = False  # a line drawn in place is on the screen
        self.found: Any = None  # the review under way
        self.place = ""  # where it is (``game 2 of 3, 12 of 40 moves judged``)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="zerosum-review-waits", daemon=True)

    def __enter__(self) -> "_Waits":
        from ..agents import prepare

        self.speak, prepare.SPEAK = prepare.SPEAK, not (self.live or self.plain)  # one voice: these words say a
        self.thread.start()  # first run's compile too (prepare.status)
        return self

    def __exit__(self, *_: Any) -> None:
        from ..agents import prepare

        self.stopped.set()
        self.thread.join()
        with self.lock:
            self._erase()
        prepare.SPEAK = self.speak

    def say(self, text: str, stream: Any = None) -> None:
        """Print ``text`` (a line, or lines) on ``stream`` (standard output), a line drawn in place erased first."""
        with self.lock:
            self._erase()
            print(text, file=stream or sys.stdout, flush=True)
            self.last, self.said = time.perf_counter(), None

    def _erase(self) -> None:
        if self.drawn and self.live is not None:
            self.live.write("\r\x1b[K")
            self.live.flush()
        self.drawn = False

    def _run(self) -> None:
        from ..reviewer.text import wait_words

        while not self.stopped.wait(TICK):
            with self.lock:
                now = time.perf_counter()
                waited = now - self.last
                try:
                    if self.live is not None and waited >= LIVE_AFTER:
                        width = _width(self.live)
                        self.live.write("\r" + wait_words(self.found, self.last, now, self.place, width - 1) + "\x1b[K")
                        self.live.flush()
                        self.drawn = True
                    elif self.plain and (waited >= SAID_AFTER if self.said is None else now - self.said >= SAID_AGAIN):
                        print(f"zerosum review: {wait_words(self.found, self.last, now, self.place)}", file=sys.stderr,
                              flush=True)
                        self.said = now
                except (OSError, ValueError):  # the terminal went away: the command's own output says so
                    return


def _terminal(stream: Any) -> bool:
    try:
        return stream is not None and stream.isatty() and os.environ.get("TERM") != "dumb"
    except (OSError, ValueError):
        return False


def _width(stream: Any) -> int:
    """The terminal's width in characters (asked each time: a window may be resized)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return 80


def _run(args: argparse.Namespace) -> int:
    import json

    from ..core.files import check_output
    from ..games import get_game
    from ..records import write
    from ..reviewer import Review

    if args.output is not None:  # before any work: what the record writer refuses is refused now
        check_output(args.output, overwrite=args.overwrite, what="record file")
        if _same_file(args.output, args.source):  # --overwrite would replace every game read with those reviewed
            raise UsageError(f"-o {args.output}: that is the record file being reviewed; write the annotated "
                             "records to another file")
    if args.time is not None and args.agent is not None:  # it would be ignored: the agent judges at its own pace
        raise UsageError(f"--time is for the default judge's estimates; the agent named keeps its own limit: give it "
                         f"in its spec (as in --agent alphabeta:time={args.time:g})")
    args.time = 1.0 if args.time is None else args.time
    sources = _sources(args)
    game = get_game(args.game or DEFAULT_GAME) if isinstance(sources[0], str) else None
    reviews: list[Review] = []
    try:
        _review_all(args, sources, game, reviews)
    except KeyboardInterrupt:  # the games reviewed to the end are kept (-o) and counted; the one under way is not
        raise KeyboardInterrupt(_kept(args, reviews, len(sources))) from None
    if args.json:
        data: Any = reviews[0].to_json() if len(reviews) == 1 else [r.to_json() for r in reviews]
        json.dump(data, sys.stdout, indent=1)
        print()
    if args.output is not None:
        count = write([r.record() for r in reviews], args.output, overwrite=args.overwrite)
        print(f"wrote {count} annotated record{'s' if count != 1 else ''} to {args.output}",
              file=sys.stderr if args.json else sys.stdout)
    return 0


def _kept(args: argparse.Namespace, done: list[Any], planned: int) -> str:
    """What an interrupted review says it kept: the games reviewed to the end, written to ``-o`` (annotated,
    as a finished review writes them), or nothing."""
    from ..errors import GameError
    from ..records import write

    of = f"{len(done)} of {planned} games reviewed" if planned > 1 else "the game was not reviewed to the end"
    if args.output is None:
        return of if planned > 1 else ""
    if not done:
        return f"{of}: nothing was written to {args.output}"
    try:
        write([r.record() for r in done], args.output, overwrite=args.overwrite)
    except GameError as exc:
        return f"{of}: nothing was written to {args.output} ({exc})"
    rest = f"game {len(done) + 1} on" if len(done) + 1 < planned else f"game {planned}"
    return (f"{of}: {'they are' if len(done) > 1 else 'it is'} written to {args.output}, annotated; {rest} not "
            f"reviewed (one game at a time: --index N)")


def _review_all(args: argparse.Namespace, sources: list[Any], game: Any, reviews: list[Any]) -> None:
    """Each game reviewed in turn, added to ``reviews`` once reviewed to the end, its rows printed as they come
    (not with ``--json``)."""
    from ..reviewer import start_review
    from ..reviewer.text import heading, judged_line, row, summary_lines

    with _Waits(not args.json) as waits:
        for number, source in enumerate(sources, 1):
            found, marks = start_review(source, game, args.agent, seconds=args.time, line=args.line,
                                        solver_time=args.solver_time)
            of = f"game {number} of {len(sources)}, " if len(sources) > 1 else ""
            waits.found, total = found, len(found.actions) - found.start
            waits.place = f"{of}0 of {total} moves judged" if args.json else of.rstrip(", ")
            if args.json:
                for mark in marks:
                    waits.place = f"{of}{len(found.marks)} of {total} moves judged"
                reviews.append(found)
                continue
            if len(sources) > 1:
                waits.say(f"{'' if number == 1 else chr(10)}Game {number} of {len(sources)}")
            waits.say("\n".join(heading(found)))
            for mark in marks:
                waits.say(row(mark))
            waits.say(judged_line(found) + "\n" + "\n".join(summary_lines(found)))
            reviews.append(found)


COMMANDS = {"review": (_add, _run)}
