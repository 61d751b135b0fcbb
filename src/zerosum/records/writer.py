"""Records appended to a file as games finish (``--pgnout``): :class:`Writer`.

Every game is appended whole or not at all: the bytes are written until all are in (a short write goes on),
flushed to disk, and on any failure (a full disk, a file-size limit, Ctrl-C) the file is cut back to its
length before the game, so it holds only whole games; the error names the file.  A file opened to append
to (a resumed run) is read first: a torn last game, left by a run killed in the middle of a write, is
removed and said so (:attr:`Writer.notes`); a file damaged before its end is refused.  A writer holds the file's
run lock (an exclusive ``flock``, as a run holds its results file) from its opening to its :meth:`~Writer.close`:
a second writer of the file, in this process or another (a run's ``--pgnout``, ``--overwrite`` or ``--resume``),
is refused at once, having changed nothing."""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..arena.store import GameRecord as ArenaGame
from ..arena.store import Store
from ..arena.store_files import hold
from ..core.checks import safe_repr
from ..errors import InvalidFileError
from .lexer import MAX_LINE, flag, path_of
from .sources import arena_maker
from .text import RESULTS, Record, format
from .trust import given_game

__all__ = ["Writer"]

#: the longest line read back from a file appended to, in bytes (UTF-8 takes up to 4 a character)
_LINE_BYTES = 4 * MAX_LINE + 1
_RESULT_TOKENS = {r.encode() for r in RESULTS}
_TAG_LINE = re.compile(rb'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"([^"\\\n]*(?:\\.[^"\\\n]*)*)"[ \t]*\]')


