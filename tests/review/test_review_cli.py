"""``zerosum review`` as a user runs it (real processes, real files): the table and the summary, DESIGN's
JSON, the annotated record that records and ``zerosum replay`` read back, a record file's games, and bad input
as one line that changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from zerosum import records

ENV = {**os.environ, "NO_COLOR": "1"}


def zerosum(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zerosum", *args], input=stdin, capture_output=True, text=True,
                          env=ENV, timeout=300)


def test_the_table_the_json_and_the_annotated_record_that_replay_reads(tmp_path):
    out = tmp_path / "review.pgn"
    run = zerosum("review", "44444413", "-o", str(out))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Review of connectx:rows=6,cols=7,k=4 by the solver")
    row = next(line for line in lines if line.startswith("7 "))
    assert row.split()[:3] == ["7", "1??", "blunder"] and "win in 18 moves" in row and "loss in 18 moves" in row
    assert any(line.startswith("X: kept the result with 3 of 4 moves (75%)") and "blunder at ply 7 (1)" in line
               for line in lines)
    written = records.read(out)[0]
    assert written.moves == list("44444413")
    assert [n.mark if n else None for n in written.notes] == ["!", None, "!", None, "!", None, "??", "??"]
    assert written.notes[6].comment.startswith("blunder: win in 18 moves -> loss in 18 moves; best 3 5")

    again = zerosum("review", str(out), "--json")  # the annotated record is reviewed again, the same
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)
    assert [d["class"] for d in data] == ["best"] * 6 + ["blunder"] * 2
    assert {"ply", "move", "before", "after", "class", "best"} <= set(data[0])
    assert data[6]["before"] == "win in 18 moves" and data[6]["best"] == ["3", "5"] and data[6]["line"]

    from zerosum.ui.record_api import record_games  # what the page does with an opened record file

    page = record_games(out.read_text())["games"][0]
    assert page["error"] is None and page["moves"] == list("44444413")

    replay = zerosum("replay", str(out), "--no-color", stdin="l\nq\n")
    assert replay.returncode == 0, replay.stderr
    assert "ply 8/8" in replay.stdout and "Annotator" in replay.stdout


def test_a_record_file_of_several_games_and_one_game_of_it(tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text('[Game "tictactoe"]\n[Round "1"]\n\n1. 5 1 2. 9 2 *\n\n'
                     '[Game "tictactoe"]\n[Round "2"]\n\n1. 1 5 *\n')
    both = zerosum("review", str(games), "--json", "--agent", "alphabeta")
    assert both.returncode == 0, both.stderr
    data = json.loads(both.stdout)
    assert [len(d) for d in data] == [4, 2] and data[0][3]["class"] == "mistake" and data[0][3]["exact"]
    second = zerosum("review", str(games), "--index", "2", "--agent", "alphabeta")
    assert second.returncode == 0 and "Game 1 of" not in second.stdout and "by alphabeta" in second.stdout
    # --game names the record's game or is refused, connect4 too (the default's name was taken for none given)
    for spec in ("connect4", "connectx:rows=6,cols=7,k=4"):
        other = zerosum("review", str(games), "--game", spec)
        assert other.returncode == 2 and other.stdout == "", other.stdout
        assert other.stderr.strip() == f"zerosum review: error: --game {spec}: the record is a game of tictactoe " \
                                       "(its Game tag)"
    named = zerosum("review", str(games), "--index", "2", "--game", "tictactoe", "--agent", "alphabeta")
    assert named.returncode == 0 and "Review of tictactoe" in named.stdout


@pytest.mark.parametrize("args, message", [
    (["4444444"], "column 4 is full"),
    (["44", "--index", "2"], "--index picks a game of a record file"),
    (["missing.pgn"], "not found"),
    (["44", "--game", "nope"], "nope"),
    (["44", "--line", "-3"], "--line"),
    (["44", "--agent", "nosuchagent"], "nosuchagent"),
    (["5", "--game", "tictactoe", "--agent", "random"], "does not search"),
    ([""], "MOVES is empty"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    run = zerosum("review", *args)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and message in run.stderr


def test_an_existing_output_is_refused_and_left_as_it_was(tmp_path):
    out = tmp_path / "keep.pgn"
    out.write_text("mine\n")
    run = zerosum("review", "44", "-o", str(out))
    assert run.returncode == 2 and "--overwrite" in run.stderr and out.read_text() == "mine\n"
    run = zerosum("review", "44", "-o", str(out), "--overwrite")
    assert run.returncode == 0 and records.read(out)[0].moves == ["4", "4"]


def test_the_record_file_reviewed_is_never_its_output(tmp_path):
    """--overwrite of the file being read replaced its six games with the one reviewed (audit)."""
    games = tmp_path / "games.pgn"
    text = "".join(f'[Game "tictactoe"]\n[Round "{n}"]\n\n1. 5 1 *\n\n' for n in range(1, 7))
    games.write_text(text)
    (tmp_path / "sub").mkdir()
    for target in (games, tmp_path / "sub" / ".." / "games.pgn"):  # the same file, named otherwise
        run = zerosum("review", str(games), "--index", "2", "-o", str(target), "--overwrite", "--agent", "alphabeta")
        assert run.returncode == 2 and run.stdout == "" and "that is the record file being reviewed" in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and games.read_text() == text


@pytest.mark.parametrize("kind, overwrite, message", [
    ("directory", True, "is a directory"),
    ("directory", False, "is a directory"),
    ("missing folder", False, "does not exist"),
    ("symbolic link", True, "is a symbolic link"),
    ("fifo", True, "is a FIFO"),
])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(kind, overwrite, message, tmp_path):
    """What the record writer refuses (README's Limits) is refused before the review: nothing of it is printed."""
    kept = tmp_path / "kept.pgn"
    kept.write_text("mine\n")
    out = {"directory": tmp_path / "adir", "missing folder": tmp_path / "nodir" / "x.pgn",
           "symbolic link": tmp_path / "link.pgn", "fifo": tmp_path / "fifo.pgn"}[kind]
    if kind == "directory":
        out.mkdir()
    elif kind == "symbolic link":
        out.symlink_to(kept)
    elif kind == "fifo":
        os.mkfifo(out)
    run = zerosum("review", "44", "-o", str(out), *(["--overwrite"] if overwrite else []))
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and message in run.stderr
    assert kept.read_text() == "mine\n"


def test_bench_review_prints_a_line_a_game_and_the_percentiles(tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text('[Game "connect4"]\n[Round "1"]\n\n1. 4 4 2. 4 4 3. 4 4 4. 1 3 *\n\n'
                     '[Game "connect4"]\n[Round "2"]\n\n1. 4 4 2. 3 *\n')
    run = zerosum("bench", "review", str(games))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"zerosum bench review {games} (2 games); load at start:")
    assert [line.split()[:3] for line in lines if line.startswith("game ")] == [["game", "1:", "8"],
                                                                              ["game", "2:", "3"]]
    assert any(line.startswith("seconds a game: p50 ") for line in lines)
    assert any(line.startswith("first mark: p50 ") for line in lines) and lines[-1].startswith("load at end:")
