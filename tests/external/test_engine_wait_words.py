"""A long wait for an engine's handshake or its ``readyok`` is said on standard error after a second, as the arena says
a slow ``newgame`` (``zerosum: engine bad is getting ready for connect4 (newgame; ...): 1.0 s``), and again every
10 s: never a silent wait before the one-line error (audit: ``zerosum match bad random --engine "bad=./eng
nozspok"`` printed nothing for 10.4 s, and so did an engine that never answered its first ``isready``).  A quick
engine says nothing.  Real engine processes (a script written here, one mode a misbehaviour)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from zerosum.errors import AgentError
from zerosum.external import EngineFault
from zerosum.external.session import Session

from process_helpers import write_script, zerosum_run  # noqa: E402 (tests/process_helpers.py)

#: silent: never finishes its handshake; noready: never answers isready; good: answers everything at once
ENGINE = r'''
import sys
MODE = sys.argv[1]
for line in sys.stdin:
    w = line.split()
    if w[:1] == ["zsp"] and MODE != "silent":
        sys.stdout.write("id name waits\nid author the tests\ngame connectx\nzspok\n")
    elif w[:1] == ["isready"] and MODE != "noready":
        sys.stdout.write("readyok\n")
    elif w[:1] == ["quit"]:
        break
    sys.stdout.flush()
'''


def _said(stderr: str) -> list[str]:
    """The lines of ``stderr``, a wait's seconds cut from its line: said after a second (``: 1.0 s``; a little later
    on a loaded machine)."""
    lines = stderr.splitlines()
    assert all(re.fullmatch(r".*: 1\.\d s", line) for line in lines if line.startswith("zerosum: engine")), lines
    return [line.rpartition(": ")[0] if line.startswith("zerosum: engine") else line for line in lines]


@pytest.fixture
def engine(tmp_path: Path) -> Path:
    return write_script(tmp_path / "waits.py", ENGINE)


def test_a_handshake_that_never_ends_is_said_before_its_error(engine: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AgentError) as failed:
        Session([sys.executable, str(engine), "silent"], label="bad", startup=2.5)
    assert str(failed.value).startswith("engine bad failed its handshake: protocol error: no zspok within 2.5 s")
    assert _said(capsys.readouterr().err) == ["zerosum: engine bad is starting (no zspok yet; its handshake has 2.5 s)"]


def test_a_readyok_that_never_comes_is_said_before_its_error(engine: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = Session([sys.executable, str(engine), "noready"], label="bad")
    try:
        with pytest.raises(EngineFault, match=r"^protocol error: no readyok within 2.5 s of isready$"):
            session.ping(2.5)
    finally:
        session.close()
    said = _said(capsys.readouterr().err)
    assert said == ["zerosum: engine bad is getting ready (no readyok yet; isready has 2.5 s)"]


def test_a_quick_engine_says_nothing(engine: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = Session([sys.executable, str(engine), "good"], label="quick")
    capsys.readouterr()  # (its start: a loaded machine may take a second to start Python)
    try:
        for _ in range(3):
            session.ping()
        session.new_game()
    finally:
        session.close()
    assert capsys.readouterr().err == ""


def test_a_match_says_the_wait_for_a_handshake_before_its_error_line(engine: Path, tmp_path: Path) -> None:
    # the handshake's 10 s (session.STARTUP) as a run waits it
    db = tmp_path / "bad.db"
    done = zerosum_run(["match", "bad", "random", "--engine", f"bad={sys.executable} {engine} silent", "--games", "2",
                        "--out", str(db)])
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert _said(done.stderr) == [
        "zerosum: engine bad is starting (no zspok yet; its handshake has 10 s)",
        "zerosum match: error: engine bad failed its handshake: protocol error: no zspok within 10 s of 'zsp 1' (is it "
        "a zerosum engine?)"]
    assert not db.exists()
