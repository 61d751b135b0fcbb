"""The solver's search: negamax with alpha-beta on 64-bit Connect-X bitboards, compiled by numba.

A position is ``(current, mask, moves)``: the side to move's stones, all stones, and the number of stones
played -- always seen from the side to move, so the search has one code path.  The score convention is
DESIGN.md's: a win with the stone of ply ``p`` (plies counted from 1) scores ``(cells + 2 - p) // 2``, a
loss is the negative of the opponent's win, a draw 0.

The pieces, each a few lines below:

* ``win_cells``: the empty cells where one more stone completes ``k`` in a row (a fast path for k = 4);
* ``non_losing``: the playable cells that do not hand the opponent an immediate win (and the forced
  block when the opponent threatens one); an empty result means every move loses;
* the transposition table: one uint64 array of ``2**L`` entries.  The key (``B = cols * (rows + 1)``
  bits) is first scrambled by a bijection of B-bit numbers, ``y = key * ODD mod 2**B``; the top ``L`` bits
  of ``y`` give the key's slot and its other ``B - L`` bits are stored in the entry with the bound (lower or
  upper), the column that refuted the position and the work it took (the bit length of its node count).
  A key lives in its slot or, marked displaced, in the next one; a new key takes whichever of the two
  holds less work, so the results of big searches outlive those of small ones (on the empty board: 27%
  fewer nodes than one slot always replaced).  No two keys are ever confused;
* positions with 14 or fewer empty cells use a second, small table (2**17 entries, 1 MB) that stays in
  the CPU's cache, so the many cheap positions near the end stop costing memory round trips and stop
  evicting the valuable entries of the big table (-20% to -30% CPU on every set, for +5% nodes);
* nodes with a single move (a forced block) go straight on without the table, and from ply 20 a side
  with no line left open (even filling every empty cell) is known not to win;
* while ordering, a move after which the opponent has no move that does not lose at once wins with our
  next stone -- the best score left, so the node ends there; when no move does, the best score drops by
  one (Steininger's static look-ahead: -40% to -57% nodes on the easy sets, -20% to -28% on the others);
* move ordering: that refuting column first, then the moves that create the most winning cells,
  centre-first between equals; the children's table entries are prefetched while ordering;
* the window is clamped by the best and worst scores still possible, and enhanced transposition cut-offs
  (a child whose stored bound already refutes the window) are tried near the root;
* ``_solve``: the exact score by a sequence of null-window searches; a weak solve asks for a quick win and
  a quick loss first, then only for the sign.

Everything per solve runs in compiled code; Python only prepares arrays.  A search given a node budget
(``stats[1]``) stops when it is spent and, called again, goes on exactly where it stopped: ``Solver``
runs every search in slices of ``Solver.slice_nodes`` nodes this way, so Ctrl-C is seen between them.
"""

from __future__ import annotations

import mmap

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .bitboard import ONE, U64, ZERO, geometry, has_line, shl, shr

__all__ = [
    "solve_position",
    "prepare",
    "solve_prepared",
    "solve_many",
    "make_table",
    "table_size",
    "position_key",
    "DEFAULT_LOG_SIZE",
    "ABORTED",
    "STATS_SIZE",
]

#: default table size: 2**24 entries of one 64-bit word each (128 MB)
DEFAULT_LOG_SIZE = 24
#: the odd multiplier of the key scrambler (2**64 / golden ratio)
_ODD = np.uint64(0x9E3779B97F4A7C15)

