"""zerosum replay driven by scripted keys: the boards shown are the record's states, ply by ply."""

import io
import re

import pytest

from zerosum import get_game, play_game
from zerosum.cli import main
from zerosum.records import format, from_game_record, read, write


@pytest.fixture
def games(tmp_path):
    """A file of three records: Connect Four with a two-ply opening, Tic-Tac-Toe, Othello 4 x 4."""
    played = [play_game("connect4", "alphabeta:depth=2", "random", moves="44", seed=3),
              play_game("tictactoe", "random", "alphabeta:depth=3", seed=4),
              play_game("othello:n=4", "random", "random", seed=5)]
    path = tmp_path / "games.pgn"
    write([from_game_record(p) for p in played], path)
    return path


def replay(path, keys, capsys, monkeypatch, *extra):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(k + "\n" for k in keys)))
    code = main(["replay", str(path), "--no-color", *extra])
    out = capsys.readouterr()
    return code, out.out, out.err


def shown(out):
    """``(ply, board block)`` of every position drawn, in order."""
    blocks = re.split(r"^Game \d+ of \d+: .*$", out, flags=re.MULTILINE)[1:]
    found = []
    for block in blocks:
        m = re.search(r"^Ply (\d+) of (\d+)", block, flags=re.MULTILINE)
        found.append((int(m.group(1)), block))
    return found


@pytest.mark.parametrize("number", [1, 2, 3])
def test_scripted_keys_show_the_records_states(games, capsys, monkeypatch, number):
    record = read(games)[number - 1]
    states, game = record.states(), record.game
    last = len(states) - 1
    keys = ["n", "", "n", "g 3", "p", "l", "n", "f", "p", "g 2", "q", "n"]
    code, out, err = replay(games, keys, capsys, monkeypatch, "--index", str(number))
    assert (code, err) == (0, "")
    plies = [p for p, _ in shown(out)]
    assert plies == [0, 1, 2, 3, 3, 2, last, 0, 2]  # q stops before the last n
    for ply, block in shown(out):
        assert game.render(states[ply]) in block  # the board of exactly that position
        if ply:
            move = game.format_action(record.actions()[ply - 1])
            listed = " ".join(block.split())
            assert listed.count("[") == 1 and f"[{move}]" in listed  # the move list marks the shown ply
            if ply % 2:  # the first player's move of full move (ply + 1) // 2 carries its number
                assert f"{(ply + 1) // 2}. [{move}]" in listed
    assert f"Already at the last ply ({last})" in out and "Already at the start (ply 0)" in out
    assert f"Result {record.result}: {record.tags['Termination']}" in out
    assert f"First        {record.tags['First']}" in out  # the tags


def test_the_opening_and_the_notes_are_shown(games, capsys, monkeypatch):
    record = read(games)[0]
    code, out, _ = replay(games, ["n", "n", "n"], capsys, monkeypatch)
    assert code == 0
    assert "Ply 1 of" in out and "played 4 (opening)" in out
    assert "Moves: 1. 4 4 |" in out  # full moves numbered, the opening set off
    note = record.notes[0]
    ply3 = out.split("Ply 3 of")[1].splitlines()[0]
    assert f"{note.nodes:,} nodes" in ply3 and f"{note.time:g} s" in ply3 and "its value for X" in ply3


