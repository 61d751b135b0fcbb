"""The reaper: a tiny process between zerosum and an external engine, so that nothing an engine starts
outlives it.

Run as a script (``python -I -S reaper.py PARENT_PID DONE_FD PROGRAM [ARGS...]``, by :mod:`.process`), in a
session of its own; it imports nothing but the standard library.  It starts the engine in a process group of
its own (standard input, output and error passed straight through: no copying, no added latency), and then
waits.
When the engine ends, when the reaper is told to stop (SIGTERM, SIGHUP, SIGINT), or when its parent goes
(even on SIGKILL: Linux's parent-death signal, and a check of the parent's id every half second), it kills
the engine's whole process group with SIGKILL, then every process left below it (on Linux it is a child
subreaper: an engine's orphaned children come to it, whatever group they moved to), reaps them all (no
zombies), writes one byte to the descriptor ``DONE_FD`` (so its parent tells its own end from its being
killed; told to stop by another process than its parent -- the engine, say -- it writes ``stopped SIGNAL
SENDER engine|other`` instead), and ends as the engine ended: the same exit code, or killed by the same
signal.  The engine dies with it (Linux's parent-death signal, SIGKILL): when the reaper itself is killed
(by the engine's own ``os.kill(os.getppid(), 9)``, say), the engine does not run on, and :func:`end_session`,
called by :mod:`.process`, kills what the engine left in the reaper's session (its group: its children).

An engine that cannot be started (no such program, not executable) ends with exit code 127 and one line on
standard error saying why; when the system refuses the reaper a process for it (a full process limit or
table, too little memory), that line is ``the system refused a new process (Resource temporarily unavailable)``.
"""

from __future__ import annotations

import os
import signal
import sys
import time

CANNOT_START = 127
#: how the last words of a reaper that got no process for the engine begin (:mod:`.process` tells them by it)
REFUSED = "the system refused"
_STOP = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
_WATCHED = {signal.SIGCHLD, *_STOP}
#: the stop signal that ended the wait and its sender's process id (0: the kernel, or not known), once one came
_STOPPED: list[tuple[int, int]] = []
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except Exception:  # noqa: BLE001 - not Linux: the parent's id is watched instead
        pass


def _start(program: list[str]) -> int:
    """Fork the engine in its own process group, to die with this process; the child never returns.  No
    process to be had ends the reaper with :data:`CANNOT_START`, saying so."""
    me = os.getpid()
    try:
        pid = os.fork()
    except OSError as exc:  # EAGAIN (a process limit, a full table), ENOMEM: the system's, not the engine's
        os.write(2, f"{REFUSED} a new process ({exc.strerror or exc})\n".encode("utf-8", "replace"))
        os._exit(CANNOT_START)
    if pid:
        try:
            os.setpgid(pid, pid)  # both sides set it, so the group exists before either goes on
        except OSError:
            pass
        return pid
    try:
        os.setpgid(0, 0)
        _prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))  # the reaper killed: the engine too, at once
        if os.getppid() != me:  # it was killed already
            os._exit(CANNOT_START)
        for sig in (signal.SIGPIPE, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        os.execvp(program[0], program)
    except OSError as exc:
        os.write(2, f"cannot start {program[0]!r}: {exc.strerror or exc}\n".encode("utf-8", "replace"))
    finally:
        os._exit(CANNOT_START)


def _processes() -> list[tuple[int, list[bytes]]]:
    """Each process's id and the fields of its ``/proc/ID/stat`` after its name (state, parent, group,
    session, ...; Linux: none elsewhere)."""
    found: list[tuple[int, list[bytes]]] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 3:
            found.append((int(name), fields))
    return found


def _children() -> list[int]:
    """The ids of this process's children (Linux /proc; empty elsewhere)."""
    me = str(os.getpid()).encode()
    return [pid for pid, fields in _processes() if fields[1] == me]


def end_session(session: int, wait: float = 2.0) -> bool:
    """Kill every process of ``session`` that still runs (a killed reaper's: the engine's group, and any other
    group it made), their groups too, until none is left or ``wait`` seconds pass; whether any was found.  Its
    id is not reused while one of them lives (Linux /proc; nothing is found elsewhere)."""
    mark = str(session).encode()
    found = False
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        left = [(pid, int(fields[2])) for pid, fields in _processes() if fields[3] == mark and fields[0] not in b"ZX"]
        if not left:
            return found
        found = True
        for pid, group in left:
            for kill, target in ((os.killpg, group), (os.kill, pid)):
                try:
                    kill(target, signal.SIGKILL)
                except OSError:
                    pass
        time.sleep(0.01)
    return found


def _clean_up(group: int) -> None:
    """Kill the engine's group and everything left below this process; reap them all."""
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
    deadline = time.monotonic() + 2.0
    pause = 0.001
    while time.monotonic() < deadline:
        for pid in _children():  # escaped the group (setsid): orphans came here as to a subreaper
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            reaped = 0
            while os.waitpid(-1, os.WNOHANG)[0]:  # every one that ended, before /proc is read again (an
                reaped += 1  # engine's 20 helpers cost one reading, not 20: its kill is over sooner)
        except ChildProcessError:
            return
        if not reaped:
            time.sleep(pause)
            pause = min(2 * pause, 0.01)


def _reaped(engine: int) -> int | None:
    """Reap whatever ended; the engine's wait status when it is among them."""
    status = None
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status
        if pid == 0:
            return status
        if pid == engine:
            status = code


def _wait(engine: int, parent: int) -> int | None:
    """Wait until the engine ends (its wait status), or until this process is told to stop or its parent
    goes (None).  Signals are taken as they come where the system can (``sigtimedwait``); elsewhere (macOS)
    the engine and the parent are looked at every 50 ms."""
    if hasattr(signal, "sigtimedwait"):
        while True:
            got = signal.sigtimedwait(_WATCHED, 0.5)
            if got is None:
                if os.getppid() != parent:
                    return None
            elif got.si_signo != signal.SIGCHLD:
                _STOPPED.append((got.si_signo, got.si_pid))
                return None
            else:
                status = _reaped(engine)
                if status is not None:
                    return status
    stop: list[int] = []
    for sig in _STOP:
        signal.signal(sig, lambda number, frame: stop.append(number))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _WATCHED)
    while not stop and os.getppid() == parent:
        status = _reaped(engine)
        if status is not None:
            return status
        time.sleep(0.05)
    return None


def main(argv: list[str]) -> int:
    parent, done, program = int(argv[1]), int(argv[2]), argv[3:]
    os.set_inheritable(done, False)  # not the engine's
    signal.pthread_sigmask(signal.SIG_BLOCK, _WATCHED)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
    if os.getppid() != parent:
        return 1
    engine = _start(program)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # the engine's output pipe ends when the engine's group does, not when this does
    status = _wait(engine, parent)
    _clean_up(engine)
    said = b"."  # this reaper ended the engine (it was not killed) ...
    if _STOPPED and _STOPPED[0][1] != parent:  # ... told to by another process than its parent (the engine's own?)
        signo, sender = _STOPPED[0]
        said = f"stopped {signo} {sender} {'engine' if sender == engine else 'other'}".encode()
    try:
        os.write(done, said)
    except OSError:
        pass
    if status is None:
        return 1
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
        return 128 + sig
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