# table byte: 0 empty; an upper bound ``s`` is stored as ``s + _OFFSET``, a lower bound as
# ``s + _OFFSET + _LOWER`` (scores lie within +-33 on any 64-bit board, so both fit one byte)
_OFFSET = 64
_LOWER = 128
#: what a search returns when it ran out of its node budget (``stats[1]``), beyond every score
ABORTED = 1 << 20
#: the length of a ``stats`` array that lets a search stop and go on later (shorter ones just stop):
#: ``[0]`` nodes searched, ``[1]`` stop once ``[0]`` reaches it (0: no limit), ``[2]`` the stopped
#: frame + 1 (0: not stopped), ``[3]`` its node count, ``[4:8]`` the stopped solve's lo, hi, phase and
#: window, ``[8]`` (``solve_many``) the value of ``[0]`` when the current position began
STATS_SIZE = 9
#: up to this ply, a position and its mirror image share one table entry, and a symmetric position
#: searches only half of its moves
_SYM_PLY = 12
#: from this ply on, a side that has no line left open is known not to win
_DRAW_PLY = 20
#: a table entry: stored key bits << 20 | work << 15 | displaced << 14 | (column + 1) << 8 | bound byte
_PART_SHIFT = U64(20)
_WORK_SHIFT = U64(15)
_DISPLACED = U64(1 << 14)
#: the most key bits an entry stores: a table needs at least 2**(key bits - 44) entries
MAX_PART_BITS = 44
#: positions with at most this many empty cells use the small table of ``2**_NEAR_LOG`` entries
_NEAR_EMPTY = 14
_NEAR_LOG = 17
#: the table index of a frame that stores nothing
_NO_ENTRY = np.uint64(0xFFFFFFFFFFFFFFFF)
#: enhanced transposition cut-offs are tried at nodes with at least this many empty cells
_ETC_EMPTY = 20
# enhanced transposition cut-offs look children up in the main table only
assert _ETC_EMPTY - 1 > _NEAR_EMPTY


def table_size(log_size: int, key_bits: int = 64) -> int:
    """The entries of a table asked for ``2**log_size``: never more than there are keys."""
    return 1 << min(log_size, key_bits)


def make_table(log_size: int = DEFAULT_LOG_SIZE, key_bits: int = 49) -> np.ndarray:
    """A fresh table for keys of ``key_bits`` bits (``cols * (rows + 1)``): one uint64 per entry.

    An entry is ``stored key bits << 20 | work << 15 | displaced << 14 | (best column + 1) << 8 | bound
    byte`` (0: empty); a key's two slots are neighbours, so a probe mostly reads one cache line.  The best
    column (0: unknown) is the move that refuted the position last time.  Large
    tables ask the kernel for huge pages (``madvise``): probes land all over the table, and 2 MB pages
    spare most of the TLB misses.
    """
    if key_bits - min(log_size, key_bits) > MAX_PART_BITS:
        raise ValueError(f"a table of 2**{log_size} entries is too small for {key_bits}-bit keys "
                         f"(2**{key_bits - MAX_PART_BITS})")
    size = table_size(log_size, key_bits)
    nbytes = size * 8
    if nbytes >= 1 << 22:
        try:
            buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            if hasattr(mmap, "MADV_HUGEPAGE"):
                buf.madvise(mmap.MADV_HUGEPAGE)
            return np.frombuffer(buf, dtype=np.uint64)
        except (OSError, ValueError, AttributeError):  # pragma: no cover - no mmap/madvise here
            pass
    return np.zeros(size, dtype=np.uint64)


def position_key(current: int, mask: int) -> int:
    """The unique key of a position: ``current + mask`` (the sentinel bits make it one-to-one)."""
    return current + mask


# ---- bitboard pieces --------------------------------------------------------------------------


@intrinsic
def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's population count (one ``popcnt`` instruction where the CPU has it)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _prefetch(typingctx, arr, idx):  # type: ignore[no-untyped-def]
    """Ask the CPU to start loading ``arr[idx]`` into the cache (a hint: no effect on results)."""
    sig = types.void(arr, types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, aryty, ary, [args[1]], wraparound=False
        )
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")  # type: ignore[no-untyped-call]
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(1), i32(3), i32(1)])  # write, keep, data
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):  # type: ignore[no-untyped-def]
    """LLVM's count of leading zero bits (64 for 0)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True, inline="always")
def _work(nodes: int) -> int:
    """The work of a search of ``nodes`` nodes for the table's replacement: its bit length, at most 31."""
    return min(64 - int(_ctlz(U64(nodes))), 31)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def _lookup(table: np.ndarray, idx: np.uint64, part: np.uint64, lowmask: np.uint64) -> np.uint64:
    """The entry of key ``(idx, part)``: in its own slot, or displaced to the next one; 0 when absent."""
    e: np.uint64 = table[idx]
    if (e >> _PART_SHIFT) == part and (e & _DISPLACED) == ZERO and (e & U64(0xFF)) != ZERO:
        return e
    e = table[(idx + ONE) & lowmask]
    if (e >> _PART_SHIFT) == part and (e & _DISPLACED) != ZERO and (e & U64(0xFF)) != ZERO:
        return e
    return ZERO


