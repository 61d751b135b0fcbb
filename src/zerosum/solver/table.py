"""The transposition tables: what the search has proved about positions it met before.

One table is one uint64 array of ``2**L`` entries, no hashing library and no second array.  A position's
key (``B = cols * (rows + 1)`` bits, unique: :func:`position_key`) is first scrambled by a bijection of
B-bit numbers, ``y = key * ODD mod 2**B``; the top ``L`` bits of ``y`` give the key's slot and its other
``B - L`` bits are stored in the entry, so no two keys are ever confused.  An entry is::

    stored key bits << 20 | work << 15 | displaced << 14 | (best column + 1) << 8 | bound byte

The bound byte is 0 for an empty entry, ``s + 64`` for an upper bound ``s`` and ``s + 64 + 128`` for a
lower bound (scores lie within +-33 on any 64-bit board).  The best column (0: unknown) is the move that
refuted the position, tried first when it comes back.  ``work`` is the bit length of the node count the
result cost.

Past 64 bits (boards up to 128 bits, :mod:`zerosum.kernels.wide`) the key is a 128-bit integer; where the
slot leaves more than ``MAX_PART_BITS`` bits to store, the table is an array of shape ``(size, 2)``: the
first word is the entry above (with the low 44 stored bits), the second the other stored bits XORed with
the first word, so the two together hold the whole scrambled key (no two keys confused) and a read torn by
another thread's write fails the check.  A table large enough needs one word an entry, as on 64-bit boards,
and a 128-bit search of a board that fits 64 bits computes exactly the 64-bit slots and stored bits.

Two slots per key: a key lives in its slot or, marked displaced, in the next one (one cache line, mostly);
a new key takes whichever of the two holds less work, so the results of big searches outlive those of small
ones (on the empty board: 27% fewer nodes than one slot always replaced).

Near the root a position and its mirror image share one entry (:func:`table_key` keys the smaller of the
two; the stored column is mirrored back).  Positions with 14 or fewer empty cells use a second, small table
(``2**17`` entries, 1 MB) that stays in the CPU's cache: the many cheap positions near the end stop costing
memory round trips and stop evicting the valuable entries of the big one (-20% to -30% CPU on every set,
for +5% nodes).  The search sees both through one tuple, ``tt`` (:func:`tables`), and asks for a slot
(:func:`slot`), reads (:func:`probe`, :func:`narrow`) and writes (:func:`put`) by it; the table keeps only
proven bounds, so a search stopped half way leaves it valid.

Threads share the big table without a lock (:mod:`.parallel`: a parallel analysis, lazy SMP); each keeps
its own small table and frames.  This is safe because an entry is ONE naturally aligned 64-bit word holding
the key's stored bits and the bound together: a 64-bit aligned store or load is never torn on x86-64 or
arm64, and the search reads an entry into a register once (``e = table[idx]``), checks its key bits and
takes its bound from that same value.  So a thread reads either an older or a newer whole entry, never the
key of one position with the bound of another.  Races can only lose information: two threads storing into
one slot at once keep one of the two entries, or (``_store`` reads both slots, then writes one) leave one
key in both of its slots -- each holds a bound proven for that key, and a lookup takes either.  Every entry
read is a bound proven for the position it names, and alpha-beta returns the exact score whatever true
bounds its table holds (it only searches more when one is missing), so no race can make a score wrong.
"""

from __future__ import annotations

import mmap

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from ..kernels.connectx import ONE, U64, ZERO, bits_of, mirror
from ..kernels.wide import like
from .layout import DEFAULT_LOG_SIZE, MAX_PART_BITS, wide_entries

__all__ = ["make_table", "table_size", "position_key", "wide_entries", "DEFAULT_LOG_SIZE", "MAX_PART_BITS",
           "MAX_WIDE_PART_BITS"]

#: the odd multiplier of the key scrambler (2**64 / golden ratio)
ODD = np.uint64(0x9E3779B97F4A7C15)
#: the bound byte: an upper bound ``s`` is ``s + OFFSET``, a lower bound ``s + OFFSET + LOWER``
OFFSET = 64
LOWER = 128
#: where an entry's fields start
_PART_SHIFT = U64(20)
_WORK_SHIFT = U64(15)
_DISPLACED = U64(1 << 14)
#: on boards past 64 bits, a table too small for that has two-word entries, the second word holding the
#: rest of the stored bits (at most 64 more); it needs at least 2**(key bits - 108) entries
MAX_WIDE_PART_BITS = MAX_PART_BITS + 64
#: the stored bits an entry's first word holds
_PART_LOW = U64((1 << MAX_PART_BITS) - 1)
#: positions with at most this many empty cells use the small table of ``2**NEAR_LOG`` entries
NEAR_EMPTY = 14
NEAR_LOG = 17
#: up to this ply, a position and its mirror image share one entry
SYM_PLY = 12
#: the slot of a frame that stores nothing
NO_ENTRY = np.uint64(0xFFFFFFFFFFFFFFFF)


