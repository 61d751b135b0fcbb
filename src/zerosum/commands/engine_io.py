"""The input and output of ``zerosum engine`` (:mod:`.engine`).

* :class:`Lines`: the bytes read from standard input cut into the protocol's lines (docs/protocol.md, Lines):
  a line ends at ``\\n``; one longer than :data:`~zerosum.external.protocol.MAX_LINE` bytes is dropped whole,
  and so is one that is not UTF-8, each with the words of its ``info string error`` line;
* :func:`protocol_channel`: standard input and output kept for the protocol while the engine runs, in file
  descriptors of its own taken before the agent loads, so that whatever the agent's import does to descriptors
  0-2 (a student's file that closes its standard error) no line but the protocol's reaches its output; anything
  else printed (the agent's, numba's) goes to standard error (nowhere, once the agent closed it: :func:`guard`),
  and descriptors 0-2 and ``sys.stdout`` are handed back as they were found (``zerosum.cli.main([...])`` is a
  Python call too).
"""

from __future__ import annotations

import errno
import os
import sys
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Iterator

from ..external import protocol as p

__all__ = ["Channel", "Lines", "guard", "hello", "protocol_channel"]


class Lines:
    """The lines in the chunks given to :meth:`feed`, one chunk after another."""

    def __init__(self) -> None:
        self.pending = bytearray()
        self.dropping = False  # the rest of a line too long is dropped up to its end

    def feed(self, chunk: bytes) -> Iterator[tuple[str | None, str | None]]:
        """``(line, None)`` for each whole line of what was read so far, ``(None, error)`` for each one dropped."""
        self.pending += chunk
        while True:
            end = self.pending.find(b"\n")
            if end < 0:
                if len(self.pending) > p.MAX_LINE:
                    self.pending.clear()
                    self.dropping = True
                    yield None, f"a line longer than {p.MAX_LINE:,} bytes was dropped"
                return
            raw, self.pending[:] = bytes(self.pending[:end]), self.pending[end + 1:]
            if self.dropping:
                self.dropping = False
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield None, "a line that is not UTF-8 was dropped"
                continue
            yield line, None


@dataclass(frozen=True)
class Channel:
    """The protocol's own ends: ``input`` to read its lines from, ``output`` for :meth:`write` (descriptors from 3
    up, not inherited by a program the agent runs)."""

    input: int
    output: int

    def write(self, line: str) -> None:
        """Send one protocol line (given without its end)."""
        data = memoryview((line + "\n").encode("utf-8"))
        while data:
            data = data[os.write(self.output, data):]


@contextmanager
def protocol_channel() -> Iterator[Channel]:
    """The protocol's :class:`Channel`, for the block: standard input and output taken before anything else
    runs, file descriptor 1 and ``sys.stdout`` meanwhile standard error's (:func:`guard`); after it, descriptors
    0-2 and ``sys.stdout`` are as they were (the error line of an agent that closed its standard error at
    import reaches standard error all the same).  Raises ``OSError`` when standard input or output is closed."""
    caller = sys.stdout
    _flush(caller)  # what was printed before goes where it was meant to
    saved = {fd: _copy(fd) for fd in (0, 1, 2)}
    stray = None
    try:
        stdin, stdout = saved[0], saved[1]
        if stdin is None or stdout is None:
            raise OSError(errno.EBADF, f"standard {'input' if stdin is None else 'output'} is closed")
        guard()
        # prints (the agent's) to file descriptor 1, standard error's: not to ``sys.stderr``, which fails once
        # the agent's import closed descriptor 2 (a print at import after ``os.close(2)``)
        stray = sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
        yield Channel(stdin, stdout)
    finally:
        _flush(sys.stdout)
        sys.stdout = caller
        if stray is not None:
            stray.close()  # not descriptor 1 (``closefd=False``)
        for fd, copy in saved.items():
            if copy is None:  # closed when the engine began: closed again
                with suppress(OSError):
                    os.close(fd)
            else:
                os.dup2(copy, fd)
                os.close(copy)


def _copy(fd: int) -> int | None:
    """A copy of file descriptor ``fd`` numbered from 3 up, not inherited by a program started later; None when
    ``fd`` is closed."""
    import fcntl

    try:
        return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        return None


def guard() -> None:
    """Stray prints (the agent's, numba's) go to standard error: file descriptor 1 is made standard error's, and
    a descriptor of 0-2 found closed (the agent's import closed it) is opened on ``/dev/null``, so that no file or
    pipe opened later takes its number (a print to a closed standard error goes nowhere, rather than into one)."""
    for fd in (0, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    os.dup2(2, 1)


def _flush(stream: Any) -> None:
    """Flush ``stream`` (None or a broken one is left as it is)."""
    try:
        if stream is not None:
            stream.flush()
    except (OSError, ValueError):
        pass


def hello(name: str, games: list[Any]) -> list[Any]:
    """The engine's answer to ``hello``: its name (``name``, one line), its author, the games it offers
    (``games``; none given: every game, any size), then ``hellodone``."""
    from ..core.version import __version__
    from ..games.registry import registered_games
    from .engine_search import one_line

    specs = [g.spec for g in games] or [cls.name for cls in registered_games()]
    return [p.Id("name", one_line(name)), p.Id("author", f"the zerosum authors (zerosum {__version__})"),
            *(p.GameSpec(spec) for spec in specs), p.HelloDone()]
