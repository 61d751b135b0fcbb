"""An external engine's process: started through the reaper, read line by line under a deadline, killed whole.

:class:`EngineProcess` starts a command (``shlex`` words, no shell) in a folder, under :mod:`.reaper`, so the
engine has a session and a process group of its own and leaves nothing behind when it ends or is killed.
Lines are written to its standard input and read from its standard output under a deadline, never more than
:data:`~zerosum.external.protocol.MAX_LINE` bytes a line, so a program that hangs, floods its output or
writes one endless line costs the arena a bounded wait and bounded memory.  Its standard error is read by a
thread into a short tail (the last :data:`STDERR_LINES` lines, each kept whole up to :data:`STDERR_LINE`
characters, a longer one cut and ending ``...``), whose last line a crash's reason quotes whole (escaped as
``repr`` does when it holds a character that does not print: :func:`zerosum.spec.printable`).

Whatever goes wrong is an :class:`EngineFault` whose ``reason`` is the forfeit reason the arena records:
``crash: ...``, ``timeout: ...``, ``protocol error: ...``, ``garbage output: ...`` or ``illegal move: ...``.
A start the system refuses (no process or thread to spare under a process limit, ``ulimit -u``, or too little
memory, ``ulimit -v``) is nothing the engine did: a :class:`SystemRefused` line (``engine c cannot start: the
system refused a new thread (can't start new thread): ...``), never a fault of the engine's.
"""

from __future__ import annotations

import collections
import errno
import io
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Sequence

from ..core.checks import clip
from ..errors import AgentError
from ..spec import printable, quoted
from .reaper import CANNOT_START, REFUSED, end_session

__all__ = ["EngineFault", "EngineProcess", "SystemRefused", "split_command", "is_refusal", "CRASH", "TIMEOUT",
           "PROTOCOL", "GARBAGE", "ILLEGAL", "REFUSED"]

#: the kinds of forfeit an external engine can cause (the start of each reason)
CRASH, TIMEOUT, PROTOCOL, GARBAGE, ILLEGAL = "crash", "timeout", "protocol error", "garbage output", "illegal move"
#: an engine that ends with its last line on standard error ``malformed move: ...`` (or ``illegal move: ...``)
#: forfeits with that kind, not as a crash: a contest seat whose player answered no legal column says so
MALFORMED = "malformed move"
#: how much of the engine's standard error is kept: the last lines, each whole up to ``STDERR_LINE`` characters
#: (a longer one is cut to that, ending ``...``: a contest seat's ``illegal move: ...`` line, which lists every
#: legal column, runs to a few hundred characters on a wide board)
STDERR_LINES = 8
STDERR_LINE = 1000
#: the longest reason: the engine's last line on standard error whole, with room for what ended the engine
MAX_REASON = STDERR_LINE + 300
#: the most bytes of the engine's standard error read at once: room for ``STDERR_LINE`` characters of UTF-8
_STDERR_READ = 4 * STDERR_LINE + 96
_REAPER = str(Path(__file__).with_name("reaper.py"))
#: what to do when the system refuses (said after the refusal)
_ADVICE = ("too many processes or threads, or too little memory: run fewer at once, or raise the limit "
           "(ulimit -u, ulimit -v)")
#: how an error's words say that the system refused a thread, a process or memory (not an agent's fault)
_REFUSALS = (REFUSED, "can't start new thread", os.strerror(errno.EAGAIN), os.strerror(errno.ENOMEM))


class EngineFault(AgentError):
    """An external engine broke a rule: ``reason`` (``kind: details``) is the forfeit reason."""

    def __init__(self, kind: str, details: str) -> None:
        text = clip(" ".join(f"{kind}: {details}".split()), MAX_REASON)
        super().__init__(text)
        self.kind = kind
        self.reason = text


class SystemRefused(AgentError):
    """The system refused an engine a process or a thread (a process limit, a full process table, a memory
    limit): nothing the engine did, and nothing a fix of it mends (fewer at once, or a higher limit)."""


def _refused(label: str, what: str, why: str) -> SystemRefused:
    return SystemRefused(f"engine {label} cannot start: {REFUSED} a new {what} ({why}): {_ADVICE}")


def is_refusal(text: str) -> bool:
    """Whether an error's words (``text``) say the system refused a thread, a process or memory."""
    return any(words in text for words in _REFUSALS)