def table_size(log_size: int, key_bits: int = 64) -> int:
    """The entries of a table asked for ``2**log_size``: never more than there are keys."""
    return 1 << min(log_size, key_bits)


def make_table(log_size: int = DEFAULT_LOG_SIZE, key_bits: int = 49) -> np.ndarray:
    """A fresh table for keys of ``key_bits`` bits (``cols * (rows + 1)``): one uint64 per entry, or, past 64
    bits when the slot leaves more than ``MAX_PART_BITS`` bits to store, two (an array of shape ``(size, 2)``).

    Large tables ask the kernel for huge pages (``madvise``): probes land all over the table, and 2 MB
    pages spare most of the TLB misses.
    """
    most = MAX_WIDE_PART_BITS if key_bits > 64 else MAX_PART_BITS
    if key_bits - min(log_size, key_bits) > most:
        raise ValueError(f"a table of 2**{log_size} entries is too small for {key_bits}-bit keys "
                         f"(2**{key_bits - most})")
    size = table_size(log_size, key_bits)
    words = 2 if key_bits > 64 and key_bits - min(log_size, key_bits) > MAX_PART_BITS else 1
    nbytes = size * 8 * words
    if nbytes >= 1 << 22:
        try:
            buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            if hasattr(mmap, "MADV_HUGEPAGE"):
                buf.madvise(mmap.MADV_HUGEPAGE)
            flat = np.frombuffer(buf, dtype=np.uint64)
            return flat if words == 1 else flat.reshape(size, 2)
        except (OSError, ValueError, AttributeError):  # pragma: no cover - no mmap/madvise here
            pass
    return np.zeros(size if words == 1 else (size, 2), dtype=np.uint64)


@njit(cache=True)
def near_size(rows: int, cols: int, size: int) -> int:
    """The small table's entries: ``2**NEAR_LOG``, no more than the main table, no fewer than keys need
    (past 64 bits with two-word entries: :func:`wide_entries`)."""
    most = MAX_WIDE_PART_BITS if rows * cols + cols > 64 else MAX_PART_BITS
    return max(min(1 << NEAR_LOG, size), 1 << max(0, rows * cols + cols - most))


def position_key(current: int, mask: int) -> int:
    """The unique key of a position: ``current + mask`` (the sentinel bits make it one-to-one)."""
    return current + mask


# ---- compiled pieces ----------------------------------------------------------------------------


@intrinsic
def _prefetch(typingctx, arr, idx):  # type: ignore[no-untyped-def]
    """Ask the CPU to start loading ``arr[idx]`` into the cache (a hint: no effect on results)."""
    sig = types.void(arr, types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        first = [args[1]] + [ir.Constant(args[1].type, 0)] * (aryty.ndim - 1)  # two-word entries: the first
        ptr = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, aryty, ary, first, wraparound=False
        )
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")  # type: ignore[no-untyped-call]
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(1), i32(3), i32(1)])  # write, keep, data
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, inline="always")
def tables(near, bmask, shift, pmask):  # type: ignore[no-untyped-def]
    """``tt``: how a scrambled key splits into slot and stored bits in the main table and the small one,
    ``near``: ``(key mask, shift, stored-bits mask, slot mask, near shift, near stored-bits mask, near slot
    mask)``.  The tables themselves travel beside it: numba counts the references to an array taken out
    of a tuple, which costs atomic operations at every node.
    """
    nshift = bits_of(bmask) - bits_of(U64(near.shape[0] - 1))
    one = like(bmask, 1)
    return (bmask, shift, pmask, like(ZERO, bmask >> U64(shift)), nshift, (one << U64(nshift)) - one,
            U64(near.shape[0] - 1))


@njit(cache=True, inline="always")
def table_key(cur: np.uint64, msk: np.uint64, ply: int, h: int, cols: int) -> tuple[np.uint64, int, bool]:
    """``(key, flip, symmetric)``: up to ``SYM_PLY`` the smaller key of the position and its mirror image
    (``flip``: the mirror's), and whether the two are one position."""
    key = cur + msk
    if ply > SYM_PLY:
        return key, 0, False
    mkey = mirror(cur, h, cols) + mirror(msk, h, cols)
    if mkey < key:
        return mkey, 1, False
    return key, 0, mkey == key


