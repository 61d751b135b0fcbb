"""``zerosum play`` refuses what the arena refuses, in the arena's words (audit 3).

1. The homework's one-argument ``player(board)`` on a game other than Connect-X: before, ``play`` drew the
   board, took the person's move and only then stopped (``Game stopped: an engine failed``, a ``Continue
   later`` command that failed the same way); now it is ``match``'s one line before the board, exit 2.  The
   page never runs a file on the server's disk: it refuses the same spec before any game, running nothing.
2. A player function's answer that is no legal move: before, ``play`` and the page's move job said
   ``players.py:string chose '1', which is not a legal move`` (column 1 exists) and ``chose 99, ...``; now
   both say what the arena says, naming the answer's type, the position and the legal actions
   (:func:`zerosum.pool.moves.refusal`).
"""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from zerosum import get_game, make_agent
from zerosum.errors import AgentError
from zerosum.pool.moves import Job, choose_move
from zerosum.ui.terminal import play

HOMEWORK = textwrap.dedent("""\
    import pathlib
    pathlib.Path(__file__).with_name("ran.txt").write_text("the file ran")
    def player(board):
        return 3
    """)
PLAYERS = textwrap.dedent("""\
    def string(game, state):
        return str(game.actions(state)[0] + 1)
    def illegal(game, state):
        return 99
    def floaty(game, state):
        return float(game.actions(state)[0])
    def yes(game, state):
        return True
    def column4(game, state):
        return 3
    """)
LEGAL = "expected one of the legal actions [0, 1, 2, 3, 4, 5, 6] (int, numbered as in Python)"
REFUSED = ("hw.py:player takes one argument, so it is the homework's player(board): it plays Connect-X boards "
           "only, not tictactoe (write f(game, state) for other games)")


def zerosum_cli(folder: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", *args], cwd=folder,
                          capture_output=True, text=True, timeout=300, input=stdin)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "hw.py").write_text(HOMEWORK)
    (tmp_path / "players.py").write_text(PLAYERS)
    return tmp_path


# ---- 1. player(board) on a game it cannot play ---------------------------------------------------


@pytest.mark.parametrize("seat", ["--second", "--first"])
def test_play_refuses_the_homework_player_on_tictactoe_before_the_board(folder: Path, seat: str) -> None:
    done = zerosum_cli(folder, "play", "--game", "tictactoe", seat, "hw.py", stdin="5\nq\n")
    assert done.returncode == 2, done
    assert done.stderr == f"zerosum play: error: {REFUSED}\n"  # one line, match's own
    assert done.stdout == ""  # no board, no move taken, no "Game stopped", no "Continue later"


def test_match_says_the_same_line(folder: Path) -> None:
    done = zerosum_cli(folder, "match", "hw.py", "random", "--game", "tictactoe", "--games", "2")
    assert done.returncode == 2 and done.stderr == f"zerosum match: error: {REFUSED}\n", done


def test_the_page_refuses_a_file_agent_before_any_game_running_nothing(folder: Path, client: Any) -> None:
    for agent in ("hw.py", "hw.py:player", str(folder / "hw.py"), str(folder / "hw.py") + ":player"):
        choice = client.get("/api/agent", params={"game": "tictactoe", "agent": agent}).json()
        assert choice["accepted"] is False and choice["error"] and "\n" not in choice["error"], choice
        assert "is a file: the page plays its own engines, never a file" in choice["error"], choice
        moved = client.post("/api/move", json={"game": "tictactoe", "moves": "5", "agent": agent})
        assert moved.status_code == 400 and moved.json() == {"error": choice["error"]}, moved.text
    assert not (folder / "ran.txt").exists()  # the server never runs a file on its disk


# ---- 2. an answer that is no legal move, in the arena's words ------------------------------------


def test_play_says_a_string_answer_as_the_arena_does(folder: Path) -> None:
    done = zerosum_cli(folder, "play", "--second", "players.py:string", stdin="4\nq\n")
    assert done.returncode == 2, done
    assert done.stderr == ("zerosum play: error: players.py:string returned '1' (str) at the position after "
                           f"'4': {LEGAL}\n")
    assert "Continue later with: zerosum play" in done.stdout  # the person's move is kept, as before


def _play_line(folder: Path, name: str, moves: str = "") -> str:
    out = io.StringIO()
    lines = iter(["q"])
    with pytest.raises(AgentError) as info:
        play("connect4", str(folder / f"players.py:{name}"), "human", moves=moves, read=lambda _: next(lines),
             out=out, color=False)  # the function moves first, at once
    return str(info.value)


@pytest.mark.parametrize("name, said", [
    ("illegal", "returned 99 (int) at the start position: column 100 is outside 1..7 (action 99 is outside 0..6)"),
    ("floaty", f"returned 0.0 (float) at the start position: {LEGAL}"),  # before: 0.0 == 0 passed as a move
    ("yes", f"returned True (bool) at the start position: {LEGAL}"),  # before: True == 1 passed as a move
])
def test_play_names_the_answer_its_type_and_the_position(folder: Path, name: str, said: str) -> None:
    assert _play_line(folder, name) == f"{folder / 'players.py'}:{name} {said}"


def test_play_says_a_full_column_as_the_game_does(folder: Path) -> None:
    line = _play_line(folder, "column4", moves="444444")
    assert line == f"{folder / 'players.py'}:column4 returned 3 (int) at the position after '444444': column 4 is full"


@pytest.mark.parametrize("name, said", [
    ("string", f"returned '1' (str) at the position after '4': {LEGAL}"),
    ("illegal", "returned 99 (int) at the position after '4': column 100 is outside 1..7 (action 99 is outside 0..6)"),
])
def test_the_pages_move_job_says_the_same_words(folder: Path, name: str, said: str) -> None:
    game = get_game("connect4")
    state = game.from_moves("4")
    agent = make_agent(str(folder / f"players.py:{name}"))
    with pytest.raises(AgentError) as info:
        choose_move(Job.of(game, [3], state, agent))
    assert str(info.value) == f"{agent.spec} {said}"