def split_command(command: str | Sequence[str]) -> list[str]:
    """The words of a command: a string split as a POSIX shell splits words (no shell runs it: for pipes or
    redirections use ``sh -c '...'``), or a list of words as given.  AgentError for an empty or unbalanced one."""
    if isinstance(command, str):
        try:
            words = shlex.split(command)
        except ValueError as exc:
            raise AgentError(f"engine command {quoted(command)} cannot be split into words: {exc}") from None
    elif isinstance(command, (list, tuple)) and all(isinstance(w, str) for w in command):
        words = list(command)
    else:
        raise AgentError(f"an engine command is a string or a list of strings, not {type(command).__name__}")
    if not words or not words[0]:
        raise AgentError("an engine command names a program (it is empty)")
    if any("\x00" in w for w in words):
        raise AgentError(f"engine command {quoted(' '.join(words))} holds a NUL character")
    return words


def _find_program(program: str, folder: str | None) -> str | None:
    """Why ``program`` cannot run from ``folder``, or None when it can (as far as can be told beforehand)."""
    if os.sep in program:
        path = program if os.path.isabs(program) or folder is None else os.path.join(folder, program)
        if not os.path.exists(path):
            return f"{quoted(program)} not found" + (f" (in {quoted(folder)})" if folder else "")
        if os.path.isdir(path) or not os.access(path, os.X_OK):
            return f"{quoted(program)} is not an executable file"
        return None
    if shutil.which(program) is None:
        return f"{quoted(program)} is not on the PATH (give its path, e.g. ./{program})"
    return None


def _signal(number: int) -> str:
    """``signal 9 (SIGKILL)``: a signal's number and name."""
    if number in signal.valid_signals():
        return f"signal {number} ({signal.Signals(number).name})"
    return f"signal {number}"


