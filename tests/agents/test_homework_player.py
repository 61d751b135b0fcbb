"""The 8 x 8 homework's player contract: ``player(board)`` on a numpy board, seen from O's side, answers
checked; agent files that import their sibling modules, each its own; a forfeit's row that says why."""

import json
import os
import sqlite3
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import zerosum
from zerosum.agents.homework import BadAnswer
from zerosum.agents.registry import make_agent
from zerosum.cli import main
from zerosum.errors import AgentError


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def homework_board(moves: str, rows: int, cols: int) -> np.ndarray:
    """The board as the homework builds it (its dropPiece): X = 1 moves first, O = 2; top row first."""
    board = np.zeros((rows, cols), dtype=int)
    player = 1
    for ch in moves:
        col = int(ch) - 1
        row = max(r for r in range(rows) if board[r][col] == 0)
        board[row][col] = player
        player = 3 - player
    return board


SEEN = """
import numpy as np
boards = []
def player(board):
    boards.append(np.array(board))
    return [c for c in range(board.shape[1]) if board[0][c] == 0][0]
"""


@pytest.mark.parametrize("spec,moves", [("connect4-8x8", "4453"), ("connect4-8x8", "44536"), ("connect4", "1234567"),
                                        ("connectx:rows=5,cols=7,k=4", "")])
def test_the_player_sees_the_homework_board_from_O_s_side(tmp_path, spec, moves):
    path = write(tmp_path, "seen.py", SEEN)
    agent = make_agent(f"{path}:player")
    game = zerosum.get_game(spec)
    state = game.from_moves(moves) if moves else game.initial_state
    assert agent(game, state) == 0
    seen = agent.func.__globals__["boards"][-1]
    expected = homework_board(moves, game.rows, game.cols)
    if len(moves) % 2 == 0:  # the player is X (first): 1 and 2 swapped, so that it is O = 2
        expected = np.where(expected == 0, 0, 3 - expected)
    assert seen.shape == (game.rows, game.cols) and np.issubdtype(seen.dtype, np.integer)
    assert (seen == expected).all()
    assert (seen == 2).sum() == len(moves) // 2  # its own stones: 2, whichever side it is


def test_its_own_stones_are_always_2():
    game = zerosum.get_game("connect4-8x8")
    seen = []
    agent = make_agent(lambda board: seen.append(board.copy()) or 0)
    for moves in ("4", "45"):  # O to move after one stone, X to move after two
        agent(game, game.from_moves(moves))
    o_view, x_view = seen
    assert o_view[7][3] == 1  # X's stone is the opponent's
    assert x_view[7][3] == 2 and x_view[7][4] == 1  # X's own stone shows as O = 2


@pytest.mark.parametrize("answer,kind,words", [
    ("None", "malformed move", "returned None (NoneType)"),
    ("3.0", "malformed move", "returned 3.0 (float)"),
    ("True", "malformed move", "returned True (bool)"),
    ("'3'", "malformed move", "returned '3' (str)"),
    ("8", "illegal move", "column 9 is outside 1..8 (0-based 8 is outside 0..7)"),
    ("-1", "illegal move", "column 0 is outside 1..8 (0-based -1 is outside 0..7)"),
    ("3", "illegal move", "column 4 is full (0-based 3)"),
])
def test_an_answer_that_is_not_a_legal_column_is_one_line_naming_the_function_and_position(tmp_path, answer, kind, words):
    path = write(tmp_path, "hw.py", f"def player(board):\n    return {answer}\n")
    game = zerosum.get_game("connect4-8x8")
    state = game.from_moves("44444444")  # column 4 (action 3) is full
    with pytest.raises(BadAnswer) as info:
        make_agent(f"{path}:player")(game, state)
    text = str(info.value)
    assert info.value.kind == kind and "\n" not in text
    assert text.startswith("hw.py:player returned") and words in text
    assert "position '44444444'" in text and "expected a 0-based column 0..7 that is not full" in text
    assert isinstance(info.value, AgentError)


def test_numpy_integers_are_columns(tmp_path):
    path = write(tmp_path, "hw.py", "import numpy as np\ndef player(board):\n    return np.int64(2)\n")
    game = zerosum.get_game("connect4-8x8")
    assert make_agent(f"{path}:player")(game, game.initial_state) == 2


def test_a_board_player_plays_connect_x_only(tmp_path):
    path = write(tmp_path, "hw.py", "def player(board):\n    return 0\n")
    agent = make_agent(f"{path}:player")
    with pytest.raises(AgentError, match="hw.py:player takes one argument.*Connect-X boards only, not tictactoe"):
        agent(zerosum.get_game("tictactoe"), zerosum.get_game("tictactoe").initial_state)


