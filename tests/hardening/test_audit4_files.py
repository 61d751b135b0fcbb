"""Bad input is one line that changes nothing (the fourth audit's files):

- a file that is not a results file (a truncated one) is refused having made nothing beside it: SQLite made
  ``FILE-wal`` and a 32 KB ``FILE-shm`` first, the file's header saying WAL;
- an I/O error in reading a results file (``/proc/self/mem``) is said as one, not as a full disk;
- ``--sprt ''`` and ``--openings ''`` are refused, not read as left out (the run went ahead, exit 0);
- an output name that ends in a slash names a folder (``--ranking r.csv/`` wrote ``r.csv``);
- a record, an openings file or a record file appended to that starts with a UTF-8 byte-order mark is read;
- ``zerosum openings`` that keeps no position writes no file (it wrote one of none, which ``--openings``
  then refused)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from zerosum import records
from zerosum.cli import main

RUN = ["--game", "tictactoe", "--games", "2", "--jobs", "1", "--quiet", "--grace", "5"]
BOM = "\ufeff"


def zerosum(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zerosum", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def refused(run: subprocess.CompletedProcess[str], *words: str) -> str:
    assert run.returncode == 2 and run.stdout == "", (run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1, run.stderr
    assert all(w in run.stderr for w in words), run.stderr
    return run.stderr


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a finished run's results file."""
    where = tmp_path_factory.mktemp("run")
    assert main(["match", "random", "first", *RUN, "-o", str(where / "r.db")]) == 0
    return (where / "r.db").read_bytes()


@pytest.mark.parametrize("size", [1000, 4096])
def test_a_truncated_results_file_is_refused_having_made_nothing(tmp_path: Path, results: bytes, size: int) -> None:
    (tmp_path / "t.db").write_bytes(results[:size])
    before = listing(tmp_path)
    for argv in (["report", "t.db", "--no-plots"], ["report", "t.db", "--export", "t.pgn"]):
        refused(zerosum(*argv, cwd=tmp_path), "'t.db' is not a zerosum results file")
        assert listing(tmp_path) == before, argv  # no t.db-wal, no t.db-shm
    (tmp_path / "whole.db").write_bytes(results)  # a sound file still reads
    assert zerosum("report", "whole.db", "--no-plots", cwd=tmp_path).returncode == 0


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="no /proc here")
def test_an_io_error_in_reading_is_said_as_one(tmp_path: Path) -> None:
    err = refused(zerosum("report", "/proc/self/mem", "--no-plots", cwd=tmp_path), "an I/O error in reading it")
    assert "disk is full" not in err and "free space" not in err


@pytest.mark.parametrize("option", ["--sprt", "--openings"])
@pytest.mark.parametrize("value", ["", " "])
def test_an_empty_value_is_refused_not_ignored(tmp_path: Path, option: str, value: str) -> None:
    refused(zerosum("match", "random", "first", *RUN, "-o", "m.db", option, value, cwd=tmp_path),
            f"{option} '{value}' is empty")
    assert listing(tmp_path) == {}


def test_an_output_that_ends_in_a_slash_names_a_folder(tmp_path: Path, results: bytes) -> None:
    (tmp_path / "r.db").write_bytes(results)
    for argv, name in ((["match", "random", "first", *RUN, "-o", "m.db", "--ranking", "r.csv/"], "r.csv"),
                       (["report", "r.db", "--no-plots", "--ranking", "q.json/"], "q.json"),
                       (["report", "r.db", "--no-plots", "--ranking", "q.json/."], "q.json"),
                       (["report", "r.db", "--export", "e.pgn/"], "e.pgn")):
        refused(zerosum(*argv, cwd=tmp_path), "names a folder")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"], (argv, name)


def test_a_byte_order_mark_starts_a_record_or_an_openings_file(tmp_path: Path) -> None:
    text = '[Game "tictactoe"]\n\n1. 5 1 2. 9 *\n'
    (tmp_path / "bom.pgn").write_text(BOM + text, encoding="utf-8")
    assert records.read(tmp_path / "bom.pgn") == records.parse(text) == records.parse(BOM + text)
    listed = zerosum("replay", "bom.pgn", "--list", cwd=tmp_path)
    assert listed.returncode == 0 and "3 moves" in listed.stdout, listed.stderr
    (tmp_path / "op.txt").write_text(BOM + "5\n1\n", encoding="utf-8")
    run = zerosum("match", "random", "first", *RUN, "--openings", "op.txt", "-o", "m.db", "--pgnout", "m.pgn",
                  cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    # a record file that a resumed run appends to, saved by Notepad in between
    pgn = tmp_path / "m.pgn"
    pgn.write_bytes(BOM.encode() + pgn.read_bytes())
    writer = records.Writer(pgn)
    assert writer.held == 2
    writer.close()


def test_openings_that_keep_no_position_write_no_file(tmp_path: Path) -> None:
    (tmp_path / "take.py").write_text(
        "class TakeAway:\n    def __init__(self):\n        self.initial = (5, 'A')\n"
        "    def actions(self, s):\n        return [n for n in (1, 2) if n <= s[0]]\n"
        "    def result(self, s, n):\n        return (s[0] - n, 'B' if s[1] == 'A' else 'A')\n"
        "    def terminal_test(self, s):\n        return s[0] == 0\n"
        "    def utility(self, s, p):\n        return -1 if s[1] == p else 1\n"
        "    def to_move(self, s):\n        return s[1]\n")
    err = refused(zerosum("openings", "--game", "take.py:TakeAway", "--with", "alphabeta:depth=2", "--plies", "2",
                          "-o", "o.txt", cwd=tmp_path), "no opening: none of the 3 positions", "o.txt is not written")
    assert "proven win or loss" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["take.py"]  # no o.txt, no o.txt.partial
    out = zerosum("openings", "--game", "tictactoe", "--with", "alphabeta:depth=1", "--plies", "2", "--max-score",
                  "0.5", cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "a larger --max-score keeps more" in out.stderr
    kept = zerosum("openings", "--game", "tictactoe", "--with", "alphabeta:depth=9", "--plies", "2", "--max-score",
                   "0", "-o", "o.txt", cwd=tmp_path)
    assert kept.returncode == 0 and "wrote 24 openings" in kept.stderr
