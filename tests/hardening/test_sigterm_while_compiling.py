"""A command stopped by SIGTERM ends as killed by it (status -15 to a parent, 143 in a shell) even when a step
is still under way as it ends (a first run's compile, or an engine's search a person quit: ``prepare.hold``).
``prepare.leave`` then ends the process at once, and used to do it with ``os._exit(143)``: a parent saw an exit
with status 143, not a death by the signal (``zerosum review -o`` stopped during a cold compile, one run in 5)."""

from __future__ import annotations

import signal
import subprocess
import sys

CHILD = r'''
import os, signal, sys, threading, time
from zerosum import cli
from zerosum.agents import prepare

def main(argv=None):  # a command: a step under way, then SIGTERM
    cli._stop_at_signals()
    busy = threading.Thread(target=time.sleep, args=(60,), daemon=True)
    busy.start()
    prepare.hold(busy)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)
    except KeyboardInterrupt:
        print("interrupted by SIGTERM: nothing kept", file=sys.stderr)
        return 130
    return 0

cli.main = main
cli.entry()
'''


def test_sigterm_with_a_step_under_way_ends_as_killed_by_it() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGTERM, (done.returncode, done.stderr)
    assert done.stderr.splitlines()[-1] == "interrupted by SIGTERM: nothing kept"
