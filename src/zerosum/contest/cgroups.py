"""The first step of a contest seat, before bubblewrap (the last, inside it, is :mod:`.jail`).  It runs outside
the sandbox, and bubblewrap replaces it (``exec``): nothing of it, its words included, is seen from inside.

``python -I -S cgroups.py [--until MONOTONIC] [--address MB] [--seccomp FD] [--file FD PATH]...
[MEMORY_MB CPU_PERCENT] -- PROGRAM [ARGS...]`` (:func:`outer`), then PROGRAM (bubblewrap) runs:

- ``MEMORY_MB CPU_PERCENT``: the seat's processes together get a memory and a CPU cgroup of their own where the
  machine allows it (a writable cgroup v1 hierarchy: :func:`own_cgroup`);
- ``--address MB``: where no memory cgroup holds them (none could be made, or no ``MEMORY_MB`` was given), each
  process's address space is held to MB (``RLIMIT_AS``): the shared and grows-down maps that the jail's
  ``RLIMIT_DATA`` does not count are bounded too;
- ``--seccomp FD``: the system-call filter :func:`seccomp_filter` on descriptor FD, for bubblewrap's
  ``--seccomp FD``: no user namespace from inside the seat, and no file lock or file watch (a channel between
  seats);
- ``--file FD PATH``: PATH opened read-only on descriptor FD, for bubblewrap's ``--ro-bind-data FD``: the seat sees
  a copy of the file, never where it lies on the machine;
- ``--until MONOTONIC`` (a validation's seat): PROGRAM is killed when the machine's ``time.monotonic()`` reaches
  MONOTONIC, whatever it does, and :data:`OUT_OF_TIME` said last on standard error (exit code 1), so a check's
  seat never outlives the check's budget.  Here, outside, and not in the jail's words: from inside, a check's
  seat and a ladder game's are the same.

``cgroups.py --until MONOTONIC -- PROGRAM`` alone: the deadline, no limits (an unconfined validation's seat).
Like the jail, a script of the standard library alone (no ``site``: a few milliseconds).
"""

from __future__ import annotations

import os
import resource
import signal
import struct
import sys
import time

#: the names of the seats' cgroups
CGROUP_PREFIX = "zerosum-seat-"
#: the line a seat past its ``--until`` ends with
OUT_OF_TIME = "the check's time ran out: the seat was stopped"
#: per machine (``uname -m``): the kernel's audit architecture and the numbers of unshare, clone and clone3
SYSCALLS = {"x86_64": (0xC000003E, 272, 56, 435), "aarch64": (0xC00000B7, 97, 220, 435)}
#: per machine: the calls refused whole (EPERM), because through them two seats running at once would signal each
#: other on a file both see (the same read-only /usr, Python and zerosum): a lock held or tested, an open or a
#: read watched (aarch64 has no ``inotify_init``; ``fanotify_init`` needs no privilege since Linux 5.13)
SHARED_FILE_CALLS = {
    "x86_64": {"flock": 73, "inotify_init": 253, "inotify_add_watch": 254, "inotify_init1": 294, "fanotify_init": 300},
    "aarch64": {"flock": 32, "inotify_init1": 26, "inotify_add_watch": 27, "fanotify_init": 262}}
#: per machine, fcntl's number; and its commands refused (EPERM), for the same reason: its locks (classic and
#: open-file ones), leases and directory watches (dnotify).  Every other command is allowed (Python needs them)
FCNTL = {"x86_64": 72, "aarch64": 25}
FCNTL_REFUSED = {"F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37,
                 "F_OFD_SETLKW": 38, "F_SETLEASE": 1024, "F_GETLEASE": 1025, "F_NOTIFY": 1026}
CLONE_NEWUSER = 0x10000000
_EPERM, _ENOSYS = 1, 38


def _say(text: str) -> None:
    os.write(2, ("\n" + text + "\n").encode("utf-8", "replace"))


def seccomp_filter(machine: str | None = None) -> bytes | None:
    """The classic BPF program (``struct sock_filter`` records) that refuses a new user namespace: ``unshare``
    and ``clone`` with ``CLONE_NEWUSER`` fail with EPERM, ``clone3`` (whose flags a filter cannot read) with
    ENOSYS (the C library then uses ``clone``), x32 system calls with EPERM, and a process of another
    architecture (32-bit code) is killed; and that refuses file locks and file watches with EPERM (the calls of
    :data:`SHARED_FILE_CALLS`, and ``fcntl`` with a command of :data:`FCNTL_REFUSED`, read in the low word of its
    second argument, as the kernel reads it: an ``unsigned int``); everything else is allowed.  None for a machine
    it does not know."""
    machine = machine or os.uname().machine
    if machine not in SYSCALLS:
        return None
    arch, unshare, clone, clone3 = SYSCALLS[machine]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|JGE|JSET|K, BPF_RET|K
    code = [  # (label, op, k, jump if true, if false): the jumps are labels, resolved below
        ("", ld, 4, "", ""), ("", jeq, arch, "", "kill"),  # seccomp_data.arch
        ("", ld, 0, "", ""), ("", jge, 0x40000000, "eperm", ""), ("", jeq, clone3, "enosys", ""),  # .nr
        ("", jeq, unshare, "flags", ""), ("", jeq, clone, "flags", ""),
        *[("", jeq, nr, "eperm", "") for nr in SHARED_FILE_CALLS[machine].values()],
        ("", jeq, FCNTL[machine], "fcntl", "allow"),
        ("flags", ld, 16, "", ""), ("", jset, CLONE_NEWUSER, "eperm", "allow"),  # args[0], its low word
        ("fcntl", ld, 24, "", ""),  # args[1] (the command), its low word; none refused: on to allow
        *[("", jeq, command, "eperm", "") for command in FCNTL_REFUSED.values()],
        ("allow", ret, 0x7FFF0000, "", ""), ("eperm", ret, 0x00050000 | _EPERM, "", ""),
        ("enosys", ret, 0x00050000 | _ENOSYS, "", ""), ("kill", ret, 0x80000000, "", "")]
    at = {label: i for i, (label, *_) in enumerate(code) if label}
    out = b""
    for i, (_, op, k, yes, no) in enumerate(code):
        out += struct.pack("=HBBI", op, at[yes] - i - 1 if yes else 0, at[no] - i - 1 if no else 0, k)
    return out


