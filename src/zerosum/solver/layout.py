"""The solver's table layout, as plain numbers: what :mod:`.table` builds its tables from, and what the solver's
preparation (:mod:`.steps`) asks before any compiled code is loaded (which compiled search a table needs).

It imports nothing, so that a module loading no numba reads it, and a kernel built from it
(:mod:`zerosum.core.kernel_cache`) is built from this file alone.
"""

from __future__ import annotations

__all__ = ["DEFAULT_LOG_SIZE", "MAX_PART_BITS", "wide_entries"]

#: a solver's default table: 2**24 entries of one 64-bit word each (128 MB)
DEFAULT_LOG_SIZE = 24
#: the most key bits an entry stores in one word: a table needs at least 2**(key bits - 44) entries for that
MAX_PART_BITS = 44


def wide_entries(rows: int, cols: int, size: int) -> bool:
    """Whether a table of ``size`` entries (a power of two) for this board has two-word entries: the
    board is past 64 bits and the slot leaves more than ``MAX_PART_BITS`` bits of the key to store."""
    bits = cols * (rows + 1)
    return bits > 64 and bits - (size.bit_length() - 1) > MAX_PART_BITS
