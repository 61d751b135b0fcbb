"""A compile in the background leaves the process's standard streams alone.

numba words its errors, also the hundreds it raises and catches itself in one compile, inside colorama's
``init()``/``deinit()``: each replaced ``sys.stdout`` and ``sys.stderr`` for the whole process and then put back
the streams it had found.  From zerosum's background thread (a step compiling while the main thread goes on)
that undid whatever the main thread redirected meanwhile: in full test runs, now and then a test's output went
to the run's capture instead of its own (``capsys`` empty), and so would a notebook's ``redirect_stdout``.
"""

from __future__ import annotations

import contextlib
import io
import sys
import threading
import time
import types

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from zerosum.agents import prepare  # noqa: E402

WEIGHTS = np.arange(7, dtype=np.int64)


@numba.njit(cache=False)
def _helper(x: int) -> int:
    return x * 2


@numba.njit(cache=False)
def _kernel(x: int) -> int:  # compiled afresh in each process: a global array and a call, as zerosum's kernels
    return _helper(x) + WEIGHTS[x % 7]


class _Watched(types.ModuleType):
    """``sys`` while watched: every assignment of its streams by a thread other than the main one, counted."""

    assigned: list[str] = []

    def __setattr__(self, name: str, value: object) -> None:
        if name in ("stdout", "stderr") and threading.current_thread() is not threading.main_thread():
            _Watched.assigned.append(name)
        super().__setattr__(name, value)


def test_a_step_compiling_in_the_background_never_swaps_sys_stdout_or_stderr() -> None:
    prepare.warm([prepare.numba_step()])
    step = prepare.step(f"a test's kernel {time.perf_counter()}", "a test's kernel", lambda: _kernel(3), 1.0)
    mine = io.StringIO()
    _Watched.assigned.clear()
    sys.__class__ = _Watched
    try:
        with contextlib.redirect_stdout(mine):  # the main thread's own, begun as the compile starts
            prepare.start([step])
            assert step.wait(300)
            assert sys.stdout is mine
            print("still mine")
    finally:
        sys.__class__ = types.ModuleType
    assert step.ready and _kernel(3) == 6 + 3
    assert _Watched.assigned == []  # 234 assignments before (numba 0.68, colorama 0.4)
    assert mine.getvalue() == "still mine\n"