def own_cgroup(controller: str) -> str | None:
    """This process's folder in cgroup v1's ``controller`` hierarchy, when cgroups may be made in it, or None
    (cgroup v2 is not used: where the machine has it only, None)."""
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
    base = own_cgroup(controller)
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


def _on(fd: int, opened: int) -> None:
    """Descriptor ``opened`` moved to number ``fd``, kept open across ``exec``."""
    if opened != fd:
        os.dup2(opened, fd)
        os.close(opened)
    os.set_inheritable(fd, True)


def _give(seccomp: int | None, files: tuple[tuple[int, str], ...]) -> None:
    """The filter on a pipe at ``seccomp`` and each ``(fd, path)`` opened read-only at ``fd``."""
    if seccomp is not None:
        rules = seccomp_filter()
        if rules is None:
            raise OSError(f"no system-call filter for this machine ({os.uname().machine})")
        read, write = os.pipe()
        os.write(write, rules)  # a few hundred bytes: the pipe holds them
        os.close(write)
        _on(seccomp, read)
    for fd, path in files:
        _on(fd, os.open(path, os.O_RDONLY))


def _watch(program: list[str], until: float) -> None:
    """Run ``program`` as a child and end as it ends, or kill it at ``until`` and say :data:`OUT_OF_TIME`."""
    child = os.fork()
    if child == 0:
        _exec(program)
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)  # the seat's input and output are its own: their ends come with the child's
    os.dup2(quiet, 1)
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            if os.WIFSIGNALED(status):
                signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
                os.kill(os.getpid(), os.WTERMSIG(status))
            os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
        left = until - time.monotonic()
        if left <= 0:
            os.kill(child, signal.SIGKILL)  # bubblewrap: the sandbox dies with it (--die-with-parent)
            os.waitpid(child, 0)
            _say(OUT_OF_TIME)
            os._exit(1)
        time.sleep(min(left, 0.02))


def _exec(program: list[str]) -> None:
    try:
        os.execv(program[0], program)
    except OSError as exc:
        _say(f"cannot start {program[0]!r}: {exc.strerror or exc}")
        os._exit(127)


def outer(memory_mb: int | None, cpu_percent: int | None, program: list[str], *, address_mb: int | None = None,
          seccomp: int | None = None, files: tuple[tuple[int, str], ...] = (), until: float | None = None) -> None:
    """Outside the sandbox: put this process (then bubblewrap, and all the seat's processes) into cgroups of
    its own where the machine lets it (cgroup v1, writable): a memory cgroup holding them all to ``memory_mb``
    together (the kernel kills inside the seat past it), and a CPU cgroup holding them all to ``cpu_percent``
    of one core (a fork bomb spins on one core, not all of them); where no memory cgroup holds them,
    ``address_mb`` of address space a process; then the descriptors (module docstring) and PROGRAM, watched
    until ``until``.  Exit code 126 and one line when a descriptor cannot be given (nothing runs then)."""
    held = memory_mb is not None and _join("memory", [
        ("memory.limit_in_bytes", str(memory_mb << 20), True), ("memory.memsw.limit_in_bytes", str(memory_mb << 20),
                                                                False), ("memory.swappiness", "0", False)])
    if cpu_percent is not None:  # a short period: a seat that used its share waits at most 20 ms to answer
        _join("cpu", [("cpu.cfs_period_us", "20000", True), ("cpu.cfs_quota_us", str(cpu_percent * 200), True)])
    try:
        if address_mb is not None and not held:
            resource.setrlimit(resource.RLIMIT_AS, (address_mb << 20, address_mb << 20))
        _give(seccomp, files)
    except (OSError, ValueError) as exc:
        _say(f"the seat cannot be prepared: {exc}")
        os._exit(126)
    if until is not None:
        _watch(program, until)
    _exec(program)


def main(argv: list[str]) -> None:
    until: float | None = None
    address: int | None = None
    seccomp: int | None = None
    files: list[tuple[int, str]] = []
    try:
        while argv[:1] in (["--until"], ["--address"], ["--seccomp"], ["--file"]):
            word, value = argv[0], argv[1]
            if word == "--file":
                files.append((int(value), argv[2]))
                argv = argv[1:]
            elif word == "--until":
                until = float(value)
            elif word == "--address":
                address = int(value)
            else:
                seccomp = int(value)
            argv = argv[2:]
        cut = argv.index("--")
        sizes = [int(x) for x in argv[:cut]]
        if len(sizes) not in (0, 2) or not argv[cut + 1:]:
            raise ValueError("MEMORY_MB CPU_PERCENT, or neither, then a program")
    except (ValueError, IndexError) as exc:
        _say(f"usage: cgroups.py [--until MONOTONIC] [--address MB] [--seccomp FD] [--file FD PATH]... "
             f"[MEMORY_MB CPU_PERCENT] -- PROGRAM [ARGS...] ({exc})")
        os._exit(2)
    memory, cpu = sizes if sizes else (None, None)
    outer(memory, cpu, argv[cut + 1:], address_mb=address, seccomp=seccomp, files=tuple(files), until=until)


if __name__ == "__main__":
    main(sys.argv[1:])
