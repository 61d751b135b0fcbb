"""`zerosum engine-check` holds ``quit`` to docs/protocol.md's bound: an engine ends on ``quit`` promptly, within a
second (a loaded machine is allowed half a second more).  Before, an engine that took 5 s to exit passed (audit:
``ok    quit: exited with status 0 in 5038 ms``).  The engine is test_engine_check.GOOD run by a shell that sleeps
2.5 s once it has ended: the program as a whole exits with status 0, 2.5 s after ``quit``."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

from process_helpers import write_script, zerosum_run  # noqa: E402 (tests/process_helpers.py)
from test_engine_check import GOOD  # noqa: E402


def test_an_engine_slow_to_end_on_quit_fails_the_quit_check_saying_the_bound(tmp_path: Path) -> None:
    engine = write_script(tmp_path / "ttt.py", GOOD)
    lingering = f"{shlex.quote(sys.executable)} {shlex.quote(str(engine))}; sleep 2.5"
    done = zerosum_run(["engine-check", "--timeout", "20", "--stop-limit", "2000", "sh", "-c", lingering])
    (quit_line,) = [line for line in done.stdout.splitlines() if line[8:].startswith("quit: ")]
    said = re.fullmatch(r"  FAIL  quit: exited (\d+) ms after quit: an engine ends on quit promptly, within a second "
                        r"\(docs/protocol\.md; 1500 ms allowed for a loaded machine\)", quit_line)
    assert said is not None and int(said.group(1)) >= 2500, done.stdout
    assert done.returncode == 1, done.stdout