class EngineProcess:
    """One running engine (see the module docstring).  ``label`` names it in messages."""

    def __init__(self, words: Sequence[str], folder: str | None = None, label: str = "engine") -> None:
        self.words, self.folder, self.label = list(words), folder, label
        if folder is not None and not os.path.isdir(folder):
            raise AgentError(f"engine {label}: folder {quoted(folder)} not found")
        why = _find_program(self.words[0], folder)
        if why is not None:
            raise AgentError(f"engine {label}: the command {quoted(shlex.join(self.words))} cannot start: {why}")
        pipe: tuple[int, ...] = ()
        try:
            pipe = os.pipe()  # the reaper's word that it ended the engine: none when it was killed itself
            self.popen = subprocess.Popen(
                [sys.executable, "-I", "-S", _REAPER, str(os.getpid()), str(pipe[1]), *self.words], cwd=folder,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                start_new_session=True, close_fds=True, pass_fds=pipe[1:])
        except OSError as exc:
            for fd in pipe:
                os.close(fd)
            if exc.errno in (errno.EAGAIN, errno.ENOMEM):  # no process to spare: the system's limit, not the engine
                raise _refused(label, "process", exc.strerror or str(exc)) from None
            raise AgentError(f"engine {label}: cannot start {quoted(self.words[0])}: {exc.strerror or exc}") from None
        self._done = pipe[0]
        self._reaper_killed: bool | None = None  # known once the reaper has ended (:meth:`_killed_reaper`)
        self._reaper_stopped = ""  # who told the reaper to stop, when not zerosum (:meth:`_stopped_reaper`)
        os.close(pipe[1])
        os.set_blocking(self._done, False)
        assert self.popen.stdin is not None and self.popen.stdout is not None and self.popen.stderr is not None
        self._in, self._out = self.popen.stdin, self.popen.stdout.fileno()
        os.set_blocking(self._out, False)
        self._poll = select.poll()
        self._poll.register(self._out, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._poll.register(self._done, select.POLLIN)  # the reaper's end (an end the output may not show)
        self._buffer = bytearray()
        self._eof = False
        self.read_bytes = 0  # everything read from the engine's output
        self.tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._lock = threading.Lock()
        self._stderr = threading.Thread(target=self._drain, args=(self.popen.stderr,), daemon=True,
                                        name="zerosum-engine-stderr")
        try:
            self._stderr.start()
        except RuntimeError as exc:  # no thread to spare (a process limit counts threads; or memory for its stack)
            self.kill()
            self.popen.stderr.close()
            raise _refused(label, "thread", str(exc)) from None

    @property
    def pid(self) -> int:
        """The reaper's process id (the engine is its child, in a group of its own)."""
        return int(self.popen.pid)

    def alive(self) -> bool:
        return self.popen.poll() is None and not self._eof

    def _drain(self, stream: object) -> None:
        """Keep the last lines of the engine's standard error (a thread: a chatty engine never blocks).

        The pipe is unbuffered (``bufsize=0``), and a raw file's ``readline`` reads a byte a system call: a
        buffer of its own here reads it 64 KiB at a time (a flood of 8 MiB took 3.4 s a byte at a time, holding
        the engine up: 32 MiB outlasted the handshake's 10 s)."""
        buffered = io.BufferedReader(stream, 1 << 16) if isinstance(stream, io.RawIOBase) else None
        read = getattr(buffered or stream, "readline")
        inside = False  # the read before ended inside a line longer than a read: the rest of it is left out
        try:
            while True:
                line = read(_STDERR_READ)
                if not line:
                    return
                cut = len(line) >= _STDERR_READ and not line.endswith(b"\n")
                text = " ".join(line.decode("utf-8", "replace").split())
                if text and not inside:
                    self.tail.append(clip(text + "..." if cut else text, STDERR_LINE))  # cut: says so
                inside = cut
        except (OSError, ValueError):
            return
        finally:
            if buffered is not None:  # its end read (the pipe with it): no ResourceWarning for a file left open
                try:
                    buffered.close()
                except OSError:
                    pass

    def send(self, line: str) -> None:
        """Write one line; a crash fault when the engine is gone, or closed its input."""
        try:
            self._in.write(line.encode("utf-8") + b"\n")
            self._in.flush()
        except BrokenPipeError:  # nobody reads its input: it ended, or closed it (its output may still be open)
            raise self.crash("input") from None
        except (OSError, ValueError):
            raise self.crash() from None

    def read_line(self, deadline: float, limit: int) -> str | None:
        """The next line of output (without its end), or None when ``deadline`` (``time.monotonic()``) passes
        first.  A crash fault at the end of the output; a garbage fault for a line over ``limit`` bytes (as soon as
        that many arrive without an end) or one that is not UTF-8 (the engine is not to be trusted after either)."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                if raw.endswith(b"\r"):
                    raw = raw[:-1]
                try:
                    return raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise EngineFault(GARBAGE, "a line that is not UTF-8 text: "
                                      + quoted(raw.decode("utf-8", "replace"), 60)) from None
            if len(self._buffer) > limit:  # no end in sight: the line is garbage already
                self._buffer.clear()
                raise EngineFault(GARBAGE, f"a line longer than {limit:,} bytes")
            if self._eof:
                raise self.crash()
            wait = deadline - time.monotonic()
            if wait <= 0:
                return None
            self._fill(max(1, int(wait * 1000)))

    def _fill(self, wait_ms: int) -> int:
        """Wait up to ``wait_ms`` for output and add one read of it to the buffer: the bytes read (0 when none
        came; the end of the output marks it ended).  poll, not select: any descriptor number.  A reaper that
        was killed (the engine died with it) has what the engine left in its session killed here: a helper of
        the engine's holding its output open would keep that end from ever showing."""
        events = [] if self._eof else self._poll.poll(wait_ms)
        if any(fd == self._done for fd, _ in events):
            if self._killed_reaper():
                end_session(self.pid)
            self._unwatch_reaper()
            if all(fd == self._done for fd, _ in events):
                return 0
        if not events:
            return 0
        try:
            chunk = os.read(self._out, 1 << 16)
        except BlockingIOError:
            return 0
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
        self.read_bytes += len(chunk)
        self._buffer += chunk
        return len(chunk)

    def input_closed(self) -> bool:
        """Whether nobody reads the engine's input any more (it closed it, or ended); False once :meth:`kill`
        has closed it here."""
        if self._in.closed:
            return False
        watch = select.poll()
        watch.register(self._in.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in watch.poll(0))

    def exit_code(self, wait: float = 1.0) -> int | None:
        """The engine's exit code (negative: the signal that killed it), waiting up to ``wait`` seconds."""
        try:
            return self.popen.wait(wait)
        except subprocess.TimeoutExpired:
            return None

    def crash(self, closed: str = "output") -> EngineFault:
        """The crash fault of an engine whose output ended, or (``closed="input"``) that reads its input no
        more: its exit code, and its last words on stderr.  An engine whose reaper was killed (by the engine
        itself, say: ``os.kill(os.getppid(), 9)``) died with it: the reason says so, and what the engine left
        running is ended here."""
        code = self.exit_code()
        if code is None:
            self.kill()
            what = f"the engine closed its {closed}"
        elif code < 0 and self._killed_reaper():
            end_session(self.pid)
            what = f"the engine's reaper (its parent process) was killed by {_signal(-code)}, and the engine with it"
        elif self._stopped_reaper():
            what = f"the engine's reaper (its parent process) was {self._reaper_stopped}, and the engine with it"
        elif code == CANNOT_START and any("cannot start" in t for t in self.tail):
            what = "the engine could not start"
        elif code < 0:
            what = f"the engine was killed by {_signal(-code)}"
        else:
            what = f"the engine exited (exit code {code})"
        self._stderr.join(0.5)
        last = self.tail[-1] if self.tail else ""
        for kind in (ILLEGAL, MALFORMED, TIMEOUT):  # it ended saying its move was not one, or came too late (a
            # contest seat's player): its exit code, or none yet after a second (a loaded machine: it was then
            # killed here), but never a signal's
            if (code is None or code > 0) and last.startswith(kind + ": "):
                return EngineFault(kind, f"{printable(last[len(kind) + 2:], STDERR_LINE)} ({what})")
        return EngineFault("crash", what + (f": {printable(last, STDERR_LINE)}" if last else ""))

    def _killed_reaper(self) -> bool:
        """Whether the reaper ended without saying it ended the engine (it was killed); False while it runs."""
        if self._reaper_killed is None:
            try:
                said = os.read(self._done, 64)  # its word (one write); b"" once it has ended without writing it
            except OSError:  # it runs (or a child of its not yet started holds the pipe a moment)
                return False
            self._unwatch_reaper()
            os.close(self._done)
            self._reaper_killed = not said
            words = said.decode("ascii", "replace").split()
            if len(words) == 4 and words[0] == "stopped" and words[1].isdigit() and words[2].isdigit():
                sender = "the engine" if words[3] == "engine" else f"process {words[2]}"
                self._reaper_stopped = f"stopped by {_signal(int(words[1]))} from {sender}"
        return self._reaper_killed

    def _stopped_reaper(self) -> bool:
        """Whether the reaper ended the engine because another process than zerosum (the engine, say) told it to
        stop (then :attr:`_reaper_stopped` says by what, from whom); False while it runs."""
        self._killed_reaper()
        return bool(self._reaper_stopped)

    def _unwatch_reaper(self) -> None:
        try:
            self._poll.unregister(self._done)
        except KeyError:
            pass

    def refused(self) -> SystemRefused | None:
        """The system's refusal, when the engine never started because its reaper got no process for it (the
        reaper's exit code and last words say so); None otherwise.  For an engine that has ended."""
        self._stderr.join(0.5)
        last = self.tail[-1] if self.tail else ""
        if self.exit_code(0) == CANNOT_START and last.startswith(REFUSED):
            return SystemRefused(f"engine {self.label} cannot start: {last}: {_ADVICE}")
        return None

    def kill(self) -> None:
        """End the engine and everything it started, at once (the reaper kills the group), and reap it.  A
        reaper that was killed (by the engine, or here when it did not end in time) ended nothing (the engine
        died with it, not what it started): the processes left in its session are killed here."""
        with self._lock:
            if self.popen.poll() is None:
                try:
                    self.popen.send_signal(signal.SIGTERM)  # the reaper: kill the group, reap, end
                except OSError:
                    pass
                try:
                    self.popen.wait(3.0)
                except subprocess.TimeoutExpired:
                    self.popen.kill()
                    self.popen.wait(3.0)
            if self._killed_reaper():  # by the engine, or here (it did not end in time): the engine's are left
                end_session(self.pid)
            for stream in (self.popen.stdin, self.popen.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
            self._eof = True

    def close(self, quit_line: str = "quit", wait: float = 0.5) -> None:
        """End politely: ``quit``, a short wait, then :meth:`kill` (which always runs)."""
        if self.popen.poll() is None and not self._eof:
            try:
                self.send(quit_line)
                self.popen.wait(wait)
            except (EngineFault, subprocess.TimeoutExpired):
                pass
        self.kill()
