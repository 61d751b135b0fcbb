"""Records written by the arena: --pgnout as games finish, report --export, resume, bad paths, and every
Connect Four record replayed in lockstep with OpenSpiel's rules."""

from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.records import format, from_store, parse, read

FAULTY = Path(__file__).resolve().parents[1] / "arena" / "faulty_agents.py"
RUN = ["--jobs", "1", "--quiet", "--grace", "5"]


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def check_with_openspiel(records):
    """Each Connect Four record replayed in OpenSpiel's connect_four (6 x 7, actions 0-based columns)."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("connect_four")
    for record in records:
        assert record.tags["Game"] == "connectx:rows=6,cols=7,k=4"
        ours = record.states()
        theirs = game.new_initial_state()
        for ply, action in enumerate(record.actions()):
            assert not theirs.is_terminal()
            assert action in theirs.legal_actions()
            theirs.apply_action(action)
            assert theirs.is_terminal() == record.game.is_terminal(ours[ply + 1])
        if record.tags["Termination"] == "normal":
            assert theirs.is_terminal()
            assert theirs.returns() == {"1-0": [1.0, -1.0], "0-1": [-1.0, 1.0], "1/2-1/2": [0.0, 0.0]}[record.result]
        else:
            assert not theirs.is_terminal()


def test_match_pgnout_round_trips_and_equals_the_results_file(tmp_path, capsys):
    db, pgn = tmp_path / "r.db", tmp_path / "games.pgn"
    code, _, err = run(["match", "random", "alphabeta:depth=2", "--games", "6", "--time", "0.5", *RUN,
                          "--out", str(db), "--pgnout", str(pgn)], capsys)
    assert (code, err) == (0, "")
    written = read(pgn)
    assert len(written) == 6
    assert sorted(written, key=lambda r: int(r.tags["Round"])) == list(from_store(db))
    assert parse("\n".join(format(r) for r in written)) == written
    assert {r.tags["Event"] for r in written} == {"zerosum match"}
    assert {r.tags["TimeControl"] for r in written} == {"1/0.5"}
    assert {(r.tags["First"], r.tags["Second"]) for r in written} == {("random", "alphabeta:depth=2"),
                                                                     ("alphabeta:depth=2", "random")}
    assert all(n is not None and n.time is not None for r in written for n in r.notes)
    searched = [n for r in written for m, n in zip(r.moves, r.notes) if n.nodes is not None]
    assert searched and all(n.value is not None for n in searched)
    check_with_openspiel(written)


def test_forfeits_are_recorded_with_their_reason_and_replay_legally(tmp_path, capsys):
    db, pgn = tmp_path / "f.db", tmp_path / "f.pgn"
    code, _, err = run(["match", f"{FAULTY}:first", f"{FAULTY}:illegal", "--games", "2", *RUN,
                        "--out", str(db), "--pgnout", str(pgn)], capsys)
    assert (code, err) == (0, "")
    records = read(pgn)
    assert len(records) == 2
    assert all(r.tags["Termination"].startswith("forfeit: illegal move: faulty_agents.py:illegal(game, state) "
                                                "returned 99 (int) at ") for r in records)
    assert all("column 100 is outside 1..7" in r.tags["Termination"] for r in records)
    assert sorted(r.result for r in records) == ["0-1", "1-0"]  # the well-behaved agent wins with both colours
    check_with_openspiel(records)


def test_tournament_pgnout_and_report_export_write_the_same_records(tmp_path, capsys):
    db, pgn, exported = tmp_path / "t.db", tmp_path / "t.pgn", tmp_path / "export.pgn"
    code, _, err = run(["tournament", "random", "first", "alphabeta:depth=1", "--games", "2", *RUN,
                        "--out", str(db), "--pgnout", str(pgn)], capsys)
    assert (code, err) == (0, "")
    code, out, err = run(["report", str(db), "--export", str(exported)], capsys)
    assert (code, err) == (0, "") and out == f"wrote 6 games to {exported}\n"
    assert not list(tmp_path.glob("*.png"))  # records instead of tables and plots
    records = read(exported)
    assert sorted(read(pgn), key=lambda r: int(r.tags["Round"])) == records
    assert [r.tags["Round"] for r in records] == [str(i) for i in range(1, 7)]
    assert {r.tags["Event"] for r in records} == {"zerosum tournament"}
    check_with_openspiel(records)
    # an existing export is refused (nothing changes) unless --overwrite
    before = exported.read_text()
    code, out, err = run(["report", str(db), "--export", str(exported)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "exists" in err
    assert exported.read_text() == before
    code, _, err = run(["report", str(db), "--export", str(exported), "--overwrite"], capsys)
    assert (code, err) == (0, "") and read(exported) == records


def test_a_resumed_run_appends_only_the_games_it_plays(killed_run, capsys):
    db, pgn, full = killed_run(4, 2)  # as if the run had been killed after two games
    pgn.write_text("\n".join(format(r) for r in full[:2]))
    code, _, err = run(["match", "--resume", *RUN, "--out", str(db), "--pgnout", str(pgn)], capsys)
    assert (code, err) == (0, "")
    again = read(pgn)
    assert [r.tags["Round"] for r in again] == ["1", "2", "3", "4"]
    assert again[:2] == full[:2]
    assert [(r.moves, r.result) for r in again] == [(r.moves, r.result) for r in full]


def test_pgnout_overwrite_replaces_an_existing_file(tmp_path, capsys):
    db, pgn = tmp_path / "o.db", tmp_path / "o.pgn"
    pgn.write_text("old text, not a record\n")
    code, _, err = run(["match", "random", "first", "--games", "2", *RUN, "--out", str(db), "--pgnout", str(pgn),
                        "--overwrite"], capsys)
    assert (code, err) == (0, "")
    assert len(read(pgn)) == 2


@pytest.mark.parametrize("where", ["directory", "missing folder", "existing file", "the results file"])
def test_a_bad_pgnout_is_one_line_and_nothing_is_written(tmp_path, capsys, where):
    db = tmp_path / "r.db"
    (tmp_path / "dir").mkdir()
    (tmp_path / "old.pgn").write_text("keep me\n")
    target = {"directory": tmp_path / "dir", "missing folder": tmp_path / "nope" / "g.pgn",
              "existing file": tmp_path / "old.pgn", "the results file": db}[where]
    before = sorted(p.name for p in tmp_path.rglob("*"))
    code, out, err = run(["match", "random", "first", "--games", "2", *RUN, "--out", str(db),
                          "--pgnout", str(target)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("zerosum match: error:") and "pgnout" in err
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "old.pgn").read_text() == "keep me\n"


@pytest.mark.parametrize("where", ["directory", "missing folder", "the results file"])
def test_a_bad_export_is_one_line_and_nothing_is_written(tmp_path, capsys, where):
    db = tmp_path / "r.db"
    assert main(["match", "random", "first", "--games", "2", *RUN, "--out", str(db)]) == 0
    capsys.readouterr()
    (tmp_path / "dir").mkdir()
    target = {"directory": tmp_path / "dir", "missing folder": tmp_path / "nope" / "g.pgn", "the results file": db}[where]
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")}
    code, out, err = run(["report", str(db), "--export", str(target), "--overwrite"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("zerosum report: error:") and "export" in err
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*")} == before


def test_export_of_a_missing_or_foreign_results_file_is_one_line(tmp_path, capsys):
    (tmp_path / "x.db").write_text("not sqlite")
    for db in (tmp_path / "none.db", tmp_path / "x.db"):
        code, out, err = run(["report", str(db), "--export", str(tmp_path / "e.pgn")], capsys)
        assert code == 2 and out == "" and err.count("\n") == 1
    assert not (tmp_path / "e.pgn").exists()


def test_adjudicated_games_and_the_game_clock_are_in_the_tags(tmp_path, capsys):
    db, pgn = tmp_path / "a.db", tmp_path / "a.pgn"
    code, _, err = run(["match", "random", "first", "--games", "4", *RUN, "--tc", "5+0.1", "--adjudicate", "draw=3",
                        "--opening-plies", "0", "--out", str(db), "--pgnout", str(pgn)], capsys)
    assert (code, err) == (0, "")
    records = read(pgn)
    assert {r.tags["TimeControl"] for r in records} == {"5+0.1"}
    adjudicated = [r for r in records if r.tags["Termination"].startswith("adjudication: ")]
    assert adjudicated and all(r.result == "1/2-1/2" and not r.game.is_terminal(r.states()[-1]) for r in adjudicated)
    assert sorted(records, key=lambda r: int(r.tags["Round"])) == list(from_store(db))
    check_with_openspiel(records)
