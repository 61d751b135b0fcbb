"""Hostile: signals its parent, the host's test process, its process group and every process it may (kill -1)."""
import os
import signal

TARGETS = {}  # the test fills in {"pid": the test process's id on the host}


def player(board):
    for how in (lambda: os.kill(TARGETS.get("pid", 1), signal.SIGKILL), lambda: os.kill(1, signal.SIGKILL),
                lambda: os.kill(os.getppid(), signal.SIGKILL), lambda: os.killpg(0, signal.SIGKILL),
                lambda: os.kill(-1, signal.SIGKILL)):
        try:
            how()
        except OSError:
            pass
    return 0
