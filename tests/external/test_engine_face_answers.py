"""``zerosum engine FILE.py:player`` as a real program (audit of the hosted contest, which runs every student file
through it):

- an ``f(game, state)`` player's answer that is no legal action is said as the homework's ``player(board)``'s is,
  ``info string error the agent failed: illegal move: gs.py:player returned 99 (int) at ...`` (``malformed
  move: ...`` for a string, None, a float), then the first legal move: it was sent as ``bestmove 100``, a move the
  player never returned, and the arena's reason quoted that;
- a file that fails at import while a thread it started still runs ends at once, its error line said (it waited
  for the thread: until the contest's check gave up, quoting none of it); so does one that loads and is quit;
- the homework's one-argument ``player(board)`` offered Tic-Tac-Toe with ``--game`` is refused at load, in one
  line, before the handshake (it was refused at the first ``position``, as a move the engine had not).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from course_sources import nim  # noqa: E402 (tests/course_sources.py)

#: seconds the program may take to start (import zerosum and the file) on a loaded machine, far below the
#: 60 s the threads below sleep: an end within it is an end at once, and one that waits for them fails
START = 15.0
PLAYERS = """import numpy as np
def off_board(game, state): return 99
def full(game, state): return 0
def text(game, state): return "3"
def nothing(game, state): return None
def real(game, state): return 3.0
def numpy_int(game, state): return np.int64(3)
"""
THREAD = "import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()\n"
CRASH_WITH_THREAD = THREAD + "raise ValueError('boom: fix line 3')\ndef player(board): return 3\n"
THREAD_LEFT = THREAD + "def player(board): return 3\n"


def _engine(tmp_path: Path, name: str, text: str, lines: str, *options: str) -> tuple[int, list[str], str]:
    """``zerosum engine`` on ``name`` (a file holding ``text``) given ``lines``, then the end of its input: its
    exit status, output lines and standard error."""
    if text:  # else a built-in agent
        (tmp_path / name.partition(":")[0]).write_text(text)
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "engine", *options, name], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    assert proc.stdin is not None
    try:
        proc.stdin.write(lines.encode())
        proc.stdin.flush()
        try:
            out, err = proc.communicate(timeout=START)
        except subprocess.TimeoutExpired:
            pytest.fail(f"zerosum engine {name} did not end within {START} s")
        return proc.returncode, out.decode().splitlines(), err.decode()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.wait()


def _answer(tmp_path: Path, function: str, moves: str = "111111") -> list[str]:
    """The last two lines sent for ``go`` by the player ``function`` of :data:`PLAYERS` on Connect Four."""
    status, out, _ = _engine(tmp_path, f"players.py:{function}", PLAYERS,
                                f"zsp 1\nposition connect4 moves {moves}\ngo movetime 2000\n")
    assert status == 0, out
    return out[-2:]  # the end of the input waits for the go's answer


def test_an_answer_off_the_board_is_said_as_the_homeworks_is_never_sent_as_a_move(tmp_path: Path) -> None:
    said, answer = _answer(tmp_path, "off_board", moves="1254")
    assert said == ("info string error the agent failed: illegal move: players.py:off_board returned 99 (int) at the "
                    "position after '1254': column 100 is outside 1..7 (action 99 is outside 0..6)"), said
    assert answer == "bestmove 1"  # the first legal move, as for any failure of the agent; never 'bestmove 100'


def test_a_full_column_is_an_illegal_move_in_the_games_words(tmp_path: Path) -> None:
    said, answer = _answer(tmp_path, "full")
    assert said.endswith("illegal move: players.py:full returned 0 (int) at the position after '111111': column 1 "
                         "is full"), said
    assert answer == "bestmove 2"


@pytest.mark.parametrize("function, shown", [("text", "'3' (str)"), ("nothing", "None (NoneType)"),
                                             ("real", "3.0 (float)")])
def test_an_answer_that_is_no_action_is_a_malformed_move(tmp_path: Path, function: str, shown: str) -> None:
    said, answer = _answer(tmp_path, function)
    assert said == (f"info string error the agent failed: malformed move: players.py:{function} returned {shown} at "
                    "the position after '111111': expected one of the legal actions [1, 2, 3, 4, 5, 6] (int, numbered "
                    "as in Python)"), said
    assert answer == "bestmove 2"


def test_a_numpy_integer_is_played_as_its_column(tmp_path: Path) -> None:
    said, answer = _answer(tmp_path, "numpy_int")
    assert said.startswith("info time ") and answer == "bestmove 4", (said, answer)


def test_a_failed_import_ends_at_once_whatever_threads_it_left(tmp_path: Path) -> None:
    status, out, err = _engine(tmp_path, "threadcrash.py:player", CRASH_WITH_THREAD, "zsp 1\n")
    assert status == 2 and out == [], (status, out)
    assert err.strip().splitlines()[-1] == ("zerosum engine: error: loading agent file 'threadcrash.py' failed: "
                                            "ValueError: boom: fix line 3"), err


def test_quit_ends_it_at_once_whatever_threads_the_file_left(tmp_path: Path) -> None:
    status, out, _ = _engine(tmp_path, "threadleft.py:player", THREAD_LEFT, "zsp 1\nquit\n")
    assert status == 0 and out[-1] == "zspok", (status, out)


def test_the_homeworks_player_offered_tictactoe_is_refused_at_load(tmp_path: Path) -> None:
    status, out, err = _engine(tmp_path, "hw.py:player", "def player(board): return 3\n", "zsp 1\nquit\n",
                                  "--game", "tictactoe")
    assert status == 2 and out == [], (status, out)  # no handshake: refused before it
    assert err.strip().splitlines() == [
        "zerosum engine: error: hw.py:player takes one argument, so it is the homework's player(board): it plays "
        "Connect-X boards only, not tictactoe (write f(game, state) for other games)"], err


def test_the_homeworks_player_offered_connect_x_loads(tmp_path: Path) -> None:
    status, out, _ = _engine(tmp_path, "hw.py:player", "def player(board): return 3\n", "zsp 1\nquit\n",
                                "--game", "connect4", "--game", "connect4-8x8")
    offered = ["game connectx:rows=6,cols=7,k=4", "game connectx:rows=8,cols=8,k=4", "zspok"]
    assert status == 0 and out[-3:] == offered, out


# ---- a game file named by a position line (an audit of a teacher's course work) ------------------------------

EVIL = "open('ran', 'w').write('x')\nclass G:\n    pass\n"


def test_a_position_never_makes_the_engine_run_a_game_file_it_was_not_started_with(tmp_path: Path) -> None:
    # without --game the handshake lists zerosum's games only, yet `position evil.py:G` imported the file (its
    # code ran) before being refused as no game
    (tmp_path / "evil.py").write_text(EVIL)
    status, out, _ = _engine(tmp_path, "random", "", "zsp 1\nposition evil.py:G\n")
    assert status == 0 and out[-1] == ("info string error evil.py:G is not one of this engine's games: it runs no game "
                                       "file a position names (start it with --game evil.py:G)"), out
    assert not (tmp_path / "ran").exists()  # nothing of it ran
    (tmp_path / "nim.py").write_text(nim())
    status, out, _ = _engine(tmp_path, "random", "", "zsp 1\nposition evil.py:G\n", "--game", "nim.py:Nim")
    assert out[-1].startswith("info string error evil.py:G is not one of this engine's games") and \
        not (tmp_path / "ran").exists(), out


def test_a_game_file_is_the_same_however_its_path_is_written(tmp_path: Path) -> None:
    # the arena names the game by its absolute path, the engine's handshake as it was given (nim.py:Nim): the
    # arena refused to play it ("engine e does not play /abs/nim.py:Nim (its games: nim.py:Nim)")
    from process_helpers import zerosum_run  # noqa: E402 (tests/process_helpers.py)

    (tmp_path / "nim.py").write_text(nim())
    status, out, _ = _engine(tmp_path, "random", "", f"zsp 1\nposition {tmp_path / 'nim.py'}:Nim\ngo nodes 1\n",
                             "--game", "nim.py:Nim")
    assert status == 0 and out[-1].startswith("bestmove "), out
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the arena and its engine share the folder the relative path is read from
    try:
        done = zerosum_run(["match", "e", "random", "--engine", f"e={sys.executable} -m zerosum engine random --game "
                            "nim.py:Nim", "--game", "nim.py:Nim", "--games", "2", "--opening-plies", "0", "-o",
                            str(tmp_path / "m.db"), "--quiet"])
    finally:
        os.chdir(cwd)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 games in"), done.stdout