@njit(cache=True, inline="always")
def book_find(keys: np.ndarray, cur: np.uint64, msk: np.uint64, h: int, cols: int) -> int:
    """The index of a position in an opening book's sorted canonical keys (the smaller of its key and its
    mirror image's, as :func:`zerosum.solver.book.canonical_key`), found by binary search; -1 when absent."""
    key = cur + msk
    mkey = mirror(cur, h, cols) + mirror(msk, h, cols)
    if mkey < key:
        key = mkey
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if like(key, keys[mid]) < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < keys.shape[0] and like(key, keys[lo]) == key:
        return lo
    return -1


@njit(cache=True, inline="always")
def slot(tt, key, in_near):  # type: ignore[no-untyped-def]
    """``(slot, stored bits)`` of ``key`` in the small table (``in_near``) or the main one."""
    y = (key * like(key, ODD)) & tt[0]
    if in_near:
        return like(ZERO, y >> U64(tt[4])), y & tt[5]
    return like(ZERO, y >> U64(tt[1])), y & tt[2]


@njit(cache=True, inline="always")
def prefetch(table, near, tt, key, in_near):  # type: ignore[no-untyped-def]
    """Start loading ``key``'s slot into the cache, to be read a little later."""
    idx, _ = slot(tt, key, in_near)
    if in_near:
        _prefetch(near, np.int64(idx))  # type: ignore[call-arg]
    else:
        _prefetch(table, np.int64(idx))  # type: ignore[call-arg]


def _lookup(table: np.ndarray, idx: np.uint64, part: np.uint64, lowmask: np.uint64) -> np.uint64:
    """The entry of key ``(idx, part)``: in its own slot, or displaced to the next one; 0 when absent."""
    raise NotImplementedError("for compiled code")  # pragma: no cover


def _store(table: np.ndarray, idx: np.uint64, part: np.uint64, lowmask: np.uint64, low: np.uint64,
           work: int) -> None:
    """Store ``low`` (``(column + 1) << 8 | bound byte``) for key ``(idx, part)``.

    The key's old entry is overwritten if it has one in either slot; otherwise the slot whose entry cost
    less work is (an empty slot costs none), so the results of big searches stay longest.
    """
    raise NotImplementedError("for compiled code")  # pragma: no cover


@overload(_lookup, inline="always")
def _lookup_impl(table, idx, part, lowmask):  # type: ignore[no-untyped-def]
    if table.ndim == 1:
        def one_word(table, idx, part, lowmask):  # type: ignore[no-untyped-def]
            p = like(ZERO, part)
            e: np.uint64 = table[idx]
            if (e >> _PART_SHIFT) == p and (e & _DISPLACED) == ZERO and (e & U64(0xFF)) != ZERO:
                return e
            e = table[(idx + ONE) & lowmask]
            if (e >> _PART_SHIFT) == p and (e & _DISPLACED) != ZERO and (e & U64(0xFF)) != ZERO:
                return e
            return ZERO
        return one_word

    def two_words(table, idx, part, lowmask):  # type: ignore[no-untyped-def]
        # the second word is the rest of the stored bits xor the first word: a torn read (another thread
        # writing the entry between the two loads) fails the check unless 64 bits happen to agree
        p, rest = like(ZERO, part) & _PART_LOW, like(ZERO, part >> U64(MAX_PART_BITS))
        e: np.uint64 = table[idx, 0]
        if ((e >> _PART_SHIFT) == p and (e & _DISPLACED) == ZERO and (e & U64(0xFF)) != ZERO
                and table[idx, 1] ^ e == rest):
            return e
        i2 = (idx + ONE) & lowmask
        e = table[i2, 0]
        if ((e >> _PART_SHIFT) == p and (e & _DISPLACED) != ZERO and (e & U64(0xFF)) != ZERO
                and table[i2, 1] ^ e == rest):
            return e
        return ZERO
    return two_words


