"""``zerosum serve``: one page to play and analyse every game in the browser, and its small JSON API.

Routes (every answer is JSON except the page and its assets; errors are ``{"error": message}``):

* ``GET /`` -- the page (``?game=connect4&moves=4453`` opens that position); ``/static/*`` its assets.
* ``GET /api/health`` -- ``{"ok": true, ...}``.
* ``GET /api/state?game=SPEC&moves=M`` -- the board, whose turn, the legal moves, the outcome.
* ``GET /api/analyze?game=SPEC&moves=M`` -- every legal move's score (solver, else alpha-beta).
* ``POST /api/move`` with ``{"game": SPEC, "moves": M, "agent": SPEC}`` -- the agent's move and what it found.

Bad specs, bad move strings, finished positions and oversized requests get a 4xx with a one-line message;
an engine that overruns its limit gets a 504, a server whose engines are all busy a 503.  Engines run in
worker processes (see :mod:`zerosum.ui.worker`), so a long search is killed, never left running.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path
from typing import Any

__all__ = ["create_app", "COMMANDS", "STATIC"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 4096  # bytes of a POST body
MARGIN = 3.0  # seconds a worker may overrun its agent's time budget before it is killed


def create_app(
    *,
    engine_time: float = 5.0,
    workers: int = 2,
    mode: str = "process",
    busy_wait: float = 10.0,
    margin: float = MARGIN,
) -> Any:
    """The Starlette application.  ``engine_time`` caps every engine call (seconds); ``workers`` engine
    processes answer at once; ``mode="inline"`` runs engines in the server's threads (tests, no kill)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from .. import __version__
    from ..errors import GameError
    from . import service
    from .notation import format_moves, states_of
    from .worker import EngineBusy, EngineFailed, EnginePool, EngineTimeout

    pool = EnginePool(size=workers, wait=busy_wait, mode=mode)
    hard_limit = engine_time + margin

    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    def query(request: Request, name: str) -> str | None:
        values = request.query_params.getlist(name)
        if len(values) > 1:
            raise GameError(f"{name} is given {len(values)} times")
        return values[0] if values else None

    async def engine(target: str, args: tuple[Any, ...]) -> Any:
        return await run_in_threadpool(pool.run, target, args, hard_limit)

    async def guarded(handler: Any, request: Request) -> Response:
        """Run a handler, turning every refusal into a JSON error (never a traceback)."""
        try:
            return await handler(request)  # type: ignore[no-any-return]
        except GameError as exc:
            return error(400, str(exc))
        except EngineTimeout as exc:
            return error(504, str(exc))
        except EngineBusy as exc:
            return error(503, str(exc))
        except EngineFailed as exc:
            return error(502, f"the engine failed: {exc}")

    def load_solver_possible(game: Any) -> bool:
        return bool(getattr(game, "fits_64", False))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    async def health(request: Request) -> Response:
        from ..agents.base import agent_names

        names = [n for n in agent_names() if n in service.AGENTS]
        return JSONResponse({"ok": True, "version": __version__, "agents": names, "engine_time": engine_time})

    async def _state(request: Request) -> Response:
        game, actions = service.check_request(query(request, "game"), query(request, "moves"))
        return JSONResponse(service.describe_state(game, actions))

    async def _analyze(request: Request) -> Response:
        game, actions = service.check_request(query(request, "game"), query(request, "moves"))
        if not game.actions(states_of(game, actions)[-1]):
            raise GameError("the game is over: there is nothing to analyse")
        seconds = min(1.0, engine_time)
        moves = format_moves(game, actions)
        try:
            reply = await engine("zerosum.ui.service:analyze_job", (game.spec, moves, seconds, True))
        except EngineTimeout:
            if load_solver_possible(game):  # the solver overran: alpha-beta's opinion instead
                reply = await engine("zerosum.ui.service:analyze_job", (game.spec, moves, seconds, False))
                reply["note"] = f"the solver needed more than {hard_limit:g} s here, so this is alpha-beta's view"
            else:
                raise
        return JSONResponse(reply)

    async def _move(request: Request) -> Response:
        if request.headers.get("content-length", "0").isdigit() and int(request.headers.get("content-length", "0")) > MAX_BODY:
            return error(413, f"the request body is larger than {MAX_BODY} bytes")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return error(413, f"the request body is larger than {MAX_BODY} bytes")
        try:
            data = json.loads(body or b"null")
        except (ValueError, UnicodeDecodeError):
            return error(400, "the body is not JSON: send {\"game\": SPEC, \"moves\": MOVES, \"agent\": SPEC}")
        if not isinstance(data, dict):
            return error(400, "the body must be a JSON object {\"game\": SPEC, \"moves\": MOVES, \"agent\": SPEC}")
        unknown = sorted(set(data) - {"game", "moves", "agent", "seed"})
        if unknown:
            return error(400, f"unknown field(s) {', '.join(map(repr, unknown))}: expected game, moves, agent, seed")
        for key in ("game", "moves", "agent"):
            if key in data and data[key] is not None and not isinstance(data[key], str):
                return error(400, f"{key} must be a string, not {type(data[key]).__name__}")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32):
            return error(400, "seed must be a whole number 0..2**32-1")
        game, actions = service.check_request(data.get("game"), data.get("moves"))
        if game.is_terminal(states_of(game, actions)[-1]):
            raise GameError("the game is over: there is no move to make")
        agent = service.check_agent(game, data.get("agent"), max_time=engine_time)
        moves = format_moves(game, actions)
        try:
            reply = await engine("zerosum.ui.service:move_job", (game.spec, moves, agent, seed))
        except EngineTimeout:
            if not agent.startswith("solver"):
                raise
            # the solver has no clock of its own: past the limit, alpha-beta moves instead and says so
            instead = service.check_agent(game, f"alphabeta:time={min(1.0, engine_time):g}", max_time=engine_time)
            reply = await engine("zerosum.ui.service:move_job", (game.spec, moves, instead, seed))
            reply["note"] = f"the solver needed more than {hard_limit:g} s here, so {instead} moved instead"
        return JSONResponse(reply)

    async def state(request: Request) -> Response:
        return await guarded(_state, request)

    async def analyze(request: Request) -> Response:
        return await guarded(_analyze, request)

    async def move(request: Request) -> Response:
        return await guarded(_move, request)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(exc.status_code, exc.detail or "error")

    async def server_error(request: Request, exc: Exception) -> Response:
        return error(500, f"internal error: {type(exc).__name__}")

    routes = [
        Route("/", page),
        Route("/api/health", health),
        Route("/api/state", state),
        Route("/api/analyze", analyze),
        Route("/api/move", move, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        yield
        pool.close()

    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.pool = pool
    return app


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--engine-time", type=float, default=5.0, metavar="SECONDS",
                        help="the most an engine may think per request (default: 5)")
    parser.add_argument("--workers", type=int, default=2, help="engine processes (default: 2)")


def _run(args: argparse.Namespace) -> int:
    from ..cli import UsageError

    if not 0 < args.port < 65536:
        raise UsageError(f"--port must be 1..65535, not {args.port}")
    if not 0 < args.engine_time <= 600:
        raise UsageError(f"--engine-time must be a number of seconds in (0, 600], not {args.engine_time}")
    if not 1 <= args.workers <= 32:
        raise UsageError(f"--workers must be 1..32, not {args.workers}")
    import uvicorn

    app = create_app(engine_time=args.engine_time, workers=args.workers)
    print(f"zerosum: open http://{args.host}:{args.port}/ in a browser (Ctrl-C stops the server)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


COMMANDS = {"serve": (_add_arguments, _run)}
