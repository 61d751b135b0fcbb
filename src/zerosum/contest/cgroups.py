"""The first step of a contest seat, before bubblewrap (the last, inside it, is :mod:`.jail`).

``python -I -S cgroups.py MEMORY_MB CPU_PERCENT -- bwrap ...`` (:func:`outer`): the seat's processes together
get a memory and a CPU cgroup of their own where the machine allows it, then PROGRAM runs.  Like the jail, a
script of the standard library alone (no ``site``: a few milliseconds).
"""

from __future__ import annotations

import os
import sys
import time

#: the names of the seats' cgroups
CGROUP_PREFIX = "zerosum-seat-"


def _say(text: str) -> None:
    os.write(2, ("\n" + text + "\n").encode("utf-8", "replace"))


def _own_cgroup(controller: str) -> str | None:
    """This process's folder in cgroup v1's ``controller`` hierarchy, when cgroups may be made in it, or None."""
    try:
        with open("/proc/self/cgroup") as f:
            for line in f:
                _, controllers, path = line.rstrip("\n").split(":", 2)
                if controller in controllers.split(","):
                    folder = os.path.join("/sys/fs/cgroup", controller, path.lstrip("/"))
                    usable = os.path.isfile(os.path.join(folder, "cgroup.procs")) and os.access(folder, os.W_OK)
                    return folder if usable else None
    except (OSError, ValueError):
        return None
    return None


def _join(controller: str, knobs: list[tuple[str, str, bool]]) -> bool:
    """Make a cgroup of ``controller`` for this seat, set its ``(knob, value, required)`` knobs (a knob the
    kernel lacks is skipped, an optional one that fails too), and move this process into it; whether it did.
    Seat cgroups of this controller a minute old or more are removed first, unless a process is in one (a
    minute: never the new cgroup of a seat starting beside this one)."""
    base = _own_cgroup(controller)
    if base is None:
        return False
    now = time.time()
    for name in os.listdir(base):
        if name.startswith(CGROUP_PREFIX):
            try:
                if now - os.stat(os.path.join(base, name)).st_ctime > 60:
                    os.rmdir(os.path.join(base, name))
            except OSError:
                pass
    mine = os.path.join(base, f"{CGROUP_PREFIX}{os.getpid()}-{os.urandom(4).hex()}")
    try:
        os.mkdir(mine)
        for knob, value, required in knobs:
            if os.path.exists(os.path.join(mine, knob)):
                try:
                    with open(os.path.join(mine, knob), "w") as f:
                        f.write(value)
                except OSError:
                    if required:
                        raise
        with open(os.path.join(mine, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
        return True
    except OSError:
        try:
            os.rmdir(mine)
        except OSError:
            pass
        return False


def outer(memory_mb: int, cpu_percent: int, program: list[str]) -> None:
    """Outside the sandbox: put this process (then bubblewrap, and all the seat's processes) into cgroups of
    its own where the machine lets it (cgroup v1, writable): a memory cgroup holding them all to ``memory_mb``
    together (the kernel kills inside the seat past it), and a CPU cgroup holding them all to ``cpu_percent``
    of one core (a fork bomb spins on one core, not all of them); exec PROGRAM in any case."""
    _join("memory", [("memory.limit_in_bytes", str(memory_mb << 20), True),
                     ("memory.memsw.limit_in_bytes", str(memory_mb << 20), False), ("memory.swappiness", "0", False)])
    # a short period: a seat that used its share waits at most 20 ms to answer (stop, isready)
    _join("cpu", [("cpu.cfs_period_us", "20000", True), ("cpu.cfs_quota_us", str(cpu_percent * 200), True)])
    try:
        os.execv(program[0], program)
    except OSError as exc:
        _say(f"cannot start {program[0]!r}: {exc.strerror or exc}")
        os._exit(127)


if __name__ == "__main__":
    if len(sys.argv) > 4 and sys.argv[3] == "--":
        outer(int(sys.argv[1]), int(sys.argv[2]), sys.argv[4:])
    _say("usage: cgroups.py MEMORY_MB CPU_PERCENT -- PROGRAM [ARGS...]")
    os._exit(2)
