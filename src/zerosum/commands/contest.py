"""``zerosum contest new|serve|final|add|token``: a hosted class contest (docs/contest.md).

* ``new DIR --game SPEC --roster FILE.csv [limits] [openings] [--reference [NAME=]SPEC ...] [--deadline T]``:
  the contest's folder (:func:`zerosum.contest.setup.create_contest`): its database, ``tokens.csv`` (0600) and
  the judged openings.  Nothing is written when any option is wrong.
* ``serve DIR [--port P] [--host H] [--unconfined]``: the students' and the teacher's pages and the HTTP API
  (:mod:`zerosum.ui.contest_server`).
* ``final DIR [--before-deadline]``: freeze the entries and play the final round robin (the ladder's module,
  :mod:`zerosum.contest.final`); refused before the contest's deadline unless ``--before-deadline``.
* ``add DIR NAME...``: a late student (:func:`zerosum.contest.setup.add_students`); ``token DIR NAME --new`` or
  ``--revoke``: one person's token reissued or withdrawn (:func:`zerosum.contest.setup.new_token`).  Each
  prints the new links, writes tokens.csv, and changes nothing on a bad input; the server may be running.

Kept quick to import: the contest's modules load inside ``run``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["COMMANDS", "MAX_COUNT", "parse_reference"]

#: ``--openings-count``
MAX_COUNT = 1000


def _contest_args(p: argparse.ArgumentParser) -> None:
    """``zerosum contest ACTION ...``: one parser a subcommand."""
    sub = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    sub.required = True
    _new_args(sub.add_parser("new", help="make a contest folder: config, roster, tokens, openings",
                             description="make a contest folder: config, roster, tokens, openings"))
    _serve_args(sub.add_parser("serve", help="serve the students' and the teacher's pages and the API",
                               description="serve the students' and the teacher's pages and the API"))
    final = sub.add_parser("final", help="freeze the entries, play the final round robin, write the grades",
                           description="freeze the entries, play the final round robin, write DIR/results.csv "
                                       "and DIR/results.json")
    _final_args(final)
    add = sub.add_parser("add", help="add a student to the contest (a late student): their link",
                         description="add students to the contest, the server running or not: each gets a token, "
                                     "added to DIR/tokens.csv; their links are printed")
    add.add_argument("directory", metavar="DIR", help="the contest folder")
    add.add_argument("names", nargs="+", metavar="NAME", help="a student's name, as the roster's rules allow")
    token = sub.add_parser("token", help="give one person a new token (the old one refused), or revoke it",
                           description="give one person of the contest a new token, the old one refused from "
                                       "then on (--new), or none (--revoke), the server running or not; "
                                       "DIR/tokens.csv follows")
    token.add_argument("directory", metavar="DIR", help="the contest folder")
    token.add_argument("name", metavar="NAME", help="a student's name, or '#teacher' for the teacher's token")
    what = token.add_mutually_exclusive_group(required=True)
    what.add_argument("--new", action="store_true", help="a new token (its link is printed)")
    what.add_argument("--revoke", action="store_true", help="no token: the person can no longer sign in")


def _final_args(p: argparse.ArgumentParser) -> None:
    """``final DIR``'s options (the final is :func:`zerosum.contest.final.run_final`)."""
    from .options import int_arg

    p.add_argument("directory", metavar="DIR", help="the contest folder")
    p.add_argument("--seed", type=int_arg(0, 2**62), metavar="N", help="the final's seed (default: the contest's)")
    p.add_argument("--rounds", type=int_arg(1, 100), metavar="N",  # zerosum.contest.final.MAX_ROUNDS
                   help="colour-swapped pairs of games each pairing plays (default 1, at most 100)")
    rule = p.add_mutually_exclusive_group()
    rule.add_argument("--grade", metavar="LOW,HIGH", help="grade in ten bands between two references (default: "
                      "the lowest- and the highest-rated reference)")
    rule.add_argument("--grade-table", metavar="FILE.csv", help="grade by a table: header rank,points or elo,points")
    rule.add_argument("--no-grade", action="store_true",
                      help="play the final and write the results without grades (points left empty)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="where games run (default local)")
    p.add_argument("--jobs", type=int_arg(1, 1024), metavar="N", help="games at once (default: the cores)")
    p.add_argument("--ray-address", metavar="ADDR", help="a Ray cluster (with --backend ray)")
    p.add_argument("--unconfined", action="store_true",
                   help="run students' code WITHOUT a sandbox where none can be had (only for code you trust)")
    p.add_argument("--before-deadline", action="store_true",
                   help="freeze the entries and play the final though the contest's deadline has not passed (no "
                        "student can submit after it); without it the final is refused until the deadline")


def _new_args(p: argparse.ArgumentParser) -> None:
    from ..agents.base import MAX_SEED
    from ..arena.openings import MAX_OPENING_PLIES
    from .arena_options import _tc_arg
    from .options import float_arg, int_arg

    p.add_argument("directory", metavar="DIR", help="the contest folder (made; it may exist if it holds no contest)")
    p.add_argument("--game", required=True, metavar="SPEC",
                   help="the game, as everywhere (connect4, connectx:rows=8,cols=8,k=4, tictactoe, file.py:Class)")
    p.add_argument("--roster", required=True, metavar="FILE.csv",
                   help="the students: a CSV whose first column is a name a line (a first row 'name' is a header); "
                        "names are letters, digits, spaces and . - _ ', at most 64 characters")
    p.add_argument("--nodes", type=int_arg(1, 10**9), metavar="N", help="node budget of a move, 1..10**9")
    clock = p.add_mutually_exclusive_group()
    clock.add_argument("--move-time", type=float_arg(hi=3600, above=0), metavar="S",
                       help="seconds a move (above 0, at most 3600)")
    clock.add_argument("--tc", type=_tc_arg, metavar="BASE+INC", help="a game clock a player, e.g. 60+1")
    p.add_argument("--openings", metavar="FILE",
                   help="the openings, one move string a line (# comments); default: judged by zerosum")
    p.add_argument("--opening-plies", type=int_arg(0, MAX_OPENING_PLIES), default=None, metavar="P",
                   help="judged openings: plies in (default 4)")
    p.add_argument("--openings-count", type=int_arg(1, MAX_COUNT), default=None, metavar="N",
                   help=f"judged openings: how many of evaluation 0, 1..{MAX_COUNT} (default 8)")
    p.add_argument("--openings-with", metavar="SPEC", default=None,
                   help="what judges the openings: the solver where it takes the game, else alpha-beta to the end "
                        "of every game on a board of at most 12 cells (Tic-Tac-Toe), else alphabeta:depth=4")
    p.add_argument("--reference", action="append", default=None, metavar="[NAME=]SPEC",
                   help="a reference player, repeatable: random, alphabeta:depth=4, instructor=teacher.py:player "
                        "(default: random)")
    p.add_argument("--deadline", metavar="ISO-8601",
                   help="submissions close then: 2026-12-01T18:00Z (no zone: UTC); default: none")
    from .arena_options import add_engine_options

    add_engine_options(p)  # --engine NAME=COMMAND: an external program as a reference (--reference NAME)
    p.add_argument("--seed", type=int_arg(0, MAX_SEED), default=None,
                   help="seed of the openings' order and the games (default: drawn, and stored)")
    p.add_argument("--url", default="http://localhost:8000", metavar="URL",
                   help="the address students reach the server at, for the links of tokens.csv "
                        "(default http://localhost:8000)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace a contest already in DIR (its submissions and games are deleted; only the "
                        "contest's own files: a folder without a contest, or with files the contest did not write "
                        "among its submissions or references, is refused)")


def _serve_args(p: argparse.ArgumentParser) -> None:
    from .options import int_arg

    p.add_argument("directory", metavar="DIR", help="the contest folder (made by `zerosum contest new`)")
    p.add_argument("--port", type=int_arg(1, 65535), default=8000, help="port (default 8000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for the class's network)")
    p.add_argument("--unconfined", action="store_true",
                   help="run students' code WITHOUT a sandbox where none can be had (only for code you trust)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where the ladder's games run: local processes (default) or a Ray cluster")
    p.add_argument("--jobs", type=int_arg(1, 1024), metavar="N", help="ladder games at once (default: the cores)")
    p.add_argument("--ray-address", metavar="ADDR", help="a Ray cluster (with --backend ray)")


def parse_reference(text: str) -> dict[str, str]:
    """``[NAME=]SPEC`` as ``{"name", "spec"}`` (no name: the spec is the name); one UsageError line when bad."""
    import re

    from ..spec import quoted
    from .options import UsageError

    name, equals, spec = text.partition("=")
    if not equals or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_\-]{0,31}", name):
        name, spec = text, text
    if not spec.strip():
        raise UsageError(f"--reference {quoted(text)}: give [NAME=]SPEC, e.g. random or instructor=teacher.py:player")
    if len(name) > 64 or any(c in name for c in "<>&\"'\n\r\t"):
        raise UsageError(f"--reference {quoted(text)}: name it NAME=SPEC (NAME: letters, digits, _ and -)")
    return {"name": name, "spec": spec.strip()}


