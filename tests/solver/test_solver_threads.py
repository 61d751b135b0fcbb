"""One Solver shared by several threads: its calls take turns (``Solver.turn``), so every score is right.

Each test runs its threads in a process of its own, so that a crash of the compiled search (two threads on
one lane's frames: a segmentation fault, as before the turns) fails the test instead of its pytest worker.
The positions are Pons' Test_L2_R1 (skipped without the benchmark data, as the other solver tests are).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading

from solver_truth import bench_file  # type: ignore[import-not-found]

#: the threads' work, in a process of its own: ``argv`` = the benchmark file, the call, the Solver's threads
SHARED = r"""
import faulthandler, json, sys, threading
faulthandler.enable()
from zerosum import Solver
from zerosum.solver.progressive import Progressive

path, call, solver_threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = [(m, int(s)) for m, s in (line.split() for line in open(path) if line.strip())]
solver = Solver(tt_size=1 << 20, book=False, threads=solver_threads)
solver.solve(lines[0][0])  # the compiled code loaded before the threads start
THREADS, ROUNDS, ANALYSED = 4, 2, 100
if call == "analyze":  # every column's score, by a solver of one thread's own
    alone = Solver(tt_size=1 << 20, book=False)
    truth = {m: alone.analyze(m) for k in range(THREADS) for m, _ in lines[k::THREADS][:ANALYSED]}
start = threading.Barrier(THREADS)
wrong, errors, counts = [], [], []

def check(moves, score, got):
    if got != score:
        wrong.append([moves, score, got])

def work(i):
    start.wait()
    for r in range(ROUNDS):  # each round another share of the positions, every share at once
        part = lines[(i + r) % THREADS::THREADS]
        try:
            if call == "solve":
                for moves, score in part:
                    check(moves, score, solver.solve(moves))
            elif call == "analyze":
                for moves, score in part[:ANALYSED]:
                    scores = solver.analyze(moves)
                    check(moves, score, max(v for v in scores if v is not None))
                    check(moves, truth[moves], scores)
            elif call == "progressive" and i == 0:  # its own threads on the lanes, in its caller's turn
                for moves, score in part[:30]:
                    with solver.turn:
                        run = Progressive(solver, moves, threads=2)
                        list(run.events())
                    check(moves, score, max(v for v in run.scores() if v is not None))
            elif call == "progressive":
                for moves, score in part:
                    check(moves, score, solver.solve(moves))
            else:  # solve_many: each thread its own number of positions a call, and its own node counts
                size = 5 + 2 * i
                for chunk in (part[k:k + size] for k in range(0, len(part), size)):
                    for (moves, score), got in zip(chunk, solver.solve_many([m for m, _ in chunk])):
                        check(moves, score, got)
                    counts.append([len(solver.node_counts), len(chunk), solver.nodes, sum(solver.node_counts)])
        except Exception as exc:
            errors.append(f"{type(exc).__name__}: {exc}")

threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"wrong": wrong, "errors": errors, "counts": counts}))
"""


def _shared(call: str, solver_threads: int = 1) -> dict:  # type: ignore[type-arg]
    """What four threads sharing one Solver found, each ``call``-ing on its share of Test_L2_R1."""
    path = bench_file("Test_L2_R1")
    done = subprocess.run([sys.executable, "-c", SHARED, path, call, str(solver_threads)], capture_output=True,
                          text=True, timeout=600)  # a safety net: it takes about a second
    assert done.returncode == 0, f"the process ended with {done.returncode}:\n{done.stderr[-3000:]}"
    found = json.loads(done.stdout)
    assert found["errors"] == []
    assert found["wrong"] == [], f"{len(found['wrong'])} wrong scores (moves, expected, got): {found['wrong'][:5]}"
    return found  # type: ignore[no-any-return]


def test_threads_sharing_a_solver_solve_every_position_right() -> None:
    _shared("solve")


def test_threads_sharing_a_solver_analyze_every_position_right() -> None:
    _shared("analyze")


def test_threads_sharing_a_solver_solve_many_right_each_reading_its_own_node_counts() -> None:
    found = _shared("solve_many")
    assert found["counts"] and all(got == mine and nodes == total for got, mine, nodes, total in found["counts"])


def test_a_progressive_analysis_in_its_callers_turn_while_other_threads_solve() -> None:
    """A progressive analysis searches on the solver's lanes with threads of its own, which take no turn:
    its caller holds ``solver.turn`` while it runs, and the other threads' calls wait for it."""
    _shared("progressive")


def test_threads_sharing_a_two_thread_solver_solve_and_analyze_right() -> None:
    """``threads=2``: each call starts a helper thread of its own (lazy SMP, columns shared out), within
    the caller's turn: no helper waits for a turn its caller holds."""
    _shared("solve", 2)
    _shared("analyze", 2)


def test_each_thread_reads_the_figures_of_its_own_last_call() -> None:
    """``nodes``, ``elapsed`` and ``node_counts`` after a call are that call's, whatever another thread's call
    set meanwhile; a thread that made no call reads the last any thread set."""
    from zerosum import Solver

    solver = Solver(tt_size=1 << 16, book=False)
    done, went_on = threading.Event(), threading.Event()
    seen: dict[str, object] = {}

    def worker() -> None:
        seen["score"] = solver.solve("6667744167364217437")
        seen["mine"] = (solver.nodes, solver.elapsed)
        done.set()
        went_on.wait(timeout=600)
        seen["later"] = (solver.nodes, solver.elapsed)

    thread = threading.Thread(target=worker)
    thread.start()
    assert done.wait(timeout=600)
    assert solver.solve_many(["71627112343522227", "143344155574773553"]) == [-8, -8]  # another call meanwhile
    went_on.set()
    thread.join(timeout=600)
    assert seen["score"] == -5 and seen["later"] == seen["mine"]  # the worker's own figures, kept
    assert solver.nodes == sum(solver.node_counts) != seen["mine"][0] and len(solver.node_counts) == 2
    fresh: dict[str, object] = {}
    other = threading.Thread(target=lambda: fresh.update(nodes=solver.nodes, counts=solver.node_counts))
    other.start()
    other.join(timeout=600)
    assert fresh == {"nodes": solver.nodes, "counts": solver.node_counts}  # the last call's, from any thread


def test_a_solver_pickles_and_copies_without_its_lock() -> None:
    # the turn (an RLock) and each thread's figures made a Solver unpicklable: a copy takes turns of its own
    import copy
    import pickle

    from zerosum import Solver

    # two end-game positions of Pons' Test_L3_R1, with their published scores (ply 2 took 17 s a solve here)
    first, second = "2252576253462244111563365343671351441", "7422341735647741166133573473242566"
    solver = Solver("connect4", tt_size=1 << 12, book=False)
    assert solver.solve(first) == -1
    for twin in (pickle.loads(pickle.dumps(solver)), copy.deepcopy(solver)):
        assert twin.turn is not solver.turn
        assert twin.solve(first) == -1 and twin.nodes > 0
        with twin.turn:  # reentrant, as the original's
            assert twin.solve(second) == solver.solve(second) == 1
