"""A book's file: one uncompressed file the search reads in place, memory-mapped, never read whole.

Layout (little-endian)::

    offset 0    64-byte header: magic b"ZSBOOK\\r\\n", then uint32 version (1), rows, cols, k, depth, 0,
                then uint64 count, then zeros
    offset 64   count uint64 keys, sorted, no key twice
    then        count int8 scores, in the order of the keys

So a file is exactly ``64 + 9 * count`` bytes, and the same entries always make the same bytes (no time
stamp, no compression).  :func:`read` maps it copy-on-write (the arrays are plain, writable numpy arrays
to numba, so a book and no book compile to one search; nothing writes them) and checks everything a
book must be -- the header, the size, keys sorted and within the board, scores within the board's -- in
one pass over the mapped pages (about a millisecond per megabyte); the operating system then keeps in
memory only the pages that lookups touch.

Older books are ``.npz`` archives (``keys``, ``scores``, ``meta`` = rows, cols, k, depth): :func:`read`
still takes them (read whole: they are small), and ``zerosum book --from OLD -o NEW`` converts one.
"""

from __future__ import annotations

import io
import mmap
import struct
from typing import IO

import numpy as np

from ..core.files import _readable, describe_exception
from ..errors import InvalidFileError

__all__ = ["MAGIC", "VERSION", "HEADER_SIZE", "write", "read", "check_arrays"]

MAGIC = b"ZSBOOK\r\n"  # the \r\n shows a file mangled by a text-mode transfer
VERSION = 1
HEADER_SIZE = 64
_HEADER = struct.Struct("<8s6IQ")  # magic, version, rows, cols, k, depth, reserved, count
_ZIP = b"PK\x03\x04"

#: (rows, cols, k, depth, keys, scores)
Arrays = tuple[int, int, int, int, np.ndarray, np.ndarray]


def write(fh: IO[bytes], rows: int, cols: int, k: int, depth: int, keys: np.ndarray, scores: np.ndarray) -> None:
    """Write a book (``keys`` sorted, unique; ``scores`` beside them) to a binary file object."""
    header = _HEADER.pack(MAGIC, VERSION, rows, cols, k, depth, 0, keys.shape[0])
    fh.write(header.ljust(HEADER_SIZE, b"\0"))
    fh.write(np.ascontiguousarray(keys, dtype="<u8").tobytes())
    fh.write(np.ascontiguousarray(scores, dtype=np.int8).tobytes())


def read(path: str) -> Arrays:
    """A book file's board and arrays (mapped, or read whole for an old ``.npz``); any file that is not a
    well-formed book is one :class:`InvalidFileError` naming it."""
    target = _readable(path, "opening book")
    try:
        with open(target, "rb") as fh:
            head = fh.read(HEADER_SIZE)
            if head.startswith(_ZIP):
                return _read_npz(path, head + fh.read())
            return _read_mapped(path, fh, head)
    except OSError as exc:
        raise InvalidFileError(f"opening book {path!r} cannot be read: {exc.strerror or exc}") from None


def _bad(path: str, problem: str) -> InvalidFileError:
    return InvalidFileError(f"opening book {path!r} is not a zerosum book: {problem}")


def _read_mapped(path: str, fh: IO[bytes], head: bytes) -> Arrays:
    if len(head) < HEADER_SIZE or not head.startswith(MAGIC):
        raise _bad(path, f"it does not start with {MAGIC!r} and is no .npz book either")
    _, version, rows, cols, k, depth, _, count = _HEADER.unpack_from(head)
    if version != VERSION:
        raise _bad(path, f"format version {version}; this zerosum reads version {VERSION}")
    size = fh.seek(0, io.SEEK_END)
    if size != HEADER_SIZE + 9 * count:
        raise _bad(path, f"{size} bytes, but {count} entries take {HEADER_SIZE + 9 * count} (truncated or padded)")
    buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY)  # pages shared with the file until written: never
    keys = np.frombuffer(buf, dtype="<u8", count=count, offset=HEADER_SIZE)
    scores = np.frombuffer(buf, dtype=np.int8, count=count, offset=HEADER_SIZE + 8 * count)
    problem = check_arrays(rows, cols, k, depth, keys, scores, ordered=True)
    if problem:
        raise _bad(path, problem)
    return rows, cols, k, depth, keys, scores


def _read_npz(path: str, data: bytes) -> Arrays:
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            meta, keys, scores = arrays["meta"], arrays["keys"], arrays["scores"]
    except Exception as exc:  # BadZipFile, KeyError, ValueError, EOFError, zlib.error, ...
        raise InvalidFileError(f"opening book {path!r} cannot be read: {describe_exception(exc)}") from None
    if meta.shape != (4,) or meta.dtype.kind not in "iu":
        raise _bad(path, f"'meta' must hold 4 whole numbers (rows, cols, k, depth), not {meta.dtype} of shape "
                         f"{meta.shape}")
    for name, array in (("keys", keys), ("scores", scores)):
        if array.ndim != 1 or array.dtype.kind not in "iu":
            raise _bad(path, f"{name!r} must be a list of whole numbers, not {array.dtype} of shape {array.shape}")
    rows, cols, k, depth = (int(x) for x in meta)
    problem = check_arrays(rows, cols, k, depth, keys, scores, ordered=False)
    if problem:
        raise _bad(path, problem)
    order = np.argsort(keys, kind="stable")
    return (rows, cols, k, depth, np.ascontiguousarray(keys[order], dtype=np.uint64),
            np.ascontiguousarray(scores[order], dtype=np.int8))


def check_arrays(rows: int, cols: int, k: int, depth: int, keys: np.ndarray, scores: np.ndarray,
                 ordered: bool) -> str | None:
    """What is wrong with a book's board and arrays, or None; ``ordered``: the keys must come sorted."""
    if not (1 <= rows and 1 <= cols and cols * (rows + 1) <= 64 and 1 <= k <= max(rows, cols)):
        return f"no board the solver takes: rows={rows} cols={cols} k={k}"
    cells = rows * cols
    if not 0 <= depth < cells:
        return f"depth {depth} is outside 0..{cells - 1}"
    if keys.shape != scores.shape:
        return f"{keys.shape[0]} keys but {scores.shape[0]} scores"
    if not keys.size:
        return None
    bits = cols * (rows + 1)
    if keys.dtype.kind == "i" and int(keys.min()) < 0:
        return f"a key outside the {bits}-bit positions of a {rows} x {cols} board"
    if ordered:
        steps = keys[1:] > keys[:-1]
        if not steps.all():
            i = int(np.argmin(steps))
            return f"keys out of order or repeated at entry {i + 1} ({int(keys[i])} then {int(keys[i + 1])})"
        top = int(keys[-1])
    else:
        if np.unique(keys).size != keys.size:
            return "a key appears twice"
        top = int(keys.max())
    if bits < 64 and top >> bits:
        return f"a key outside the {bits}-bit positions of a {rows} x {cols} board"
    lo, hi = -(cells // 2), (cells + 1) // 2
    if int(scores.min()) < lo or int(scores.max()) > hi:
        return f"a score outside {lo}..{hi}, the scores of a {rows} x {cols} board"
    return None
