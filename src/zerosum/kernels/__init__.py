"""The Connect-X bit tricks, each defined once, below both the agents and the solver.

* :mod:`.bits` -- on Python ints, any board size, no numba: the centre-first column order, the lines of k
  cells, k in a row, winning cells, the mirror image;
* :mod:`.connectx` -- the same tricks on ``uint64`` bitboards (boards that fit 64 bits), compiled by numba,
  plus the random numbers and playouts of the fast agents; the solver's tricks also on 128-bit bitboards;
* :mod:`.wide` -- numba's 128-bit integer (an LLVM ``i128``), for boards up to 128 bits.

The layout is :class:`zerosum.games.connectx.ConnectX`'s (Pascal Pons'): column ``c`` owns the bits
``c*h .. c*h+rows-1`` (``h = rows + 1``, bottom cell first) and one always-empty sentinel bit above.
Importing this package does not import numba.
"""
