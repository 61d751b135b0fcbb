"""Hardening, input files (issue 20, item 10): a device or a FIFO named as an input is called what it is,
not "not found", and reading one never blocks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from zerosum import make_agent
from zerosum.cli import main
from zerosum.core.files import read_bytes, read_text
from zerosum.errors import AgentError, InvalidFileError


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_as_input_is_called_a_device(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    with pytest.raises(InvalidFileError, match=f"record file '{device}' is a device, not a regular file"):
        read_text(device, "record file")


def test_a_fifo_as_input_is_called_a_fifo_and_read_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "in.pgn"
    os.mkfifo(fifo)
    with pytest.raises(InvalidFileError, match="is a FIFO, not a regular file"):
        read_bytes(fifo, "record file")


def test_missing_and_directory_inputs_keep_their_words(tmp_path: Path) -> None:
    with pytest.raises(InvalidFileError, match="not found"):
        read_text(tmp_path / "none.pgn")
    with pytest.raises(InvalidFileError, match="is a directory"):
        read_text(tmp_path)
    (tmp_path / "real.pgn").write_text("text\n")
    os.symlink("real.pgn", tmp_path / "link.pgn")
    assert read_text(tmp_path / "link.pgn") == "text\n"  # an input may be a link to a regular file


@pytest.mark.parametrize("argv, words", [
    (["replay", "/dev/null", "--list"], "record file '/dev/null' is a device"),
    (["replay", "/dev/zero", "--list"], "record file '/dev/zero' is a device"),
    (["report", "/dev/null"], "results file '/dev/null' is a device"),
    (["replay", "{fifo}", "--list"], "is a FIFO"),
    (["report", "{fifo}"], "results file '{fifo}' is a FIFO"),
    (["match", "random", "first", "--quiet", "--games", "2", "--out", "{tmp}/new.db", "--openings", "{fifo}"],
     "openings file '{fifo}' is a FIFO"),
    (["book", "--from", "{fifo}", "-o", "{tmp}/book.zsb"], "is a FIFO"),
])
def test_special_input_files_on_the_command_line_say_what_they_are(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main([a.format(fifo=fifo, tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words.format(fifo=fifo) in err, err
    assert "not found" not in err and not (tmp_path / "new.db").exists()


def test_an_agent_file_that_is_a_fifo_is_called_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "agent.py"
    os.mkfifo(fifo)
    with pytest.raises(AgentError, match="is a FIFO"):
        make_agent(f"{fifo}:player")
    with pytest.raises(AgentError, match="evaluation file .* is a FIFO"):
        make_agent(f"alphabeta:depth=1,eval={fifo}:score")
