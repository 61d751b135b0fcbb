"""A results file says which zerosum wrote it: the version that began the run, and each other version that
resumed it with the games stored before it (meta ``versions``), shown in the report's header and kept by
:meth:`~zerosum.arena.store.Store.versions` and the Python match's report; a file that keeps none (an older
zerosum wrote it) says so, never a guess."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import zerosum
from zerosum.arena.store import Store
from zerosum.cli import main

V = zerosum.__version__


def _run(db: Path, *more: str) -> None:
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "4", "--jobs", "1", "--quiet",
                 "-o", str(db), *more]) == 0


def _edit(db: Path, *sql: tuple[str, tuple]) -> None:
    """What an older zerosum, or a run killed halfway, left in the file."""
    con = sqlite3.connect(db)
    with con:
        for statement, args in sql:
            con.execute(statement, args)
    con.close()


def _header(db: Path, capsys, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "400")
    capsys.readouterr()
    assert main(["report", str(db), "--plots", str(db.parent / "plots")]) == 0
    return " ".join(capsys.readouterr().out.split("Pairings")[0].split())


def test_a_new_run_keeps_the_version_that_wrote_it(tmp_path, capsys, monkeypatch) -> None:
    db = tmp_path / "r.db"
    _run(db)
    with Store(db) as store:
        assert store.versions() == [(V, 0)] and store.meta("versions") == [[V, 0]]
    assert _header(db, capsys, monkeypatch).endswith(f"; written by zerosum {V}")
    _run(db, "--resume")  # nothing left to play: nothing written
    with Store(db) as store:
        assert store.versions() == [(V, 0)]


def test_a_resume_by_another_version_is_kept_with_the_games_before_it(tmp_path, capsys, monkeypatch) -> None:
    db = tmp_path / "r.db"
    _run(db)
    _edit(db, ("UPDATE meta SET value = ? WHERE key = 'versions'", (json.dumps([["0.0.9", 0]]),)),
          ("DELETE FROM games WHERE idx >= 1", ()))
    _run(db, "--resume")
    with Store(db) as store:
        assert store.versions() == [("0.0.9", 0), (V, 1)] and store.count() == 4
    assert _header(db, capsys, monkeypatch).endswith(
        f"; written by zerosum 0.0.9 (1 game), then resumed by zerosum {V} (3 games)")
    _edit(db, ("DELETE FROM games WHERE idx >= 3", ()))
    _run(db, "--resume")  # the same version again: nothing new to say
    with Store(db) as store:
        assert store.versions() == [("0.0.9", 0), (V, 1)]


def test_a_file_that_keeps_no_version_says_so_and_a_resume_adds_this_one(tmp_path, capsys, monkeypatch) -> None:
    db = tmp_path / "r.db"
    _run(db)
    _edit(db, ("DELETE FROM meta WHERE key = 'versions'", ()), ("DELETE FROM games WHERE idx >= 2", ()))
    with Store(db) as store:
        assert store.versions() is None
    assert _header(db, capsys, monkeypatch).endswith("; zerosum version not recorded")
    _run(db, "--resume")
    with Store(db) as store:
        assert store.versions() == [(None, 0), (V, 2)]
    assert _header(db, capsys, monkeypatch).endswith(
        f"; written by a zerosum that kept no version (2 games), then resumed by zerosum {V} (2 games)")


@pytest.mark.parametrize("stored", ['"0.1.0"', "[]", '[["0.1.0"]]', '[[1, 0]]', '[["0.1.0", -1]]',
                                    '[["0.1.0", 0], ["0.2.0", true]]', '[["0.1\\u001b[2J", 0]]', "not json"])
def test_versions_the_file_holds_wrongly_are_not_recorded(tmp_path, capsys, monkeypatch, stored) -> None:
    db = tmp_path / "r.db"
    _run(db)
    _edit(db, ("UPDATE meta SET value = ? WHERE key = 'versions'", (stored,)))
    with Store(db) as store:
        assert store.versions() is None and len(list(store.games())) == 4
    assert _header(db, capsys, monkeypatch).endswith("; zerosum version not recorded")


def test_a_python_match_reports_its_version(capsys) -> None:
    result = zerosum.match("random", "first", game="tictactoe", games=2)
    assert result.report.versions == [(V, 0)]
    result.print()
    assert f"written by zerosum {V}" in " ".join(capsys.readouterr().out.split())
