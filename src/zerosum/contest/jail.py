"""The last step of a contest seat, inside bubblewrap before the submission runs (the first, around bubblewrap,
is :mod:`.cgroups`).

``python -I -S jail.py [--strict] [--link SOURCE TARGET]... NPROC DATA_MB CPU_S FSIZE_MB NOFILE -- PROGRAM
[ARGS...]``, inside: it imports nothing but the standard library (no ``site``: a few milliseconds), sets the
seat's resource limits, gives up root when it runs as root (bubblewrap's privileged mode: the program and the
jail each under a fresh, random user id from 1,000,000,000 up, that owns no file and no other process on the
machine, no groups, no capabilities: the program cannot signal the jail), links numba's cache files of each
read-only SOURCE folder into the scratch folder TARGET, and starts PROGRAM, whose standard input is the seat's
own; its output is relayed line by line, and its standard error as it comes, up to a rate (:func:`relay`), so
that:

- a program killed by a signal leaves one line a student can read on standard error (``the program was killed
  by signal 11 (SIGSEGV)``), which the engine client quotes in the crash's reason;
- the jail's reason is the last line on the seat's standard error, and else the program's own last line: a
  process the program left running (a fork bomb's, a chattering helper's) writes there only through the jail,
  which ends with the reason or says the program's last line again (:class:`_Errors`);
- with ``--strict`` (a submission played by ``zerosum engine``, which answers every ``go`` even when the
  agent failed: with the first legal move), a move the agent did not make is not played: ``info string error
  the agent failed: ...`` (its exception, or its process ended: ``os._exit``, a segmentation fault, the CPU
  limit), or a ``bestmove`` that no ``info`` of a finished search came before (the search was stopped or ran
  out of time before the agent answered), ends the seat at once (exit code 1) with the reason on standard
  error, and that ``bestmove`` is not passed on.  The engine client then forfeits the game with it;
- a flood of standard error costs the seat's own CPU, under its limits, and not the engine client's, which
  reads what the jail passes on outside the seat (:class:`_Errors`): at most :data:`ERRORS_BURST` bytes at once
  and :data:`ERRORS_RATE` a second over time (a bucket refilled at that rate); what is held back is counted,
  and at the end its last lines are passed on after a line saying how much was left out, so the program's last
  words are still the seat's last line.

The limits are set here, inside the sandbox's own user and process namespaces, and not before bubblewrap,
because ``RLIMIT_NPROC`` counts the processes of one user *in one user namespace* (Linux 5.14 and later):
set outside, it would count the teacher's own processes too.  Root (user id 0 on the machine) is exempt from
``RLIMIT_NPROC``, hence the fresh user id.  Exit code 126 and one line on standard error when a limit or the
user id cannot be set (nothing of the submission runs then).
"""

from __future__ import annotations

import fcntl
import os
import resource
import select
import signal
import socket
import struct
import sys
import termios
import time

#: the first user id a seat may run as (in bubblewrap's privileged mode); the id is drawn at random above it
FIRST_UID = 1_000_000_000
CANNOT_JAIL = 126
FAILED = 1
#: the stamp of numba's cache folders (``zerosum.core.kernel_cache.STAMP``: this module imports nothing of zerosum)
STAMP = "zerosum-kernel-sources.sha1"
#: bytes of the program's standard error passed on at most at once, and a second over time (the rest is left out)
ERRORS_BURST, ERRORS_RATE = 64 << 10, 16 << 10
_ERRORS_TAIL = 4 << 10  # of what was left out, the end kept, to be passed on at the end
_AGENT_FAILED = b"info string error the agent failed: "
_AFTER = 1 << 20  # the most read from the output once the child has ended
_LONG = 1 << 16  # a line longer than this is passed on as it comes (it is no bestmove: the client judges it)


def _say(text: str) -> None:
    """One line on standard error, written at once (the process may end with ``os._exit`` right after), on a
    line of its own even when the program's last words there had no line end (a flood: the client quotes
    the last line)."""
    os.write(2, ("\n" + text + "\n").encode("utf-8", "replace"))


def _link(source: str, target: str) -> None:
    """Links in folder ``target`` (made) to the numba cache files of the read-only folder ``source``: numba loads
    the kernels zerosum compiled before from them, and writes what it compiles anew beside them, in scratch.
    The stamp of the sources they were built from is linked too (:data:`STAMP`): ``import zerosum`` finds its
    cache vouched for, not unknown kernels to drop (:mod:`zerosum.core.kernel_cache`)."""
    try:
        os.makedirs(target, exist_ok=True)
        for name in os.listdir(source):
            if name.endswith((".nbi", ".nbc")) or name == STAMP:
                os.symlink(os.path.join(source, name), os.path.join(target, name))
    except OSError:
        pass  # no cache: numba compiles


def _fresh_uids() -> tuple[int, int]:
    """Two different user ids, drawn at random from :data:`FIRST_UID` up: the jail's and the program's."""
    first = FIRST_UID + int.from_bytes(os.urandom(4), "big") % (1 << 30)
    second = FIRST_UID + (first - FIRST_UID + 1 + int.from_bytes(os.urandom(4), "big") % ((1 << 30) - 1)) % (1 << 30)
    return first, second