@njit(cache=True, inline="always")
def _store(table: np.ndarray, idx: np.uint64, part: np.uint64, lowmask: np.uint64, low: np.uint64,
           work: int) -> None:
    """Store ``low`` (``(column + 1) << 8 | bound byte``) for key ``(idx, part)``.

    The key's old entry is overwritten if it has one in either slot; otherwise the slot whose entry cost
    less work is (an empty slot costs none), so the results of big searches stay longest.
    """
    new = (part << _PART_SHIFT) | (U64(work) << _WORK_SHIFT) | low
    i2 = (idx + ONE) & lowmask
    e0 = table[idx]
    e1 = table[i2]
    if (e0 >> _PART_SHIFT) == part and (e0 & _DISPLACED) == ZERO:
        table[idx] = new
    elif (e1 >> _PART_SHIFT) == part and (e1 & _DISPLACED) != ZERO:
        table[i2] = new | _DISPLACED
    elif (e0 >> _WORK_SHIFT) & U64(31) <= (e1 >> _WORK_SHIFT) & U64(31):
        table[idx] = new
    else:
        table[i2] = new | _DISPLACED


@njit(cache=True, inline="always")
def _put(table: np.ndarray, near: np.ndarray, in_near: bool, idx: np.uint64, part: np.uint64, lowmask: np.uint64,
         nlowmask: np.uint64, low: np.uint64, work: int) -> None:
    """``_store`` into the small table (``in_near``) or the main one."""
    if in_near:
        _store(near, idx, part, nlowmask, low, work)
    else:
        _store(table, idx, part, lowmask, low, work)


@njit(cache=True, inline="always")
def bits_of(x: np.uint64) -> int:
    """The bit length of ``x``."""
    return 64 - int(_ctlz(x))  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def popcnt(x: np.uint64) -> int:
    """The number of set bits of ``x``."""
    return int(_ctpop(x))  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def _win_cells4(s: np.uint64, h: int) -> np.uint64:
    """Cells (possibly occupied, possibly off the board) that complete four in a row for ``s``."""
    # vertical: three stones right below
    r = (s << ONE) & (s << U64(2)) & (s << U64(3))
    for d in (h, h - 1, h + 1):
        a = shl(s, d) & shl(s, 2 * d)  # two before
        r |= a & shl(s, 3 * d)
        r |= a & shr(s, d)
        b = shr(s, d) & shr(s, 2 * d)  # two after
        r |= b & shl(s, d)
        r |= b & shr(s, 3 * d)
    return r


@njit(cache=True, inline="always")
def _win_cells4_small(s: np.uint64, h: int) -> np.uint64:
    """``_win_cells4`` for columns of at most 19 bits: every shift below 64, so no guard."""
    r = (s << ONE) & (s << U64(2)) & (s << U64(3))
    for dd in (h, h - 1, h + 1):
        d = U64(dd)
        a = (s << d) & (s << (d + d))
        r |= a & (s << (d + d + d))
        r |= a & (s >> d)
        b = (s >> d) & (s >> (d + d))
        r |= b & (s << d)
        r |= b & (s >> (d + d + d))
    return r


@njit(cache=True)
def _win_cells_any(s: np.uint64, h: int, k: int) -> np.uint64:
    r = ZERO
    for d in (1, h, h - 1, h + 1):
        for m in range(k):  # m stones after the cell along d, k-1-m before it
            c = ~ZERO
            for j in range(1, m + 1):
                c &= shr(s, j * d)
            for j in range(1, k - m):
                c &= shl(s, j * d)
            r |= c
    return r