@overload(_store, inline="always")
def _store_impl(table, idx, part, lowmask, low, work):  # type: ignore[no-untyped-def]
    if table.ndim == 1:
        def one_word(table, idx, part, lowmask, low, work):  # type: ignore[no-untyped-def]
            p = like(ZERO, part)
            new = (p << _PART_SHIFT) | (U64(work) << _WORK_SHIFT) | low
            i2 = (idx + ONE) & lowmask
            e0 = table[idx]
            e1 = table[i2]
            if (e0 >> _PART_SHIFT) == p and (e0 & _DISPLACED) == ZERO:
                table[idx] = new
            elif (e1 >> _PART_SHIFT) == p and (e1 & _DISPLACED) != ZERO:
                table[i2] = new | _DISPLACED
            elif (e0 >> _WORK_SHIFT) & U64(31) <= (e1 >> _WORK_SHIFT) & U64(31):
                table[idx] = new
            else:
                table[i2] = new | _DISPLACED
        return one_word

    def two_words(table, idx, part, lowmask, low, work):  # type: ignore[no-untyped-def]
        p, rest = like(ZERO, part) & _PART_LOW, like(ZERO, part >> U64(MAX_PART_BITS))
        new = (p << _PART_SHIFT) | (U64(work) << _WORK_SHIFT) | low
        i2 = (idx + ONE) & lowmask
        e0 = table[idx, 0]
        e1 = table[i2, 0]
        mine0 = ((e0 >> _PART_SHIFT) == p) & ((e0 & _DISPLACED) == ZERO) & (table[idx, 1] ^ e0 == rest)
        mine1 = ((e1 >> _PART_SHIFT) == p) & ((e1 & _DISPLACED) != ZERO) & (table[i2, 1] ^ e1 == rest)
        # as the one-word store: the key's own slot, else the one holding less work (written without
        # branches: numba's inlining loses variables assigned in them)
        second = U64((not mine0) & (mine1 | ((e0 >> _WORK_SHIFT) & U64(31) > (e1 >> _WORK_SHIFT) & U64(31))))
        i = idx ^ ((idx ^ i2) & (ZERO - second))
        new |= _DISPLACED * second
        table[i, 0] = new
        table[i, 1] = rest ^ new
    return two_words


@njit(cache=True, inline="always")
def probe(table, near, tt, idx, part, in_near):  # type: ignore[no-untyped-def]
    """The entry of ``(slot, stored bits)`` in the small table (``in_near``) or the main one; 0 when absent."""
    if in_near:
        return _lookup(near, idx, part, tt[6])
    return _lookup(table, idx, part, tt[3])


@njit(cache=True, inline="always")
def put(table, near, tt, in_near, idx, part, low, work):  # type: ignore[no-untyped-def]
    """Store ``low`` (:func:`lower_bound` or :func:`upper_bound`) at ``(slot, stored bits)``, ``work`` the
    bit length of the nodes it cost (:func:`work_of`)."""
    if in_near:
        _store(near, idx, part, tt[6], low, work)
    else:
        _store(table, idx, part, tt[3], low, work)


@njit(cache=True, inline="always")
def work_of(nodes: int) -> int:
    """The work of a search of ``nodes`` nodes for the table's replacement: its bit length, at most 31."""
    return min(bits_of(U64(nodes)), 31)


@njit(cache=True, inline="always")
def lower_bound(score: int, col: int) -> np.uint64:
    """The low bits of an entry saying ``score`` is a lower bound, reached by playing ``col``."""
    return U64((col + 1) << 8 | (score + OFFSET + LOWER))


@njit(cache=True, inline="always")
def upper_bound(score: int) -> np.uint64:
    """The low bits of an entry saying ``score`` is an upper bound (no best column)."""
    return U64(score + OFFSET)


@njit(cache=True, inline="always")
def child_upper(e: np.uint64) -> int:
    """A child's upper bound seen from its parent: a lower bound ``-u``; ``-LOWER`` when ``e`` has none."""
    t = int(e & U64(0xFF))
    if 0 < t < LOWER:
        return OFFSET - t
    return -LOWER


@njit(cache=True, inline="always")
def narrow(e: np.uint64, lo: int, hi: int, flip: int, cols: int) -> tuple[int, int, int]:
    """``(lo, hi, best column)``: the score range ``lo..hi`` narrowed by entry ``e`` and the column it
    remembers (-1: none), mirrored back when the entry is the mirror image's (``flip``)."""
    if e == ZERO:
        return lo, hi, -1
    t = int(e & U64(0xFF))
    hint = int((e >> U64(8)) & U64(0xFF)) - 1
    if flip and hint >= 0:
        hint = cols - 1 - hint
    if t >= LOWER:
        lo = max(lo, t - LOWER - OFFSET)
    else:
        hi = min(hi, t - OFFSET)
    return lo, hi, hint
