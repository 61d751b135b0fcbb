"""The line under the board while ``zerosum play`` waits: what the wait is, refreshed in place, fitted to the
terminal's width.

No wait on a terminal drawn in place is silent: after ``MESSAGE_AFTER`` seconds without news a line says what
the wait is (:func:`waiting_words`): the preparation the wait needs while its compiled code is still loading or
compiling (``preparing the engine (the solver's search), first run only: compiling for 12 s, about 30 s
more``), else who is thinking and for how long.  The line always fits the terminal: where the full words are
wider, shorter ones say the estimate first (:func:`zerosum.agents.prepare_words.compile_words`), so an 80-column
terminal never sees the line cut before the figures (it showed ``... first run only: compiling for 15 s, ``).

Where the output is no terminal (a pipe, a file: ``zerosum play | tee game.txt``), or is a scrolling log on one
(``--log``, ``TERM=dumb``: no cursor movement, a hint's table printed once, at the end), nothing is redrawn,
but a wait on the engines' preparation is said all the same, on standard error, as ``zerosum analyze`` says it
(:func:`zerosum.agents.prepare.announce`): ``zerosum: preparing the engine (the solver's search), first run
only: compiling for 0.2 s, about 20 s more`` as soon as a compile begins (or after a second), again every
10 s while it goes on, nothing once the wait is over; and so is any other wait over 2 s (``zerosum: solver is
thinking: 2.0 s``, again every 10 s: :meth:`LiveRow._wait_line`).
"""

from __future__ import annotations

import os
import threading
import time as _time
from typing import Any

from rich.text import Text

from ..agents.prepare import MESSAGE_AFTER, Step, announce, pending, ready, status
from ..agents.prepare_words import fit, on_stderr, said_while, seconds

__all__ = ["LiveRow", "waiting_words", "columns", "TICK"]

STYLE_DIM = "grey50"
#: seconds between two looks at a wait (a line that says what it is, once it passes ``MESSAGE_AFTER``)
TICK = 0.2


def waiting_words(what: str, since: float, now: float | None = None, needs: list[Step] | None = None,
                  width: int | None = None) -> str:
    """What a person has waited for since ``since``: the preparation of what the wait ``needs`` (None: any)
    while it runs (:func:`zerosum.agents.prepare.status`), else ``what`` and the seconds so far (``solver is
    thinking: 3 s``), saying when a compile for later runs meanwhile (it slows the machine).  At most
    ``width`` characters (None: no limit), in shorter words where the full ones are wider."""
    now = _time.perf_counter() if now is None else now
    said = status(since, now, needs, width)
    if said is not None:
        return said
    other = [s for s in pending() if s.running and s.key != "numba" and now - (s.started or now) > MESSAGE_AFTER]
    head = f"{what}: {seconds(now - since)}"
    if not (other and needs is not None):
        return fit([head], width)
    return fit([f"{head} (meanwhile preparing {other[0].label} for later)",
                f"{head} (meanwhile compiling for later)", head], width)


def columns(output: Any) -> int | None:
    """The width of ``output``'s terminal in characters: rich's console's, else the terminal's own (asked
    each time: a window may be resized), else ``COLUMNS``; None when none says (not a terminal's file: the
    full words are drawn, cut at 79 characters)."""
    if getattr(output, "console", None) is not None:
        return int(output.console.width)
    try:
        width = os.get_terminal_size(output.out.fileno()).columns
    except (AttributeError, OSError, ValueError):  # not a terminal's file (a test's screen)
        width = 0
    if width <= 0:
        text = os.environ.get("COLUMNS", "")
        width = int(text) if text.isdigit() else 0
    return width if width > 0 else None