def test_a_tournament_refuses_a_board_player_on_another_game_before_any_game(tmp_path, capsys):
    """It was refused at its own first game ('game 3 could not start'), after the other pairings' games."""
    path = write(tmp_path, "hw.py", "def player(board):\n    return 0\n")
    db = tmp_path / "t.db"
    assert main(["tournament", "random", "first", str(path), "--game", "tictactoe", "--games", "2", "--quiet",
                 "--out", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Connect-X boards only, not tictactoe" in err and "could not start" not in err, err
    assert not db.exists()


def _games(db: Path) -> list[tuple]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT g.reason, g.forfeit, g.moves, p.first FROM games g JOIN plan p USING (idx) "
                           "ORDER BY g.idx").fetchall()
    finally:
        con.close()
    return [(reason, forfeit, json.loads(moves), first) for reason, forfeit, moves, first in rows]


def test_a_bad_answer_forfeits_in_the_arena_with_its_line(tmp_path, capsys):
    path = write(tmp_path, "hw.py", "def player(board):\n    return None\n")
    db = tmp_path / "bad.db"
    assert main(["match", f"{path}:player", "random", "--game", "connect4-8x8", "--games", "2", "--opening-plies", "0",
                 "--jobs", "1", "--out", str(db)]) == 0
    reasons = [reason for reason, forfeit, *_ in _games(db)]
    assert all(r.startswith(("malformed move: hw.py:player returned None (NoneType) in position '",
                             "malformed move: hw.py:player returned None (NoneType) at the start:")) for r in reasons)
    out = " ".join(capsys.readouterr().out.split())
    assert "malformed move: hw.py:player returned None" in out  # the Forfeits table says why


def test_a_forfeit_row_says_why_in_the_table_and_the_report(tmp_path, capsys):
    path = write(tmp_path, "hw.py", "def player(board):\n    return search(board, 1)\n"
                                    "def search(board, depth, extra):\n    return 0\n")  # a bug in the search
    db = tmp_path / "why.db"
    assert main(["match", f"{path}:player", "random", "--game", "connect4-8x8", "--games", "2", "--opening-plies", "0",
                 "--jobs", "1", "--out", str(db)]) == 0
    assert all(r.startswith("error: hw.py:player(board) raised TypeError: search() missing 1 required positional "
                            "argument") for r, *_ in _games(db))
    why = "error: search() missing 1 required positional argument: 'extra' (TypeError)"
    assert why in " ".join(capsys.readouterr().out.split())
    assert main(["report", str(db), "--no-plots"]) == 0
    assert why in " ".join(capsys.readouterr().out.split())


# ---- a file named without its function ---------------------------------------------------------------

LEFTMOST = "def player(board):\n    return [c for c in range(board.shape[1]) if board[0][c] == 0][0]\n"


def test_a_file_named_alone_plays_its_player_else_its_only_function(tmp_path):
    game = zerosum.get_game("connect4-8x8")
    hw = write(tmp_path, "hw.py", "import numpy as np\ndef helper(x):\n    return x\n" + LEFTMOST)
    agent = make_agent(str(hw))
    assert agent.spec == f"{hw}:player" and agent(game, game.from_moves("11111111")) == 1
    one = write(tmp_path, "one.py", "def mine(game, state):\n    return game.actions(state)[-1]\n")
    assert make_agent(str(one)).spec == f"{one}:mine"
    assert make_agent(str(one))(game, game.initial_state) == 7


@pytest.mark.parametrize("text,words", [
    ("def a(game, state):\n    return 1\ndef b(game, state):\n    return 2\n",
     "defines 2 functions (a, b) and none is called player"),
    ("X = 1\n", "defines no function: define player(board)"),
    ("def player(board):\n    return (\n", "hw.py line 3: '(' was never closed (the file does not parse)"),
])
def test_a_file_named_alone_without_one_clear_function_is_one_line_and_runs_nothing(tmp_path, text, words):
    path = write(tmp_path, "hw.py", "open('ran', 'w').close()\n" + text)
    with pytest.raises(AgentError) as info:
        make_agent(str(path))
    assert words in str(info.value) and "\n" not in str(info.value)
    assert not (tmp_path / "ran").exists() and not Path("ran").exists()  # its syntax was read, nothing ran


def test_a_missing_or_special_file_named_alone_is_one_line(tmp_path):
    with pytest.raises(AgentError, match=r"not found \(expected path/to/file\.py or "):
        make_agent(str(tmp_path / "nope.py"))
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)  # reading it would wait for ever
    with pytest.raises(AgentError, match=r"is a FIFO, not a regular file"):
        make_agent(str(fifo))