def _run_new(args: argparse.Namespace) -> int:
    from ..arena.openings import format_opening, read_openings
    from ..core.files import read_text
    from ..contest.setup import ContestSettings, create_contest, parse_deadline, read_roster
    from ..games import get_game
    from .options import UsageError

    if args.openings and (args.opening_plies is not None or args.openings_count is not None
                          or args.openings_with is not None):
        raise UsageError("--openings FILE gives the openings: --opening-plies, --openings-count and --openings-with "
                         "judge zerosum's own, so give one or the other")
    if not args.url.startswith(("http://", "https://")) or any(c.isspace() or c in "<>\"'" for c in args.url):
        raise UsageError(f"--url {args.url[:80]!r} is not an http:// or https:// address")
    roster = read_roster(read_text(args.roster, "roster"))
    from .arena_options import engine_settings

    engines = {d.name.lower(): d for d in engine_settings(args)}  # each --engine NAME is an agent spec now
    references: list[dict[str, Any]] = [parse_reference(r) for r in (args.reference or ["random"])]
    for ref in references:  # a reference that is an external engine keeps its definition with the contest
        found = engines.get(ref["spec"].partition(":")[0].lower())
        if found is not None:
            ref["engine"] = found.to_json()
    game = get_game(args.game)
    openings = None
    if args.openings:
        # read as the arena reads them: a bad line is one error naming the file and the line
        openings = [format_opening(game, actions) for actions in read_openings(args.openings, game)]
    settings = ContestSettings(
        game=args.game, roster=roster, nodes=args.nodes, move_time=args.move_time, tc=args.tc, openings=openings,
        opening_plies=4 if args.opening_plies is None else args.opening_plies,
        openings_count=8 if args.openings_count is None else args.openings_count,
        openings_with=args.openings_with, references=references,
        deadline=parse_deadline(args.deadline) if args.deadline else None, seed=args.seed, url=args.url)
    people = create_contest(args.directory, settings, overwrite=args.overwrite)
    who = f"{len(roster)} student{'s' if len(roster) != 1 else ''}"
    print(f"contest for {who} in {args.directory}: {len(settings.openings or [])} openings given"
          if openings else f"contest for {who} in {args.directory}", file=sys.stderr)
    print(f"the links are in {args.directory}/tokens.csv (keep it private); the teacher's page: {people[0][2]}",
          file=sys.stderr)
    print(f"start the server: {serve_command(args.directory, args.url)}", file=sys.stderr)
    return 0


