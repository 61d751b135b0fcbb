"""Hardening, outputs (issue 20, item 2): every file a command writes is a regular file.  A device, FIFO,
socket, symbolic link (even to a regular file) or directory where an output would go is refused in one
line before any work, with or without ``--overwrite``, and the refusal does not invite ``--overwrite``.

Real special files only: FIFOs from ``os.mkfifo``, sockets bound in ``tmp_path``, links from ``os.symlink``,
and a device made with ``os.mknod`` in ``tmp_path`` (a copy of /dev/null; skipped where that is not allowed),
so no test could ever replace the machine's own /dev/null.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from zerosum.cli import main
from zerosum.core.files import atomic_output, check_output, open_append
from zerosum.errors import InvalidFileError


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_link(path: Path) -> None:
    (path.parent / "real.txt").write_text("kept\n")
    os.symlink("real.txt", path)


def make_dir(path: Path) -> None:
    path.mkdir()


def make_socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))


def make_device(path: Path) -> None:
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a second /dev/null
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")


KINDS: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (make_fifo, "is a FIFO"),
    "symlink": (make_link, "is a symbolic link"),
    "directory": (make_dir, "is a directory"),
    "socket": (make_socket, "is a socket"),
    "device": (make_device, "is a device"),
}


def kind_of(path: Path) -> str:
    mode = os.lstat(path).st_mode
    tests = {"fifo": stat.S_ISFIFO, "symlink": stat.S_ISLNK, "directory": stat.S_ISDIR, "socket": stat.S_ISSOCK,
             "device": stat.S_ISCHR, "regular": stat.S_ISREG}
    return next(name for name, test in tests.items() if test(mode))


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("results") / "good.db"
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--quiet",
                 "--out", str(db)]) == 0
    return db


@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("kind", list(KINDS))
def test_check_output_refuses_every_special_file(tmp_path: Path, kind: str, overwrite: bool) -> None:
    make, words = KINDS[kind]
    target = tmp_path / "t"
    make(target)
    with pytest.raises(InvalidFileError, match=words) as caught:
        check_output(target, overwrite=overwrite, what="record file")
    assert "--overwrite" not in str(caught.value) and "\n" not in str(caught.value)
    assert kind_of(target) == kind


def test_overwrite_refuses_a_device(tmp_path: Path, results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    device = tmp_path / "full"
    make_device(device)
    line = refused(["report", str(results), "--export", str(device), "--overwrite"], capsys)
    assert "is a device, not a regular file" in line and "--overwrite" not in line
    assert kind_of(device) == "device"


def test_the_machines_dev_null_is_refused_as_an_output(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InvalidFileError, match="is a device"):
        check_output("/dev/null", overwrite=True)
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_overwrite_refuses_a_symlink_even_to_a_regular_file(tmp_path: Path, results: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "t"
    make_link(link)
    line = refused(["report", str(results), "--export", str(link), "--overwrite"], capsys)
    assert "is a symbolic link" in line
    assert kind_of(link) == "symlink" and (tmp_path / "real.txt").read_text() == "kept\n"


def _outputs(tmp: Path, results: Path, target: Path) -> dict[str, list[str]]:
    """Every command option that writes a file, aimed at ``target`` (a new results file beside it)."""
    db = str(tmp / "new.db")
    arena = ["random", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--quiet"]
    return {
        "match --out": ["match", *arena, "--out", str(target)],
        "match --pgnout": ["match", *arena, "--out", db, "--pgnout", str(target)],
        "tournament --pgnout": ["tournament", "random", "first", "random", "--game", "tictactoe", "--games", "3",
                                "--jobs", "1", "--quiet", "--out", db, "--pgnout", str(target)],
        "report --export": ["report", str(results), "--export", str(target)],
        "openings -o": ["openings", "--game", "tictactoe", "--plies", "1", "--count", "1", "-o", str(target)],
        "kaggle-agent -o": ["kaggle-agent", "random", "-o", str(target)],
        "book -o": ["book", "--depth", "0", "-o", str(target)],
    }


@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory", "socket", "device"])
@pytest.mark.parametrize("output", ["match --out", "match --pgnout", "tournament --pgnout", "report --export",
                                    "openings -o", "kaggle-agent -o", "book -o"])
def test_every_command_output_refuses_special_files_before_any_work(
        tmp_path: Path, results: Path, capsys: pytest.CaptureFixture[str], output: str, kind: str,
        overwrite: bool) -> None:
    make, words = KINDS[kind]
    target = tmp_path / "t"
    make(target)
    line = refused(_outputs(tmp_path, results, target)[output] + (["--overwrite"] if overwrite else []), capsys)
    assert words in line and "not a regular file" in line and "--overwrite" not in line, line
    assert kind_of(target) == kind
    assert not (tmp_path / "new.db").exists()  # refused before the results file was made


def test_pgnout_to_a_fifo_is_refused_before_any_work(tmp_path: Path) -> None:
    """In a process of its own, so that a regression blocks that process, not the test run."""
    fifo, db = tmp_path / "games.pgn", tmp_path / "new.db"
    os.mkfifo(fifo)
    for extra in ([], ["--overwrite"], ["--resume"]):
        done = subprocess.run([sys.executable, "-m", "zerosum", "match", "random", "first", "--game", "tictactoe",
                               "--games", "2", "--jobs", "1", "--quiet", "--out", str(db), "--pgnout", str(fifo),
                               *extra], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "is a FIFO, not a regular file" in done.stderr, done.stderr
        assert not db.exists() and kind_of(fifo) == "fifo"


def test_plots_folder_that_is_a_fifo_is_refused(tmp_path: Path, results: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "plots")
    line = refused(["report", str(results), "--plots", str(tmp_path / "plots")], capsys)
    assert "is not a folder" in line and kind_of(tmp_path / "plots") == "fifo"


@pytest.mark.parametrize("argv, words", [
    (["match", "random", "first", "--game", "tictactoe", "--games", "2", "--quiet", "--out", "{db}", "--pgnout", ""],
     "the record file needs a file name"),
    (["match", "random", "first", "--game", "tictactoe", "--games", "2", "--quiet", "--out", ""],
     "the results file needs a file name"),
    (["report", "{results}", "--export", ""], "the record file needs a file name"),
    (["report", "{results}", "--export", "  "], "the record file needs a file name"),
    (["report", "{results}", "--plots", ""], "--plots needs a folder name"),
])
def test_empty_output_names_are_refused_not_ignored(tmp_path: Path, results: Path, capsys: pytest.CaptureFixture[str],
                                                    argv: list[str], words: str) -> None:
    db = tmp_path / "new.db"
    line = refused([a.format(db=db, results=results) for a in argv], capsys)
    assert words in line, line
    assert not db.exists() and list(tmp_path.iterdir()) == []


def test_a_regular_output_is_written_and_replaced_only_with_overwrite(tmp_path: Path, results: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "games.pgn"
    assert main(["report", str(results), "--export", str(target)]) == 0
    first = target.read_text()
    assert first.count("[Event ") == 2
    line = refused(["report", str(results), "--export", str(target)], capsys)
    assert "exists: pass --overwrite to replace it" in line
    assert main(["report", str(results), "--export", str(target), "--overwrite"]) == 0
    assert target.read_text() == first and kind_of(target) == "regular"


def test_atomic_output_refuses_a_fifo_put_in_place_after_the_check(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(InvalidFileError, match="is a FIFO"):
        with atomic_output(check_output(target), checked=True) as fh:
            fh.write("text")
            os.mkfifo(target)  # appears while the output is being written
    assert kind_of(target) == "fifo" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]  # no temporary left


@pytest.mark.parametrize("reader", [False, True])
def test_open_append_never_blocks_on_a_fifo(tmp_path: Path, reader: bool) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    held = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK) if reader else None  # a reader: the open itself succeeds
    try:
        with pytest.raises(InvalidFileError, match="is a FIFO"):
            open_append(fifo, what="record file")
    finally:
        if held is not None:
            os.close(held)


def test_open_append_refuses_a_link_and_appends_to_a_regular_file(tmp_path: Path) -> None:
    make_link(tmp_path / "t")
    with pytest.raises(InvalidFileError, match="is a symbolic link"):
        open_append(tmp_path / "t")
    assert (tmp_path / "real.txt").read_text() == "kept\n"
    fd = open_append(tmp_path / "real.txt")
    try:
        os.write(fd, b"more\n")
    finally:
        os.close(fd)
    assert (tmp_path / "real.txt").read_text() == "kept\nmore\n"