def test_the_arena_stores_a_file_named_alone_by_its_path_and_function_and_resumes_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "hw.py", LEFTMOST)
    args = ["match", "hw.py", "random", "--game", "connect4-8x8", "--opening-plies", "0", "--jobs", "1", "--out", "r.db"]
    assert main([*args, "--games", "2"]) == 0
    assert "hw.py:player" in capsys.readouterr().out  # its label names the function it plays with
    with sqlite3.connect(tmp_path / "r.db") as db:
        config = json.loads(db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
    assert config["agents"][0] == f"{tmp_path / 'hw.py'}:player"
    assert main([*args, "--games", "2", "--resume"]) == 0  # the same words name the same stored agents
    assert len(_games(tmp_path / "r.db")) == 2
    write(tmp_path, "other.py", LEFTMOST)
    assert main([*args[:1], "other.py", *args[2:], "--games", "2", "--resume"]) != 0  # other words do not


# ---- sibling modules --------------------------------------------------------------------------------

STUDENT = """
import helpers
def player(board):
    return helpers.choose(board)
"""
LEFT = "def choose(board):\n    return [c for c in range(board.shape[1]) if board[0][c] == 0][0]\n"
RIGHT = "def choose(board):\n    return [c for c in range(board.shape[1]) if board[0][c] == 0][-1]\n"


def _two_students(tmp_path: Path) -> tuple[Path, Path]:
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    write(ann, "helpers.py", LEFT)
    write(bob, "helpers.py", RIGHT)
    return write(ann, "hw.py", STUDENT), write(bob, "hw.py", STUDENT)


def test_each_agent_file_imports_its_own_sibling_modules(tmp_path):
    ann, bob = _two_students(tmp_path)
    before_path, before_modules = list(sys.path), set(sys.modules)
    a, b = make_agent(f"{ann}:player"), make_agent(f"{bob}:player")
    game = zerosum.get_game("connect4-8x8")
    assert a(game, game.initial_state) == 0 and b(game, game.initial_state) == 7
    assert a(game, game.from_moves("11111111")) == 1  # its own helper, move after move
    assert sys.path == before_path and "helpers" not in sys.modules  # nothing leaks to other agents
    assert set(sys.modules) - before_modules <= {m for m in sys.modules if not m.startswith("helpers")}


def test_an_adapter_imports_the_student_module_beside_it(tmp_path):
    write(tmp_path, "hw_student.py", "def player(board):\n    return 5\n")
    adapter = write(tmp_path, "adapter.py", "import hw_student\ndef player(board):\n    return hw_student.player(board)\n")
    late = write(tmp_path, "late.py", "def player(board):\n    import hw_student\n    return hw_student.player(board)\n")
    game = zerosum.get_game("connect4-8x8")
    assert make_agent(f"{adapter}:player")(game, game.initial_state) == 5
    assert make_agent(f"{late}:player")(game, game.initial_state) == 5  # an import at move time finds it too
    assert "hw_student" not in sys.modules


def test_two_students_with_a_helpers_module_each_play_in_worker_processes(tmp_path):
    ann, bob = _two_students(tmp_path)
    db = tmp_path / "siblings.db"
    assert main(["match", f"{ann}:player", f"{bob}:player", "--game", "connect4-8x8", "--games", "2",
                 "--opening-plies", "0", "--jobs", "2", "--out", str(db), "--quiet"]) == 0
    game = zerosum.get_game("connect4-8x8")
    for reason, forfeit, moves, first in _games(db):
        assert not forfeit, reason
        state = game.initial_state
        for i, text in enumerate(moves):
            ann_moves = (i % 2 == 0) == (first == 0)
            legal = game.actions(state)
            action = game.parse_action(text, state)
            assert action == (legal[0] if ann_moves else legal[-1])  # ann's helper: leftmost; bob's: rightmost
            state = game.result(state, action)


def test_a_one_argument_function_plays_from_python():
    record = zerosum.play_game("connect4-8x8", lambda board: int(np.argmin(board[0])), "first", seed=1)
    assert not record.forfeit and len(record.moves) > 0


def test_a_forfeit_reason_in_the_table_is_one_short_line_whatever_it_was():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from zerosum.arena.forfeits import REASON_CHARS, short_reason

    @settings(max_examples=300, deadline=None)
    @given(st.text(max_size=400))
    def check(text):
        for reason in (text, f"error: {text}", f"error: ValueError: {text}", f"error: {text}: {text}"):
            line = short_reason(reason)
            assert "\n" not in line and len(line) <= REASON_CHARS

    check()
    assert short_reason("error: TypeError: player() takes 1 positional argument but 2 were given") == (
        "error: player() takes 1 positional argument but 2 were given (TypeError)")
    assert short_reason("node limit: more than 10,000 states expanded in one move") == (
        "node limit: more than 10,000 states expanded in one move")


def test_a_library_installed_below_the_agent_s_folder_stays_imported(tmp_path, monkeypatch):
    # a student's folder holding a virtual environment: its libraries are not the file's siblings
    library = tmp_path / ".venv" / "site-packages"
    write(library / "hwlib_installed", "__init__.py", "VALUE = 3\n")
    monkeypatch.syspath_prepend(str(library))
    write(tmp_path, "helpers.py", "def column():\n    return 1\n")
    student = write(tmp_path, "hw.py", "import hwlib_installed\nimport helpers\n"
                                       "def player(board):\n    return hwlib_installed.VALUE + helpers.column()\n")
    try:
        agent = make_agent(f"{student}:player")
        game = zerosum.get_game("connect4-8x8")
        assert agent(game, game.initial_state) == 4
        assert "hwlib_installed" in sys.modules and "helpers" not in sys.modules
    finally:
        sys.modules.pop("hwlib_installed", None)
