"""``zerosum serve``: one page to play and analyse every game in the browser, and its small JSON API.

Routes (every answer is JSON except the page and its assets; errors are ``{"error": message}``):

* ``GET /`` -- the page (``?game=connect4&moves=4453`` opens that position); ``/static/*`` its assets.
* ``GET /api/health`` -- ``{"ok": true, "engines": 2, "engines_ready": 2, ...}`` (engines load for a few
  seconds after the start, and after one is replaced).
* ``GET /api/state?game=SPEC&moves=M`` -- the board, whose turn, the legal moves, the outcome.
* ``GET /api/analyze?game=SPEC&moves=M`` -- every legal move's score (solver, else alpha-beta).
  ``&budget=S`` (0.05 s up to the engine time): S more seconds of a progressive analysis where the solver
  plays -- each column's win/draw/loss, then its exact score, as proven so far (``done``, ``classes``); the
  page asks again until ``done``.  Never alpha-beta's figures where the solver plays.
* ``POST /api/move`` with ``{"game": SPEC, "moves": M, "agent": SPEC}`` -- the agent's move and what it found
  (``note``: who moved instead, when the agent could not -- the solver on a board beyond 64 bits, or an engine
  past the hard limit).
* ``POST /api/record`` with ``{"text": RECORD}`` (at most :data:`MAX_RECORD` bytes) -- the games of a game
  record (:mod:`zerosum.records`): ``{"games": [{"tags", "moves", "result", "game", "line", "separator", "error"}]}``,
  ``line`` the moves from the start (the opening's, then the game's) for the page's move list.  The record is
  read in an engine worker under an engine job's bounds (time, memory), each game's board checked from its
  tags before its moves are replayed; at most ``max_record_requests`` records are read at once (more: a 503
  at once).
* ``GET /api/agent?game=SPEC&agent=SPEC`` -- whether the server plays that agent on that game:
  ``{"agent", "accepted", "error", "nearest"}``, ``nearest`` the spec nearest to a refused one that it does
  play (``alphabeta:depth=100`` -> ``alphabeta:depth=8``), or null.  The page checks its address with it.
* ``GET /api/explain?game=SPEC&moves=M&agent=SPEC`` -- why a search (alphabeta, minimax, mcts) plays what it
  plays: its traced search, each root move's score, kind and refutation, the line, the chosen move (at most
  :data:`zerosum.ui.explain.MAX_EXPLAIN_NODES` nodes, else a 400 asking for a smaller search); for the solver,
  whose search is not traced, its exact analysis in the same rows.  The traced search is bounded while it
  runs (its nodes, and the engine time) and runs in an engine worker under its hard time limit.

Bad specs, bad move strings, finished positions, oversized requests and text no UTF-8 can hold (a lone
surrogate, which JSON's ``"\\ud800"`` carries) get a 4xx with a one-line message;
an engine that overruns its limit gets a 504, a server whose engines are all busy (or out of memory) a 503.
The page allows less than the command line (:data:`zerosum.ui.service.SERVER_AGENTS`, boards up to 16 x 16).
Requests are checked, and positions built, in threads, never on the event loop; engines run in worker
processes (the engine pool, :mod:`zerosum.pool`), so a long search is killed, never left running.

Slow clients are timed out and open connections capped: see :mod:`zerosum.ui.connections`.
"""

from __future__ import annotations

import contextlib
import functools
import json
from pathlib import Path
from typing import Any

from .connections import serve_config
from .record_api import MAX_RECORD, MAX_RECORD_REQUESTS

