"""``zerosum serve``: one page to play and analyse every game in the browser, and its small JSON API.

Routes (every answer is JSON except the page and its assets; errors are ``{"error": message}``):

* ``GET /`` -- the page (``?game=connect4&moves=4453`` opens that position); ``/static/*`` its assets.
* ``GET /api/health`` -- ``{"ok": true, "engines": 2, "engines_ready": 2, "ready": true, "preparing": null,
  "ready_wait": 300, "engine_requests": 0, ...}``: the engines load for about two seconds after the start (on
  the first run, when their code is compiled, a minute or two) and after one is replaced; ``ready`` says
  whether one is warm, and while none is, ``preparing`` says what they are doing ("preparing the engine (the
  solver), first run only: 12 s").  A request meanwhile waits for the first warm engine, up to ``ready_wait``
  seconds (:mod:`zerosum.ui.engines`); ``engine_requests``: the engine requests running or waiting now.
* ``GET /api/state?game=SPEC&moves=M`` -- the board, whose turn, the legal moves, the outcome.  ``&move=X``: the
  position after the move X from there, as a person types it; a move that is not legal there is a 400 with the
  game's own reason (``column 4 is full``, ``column 9 is outside 1..7``), which the page shows for a refused move.
* ``GET /api/analyze?game=SPEC&moves=M`` -- every legal move's score (solver, else alpha-beta).
  ``&budget=S`` (0.05 s up to the engine time): S more seconds of a progressive analysis where the solver
  plays -- each column's win/draw/loss, then its exact score, as proven so far (``done``, ``classes``); the
  page asks again until ``done``, with ``&resume=`` the last answer's ``resume`` (where it stopped: whichever
  worker answers goes on from there; sealed by this server, and one it did not seal -- forged, changed,
  another server's -- is a 400: :mod:`zerosum.ui.tokens`).  Never alpha-beta's figures where the solver plays
  (but for an early position past 64 bits, out of its reach: ``zerosum.analysis.REACH``; a ``note`` says so,
  with ``budget`` or without it).
* ``POST /api/move`` with ``{"game": SPEC, "moves": M, "agent": SPEC}`` -- the agent's move and what it found
  (``note``: who moved instead, when the agent could not -- the solver on a board beyond 128 bits or in an
  early position past 64 bits (8 x 8 before ply 24), or an engine past the hard limit), and ``state``: the
  position after it, as ``/api/state`` describes it (without the games list), so the page need not ask again.
  The move is the one engine job of the pool (:func:`zerosum.pool.choose_move`), whose report the arena's games
  make too.
* ``POST /api/record`` with ``{"text": RECORD}`` (at most :data:`MAX_RECORD` bytes; a file the page read:
  :func:`zerosum.ui.record_api.record_fields`) -- the games of a game
  record (:mod:`zerosum.records`): ``{"games": [{"tags", "moves", "result", "game", "line", "lines", "separator",
  "error", "marks", "variation_marks"}]}``, ``line`` the moves from the start (the opening's, then the game's)
  for the page's move list, ``lines`` every line of its tree of variations from the start, the main line first,
  as the page plants it; ``marks`` the main line's moves' PGN suffixes and comments (``{ply, mark, comment}``),
  ``variation_marks`` the variations' (``{line, ply, mark, comment}``, ``line`` indexing ``lines``), which the
  page shows and sends back to ``/api/export`` with the record's Annotator.  The record is
  read in an engine worker under an engine job's bounds (time, memory), each game's board checked from its
  tags before its moves are replayed; at most ``max_record_requests`` records are read at once (more: a 503
  at once).
* ``GET /api/review?game=SPEC&moves=M[&budget=S&resume=R]`` -- the review of a line (the study board's
  graph, bar and marks: :mod:`zerosum.ui.study`), S seconds of it (0.05 s up to the engine time; default 1):
  each move judged so far (``marks``: class, PGN suffix, verdict) and each position's value from the first
  player's view (``positions``), ``done``, and ``resume`` to ask for the next slice.
* ``GET /api/line?game=SPEC&moves=M[&first=MOVE]`` -- the best line from a position (at most 8 plies), in
  the game's notation, with its value in words; ``first``: the move it starts with (the analysis's best).
  ``POST /api/export`` with ``{"game", "moves", "variations", "marks", "annotator"}``: ``{"text": RECORD}``, the
  page's tree as a record, its other lines as variations (:func:`zerosum.ui.study.export_record`): each mark
  ``{line, ply, mark, comment}`` on move ``ply`` of line ``line`` (0 the main line, ``i`` ``variations[i - 1]``)
  -- the review's marks and verdicts on the main line, an opened record's on any line -- and ``annotator``
  the ``Annotator`` tag (the record's; without it, the page's review).
* ``GET /api/agent?game=SPEC&agent=SPEC`` -- whether the server plays that agent on that game:
  ``{"agent", "accepted", "error", "nearest"}``, ``nearest`` the spec nearest to a refused one that it does
  play (``alphabeta:depth=100`` -> ``alphabeta:depth=8``), or null.  The page checks its address with it.
* ``GET /api/explain?game=SPEC&moves=M&agent=SPEC`` -- why a search (alphabeta, minimax, mcts) plays what it
  plays: its traced search, each root move's score, kind and refutation, the line, the chosen move (at most
  :data:`zerosum.ui.explain.MAX_EXPLAIN_NODES` nodes, else a 400 asking for a smaller search); for the solver,
  whose search is not traced, its exact analysis in the same rows.  The traced search is bounded while it
  runs (its nodes, and the engine time) and runs in an engine worker under its hard time limit.

Every route is a function of this module under one error wrapper (:func:`answered`): bad specs, bad move
strings, finished positions, oversized requests and text no UTF-8 can hold (a lone surrogate, which JSON's
``"\\ud800"`` carries) get a 4xx with a one-line message; an engine that overruns its limit gets a 504, a
server whose engines are all busy (or out of memory) a 503.  The page allows less than the command line
(:func:`zerosum.ui.service.server_agents`, boards up to 16 x 16).  Requests are checked, and positions built,
in threads, never on the event loop; engines run in worker processes (:mod:`zerosum.ui.engines`), so a long
search is killed, never left running, and the engine work of a client that hangs up is dropped (stopped, when
it runs past a short grace).  A JSON POST must say so (``Content-Type: application/json``, else a 415), and a
request a page of another site makes is refused, 403 (:mod:`zerosum.ui.requests`).

Slow clients are timed out and open connections capped: see :mod:`zerosum.ui.connections`.
"""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import UsageError
from ..pool import EngineBusy, EngineMemory, EngineTimeout, Job, choose_move
from . import explain as why
from . import record_api, service, study
from .connections import serve_config
from .engines import MARGIN, MAX_ENGINE_REQUESTS, READY_WAIT, Engines
from .position import check_position, describe_state, solver_plays
from .record_api import MAX_RECORD, MAX_RECORD_REQUESTS
from .requests import TooLarge, answered, body_of, error, query, refuse_unencodable

