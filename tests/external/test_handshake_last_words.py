"""A program that never finishes its handshake (no ``zspok`` in time) says nothing of why; what it printed last on
standard error often does (``loading the weights...``, a warning before a hang).  The handshake's failure now
quotes that line, and a contest's check passes it on to the student (it said only that the start hung, after
the check's 7 s: tests/contest/test_engine_face_contest.py).  Real processes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from zerosum.errors import AgentError
from zerosum.external.session import Session

HANG = "import sys, time\nprint('loading the weights from w.bin...', file=sys.stderr, flush=True)\ntime.sleep(60)\n"


def test_a_handshake_that_times_out_quotes_the_programs_last_line_on_standard_error(tmp_path: Path) -> None:
    (tmp_path / "hang.py").write_text(HANG)
    with pytest.raises(AgentError) as info:
        Session([sys.executable, str(tmp_path / "hang.py")], label="h", startup=1.5)
    said = str(info.value)
    assert said.startswith("engine h failed its handshake: protocol error: no zspok within 1.5 s"), said
    assert said.endswith("; its last line on standard error: 'loading the weights from w.bin...'"), said


def test_a_silent_one_adds_nothing(tmp_path: Path) -> None:
    (tmp_path / "quiet.py").write_text("import time\ntime.sleep(60)\n")
    with pytest.raises(AgentError) as info:
        Session([sys.executable, str(tmp_path / "quiet.py")], label="q", startup=1.5)
    assert "standard error" not in str(info.value), str(info.value)