def serve_command(directory: str, url: str) -> str:
    """The command that serves the contest in ``directory`` where its links (``url``) point: with ``--port`` when
    they name this machine on a port other than the server's default (``--url http://localhost:8731``)."""
    import shlex
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return f"zerosum contest serve {shlex.quote(directory)}"
    local = parts.hostname in ("localhost", "127.0.0.1", "::1")
    extra = f" --port {port}" if local and port is not None and port != 8000 else ""
    return f"zerosum contest serve {shlex.quote(directory)}{extra}"


def _run_serve(args: argparse.Namespace) -> int:
    from ..contest.game_file import check_game_file
    from ..contest.lock import claim
    from ..contest.owned import private
    from ..contest.store import Store
    from ..ui.connections import http_address, listening_socket, serve_until_stopped
    from ..ui.contest_server import create_contest_app
    from ..ui.server import serve_config
    from .options import UsageError

    store = Store(args.directory)  # a folder without a contest: one line, before the server starts
    check_game_file(store.config(), store.directory)  # a game in a file: its copy as `contest new` made it
    opened = private(store.directory)  # an older zerosum's contest: other accounts could read it
    if opened:
        print(f"made {', '.join(opened)} in {args.directory} readable by this account only", file=sys.stderr)
    if args.ray_address and args.backend != "ray":
        raise UsageError("--ray-address needs --backend ray")
    # before anything changes: the contest's lock (another server or a final: one line), then the port
    held = claim(store.directory, "serve")
    try:
        sock = listening_socket(args.host, args.port)
        try:
            app = create_contest_app(store, unconfined=args.unconfined, backend=args.backend,
                                     jobs=args.jobs, address=args.ray_address, held=held)
            print(f"serving the contest in {args.directory} on {http_address(args.host, args.port)} (Ctrl-C stops)",
                  file=sys.stderr)
            if not args.unconfined:  # what bounds a seat on this machine: a cgroup, or limits a process only
                from ..contest.sandbox import Limits, confinement

                print(f"seats: {confinement(Limits.of_contest(store.config()))}", file=sys.stderr)
            # at Ctrl-C (or SIGTERM) uploads waiting for their validation, and the board viewer's engine requests,
            # answer 503 "the server is stopping" at once, and the server stops without waiting for them
            serve_until_stopped(serve_config(app, host=args.host, port=args.port), app.state.stop_requests, sock)
        finally:
            sock.close()
    finally:
        store.close()  # here, not left to the interpreter's teardown, which SIGTERM's end skips (serve_until_stopped)
        held.release()
    return 0