class LiveRow:
    """Lines redrawn in place on a terminal (rich's ``Live`` in colour, a carriage return in plain text);
    nothing redrawn elsewhere (a file or a pipe gets the final result only, printed by the caller), where a
    wait on ``needs`` that are not prepared yet is said on standard error instead (:meth:`_tell`) -- nor in a
    scrolling ``log`` on a terminal (``zerosum play --log``, ``TERM=dumb``), which is drawn as a pipe is: no
    cursor movement, no carriage return (but one that wipes the ``^C`` the terminal echoed on Ctrl-C).

    ``idle``: what the wait is (``solver is thinking``); after ``MESSAGE_AFTER`` seconds without an update a
    line says so, with the seconds waited (:func:`waiting_words`), refreshed every ``TICK`` seconds by a
    thread of its own -- it speaks while the one that updates is busy (loading compiled code, searching).
    :meth:`turn` changes what the wait is while it runs (a hint that gives up on the solver's compile)."""

    def __init__(self, output: Any, idle: str | None = None, needs: list[Step] | None = None,
                 log: bool = False) -> None:
        self.output, self.needs = output, needs  # needs: the preparation the wait is for (None: any)
        out = output.out
        self.tty = bool(getattr(out, "isatty", None) and out.isatty())
        # ``log``: a scrolling log on a terminal (``--log``, ``TERM=dumb``) is drawn as a pipe's: nothing redrawn
        self.live_ok = not log and self.tty
        self.idle = idle
        self._live: Any = None
        self._width = 0
        self._lock = threading.Lock()
        self._shown: tuple[str, Any] = ("", None)  # the last update: plain text, rich renderable
        self._since = self._news = _time.perf_counter()
        self._stop = threading.Event()
        self._told = threading.Event()  # set: the words on standard error of the wait so far stop
        self._ticker: threading.Thread | None = None
        self._said: Any = None  # the words of a long wait where nothing is redrawn (:meth:`_wait_line`)

    def __enter__(self) -> "LiveRow":
        if self.live_ok and self.output.console is not None:
            from rich.live import Live

            self._live = Live(Text(""), console=self.output.console, transient=True, auto_refresh=False)
            self._live.__enter__()
        if self.idle is not None and self.live_ok:
            self._ticker = threading.Thread(target=self._tick, name="zerosum-waiting", daemon=True)
            self._ticker.start()
        elif self.idle is not None:  # nothing redrawn: a long wait said on standard error instead
            self._said = said_while(self._wait_line)
            self._said.__enter__()
        self._tell(self.needs)
        return self

    def _wait_line(self, _: float) -> str | None:
        """Nothing redrawn (a pipe, a log): the line that says a long wait on standard error, as ``zerosum
        analyze`` says its own (:func:`~zerosum.agents.prepare_words.said_while`: ``zerosum: solver is thinking:
        2.0 s``, again every 10 s); none while the wait is on the preparation, said as such (:meth:`_tell`)."""
        with self._lock:
            idle, since, needs = self.idle, self._since, self.needs
        if needs and not ready(needs):
            return None
        return f"{idle}: {seconds(_time.perf_counter() - since)}"

    def _tell(self, needs: list[Step] | None) -> None:
        """No terminal: the wait on ``needs`` (not None) is said on standard error while they are being
        prepared, as ``zerosum analyze`` says it (:func:`~zerosum.agents.prepare.announce`); the words of the
        wait before stop."""
        self._told.set()
        self._told = threading.Event()
        if not self.live_ok and needs and not ready(needs):
            announce(needs, on_stderr, until=self._told)

    def turn(self, idle: str, needs: list[Step] | None = None) -> None:
        """The wait is now ``idle`` (for ``needs``), its seconds counted from now."""
        with self._lock:
            self.idle, self.needs, self._since = idle, needs, _time.perf_counter()
        self._tell(needs)

    def update(self, plain: str, rich: Any = None) -> None:
        with self._lock:
            self._shown, self._news = (plain, rich), _time.perf_counter()
            self._draw(plain, rich)

    def _draw(self, plain: str, rich: Any, note: str = "") -> None:
        """Show ``plain`` (``rich`` in colour), with ``note`` under it; the caller holds the lock."""
        if not self.live_ok:
            return
        if self._live is not None:
            body = rich if rich is not None else Text(plain)
            if note:
                body = Text.assemble(*([body, "\n"] if plain else []), (note, STYLE_DIM))
            self._live.update(body, refresh=True)
            return
        line = (note or plain).splitlines()[0][:(columns(self.output) or 80) - 1] if note or plain else ""
        self.output.out.write("\r" + line.ljust(self._width))
        self._width = max(self._width, len(line))  # where the cursor stands: the widest line drawn
        self.output.out.flush()

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            now = _time.perf_counter()
            if now - self._news >= MESSAGE_AFTER and self.idle is not None:
                width = columns(self.output)
                note = waiting_words(self.idle, self._since, now, self.needs, None if width is None else width - 1)
                with self._lock:
                    if not self._stop.is_set():
                        self._draw(*self._shown, note=note)

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._told.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._said is not None:
            self._said.__exit__(None, None, None)
        if self._live is not None:
            self._live.__exit__(*exc)
        elif self.live_ok:
            width = self._width
            if exc and exc[0] is KeyboardInterrupt:  # the terminal echoed Ctrl-C as `^C` where the cursor stood
                width = min(width + len("^C"), (columns(self.output) or 80) - 1)
            if width:
                self.output.out.write("\r" + " " * width + "\r")
                self.output.out.flush()
        elif self.tty and exc and exc[0] is KeyboardInterrupt:  # a log: the `^C` the terminal echoed, wiped
            self.output.out.write("\r" + " " * len("^C") + "\r")
            self.output.out.flush()