@njit(cache=True, inline="always")
def win_cells(s: np.uint64, mask: np.uint64, h: int, k: int, board: np.uint64) -> np.uint64:
    """The empty cells of the board where one more stone of ``s`` makes ``k`` in a row."""
    if k == 4 and h < 20:
        r = _win_cells4_small(s, h)
    elif k == 4:
        r = _win_cells4(s, h)
    else:
        r = _win_cells_any(s, h, k)
    return r & (board ^ mask)


@njit(cache=True, inline="always")
def _open_line(s: np.uint64, h: int, k: int, rows: int) -> bool:
    """Whether ``s`` holds ``k`` in a row (for k = 4 on columns under 20 bits: one pair of shifts each way)."""
    if k == 4 and h < 20:
        for dd in (1, h, h - 1, h + 1):
            d = U64(dd)
            m = s & (s >> d)
            if m & (m >> (d + d)):
                return True
        return False
    return has_line(s, rows, k)


@njit(cache=True, inline="always")
def non_losing(mask: np.uint64, opp_win: np.uint64, bottom: np.uint64, board: np.uint64) -> np.uint64:
    """Playable cells that do not let the opponent win at once (0: every move loses).

    ``opp_win``: the opponent's winning cells.  The caller guarantees the side to move cannot win at once.
    """
    possible = (mask + bottom) & board
    forced = possible & opp_win
    if forced:
        if forced & (forced - ONE):
            return ZERO  # two threats: cannot block both
        possible = forced
    return possible & ~(opp_win >> ONE)  # never play right below an opponent's winning cell


@njit(cache=True, inline="always")
def _mirror(x: np.uint64, h: int, cols: int) -> np.uint64:
    """The bitboard mirrored left to right."""
    col = (ONE << U64(h)) - ONE
    out = ZERO
    for c in range(cols):
        out |= ((x >> U64(c * h)) & col) << U64((cols - 1 - c) * h)
    return out


# ---- the search ---------------------------------------------------------------------------------


