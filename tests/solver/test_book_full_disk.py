"""``zerosum book`` on a full disk (or past a file-size limit) says what Ctrl-C says: the file that could not be
written and why, how many positions its checkpoint kept, and the command that carries on; that command then
finishes the same book.  Before, it was ``zerosum book: error: No space left on device`` and nothing more.

The full disk is a small tmpfs (root and a working ``mount`` only); the file-size limit (``RLIMIT_FSIZE``, with
``SIGXFSZ`` ignored so a write fails instead of killing) runs everywhere, in a subprocess."""

from __future__ import annotations

import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import process_helpers  # tests/process_helpers.py
from zerosum.cli import main
from zerosum.solver.book import Book

GAME = "connectx:rows=4,cols=5,k=3"  # depth 6: 1,400 positions at the last ply, a 19,279-byte book; 1 s


def book_argv(out: Path) -> list[str]:
    return ["book", "--game", GAME, "--depth", "6", "-o", str(out), "--tt-log-size", "12", "--quiet"]


def carried_on(line: str) -> list[str]:
    """The command the error line gives, to run as ``main(argv)``."""
    words = shlex.split(line.split("; to carry on: ", 1)[1])
    assert words[:2] == ["zerosum", "book"], line
    return words[1:]


def kept_lines(checkpoint: Path) -> int:
    """The whole ``key score`` lines of a checkpoint (its header left out, a torn last line too)."""
    return checkpoint.read_bytes().count(b"\n") - 1


def same_book(a: Path, b: Path) -> bool:
    x, y = Book.load(str(a)), Book.load(str(b))
    return bool(np.array_equal(x.keys, y.keys) and np.array_equal(x.scores, y.scores)) and x.depth == y.depth


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("reference") / "whole.zsb"
    assert main(book_argv(out)) == 0
    return out


def test_a_full_disk_names_the_checkpoint_says_what_it_kept_and_how_to_carry_on(
        tmp_path: Path, reference: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with process_helpers.small_disk(tmp_path / "small", "64k") as disk:
        (disk / "fill").write_bytes(b"\0" * (56 << 10))  # 8 KiB left: about half the checkpoint
        out = disk / "b.zsb"
        capsys.readouterr()
        assert main(book_argv(out)) == 2
        line = capsys.readouterr().err.strip()
        checkpoint = Path(f"{out}.partial")
        kept = kept_lines(checkpoint)
        assert "\n" not in line and 0 < kept < 1400, (line, kept)
        assert line.startswith(f"zerosum book: error: book checkpoint '{checkpoint}' cannot be written: No space left on "
                               f"device; {kept:,} positions of the book kept in {checkpoint}; to carry on: "), line
        assert carried_on(line) == book_argv(out)
        assert not out.exists()
        (disk / "fill").unlink()  # room again: the command given finishes the book
        assert main(carried_on(line)) == 0
        assert same_book(out, reference) and not checkpoint.exists()


FILE_SIZE_LIMIT = textwrap.dedent("""
    import resource, signal, sys
    from zerosum.cli import main
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    sys.exit(main(sys.argv[2:]))
""")


@pytest.mark.parametrize("limit, failing", [(4000, "checkpoint"), (18_000, "book")])
def test_a_file_size_limit_is_one_line_naming_the_file_and_the_run_carries_on(tmp_path: Path, reference: Path,
                                                                              limit: int, failing: str) -> None:
    # 4,000 bytes: the checkpoint stops part way; 18,000: it fits whole (at most 53 + 1,400 x 12 bytes), and the
    # 19,279-byte book does not
    out = tmp_path / "b.zsb"
    checkpoint = Path(f"{out}.partial")
    done = subprocess.run([sys.executable, "-c", FILE_SIZE_LIMIT, str(limit), *book_argv(out)], capture_output=True,
                          text=True, timeout=300)
    kept = kept_lines(checkpoint)
    named = f"book checkpoint '{checkpoint}'" if failing == "checkpoint" else f"opening book '{out}'"
    assert done.returncode == 2 and done.stderr == (
        f"zerosum book: error: {named} cannot be written: File too large; {kept:,} positions of the book kept in "
        f"{checkpoint}; to carry on: zerosum book {shlex.join(book_argv(out)[1:])}\n"), done.stderr
    assert (0 < kept < 1400 and checkpoint.stat().st_size <= limit) if failing == "checkpoint" else kept == 1400
    assert not out.exists()
    assert main(carried_on(done.stderr)) == 0  # a whole checkpoint: nothing left to search
    assert same_book(out, reference) and not checkpoint.exists()
