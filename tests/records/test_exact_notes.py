"""A proven value stays proven in a record (the player audit): ``value=0 exact`` after a draw the search proved,
read back by zerosum and shown by ``zerosum replay`` as ``draw``; a value without the marker is an estimate, as
before; the marker is refused where it marks nothing."""

from __future__ import annotations

import io

import pytest

from zerosum import play_game
from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.records import MoveNote, format, from_game_record, from_store, parse, write
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


def test_an_arena_runs_proven_values_stay_proven_in_its_records(tmp_path, capsys) -> None:
    """The arena's records (``--pgnout`` as games end, ``report --export`` from the results file) keep each
    move's ``exact``, as ``play_game``'s do: a solver's proven draw replays as a draw, not an estimate."""
    pytest.importorskip("zerosum.solver.solver")
    db, pgn, export = tmp_path / "r.db", tmp_path / "r.pgn", tmp_path / "e.pgn"
    assert main(["match", "solver", "alphabeta:depth=2", "--game", "connectx:rows=4,cols=4,k=4", "--games", "2",
                 "--jobs", "1", "--quiet", "--out", str(db), "--pgnout", str(pgn)]) == 0
    assert main(["report", str(db), "--export", str(export)]) == 0
    for path in (pgn, export):
        records = list(parse(path.read_text()))
        solver_notes = [n for r in records for i, n in enumerate(r.notes) if (i % 2 == 0) == (r.tags["First"] == "solver")]
        estimates = [n for r in records for i, n in enumerate(r.notes) if (i % 2 == 0) != (r.tags["First"] == "solver")]
        assert solver_notes and all(n.exact for n in solver_notes), path
        assert any(n.value is not None and not n.exact for n in estimates), path  # alpha-beta's depth 2 guesses
    assert "value=+0 exact}" in pgn.read_text()
    capsys.readouterr()


def test_a_results_file_of_schema_1_is_read_as_it_is_and_upgraded_by_a_resume(tmp_path) -> None:
    """Files written before the ``exacts`` column: read with no value proven; ``--resume`` adds the column
    (and says schema 2) in the transaction of its first game, and the old games stay as they were."""
    import sqlite3

    from zerosum.arena.store import Store

    db = tmp_path / "old.db"
    assert main(["match", "random", "first", "--games", "4", "--jobs", "1", "--quiet", "--out", str(db)]) == 0
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM games WHERE idx >= 2")
        con.execute("ALTER TABLE games DROP COLUMN exacts")
        con.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    con.close()
    before = list(from_store(db))
    assert len(before) == 2 and not any(n and n.exact for r in before for n in r.notes)
    with Store(db) as store:
        assert store.schema == 1 and len(list(store.games())) == 2  # reading changes nothing
    assert main(["match", "random", "first", "--games", "4", "--jobs", "1", "--quiet", "--resume", "--out", str(db)]) == 0
    with Store(db) as store:
        assert store.schema == 2 and store.meta("schema") == 2
        games = list(store.games())
    assert len(games) == 4 and games[0].exacts == [] and len(games[3].exacts) == len(games[3].moves)
    assert [r.moves for r in from_store(db)][:2] == [r.moves for r in before]


@pytest.mark.parametrize("schema, words", [(3, "has schema 3; this zerosum reads 1 and 2"),
                                           ("true", "has schema True")])
def test_a_results_file_of_another_schema_is_one_line(tmp_path, schema, words) -> None:
    import sqlite3

    from zerosum.arena.store import Store

    db = tmp_path / "r.db"
    assert main(["match", "random", "first", "--games", "2", "--jobs", "1", "--quiet", "--out", str(db)]) == 0
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(schema),))
    con.close()
    with pytest.raises(InvalidFileError, match=words):
        Store(db)