__all__ = ["create_app", "serve_config", "answered", "body_of", "query", "error", "refuse_unencodable", "TooLarge",
           "STATIC", "MARGIN", "READY_WAIT"]

STATIC = Path(__file__).with_name("static")
MAX_BODY = 4096  # bytes of a POST body
MIN_BUDGET = 0.05  # seconds: the smallest slice of a progressive analysis (/api/analyze?budget=)
_MOVE_FIELDS = '{"game": SPEC, "moves": MOVES, "agent": SPEC}'


def engines_of(request: Request) -> Engines:
    return request.app.state.engines  # type: ignore[no-any-return]


@answered
async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


@answered
async def health(request: Request) -> Response:
    from ..core.version import __version__

    engines = engines_of(request)
    opponents = [{"spec": spec, "label": label, "elsewhere": elsewhere or None}
                 for spec, label, elsewhere in service.offered_opponents() if spec.split(":")[0] in engines.agents]
    return JSONResponse({"ok": True, "version": __version__, "agents": engines.agents, "opponents": opponents,
                         **engines.health()})


def _played(game: Any, actions: list[Any], position: Any, move: str) -> tuple[list[Any], Any]:
    """The actions and position after ``move`` (as a person types it) from ``position``: the game's own reason
    when it is not legal there (:meth:`~zerosum.game.Game.parse_action`, as the terminal and the CLI say it)."""
    action = game.parse_action(move, position)
    return [*actions, action], game.result(position, action)


