"""Fixtures of the records tests."""

import sqlite3

import pytest

from zerosum.cli import main
from zerosum.records import from_store

RUN = ["--jobs", "1", "--quiet", "--grace", "5"]


@pytest.fixture
def killed_run(tmp_path):
    """``make(games, kept)``: a finished match of ``games`` games with ``--pgnout``, then its results file cut
    back to the first ``kept`` games, as if the run had been killed there; ``(db, pgn, every game's record)``."""

    def make(games: int, kept: int):
        db, pgn = tmp_path / "r.db", tmp_path / "r.pgn"
        assert main(["match", "random", "first", "--games", str(games), *RUN, "--out", str(db),
                     "--pgnout", str(pgn)]) == 0
        full = list(from_store(db))
        con = sqlite3.connect(db)
        with con:
            con.execute("DELETE FROM games WHERE idx >= ?", (kept,))
        con.close()
        return db, pgn, full

    return make
