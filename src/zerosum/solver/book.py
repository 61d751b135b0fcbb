"""The opening book: exact scores of every early position, so the hardest solves answer at once.

A book covers every position up to ``depth`` plies (reachable in play that stops at a win, the side to
move unable to win at once or not).  Positions and their mirror images share one entry: the key is
``min(current + mask, mirror(current) + mirror(mask))``.  Only the positions at ``depth`` are searched;
shallower ones follow by negamax over the book itself.

File format (``.npz``): ``keys`` (uint64, sorted), ``scores`` (int8) and ``meta`` = (rows, cols, k, depth).
"""

from __future__ import annotations

import os
import time
from importlib import resources
from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..games.connectx import ConnectX
    from .solver import Solver

__all__ = ["Book", "mirror", "canonical_key", "default_path", "load_default", "generate"]


def mirror(bits: int, rows: int, cols: int) -> int:
    """The bitboard mirrored left to right."""
    h = rows + 1
    col = (1 << h) - 1
    out = 0
    for c in range(cols):
        out |= ((bits >> (c * h)) & col) << ((cols - 1 - c) * h)
    return out


def canonical_key(current: int, mask: int, rows: int, cols: int) -> int:
    """One key for a position and its mirror image."""
    return min(current + mask, mirror(current, rows, cols) + mirror(mask, rows, cols))


class Book:
    """Sorted canonical keys and their scores for one board."""

    def __init__(self, rows: int, cols: int, k: int, depth: int, keys: np.ndarray, scores: np.ndarray) -> None:
        order = np.argsort(keys)
        self.rows, self.cols, self.k, self.depth = rows, cols, k, depth
        self.keys = np.ascontiguousarray(keys[order], dtype=np.uint64)
        self.scores = np.ascontiguousarray(scores[order], dtype=np.int8)

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

    def save(self, path: str) -> None:
        meta = np.array([self.rows, self.cols, self.k, self.depth], dtype=np.int64)
        with open(path, "wb") as fh:
            np.savez_compressed(fh, keys=self.keys, scores=self.scores, meta=meta)

    @classmethod
    def load(cls, path: str) -> "Book":
        from ..errors import InvalidSpecError

        try:
            with np.load(path) as data:
                rows, cols, k, depth = (int(x) for x in data["meta"])
                return cls(rows, cols, k, depth, data["keys"], data["scores"])
        except (OSError, KeyError, ValueError) as exc:
            raise InvalidSpecError(f"cannot read the opening book {path!r}: {exc}") from None


def default_name(rows: int, cols: int, k: int) -> str:
    return f"book-{rows}x{cols}-k{k}.npz"


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


def _read_checkpoint(path: str, header: str) -> dict[int, int]:
    """The ``key score`` lines a generation wrote so far (a torn last line is ignored)."""
    from ..errors import InvalidSpecError

    found: dict[int, int] = {}
    if not os.path.exists(path):
        return found
    with open(path) as fh:
        lines = fh.read().split("\n")
    if lines[0] != header:
        raise InvalidSpecError(f"{path} belongs to another generation ({lines[0]!r}, not {header!r}); remove it")
    for number, line in enumerate(lines[1:-1], 2):  # the text after the last newline may be torn
        parts = line.split()
        try:
            key, score = int(parts[0]), int(parts[1])
        except (IndexError, ValueError):
            raise InvalidSpecError(f"{path}, line {number}: not 'key score': {line!r}") from None
        found[key] = score
    return found


_WORKER: "Solver | None" = None


def _worker_start(spec: str, tt_size: int) -> None:
    global _WORKER
    from .solver import Solver

    _WORKER = Solver(spec, tt_size=tt_size, book=False)


def _worker_solve(item: tuple[int, int, int]) -> tuple[int, int]:
    key, current, mask = item
    assert _WORKER is not None
    return key, _WORKER.solve_bits(current, mask)


def generate(
    solver: "Solver", depth: int, progress: Callable[[int, int, float], None] | None = None,
    checkpoint: str | None = None, jobs: int = 1,
) -> Book:
    """A book of every position up to ``depth`` plies, solved with ``solver`` (its own book unused).

    ``progress(done, total, seconds)`` is called after each position searched at ``depth``.
    ``checkpoint``: a text file of ``key score`` lines, one appended (and flushed) per position searched;
    positions already in it are not searched again, so an interrupted generation resumes where it stopped.
    ``jobs > 1`` searches in that many worker processes, each with a table the size of ``solver``'s.
    """
    game = solver.game
    rows, cols = game.rows, game.cols
    cells = game.cells
    # every position by ply, deduplicated by symmetry: canonical key -> (current, mask)
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
    last = levels[depth]
    scores: dict[int, int] = {}
    header = f"# zerosum book checkpoint: rows={rows} cols={cols} k={game.k} depth={depth}"
    if checkpoint is not None:
        scores = {key: s for key, s in _read_checkpoint(checkpoint, header).items() if key in last}
    saved_book, solver.book = solver.book, None
    out = None
    if checkpoint is not None:  # written afresh: what it held, less any torn last line
        out = open(checkpoint, "w")
        out.write(header + "\n" + "".join(f"{key} {s}\n" for key, s in scores.items()))
        out.flush()
    try:
        start = time.perf_counter()
        todo = [(key, current, mask) for key, (current, mask) in sorted(last.items()) if key not in scores]
        done = len(last) - len(todo)

        def record(key: int, score: int) -> None:
            nonlocal done
            scores[key] = score
            done += 1
            if out is not None:
                out.write(f"{key} {score}\n")
                out.flush()
            if progress is not None:
                progress(done, len(last), time.perf_counter() - start)

        if jobs > 1 and len(todo) > 1:
            import multiprocessing

            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(jobs, _worker_start, (game.spec, int(solver.table.shape[0]))) as pool:
                for key, score in pool.imap_unordered(_worker_solve, todo):
                    record(key, score)
        else:
            for key, current, mask in todo:
                record(key, solver.solve_bits(current, mask))
    finally:
        solver.book = saved_book
        if out is not None:
            out.close()
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