@answered
async def state(request: Request) -> Response:
    game, actions, position = await run_in_threadpool(check_position, query(request, "game"),
                                                      query(request, "moves"))
    move_text = query(request, "move")
    if move_text is not None:
        actions, position = await run_in_threadpool(_played, game, actions, position, move_text)
    return JSONResponse(await run_in_threadpool(describe_state, game, actions, position))


@answered
async def analyze(request: Request) -> Response:
    engines = engines_of(request)
    # the position is built once, here; the worker gets it
    game, actions, position = await run_in_threadpool(check_position, query(request, "game"),
                                                      query(request, "moves"),
                                                      "the game is over: there is nothing to analyse")
    engine_time = engines.engine_time
    seconds = min(1.0, engine_time)
    budget_text = query(request, "budget")
    if budget_text is not None:  # a slice of a progressive analysis: what is proven so far
        budget = study.check_budget(budget_text, MIN_BUDGET, engine_time)
        from . import tokens

        # where the last slice stopped (any worker goes on from there): a resume this server sealed, else a 400
        resume = tokens.opened(game.spec, query(request, "resume"))
        reply = await engines.run(service.analyze_job, (game, actions, position, seconds, True, budget,
                                                        resume))
        return JSONResponse(tokens.sealed_reply(game.spec, reply))
    try:
        reply = await engines.run(service.analyze_job, (game, actions, position, seconds, True))
    except EngineTimeout:
        if not solver_plays(game):
            raise
        # the solver overran: alpha-beta's opinion instead
        reply = await engines.run(service.analyze_job, (game, actions, position, seconds, False))
        reply["note"] = f"the solver needed more than {engines.hard_limit:g} s here, so this is alpha-beta's view"
    return JSONResponse(reply)


@answered
async def review(request: Request) -> Response:
    engines = engines_of(request)
    game, actions, _ = await run_in_threadpool(check_position, query(request, "game"), query(request, "moves"))
    budget = study.check_budget(query(request, "budget"), MIN_BUDGET, engines.engine_time)
    resume = study.check_resume(query(request, "resume"), len(actions))
    solver_time = min(study.SOLVER_TIME, engines.engine_time / 2)  # a mark well inside the hard limit
    return JSONResponse(await engines.run(study.review_job, (game, actions, budget, resume, solver_time)))


@answered
async def best_line(request: Request) -> Response:
    engines = engines_of(request)
    game, actions, position = await run_in_threadpool(check_position, query(request, "game"), query(request, "moves"),
                                                      "the game is over: there is no line to show")
    first_text = query(request, "first")  # the move the page's analysis found best: the line starts with it
    first = None if first_text is None else await run_in_threadpool(game.parse_action, first_text, position)
    return JSONResponse(await engines.run(study.line_job, (game, actions, position, min(1.0, engines.engine_time),
                                                           first)))


@answered
async def export(request: Request) -> Response:
    data = await body_of(request, MAX_RECORD, '{"game": SPEC, "moves": M, "variations": [M, ...], "marks": [...]}')
    return JSONResponse({"text": await run_in_threadpool(study.export_record, data)})


def _move_fields(data: dict[str, Any]) -> int | None:
    """The checked seed of a move request's fields (raises GameError for an unknown or mistyped field)."""
    unknown = sorted(set(data) - {"game", "moves", "agent", "seed"})
    if unknown:
        raise UsageError(f"unknown field(s) {', '.join(map(repr, unknown))}: expected game, moves, agent, seed")
    for key in ("game", "moves", "agent"):
        if key in data and data[key] is not None and not isinstance(data[key], str):
            raise UsageError(f"{key} must be a string, not {type(data[key]).__name__}")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32):
        raise UsageError("seed must be a whole number 0..2**32-1")
    return seed


@answered
async def move(request: Request) -> Response:
    engines = engines_of(request)
    data = await body_of(request, MAX_BODY, _MOVE_FIELDS)
    seed = _move_fields(data)
    # the position is built and the agent spec parsed once, here; the job carries them to the worker
    checked = await run_in_threadpool(service.check_move, data.get("game"), data.get("moves"), data.get("agent"),
                                      seed, engines.engine_time)
    note = checked.note
    try:
        report = await engines.run(choose_move, (Job.of(checked.game, checked.actions, checked.state, checked.agent),))
    except EngineTimeout:
        # the agent overran the hard limit (the solver proving a hard position, a deep search on a big
        # board): a search that keeps its clock moves instead (service.stand_in: alpha-beta) and says so, so
        # every board plays against every opponent
        instead = await run_in_threadpool(service.checked_agent, checked.game,
                                          service.stand_in(min(1.0, engines.engine_time)), engines.engine_time,
                                          seed)
        report = await engines.run(choose_move, (Job.of(checked.game, checked.actions, checked.state, instead),))
        note = f"the {checked.agent.name} needed more than {engines.hard_limit:g} s here, so {instead.spec} moved instead"
    return JSONResponse(await run_in_threadpool(service.move_reply, checked, report, note))


