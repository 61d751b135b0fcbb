"""``zerosum play``: a game in the terminal (see :mod:`zerosum.ui.terminal`), and ``zerosum serve``: the page
in the browser (see :mod:`zerosum.ui.server`).

Both faces load inside ``run``, so ``zerosum --help`` stays quick.
"""

from __future__ import annotations

import argparse

from .options import UsageError, add_game_option, float_arg, int_arg

__all__ = ["COMMANDS", "MAX_SEED", "MAX_HINT_TIME", "MAX_SOLVER_TIME", "MAX_ENGINE_TIME", "MAX_PORT"]

#: documented maxima of play's options (README, "Limits")
MAX_SEED = 2**63 - 1
MAX_HINT_TIME = 600.0
MAX_SOLVER_TIME = 3600.0
#: documented maxima of serve's options
MAX_ENGINE_TIME = 600.0
MAX_PORT = 65535


# ---- play ---------------------------------------------------------------------------------------


def _add_play(parser: argparse.ArgumentParser) -> None:
    add_game_option(parser)
    parser.add_argument("--first", default="human", metavar="AGENT",
                        help="who moves first: an agent spec or 'human' (default: human)")
    parser.add_argument("--second", default=None, metavar="AGENT",
                        help="who moves second (default: the strongest agent when a person moves first, "
                        "else a person)")
    parser.add_argument("--moves", default="", metavar="MOVES",
                        help="start from this move string, in the game's own notation (e.g. 4453 on a Connect "
                        "Four board; a wrong one says how the game's moves are written)")
    parser.add_argument("--seed", type=int_arg(0, MAX_SEED), default=None,
                        help=f"seed for agents that use randomness (0..{MAX_SEED})")
    parser.add_argument("--hint-time", type=float_arg(hi=MAX_HINT_TIME, above=0), default=1.0, metavar="SECONDS",
                        help=f"alpha-beta's time for a hint where the solver cannot go (default: 1, at most "
                        f"{MAX_HINT_TIME:g})")
    parser.add_argument("--solver-time", type=float_arg(hi=MAX_SOLVER_TIME, above=0), default=10.0,
                        metavar="SECONDS", help="how long a hint waits for the solver before alpha-beta answers "
                        f"(default: 10, at most {MAX_SOLVER_TIME:g})")
    parser.add_argument("--analysis", action="store_true",
                        help="a hint (every legal move's value) at each of your turns; the a key turns it on and off")
    parser.add_argument("--no-color", action="store_true", help="plain text even on a terminal")
    parser.add_argument("--log", action="store_true",
                        help="print the game as a scrolling log even on a terminal (default there: each board "
                        "drawn in place; a pipe or a file always gets the log)")
    from .arena_options import add_engine_options

    add_engine_options(parser)  # --engine NAME=COMMAND: then --first or --second NAME


def _run_play(args: argparse.Namespace) -> int:
    from ..ui.terminal import play
    from .arena_options import engine_settings

    engine_settings(args)  # each --engine NAME is an agent spec now

    return play(args.game, args.first, args.second, args.moves, seed=args.seed,
                color=False if args.no_color else None, hint_time=args.hint_time, solver_time=args.solver_time,
                analysis=args.analysis, log=args.log)


# ---- serve --------------------------------------------------------------------------------------


def _add_serve(parser: argparse.ArgumentParser) -> None:
    from ..core.processes import MAX_JOBS

    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: 127.0.0.1, this machine only; 0.0.0.0 is every interface)")
    parser.add_argument("--port", type=int_arg(1, MAX_PORT), default=8000, help=f"port 1..{MAX_PORT} (default: 8000)")
    parser.add_argument("--engine-time", type=float_arg(hi=MAX_ENGINE_TIME, above=0), default=5.0, metavar="SECONDS",
                        help=f"the most an engine may think per request, in (0, {MAX_ENGINE_TIME:g}] (default: 5)")
    parser.add_argument("--workers", type=int_arg(1, MAX_JOBS), default=2,
                        help=f"engine processes 1..{MAX_JOBS} (default: 2)")


def _run_serve(args: argparse.Namespace) -> int:
    host = args.host.strip()
    if not host:  # uvicorn would bind every interface
        raise UsageError("--host is empty: name an address, e.g. 127.0.0.1 (this machine only) "
                         "or 0.0.0.0 (every interface, on purpose)")
    from ..ui.connections import http_address, listening_socket, serve_until_stopped
    from ..ui.server import create_app, serve_config

    sock = listening_socket(host, args.port)  # before anything starts: a port in use is one line
    try:
        app = create_app(engine_time=args.engine_time, workers=args.workers)
        print(f"zerosum: open {http_address(host, args.port)} in a browser (Ctrl-C stops the server)", flush=True)
        # at Ctrl-C the requests waiting for an engine answer 503 "the server is stopping" at once
        serve_until_stopped(serve_config(app, host, args.port), app.state.engines.stop, sock)
    finally:
        sock.close()
    return 0


COMMANDS = {"play": (_add_play, _run_play), "serve": (_add_serve, _run_serve)}
