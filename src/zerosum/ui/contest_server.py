"""``zerosum contest serve DIR``: the contest's pages and JSON API (docs/contest.md).

Pages (HTML with its script under ``/static/contest/``; every name and message is put in the page as text,
never as HTML, and the pages' Content-Security-Policy allows no inline script):

* ``/s/TOKEN`` (or ``/?token=TOKEN``) -- a student's page (upload form, their submissions and games, the
  leaderboard, polled) or, for the teacher's token, the teacher's page; an unknown token: 403;
* ``/`` -- the public leaderboard;
* ``/board?game=SPEC&moves=M`` -- the board viewer of ``zerosum serve`` (its API too), where games replay; its
  engine routes (analysis...) bounded: short calls, at most so many seconds a minute a client address and in
  all, else 429 (:mod:`zerosum.ui.contest_quota`).

API (JSON; errors ``{"error": "one line"}``, 405 for another method than a path's; ``Authorization: Bearer
TOKEN`` where a person is needed: 401 without one, or with one nobody holds, replaced or revoked, said so):

* ``POST /api/submit`` (multipart field ``file``; a student's token) -- the upload (:mod:`zerosum.contest.submissions`)
  checked, saved and validated (:mod:`zerosum.contest.validate`; once ``ok`` it is the student's active one): the
  answer waits for the validation (``?wait=0``: at once, status ``validating``): ``{"id", "filename", "kind",
  "status", "message", "ply"}``.  Refused: 401 without a known token, 403 for the teacher, 413 past
  :data:`~zerosum.contest.submissions.MAX_UPLOAD` bytes, 429 past :data:`RATE` uploads a minute a token, 400
  after the deadline (stated) or for a file that is not a submission, 507 when the server's disk is full (503
  when it cannot save for another reason; nothing of the upload is kept).
* ``GET /api/me`` -- ``{"name", "role", "game", "deadline", "frozen", "closed", "contracts", "submissions": [...],
  "games": [...]}``: the holder's own submissions (history, newest first) and the games they played, with replay
  links; ``contracts``: the functions a Python file may play by on the contest's game (:meth:`Contest.contracts`).
* ``GET /api/leaderboard`` -- the public standing: ``{"game", "deadline", "frozen", "rows"}`` (rows of
  :func:`zerosum.contest.standings.leaderboard` without forfeit reasons, which quote programs' output).
* ``GET /api/code/ID`` -- a submission's code: its author's or the teacher's token, else 404 (ID: ASCII digits;
  ``no submission 7``, to a student ``no submission 7 of yours``);
  410 once its files were removed to keep its author within :data:`~zerosum.contest.submissions.STUDENT_BYTES`.
* ``GET /api/teacher`` -- everything (teacher only, else 403): config, people, every submission, games,
  the leaderboard with forfeit reasons.  ``POST /api/freeze`` (teacher): no more uploads; then run
  ``zerosum contest final DIR``.

At start: the sandbox is required (unless ``unconfined``), submissions left ``validating`` by a killed server
are validated again, and the ladder (:mod:`zerosum.contest.ladder`) starts in background threads.

At Ctrl-C (or SIGTERM) ``zerosum contest serve`` stops as ``zerosum serve`` does
(:func:`zerosum.ui.connections.stopping_server`): ``app.state.stop_requests`` answers every upload waiting for its
validation, and every engine request of the board viewer, ``503 {"error": "the server is stopping"}`` at once
(the upload is kept, ``validating``: it is validated again at the next start).
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import functools
import threading
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Match, Mount, Route
from starlette.staticfiles import StaticFiles

from ..contest.store import Store
from ..contest.submissions import MAX_UPLOAD, STUDENT_BYTES, Unsaved, accept
from ..contest.validate import VALIDATORS
from ..errors import UsageError
from ..pool import EngineBusy
from . import contest_quota as quota, contest_views as views, server
from .connections import STOPPING
from .contest_validations import Validations
from .server import STATIC, TooLarge, answered

__all__ = ["create_contest_app", "RATE", "VALIDATION_WAIT", "MAX_REQUEST"]

#: uploads a token may make in a minute (refused ones count too)
RATE = 6
#: seconds ``POST /api/submit`` waits for the validation before answering ``validating``
VALIDATION_WAIT = 30.0
#: the largest upload request: the file and its multipart framing
MAX_REQUEST = MAX_UPLOAD + 16 * 1024
PAGES = STATIC / "contest"
#: the contest pages' headers: no inline script, no framing, no token in a Referer
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class Denied(UsageError):
    """A refusal with its HTTP status (401, 403, 404, 429): answered as any GameError (a JSON line), its status
    set by :func:`guarded` from ``request.state.denied``."""


def deny(request: Request, status: int, message: str) -> Denied:
    """The refusal to raise, its status noted on the request."""
    request.state.denied = status
    return Denied(message)


def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """The server's error wrapper (:func:`zerosum.ui.server.answered`), a refusal's status and the headers."""
    wrapped = answered(handler)

    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        response = await wrapped(request)
        status = getattr(request.state, "denied", None)
        if status is not None and response.status_code == 400:
            response.status_code = status
        response.headers.update(SECURITY)
        return response

    return route


def contest(request: Request) -> "Contest":
    return request.app.state.contest  # type: ignore[no-any-return]


class Contest:
    """The served contest: its store, the validations' threads, the upload counts."""

    def __init__(self, directory: Path | Store, unconfined: bool, workers: int) -> None:
        self.store = directory if isinstance(directory, Store) else Store(directory)  # the caller's, when given
        self.unconfined = unconfined
        self.validations = Validations(workers)  # daemon threads: a stopping server does not wait for them
        self.uploads: dict[str, collections.deque[float]] = collections.defaultdict(collections.deque)
        self.lock = threading.Lock()
        self._contracts: list[str] | None = None

    def person(self, request: Request) -> tuple[str, str]:
        """``(name, role)`` of the request's bearer token; 401 without one, or with one nobody holds (mistyped,
        or replaced or revoked by ``zerosum contest token``: the person needs the new link)."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise deny(request, 401, "send your token: Authorization: Bearer TOKEN (the one of your personal link)")
        found = self.store.person(token.strip())
        if found is None:
            raise deny(request, 401, "the contest knows no such token (mistyped, or replaced by a new one, or "
                       "revoked): ask your teacher for your current link")
        return found

    def contracts(self) -> list[str]:
        """The functions a submitted Python file may play by on the contest's game: the homework's ``player(board)``
        where its adapter takes the game (Connect-X boards: :class:`~zerosum.agents.homework.BoardPlayer`), and
        ``f(game, state)`` on every game (a notebook's cell likewise; a program speaks the protocol)."""
        if self._contracts is None:
            from ..agents.homework import BoardPlayer
            from ..errors import GameError
            from ..games import get_game

            contracts = ["player(board)", "f(game, state)"]
            try:
                BoardPlayer(lambda board: 0, "player(board)").check_game(get_game(str(self.store.config()["game"])))
            except GameError:  # not a Connect-X board
                contracts.remove("player(board)")
            self._contracts = contracts
        return self._contracts

    def count_upload(self, request: Request, name: str) -> None:
        """429 past :data:`RATE` uploads in the last minute."""
        now = time.monotonic()
        with self.lock:
            times = self.uploads[name]
            while times and now - times[0] > 60:
                times.popleft()
            if len(times) >= RATE:
                raise deny(request, 429, f"at most {RATE} uploads a minute: wait {60 - (now - times[0]):.0f} s")
            times.append(now)

    def validate(self, submission: int, whole: bool = False) -> concurrent.futures.Future[Any]:
        """Check ``submission`` in the background; ``whole``: with the whole budget, not what is left of it since
        the upload (an upload a stopped server left ``validating``, checked again at the next start)."""
        from ..contest.validate import validate_submission

        return self.validations.submit(validate_submission, self.store, submission, unconfined=self.unconfined,
                                       whole=whole, stopping=lambda: self.validations.stopping)


#: the pages: their title; each is page.html around NAME.body.html, with NAME.js
TITLES = {"public": "leaderboard", "student": "your page", "teacher": "the teacher's page"}


@functools.lru_cache(maxsize=None)
def _html(name: str) -> str:
    template = (PAGES / "page.html").read_text(encoding="utf-8")
    body = (PAGES / f"{name}.body.html").read_text(encoding="utf-8")
    return template.replace("{title}", TITLES[name]).replace("{page}", name).replace("{body}", body)


@guarded
async def page(request: Request) -> Response:
    token = request.path_params.get("token") or request.query_params.get("token")
    if not token:
        return HTMLResponse(_html("public"))
    found = await run_in_threadpool(contest(request).store.person, token)
    if found is None:
        return HTMLResponse("<!doctype html><title>unknown link</title><p>This link is not one of the contest's: "
                            "ask your teacher for yours.</p>", 403)
    return HTMLResponse(_html("teacher" if found[1] == "teacher" else "student"))


@guarded
async def board(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")


async def _upload(request: Request) -> tuple[str, bytes]:
    """The multipart field ``file`` of the request, read no further than :data:`MAX_REQUEST` bytes."""
    length = request.headers.get("content-length", "")
    too_large = f"the upload is larger than {MAX_UPLOAD:,} bytes"
    if length.isascii() and length.isdigit() and int(length) > MAX_REQUEST:
        raise TooLarge(too_large)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_REQUEST:
            raise TooLarge(too_large)
    data = bytes(body)

    async def replay() -> dict[str, Any]:
        return {"type": "http.request", "body": data, "more_body": False}

    try:
        form = await Request(request.scope, replay).form(max_files=1, max_fields=8)
    except (HTTPException, ValueError, AssertionError) as exc:
        why = getattr(exc, "detail", exc)
        raise UsageError(f"send the file as multipart/form-data, field 'file' ({why})") from None
    upload = form.get("file")
    if not isinstance(upload, UploadFile):
        raise UsageError("send the file as multipart/form-data in the field 'file' (curl -F file=@player.py)")
    content = await upload.read()
    if len(content) > MAX_UPLOAD:
        raise TooLarge(too_large)
    return upload.filename or "upload", content


@guarded
async def submit(request: Request) -> Response:
    served = contest(request)
    if served.validations.stopping:
        raise EngineBusy(STOPPING)
    name, role = await run_in_threadpool(served.person, request)
    if role != "student":
        raise deny(request, 403, "the teacher has no entry: submit with a student's token")
    served.count_upload(request, name)
    filename, content = await _upload(request)
    try:
        submission = await run_in_threadpool(accept, served.store, name, filename, content)
    except Unsaved as exc:  # the server's disk, not the upload: 507 (full) or 503, nothing kept
        raise deny(request, 507 if exc.full else 503, str(exc)) from None
    future = served.validate(submission)
    if request.query_params.get("wait", "1") != "0":
        await served.validations.wait_for(future, VALIDATION_WAIT)
    row = await run_in_threadpool(served.store.submission, submission)
    assert row is not None
    return JSONResponse(views.submission(row), status_code=201)


@guarded
async def me(request: Request) -> Response:
    served = contest(request)
    name, role = await run_in_threadpool(served.person, request)
    about = await run_in_threadpool(views.me, served.store, name, role)
    return JSONResponse(about | {"contracts": await run_in_threadpool(served.contracts)})


@guarded
async def leaderboard(request: Request) -> Response:
    store = contest(request).store
    config = await run_in_threadpool(store.config)
    rows = await run_in_threadpool(views.leaderboard, store, False)
    return JSONResponse({"game": config.get("game"), "deadline": config.get("deadline"),
                         "frozen": bool(config.get("frozen")), "rows": rows})


@guarded
async def code(request: Request) -> Response:
    served = contest(request)
    name, role = await run_in_threadpool(served.person, request)
    text = request.path_params["id"]
    number = text.isascii() and text.isdigit() and len(text) < 12  # ASCII digits only: not '١' (Arabic-Indic 1)
    row = await run_in_threadpool(served.store.submission, int(text)) if number else None
    if row is None or (role != "teacher" and row["name"] != name):  # the teacher has no submissions of their own
        shown = text if number else repr(text[:20])
        raise deny(request, 404, f"no submission {shown}" + ("" if role == "teacher" else " of yours"))
    try:
        data = await run_in_threadpool((served.store.directory / row["path"]).read_bytes)
    except FileNotFoundError:  # removed to keep its author within the contest's storage (submissions.prune)
        raise deny(request, 410, f"the code of submission {row['id']} ({row['filename']}) is no longer kept: a "
                   f"student's files are kept up to {STUDENT_BYTES // 2**20} MB, the oldest replaced ones removed "
                   "first") from None
    try:
        shown = data.decode("utf-8")
    except UnicodeDecodeError:
        shown = f"(a binary program of {len(data):,} bytes)"
    return JSONResponse({"id": row["id"], "name": row["name"], "filename": row["filename"], "kind": row["kind"],
                         "code": shown})


async def _teacher_only(request: Request) -> Contest:
    served = contest(request)
    _, role = await run_in_threadpool(served.person, request)
    if role != "teacher":
        raise deny(request, 403, "this is the teacher's: your token is a student's")
    return served


@guarded
async def teacher(request: Request) -> Response:
    served = await _teacher_only(request)
    return JSONResponse(await run_in_threadpool(views.teacher, served.store))


@guarded
async def freeze(request: Request) -> Response:
    served = await _teacher_only(request)
    await run_in_threadpool(functools.partial(served.store.set_config, frozen=True))
    return JSONResponse({"frozen": True, "next": f"zerosum contest final {served.store.directory}"})


ROUTES = [
    Route("/", page), Route("/s/{token}", page), Route("/board", board),
    Route("/api/submit", submit, methods=["POST"]), Route("/api/me", me), Route("/api/leaderboard", leaderboard),
    Route("/api/code/{id}", code), Route("/api/teacher", teacher), Route("/api/freeze", freeze, methods=["POST"]),
]


class BoardMount(Mount):
    """The board viewer (``zerosum serve``'s app) under every path the contest's own routes do not take: a
    contest path asked with another method answers 405 (the router's partial match), not the viewer's 404."""

    def matches(self, scope: Any) -> tuple[Match, Any]:
        if any(route.matches(scope)[0] != Match.NONE for route in ROUTES):
            return Match.NONE, {}
        return super().matches(scope)


def create_contest_app(directory: str | Path | Store, *, unconfined: bool = False, ladder: bool = True,
                       viewer: bool = True, validators: int = VALIDATORS, **pool: Any) -> Any:
    """The contest's Starlette application for the contest folder ``directory`` (or its open Store: one a process).
    SandboxUnavailable (one line) when no sandbox can be had and not ``unconfined``; ``ladder``: play the
    ladder in this process (``pool``: its ``backend``, ``jobs``, ``address``); ``viewer``: serve the board
    viewer (``/board``, its engine worker); ``validators``: validations at once."""
    from ..contest.sandbox import require_sandbox

    require_sandbox(unconfined)
    served = Contest(directory if isinstance(directory, Store) else Path(directory), unconfined, validators)
    # the viewer's engine work is bounded: short calls, a quota a client and in all (:mod:`.contest_quota`)
    board_app = server.create_app(workers=1, engine_time=quota.ENGINE_TIME, margin=quota.ENGINE_MARGIN) \
        if viewer else None

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        running = None
        if ladder:  # first: the contest's lock (another server holding it is refused before anything changes)
            from ..contest import ladder as ladders

            running = ladders.Ladder(served.store, served.store.directory, unconfined=unconfined, **pool).start()
        for row in await run_in_threadpool(served.store.rows, "SELECT id FROM submissions WHERE status = 'validating'"):
            # left by a server that was killed: validated again with the whole budget (counted from the upload,
            # long ago, it had 2 s: a player of 1.5 s a move had no move checked)
            served.validate(int(row["id"]), whole=True)
        try:
            if board_app is not None:
                async with board_app.router.lifespan_context(board_app):
                    yield
            else:
                yield
        finally:
            if running is not None:
                await run_in_threadpool(running.stop)
            served.validations.shutdown(wait=False, cancel_futures=True)

    routes: list[Any] = list(ROUTES)
    routes.append(Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"))
    if board_app is not None:
        routes.append(BoardMount("", app=quota.EngineQuota(board_app)))
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: server.http_error, Exception: server.server_error})
    app.state.contest = served

    def stop_requests() -> None:  # Ctrl-C: what waits answers 503 at once (module docstring)
        served.validations.stop()
        if board_app is not None:
            board_app.state.engines.stop()

    app.state.stop_requests = stop_requests
    return app
