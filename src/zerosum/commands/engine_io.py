"""The input and output of ``zerosum engine`` (:mod:`.engine`).

* :class:`Lines`: the bytes read from standard input cut into the protocol's lines (docs/protocol.md, Lines):
  a line ends at ``\\n``; one longer than :data:`~zerosum.external.protocol.MAX_LINE` bytes is dropped whole,
  and so is one that is not UTF-8, each with the words of its ``info string error`` line;
* :func:`protocol_output`: standard output kept for the protocol's lines while the engine runs, anything else
  printed (the agent's, numba's) sent to standard error, and standard output handed back as it was found (file
  descriptor 1 and ``sys.stdout``: ``zerosum.cli.main([...])`` is a Python call too).
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..external import protocol as p

__all__ = ["Lines", "hello", "protocol_output"]


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


@contextmanager
def protocol_output() -> Iterator[Callable[[str], None]]:
    """A function that writes one protocol line (given without its end) to standard output, for the block; meanwhile
    file descriptor 1 and ``sys.stdout`` are standard error's, and after it they are as they were."""
    caller = sys.stdout
    _flush(caller)  # what was printed before goes where it was meant to
    out = os.dup(1)

    def write(line: str) -> None:
        data = memoryview((line + "\n").encode("utf-8"))
        while data:
            data = data[os.write(out, data):]

    try:
        os.dup2(2, 1)  # stray prints (the agent's, numba's) go to standard error
        sys.stdout = sys.stderr
        yield write
    finally:
        _flush(sys.stdout)
        sys.stdout = caller
        os.dup2(out, 1)
        os.close(out)


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
