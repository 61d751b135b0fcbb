"""A Kaggle submission on an image without numba: it says so once on stderr and still searches (and wins).

Each test writes a submission and runs it by path in a fresh process where ``import numba`` fails
(``sys.modules["numba"] = None``, as on an image without numba), through ``kaggle_environments`` as Kaggle does.
Kaggle keeps what an agent prints to stderr in ``env.logs``; the tests read it there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from zerosum.cli import main

pytest.importorskip("kaggle_environments")

NOTICE = "searches in pure Python"
FALLBACK = "played the centre-most column"

RUN_WITHOUT_NUMBA = textwrap.dedent(
    """
    import json, random, sys
    sys.modules["numba"] = None  # `import numba` now fails, as on an image without it
    import kaggle_environments
    *paths, opponent, games = sys.argv[1:]
    results = {}
    for path in paths:  # each submission's games in turn
        results[path] = []
        for game in range(int(games)):
            random.seed(game)  # Kaggle's random and negamax agents draw from the global random module
            seat = game % 2
            env = kaggle_environments.make("connectx")
            env.run([path, opponent] if seat == 0 else [opponent, path])
            stderr = "".join(step[seat].get("stderr", "") for step in env.logs if len(step) > seat)
            results[path].append({"seat": seat, "status": [s.status for s in env.state],
                                  "reward": env.state[seat].reward, "plies": len(env.steps) - 1, "stderr": stderr})
    print(json.dumps({"results": results, "numba": "numba" in sys.modules and sys.modules["numba"] is not None}))
    """
)


def play_without_numba(tmp_path, spec: str, opponent: str, games: int) -> list[dict]:
    """``games`` games of the submission ``kaggle-agent SPEC`` (seats alternate) against a Kaggle agent."""
    return play_all_without_numba(tmp_path, [spec], opponent, games)[0]


def play_all_without_numba(tmp_path, specs: list[str], opponent: str, games: int) -> list[list[dict]]:
    """:func:`play_without_numba` of each spec, a submission of its own (different agents: different modules
    carried, each its own copy and its own notice), their games in one process (its start with
    kaggle_environments' import, a second or two, once)."""
    paths = []
    for i, spec in enumerate(specs):
        (tmp_path / f"agent{i}").mkdir()
        paths.append(tmp_path / f"agent{i}" / "main.py")
        assert main(["kaggle-agent", *spec.split(), "-o", str(paths[-1])]) == 0
    proc = subprocess.run(
        [sys.executable, "-c", RUN_WITHOUT_NUMBA, *map(str, paths), opponent, str(games)],
        cwd=tmp_path, capture_output=True, text=True, timeout=1800, env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["numba"] is False
    found = []
    for path in paths:
        results: list[dict] = out["results"][str(path)]
        for game in results:
            assert game["status"] == ["DONE", "DONE"], game
            assert FALLBACK not in game["stderr"], game["stderr"]  # every move came from a search
        notices = [line for game in results for line in game["stderr"].splitlines() if NOTICE in line]
        assert len(notices) == 1 and "numba" in notices[0], notices  # said once, on the first move
        assert NOTICE in results[0]["stderr"]
        found.append(results)
    return found


@pytest.mark.slow  # 7 s; CI keeps this file's search agents without numba
def test_submission_without_numba_searches_and_beats_random_every_game(tmp_path) -> None:
    """The default agent (the solver, numba only) without numba: alpha-beta in pure Python plays every move.

    (Before: every move was the centre-most legal column, silently, and Kaggle's negamax won in 14 plies.)
    A depth limit keeps the ten games short (and their strength free of the machine's load); the slow tests
    below play at Kaggle's own timing.
    """
    results = play_without_numba(tmp_path, "solver --opening alphabeta:depth=4", "random", games=10)
    assert [game["reward"] for game in results] == [1] * 10, results


def test_search_agents_without_numba_say_so_and_beat_random(tmp_path) -> None:
    specs = ["alphabeta:depth=4", "mcts:sims=400"]
    for spec, results in zip(specs, play_all_without_numba(tmp_path, specs, "random", games=2)):
        assert [game["reward"] for game in results] == [1, 1], (spec, results)


@pytest.mark.slow
def test_submission_without_numba_beats_negamax_most_games(tmp_path) -> None:
    """The default submission at Kaggle's default timing (actTimeout 2 s, 60 s overage), two games a seat."""
    results = play_without_numba(tmp_path, "solver", "negamax", games=4)
    rewards = [game["reward"] for game in results]
    assert rewards.count(1) >= 3, results


@pytest.mark.slow
def test_submission_without_numba_beats_random_many(tmp_path) -> None:
    results = play_without_numba(tmp_path, "solver", "random", games=10)
    assert [game["reward"] for game in results] == [1] * 10, results