def _run_final(args: argparse.Namespace) -> int:
    import importlib

    from ..contest.game_file import check_game_file
    from ..contest.store import Store
    from .options import UsageError

    store = Store(args.directory)
    config = store.config()
    check_game_file(config, store.directory)  # a game in a file: its copy as `contest new` made it
    store.close()
    try:
        final: Any = importlib.import_module("zerosum.contest.final")
    except ImportError:
        raise UsageError("the final is not available in this version") from None
    if not args.before_deadline:  # before the sandbox is looked for: the deadline's line first (run_final checks again)
        final.check_deadline(config, args.directory)
    from ..contest.sandbox import require_sandbox

    require_sandbox(args.unconfined)

    shown: list[tuple[int, int]] = []
    tty = sys.stderr.isatty()  # a terminal: one line rewritten; a pipe or a log: a line a tenth of the games

    def progress(done: int, total: int) -> None:
        shown.append((done, total))
        if tty:
            print(f"\rfinal: {done}/{total} games", end="", file=sys.stderr, flush=True)
        elif done == total or done % max(1, total // 10) == 0:
            print(f"final: {done}/{total} games", file=sys.stderr, flush=True)

    try:
        result = final.run_final(args.directory, seed=args.seed, rounds=args.rounds, grade=args.grade,
                                 table=args.grade_table, backend=args.backend, jobs=args.jobs,
                                 address=args.ray_address, unconfined=args.unconfined, progress=progress,
                                 grading=not args.no_grade, before_deadline=args.before_deadline)
    except KeyboardInterrupt:  # the final goes on from what it stored when run again (zerosum.contest.final)
        if shown and tty:
            print(file=sys.stderr)
        kept = f"{shown[-1][0]} of {shown[-1][1]} games of the final stored" if shown else "no game of the final played"
        raise KeyboardInterrupt(f"{kept} in {args.directory}; to carry on: the same command again "
                                f"(zerosum contest final {args.directory} ...)") from None
    except BaseException:  # an error's one line starts a line of its own, after the progress line
        if shown and tty:
            print(file=sys.stderr)
        raise
    if shown and tty:
        print(file=sys.stderr)
    for row in result["results"]:
        points = "" if row["points"] is None else f"  {row['points']:g} points"
        rating = "unranked" if row["rating"] is None else \
            f"{row['rating']:+.0f} [{row['rating_low']:+.0f}, {row['rating_high']:+.0f}]"
        who = f"{row['name']} (reference)" if row["kind"] == "reference" else row["name"]
        print(f"{row['rank'] or '-':>3}  {who}  {rating}  {row['games']} games{points}")
    print(f"{result['games']} games; results in {args.directory}/results.csv and results.json", file=sys.stderr)
    if (result.get("grade") or {}).get("warning"):
        print(f"Warning: {result['grade']['warning']}", file=sys.stderr)
    return 0


def _run_add(args: argparse.Namespace) -> int:
    from ..contest.setup import add_students

    for name, _, link in add_students(args.directory, args.names):
        print(f"added {name}: their link is {link}", file=sys.stderr)
    print(f"the links are in {args.directory}/tokens.csv too (keep it private)", file=sys.stderr)
    return 0


def _run_token(args: argparse.Namespace) -> int:
    import shlex

    from ..contest.setup import new_token

    row = new_token(args.directory, args.name, revoke=args.revoke)
    if row is None:
        print(f"{args.name} has no token now: their link is refused (a new one: zerosum contest token "
              f"{shlex.quote(args.directory)} {shlex.quote(args.name)} --new)", file=sys.stderr)
    else:
        print(f"a new token for {row[0]}: their link is {row[2]} (the old one is refused from now on)",
              file=sys.stderr)
        print(f"the links are in {args.directory}/tokens.csv too (keep it private)", file=sys.stderr)
    return 0


def _run(args: argparse.Namespace) -> int:
    import sqlite3

    from ..contest.store import storage_problem
    from .options import UsageError

    try:
        return {"new": _run_new, "serve": _run_serve, "final": _run_final, "add": _run_add,
                "token": _run_token}[args.action](args)
    except sqlite3.Error as exc:  # the disk filled up (or failed) once the database was open: one line
        trouble = storage_problem(exc)
        if trouble is None:
            raise
        raise UsageError(f"the contest's database in {args.directory} cannot be written ({trouble[:200]}); it is "
                         "not damaged by this: free some space on its disk and run the command again") from None


COMMANDS = {"contest": (_contest_args, _run)}
