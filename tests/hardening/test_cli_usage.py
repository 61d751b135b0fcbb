"""Hardening, the command line: bad options and broken standard streams are one line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from zerosum.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


#: what a first run on a cold cache says on standard error besides (zerosum.agents.prepare.tell)
COMPILING = "zerosum: preparing the engine ("


def one_line(err: str) -> str:
    lines = [line for line in err.strip().splitlines() if not line.startswith(COMPILING)]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("argv", [
    ["play", "--solver-time", "inf"],
    ["play", "--solver-time", "nan"],
    ["play", "--hint-time", "0"],
    ["play", "--seed", "99999999999999999999"],
    ["play", "--seed", "4²"],
    ["bench", "playouts", "--seconds", "nan"],
    ["bench", "playouts", "--seconds", "-1"],
    ["bench", "playouts", "--rounds", "0"],
    ["bench", "playouts", "--rounds", str(2**64)],
    ["play", "--game", "migration:n=100000"],
    ["play", "--game", "connectx:rows=4²"],
])
def test_numeric_options_out_of_range_are_one_usage_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert one_line(err).startswith("zerosum ")


def test_play_with_standard_input_closed_plays_agents_and_ends_a_human_game(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    code, out, err = run(["play", "--game", "tictactoe", "--first", "first", "--second", "first"], capsys)
    assert code == 0 and "wins" in out
    code, out, err = run(["play", "--game", "tictactoe", "--second", "first"], capsys)
    assert code in (0, 2) and "Traceback" not in err


def test_play_with_standard_output_closed_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    code = main(["play", "--game", "tictactoe", "--first", "first", "--second", "first"])
    err = capsys.readouterr().err
    assert code == 2 and "standard output is closed" in one_line(err)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv,stdin", [
    (["play", "--game", "tictactoe", "--first", "first", "--second", "first"], ""),
    (["solve", "--game", "connectx:rows=4,cols=4,k=3"], "1\n12\n"),
])
def test_writing_to_a_full_disk_is_one_line(argv: list[str], stdin: str) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "zerosum", *argv], input=stdin, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2
    assert "No space left on device" in one_line(proc.stderr)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_python_caller_keeps_its_standard_output_after_a_full_disk(tmp_path: os.PathLike[str]) -> None:
    # main() from Python tells of the full disk in one line, and leaves fd 1 where the caller had it (the
    # console script alone points it at /dev/null, so that its exit stays quiet)
    script = os.path.join(tmp_path, "caller.py")
    kept = os.path.join(tmp_path, "kept.txt")
    with open(script, "w") as fh:
        fh.write(f"""\
import io, os, sys
from zerosum.cli import main
sys.stdin = io.StringIO("1\\n12\\n")
status = main(["solve", "--game", "connectx:rows=4,cols=4,k=3"])
where = os.readlink("/proc/self/fd/1")
try:
    print("the caller's own line")
    sys.stdout.flush()
    flushed = "flushed"
except OSError as exc:
    flushed = type(exc).__name__
fd = os.open({kept!r}, os.O_WRONLY | os.O_CREAT)
os.write(fd, f"{{status}} {{where}} {{flushed}}".encode())
os.dup2(fd, 1)  # the caller's own way out of the full disk: its exit is quiet
""")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, script], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "No space left on device" in one_line(proc.stderr)
    with open(kept) as fh:
        assert fh.read() == "2 /dev/full OSError"  # still the full disk, failing as it fails


def test_a_closed_pipe_ends_quietly() -> None:
    proc = subprocess.run(
        f"{sys.executable} -m zerosum solve --game connectx:rows=4,cols=4,k=3 | head -c 1 >/dev/null",
        shell=True, input="1\n" * 3000, stderr=subprocess.PIPE, text=True, timeout=120)
    assert "Traceback" not in proc.stderr
    assert all(line.startswith(COMPILING) for line in proc.stderr.splitlines()), proc.stderr


def test_an_agent_file_that_exits_at_import_is_one_line(tmp_path: os.PathLike[str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    bot = os.path.join(tmp_path, "exitbot.py")
    with open(bot, "w") as fh:
        fh.write("import sys\nsys.exit(3)\n")
    code, out, err = run(["match", f"{bot}:agent", "random", "--games", "2", "--game", "tictactoe"], capsys)
    assert code == 2 and "sys.exit(3)" in one_line(err)
    for text in ("raise SystemExit('bye')\n", "raise KeyboardInterrupt.__base__('odd')\n", "1/0\n",
                 "class E(Exception):\n    def __str__(self):\n        raise RuntimeError\nraise E()\n"):
        with open(bot, "w") as fh:
            fh.write(text)
        code, out, err = run(["match", f"{bot}:agent", "random", "--games", "2", "--game", "tictactoe"], capsys)
        assert code == 2, text
        one_line(err)


def test_benchmark_data_is_found_beside_the_checkout_or_through_one_variable(
        monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]) -> None:
    from zerosum.core.files import PACKAGE_DIR, benchmark_data

    monkeypatch.delenv("ZEROSUM_BENCHMARKS", raising=False)
    assert benchmark_data("pons") == PACKAGE_DIR.parents[2] / "shared" / "benchmarks" / "pons"
    monkeypatch.setenv("ZEROSUM_BENCHMARKS", str(tmp_path))
    assert str(benchmark_data("uci", "connect-4.data")) == os.path.join(tmp_path, "uci", "connect-4.data")


def test_no_test_names_a_machine_path() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    offenders = [str(p) for p in root.rglob("*.py") if "/work/" in p.read_text(encoding="utf-8")
                 and p.name != Path(__file__).name]
    assert offenders == []


def test_outputs_keep_the_usual_permissions(tmp_path: os.PathLike[str]) -> None:
    from zerosum.core.files import atomic_output

    target = os.path.join(tmp_path, "out.txt")
    with atomic_output(target) as fh:
        fh.write("x")
    mask = os.umask(0)
    os.umask(mask)
    assert os.stat(target).st_mode & 0o777 == 0o666 & ~mask
    os.chmod(target, 0o640)
    with atomic_output(target, overwrite=True) as fh:
        fh.write("y")
    assert os.stat(target).st_mode & 0o777 == 0o640 and open(target).read() == "y"
