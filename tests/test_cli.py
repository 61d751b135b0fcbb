"""The command line, run as ``zerosum ARGV`` with scripted standard input (``main(argv)`` in this process, its
streams captured: :func:`process_helpers.zerosum_run`)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from process_helpers import zerosum_run

from zerosum.cli import SUBCOMMANDS, build_parser


def call(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``zerosum ARGV`` with ``stdin`` as standard input, in this process (:func:`zerosum_run`: a test may patch
    zerosum): its exit code, standard output and standard error."""
    done = zerosum_run(argv, stdin)
    return done.returncode, done.stdout, done.stderr


def test_help_lists_commands() -> None:
    code, text, _ = call(["--help"])
    assert code == 0
    for name in ("play", "bench"):
        assert name in text
    code, text, _ = call(["play", "--help"])
    assert code == 0
    for option in ("--game", "--first", "--second", "--moves"):
        assert option in text


def test_every_available_subcommand_has_help() -> None:
    parser = build_parser()
    available = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert "play" in available and "bench" in available
    for name in available:
        assert name in SUBCOMMANDS
        assert call([name, "--help"])[0] == 0


def test_play_survives_bad_input_and_finishes() -> None:
    script = "\n".join(["x", "9", "0", "", "4", "4", "4", "4", "q"]) + "\n"
    # 'first' answers in column 1 each time, so X stacks column 4 and wins with its fourth stone
    code, out, err = call(["play", "--second", "first"], script)
    assert code == 0 and err == ""
    assert "'x' is not a column number" in out
    assert "column 9 is outside 1..7" in out and "column 0 is outside 1..7" in out
    assert "Player 1 (X) wins" in out


def test_play_undo_and_quit() -> None:
    code, out, _ = call(["play", "--second", "first"], "4\nu\nu\n3\nq\n")
    assert code == 0
    assert out.count("Took back 2 plies") == 1 and "Nothing to undo" in out
    assert "Game abandoned." in out


def test_play_full_column_and_end_of_input() -> None:
    code, out, _ = call(["play", "--first", "first", "--second", "human", "--moves", "111111"], "1\n")
    assert code == 0
    assert "column 1 is full" in out
    assert "End of input" in out


def test_play_two_people_tictactoe_and_migration() -> None:
    code, out, _ = call(["play", "--game", "tictactoe", "--second", "human"], "5\n5\n1\n9\n2\n3\n7\n4\n6\n8\n")
    assert code == 0 and "cell 5 is taken" in out
    code, out, _ = call(["play", "--game", "migration:n=4", "--second", "human"], "0,0\n1,0\n3,1\n1,1\n2,1\n1,2\n1,1\n2,0\n3,2\n")
    assert code == 0 and "no stone" in out and "Player 2 (moves up) wins" in out


def test_engines_play_each_other() -> None:
    code, out, _ = call(["play", "--first", "random:seed=1", "--second", "first"], "")
    assert code == 0 and ("wins" in out or "Draw" in out)


@pytest.mark.parametrize(
    "argv,words",
    [
        (["play", "--game", "chess"], "unknown game 'chess'"),
        (["play", "--second", "wizard"], "unknown agent 'wizard'"),
        (["play", "--moves", "448"], "column 8 is outside 1..7"),
        (["bench", "playouts", "--seconds", "0"], "expected a number > 0"),
        (["nosuchcommand"], "invalid choice"),
        (["play", "--nosuch"], "zerosum play: error: unrecognized arguments: '--nosuch'"),  # the command named
        (["match", "first", "random", "--bogus", "x"], "zerosum match: error: unrecognized arguments: '--bogus'"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(argv: list[str], words: str) -> None:
    code, out, err = call(argv, "")
    assert code == 2
    assert words in err
    assert len(err.strip().splitlines()) == 1 or "usage:" in err
    assert "Traceback" not in err


def test_bench_playouts_prints_a_rate() -> None:
    for extra in ([], ["--generic"], ["--game", "tictactoe"], ["--game", "migration:n=5"]):
        code, out, _ = call(["bench", "playouts", "--seconds", "0.05", "--rounds", "1", *extra])  # a batch at least
        assert code == 0
        rate = float(out.split("playouts/s:")[1].split()[0])
        assert rate > 0


def test_console_script_runs() -> None:
    result = subprocess.run([sys.executable, "-m", "zerosum", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and "zerosum" in result.stdout


def test_an_option_value_below_zero_is_a_value_not_an_option(tmp_path) -> None:
    """``--sprt -10,10`` (ELO0 below zero, as documented) was refused: "expected one argument"."""
    import json
    import sqlite3

    db = tmp_path / "s.db"
    assert call(["match", "first", "random", "--game", "tictactoe", "--sprt", "-10,10", "--games", "2",
                 "--jobs", "1", "--quiet", "-o", str(db)])[0] == 0
    con = sqlite3.connect(db)
    try:
        config = json.loads(con.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
    finally:
        con.close()
    assert config["sprt"][:2] == [-10, 10]
    code, _, err = call(["match", "first", "random", "--sprt", "-1x,10", "--quiet", "-o", str(tmp_path / "t.db")])
    assert code == 2 and "--sprt '-1x,10'" in err


@pytest.mark.parametrize("moves,words", [("44x", "move 3 of '44x' is 'x'"),
                                         ("1212121", "the game is over: player 1 already has 4 in a row")])
def test_analyze_refuses_a_bad_position_before_any_engine_starts(moves, words, monkeypatch) -> None:
    """It said ``zerosum: preparing the engine (starting numba): 1.0 s`` first, on a busy machine, then the error."""
    from zerosum.agents import prepare

    def started(*_: object, **__: object) -> None:
        raise AssertionError("an engine started for a position that is refused")

    monkeypatch.setattr(prepare, "announce", started)
    monkeypatch.setattr(prepare, "start", started)
    code, _, err = call(["analyze", moves])
    assert code == 2 and err.count("\n") == 1 and words in err, err
