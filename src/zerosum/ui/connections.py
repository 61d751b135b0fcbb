"""How ``zerosum serve`` treats connections: deadlines for slow clients, a cap on how many are open, and Ctrl-C.

uvicorn's own keep-alive timeout only runs *between* requests (and restarts at every byte received), so a
client that sends its headers one byte at a time, or never finishes them, would hold its connection for
ever.  :func:`serve_config` gives uvicorn an h11 protocol that adds:

* a deadline of :data:`HEADER_TIMEOUT` seconds for a request's line and headers (from the connection, or
  from the first byte of the next request on a kept-alive one), and :data:`BODY_TIMEOUT` more for its body;
  past either the connection is closed, after a 408 answer when a body was late and nothing was answered yet;
* a malformed request (a garbage request line, a bad ``Content-Length``, headers past the cap) is answered
  ``400 {"error": ...}`` like every other error of the servers, not uvicorn's plain text;
* at most :data:`MAX_CONNECTIONS` open connections: a new one past the cap closes the oldest connection
  that is not being answered -- waiting for headers, idle between requests, or still sending its body (a
  body uploaded slowly is no more protected than slow headers; it is answered ``408 {"error": ...}`` first)
  -- so slow clients cannot lock out quick ones; only a request wholly received, which the app is working
  on, keeps its connection; when every connection has one, the new connection is closed instead;
* :data:`KEEP_ALIVE` seconds for an idle kept-alive connection, and :data:`MAX_HEADER_BYTES` of headers.

At Ctrl-C (or SIGTERM) :func:`stopping_server` stops promptly and quietly rather than waiting out uvicorn's
graceful shutdown and then cancelling requests with a traceback each: it tells the app's requests to stop
(``zerosum serve``: the engine requests waiting for an answer, :meth:`zerosum.ui.engines.Engines.stop`), which
answer ``503 {"error": "the server is stopping"}``; a request still sending its body gets that answer from
the protocol; a connection still open :data:`STOP_GRACE` seconds later (a client not reading its answer) is
cut.  The server's ``stopped`` attribute says how many requests were in progress, for the one line
``zerosum serve`` prints after "interrupted: ".  SIGTERM (``kill``, systemd, ``docker stop``) goes the same way
as Ctrl-C, every ``finally`` and that line included, and the process then ends as killed by SIGTERM
(:func:`serve_until_stopped`).
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["serve_config", "stopping_server", "serve_until_stopped", "Terminated", "listening_socket", "http_address",
           "stopped_words", "HEADER_TIMEOUT", "BODY_TIMEOUT", "KEEP_ALIVE", "MAX_CONNECTIONS", "MAX_HEADER_BYTES",
           "STOPPING", "STOP_GRACE"]

HEADER_TIMEOUT = 10.0  # seconds for a request's line and headers to arrive
BODY_TIMEOUT = 10.0  # seconds for its body to arrive, once the headers are in
KEEP_ALIVE = 5  # seconds an idle kept-alive connection stays open
MAX_CONNECTIONS = 256  # connections open at once
MAX_HEADER_BYTES = 16384  # bytes of a request line and headers
STOPPING = "the server is stopping"  # the error of a request cut short by Ctrl-C (a 503)
STOP_GRACE = 2  # seconds a connection may take to be answered and closed once the server stops


def guarded_protocol(header_timeout: float, body_timeout: float, max_connections: int) -> type:
    """uvicorn's h11 protocol with the deadlines and the cap of the module docstring (one class a server)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    # connections the app is not working on (waiting for headers, idle, or sending a body), oldest first
    evictable: dict[Any, None] = {}

    class GuardedH11Protocol(H11Protocol):
        _deadline: Any = None
        _phase = ""

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                if not evictable:
                    transport.close()  # every connection has a request the app is working on: refuse this one
                    return
                oldest = next(iter(evictable))
                evictable.pop(oldest)
                self.connections.discard(oldest)  # gone now, not once its close is processed (a burst of new ones)
                oldest._cut(408, "Request Timeout", "the request was not complete when the server needed its "
                                                    f"connection for another (at most {max_connections} open)")
            evictable[self] = None
            self._arm("headers", header_timeout)

        def _arm(self, phase: str, seconds: float) -> None:
            self._disarm()
            self._phase = phase
            self._deadline = self.loop.call_later(seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline, self._phase = None, ""

        def _expire(self) -> None:
            self._deadline = None
            self._cut(408, "Request Timeout", f"the request's body did not arrive within {body_timeout:g} s")

        def _cut(self, status: int, reason: str, error: str) -> None:
            """Close the connection; first answer ``{"error": error}`` when its body was arriving and the app
            has not answered (the app's own answer, if it comes, is dropped)."""
            if self.transport.is_closing():
                return
            cycle = getattr(self, "cycle", None)
            if self._phase == "body" and cycle is not None and not cycle.response_started:
                cycle.disconnected = True
                self.transport.write(json_answer(status, reason, error))
            self._disarm()
            self.transport.close()

        def shutdown(self) -> None:  # the server stops: a body still arriving is answered 503 at once
            cycle = getattr(self, "cycle", None)
            if self._phase == "body" and cycle is not None and not cycle.response_started:
                self._cut(503, "Service Unavailable", STOPPING)
            else:
                super().shutdown()  # idle: closed; the app answering: closed once it has answered

        def send_400_response(self, msg: str) -> None:
            self.transport.write(json_answer(400, "Bad Request", "malformed HTTP request"))
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE:
                self._arm("headers", header_timeout)  # the next request on a kept-alive connection
            super().data_received(data)
            state = self.conn.their_state
            if state is h11.SEND_BODY and self._phase != "body":
                self._arm("body", body_timeout)  # still evictable: a slow body is no better than slow headers
            elif state is not h11.IDLE and state is not h11.SEND_BODY:
                evictable.pop(self, None)
                self._disarm()  # the whole request is in: the app may take its time

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                evictable[self] = None  # between requests: may give way to a new connection

        def connection_lost(self, exc: Exception | None) -> None:
            evictable.pop(self, None)
            self._disarm()
            super().connection_lost(exc)

    return GuardedH11Protocol


def json_answer(status: int, reason: str, error: str) -> bytes:
    """A whole HTTP/1.1 answer ``{"error": error}`` that closes its connection (written past the app)."""
    import json

    body = json.dumps({"error": error}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n")
    return head.encode("ascii") + body


def serve_config(app: Any, host: str = "127.0.0.1", port: int = 8000, *, header_timeout: float = HEADER_TIMEOUT,
                 body_timeout: float = BODY_TIMEOUT, keep_alive: int = KEEP_ALIVE,
                 max_connections: int = MAX_CONNECTIONS) -> Any:
    """The uvicorn configuration of ``zerosum serve`` (the deadlines and cap of the module docstring)."""
    import uvicorn

    return uvicorn.Config(
        app, host=host, port=port, log_level="warning",
        http=guarded_protocol(header_timeout, body_timeout, max_connections),
        timeout_keep_alive=keep_alive,
        # the cap above acts first; this bounds requests in progress (uvicorn answers 503 past it), with room for
        # the requests of connections just closed to make way for new ones, which end a moment later
        limit_concurrency=2 * max_connections,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        timeout_graceful_shutdown=STOP_GRACE + 1,  # then uvicorn cancels requests; stopping_server ends them first
    )


def stopping_server(config: Any, stop_requests: Callable[[], object] | None = None) -> Any:
    """A uvicorn server for ``config`` that stops as the module docstring says: ``stop_requests()`` is called on
    the event loop as it starts to stop (the app's requests in progress are to answer at once); its ``stopped``
    attribute is then how many requests were in progress."""
    import asyncio

    import uvicorn

    class StoppingServer(uvicorn.Server):
        stopped = 0

        async def shutdown(self, sockets: Any = None) -> None:
            self.stopped = len(self.server_state.tasks)
            if stop_requests is not None:
                stop_requests()
            # a connection not closed by then (a client not reading its answer) is cut: its request ends at once
            # rather than being cancelled, with a traceback, past uvicorn's graceful shutdown
            cut = asyncio.get_running_loop().call_later(STOP_GRACE, self._cut_connections)
            try:
                await super().shutdown(sockets)
            finally:
                cut.cancel()

        def _cut_connections(self) -> None:
            for connection in list(self.server_state.connections):
                transport = getattr(connection, "transport", None)
                if transport is not None:
                    transport.abort()

    return StoppingServer(config)


class Terminated(KeyboardInterrupt):
    """SIGTERM stopped the server: raised as Ctrl-C's KeyboardInterrupt is, so that every ``finally`` runs and
    the command line prints its one line after "interrupted: " (:func:`serve_until_stopped`)."""


def _terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def serve_until_stopped(config: Any, stop_requests: Callable[[], object], sock: Any) -> None:
    """Serve ``config`` on the listening socket ``sock`` with :func:`stopping_server` until Ctrl-C or SIGTERM;
    a KeyboardInterrupt then carries the one line zerosum prints after "interrupted: " (:func:`stopped_words`).

    SIGTERM stops the server as Ctrl-C does: uvicorn catches it while it serves, stops, then hands it to the
    handler it found, which raises :class:`Terminated` (a KeyboardInterrupt naming SIGTERM) rather than kill
    the process before the callers' ``finally`` blocks (a contest's database left open, its lock held).  At
    the process's exit, once the line is printed and the exit handlers registered while serving (its worker
    pools') have run, SIGTERM is raised again with the action it had before, the default: the process ends as
    killed by SIGTERM (status 143 in a shell), as a program that cleans up on a signal should, so that its
    caller knows why it ended; systemd counts that as a clean stop, and an exit status of 143 as a failure."""
    import atexit
    import signal
    import threading

    server = stopping_server(config, stop_requests)
    if threading.current_thread() is not threading.main_thread():  # no signals there (uvicorn's nor ours)
        _serve(server, sock)
        return
    before = signal.getsignal(signal.SIGTERM)
    previous = signal.SIG_DFL if before is None else before  # None: set outside Python, at its default here
    ended: list[int] = []

    def end_as_terminated() -> None:  # at exit, after the exit handlers registered while serving
        if ended:
            _raise_at_exit(signal.SIGTERM, previous)

    atexit.register(end_as_terminated)
    try:
        signal.signal(signal.SIGTERM, _terminated)
        _serve(server, sock)
    except Terminated:
        ended.append(signal.SIGTERM)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
        if not ended:
            atexit.unregister(end_as_terminated)


def _serve(server: Any, sock: Any) -> None:
    """Run ``server`` on ``sock``; its stop by Ctrl-C or SIGTERM raised with the words of :func:`stopped_words`."""
    try:
        server.run(sockets=[sock])
    except Terminated:
        raise Terminated(stopped_words(server.stopped, "SIGTERM")) from None
    except KeyboardInterrupt:
        if server.stopped:
            raise KeyboardInterrupt(stopped_words(server.stopped)) from None
        raise


def _raise_at_exit(signum: int, action: Any) -> None:
    """``signum`` with ``action`` (its default: the process ends, killed by it), after what the interpreter's
    teardown, which that skips, would have done that others see: what is written flushed, and the SQLite
    connections still open closed -- a daemon thread's (a contest's validation cut short keeps its own) -- so
    that a database in WAL mode is left whole, without its -wal and -shm files."""
    import contextlib
    import gc
    import logging
    import signal
    import sqlite3
    import sys

    for found in gc.get_objects():
        if isinstance(found, sqlite3.Connection):
            with contextlib.suppress(sqlite3.Error):  # another thread's (check_same_thread): left to the kernel
                found.close()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):  # no stream, a closed one, a full disk
            stream.flush()
    logging.shutdown()
    signal.signal(signum, action)
    signal.raise_signal(signum)


def stopped_words(requests: int, by: str = "") -> str:
    """What a server stopped with ``requests`` in progress says after "interrupted: " (one line); ``by``: the
    signal that stopped it, when not Ctrl-C (``SIGTERM``)."""
    counted = "1 request" if requests == 1 else f"{requests} requests"
    progress = f"with {counted} in progress (answered 503: {STOPPING})" if requests else ""
    return " ".join(w for w in ("stopped", f"by {by}" if by else "", progress) if w)


def host_port(host: str, port: int) -> str:
    """``host:port`` as an address writes it: an IPv6 host in brackets (``[::1]:8000``), its zone (``%eth0``)
    escaped as a URL needs it."""
    if ":" in host and not host.startswith("["):
        host = "[" + host.replace("%", "%25") + "]"
    return f"{host}:{port}"


def http_address(host: str, port: int) -> str:
    """The address of a server on ``host``:``port`` to open in a browser: ``http://127.0.0.1:8000/``,
    ``http://[::1]:8000/``."""
    return f"http://{host_port(host, port)}/"


def listening_socket(host: str, port: int) -> Any:
    """A socket bound to ``host``:``port`` and listening, for uvicorn to serve on; one UsageError line when it
    cannot be (a port in use, an unknown host, an address not of this machine), so that nothing has started
    and no "open http://..." line was printed for someone else's server."""
    import errno
    import socket

    from ..errors import UsageError

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"cannot serve on {host_port(host, port)}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart at once works
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        why = "the port is in use (another server?)" if exc.errno == errno.EADDRINUSE else exc.strerror or exc
        raise UsageError(f"cannot serve on {host_port(host, port)}: {why}") from None
    return sock
