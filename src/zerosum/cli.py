"""The ``zerosum`` command: a thin layer over the library.  ``main(argv) -> int``.

Every subcommand lives in :mod:`zerosum.commands`, one module a group of commands; each module exposes
``COMMANDS``, a dict mapping the subcommand's name to ``(add_arguments(parser), run(args) -> int)``.
:data:`SUBCOMMANDS` names the module of each, and :func:`command` is the one loader.  The modules import
quickly (heavy imports such as numba go inside ``run``), because ``zerosum --help`` loads them all.

Exit status: 0 on success, 2 on bad usage or bad input (one line on standard error, never a traceback),
130 when interrupted.  The console script (:func:`entry`) stops at SIGTERM and SIGHUP (``kill``, ``timeout``,
systemd, ``docker stop``, a closed terminal) as at Ctrl-C -- what was kept and how to carry on said in the same
line, ``interrupted by SIGTERM: ...`` -- then ends as killed by that signal (the servers and ``zerosum engine``
keep their own handling).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import signal
import sys
import threading
import warnings
from typing import Any, Callable, Sequence

from .core.version import __version__
from .commands.options import UsageError, add_game_option
from .errors import GameError
from .spec import QUOTE_CHARS, quoted

__all__ = ["main", "entry", "build_parser", "command", "add_game_option", "UsageError", "SUBCOMMANDS"]

#: subcommand -> (the module of :mod:`zerosum.commands` that implements it, one-line help), read from a
#: table a line a command: its name, its module's last part, its help
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    name: (f"zerosum.commands.{module}", text)
    for name, module, text in (line.split(None, 2) for line in """
        play          play      play a game in the terminal (default: you against the strongest agent)
        solve         solver    solve positions read from standard input, one move string a line
        analyze       solver    the score of every column of a position
        book          solver    write an opening book for the solver
        match         arena     a match between two agents
        tournament    arena     a round-robin (or gauntlet) tournament between agents
        report        arena     tables and plots from a results file
        openings      openings  write a file of openings, each position once (balanced by a judge: --max-score)
        serve         play      serve the browser page for play and analysis
        bench         bench     benchmarks: playouts, mcts, alphabeta, solver, analysis, review
        kaggle-agent  kaggle    write a single-file Kaggle ConnectX submission
        explain       explain   why a search plays its move: scores, refutations, the traced tree
        replay        replay    step through a game record: next, previous, jump, analysis
        review        review    every move of a game judged by the solver: best, good, mistake, blunder
        engine        engine    an agent as a program speaking the engine protocol (docs/protocol.md)
        engine-check  engine_check  what an external engine gets right and wrong (docs/protocol.md)
        contest       contest   a hosted class contest: new, serve, final, add, token (docs/contest.md)
        """.strip().splitlines())
}

Handler = tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]


#: a quoted run, or a run without spaces, this long or longer in an error line is cut (:func:`_bounded`)
_LONG_RUN = re.compile(r"(?<!\w)'(?:[^'\\\n]|\\.){%d,}'(?!\w)|(?<!\w)\"(?:[^\"\\\n]|\\.){%d,}\"(?!\w)|\S{%d,}"
                       % ((4 * QUOTE_CHARS,) * 3))  # a quote inside a word (homework's) opens nothing
#: argparse's list of choices, whose names need no quotes (the list of commands stays short)
_CHOICES = re.compile(r"\(choose from (?:'[a-z][a-z0-9-]*'(?:, )?)+\)$")
#: the commands that show what they wait for their own way (a screen, a page, the engine protocol, whose
#: standard error a contest reads): :func:`zerosum.agents.prepare.tell` is off while they run.  The others
#: say on standard error when a first run compiles (``zerosum: preparing the engine (the solver's search),
#: first run only: 1.6 s, about 25 s more``), as Python does.
OWN_WAITS = frozenset({"play", "replay", "serve", "contest", "engine"})
#: the longest error line printed; past it the line is cut and its length said
MAX_ERROR_LINE = 1000


def _bounded(line: str) -> str:
    """An error line with every long run of input cut as :func:`zerosum.spec.quoted` cuts it: the net under
    messages that quote input themselves (argparse's own, ``unrecognized arguments: ...``, among them)."""
    def cut(match: re.Match[str]) -> str:
        text = match.group(0)
        if text[0] in "'\"" and text[-1] == text[0]:
            return f"{text[:QUOTE_CHARS + 1]}{text[0]}... ({len(text) - 2:,} characters)"
        return f"{text[:QUOTE_CHARS]}... ({len(text):,} characters)"

    line = " ".join(_LONG_RUN.sub(cut, line).splitlines())
    return line if len(line) <= MAX_ERROR_LINE else f"{line[:MAX_ERROR_LINE]}... ({len(line):,} characters)"


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # a value that starts with a minus and a digit is a value, not an option: ``--sprt -10,10`` (argparse
        # takes only plain negative numbers, ``-10``, so the documented ELO0 below zero was refused)
        self._negative_number_matcher = re.compile(r"^-\.?\d")

    def error(self, message: str) -> Any:  # one line, exit 2
        message = _CHOICES.sub(lambda m: m.group(0).replace("'", ""), message)  # (choose from play, solve, ...)
        self.exit(2, _bounded(f"{self.prog}: error: {message}") + "\n")

    def parse_args(self, args: Any = None, namespace: Any = None) -> argparse.Namespace:  # type: ignore[override]
        """argparse's own, but the arguments nobody knows are named each one quoted and at most three of them
        (argparse joins them all with spaces: ``'0 ' * 2000`` would fill a line nothing could cut)."""
        parsed: argparse.Namespace
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            more = f" and {len(extra) - 3:,} more" if len(extra) > 3 else ""
            by = getattr(self, "commands", {}).get(getattr(parsed, "command", None), self)  # zerosum match: error
            by.error(f"unrecognized arguments: {', '.join(quoted(a) for a in extra[:3])}{more}")
        return parsed


def command(name: str) -> Handler:
    """``(add_arguments, run)`` of the subcommand ``name``, from its module in :mod:`zerosum.commands`."""
    module_name, _ = SUBCOMMANDS[name]
    handlers: dict[str, Handler] = importlib.import_module(module_name).COMMANDS
    return handlers[name]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="zerosum",
        description="Two-player zero-sum games and the agents that play them.",
        epilog="Run 'zerosum COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"zerosum {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    parser.commands = sub.choices  # type: ignore[attr-defined]  # each command's parser, for its errors
    for name, (_, help_text) in SUBCOMMANDS.items():
        add_arguments, run = command(name)
        p = sub.add_parser(name, help=help_text, description=help_text)
        add_arguments(p)
        p.set_defaults(_run=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``) and return the exit status.

    Exit status 0 on success; 2 on bad usage or input, or when the output cannot be written (a full disk),
    with one line on standard error; 0 when a reader closes the pipe (``zerosum solve | head``); 130 on Ctrl-C.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return int(exc.code or 0) if isinstance(exc.code, (int, type(None))) else 2
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    from .agents import prepare
    from .agents.unbounded import SearchLimitWarning

    speak = prepare.SPEAK
    name = " ".join(str(x) for x in (args.command, getattr(args, "action", None)) if x)  # zerosum contest serve
    if _CONSOLE and name not in OWN_SIGNALS:
        _stop_at_signals()
    if args.command in OWN_WAITS:
        prepare.SPEAK = False
    try:
        with warnings.catch_warnings():
            # a search that cannot end: the commands that can start one say it in their own line (play, match,
            # tournament); explain's trace is bounded by --max-nodes, and the engine's `go` without limits
            # is meant to search until `stop` (Python's two-line warning would be neither)
            warnings.simplefilter("ignore", SearchLimitWarning)
            status = int(run(args) or 0)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk shows here, inside the guard
        return status
    except (GameError, UsageError) as exc:
        _say(f"zerosum {name}: error: {exc}")
        return 2
    except KeyboardInterrupt as exc:  # a command may say what was kept: KeyboardInterrupt("12 games ...")
        by = f" by {signal.Signals(TERMINATED[0]).name}" if TERMINATED else ""
        _say(f"interrupted{by}: {exc}" if str(exc) else f"interrupted{by}")
        return 130
    except BrokenPipeError:  # e.g. `zerosum solve | head`
        return 0
    except OSError as exc:  # standard output on a full disk, a closed terminal, ...
        _say(f"zerosum {name}: error: {exc.strerror or exc}"
             + (f": {exc.filename}" if getattr(exc, "filename", None) else ""))
        return 2
    finally:
        prepare.SPEAK = speak


#: the commands that handle SIGTERM themselves (the servers: they stop their requests first) or that end at once
#: when killed (an engine: the arena that runs it kills it)
OWN_SIGNALS = frozenset({"serve", "contest serve", "engine"})
#: the signals the console script stops at as at Ctrl-C
STOPPING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
#: the console script (:func:`entry`) runs: the signals above are handled (never for a Python caller of main)
_CONSOLE = False
#: the signal that stopped the command, once one did
TERMINATED: list[int] = []


def _stop_at_signals() -> None:
    """SIGTERM and SIGHUP raise KeyboardInterrupt in the main thread, as Ctrl-C does, so that a command says
    what it kept and how to carry on; a second one ends the process at once (their default again)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, frame: Any) -> None:
        TERMINATED.append(signum)
        for s in STOPPING_SIGNALS:
            signal.signal(s, signal.SIG_DFL)
        raise KeyboardInterrupt

    for s in STOPPING_SIGNALS:
        if signal.getsignal(s) in (signal.SIG_DFL, None):  # not ignored (nohup) nor someone else's
            signal.signal(s, stop)


def _say(line: str) -> None:
    """One line on standard error, if there is one to write to."""
    try:
        if sys.stderr is not None:
            print(_bounded(line), file=sys.stderr)
    except (OSError, ValueError):
        pass


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of a standard output that failed (a
    closed pipe, a full disk) stays silent: for the console script only (:func:`entry`); a Python caller of
    :func:`main` keeps its standard output as it was, failing as it fails."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            if sys.stdout is not None:
                os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError):
        pass


def entry() -> None:
    """The console script: a command done while its engine still compiles (a first run, quit early) ends at
    once rather than wait for the compile (:func:`zerosum.agents.prepare.leave`)."""
    from .agents import prepare

    global _CONSOLE
    _CONSOLE = True
    status = main()
    if TERMINATED:  # stopped by SIGTERM or SIGHUP: ends as killed by it, once what it says is written
        status = 128 + TERMINATED[0]
    try:
        try:
            if sys.stdout is not None:
                sys.stdout.flush()  # what main could not write is still buffered: it would fail again at exit
        except (OSError, ValueError):
            _quiet_stdout()
        prepare.leave(status, signum=TERMINATED[0] if TERMINATED else None)
    except KeyboardInterrupt:  # Ctrl-C as the command ends (`zerosum play | head`: the pipe closed first)
        _say("interrupted")
        _quiet_stdout()
        status = 130
        prepare.leave(status, grace=0.0)
    if TERMINATED:
        for stream in filter(None, (sys.stdout, sys.stderr)):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        signal.signal(TERMINATED[0], signal.SIG_DFL)
        signal.raise_signal(TERMINATED[0])
    sys.exit(status)