__all__ = ["create_app", "serve_config", "STATIC"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 4096  # bytes of a POST body
MARGIN = 3.0  # seconds a worker may overrun its agent's time budget before it is killed
MAX_ENGINE_REQUESTS = 32  # engine requests running or waiting at once; more get 503 at once
MIN_BUDGET = 0.05  # seconds: the smallest slice of a progressive analysis (/api/analyze?budget=)


class TooLarge(Exception):
    """A request body past its limit (answered 413)."""


def refuse_unencodable(data: Any, what: str) -> None:
    """Refuse text that no UTF-8 can hold (a lone surrogate) anywhere in ``data``, a request's JSON or one of
    its query values: a GameError naming the field, as for any other bad input."""
    from ..errors import UsageError

    stack = [(what, data)]
    while stack:
        name, value = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise UsageError(f"{name} holds {value[exc.start]!r} (character {exc.start + 1}), a lone surrogate: "
                                 "send text that UTF-8 can hold") from None
        elif isinstance(value, dict):
            stack.extend(("a field name", key) for key in value)
            stack.extend((f"field {key!r}" if isinstance(key, str) else name, item) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((name, item) for item in value)


def create_app(
    *,
    engine_time: float = 5.0,
    workers: int = 2,
    mode: str = "process",
    busy_wait: float = 10.0,
    margin: float = MARGIN,
    max_engine_requests: int = MAX_ENGINE_REQUESTS,
    max_record_requests: int = MAX_RECORD_REQUESTS,
) -> Any:
    """The Starlette application.  ``engine_time`` caps every engine call (seconds); ``workers`` engine
    processes answer at once; ``mode="inline"`` runs engines in the server's threads (tests, no kill);
    ``max_record_requests`` records are read at once."""
    import anyio
    import anyio.to_thread
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from .. import __version__
    from ..core.files import describe_exception
    from ..errors import GameError
    from ..spec import real
    from . import explain as why
    from . import record_api, service
    from .worker import EngineBusy, EngineFailed, EngineMemory, EnginePool, EngineTimeout

    pool = EnginePool(size=workers, wait=busy_wait, mode=mode, warmup=service.warm_up)
    hard_limit = engine_time + margin
    limiter: list[Any] = []  # the engine requests' own threads (made on the event loop, at first use)
    waiting = [0]  # engine requests running or waiting (read and written on the event loop only)
    reading = [0]  # records being read (on the event loop only)

    def error(status: int, message: str) -> JSONResponse:
        # one line, and text UTF-8 can hold whatever the message quotes
        line = " ".join(message.splitlines()).encode("utf-8", "backslashreplace").decode("utf-8")
        return JSONResponse({"error": line}, status_code=status)

    def query(request: Request, name: str) -> str | None:
        values = request.query_params.getlist(name)
        if len(values) > 1:
            raise GameError(f"{name} is given {len(values)} times")
        refuse_unencodable(values, name)
        return values[0] if values else None

    async def engine(job: Any, args: tuple[Any, ...]) -> Any:
        if waiting[0] >= max_engine_requests:
            raise EngineBusy(f"{waiting[0]} engine requests are waiting already; try again in a moment")
        if not limiter:
            limiter.append(anyio.CapacityLimiter(max_engine_requests))
        waiting[0] += 1
        try:
            return await anyio.to_thread.run_sync(pool.run, job, args, hard_limit, limiter=limiter[0])
        finally:
            waiting[0] -= 1

    async def guarded(handler: Any, request: Request) -> Response:
        """Run a handler, turning every refusal into a JSON error (never a traceback, never a reset)."""
        try:
            return await handler(request)  # type: ignore[no-any-return]
        except TooLarge as exc:
            return error(413, str(exc))
        except GameError as exc:
            return error(400, str(exc))
        except EngineTimeout as exc:
            return error(504, str(exc))
        except EngineBusy as exc:
            return error(503, str(exc))
        except EngineFailed as exc:
            return error(502, f"the engine failed: {exc}")
        except ClientDisconnect:
            return error(400, "the client went away before its request was complete")
        except Exception as exc:  # a bug of ours: a JSON 500 that keeps the connection usable
            return error(500, f"internal error: {describe_exception(exc)}")

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    agents: list[str] = []  # the installed ones of service.AGENTS, found at the start (it imports them)

    def installed_agents() -> None:
        from ..agents.registry import agent_names

        agents[:] = [n for n in agent_names() if n in service.AGENTS]

    async def health(request: Request) -> Response:
        opponents = [{"spec": spec, "label": label, "elsewhere": elsewhere or None}
                     for spec, label, elsewhere in service.OPPONENTS if spec.split(":")[0] in agents]
        return JSONResponse({"ok": True, "version": __version__, "agents": agents, "opponents": opponents,
                             "engine_time": engine_time, "engines": workers,
                             "engines_ready": workers if mode == "inline" else pool.ready})

    async def body_of(request: Request, limit: int, shape: str) -> Any:
        """The request's JSON object, read no further than ``limit`` bytes (else a 413, as a GameError is
        a 400: raised as ``TooLarge``)."""
        length = request.headers.get("content-length", "0")
        if length.isascii() and length.isdigit() and int(length) > limit:
            raise TooLarge(f"the request body is larger than {limit} bytes")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise TooLarge(f"the request body is larger than {limit} bytes")
        try:
            data = json.loads(body or b"null")
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise GameError(f"the body is not JSON: send {shape}") from None
        if not isinstance(data, dict):
            raise GameError(f"the body must be a JSON object {shape}")
        refuse_unencodable(data, "the body")
        return data

    async def _state(request: Request) -> Response:
        game, actions, position = await run_in_threadpool(service.check_position, query(request, "game"),
                                                          query(request, "moves"))
        return JSONResponse(await run_in_threadpool(service.describe_state, game, actions, position))

    async def _analyze(request: Request) -> Response:
        # the position is built once, here; the worker gets it
        game, actions, position = await run_in_threadpool(service.check_position, query(request, "game"),
                                                          query(request, "moves"),
                                                          "the game is over: there is nothing to analyse")
        seconds = min(1.0, engine_time)
        budget_text = query(request, "budget")
        if budget_text is not None:  # a slice of a progressive analysis: what is proven so far
            try:
                budget = real(budget_text)
            except ValueError:
                budget = -1.0
            if not MIN_BUDGET <= budget <= engine_time:
                raise GameError(f"budget={budget_text[:20]!r} is not a number of seconds {MIN_BUDGET:g}..{engine_time:g}")
            reply = await engine(service.analyze_job, (game, actions, position, seconds, True, budget))
            return JSONResponse(reply)
        try:
            reply = await engine(service.analyze_job, (game, actions, position, seconds, True))
        except EngineTimeout:
            if not service.solver_plays(game):
                raise
            # the solver overran: alpha-beta's opinion instead
            reply = await engine(service.analyze_job, (game, actions, position, seconds, False))
            reply["note"] = f"the solver needed more than {hard_limit:g} s here, so this is alpha-beta's view"
        return JSONResponse(reply)

    async def _move(request: Request) -> Response:
        data = await body_of(request, MAX_BODY, '{"game": SPEC, "moves": MOVES, "agent": SPEC}')
        unknown = sorted(set(data) - {"game", "moves", "agent", "seed"})
        if unknown:
            return error(400, f"unknown field(s) {', '.join(map(repr, unknown))}: expected game, moves, agent, seed")
        for key in ("game", "moves", "agent"):
            if key in data and data[key] is not None and not isinstance(data[key], str):
                return error(400, f"{key} must be a string, not {type(data[key]).__name__}")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32):
            return error(400, "seed must be a whole number 0..2**32-1")
        # the position is built and the agent spec parsed once, here; the worker gets the checked values
        checked_move = await run_in_threadpool(service.check_move, data.get("game"), data.get("moves"),
                                               data.get("agent"), seed, engine_time)
        agent = checked_move.agent
        try:
            reply = await engine(service.move_job, (checked_move,))
        except EngineTimeout:
            # the agent overran the hard limit (the solver proving a hard position, a deep search on a big
            # board): alpha-beta moves instead and says so, so every board plays against every opponent
            instead = await run_in_threadpool(service.checked_agent, checked_move.game,
                                              f"alphabeta:time={min(1.0, engine_time):g}", engine_time, seed)
            reply = await engine(service.move_job, (checked_move.instead(instead),))
            reply["note"] = f"the {agent.name} needed more than {hard_limit:g} s here, so {instead.spec} moved instead"
        return JSONResponse(reply)

    async def _explain(request: Request) -> Response:
        checked = await run_in_threadpool(why.check_explain, query(request, "game"), query(request, "moves"),
                                          query(request, "agent"), engine_time)
        # the trace is bounded while it runs: its nodes, and the engine time (inside the worker's hard limit)
        job = functools.partial(why.explain_job, max_nodes=why.MAX_EXPLAIN_NODES, max_time=engine_time)
        return JSONResponse(await engine(job, (checked,)))

    async def _agent(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(service.agent_choice, query(request, "game"),
                                                    query(request, "agent"), engine_time))

    async def _record(request: Request) -> Response:
        data = await body_of(request, MAX_RECORD, '{"text": RECORD}')
        unknown = sorted(set(data) - {"text"})
        if unknown or not isinstance(data.get("text"), str):
            raise GameError('send {"text": RECORD}: the text of a game record, as a string')
        if reading[0] >= max_record_requests:  # refused at once: records never queue up
            raise EngineBusy(f"{reading[0]} records are being read already, the most at once here; try again in a "
                             "moment")
        reading[0] += 1
        try:  # read in a worker: the replay's time and memory are bounded, as an engine's are
            answer = await engine(record_api.record_job, (data["text"],))
        except EngineTimeout:
            raise EngineTimeout(f"the record took more than {hard_limit:g} s to read: send fewer or shorter "
                                "games") from None
        except EngineMemory:
            raise TooLarge("the record needs more memory than the server gives a reader: send fewer or shorter "
                           "games") from None
        finally:
            reading[0] -= 1
        return Response(answer, media_type="application/json")  # JSON made in the worker

    async def agent(request: Request) -> Response:
        return await guarded(_agent, request)

    async def record(request: Request) -> Response:
        return await guarded(_record, request)

    async def explain(request: Request) -> Response:
        return await guarded(_explain, request)

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
        Route("/api/explain", explain),
        Route("/api/record", record, methods=["POST"]),
        Route("/api/agent", agent),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        pool.start()  # in the background: the workers load the engines while the page is served
        await run_in_threadpool(installed_agents)
        yield
        pool.close()

    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.state.pool = pool
    return app