class Writer:
    """Appends records to a file as games finish: each game written whole, flushed to disk before the next,
    so a run killed at any moment leaves only whole games (at most a torn last one, which the next
    ``Writer`` on the file removes).

    ``overwrite``: start the file afresh (emptied only once its lock is held); else append to it, as a resumed
    run does, once its end is known to be sound.  A file another writer holds is refused, untouched
    (``record file 'r.pgn' is in use by another run: ...``).  ``count``: the games this writer wrote; ``held``:
    the whole games in the file; ``notes``: what was mended on opening (one line each, for the caller to show)."""

    count: int
    held: int
    notes: list[str]
    _rounds: set[str]

    def __init__(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        from ..core.files import check_output

        self.path = check_output(path_of(path, "record file"), overwrite=True, what="record file")
        flags = os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        flag(overwrite, "overwrite")  # never O_TRUNC: the file is emptied once its lock is held
        self.count, self.held, self.notes, self._rounds = 0, 0, [], set()
        self._append = not overwrite
        self._fd: int | None = None
        try:
            fd = os.open(self.path, flags, 0o666)
        except OSError as exc:
            why = "is a symbolic link: name the file itself" if exc.errno == errno.ELOOP else \
                f"cannot be written: {exc.strerror or exc}"
            raise self._error(f" {why}") from None
        self._fd = fd
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise self._error(" is not a regular file")
            hold(fd, self.path, "record file")  # another run's records: refused, nothing read or cut
            if overwrite and info.st_size:
                self._cut(0)
                info = os.fstat(fd)
            size = self._mend(info.st_size) if self._append and info.st_size else info.st_size
            self._lead = "" if not size else "\n" if os.pread(fd, 1, size - 1) == b"\n" else "\n\n"
        except OSError as exc:
            self.close()
            raise self._error(f" cannot be read: {exc.strerror or exc}") from None
        except BaseException:
            self.close()
            raise

    def _error(self, what: str) -> InvalidFileError:
        return InvalidFileError(f"record file {str(self.path)!r}{what}")

    def _mend(self, size: int) -> int:
        """Reads the file to append to: its whole games and their rounds; removes a torn last game; refuses
        a file damaged before its end.  The file's size afterwards."""
        assert self._fd is not None
        with os.fdopen(os.dup(self._fd), "rb") as fh:
            fh.seek(0)
            found = _scan(fh)
        if found.problem:
            raise self._error(f", line {found.problem[0]}: {found.problem[1]}; a record file is whole games one "
                              "after another, so nothing is appended to it (`zerosum report DB --export FILE` "
                              "writes a new one from a results file)")
        self.held, self._rounds = found.games, found.rounds
        if found.torn_line:
            self._cut(found.end)
            self.notes.append(f"record file {str(self.path)!r}: removed a torn last game ({size - found.end:,} bytes "
                              f"from line {found.torn_line}) left by an interrupted run")
            return found.end
        return size

    def _cut(self, size: int) -> None:
        """The file cut back to ``size`` bytes, on disk."""
        assert self._fd is not None
        os.ftruncate(self._fd, size)
        os.fsync(self._fd)

    def write(self, record: Record) -> None:
        """Appends ``record`` whole, flushed to disk; on failure the file is as it was before, and the
        error (one :class:`~zerosum.errors.InvalidFileError` line) names the file."""
        if self._fd is None:
            raise self._error(" is closed")
        data = memoryview((self._lead + format(record)).encode("utf-8"))
        before = -1
        try:
            before = os.fstat(self._fd).st_size
            while data:
                done = os.write(self._fd, data)
                if done <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                data = data[done:]
            os.fsync(self._fd)
        except BaseException as exc:
            undone = ""
            if before >= 0:
                try:
                    self._cut(before)
                except OSError as cut:
                    undone = (f", and cutting its torn last game off failed too ({cut.strerror or cut}): "
                              "appending to it again removes it")
            if isinstance(exc, OSError):
                games = f"{self.held} whole game{'s' if self.held != 1 else ''}"
                raise self._error(f": {exc.strerror or exc}; it holds {games}{undone}") from None
            raise
        self._lead, self.count, self.held = "\n", self.count + 1, self.held + 1

    def game_hook(self, store: Store, *, game: Any = None) -> Callable[[ArenaGame], None]:
        """For ``run_arena(on_game=...)``: each finished game of the run in ``store``, written as it ends.
        ``game``: the run's game (needed for a run on a game file: see :func:`~zerosum.records.from_store`).

        A file opened to append to first gets the finished games of ``store`` it lacks (known by their
        ``Round`` tags): those a run stored but could not write, as on a full disk, or wrote torn."""
        if not isinstance(store, Store):
            raise InvalidFileError(f"game_hook takes the run's Store, not {safe_repr(store, 40)}")
        make = arena_maker(store, given_game(game))
        if self._append:
            missing = [rec for rec in store.games() if str(rec.idx + 1) not in self._rounds]
            for rec in missing:
                self._write_stored(make, rec)
            if missing:
                rounds = ", ".join(str(rec.idx + 1) for rec in missing[:5]) + (", ..." if len(missing) > 5 else "")
                self.notes.append(f"record file {str(self.path)!r}: wrote {len(missing)} game"
                                  f"{'s' if len(missing) != 1 else ''} of the results file that it lacked "
                                  f"(round {rounds})")
            self._append = False
        return lambda rec: self._write_stored(make, rec)

    def _write_stored(self, make: Callable[[ArenaGame], Record], rec: ArenaGame) -> None:
        try:
            self.write(make(rec))
        except InvalidFileError as exc:
            raise InvalidFileError(f"{exc} (game {rec.idx + 1} is in the results file: a resumed run writes it "
                                   "here)") from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class _Found:
    """What :func:`_scan` found: where the last whole game ends (bytes), how many games and which rounds,
    the line a torn last game starts on (0: none), and why nothing may be appended (None: it may)."""

    end: int = 0
    games: int = 0
    rounds: set[str] = field(default_factory=set)
    torn_line: int = 0
    problem: tuple[int, str] | None = None


def _shown(text: bytes) -> str:
    """A line of the file for a message: its text, or where it is not UTF-8, its bytes (``b'\\xff\\xfe ...'``)."""
    try:
        return safe_repr(text.decode("utf-8"), 40)
    except UnicodeDecodeError:
        return safe_repr(text, 40)


def _scan(fh: BinaryIO) -> _Found:
    """The games of a record file as its writer wrote them, line by line (tag lines, then movetext ending in
    a result token); memory bounded by a line."""
    found, pos, number, phase, start, round_ = _Found(), 0, 0, "between", 0, None
    names: set[bytes] = set()  # the tags of the game read so far
    broken = 0  # a tag line cut short: the last line of a torn game, or damage if more follows
    while True:
        raw = fh.readline(_LINE_BYTES)
        if not raw:
            break
        number, pos = number + 1, pos + len(raw)
        if len(raw) == _LINE_BYTES and not raw.endswith(b"\n"):
            found.problem = (number, f"a line longer than {MAX_LINE:,} characters")
            return found
        text = raw.strip() if number > 1 else raw.removeprefix(b"\xef\xbb\xbf").strip()  # a byte-order mark
        if not text:
            continue
        if broken:
            found.problem = (broken, "a tag line cut short, then more lines (a torn game, then more games)")
            return found
        if text.startswith(b"["):
            if phase == "moves":
                found.problem = (number, "a game without its result token is followed by a tag (a torn game, "
                                         "then more games)")
                return found
            if phase == "between":
                phase, start, names = "tags", number, set()
            m = _TAG_LINE.fullmatch(text)
            if m is None:
                broken = number
            elif m[1] in names:
                found.problem = (number, f"tag {m[1].decode()} given twice in a game (a torn game, then more "
                                         "games?)")
                return found
            else:
                names.add(m[1])
                round_ = m[2].decode("utf-8", "replace") if m[1] == b"Round" else round_
        elif phase == "between":
            found.problem = (number, f"{_shown(text)} where a game's first tag belongs")
            return found
        else:
            phase = "moves"
            if text.split()[-1] in _RESULT_TOKENS:
                found.games, found.end, phase = found.games + 1, pos, "between"
                if round_ is not None:
                    found.rounds.add(round_)
                round_ = None
    found.torn_line = start if phase != "between" else 0
    return found
