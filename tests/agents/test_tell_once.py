"""Two threads that wait at once for the same step that compiles (the solver's search, asked for by a script's
analysis and its helper thread) start one thread that says the wait, not two: before, :func:`prepare.tell` looked
for a thread saying it and registered its own under two holds of the lock, so both could pass the look, and each
line of ``zerosum: preparing the engine (...)`` came twice (one cold run in three, found by an audit)."""

from __future__ import annotations

import threading
import time

from zerosum.agents import prepare


def test_waits_at_once_start_one_teller(monkeypatch) -> None:
    monkeypatch.setattr(prepare.multiprocessing, "parent_process", lambda: None)  # as in a user's script
    monkeypatch.setattr(prepare, "SPEAK", True)
    release = threading.Event()
    started: list[threading.Thread] = []
    real = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        if thread.name == "zerosum-tell":
            started.append(thread)
        real(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    try:
        for trial in range(30):
            step = prepare.step(f"a test step that waits {trial} {time.perf_counter()}", "the test's kernel",
                                release.wait, cold=3.0)
            gate = threading.Barrier(8)

            def wait(s: prepare.Step = step, g: threading.Barrier = gate) -> None:
                g.wait()
                prepare.tell([s])

            waiters = [threading.Thread(target=wait) for _ in range(8)]
            for w in waiters:
                w.start()
            for w in waiters:
                w.join()
            assert len(started) == trial + 1, f"trial {trial}: {len(started) - trial} threads say one wait"
    finally:
        release.set()
