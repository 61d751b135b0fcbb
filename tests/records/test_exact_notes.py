"""A proven value stays proven in a record (the player audit): ``value=0 exact`` after a draw the search proved,
read back by zerosum and shown by ``zerosum replay`` as ``draw``; a value without the marker is an estimate, as
before; the marker is refused where it marks nothing."""

from __future__ import annotations

import io

import pytest

from zerosum import play_game
from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.records import MoveNote, format, from_game_record, parse, write
from zerosum.values import win_value


def test_a_proven_draw_is_written_exact_and_read_back() -> None:
    note = MoveNote(1.4, 2979833, 0.0, exact=True)
    assert note.text() == "time=1.4s nodes=2979833 value=+0 exact"
    assert MoveNote.from_text(note.text()) == note
    assert MoveNote.from_text("time=1.4s nodes=2979833 value=+0").exact is False  # an estimate of 0, as before
    won = MoveNote(value=float(win_value(5)))
    assert won.exact and won.text() == "value=+W5" and MoveNote.from_text("value=+W5") == won  # exact by its form


@pytest.mark.parametrize("body, words", [
    ("exact", "exact follows a value=V once"),
    ("value=0 exact exact", "exact follows a value=V once"),
    ("value=0 exact time=1s", "exact comes last"),
    ("value=0 exactly", "is not time=SECONDSs, nodes=N, value=V or exact"),
])
def test_a_misplaced_exact_is_one_line(body, words) -> None:
    with pytest.raises(InvalidFileError, match=words):
        MoveNote.from_text(body)


def test_a_solvers_proven_draw_is_replayed_as_a_draw(tmp_path, capsys, monkeypatch) -> None:
    pytest.importorskip("zerosum.solver.solver")
    played = play_game("connectx:rows=4,cols=4,k=4", "solver", "alphabeta:depth=2")
    record = from_game_record(played)
    text = format(record)
    assert "value=+0 exact}" in text and played.result == "1/2-1/2"
    assert parse(text)[0].notes == record.notes
    path = tmp_path / "g.pgn"
    write([record], path)
    monkeypatch.setattr("sys.stdin", io.StringIO("g 1\ng 2\nq\n"))
    assert main(["replay", str(path), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "its value for X: draw)" in out and "+0 (the agent's units)" not in out.split("Ply 2 of")[0]
    assert "(the agent's units)" in out  # alpha-beta's estimate at ply 2 stays an estimate
