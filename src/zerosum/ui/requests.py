"""How the page's server (:mod:`zerosum.ui.server`) and the contest's read a request and answer an error.

* :func:`answered` -- the one error wrapper of every route: each refusal is ``{"error": "one line"}`` with its
  status, never a traceback.  It also refuses, 403, a request another site's page makes (below), and notes the
  request being answered (:data:`CURRENT`) for :meth:`zerosum.ui.engines.Engines.run`, which drops the engine
  work of a client that has gone.
* :func:`body_of` -- a JSON POST body: ``Content-Type: application/json`` or a 415, at most so many bytes or a
  413.  A web page can send another site a "simple" request (a form's, or ``fetch`` with ``text/plain``)
  without asking first; one with ``Content-Type: application/json`` needs the site's consent (a CORS
  preflight, which these servers never give), so no other site's page can start an engine this way.
* :func:`query` -- a query value, given at most once.

**Other sites' pages.** A browser says, in ``Sec-Fetch-Site``, whether the page that makes a request is of the
server's own origin (``same-origin``), typed or bookmarked (``none``), or of another origin (``same-site``: the
same host on another port, say; ``cross-site``).  A request from another origin's page that is not the opening
of a page (``Sec-Fetch-Mode: navigate`` to a path outside ``/api/``: a link followed) is refused, 403: an
``<img>``, an iframe, a form or a script of another site cannot make these servers work.  The browser's own
header is used, not ``Origin`` against ``Host``, which a proxy in front of the server may rewrite; clients that
are not browsers (curl) send no such header and are served.
"""

from __future__ import annotations

import contextvars
import functools
import json
from typing import Any, Awaitable, Callable

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ..core.files import describe_exception
from ..errors import GameError, UsageError
from ..pool import EngineBusy, EngineFailed, EngineTimeout

__all__ = ["answered", "body_of", "query", "error", "refuse_unencodable", "cross_site", "TooLarge", "ClientGone",
           "Unsupported", "CURRENT"]

#: the request a route is answering (set by :func:`answered`; None outside one)
CURRENT: contextvars.ContextVar[Request | None] = contextvars.ContextVar("zerosum_request", default=None)
#: the ``Sec-Fetch-Site`` values of a request made by a page of another origin
_OTHER_ORIGIN = frozenset({"cross-site", "same-site"})


class TooLarge(Exception):
    """A request body past its limit (answered 413)."""


class Unsupported(Exception):
    """A request body of another type than the route reads (answered 415)."""


class ClientGone(Exception):
    """The client closed its connection before its answer was ready: its engine work was dropped (the answer,
    a 400, reaches nobody)."""


def refuse_unencodable(data: Any, what: str) -> None:
    """Refuse text that no UTF-8 can hold (a lone surrogate) anywhere in ``data``, a request's JSON or one of
    its query values: a GameError naming the field, as for any other bad input."""
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


def error(status: int, message: str) -> JSONResponse:
    """``{"error": message}``: one line, and text UTF-8 can hold whatever the message quotes."""
    line = " ".join(message.splitlines()).encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": line}, status_code=status)


def cross_site(request: Request) -> str | None:
    """Why the request is refused as another site's (module docstring), or None."""
    site = request.headers.get("sec-fetch-site", "").strip().lower()
    if site not in _OTHER_ORIGIN:
        return None
    if request.headers.get("sec-fetch-mode", "").strip().lower() == "navigate" and \
            not request.url.path.startswith("/api/"):  # a link to a page; never an iframe or a form on the API
        return None
    return (f"refused: a page of another site made this request (Sec-Fetch-Site: {site}); use this server's own "
            "page")


def answered(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """The one error wrapper of every route: each refusal a JSON error (never a traceback, never a reset)."""

    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        refused = cross_site(request)
        if refused is not None:
            return error(403, refused)
        token = CURRENT.set(request)
        try:
            return await handler(request)
        except TooLarge as exc:
            return error(413, str(exc))
        except Unsupported as exc:
            return error(415, str(exc))
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
        except ClientGone:
            return error(400, "the client went away before its answer was ready")
        except Exception as exc:  # a bug of ours: a JSON 500 that keeps the connection usable
            return error(500, f"internal error: {describe_exception(exc)}")
        finally:
            CURRENT.reset(token)

    return route


def query(request: Request, name: str) -> str | None:
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise GameError(f"{name} is given {len(values)} times")
    refuse_unencodable(values, name)
    return values[0] if values else None


def json_type(request: Request) -> None:
    """Refuse (415) a body whose ``Content-Type`` is not ``application/json`` (parameters such as a charset
    aside)."""
    given = request.headers.get("content-type", "")
    if given.partition(";")[0].strip().lower() != "application/json":
        shown = f"not {given.strip()[:60]!r}" if given.strip() else "none was given"
        raise Unsupported(f"send the body as JSON with Content-Type: application/json ({shown})")


async def body_of(request: Request, limit: int, shape: str) -> Any:
    """The request's JSON object, read no further than ``limit`` bytes (else a 413, as a GameError is a 400:
    raised as ``TooLarge``); a body that is not declared JSON is a 415 (``Unsupported``)."""
    length = request.headers.get("content-length", "0")
    if length.isascii() and length.isdigit() and int(length) > limit:
        raise TooLarge(f"the request body is larger than {limit} bytes")
    json_type(request)
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
