"""The opening book: exact scores of every early position, so the hardest solves answer at once.

A book covers every position up to ``depth`` plies (reachable in play that stops at a win, the side to
move unable to win at once or not).  Positions and their mirror images share one entry: the key is
``min(current + mask, mirror(current) + mirror(mask))``.  Only the positions at ``depth`` are searched;
shallower ones follow by negamax over the book itself.

File format: :mod:`.book_file` (a header, the sorted uint64 keys, the int8 scores; memory-mapped, looked up
by binary search, here and inside the search).
"""

from __future__ import annotations

import os
import time
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Protocol

import numpy as np

from ..errors import InvalidFileError
from ..kernels.bits import mirror
import zerosum.solver.book_file as book_file  # by its own name: "from . import" would name the package

if TYPE_CHECKING:  # pragma: no cover
    from ..games.connectx import ConnectX

__all__ = ["Book", "mirror", "canonical_key", "default_path", "load_default", "generate", "convert",
           "CheckpointUnwritable"]


class CheckpointUnwritable(InvalidFileError):
    """A generation's checkpoint could not be written (a full disk, a file-size limit): one line naming it.  The
    file keeps every whole line written before (a torn last one is ignored on resume), so the generation carries
    on from there once it can be written."""


def canonical_key(current: int, mask: int, rows: int, cols: int) -> int:
    """One key for a position and its mirror image."""
    return min(current + mask, mirror(current, rows, cols) + mirror(mask, rows, cols))


class Book:
    """Sorted canonical keys and their scores for one board (in memory, or mapped from a file)."""

    def __init__(self, rows: int, cols: int, k: int, depth: int, keys: np.ndarray, scores: np.ndarray) -> None:
        order = np.argsort(keys, kind="stable")
        self.rows, self.cols, self.k, self.depth = rows, cols, k, depth
        self.keys = np.ascontiguousarray(keys[order], dtype=np.uint64)
        self.scores = np.ascontiguousarray(scores[order], dtype=np.int8)

    @classmethod
    def _sorted(cls, rows: int, cols: int, k: int, depth: int, keys: np.ndarray, scores: np.ndarray) -> "Book":
        """A book of arrays already sorted and checked (a mapped file's: not copied)."""
        book = cls.__new__(cls)
        book.rows, book.cols, book.k, book.depth = rows, cols, k, depth
        book.keys, book.scores = keys, scores
        return book

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def __repr__(self) -> str:
        return f"Book({self.rows} x {self.cols}, k={self.k}, depth={self.depth}, {len(self)} positions)"

    def get(self, current: int, mask: int) -> int | None:
        """The score of a position, or None when the book does not hold it."""
        if mask.bit_count() > self.depth:
            return None
        key = canonical_key(current, mask, self.rows, self.cols)
        i = int(np.searchsorted(self.keys, np.uint64(key)))
        if i < len(self) and int(self.keys[i]) == key:
            return int(self.scores[i])
        return None

    def probe(self) -> tuple[np.ndarray, np.ndarray, int]:
        """``(keys, scores, depth)``: what the search looks positions up in (:func:`.search.book_arrays`)."""
        return self.keys, self.scores, self.depth

    def save(self, path: str, *, overwrite: bool = False) -> None:
        """Write the book to ``path`` (:mod:`.book_file`'s format) all at once (a temporary file renamed at
        the end); an existing file only with ``overwrite``, and never inside the installed package."""
        from ..core.files import atomic_output

        with atomic_output(path, overwrite=overwrite, binary=True, what="opening book") as fh:
            book_file.write(fh, self.rows, self.cols, self.k, self.depth, self.keys, self.scores)

    @classmethod
    def load(cls, path: str) -> "Book":
        """The book in ``path`` (memory-mapped; an old ``.npz`` book is read whole); any file that is not a
        well-formed book is one :class:`InvalidFileError`."""
        return cls._sorted(*book_file.read(str(path)))


def default_name(rows: int, cols: int, k: int) -> str:
    return f"book-{rows}x{cols}-k{k}.zsb"


def default_path(rows: int, cols: int, k: int) -> str:
    """Where the shipped book of a board lives (inside the package's data folder)."""
    return str(resources.files("zerosum").joinpath("data", default_name(rows, cols, k)))


_LOADED: dict[tuple[int, int, int], Book | None] = {}


def load_default(game: "ConnectX") -> Book | None:
    """The shipped book for ``game``'s board, or None when there is none (loaded once per process)."""
    dims = (game.rows, game.cols, game.k)
    if dims not in _LOADED:
        path = default_path(*dims)
        _LOADED[dims] = Book.load(path) if os.path.exists(path) else None
    return _LOADED[dims]


