"""The last step into a contest seat, run inside the bubblewrap sandbox before the submission's program.

``python -I -S jail.py [--strict] NPROC DATA_MB CPU_S FSIZE_MB NOFILE -- PROGRAM [ARGS...]``: it imports
nothing but the standard library (no ``site``: a few milliseconds), sets the seat's resource limits, gives up
root when it runs as root (bubblewrap's privileged mode: a fresh, random user id from 1,000,000,000 up, that
owns no file and no other process on the machine, no groups, no capabilities), and starts PROGRAM, whose
standard input and error are the seat's own; its output is relayed line by line (:func:`relay`), so that:

- a program killed by a signal leaves one line a student can read on standard error (``the program was killed
  by signal 11 (SIGSEGV)``), which the engine client quotes in the crash's reason;
- with ``--strict`` (a submission played by ``zerosum engine``, which answers every ``go`` even when the
  agent failed: with the first legal move), a move the agent did not make is not played: ``info string error
  the agent failed: ...`` (its exception, or its process ended: ``os._exit``, a segmentation fault, the CPU
  limit), or a ``bestmove`` that no ``info`` of a finished search came before (the search was stopped or ran
  out of time before the agent answered), ends the seat at once (exit code 1) with the reason on standard
  error, and that ``bestmove`` is not passed on.  The engine client then forfeits the game with it.

The limits are set here, inside the sandbox's own user and process namespaces, and not before bubblewrap,
because ``RLIMIT_NPROC`` counts the processes of one user *in one user namespace* (Linux 5.14 and later):
set outside, it would count the teacher's own processes too.  Root (user id 0 on the machine) is exempt from
``RLIMIT_NPROC``, hence the fresh user id.  Exit code 126 and one line on standard error when a limit or the
user id cannot be set (nothing of the submission runs then).
"""

from __future__ import annotations

import os
import resource
import sys

#: the first user id a seat may run as (in bubblewrap's privileged mode); the id is drawn at random above it
FIRST_UID = 1_000_000_000
CANNOT_JAIL = 126
FAILED = 1
_AGENT_FAILED = b"info string error the agent failed: "
_LONG = 1 << 16  # a line longer than this is passed on as it comes (it is no bestmove: the client judges it)


def _limit(which: int, value: int) -> None:
    resource.setrlimit(which, (value, value))


def _fail(child: int, reason: str) -> None:
    sys.stderr.write(reason + "\n")
    sys.stderr.flush()
    try:
        os.kill(child, 9)
    except OSError:
        pass
    os._exit(FAILED)


def _judge(line: bytes, state: dict[str, bool], child: int, data_mb: int) -> None:
    """Whether ``line`` (strict mode) ends the seat; ``state["found"]``: an ``info`` came since the last move."""
    if line.startswith(_AGENT_FAILED):
        why = line[len(_AGENT_FAILED):].decode("utf-8", "replace").strip()
        if why.startswith("MemoryError"):
            why += f" (over the seat's memory limit, {data_mb} MB a process)"
        elif "ended without a move" in why:
            why = "the agent's process ended in a move, without a move (os._exit, a crash, or over the CPU limit)"
        _fail(child, f"the agent failed: {why}")
    word = line.split(None, 1)[0] if line.strip() else b""
    if word == b"info" and not line.startswith(b"info string"):
        state["found"] = True
    elif word == b"bestmove":
        if not state["found"] and line.split()[1:2] != [b"(none)"]:
            _fail(child, "the agent did not answer within the move's time (stopped before it chose a move)")
        state["found"] = False


def relay(child: int, source: int, strict: bool, data_mb: int) -> None:
    """Pass the child's output on, line by line (judged in strict mode), until it ends; then end as it ended."""
    state = {"found": False}
    buffer = b""
    passing = False  # in a line too long to hold
    while True:
        try:
            chunk = os.read(source, 1 << 16)
        except InterruptedError:
            continue
        if not chunk:
            break
        buffer += chunk
        out = []
        while True:
            end = buffer.find(b"\n")
            if end < 0:
                if len(buffer) > _LONG:
                    out.append(buffer)
                    buffer, passing = b"", True
                break
            line, buffer = buffer[: end + 1], buffer[end + 1:]
            if strict and not passing:
                _judge(line, state, child, data_mb)
            passing = False
            out.append(line)
        data = b"".join(out)
        while data:
            try:
                data = data[os.write(1, data):]
            except BrokenPipeError:
                break
    if buffer:
        os.write(1, buffer)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            import signal

            name = f" ({signal.Signals(sig).name})"
        except ValueError:
            name = ""
        sys.stderr.write(f"the program was killed by signal {sig}{name}"
                         + (": over the seat's CPU time limit" if name == " (SIGXCPU)" else "") + "\n")
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else FAILED)


def main(argv: list[str]) -> None:
    strict = bool(argv) and argv[0] == "--strict"
    argv = argv[1:] if strict else argv
    try:
        cut = argv.index("--")
        nproc, data_mb, cpu_s, fsize_mb, nofile = (int(x) for x in argv[:cut])
        program = argv[cut + 1:]
        if not program:
            raise ValueError("no program")
    except ValueError as exc:
        sys.stderr.write(f"jail: usage: NPROC DATA_MB CPU_S FSIZE_MB NOFILE -- PROGRAM [ARGS...] ({exc})\n")
        os._exit(CANNOT_JAIL)
    try:
        mib = 1 << 20
        _limit(resource.RLIMIT_CORE, 0)
        _limit(resource.RLIMIT_DATA, data_mb * mib)
        _limit(resource.RLIMIT_CPU, cpu_s)
        _limit(resource.RLIMIT_FSIZE, fsize_mb * mib)
        _limit(resource.RLIMIT_NOFILE, nofile)
        _limit(resource.RLIMIT_NPROC, nproc)
        if os.getuid() == 0:  # bubblewrap ran as root, without a user namespace: become nobody in particular
            uid = FIRST_UID + int.from_bytes(os.urandom(4), "big") % (1 << 30)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            if os.getuid() == 0 or os.geteuid() == 0:
                raise OSError("still root")
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"jail: the seat's limits cannot be set: {exc}\n")
        os._exit(CANNOT_JAIL)
    ours, theirs = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.dup2(theirs, 1)
            import signal

            signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # as any program expects (Python ignores it)
            os.close(theirs)
            os.close(ours)
            os.execv(program[0], program)
        except OSError as exc:
            sys.stderr.write(f"cannot start {program[0]!r}: {exc.strerror or exc}\n")
        finally:
            os._exit(127)
    os.close(theirs)
    relay(child, ours, strict, data_mb)


if __name__ == "__main__":
    main(sys.argv[1:])