def _become(uid: int) -> None:
    """Give up root for good: user and group ``uid``, no supplementary groups (and so no capabilities)."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() == 0 or os.geteuid() == 0:
        raise OSError("still root")


def _limit(which: int, value: int) -> None:
    resource.setrlimit(which, (value, value))


def _fail(child: int, reason: str) -> None:
    _say(reason)
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
        elif "ended without a move" in why:  # what the engine says after it (an exit code, a signal) is kept
            said = why.partition("ended without a move")[2].strip()
            why = "its process ended in a move, without a move " + (
                said or "(os._exit, a crash, or over the memory or CPU limit)")
        # an answer that is no legal column is said as the arena says it (the engine client reads the kind)
        _fail(child, why if why.startswith(("illegal move: ", "malformed move: ")) else f"the agent failed: {why}")
    word = line.split(None, 1)[0] if line.strip() else b""
    if word == b"info" and not line.startswith(b"info string"):
        state["found"] = True
    elif word == b"bestmove":
        if not state["found"] and line.split()[1:2] != [b"(none)"]:
            _fail(child, "timeout: the agent did not answer within the move's time (stopped before it chose a move)")
        state["found"] = False


def relay(child: int, source: int, strict: bool, data_mb: int, errors: _Errors | None = None) -> None:
    """Pass the child's output on, line by line (judged in strict mode), and what it writes to ``errors`` (its
    standard error's pipe) as it comes, until both end, or until the child has ended and what it left is read
    (a process it started may hold them open: not waited for; on standard error, only what was there when the
    child's end was seen); then end as the child ended.  No process of the
    seat writes to the seat's standard error but through here: a reason said on it (:func:`_fail`) is its last
    line, whatever a process the program left running goes on printing."""
    state = {"found": False}
    buffer = b""
    passing = False  # in a line too long to hold
    poller = select.poll()
    stderr = -1 if errors is None else errors.fd
    reading = {source} if errors is None else {source, stderr}
    for fd in reading:
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    status: int | None = None
    left = _AFTER  # what is still read once the child is gone
    while left > 0 and reading:
        if status is None:
            done, code = os.waitpid(child, os.WNOHANG)
            status = code if done else None
            if errors is not None and status is not None and stderr in reading:  # what the program left on
                errors.left()  # standard error, no more: what a process it left running says after is not
                poller.unregister(stderr)
                reading.discard(stderr)
        events = poller.poll(100 if status is None else 0)
        if not events and status is not None:
            break
        for fd, _ in events:
            try:
                chunk = os.read(fd, 1 << 16) if fd == source else errors.relay(1 << 16)  # type: ignore[union-attr]
            except InterruptedError:
                continue
            if not chunk:
                poller.unregister(fd)
                reading.discard(fd)
                continue
            if status is not None:
                left -= len(chunk)
            if fd != source:
                continue
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
            _write(1, b"".join(out))
    if buffer:
        os.write(1, buffer)
    if status is None:
        _, status = os.waitpid(child, 0)
    if errors is not None:
        errors.left_out()
    if errors is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) != 0:
        errors.last_words()
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = f" ({signal.Signals(sig).name})"
        except ValueError:
            name = ""
        _say(f"the program was killed by signal {sig}{name}"
             + (": over the seat's CPU time limit" if name == " (SIGXCPU)" else
                ": by itself, or by the kernel over the seat's memory" if name == " (SIGKILL)" else ""))
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else FAILED)


class _Errors:
    """The program's standard error: a Unix socket (not a pipe), so that each read says which process wrote it
    (``SO_PASSCRED``: the kernel never joins two writers' bytes in one read).  It is passed on to the seat's
    standard error up to a rate (:data:`ERRORS_BURST` bytes, then :data:`ERRORS_RATE` a second: what comes
    faster is read here, in the seat, and left out, its end kept for :meth:`left_out`); the program's own last
    line is kept, and said again last (:meth:`last_words`) when a process it left running wrote after it: the
    engine client quotes the seat's last line as its reason."""

    def __init__(self) -> None:
        self.ours, self.theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.fd = self.ours.fileno()
        self.child = 0
        self.own = b""  # the program's last line so far
        self.buried = False  # another process wrote after it
        self.allowed, self.since = float(ERRORS_BURST), time.monotonic()  # bytes that may be passed on now
        self.dropped, self.kept = 0, b""  # bytes left out since the last passed on, and their end

    def relay(self, most: int) -> bytes:
        """Read at most ``most`` bytes, one writer's, and pass them on, as the rate allows (b'': every writer is
        gone)."""
        data, extra, _, _ = self.ours.recvmsg(most, socket.CMSG_SPACE(12))
        if data:
            self._pass(data)
            pids = [struct.unpack("3i", d)[0] for level, kind, d in extra if kind == socket.SCM_CREDENTIALS]
            if pids[:1] == [self.child]:
                text = data.rstrip()
                self.own, self.buried = (text[text.rfind(b"\n") + 1:] if text else self.own), False
            else:
                self.buried = self.buried or bool(self.own)
        return data

    def _pass(self, data: bytes) -> None:
        now = time.monotonic()
        self.allowed = min(float(ERRORS_BURST), self.allowed + (now - self.since) * ERRORS_RATE)
        self.since = now
        if len(data) > self.allowed:
            self.dropped += len(data)
            self.kept = (self.kept + data[-_ERRORS_TAIL:])[-_ERRORS_TAIL:]
            return
        self.allowed -= len(data)
        self.left_out(tail=False)
        _write(2, data)

    def left_out(self, tail: bool = True) -> None:
        """Say how much of the standard error was left out since the last passed on (and, ``tail``, pass on the
        last lines of it: the program's last words, at its end)."""
        if self.dropped:
            _say(f"({self.dropped:,} bytes of the seat's standard error left out: more than {ERRORS_BURST >> 10} "
                 f"KiB at once, or {ERRORS_RATE >> 10} KiB a second over time, is not passed on"
                 + ("; their last lines:)" if tail else ")"))
            cut = self.kept.rstrip(b"\n").find(b"\n")
            if tail:  # from a line's start (what was kept may begin inside one)
                _write(2, self.kept[cut + 1:] if self.dropped > len(self.kept) and cut >= 0 else self.kept)
            self.dropped, self.kept = 0, b""

    def left(self) -> None:
        """Pass on what the socket holds now (at most :data:`_AFTER` bytes), and nothing written after this."""
        try:
            count = min(_AFTER, struct.unpack("i", fcntl.ioctl(self.fd, termios.FIONREAD, b"\0\0\0\0"))[0])
        except OSError:
            return
        while count > 0:
            data = self.relay(count)
            if not data:
                return
            count -= len(data)

    def last_words(self) -> None:
        """Say the program's own last line again, last, when another process wrote after it."""
        if self.buried:
            _say(self.own.decode("utf-8", "replace")[:1000])


def _write(fd: int, data: bytes) -> None:
    """All of ``data`` to ``fd`` (nothing when its reader is gone)."""
    while data:
        try:
            data = data[os.write(fd, data):]
        except BrokenPipeError:
            return


def main(argv: list[str]) -> None:
    strict = bool(argv) and argv[0] == "--strict"
    argv = argv[1:] if strict else argv
    links: list[tuple[str, str]] = []
    while argv[:1] == ["--link"] and len(argv) > 2:
        links.append((argv[1], argv[2]))
        argv = argv[3:]
    try:
        cut = argv.index("--")
        nproc, data_mb, cpu_s, fsize_mb, nofile = (int(x) for x in argv[:cut])
        program = argv[cut + 1:]
        if not program:
            raise ValueError("no program")
    except ValueError as exc:
        _say(f"jail: usage: NPROC DATA_MB CPU_S FSIZE_MB NOFILE -- PROGRAM [ARGS...] ({exc})")
        os._exit(CANNOT_JAIL)
    try:
        mib = 1 << 20
        _limit(resource.RLIMIT_CORE, 0)
        _limit(resource.RLIMIT_DATA, data_mb * mib)
        _limit(resource.RLIMIT_CPU, cpu_s)
        _limit(resource.RLIMIT_FSIZE, fsize_mb * mib)
        _limit(resource.RLIMIT_NOFILE, nofile)
        _limit(resource.RLIMIT_NPROC, nproc)
    except (OSError, ValueError) as exc:
        _say(f"jail: the seat's limits cannot be set: {exc}")
        os._exit(CANNOT_JAIL)
    root = os.getuid() == 0  # bubblewrap ran as root, without a user namespace: the jail and the program each
    _start(program, links, strict, data_mb, _fresh_uids() if root else None)  # become a user of its own,
    # so the program cannot signal the jail


def _start(program: list[str], links: list[tuple[str, str]], strict: bool, data_mb: int,
           uids: tuple[int, int] | None) -> None:
    """Start ``program`` and relay its output (:func:`relay`); ``uids``: the jail's and the program's users."""
    ours, theirs = os.pipe()
    errors = _Errors()
    child = os.fork()
    if child == 0:
        os.dup2(errors.theirs.fileno(), 2)
        errors.theirs.close()
        errors.ours.close()
        try:
            if uids is not None:
                _become(uids[1])
        except OSError as exc:
            _say(f"jail: the seat cannot give up root: {exc}")
            os._exit(CANNOT_JAIL)
        try:
            for source, target in links:
                _link(source, target)
            os.dup2(theirs, 1)
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # as any program expects (Python ignores it)
            os.close(theirs)
            os.close(ours)
            os.execv(program[0], program)
        except BaseException as exc:  # noqa: BLE001 - the child says why and ends, whatever it was
            _say(f"cannot start {program[0]!r}: {getattr(exc, 'strerror', None) or exc}")
        finally:
            os._exit(127)
    os.close(theirs)
    errors.theirs.close()
    errors.child = child
    if uids is not None:
        try:
            _become(uids[0])
        except OSError as exc:
            _fail(child, f"jail: the seat cannot give up root: {exc}")
    relay(child, ours, strict, data_mb, errors)


if __name__ == "__main__":
    main(sys.argv[1:])