def _read_checkpoint(path: str, header: str, positions: dict[int, tuple[int, int]], lo: int, hi: int) -> dict[int, int]:
    """The ``key score`` lines a generation wrote so far (a torn last line is ignored).

    Every line must name one of ``positions`` (canonical key -> position) with a score in ``lo..hi``:
    anything else is one :class:`InvalidFileError` naming the line.
    """
    from ..core.files import read_text
    from ..spec import integer

    found: dict[int, int] = {}
    if not os.path.lexists(path):
        return found
    lines = read_text(path, "book checkpoint").split("\n")
    if lines[0] != header:
        raise InvalidFileError(f"book checkpoint {path!r} belongs to another generation ({lines[0][:80]!r}, "
                               f"not {header!r}); "
                               "remove it")
    for number, line in enumerate(lines[1:-1], 2):  # the text after the last newline may be torn
        parts = line.split()
        try:
            if len(parts) != 2:
                raise ValueError
            key, score = integer(parts[0]), integer(parts[1])
        except ValueError:
            raise InvalidFileError(f"book checkpoint {path!r}, line {number}: not 'key score': {line[:80]!r}") from None
        if key not in positions:
            raise InvalidFileError(f"book checkpoint {path!r}, line {number}: {key} is not a position of this book's last ply; "
                                   "remove the file")
        if not lo <= score <= hi or found.get(key, score) != score:
            raise InvalidFileError(f"book checkpoint {path!r}, line {number}: score {score} is impossible for this position "
                                   f"(expected {lo}..{hi}{', as on its earlier line' if key in found else ''}); "
                                   "remove the file")
        found[key] = score
    return found


#: solves many positions at once: ``solve_many(game_spec, tt_size, [(key, current, mask), ...], record)`` calls
#: ``record(key, score)`` in the calling thread for each, in any order (see ``zerosum.pool.PositionSolver``)
SolveMany = Callable[[str, int, list[tuple[int, int, int]], Callable[[int, int], None]], None]


class BookSolver(Protocol):
    """What :func:`generate` needs of a :class:`zerosum.solver.solver.Solver` (which loads books, so this
    module names it without importing it)."""

    game: "ConnectX"
    book: "Book | None"
    table: Any

    def solve_bits(self, current: int, mask: int) -> int: ...


