"""`zerosum engine FILE.py:player` with a student's file that closes or changes file descriptors 0-2 at import:
only protocol lines reach the protocol's output, its prints go to standard error (or nowhere, once it closed
that), and the engine plays (audit: a file that closed its standard error had its prints on the protocol's
output, so a contest seat forfeited for a "bad line", or a printed ``bestmove 1`` counted as its answer; one that
closed its standard output ended with ``zerosum engine: error: Bad file descriptor``).

Each runs the real program with a script on its standard input, whose end ends it as ``quit`` does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.external.protocol import Unknown, parse_reply

WAIT = 120.0  # seconds a run may take on a loaded machine: a safety net, never a measure
#: a move time far past what the player needs: under load a 300 ms one ran out, and the engine answered its
#: fallback (`bestmove 1`) instead of the player's move (seen at load 7)
SCRIPT = "zsp 1\nposition connect4 moves 4453\nisready\ngo movetime 10000\n"
#: plays column 7 and prints, at each move, a protocol line that says otherwise, and a line that is none
PLAYER = """
def player(board):
    print("info about my board:", int(board.sum()))
    print("bestmove 1")
    return board.shape[1] - 1
"""
IMPORTS = {
    "closes standard error": "import os\nos.close(2)\n",
    "closes standard output": "import os\nos.close(1)\n",
    "closes both": "import os\nos.close(1)\nos.close(2)\n",
    "closes standard input": "import os\nos.close(0)\n",
    "closes all three, then opens a file": "import os, tempfile\nos.close(0)\nos.close(1)\nos.close(2)\n"
                                           "log = tempfile.TemporaryFile()  # takes descriptor 0\n",
    "closes standard error, prints at import": "import os\nos.close(2)\nprint('IMPORTED')\n",
    "puts /dev/null on standard error": "import os\nnull = os.open(os.devnull, os.O_WRONLY)\nos.dup2(null, 2)\n",
}


def _engine(tmp_path: Path, text: str, spec: str = "player") -> subprocess.CompletedProcess[str]:
    path = tmp_path / "student.py"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "zerosum", "engine", f"{path}:{spec}", "--game", "connect4"],
                          input=SCRIPT, capture_output=True, text=True, timeout=WAIT)


@pytest.mark.parametrize("imports", list(IMPORTS.values()), ids=list(IMPORTS))
def test_a_file_that_closes_its_descriptors_at_import_plays_and_prints_only_off_the_protocol(
        tmp_path: Path, imports: str) -> None:
    result = _engine(tmp_path, imports + PLAYER)
    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stderr[-1000:]
    for line in lines:  # every line is the protocol's (parse_reply raises on a malformed one)
        assert not isinstance(parse_reply(line), Unknown), lines
    assert lines[0] == f"id name zerosum {tmp_path}/student.py:player" and "readyok" in lines, lines
    assert [line for line in lines if line.startswith("bestmove")] == ["bestmove 7"], lines
    assert not any("info string error" in line for line in lines), lines
    if "IMPORTED" in imports:  # a print at import: to standard error (its descriptor 1 still is), not a failure
        assert "IMPORTED" in result.stderr, result.stderr[-1000:]


def test_a_file_that_prints_with_its_descriptors_as_they_were_prints_on_standard_error(tmp_path: Path) -> None:
    result = _engine(tmp_path, PLAYER)
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "bestmove 7", result.stdout
    assert "info about my board: 6" in result.stderr and "bestmove 1" in result.stderr


def test_a_bad_spec_of_a_file_that_closed_its_standard_error_is_still_one_line_there(tmp_path: Path) -> None:
    # the rule for a bad spec (one error line, exit 2, before any protocol line) holds for a file that closed
    # descriptor 2 at import: standard error is handed back for the line
    result = _engine(tmp_path, "import os\nos.close(2)\n" + PLAYER, spec="nosuchname")
    assert result.returncode == 2 and result.stdout == "", result.stdout
    said = result.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("zerosum engine: error: '"), said
    assert said[0].endswith(" has no 'nosuchname'"), said
