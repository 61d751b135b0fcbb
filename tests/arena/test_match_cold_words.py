"""``zerosum match`` without a terminal says what its first games wait for (#21's audit, item 2): on a cold numba
cache a piped match of alpha-beta and MCTS on 8 x 8 sat 40 s in silence (the progress bar's words, "the first
games are starting (a first run also compiles the engines: up to a minute)", are a terminal's only), and so did
one with an external engine (``--engine zs="zerosum engine solver"``) whose code compiled at its ``newgame``.

Now, with no terminal and without ``--quiet``, the run prepares its agents' compiled code in its own process
before any worker starts, saying so on standard error as ``zerosum analyze`` does (``zerosum: preparing the
engine (alpha-beta's kernel), first run only: compiling for ...``), and begins each external engine on the game
once, saying a wait of over a second (``zerosum: engine zs is getting ready for ...``); the workers then find
the code prepared.  The results and tables on standard output are as before; ``--quiet`` says none of it.

Real processes throughout: ``python -m zerosum match`` with its output piped, numba's cache an empty folder
(``NUMBA_CACHE_DIR``) or the one a run left; alpha-beta's kernel for a 5 x 5 board compiles in a few seconds.
The slow test is the audit's match on 8 x 8.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: a safety net for any process: far past a cold compile on two busy cores
PATIENCE = 900


def _match(args: list[str], cwd: Path, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "COLUMNS")}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-m", "zerosum", "match", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=PATIENCE, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    return done


def _compiles(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("zerosum: preparing the engine (")
            and ", first run only: " in line]


RUN = ["--game", "connectx:rows=5,cols=5,k=4", "--games", "2", "--jobs", "1", "alphabeta:depth=2", "first"]


def test_a_piped_match_on_a_cold_cache_says_it_prepares_its_engines(tmp_path: Path) -> None:
    cold = _match([*RUN, "-o", "cold.db"], tmp_path, tmp_path / "numba")
    said = _compiles(cold.stderr)
    assert said and said[0].startswith("zerosum: preparing the engine (alpha-beta's kernel), first run only: "
                                       "compiling for "), cold.stderr
    assert "2 games in cold.db" in cold.stdout and "zerosum:" not in cold.stdout, cold.stdout
    warm = _match([*RUN, "-o", "warm.db"], tmp_path, tmp_path / "numba")  # the cache the first left
    assert _compiles(warm.stderr) == [], warm.stderr
    assert warm.stdout.splitlines()[0] == cold.stdout.splitlines()[0]  # the same header, the same run


ENGINE = '''
import os, sys, time

MARK = sys.argv[1]  # its "compiled code": made by the first process that prepares, loaded by the next ones


def out(line):
    sys.stdout.write(line + "\\n")
    sys.stdout.flush()


fresh, moves = False, ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "zsp":
        out("id name slowready")
        out("game tictactoe")
        out("zspok")
    elif words[0] == "newgame":
        fresh = True
    elif words[0] == "isready":
        if fresh and not os.path.exists(MARK):  # a first run: it compiles for 2.5 s
            time.sleep(2.5)
            with open(MARK, "a") as f:
                f.write(f"{os.getpid()}\\n")
        fresh = False
        out("readyok")
    elif words[0] == "position":
        moves = words[3] if len(words) > 3 else ""
    elif words[0] == "go":
        out("bestmove " + next(c for c in "516234789" if c not in moves))
    elif words[0] == "quit":
        break
'''


def test_an_external_engine_that_prepares_at_its_newgame_is_begun_first_and_said(tmp_path: Path) -> None:
    program, mark = tmp_path / "slowready.py", tmp_path / "compiled"
    program.write_text(textwrap.dedent(ENGINE))
    done = _match(["slowready", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--engine",
                   f"slowready={sys.executable} {program} {mark}", "-o", "r.db"], tmp_path)
    said = [line for line in done.stderr.splitlines() if line.startswith("zerosum: engine slowready is getting ready")]
    assert said and said[0].startswith("zerosum: engine slowready is getting ready for tictactoe (newgame; a first "
                                       "run may compile its code): "), done.stderr
    assert "2 games in r.db" in done.stdout, done.stdout
    assert len(mark.read_text().splitlines()) == 1  # prepared once, before the games: theirs found it done


def test_quiet_says_nothing_of_the_preparation(tmp_path: Path) -> None:
    program, mark = tmp_path / "slowready.py", tmp_path / "compiled"
    program.write_text(textwrap.dedent(ENGINE))
    done = _match(["slowready", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--engine",
                   f"slowready={sys.executable} {program} {mark}", "-o", "r.db", "--quiet"], tmp_path)
    assert done.stderr == "" and done.stdout.startswith("2 games in r.db"), done.stderr


@pytest.mark.slow  # alpha-beta's and MCTS's kernels for 8 x 8 compile from nothing: 10-20 s, twice
def test_the_audits_match_on_8x8_on_a_cold_cache_says_what_it_compiles(tmp_path: Path) -> None:
    run = ["--game", "connect4-8x8", "--games", "2", "alphabeta:depth=2", "mcts:sims=200"]
    cold = _match([*run, "-o", "m1.db"], tmp_path, tmp_path / "numba")
    said = _compiles(cold.stderr)
    assert said and said[0].startswith("zerosum: preparing the engine (alpha-beta's kernel), first run only: "), \
        cold.stderr
    assert "2 games in m1.db" in cold.stdout and "zerosum:" not in cold.stdout, cold.stdout
    quiet = _match([*run, "-o", "m2.db", "--quiet"], tmp_path, tmp_path / "quiet-numba")  # cold too, but quiet
    assert quiet.stderr == "" and quiet.stdout.startswith("2 games in m2.db"), quiet.stderr
