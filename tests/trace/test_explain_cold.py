"""``zerosum explain --agent solver`` on a cold numba cache (a first run), as an audit found it: silent for 26.6 s
on 7 x 9 while the solver compiled, then the answer; and with ``--max-time 2`` on 7 x 6, "the search did not end
within 2 s ... a lower depth= or sims=" after 3.2 s -- the compile not said, counted in the search's time, and
advice that means nothing for the solver (warm, the same command answers in 1.1 s).

Now the solver's compiled code is prepared before the search, outside ``--max-time``, and said on standard error
as ``zerosum analyze`` says it; a search that really runs out of time is told what fits its agent: the solver,
which has no depth or simulations, to raise max_time.  The cold case is a fresh process on an empty numba cache
(``NUMBA_CACHE_DIR``: the project's own cache is not touched), tens of seconds of compiling.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

import zerosum
from zerosum.cli import main
from zerosum.errors import AgentError
from zerosum.trace.bounds import TraceBound

pytest.importorskip("zerosum.solver.solver")

#: 7 x 6, ply 13: every column scored in about a second, warm (the audit's position)
PLY_13 = "4444443332221"


def test_a_solver_out_of_time_is_told_to_raise_max_time_not_to_lower_depth_or_sims(capsys: Any) -> None:
    # 7 x 6 without the book, one stone in: minutes to prove; half a second proves nothing
    assert main(["explain", "--agent", "solver:book=0", "--max-time", "0.5", "--no-boards", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "did not end within 0.5 s (max_time, --max-time): the solver needs more time for this position: " \
           "raise max_time (at most 3600 s)" in err, err
    assert "depth=" not in err and "sims=" not in err, err  # the old advice: a solver has neither


def test_a_search_out_of_time_is_told_only_of_the_budgets_its_agent_has() -> None:
    from zerosum.ui.explain import over_http

    with pytest.raises(TraceBound) as caught:
        zerosum.trace("mcts:sims=150000", "connect4", max_time=1)
    assert caught.value.smaller == "a lower sims=" and "(a lower sims=) or raise max_time" in str(caught.value)
    assert str(over_http(caught.value)).endswith("ask about a smaller search (a lower sims= in agent=)")
    with pytest.raises(TraceBound) as caught:
        zerosum.trace("solver:book=0", "connect4", "4", max_time=0.5)
    assert caught.value.smaller == "" and "the solver needs more time" in str(caught.value)
    said = str(over_http(caught.value))
    assert "depth=" not in said and said.endswith("this position needs more time than this server gives: ask "
                                                  "about a later one"), said


def test_explain_prepares_nothing_for_a_traced_search_nor_where_it_refuses(capsys: Any) -> None:
    from zerosum.agents.registry import make_agent
    from zerosum.trace.bounds import compiled_first

    eight, seven = zerosum.get_game("connect4-8x8"), zerosum.get_game("connect4")
    assert compiled_first(make_agent("alphabeta:depth=4"), seven, seven.parse_position("44")[1]) == []
    assert compiled_first(make_agent("solver"), eight, eight.parse_position("45")[1]) == []  # out of its reach
    assert compiled_first(make_agent("solver"), zerosum.get_game("tictactoe"),
                          zerosum.get_game("tictactoe").initial_state) == []  # alpha-beta moves for it
    steps = compiled_first(make_agent("solver"), seven, seven.parse_position(PLY_13)[1])
    assert [s.label for s in steps][-1] == "the solver's search"
    with pytest.raises(AgentError, match="hours of search"):  # refused at once: no compile of anything first
        zerosum.trace("solver", eight, "45")


@pytest.mark.slow  # compiles the solver from nothing: tens of seconds
def test_a_first_runs_explain_says_the_compile_and_keeps_it_out_of_max_time(tmp_path: Any) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONUNBUFFERED": "1"}
    done = subprocess.run([sys.executable, "-m", "zerosum", "explain", "--agent", "solver", "--max-time", "2",
                           "--no-boards", "--depth", "0", PLY_13], env=env, capture_output=True, text=True,
                          timeout=900)
    # the old command: status 2, "the search did not end within 2 s ... (a lower depth= or sims=)", no word of
    # the compile
    assert done.returncode == 0, done.stderr
    assert "* 3     +2     exact  chosen" in done.stdout, done.stdout
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("zerosum: preparing the engine (") for line in lines), lines
    assert any("first run only: compiling for" in line for line in lines), lines


@pytest.mark.slow  # compiles the solver from nothing: tens of seconds
def test_a_first_runs_trace_from_python_keeps_the_compile_out_of_max_time(tmp_path: Any) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONUNBUFFERED": "1"}
    code = ("import zerosum; t = zerosum.trace('solver', 'connect4', %r, max_time=2); "
            "print(t.result.action, t.result.exact)" % PLY_13)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    # the old call: AgentError "the search did not end within 2 s", the compile counted in max_time
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "True"], done.stdout
    assert "preparing the engine (" in done.stderr and "first run only" in done.stderr, done.stderr
