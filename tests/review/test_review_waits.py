"""``zerosum review`` never waits in silence (real processes, the real engines): a wait of more than a second is
a line redrawn in place on a terminal, erased before the next row and fitted to its width; where standard
output is data (``--json``, a pipe) the words go to standard error, never into the data; and loading a large
record file says so once, while ``review --index N`` reads no further than game N."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from zerosum import get_game, records

ENV = {**os.environ, "NO_COLOR": "1"}


def zerosum(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zerosum", *args], input=stdin, capture_output=True, text=True,
                          env=ENV, timeout=300)


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    """Alpha-beta's 8 x 8 kernel in numba's cache, so that the processes below load it rather than compile it
    (a first run's compile is said too, in other words: ``preparing the engine ...``)."""
    import zerosum

    zerosum.review("4", game="connect4-8x8", seconds=0.05, line=0)


def test_a_json_review_says_its_wait_on_standard_error_and_the_json_stays_clean():
    # four early 8 x 8 moves, about a second of alpha-beta each, no row to show for them: one wait of 4 s
    run = zerosum("review", "4453", "--game", "connect4-8x8", "--time", "1", "--line", "0", "--json")
    assert run.returncode == 0, run.stderr
    assert [m["ply"] for m in json.loads(run.stdout)] == [1, 2, 3, 4]  # nothing but the JSON on standard output
    said = [line for line in run.stderr.splitlines() if line.startswith("zerosum review: ")]
    assert said, run.stderr  # said once it passed 1.5 s (again every 10 s): what it is doing then
    for line in said:
        assert re.fullmatch(r"zerosum review: (\d of 4 moves judged; )?(starting the review \(loading the engines\): "
                            r"|reviewing: |judging ply \d: alpha-beta's estimates \(about 1 s a position\), "
                            r"|preparing the engine).*\d s", line), run.stderr


def test_rows_in_a_pipe_keep_to_themselves_and_the_waits_between_them_go_to_standard_error():
    run = zerosum("review", "44", "--game", "connect4-8x8", "--time", "2", "--line", "0")
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if re.match(r"\d+ ", line)]
    assert [r.split()[0] for r in rows] == ["1", "2"] and "judging" not in run.stdout
    assert re.search(r"^zerosum review: judging ply [12]: alpha-beta's estimates \(about 2 s a position\), "
                     r"\d\.\d s$", run.stderr, flags=re.M), run.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_on_a_terminal_the_wait_is_redrawn_in_place_fitted_to_the_width_and_erased_before_the_row():
    import fcntl
    import select
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 50, 0, 0))  # 50 columns
    env = {**ENV, "TERM": "xterm"}
    env.pop("COLUMNS", None)
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "review", "44", "--game", "connect4-8x8", "--time",
                             "2.5", "--line", "0"], stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the process ended
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        assert proc.wait(timeout=30) == 0, seen.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = seen.decode(errors="replace")
    drawn = re.findall(r"\r([^\r\n]*)\x1b\[K", text)
    waits = [d for d in drawn if d]
    starts = ("judging ply ", "starting the review (loading the engines)", "preparing the engine")
    assert waits and all(w.startswith(starts) for w in waits), text  # (the engines load slowly on a busy machine)
    assert all(len(w) <= 49 for w in waits), waits  # within the 50 columns: the line is redrawn, never wrapped
    assert any(re.fullmatch(r"judging ply 1: alpha-beta's estimates, \d\.\d s", w) for w in waits), waits
    assert "\r\x1b[K1     4" in text.replace("\r\n", "\n")  # the line erased, then the row in its place


def _big_file(path, games: int, broken_last: bool = False) -> None:
    """A record file of ``games`` 7 x 6 games of 30 plies (385 characters each); ``broken_last``: the last
    one's last move is column 9."""
    game = get_game("connect4")
    moves = [game.format_action(a) for a in game.parse_moves("475774457522754657214321516462")]
    text = records.format(records.Record({"Game": game.spec, "Result": "*", "Termination": "unterminated",
                                          "First": "alphabeta:depth=4", "Second": "mcts:sims=500"}, moves))
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(games - 1):
            f.write(text + "\n")
        f.write(text.replace("15. 6 2 *", "15. 6 9 *") if broken_last else text)


def test_loading_a_large_record_file_is_said_once_and_review_index_reads_no_further_than_its_game(tmp_path):
    big = tmp_path / "big.pgn"
    _big_file(big, 8_000)  # 3 MB: about 3 s of reading, every game checked
    replay = zerosum("replay", str(big), "--index", "2", "--no-color", stdin="q\n")
    assert replay.returncode == 0, replay.stderr
    said = [line for line in replay.stderr.splitlines() if "reading" in line]
    assert len(said) == 1 and said[0].startswith(f"zerosum replay: reading '{big}' (") and " MB): " in said[0], \
        replay.stderr
    assert "Game 2 of 8000" in replay.stdout  # replay counts every game (its heading), each checked
    began = time.perf_counter()
    review = zerosum("review", str(big), "--index", "2", "--agent", "alphabeta:depth=1", "--json")
    took = time.perf_counter() - began
    assert review.returncode == 0 and len(json.loads(review.stdout)) == 30, review.stderr
    assert "reading" not in review.stderr, review.stderr  # two games read, not 8,000
    assert took < 30, took


def test_review_index_n_reviews_game_n_of_a_file_whose_later_game_is_broken(tmp_path):
    path = tmp_path / "games.pgn"
    _big_file(path, 3, broken_last=True)
    with pytest.raises(Exception, match="game 3"):
        records.read(path)  # the file as a whole is refused, at game 3
    run = zerosum("review", str(path), "--index", "2", "--agent", "alphabeta:depth=1", "--line", "0")
    assert run.returncode == 0, run.stderr
    assert "(30 moves judged" in run.stdout
    whole = zerosum("review", str(path), "--index", "3", "--agent", "alphabeta:depth=1")
    assert whole.returncode == 2 and whole.stdout == "" and "game 3, line" in whole.stderr, whole.stderr
