"""A submission's validation from Python (``zerosum.contest.validate``): real seats (sandboxed where bubblewrap
can make a sandbox) against the random player -- a failure's reason and ply, a player slower than the contest's
move time, and one slower than the validation's own budget but within the contest's time, which is not failed."""

from __future__ import annotations

from pathlib import Path

from contest_serving import GOOD, make_contest

from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store
from zerosum.contest.submissions import accept
from zerosum.contest.validate import validate_submission

UNCONFINED = sandbox_problem() is not None
SLEEPY = "import time\n\n\ndef player(board):\n    time.sleep({seconds})\n    return 3\n"
#: a player that answers a column off the board
OFF_BOARD = "def player(board):\n    return 99\n"


def _validated(tmp_path: Path, text: str, *options: str, budget: float = 7.0) -> tuple[str, str, int | None]:
    folder = tmp_path / "class"
    make_contest(folder, ["Ann"], *options)
    store = Store(folder)
    submission = accept(store, "Ann", "player.py", text.encode())
    answer = validate_submission(store, submission, unconfined=UNCONFINED, budget=budget)
    row = store.submission(submission)
    assert row is not None and (row["status"], row["message"], row["ply"]) == answer  # recorded as answered
    return answer


def test_a_good_player_is_ok(tmp_path: Path) -> None:
    status, message, ply = _validated(tmp_path, GOOD)
    assert status == "ok" and message.startswith("loads and plays legal moves: 4 games") and ply is None


def test_an_illegal_column_fails_with_its_reason_and_ply(tmp_path: Path) -> None:
    status, message, ply = _validated(tmp_path, OFF_BOARD)
    # the first game: the submission moves first from the opening '44' (two plies), so its first move is ply 3
    assert status == "failed" and ply == 3 and "returned 99" in message and "\n" not in message, message
    assert "illegal move: " in message and "crash" not in message and "BadAnswer" not in message, message


def test_slower_than_the_move_time_fails_with_its_reason(tmp_path: Path) -> None:
    status, message, ply = _validated(tmp_path, SLEEPY.format(seconds=3))  # make_contest: 0.5 s a move
    assert status == "failed" and ply == 3, (status, message, ply)
    assert "time" in message


def test_slower_than_the_budget_but_within_the_move_time_is_ok(tmp_path: Path) -> None:
    # 5 s: a seat's start and a 1.5 s move fit in it on a loaded machine; a whole game of them does not
    status, message, ply = _validated(tmp_path, SLEEPY.format(seconds=1.5), "--move-time", "30", budget=5.0)
    assert status == "ok" and "stopped there" in message and ply is None, (status, message, ply)
