"""The contest server's bound on the board viewer's engine work (docs/contest.md, "The API").

The viewer (``/board``, :mod:`zerosum.ui.server`) replays the contest's games for anyone; its engine routes
(:data:`ENGINE_PATHS`: analysis, review, best line, explanation, a move, a record read) compute, on the machine
whose cores play the ladder and the validations on wall-clock time.  So on the contest server each engine call
is short (:data:`ENGINE_TIME` seconds of search, killed :data:`ENGINE_MARGIN` s past it), and :class:`EngineQuota`
lets each client address use at most :data:`PER_CLIENT` seconds of them a minute, and everybody together
:data:`TOTAL` (the viewer has one engine worker: at most one core, half a core over a minute); past either, a
429 ``{"error": ...}`` with ``Retry-After``.  A request's seconds are its wall time, its wait for the worker
included.  Replaying (``/api/state``, the page) is never limited.
"""

from __future__ import annotations

import collections
import json
import threading
import time
from typing import Any

__all__ = ["EngineQuota", "ENGINE_PATHS", "ENGINE_TIME", "ENGINE_MARGIN", "PER_CLIENT", "TOTAL", "WINDOW"]

#: the viewer's routes that run an engine job
ENGINE_PATHS = frozenset({"/api/analyze", "/api/review", "/api/line", "/api/explain", "/api/move", "/api/record"})
#: seconds of search an engine call of the contest's viewer may take, and the seconds past it before it is killed
ENGINE_TIME = 1.0
ENGINE_MARGIN = 1.0
#: seconds of engine requests a client address may use in :data:`WINDOW` seconds, and all addresses together
PER_CLIENT = 10.0
TOTAL = 30.0
WINDOW = 60.0


class EngineQuota:
    """ASGI middleware around the viewer's app: the quota of its engine routes (module docstring)."""

    def __init__(self, app: Any, per_client: float | None = None, total: float | None = None,
                 window: float = WINDOW) -> None:
        self.app = app
        self.per_client = PER_CLIENT if per_client is None else per_client
        self.total = TOTAL if total is None else total
        self.window = window
        self.used: dict[str, collections.deque[tuple[float, float]]] = collections.defaultdict(collections.deque)
        self.lock = threading.Lock()

    def _spent(self, key: str, now: float) -> tuple[float, float]:
        """Seconds ``key`` used in the window, and when the oldest of them leaves it."""
        times = self.used[key]
        while times and now - times[0][0] > self.window:
            times.popleft()
        return sum(s for _, s in times), (times[0][0] + self.window - now) if times else 0.0

    def refusal(self, client: str) -> tuple[str, float] | None:
        """Why ``client`` may not start an engine request now, and the seconds to wait; None when it may."""
        now = time.monotonic()
        with self.lock:
            for key, limit, whose in ((client, self.per_client, "from your address"), ("", self.total, "in all")):
                spent, wait = self._spent(key, now)
                if spent >= limit:
                    return (f"the board viewer's engine is limited on the contest server to {limit:g} s a minute "
                            f"{whose}: try again in {max(1.0, wait):.0f} s (replaying games is not limited)"), wait
        return None

    def charge(self, client: str, seconds: float) -> None:
        now = time.monotonic()
        with self.lock:
            for key in (client, ""):
                self.used[key].append((now, seconds))
            for key in [k for k, v in self.used.items() if k and (not v or now - v[-1][0] > self.window)]:
                del self.used[key]  # addresses quiet for a whole window are forgotten

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("path") not in ENGINE_PATHS:
            await self.app(scope, receive, send)
            return
        client = str((scope.get("client") or ("?",))[0])
        refused = self.refusal(client)
        if refused is not None:
            body = json.dumps({"error": refused[0]}).encode("utf-8")
            await send({"type": "http.response.start", "status": 429,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                    (b"retry-after", str(max(1, round(refused[1]))).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        started = time.monotonic()
        try:
            await self.app(scope, receive, send)
        finally:
            self.charge(client, time.monotonic() - started)
