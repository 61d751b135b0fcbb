"""The one engine pool: jobs are functions, reports drive deadlines, workers are killed and replaced."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jobs_for_tests as jobs  # noqa: E402
from process_helpers import wait_gone  # noqa: E402

from zerosum.errors import AgentError, IllegalMoveError, InvalidPositionError  # noqa: E402
from zerosum.pool import EngineCrashed, EngineFailed, EngineTimeout, Job, Pool, choose_move  # noqa: E402


@pytest.fixture
def pool():  # type: ignore[no-untyped-def]
    p = Pool(size=1, wait=60)
    yield p
    p.close()


def test_a_job_is_an_importable_function_never_a_module_function_string(pool) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="importable function"):
        pool.run("math:hypot", (3, 4), 30)
    assert pool.run(math.hypot, (3, 4), 30) == 5.0


def test_reports_reach_the_caller_and_a_report_can_set_the_next_deadline(pool) -> None:  # type: ignore[no-untyped-def]
    seen: list[object] = []
    first = pool.run(jobs.chatty, (3, 0.0), 60, lambda msg: seen.append(msg))
    assert seen == [("step", 0), ("step", 1), ("step", 2)]
    # each step may take 0.3 s, then 5 s: the worker is killed at the third step's deadline, not before
    with pytest.raises(EngineTimeout) as err:
        pool.run(jobs.chatty, (3, 1.0), 60, lambda msg: 5.0 if msg == ("step", 0) else 0.3)
    assert err.value.limit == 0.3 and "did not answer within 0.3 s" in str(err.value)
    assert pool.run(os.getpid, (), 60) != first  # a fresh worker took its place


def test_a_worker_that_dies_is_a_crash_with_its_exit_code_and_is_replaced(pool) -> None:  # type: ignore[no-untyped-def]
    before = pool.run(os.getpid, (), 60)
    with pytest.raises(EngineCrashed) as err:
        pool.run(jobs.die, (7,), 60)
    assert err.value.exitcode == 7
    assert pool.run(os.getpid, (), 60) not in (before, None)


def test_errors_come_back_as_one_line_of_their_own_kind(pool) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidPositionError, match="no such position"):
        pool.run(jobs.refuse, (), 60)
    with pytest.raises(EngineFailed, match="^KeyError: 'a bug'$"):
        pool.run(jobs.fail, (), 60)
    first = pool.run(os.getpid, (), 60)
    assert pool.run(os.getpid, (), 60) == first  # a job's error does not cost the worker


def test_a_job_is_checked_once_in_the_caller(pool) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMoveError):
        Job.checked("tictactoe", [0, 0], "random")
    with pytest.raises(AgentError):
        Job.checked("tictactoe", [0], "random:nonsense=1")
    job = Job.checked("tictactoe", [0, 4], "first", limits={"depth": 2})
    assert job == Job("tictactoe", (0, 4), "first", (("depth", 2),), None)
    reply = pool.run(choose_move, (job,), 60)
    assert reply.action == 1 and reply.text == "2" and reply.agent == "first" and reply.nodes is None
    over = Job.checked("tictactoe", [0, 3, 1, 4, 2], "first")
    with pytest.raises(InvalidPositionError, match="the game is over"):
        pool.run(choose_move, (over,), 60)


def test_each_runs_every_item_on_long_lived_workers_and_reports_here() -> None:
    import threading

    here = threading.get_ident()
    got: dict[int, int] = {}
    threads: set[int] = set()

    def on_result(item: int, result: tuple[int, int]) -> None:
        threads.add(threading.get_ident())
        got[item] = result[1]

    with Pool(size=2, wait=None) as p:
        assert p.each(jobs.supervise_pid, range(8), on_result) is True
        assert sorted(got) == list(range(8)) and threads == {here}
        assert set(got.values()) <= set(p.pids) and len(set(got.values())) <= 2  # the same workers, reused


def test_each_stops_when_asked_and_ends_the_workers_in_flight() -> None:
    calls = [0]

    def stop() -> bool:
        calls[0] += 1
        return calls[0] > 2

    p = Pool(size=1, wait=None)
    p.start()
    p.run(os.getpid, (), 60)
    pids = p.pids
    assert p.each(jobs.supervise_pid, range(100), lambda *_: None, stop) is False
    assert wait_gone(pids) == []


def test_killing_a_worker_whose_pipe_is_already_gone_is_quiet() -> None:
    # Ctrl-C during a run: the pool kills workers whose pipe another thread may have closed already;
    # an OSError (EBADF) there used to replace the KeyboardInterrupt, so the run ended with exit 2, not 130
    from zerosum.pool.worker import Worker

    worker = Worker()
    os.close(worker.conn.fileno())  # the descriptor goes behind the connection's back
    worker.kill()  # no OSError
    assert not worker.alive()


def test_a_worker_killed_during_a_call_closes_its_pipe_once_in_the_calling_thread() -> None:
    # close() of the pool kills workers while their job threads read them: a second close of one pipe
    # used to hit whatever file had taken the descriptor number meanwhile (CI saw a fresh worker's pipe go)
    import threading
    import time

    from zerosum.pool.base import EngineCrashed
    from zerosum.pool.worker import Worker

    worker = Worker()
    raised: list[BaseException] = []

    def call() -> None:
        try:
            worker.call(time.sleep, (60,), 120)
        except BaseException as exc:  # noqa: BLE001 - looked at below
            raised.append(exc)

    thread = threading.Thread(target=call)
    thread.start()
    deadline = time.monotonic() + 60
    while not worker._calling and time.monotonic() < deadline:
        time.sleep(0.01)
    worker.kill()
    reader, writer = os.pipe()  # may take a number the pipe would have freed
    try:
        thread.join(60)
        assert len(raised) == 1 and isinstance(raised[0], EngineCrashed)
        assert worker.conn.closed and not worker.alive()
        worker.kill()  # again: nothing to do
        os.fstat(reader), os.fstat(writer)  # still open: nobody closed them behind our back
    finally:
        os.close(reader), os.close(writer)
    with pytest.raises(EngineCrashed):
        worker.call(os.getpid, (), 5)
