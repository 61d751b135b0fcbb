"""The first search in a new process, on a cold and on a warm numba cache, and the Kaggle overage left.

    python benchmarks/first_search.py                       # both specs below, 3 runs each, cold and warm
    python benchmarks/first_search.py --runs 5 --spec mcts:time=0.5 --spec solver:time=1
    python benchmarks/first_search.py --kaggle 1 --runs 0   # only the Kaggle figure: one cold game

Each run is a fresh ``python`` process that imports zerosum, builds the agent with ``make_agent(SPEC)``
and times its first ``search`` on Connect Four (``--moves``: the position, default the empty board), from
the call to the answer, with its nodes (simulations for MCTS); then the nodes of a search once its compiled
code is loaded (``warm_up``), for comparison.  *Cold*: every run gets an empty ``NUMBA_CACHE_DIR`` of its own; *warm*: the runs
share one that a first, unmeasured run filled.  The project's own cache (``__pycache__`` beside the
sources) is never touched.  Prints the median and the range of the runs, side by side, and the issue's
bound (the limit plus 0.5 s, for the warm first search).

``--kaggle N`` plays N games of a ``zerosum kaggle-agent solver`` submission (loaded by path, as Kaggle
loads it) against Kaggle's negamax, each in a new process on an empty cache and an empty unpack folder,
and prints the overage left after the submission's first ten moves (the bound: at least 45 of its 60 s).

Note the load (``uptime``) beside every figure: a two-core machine with other work runs compiles slower.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from typing import Any

SEARCH = textwrap.dedent(
    """
    import json, sys, time
    t0 = time.perf_counter()
    from zerosum import get_game, make_agent
    game = get_game("connect4")
    state = game.from_moves(sys.argv[2]) if sys.argv[2] else game.initial_state
    agent = make_agent(sys.argv[1])
    t1 = time.perf_counter()
    result = agent.search(game, state)
    t2 = time.perf_counter()
    agent.warm_up(game)  # then a search with everything loaded, for comparison
    prepared = agent.search(game, state)
    print(json.dumps({"load": t1 - t0, "search": t2 - t1, "nodes": result.nodes, "prepared": prepared.nodes}))
    """
)

KAGGLE = textwrap.dedent(
    """
    import json, random, sys
    import kaggle_environments
    random.seed(int(sys.argv[2]))
    env = kaggle_environments.make("connectx")
    env.run([sys.argv[1], "negamax"])
    ours = [i for i, s in enumerate(env.steps) if s[0]["status"] == "ACTIVE"]
    left = [env.steps[i][0]["observation"]["remainingOverageTime"] for i in ours]
    # the log of the act at step i is at i + 2 (a first step, then each step's own)
    took = [env.logs[i + 2][0].get("duration", 0) for i in ours if i + 2 < len(env.logs) and env.logs[i + 2]]
    print(json.dumps({"left": left, "took": took, "status": env.state[0].status, "reward": env.state[0].reward}))
    """
)


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def first_search(spec: str, moves: str, cache: str) -> dict[str, float]:
    """One new process's first search of ``spec`` with ``NUMBA_CACHE_DIR=cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    proc = subprocess.run([sys.executable, "-c", SEARCH, spec, moves], env=env, capture_output=True, text=True,
                          timeout=900)
    if proc.returncode:
        raise SystemExit(f"{spec}: the run failed:\n{proc.stderr}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def _limit(spec: str) -> float | None:
    for part in spec.partition(":")[2].split(","):
        key, _, value = part.partition("=")
        if key.strip() == "time":
            return float(value)
    return None


def _figure(runs: list[dict[str, float]]) -> str:
    if not runs:
        return "-"
    seconds = [r["search"] for r in runs]
    nodes = statistics.median(r["nodes"] for r in runs)
    return f"{statistics.median(seconds):.2f} s ({min(seconds):.2f}-{max(seconds):.2f}), {nodes:,.0f} nodes"


def searches(specs: list[str], moves: str, runs: int) -> None:
    print(f"first search in a new process, connect4 {moves or '(empty board)'}, {runs} runs a column; "
          f"median (range); load at start {_load()}")
    print("| spec | cold | warm | warm bound | nodes when loaded | load after |\n| --- | --- | --- | --- | --- | --- |")
    for spec in specs:
        cold: list[dict[str, float]] = []
        warm: list[dict[str, float]] = []
        with tempfile.TemporaryDirectory(prefix="zerosum-warm-") as shared:
            first_search(spec, moves, shared)  # fills the shared cache: the warm runs below load from it
            for _ in range(runs):
                with tempfile.TemporaryDirectory(prefix="zerosum-cold-") as fresh:
                    cold.append(first_search(spec, moves, fresh))
                warm.append(first_search(spec, moves, shared))
        limit = _limit(spec)
        bound = "-" if limit is None else f"{limit + 0.5:g} s"
        loaded = statistics.median(r["prepared"] for r in warm)
        print(f"| `{spec}` | {_figure(cold)} | {_figure(warm)} | {bound} | {loaded:,.0f} | {_load()} |", flush=True)


def kaggle_game(tmp: str, seed: int, cache: str) -> dict[str, Any]:
    """One game of the ``solver`` submission in ``tmp`` (unpacked there) with ``NUMBA_CACHE_DIR=cache``."""
    path = os.path.join(tmp, "main.py")
    if not os.path.exists(path):
        subprocess.run([sys.executable, "-m", "zerosum", "kaggle-agent", "solver", "-o", path], check=True,
                       stdout=subprocess.DEVNULL)
    env = {**os.environ, "TMPDIR": tmp, "NUMBA_CACHE_DIR": cache}
    proc = subprocess.run([sys.executable, "-c", KAGGLE, path, str(seed)], cwd=tmp, env=env,
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode:
        raise SystemExit(f"the Kaggle game failed:\n{proc.stderr}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def kaggle_games(games: int, warm: bool) -> None:
    """The overage a ``solver`` submission has left after its first ten moves, per game (``warm``: on a cache
    that an unmeasured game filled, else each game on an empty one)."""
    print(f"kaggle submission `solver` vs negamax, first seat, {'warm' if warm else 'cold'} cache; "
          f"load at start {_load()}")
    with tempfile.TemporaryDirectory(prefix="zerosum-kaggle-") as tmp:
        shared = os.path.join(tmp, "numba")
        if warm:
            kaggle_game(tmp, 99, shared)
        for seed in range(games):
            cache = shared if warm else os.path.join(tmp, f"numba-{seed}")
            out = kaggle_game(tmp, seed, cache)
            left = out["left"]  # the overage at each of our turns: [i] is what is left after our i-th move
            after = left[10] if len(left) > 10 else left[-1]
            print(f"game {seed}: {after:.1f} s of 60 left after ten moves; our moves took "
                  f"{', '.join(f'{x:.1f}' for x in out['took'][:10])} s; {out['status']} {out['reward']}; "
                  f"load {_load()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", action="append", help="an agent spec (repeatable; default mcts:time=0.5 and "
                        "alphabeta:time=1)")
    parser.add_argument("--moves", default="", help="the position, a Connect Four move string (default: empty)")
    parser.add_argument("--runs", type=int, default=3, help="runs a column (default 3)")
    parser.add_argument("--kaggle", type=int, default=0, metavar="N", help="cold Kaggle games to play (default 0)")
    parser.add_argument("--kaggle-warm", type=int, default=0, metavar="N", help="warm Kaggle games to play (default 0)")
    args = parser.parse_args()
    if args.runs:
        searches(args.spec or ["mcts:time=0.5", "alphabeta:time=1"], args.moves, args.runs)
    if args.kaggle:
        kaggle_games(args.kaggle, warm=False)
    if args.kaggle_warm:
        kaggle_games(args.kaggle_warm, warm=True)


if __name__ == "__main__":
    main()