def generate(
    solver: BookSolver, depth: int, progress: Callable[[int, int, float], None] | None = None,
    checkpoint: str | None = None, solve_many: SolveMany | None = None,
) -> Book:
    """A book of every position up to ``depth`` plies, solved with ``solver`` (its own book unused).

    ``progress(done, total, seconds)`` is called once before the first search (``seconds`` 0: ``done`` counts
    the positions the checkpoint held) and after each position searched at ``depth``.
    ``checkpoint``: a text file of ``key score`` lines, one appended (and flushed) per position searched;
    positions already in it are not searched again, so an interrupted generation resumes where it stopped.  A
    write to it that fails (a full disk) raises :class:`CheckpointUnwritable` naming it.
    ``solve_many`` searches the positions elsewhere (the engine pool's :class:`zerosum.pool.PositionSolver`:
    worker processes or Ray actors, each with a table the size of ``solver``'s); by default ``solver`` does.
    """
    from ..core.files import atomic_output, open_append
    from ..errors import UsageError

    game = solver.game
    cells = game.cells
    if game.cols * (game.rows + 1) > 64:  # the book file holds 64-bit keys
        raise UsageError(f"books hold boards up to 64 bits (cols x (rows + 1)); {game.spec} needs "
                         f"{game.cols * (game.rows + 1)}")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth < cells:
        raise UsageError(f"a book's depth is a whole number 0..{cells - 1}, not {depth!r}")
    levels = _levels(game, depth)
    last = levels[depth]
    scores: dict[int, int] = {}
    header = _header(game, depth)
    if checkpoint is not None:
        scores = _read_checkpoint(checkpoint, header, last, -((cells - depth) // 2), (cells + 1 - depth) // 2)
    saved_book, solver.book = solver.book, None
    out = None
    if checkpoint is not None:  # written afresh, all at once: what it held, less any torn last line
        try:
            with atomic_output(checkpoint, overwrite=True, what="book checkpoint") as fh:
                fh.write(header + "\n" + "".join(f"{key} {s}\n" for key, s in scores.items()))
            out = os.fdopen(open_append(checkpoint, what="book checkpoint"), "a", encoding="utf-8")
        except InvalidFileError as exc:  # the old file is as it was (atomic_output)
            solver.book = saved_book
            raise CheckpointUnwritable(str(exc)) from None
    try:
        start = time.perf_counter()
        todo = [(key, current, mask) for key, (current, mask) in sorted(last.items()) if key not in scores]
        done = len(last) - len(todo)

        def record(key: int, score: int) -> None:
            nonlocal done
            scores[key] = score
            done += 1
            if out is not None:
                try:
                    out.write(f"{key} {score}\n")
                    out.flush()
                except OSError as exc:  # a full disk: the lines before stay whole
                    raise CheckpointUnwritable(f"book checkpoint {checkpoint!r} cannot be written: "
                                               f"{exc.strerror or exc}") from None
            if progress is not None:
                progress(done, len(last), time.perf_counter() - start)

        if progress is not None:
            progress(done, len(last), 0.0)
        if solve_many is not None and len(todo) > 1:
            solve_many(game.spec, int(solver.table.shape[0]), todo, record)
        else:
            for key, current, mask in todo:
                record(key, solver.solve_bits(current, mask))
    finally:
        solver.book = saved_book
        if out is not None:
            try:
                out.close()
            except OSError:  # what a full disk left unwritten (said above); the file is closed all the same
                pass
    return _derive(game, levels, scores)


def _header(game: "ConnectX", depth: int) -> str:
    """The first line of a generation's checkpoint."""
    return f"# zerosum book checkpoint: rows={game.rows} cols={game.cols} k={game.k} depth={depth}"


def _levels(game: "ConnectX", depth: int) -> list[dict[int, tuple[int, int]]]:
    """Every position by ply up to ``depth``, deduplicated by symmetry: canonical key -> (current, mask)."""
    rows, cols = game.rows, game.cols
    levels: list[dict[int, tuple[int, int]]] = [{0: (0, 0)}]
    for ply in range(depth):
        nxt: dict[int, tuple[int, int]] = {}
        for current, mask in levels[-1].values():
            for col in range(cols):
                if mask & game.top[col]:
                    continue
                new_mask = mask | (mask + game.bottom[col])
                mover = current | (new_mask ^ mask)
                if game._has_line_bits(mover) or new_mask == game.board_mask:
                    continue  # the game is over: not a book position
                child = (mover ^ new_mask, new_mask)
                nxt.setdefault(canonical_key(child[0], child[1], rows, cols), child)
        levels.append(nxt)
    return levels


def _derive(game: "ConnectX", levels: list[dict[int, tuple[int, int]]], scores: dict[int, int]) -> Book:
    """The book of ``levels`` from the ``scores`` of its last ply (completed in place by negamax)."""
    rows, cols, cells, depth = game.rows, game.cols, game.cells, len(levels) - 1
    for ply in range(depth - 1, -1, -1):
        for key, (current, mask) in levels[ply].items():
            best = -cells
            for col in range(cols):
                if mask & game.top[col]:
                    continue
                new_mask = mask | (mask + game.bottom[col])
                mover = current | (new_mask ^ mask)
                if game._has_line_bits(mover):
                    score = (cells + 2 - (ply + 1)) // 2
                elif new_mask == game.board_mask:
                    score = 0
                else:
                    score = -scores[canonical_key(mover ^ new_mask, new_mask, rows, cols)]
                best = max(best, score)
            scores[key] = best
    keys = np.array(list(scores), dtype=np.uint64)
    values = np.array([scores[int(x)] for x in keys], dtype=np.int8)
    return Book(rows, cols, game.k, depth, keys, values)


def convert(game: "ConnectX", path: str) -> Book:
    """The book in ``path`` without searching anything: a book file (either format) as it is, or a complete
    generation checkpoint (``key score`` lines: the plies above its last derived).  A checkpoint that is
    another board's or still misses positions is one :class:`InvalidFileError`; the file is only read."""
    import re

    from ..core.files import _readable

    try:
        with open(_readable(path, "book or checkpoint"), "rb") as fh:
            head = fh.read(200)
    except OSError as exc:
        raise InvalidFileError(f"book or checkpoint {path!r} cannot be read: {exc.strerror or exc}") from None
    if not head.startswith(b"# zerosum book checkpoint:"):
        book = Book.load(path)
        if (book.rows, book.cols, book.k) != (game.rows, game.cols, game.k):
            raise InvalidFileError(f"opening book {path!r} is for a {book.rows} x {book.cols} board (k={book.k}), "
                                   f"not {game.spec}")
        return book
    found = re.search(rb"depth=(\d{1,3})\n", head)
    depth = int(found.group(1)) if found else -1
    if not 0 <= depth < game.cells:
        raise InvalidFileError(f"book checkpoint {path!r}: its first line names no depth 0..{game.cells - 1}")
    levels = _levels(game, depth)
    cells = game.cells
    scores = _read_checkpoint(path, _header(game, depth), levels[depth], -((cells - depth) // 2),
                              (cells + 1 - depth) // 2)
    if len(scores) != len(levels[depth]):
        raise InvalidFileError(f"book checkpoint {path!r} holds {len(scores)} of the {len(levels[depth])} positions "
                               f"at ply {depth}: finish the generation first")
    return _derive(game, levels, scores)