def test_unknown_keys_and_bad_jumps_say_one_line_and_go_on(games, capsys, monkeypatch):
    code, out, err = replay(games, ["x", "g", "g 999", "gg", "n"], capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert "Unknown key 'x'." in out and "Unknown key 'gg'." in out
    assert "g needs a ply number" in out and "No ply 999" in out
    assert [p for p, _ in shown(out)] == [0, 1]


def test_the_analysis_toggles_and_labels_its_engine(games, capsys, monkeypatch):
    code, out, err = replay(games, ["g 2", "a", "n", "l", "a", "n"], capsys, monkeypatch, "--index", "2",
                            "--hint-time", "0.2")
    assert (code, err) == (0, "")
    assert out.count("Analysis on.") == 1 and out.count("Analysis off.") == 1
    assert out.count("Hint from") >= 2  # on at ply 2 and ply 3 (the analysis names who answered)
    assert "the game is over here" in out  # at the last ply


def test_list_prints_one_line_per_game(games, capsys, monkeypatch):
    code, out, err = replay(games, [], capsys, monkeypatch, "--list")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].split()[:4] == ["1", "alphabeta:depth=2", "-", "random"]
    assert "tictactoe" in lines[1] and "othello:n=4" in lines[2]


def test_bad_game_numbers_files_and_text_are_one_line(games, tmp_path, capsys, monkeypatch):
    cases = [
        (["--index", "4"], games, "holds 3 games (1..3)"),
        (["--index", "0"], games, "out of range"),
        (["--game", "connect4"], games, "--index N"),
        (["--index", "1", "--game", "2"], games, "--index"),
        ([], tmp_path / "none.pgn", "not found"),
        ([], tmp_path, "is a directory"),
    ]
    (tmp_path / "bad.pgn").write_text(re.sub(r"(1-0|0-1|1/2-1/2)\n$", r"9 \1\n", format(read(games)[0])))
    cases.append(([], tmp_path / "bad.pgn", "game 1, line"))
    (tmp_path / "empty.pgn").write_text("\n")
    cases.append(([], tmp_path / "empty.pgn", "holds no games"))
    for extra, path, message in cases:
        code, out, err = replay(path, ["n"], capsys, monkeypatch, *extra)
        assert code == 2 and out == "", (path, out)
        assert err.count("\n") == 1 and message in err, err


def test_every_game_of_a_random_record_file_replays(tmp_path, capsys, monkeypatch):
    specs = ["connectx:rows=4,cols=12,k=4", "migration:n=5", "othello:n=6"]
    path = tmp_path / "more.pgn"
    write([from_game_record(play_game(s, "random", "random", seed=i)) for i, s in enumerate(specs)], path)
    for number, record in enumerate(read(path), 1):
        code, out, err = replay(path, ["l"], capsys, monkeypatch, "--game", str(number))  # the old spelling
        assert code == 0 and err == f"zerosum replay: note: --game {number} is now --index {number} (--game " \
                                    "names a game type elsewhere)\n"
        (_, _start), (ply, end) = shown(out)
        assert get_game(record.tags["Game"]).render(record.states()[-1]) in end and ply == len(record.states()) - 1


def test_the_analysis_of_a_connect_four_position_is_the_solvers(games, capsys, monkeypatch):
    pytest.importorskip("numba")
    record = read(games)[0]
    code, out, err = replay(games, [f"g {len(record.states()) - 2}", "a"], capsys, monkeypatch)
    assert (code, err) == (0, "")
    hint = out.split("Analysis on.")[1]
    assert "the solver" in hint and "exact" in hint  # exact scores, said so


def test_at_a_terminal_single_keys_and_arrows_step_without_enter(games, tmp_path):
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "replay", str(games), "--no-color"],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""

    def until(text: bytes, limit: float = 60.0) -> None:
        nonlocal seen
        end = time.monotonic() + limit
        while text not in seen and time.monotonic() < end:
            if select.select([master], [], [], 0.5)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
        assert text in seen, seen.decode(errors="replace")[-500:]

    try:
        until(b"ply 0/")
        os.write(master, b"n")
        until(b"ply 1/")
        os.write(master, b"\x1b[C")  # the right arrow
        until(b"ply 2/")
        os.write(master, b"\x1b[D")  # the left arrow
        until(b"Ply 1 of", 30)
        os.write(master, b"g")
        until(b"go to ply: ")
        os.write(master, b"3\r")
        until(b"ply 3/")
        os.write(master, b"q")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