@njit(cache=True)
def _negamax(
    current: np.uint64,
    mask: np.uint64,
    moves0: int,
    alpha0: int,
    beta0: int,
    geo: tuple[int, int, int, int, np.uint64, np.uint64, np.uint64, int, np.uint64],
    table: np.ndarray,
    order: np.ndarray,
    colmask: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    stats: np.ndarray,
    resume: bool,
) -> int:
    """The score of a position whose side to move cannot win at once, within ``(alpha0, beta0)``.

    Fail-soft alpha-beta: a result ``<= alpha0`` is an upper bound, ``>= beta0`` a lower bound, else exact.
    The recursion runs on an explicit stack (frame ``d`` is the position ``d`` plies below the root):
    no call per node, and numba can cache it.  Out of budget it returns ``ABORTED``, leaving its frames
    in ``work`` and its depth and node count in ``stats`` (see ``STATS_SIZE``); ``resume=True`` goes on
    from there, exactly as if it had never stopped.
    """
    rows, cols, k, cells, bottom, board, bmask, shift, pmask = geo
    h = rows + 1
    lowmask = bmask >> U64(shift)  # table indices
    # per frame: the ordered moves, their order scores and winning cells; (cur, mask, stored key bits,
    # index, opponent's winning cells) and (alpha, beta, moves, move being searched, mirrored key?, nodes
    # before it)
    mv, sc, wc, fu, fi, near = work
    # positions with few empty cells use ``near``, a small table that stays in the CPU's cache
    nshift = bits_of(bmask) - bits_of(U64(near.shape[0] - 1))
    npmask = (ONE << U64(nshift)) - ONE
    nlowmask = U64(near.shape[0] - 1)
    pausable = stats.shape[0] >= STATS_SIZE
    if resume and pausable and stats[2] > 0:  # go on where the last call stopped
        d = stats[2] - 1
        nodes = stats[3]
        stats[2] = 0
    else:
        fu[0, 0] = current
        fu[0, 1] = mask
        fi[0, 0] = alpha0
        fi[0, 1] = beta0
        d = 0
        nodes = 0
    base = nodes
    # the node count at which to stop; -1: no limit
    budget = base + max(stats[1] - stats[0], 0) if stats.shape[0] > 1 and stats[1] > 0 else -1
    while True:
        if nodes == budget:
            stats[0] += nodes - base
            if pausable:
                stats[2] = d + 1
                stats[3] = nodes
            return ABORTED  # the table keeps only proven bounds, so it stays valid
        # ---- enter the node of frame d: either a value v at once, or its moves in order
        cur = fu[d, 0]
        msk = fu[d, 1]
        moves = moves0 + d
        alpha = fi[d, 0]
        beta = fi[d, 1]
        fi[d, 5] = nodes
        nodes += 1
        done = True
        v = 0
        if d == 0:
            fu[0, 4] = win_cells(cur ^ msk, msk, h, k, board)
        nxt = non_losing(msk, fu[d, 4], bottom, board)
        if nxt == ZERO:
            v = -((cells - moves) // 2)  # the opponent wins with its next stone
        elif moves >= cells - 2:
            v = 0  # the opponent cannot win with the last stone, and we could not win before
        else:
            lo = -((cells - 2 - moves) // 2)  # the opponent cannot win with its next stone
            hi = (cells - 1 - moves) // 2  # we cannot win with this stone
            if moves >= _DRAW_PLY:
                # a side with no line left open, even filling every empty cell, cannot win
                empty = board ^ msk
                if hi > 0 and not _open_line(cur | empty, h, k, rows):
                    hi = 0
                if lo < 0 and not _open_line((cur ^ msk) | empty, h, k, rows):
                    lo = 0
            # a node with one move (a forced block) goes straight on, without the table
            single = (nxt & (nxt - ONE)) == ZERO
            in_near = cells - moves <= _NEAR_EMPTY  # the small table holds this position
            flip = 0  # 1: the table holds this position as its mirror image (near the root only)
            sym = False
            idx = _NO_ENTRY
            part = ZERO
            hint = -1  # the column that refuted this position before, searched first
            if not single:
                key = cur + msk
                if moves <= _SYM_PLY:
                    mkey = _mirror(cur, h, cols) + _mirror(msk, h, cols)
                    sym = mkey == key
                    if mkey < key:
                        key = mkey
                        flip = 1
                y = (key * _ODD) & bmask
                if not in_near:
                    idx = y >> U64(shift)
                    part = y & pmask
                    e = _lookup(table, idx, part, lowmask)
                else:
                    idx = y >> U64(nshift)
                    part = y & npmask
                    e = _lookup(near, idx, part, nlowmask)
                if e != ZERO:
                    t = int(e & U64(0xFF))
                    hint = int((e >> U64(8)) & U64(0xFF)) - 1
                    if flip and hint >= 0:
                        hint = cols - 1 - hint
                    if t >= _LOWER:
                        t -= _LOWER + _OFFSET
                        if lo < t:
                            lo = t
                    else:
                        t -= _OFFSET
                        if hi > t:
                            hi = t
            if alpha < lo:
                alpha = lo
            if beta > hi:
                beta = hi
            if alpha >= beta:
                v = alpha if alpha == lo else beta
            else:
                done = False
                # order: most winning cells after the move first, centre first between equals
                n = 0
                if single:
                    mv[d, 0] = nxt
                    wc[d, 0] = win_cells(cur | nxt, msk, h, k, board)
                    sc[d, 0] = 0
                    n = 1
                # a position equal to its mirror image needs only the moves of one half
                win_col = -1  # a move after which every reply loses at once
                for i in range(cols if n == 0 else 0):
                    c = order[i]
                    m = nxt & colmask[c]
                    if m and not (sym and 2 * c > cols - 1):
                        child_mask = msk | m
                        ckey = (cur ^ msk) + child_mask
                        if moves < _SYM_PLY:  # the child's entry may be under its mirror image
                            ckey = min(ckey, _mirror(cur ^ msk, h, cols) + _mirror(child_mask, h, cols))
                        if cells - moves > _NEAR_EMPTY + 1:
                            _prefetch(table, np.int64(((ckey * _ODD) & bmask) >> U64(shift)))  # type: ignore[call-arg]
                        else:
                            _prefetch(near, np.int64(((ckey * _ODD) & bmask) >> U64(nshift)))  # type: ignore[call-arg]
                        w = win_cells(cur | m, msk, h, k, board)
                        if non_losing(child_mask, w & ~m, bottom, board) == ZERO:
                            win_col = c
                            break
                        # the winning cells it makes, less those right above an opponent's (never playable
                        # by us without the opponent winning first); the order position breaks ties
                        s = popcnt(w & ~(fu[d, 4] << ONE)) * 64 + 63 - i
                        if c == hint:
                            s += 1 << 20
                        j = n
                        while j > 0 and sc[d, j - 1] < s:
                            mv[d, j] = mv[d, j - 1]
                            sc[d, j] = sc[d, j - 1]
                            wc[d, j] = wc[d, j - 1]
                            j -= 1
                        mv[d, j] = m
                        sc[d, j] = s
                        wc[d, j] = w
                        n += 1
                if win_col >= 0:  # we win with our next stone: the best score left
                    v = (cells - 1 - moves) // 2
                    if flip:
                        win_col = cols - 1 - win_col
                    _put(table, near, in_near, idx, part, lowmask, nlowmask,
                         U64((win_col + 1) << 8 | (v + _OFFSET + _LOWER)), 0)
                    done = True
                elif not single and beta > (cells - 3 - moves) // 2:
                    # no move wins with our next stone, so the one after is the earliest
                    beta = (cells - 3 - moves) // 2
                    if alpha >= beta:
                        v = beta
                        _put(table, near, in_near, idx, part, lowmask, nlowmask, U64(v + _OFFSET), 0)
                        done = True
                if not done and cells - moves >= _ETC_EMPTY and not single:
                    # enhanced transposition cut-off: a child the table already bounds well enough (its
                    # entry was prefetched while ordering)
                    opp = cur ^ msk
                    for i in range(n):
                        ckey = opp + (msk | mv[d, i])
                        if moves < _SYM_PLY:
                            ckey = min(ckey, _mirror(opp, h, cols) + _mirror(msk | mv[d, i], h, cols))
                        cy = (ckey * _ODD) & bmask
                        ce = _lookup(table, cy >> U64(shift), cy & pmask, lowmask)
                        if ZERO < (ce & U64(0xFF)) < U64(_LOWER):
                            t = _OFFSET - int(ce & U64(0xFF))  # minus the child's upper bound
                            if t >= beta:
                                col = order[63 - (sc[d, i] & 63)]
                                if flip:
                                    col = cols - 1 - col
                                _store(table, idx, part, lowmask, U64((col + 1) << 8 | (t + _OFFSET + _LOWER)), 0)
                                v = t
                                done = True
                                break
                fu[d, 2] = part
                fu[d, 3] = idx
                fi[d, 0] = alpha
                fi[d, 1] = beta
                fi[d, 2] = n
                fi[d, 3] = 0
                fi[d, 4] = flip
        # ---- return v to the parents until one has another move to try
        while done:
            if d == 0:
                stats[0] += nodes - base
                return v
            d -= 1
            score = -v
            if score >= fi[d, 1]:
                if fu[d, 3] != _NO_ENTRY:
                    col = order[63 - (sc[d, fi[d, 3]] & 63)]
                    if fi[d, 4]:
                        col = cols - 1 - col
                    _put(table, near, cells - moves0 - d <= _NEAR_EMPTY, fu[d, 3], fu[d, 2], lowmask, nlowmask,
                         U64((col + 1) << 8 | (score + _OFFSET + _LOWER)), _work(nodes - fi[d, 5]))
                v = score
                continue
            if score > fi[d, 0]:
                fi[d, 0] = score
            i = fi[d, 3] + 1
            if i < fi[d, 2]:
                fi[d, 3] = i
                done = False
            else:
                if fu[d, 3] != _NO_ENTRY:
                    _put(table, near, cells - moves0 - d <= _NEAR_EMPTY, fu[d, 3], fu[d, 2], lowmask, nlowmask,
                         U64(fi[d, 0] + _OFFSET), _work(nodes - fi[d, 5]))
                v = fi[d, 0]
        # ---- descend into the next move of frame d
        i = fi[d, 3]
        m = mv[d, i]
        fu[d + 1, 0] = fu[d, 0] ^ fu[d, 1]
        fu[d + 1, 1] = fu[d, 1] | m
        fu[d + 1, 4] = wc[d, i] & ~m  # the mover's winning cells: the opponent's, one ply down
        fi[d + 1, 0] = -fi[d, 1]
        fi[d + 1, 1] = -fi[d, 0]
        d += 1


@njit(cache=True)
def _can_win_now(current: np.uint64, mask: np.uint64, h: int, k: int, bottom: np.uint64, board: np.uint64) -> bool:
    return bool(win_cells(current, mask, h, k, board) & (mask + bottom) & board)


@njit(cache=True)
def _trunc_half(x: int) -> int:
    """``x / 2`` rounded toward zero."""
    return x // 2 if x >= 0 else -((-x) // 2)


@njit(cache=True)
def _solve(
    current: np.uint64,
    mask: np.uint64,
    moves: int,
    weak: bool,
    geo: tuple[int, int, int, int, np.uint64, np.uint64, np.uint64, int, np.uint64],
    table: np.ndarray,
    order: np.ndarray,
    colmask: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    stats: np.ndarray,
) -> int:
    rows, cols, k, cells, bottom, board, bmask, shift, pmask = geo
    h = rows + 1
    pausable = stats.shape[0] >= STATS_SIZE
    resume = pausable and stats[2] > 0
    if resume:  # the last call stopped inside a null-window search: its bounds, phase and window
        lo, hi, phase, med = stats[4], stats[5], stats[6], stats[7]
    else:
        if _can_win_now(current, mask, h, k, bottom, board):
            stats[0] += 1
            return (cells + 1 - moves) // 2
        lo = -((cells - moves) // 2)
        hi = (cells + 1 - moves) // 2
        # phases 0 and 1, a weak solve only: ask first for a quick win (half the best score possible), then
        # for a slow enough loss, so positions that end soon answer at once; phase 2: null-window searches
        # narrow [lo, hi] to the score (to its sign when weak)
        phase = 0 if weak else 2
        med = 0
    while True:
        if not resume:  # the next window, or the answer
            if phase == 0:
                med = _trunc_half(hi)
                if med <= 0:
                    phase = 1
                    continue
            elif phase == 1:
                med = _trunc_half(lo)
                if med >= 0 or lo >= hi:
                    lo = max(lo, -1)
                    hi = min(hi, 1)
                    phase = 2
                    continue
            else:
                if lo >= hi:
                    return int(lo)
                med = lo + (hi - lo) // 2
                if med <= 0 and _trunc_half(lo) < med:
                    med = _trunc_half(lo)
                elif med >= 0 and _trunc_half(hi) > med:
                    med = _trunc_half(hi)
        r = _negamax(current, mask, moves, med, med + 1, geo, table, order, colmask, work, stats, resume)
        resume = False
        if r == ABORTED:
            if pausable:
                stats[4], stats[5], stats[6], stats[7] = lo, hi, phase, med
            return ABORTED
        if phase == 0:
            if r > med:
                return 1
            hi = r
            phase = 1
        elif phase == 1:
            if r <= med:
                return -1
            lo = max(r, -1)
            hi = min(hi, 1)
            phase = 2
        elif r <= med:
            hi = r
        else:
            lo = r


@njit(cache=True)
def _geometry(rows: int, cols: int, k: int, size: int) -> tuple[
    int, int, int, int, np.uint64, np.uint64, np.uint64, int, np.uint64
]:
    """``(rows, cols, k, cells, bottom, board, key mask, index shift, stored-bits mask)``."""
    bottom, board = geometry(rows, cols)
    bits = cols * (rows + 1)
    log = 0
    while (1 << log) < size:
        log += 1
    shift = bits - log
    bmask = ~ZERO >> U64(64 - bits)
    pmask = (ONE << U64(shift)) - ONE
    return (rows, cols, k, rows * cols, bottom, board, bmask, shift, pmask)


@njit(cache=True)
def _setup(rows: int, cols: int, k: int, size: int) -> tuple[
    tuple[int, int, int, int, np.uint64, np.uint64, np.uint64, int, np.uint64],
    np.ndarray,
    np.ndarray,
    tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
]:
    h = rows + 1
    order = np.empty(cols, dtype=np.int64)
    n = 0
    # centre first, then outwards alternately (left first on even widths)
    for dist in range(cols):
        for c in range(cols):
            if abs(2 * c - (cols - 1)) == dist:
                order[n] = c
                n += 1
    colmask = np.empty(cols, dtype=np.uint64)
    for c in range(cols):
        colmask[c] = ((ONE << U64(rows)) - ONE) << U64(c * h)
    depth = rows * cols + 2
    work = (
        np.zeros((depth, cols), dtype=np.uint64),
        np.zeros((depth, cols), dtype=np.int64),
        np.zeros((depth, cols), dtype=np.uint64),
        np.zeros((depth, 5), dtype=np.uint64),
        np.zeros((depth, 6), dtype=np.int64),
        # the small table: 2**_NEAR_LOG entries, no more than the main table, no fewer than the key needs
        np.zeros(max(min(1 << _NEAR_LOG, size), 1 << max(0, rows * cols + cols - MAX_PART_BITS)), dtype=np.uint64),
    )
    return _geometry(rows, cols, k, size), order, colmask, work


@njit(cache=True)
def prepare(rows: int, cols: int, k: int, table_size: int) -> tuple[
    np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
]:
    """The arrays a solve needs besides the table, made once per board: ``(order, colmask, work)``."""
    _, order, colmask, work = _setup(rows, cols, k, table_size)
    return order, colmask, work


@njit(cache=True)
def solve_prepared(
    current: np.uint64,
    mask: np.uint64,
    rows: int,
    cols: int,
    k: int,
    weak: bool,
    prepared: tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    table: np.ndarray,
    stats: np.ndarray,
) -> int:
    """``solve_position`` with the board's arrays from :func:`prepare` (nothing allocated per call)."""
    order, colmask, work = prepared
    geo = _geometry(rows, cols, k, table.shape[0])
    return _solve(current, mask, popcnt(mask), weak, geo, table, order, colmask, work, stats)


@njit(cache=True)
def solve_many(
    currents: np.ndarray,
    masks: np.ndarray,
    rows: int,
    cols: int,
    k: int,
    weak: bool,
    prepared: tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    table: np.ndarray,
    scores: np.ndarray,
    nodes: np.ndarray,
    stats: np.ndarray,
    start: int,
) -> int:
    """Solve positions ``start, start + 1, ...`` in one compiled call: ``scores[i]`` and ``nodes[i]``.

    Returns the index of the first position not finished: ``len(currents)`` once all are.  With a node
    limit in ``stats[1]`` (a ``STATS_SIZE`` array) it may stop early; called again with that index and
    the same ``stats`` it goes on exactly where it stopped.
    """
    order, colmask, work = prepared
    geo = _geometry(rows, cols, k, table.shape[0])
    for i in range(start, currents.shape[0]):
        if stats[2] == 0:  # not a stopped search going on: position i starts here
            stats[8] = stats[0]
        r = _solve(currents[i], masks[i], popcnt(masks[i]), weak, geo, table, order, colmask, work, stats)
        if r == ABORTED:
            return i
        scores[i] = r
        nodes[i] = stats[0] - stats[8]
    return int(currents.shape[0])


@njit(cache=True)
def solve_position(
    current: np.uint64,
    mask: np.uint64,
    rows: int,
    cols: int,
    k: int,
    weak: bool,
    table: np.ndarray,
    stats: np.ndarray,
) -> int:
    """The score of a position nobody has won yet and that is not full (``stats[0] += nodes``).

    With ``stats[1] > 0`` the search stops once ``stats[0]`` reaches it and returns ``ABORTED``.
    """
    geo, order, colmask, work = _setup(rows, cols, k, table.shape[0])
    moves = popcnt(mask)
    return _solve(current, mask, moves, weak, geo, table, order, colmask, work, stats)