@answered
async def explain(request: Request) -> Response:
    engines = engines_of(request)
    checked = await run_in_threadpool(why.check_explain, query(request, "game"), query(request, "moves"),
                                      query(request, "agent"), engines.engine_time)
    # the trace is bounded while it runs: its nodes, and the engine time (inside the worker's hard limit)
    job = functools.partial(why.explain_job, max_nodes=why.MAX_EXPLAIN_NODES, max_time=engines.engine_time)
    return JSONResponse(await engines.run(job, (checked,)))


@answered
async def agent(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(service.agent_choice, query(request, "game"),
                                                query(request, "agent"), engines_of(request).engine_time))


@answered
async def record(request: Request) -> Response:
    engines = engines_of(request)
    data = await body_of(request, MAX_RECORD, '{"text": RECORD}')
    text, name = record_api.record_fields(data)  # a file's bytes that are no text: its one line, as replay's
    if engines.reading >= engines.max_record_requests:  # refused at once: records never queue up
        raise EngineBusy(f"{engines.reading} records are being read already, the most at once here; try again in "
                         "a moment")
    engines.reading += 1
    try:  # read in a worker: the replay's time and memory are bounded, as an engine's are
        answer = await engines.run(record_api.record_job, (text, name))
    except EngineTimeout:
        raise EngineTimeout(f"the record took more than {engines.hard_limit:g} s to read: send fewer or shorter "
                            "games") from None
    except EngineMemory:
        raise TooLarge("the record needs more memory than the server gives a reader: send fewer or shorter "
                       "games") from None
    finally:
        engines.reading -= 1
    return Response(answer, media_type="application/json")  # JSON made in the worker


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error(exc.status_code, exc.detail or "error")


async def server_error(request: Request, exc: Exception) -> Response:
    return error(500, f"internal error: {type(exc).__name__}")


ROUTES = [
    Route("/", page),
    Route("/api/health", health),
    Route("/api/state", state),
    Route("/api/analyze", analyze),
    Route("/api/move", move, methods=["POST"]),
    Route("/api/explain", explain),
    Route("/api/record", record, methods=["POST"]),
    Route("/api/agent", agent),
    Route("/api/review", review),
    Route("/api/line", best_line),
    Route("/api/export", export, methods=["POST"]),
    Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
]


def _installed_agents(engines: Engines) -> None:
    from ..agents.registry import agent_names

    engines.agents[:] = [n for n in agent_names() if n in service.server_agents()]


def create_app(
    *,
    engine_time: float = 5.0,
    workers: int = 2,
    mode: str = "process",
    busy_wait: float = 10.0,
    margin: float = MARGIN,
    max_engine_requests: int = MAX_ENGINE_REQUESTS,
    max_record_requests: int = MAX_RECORD_REQUESTS,
    ready_wait: float = READY_WAIT,
) -> Any:
    """The Starlette application.  ``engine_time`` caps every engine call (seconds); ``workers`` engine
    processes answer at once; ``mode="inline"`` runs engines in the server's threads (tests, no kill);
    ``busy_wait``: how long a request waits for a worker when all are busy (then a 503), ``ready_wait`` while
    none is warm yet; ``max_record_requests`` records are read at once."""
    engines = Engines(engine_time=engine_time, workers=workers, mode=mode, busy_wait=busy_wait, margin=margin,
                      max_engine_requests=max_engine_requests, max_record_requests=max_record_requests,
                      ready_wait=ready_wait)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        engines.start()  # in the background: the workers load the engines while the page is served
        await run_in_threadpool(_installed_agents, engines)
        yield
        engines.close()

    app = Starlette(routes=ROUTES, exception_handlers={HTTPException: http_error, Exception: server_error},
                    lifespan=lifespan)
    app.state.engines = engines
    app.state.pool = engines.pool
    return app
