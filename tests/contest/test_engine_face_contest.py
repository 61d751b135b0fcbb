"""A Python upload's check (``zerosum.contest.validate``, real seats: sandboxed where bubblewrap can make a
sandbox), where ``zerosum engine`` runs the file (audit of the hosted contest):

- an ``f(game, state)`` player's answer that is no legal action fails with the player's own words, as the
  homework's ``player(board)``'s does (it was ``illegal move: bestmove '100': column 100 is outside 1..7``, a
  move the player never returned);
- a file that fails at import while a thread it started runs is answered at once with its error (it was
  answered after the check's 7 s, ``it did not finish loading``, the error never shown);
- the homework's ``player(board)`` on a Tic-Tac-Toe contest does not start, in the refusal's own words (it
  failed during play, as ``illegal move: bestmove (none) ...``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from contest_serving import make_contest

from zerosum.cli import main
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store
from zerosum.contest.submissions import accept
from zerosum.contest.validate import validate_submission

UNCONFINED = sandbox_problem() is not None


def _validated(folder: Path, text: str) -> tuple[str, str, int | None]:
    store = Store(folder)
    try:
        return validate_submission(store, accept(store, "Ann", "player.py", text.encode()), unconfined=UNCONFINED)
    finally:
        store.close()


def _tictactoe(tmp_path: Path) -> Path:
    folder, roster = tmp_path / "ttt", tmp_path / "roster.csv"
    roster.write_text("name\nAnn\n", encoding="utf-8")
    assert main(["contest", "new", str(folder), "--game", "tictactoe", "--roster", str(roster),
                 "--move-time", "0.5"]) == 0
    return folder


def test_an_f_game_state_answer_off_the_board_fails_in_the_players_words(tmp_path: Path) -> None:
    make_contest(tmp_path / "class", ["Ann"])
    status, message, ply = _validated(tmp_path / "class", "def player(game, state):\n    return 99\n")
    assert status == "failed" and ply == 3, (status, message, ply)  # its first move, after the opening '44'
    assert message.startswith("illegal move: submission.py:player returned 99 (int) at the position after '44") \
        and "column 100 is outside 1..7 (action 99 is outside 0..6)" in message and "bestmove" not in message, message


def test_on_tictactoe_a_cell_off_the_board_and_a_string_fail_in_the_players_words(tmp_path: Path) -> None:
    folder = _tictactoe(tmp_path)
    status, message, _ = _validated(folder, "def player(game, state):\n    return 42\n")
    assert status == "failed" and message.startswith("illegal move: submission.py:player returned 42 (int) at ") \
        and "cell 43 is outside 1..9 (action 42 is outside 0..8)" in message, message
    status, message, _ = _validated(folder, "def player(game, state):\n    return '5'\n")
    assert status == "failed" and message.startswith("malformed move: submission.py:player returned '5' (str) at ") \
        and "expected one of the legal actions [" in message, message


def test_a_failed_import_with_a_thread_running_is_answered_at_once_with_its_error(tmp_path: Path) -> None:
    make_contest(tmp_path / "class", ["Ann"])
    text = ("import threading, time\nthreading.Thread(target=time.sleep, args=(100,)).start()\n"
            "raise ValueError('boom: fix line 3')\n\n\ndef player(board):\n    return 3\n")
    status, message, ply = _validated(tmp_path / "class", text)
    assert status == "failed" and ply is None and message.startswith("it does not start: "), message
    # the engine's own line (the file's path: the sandbox's, or where it lies when unconfined)
    assert "zerosum engine: error: loading agent file '" in message \
        and message.endswith("submission.py' failed: ValueError: boom: fix line 3"), message


def test_the_homeworks_player_on_tictactoe_does_not_start(tmp_path: Path) -> None:
    status, message, ply = _validated(_tictactoe(tmp_path), "def player(board):\n    return 3\n")
    assert status == "failed" and ply is None, (status, message, ply)
    assert message.startswith("it does not start: ") and message.endswith(
        "submission.py:player takes one argument, so it is the homework's player(board): it plays Connect-X boards "
        "only, not tictactoe (write f(game, state) for other games)"), message


@pytest.mark.slow  # the check's own 7 s
def test_a_hang_at_import_is_answered_with_its_last_line_on_standard_error(tmp_path: Path) -> None:
    # the check said only that the start hung; what the file printed last says where (tests/external's
    # test_handshake_last_words: the handshake's failure quotes it)
    make_contest(tmp_path / "class", ["Ann"])
    text = ("import sys, time\nprint('loading the weights from w.bin...', file=sys.stderr, flush=True)\n"
            "time.sleep(60)\ndef player(board):\n    return 3\n")
    status, message, _ = _validated(tmp_path / "class", text)
    assert status == "failed" and "did not finish loading within the check's" in message, message
    assert message.endswith("; its last line on standard error: 'loading the weights from w.bin...'"), message
