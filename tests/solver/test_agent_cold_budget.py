"""Where a person waits (``search_within`` without a time control, as ``zerosum play`` and the page call it),
the wait for the engine's code is no part of the move's time: the move searches its whole time once the code
is loaded (docs/terminal.md, "The first run": an engine without a time limit "waits for its code first, so it
searches at full strength").  Audit: on a cold cache the 8 x 8 solver's move (alpha-beta's, past the solver's
reach) was ``alphabeta:time=0.30 chose), 163,880 nodes``, after 11 s preparing the engine; warm, ``time=0.96``.
Under a time control (``search``, the arena) the loading still counts in the time, as documented.

The waits are real: a step of preparation that takes 1.5 s, added to what the agent's own ``preparation``
lists (the hook the search waits on: a first run's compile, shortened); a new process on a warm cache (loading
numba and the solver's modules, 1-3 s); and, marked slow, a real ``zerosum play`` on an empty numba cache (a
compile of tens of seconds)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from typing import Any

import pytest

from zerosum import Limits, get_game, make_agent
from zerosum.agents import prepare
from zerosum.solver.agent import SolverAgent

#: 8 x 8 at ply 23: past the solver's reach (41 empty cells), so alpha-beta moves, for the whole move's time
BEYOND = "44445623367373774334466"
#: 7 x 6 at ply 13: the solver proves its exact distance in well under a second
SOLVED = "4444443332221"


class Compiling(SolverAgent):
    """The solver, whose first search waits ``seconds`` more for a step of its code (each agent its own step,
    not ready until its search runs it), as on a first run."""

    def __init__(self, seconds: float = 1.5, **options: Any) -> None:
        super().__init__(**options)
        self.slow = prepare.step(f"test compile {id(self)} {time.perf_counter()}", "a test compile",
                                 lambda: time.sleep(seconds), cold=seconds)

    def preparation(self, game: Any, state: Any = None) -> list[prepare.Step]:
        return [*super().preparation(game, state), self.slow]


def _warm(game: Any) -> None:
    make_agent("solver").warm_up(game)  # the real code loaded: only the test's step is left to wait for


def _fallback_seconds(said: str | None) -> float:
    found = re.search(r"alphabeta:time=([\d.]+) chose", said or "")
    assert found, said
    return float(found.group(1))


def test_past_the_solvers_reach_alpha_beta_gets_the_whole_second() -> None:
    game = get_game("connect4-8x8")
    _warm(game)
    agent = Compiling()
    began = time.perf_counter()
    found = agent.search_within(game, game.from_moves(BEYOND), 1.0)
    assert time.perf_counter() - began >= 2.3 and agent.slow.ready  # the wait, then the whole second
    assert _fallback_seconds(agent.last_fallback) >= 0.8, agent.last_fallback  # was 0.05: the wait ate it (0.95 loaded)
    assert found.elapsed > 0.8, found


def test_the_solvers_exact_distance_gets_the_whole_time() -> None:
    game = get_game("connect4")
    _warm(game)
    agent = Compiling(seconds=2.5)
    found = agent.search_within(game, game.from_moves(SOLVED), 2.0)
    assert agent.slow.ready
    assert found.exact and found.describe() == "win in 14 moves", (found, agent.last_proof)  # was "a proven win"
    assert found.elapsed < 2.0, found  # the search's own time, the wait left out


def test_under_a_time_control_the_loading_counts() -> None:
    """The arena's clocks govern (``search``, ``hard``): the wait for the code is the move's time, as documented
    (not loaded within 60% of it: alpha-beta moves in the rest, and says why)."""
    game = get_game("connect4")
    _warm(game)
    agent = Compiling(seconds=3.0, limits=Limits(time=1.0))
    began = time.perf_counter()
    found = agent.search(game, game.from_moves(SOLVED))
    assert time.perf_counter() - began < 2.5 and not found.exact, found  # not the 3 s of the wait
    assert (agent.last_fallback or "").startswith("the solver's code is not loaded yet"), agent.last_fallback
    agent.slow.wait(10)


FRESH = f"""
from zerosum import get_game, make_agent
game = get_game("connect4-8x8")
agent = make_agent("solver")
found = agent.search_within(game, game.from_moves({BEYOND!r}), 1.0)
print(agent.last_fallback)
print(found.nodes)
"""


def test_a_new_process_loads_first_then_searches_a_whole_second() -> None:
    """A new process (a warm cache): loading numba and the solver's modules took 2-3 s of the move's second,
    leaving alpha-beta 0.05 s and 256 nodes."""
    done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-1500:]
    said, nodes = done.stdout.strip().splitlines()[-2:]
    assert _fallback_seconds(said) >= 0.95 and int(nodes) > 1000, done.stdout


@pytest.mark.slow  # an empty numba cache: alpha-beta's compile, 10-30 s on two shared cores
def test_a_first_run_move_searches_its_whole_time(tmp_path) -> None:
    """The audit's command on an empty numba cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "zerosum", "play", "--game", "connect4-8x8", "--moves", BEYOND],
                          input="q\n", capture_output=True, text=True, timeout=900, env=env)
    line = next((x for x in done.stdout.splitlines() if "(solver) plays" in x), "")
    assert _fallback_seconds(line) >= 0.95, done.stdout[-1500:] + done.stderr[-800:]
    assert "preparing the engine" in line, line  # the wait said apart from the search's time
