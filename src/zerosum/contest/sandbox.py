"""The contest's sandbox: every submitted program runs inside bubblewrap (``bwrap``), one sandbox a game seat.

:func:`wrap` turns a command into the command that runs it confined (docs/contest.md, "What the sandbox
guarantees"):

- namespaces of its own: processes (the program is a child of the sandbox's first process; when that one
  ends, the kernel kills everything left in it), network (no interface but a loopback of its own), IPC, host
  name; ``--die-with-parent``: when the seat's launcher (the external engine's reaper) is killed, the sandbox
  is killed with it; no user namespace of its own, as root or not: a system-call filter (bubblewrap's
  ``--seccomp``, :func:`.cgroups.seccomp_filter`) refuses ``CLONE_NEWUSER`` to every process of the seat (and
  without root, bubblewrap's ``--disable-userns`` too); the same filter refuses file locks and file watches
  (``flock``, ``fcntl``'s locks, leases and ``F_NOTIFY``, inotify, fanotify), through which two seats could
  signal each other on a file both see;
- a file system made of read-only views of only what a Python program needs: ``/usr`` (programs and shared
  libraries) and its ``/bin``, ``/lib``, ``/lib64`` links, the Python installation that runs zerosum, the
  zerosum package, ``/etc/ld.so.cache`` and ``/etc/localtime`` (nothing else of ``/etc``: no ``passwd``, no
  ``hosts``); a private ``/proc`` and a minimal ``/dev`` (its ``/dev/shm`` a tmpfs of :data:`SHM_MB`); a
  read-only copy of the submission under ``/submission`` (``--ro-bind-data``: where it lies on the machine is
  not shown); a private scratch ``/tmp`` (a tmpfs of :attr:`Limits.scratch_mb`, gone with the sandbox, also
  ``HOME``);
- resource limits (:mod:`.jail`): memory (``RLIMIT_DATA``, a process; and all the seat's processes together
  in a memory cgroup of its own, or where none can be made, ``RLIMIT_AS`` a process: :attr:`Limits.address_mb`),
  CPU seconds (``RLIMIT_CPU``, a process), the CPU share (one core for all its processes, in a CPU cgroup of
  its own), processes and threads (``RLIMIT_NPROC`` in the sandbox's user namespace, or under a fresh user id
  when bubblewrap runs as root), file size, open files, no core files (the cgroups where the machine has
  writable cgroup v1 ``memory`` and ``cpu`` hierarchies, and :data:`NO_CGROUPS` is not set: :func:`confinement`
  says which holds);
- a clean environment: ``PATH``, ``HOME=/tmp``, ``NUMBA_CACHE_DIR=/tmp/numba`` (where links to zerosum's
  compiled kernels wait, read-only: :func:`_numba_caches`) and one thread for numeric libraries.

The wall-clock limit and the output limits are the external engine client's (:mod:`zerosum.external`): it
reads every line under a deadline, bounds each line and the output it drops, and kills the seat's whole
process group at a fault, which kills the sandbox; the seat's standard error reaches it at a bounded rate
(:mod:`.jail`), so a flood there costs the seat's CPU, not the client's.

:func:`sandbox_problem` says why no sandbox can be had here (None when one can): no ``bwrap``, or a
``bwrap`` that cannot run ``true`` as it would run a submission.  :func:`require_sandbox` turns that into the
one-line refusal that only ``unconfined=True`` (the teacher's ``--unconfined``) overrides; then :func:`wrap`
returns the command as it is, and nothing confines it.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Sequence

from ..errors import UsageError
from ..spec import quoted
from .cgroups import SYSCALLS, own_cgroup, seccomp_filter

__all__ = ["Limits", "SandboxUnavailable", "bwrap_path", "sandbox_problem", "require_sandbox", "wrap", "runs_unconfined",
           "confinement", "cgroups_wanted", "SUBMISSION_DIR", "SCRATCH_DIR", "UNCONFINED_FLAG", "NO_CGROUPS",
           "ADDRESS_MARGIN_MB"]

#: where the submission is seen inside the sandbox (read-only), and the private scratch folder (also HOME)
SUBMISSION_DIR = "/submission"
SCRATCH_DIR = "/tmp"
#: the flag that lets a teacher run students' code where no sandbox can be had
UNCONFINED_FLAG = "--unconfined"
#: the size of the seat's own ``/dev/shm`` (multiprocessing's locks and queues live there)
SHM_MB = 16
#: where no memory cgroup holds a seat, each process's address space is ``memory_mb`` and this more (the
#: libraries, thread stacks and allocator arenas, numba's and llvmlite's reservations: measured in a seat,
#: 0.25 GB for a homework player with numpy, 0.51 GB for zerosum's alpha-beta, MCTS and solver, 0.69-0.84 GB
#: with eight threads more)
ADDRESS_MARGIN_MB = 1024
#: the environment variable that keeps seats out of cgroups (any value but ``0``): to see how they are bounded
#: without them
NO_CGROUPS = "ZEROSUM_NO_CGROUPS"
_SECCOMP_FD = 10  # the descriptors the outer step gives bubblewrap: the filter, then each file to copy in
_JAIL = str(Path(__file__).with_name("jail.py"))
_CGROUPS = str(Path(__file__).with_name("cgroups.py"))  # the step before bubblewrap
_HOST_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("/etc/ld.so.cache", "/etc/localtime")


class SandboxUnavailable(UsageError):
    """No sandbox can be had here, and the teacher did not say ``--unconfined``."""


@dataclass(frozen=True)
class Limits:
    """A seat's resource limits.  ``memory_mb``: the writable memory of each process (``RLIMIT_DATA``: heap
    and private maps, not the address space numba and llvmlite reserve), and of all the seat's processes
    together in a memory cgroup (where none can be made, each process's address space is held to
    :attr:`address_mb`); ``cpu_seconds``: CPU time of each
    process (a backstop: a move's wall-clock deadline is what bounds it, and ``zerosum engine`` keeps one search
    process from move to move, so this must hold a whole game's thinking); ``processes``: processes and
    threads of the seat; ``scratch_mb``: the size of its ``/tmp``; ``file_mb``: the largest file it may
    write; ``open_files``: descriptors a process; ``cpu_percent``: the CPU all its processes may use together,
    in percent of one core (where a CPU cgroup can be made)."""

    memory_mb: int = field(default=1024, metadata={"range": (64, 1 << 20)})
    cpu_seconds: int = field(default=3600, metadata={"range": (1, 10 ** 6)})
    processes: int = field(default=32, metadata={"range": (4, 4096)})
    scratch_mb: int = field(default=64, metadata={"range": (1, 1 << 16)})
    file_mb: int = field(default=32, metadata={"range": (1, 1 << 16)})
    open_files: int = field(default=256, metadata={"range": (16, 1 << 16)})
    cpu_percent: int = field(default=100, metadata={"range": (10, 100 * 64)})

    def __post_init__(self) -> None:
        for f in fields(self):
            value: Any = getattr(self, f.name)
            low, high = f.metadata["range"]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise UsageError(f"sandbox limit {f.name} is a whole number from {low} to {high}, not {quoted(value)}")

    @classmethod
    def of_contest(cls, config: dict[str, Any]) -> Limits:
        """A contest's seat limits: its config's ``sandbox`` object, else the defaults."""
        own = config.get("sandbox")
        return cls(**own) if isinstance(own, dict) else cls()

    @property
    def address_mb(self) -> int:
        """The address space of each process where no memory cgroup holds the seat (:data:`ADDRESS_MARGIN_MB`)."""
        return self.memory_mb + ADDRESS_MARGIN_MB

    def jail_words(self) -> list[str]:
        return [str(v) for v in (self.processes, self.memory_mb, self.cpu_seconds, self.file_mb, self.open_files)]


def bwrap_path() -> str | None:
    """The ``bwrap`` program on the PATH (or ``ZEROSUM_BWRAP``), or None."""
    named = os.environ.get("ZEROSUM_BWRAP")
    if named:
        return named if os.access(named, os.X_OK) else None
    return shutil.which("bwrap")


def _privileged() -> bool:
    """Whether bubblewrap runs as root here (then without a user namespace; the jail takes a fresh user id)."""
    return os.geteuid() == 0


def _python_roots() -> list[str]:
    """The folders the running Python and zerosum need, read-only: the installation (and a virtual
    environment's), ``sys.path`` entries outside them, and the zerosum package itself."""
    roots = {os.path.realpath(p) for p in (sys.base_prefix, sys.prefix, sys.exec_prefix)}
    roots.add(os.path.realpath(os.path.dirname(os.path.dirname(sys.executable))))
    roots.add(os.path.realpath(Path(__file__).parents[1]))  # the zerosum package
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if real and os.path.isdir(real) and "site-packages" in real:
            roots.add(real)
    system = ("/usr", "/bin", "/lib", "/lib64", "/sbin")
    kept = sorted(r for r in roots if r != "/" and not any(r == s or r.startswith(s + "/") for s in system))
    return [r for r in kept if not any(r != o and r.startswith(o + "/") for o in kept)]


def _system_binds() -> list[str]:
    words = ["--ro-bind", "/usr", "/usr"]
    for link in _HOST_LINKS:
        if os.path.islink(link):
            words += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            words += ["--ro-bind", link, link]
    words += ["--perms", "0755", "--dir", "/etc"]  # bubblewrap would make it 0700: unreadable to the seat
    for path in _ETC:
        words += ["--ro-bind-try", path, path]
    return words


def _numba_caches(cache_dir: str) -> list[tuple[str, str]]:
    """``(folder, folder in the cache)`` of each of zerosum's compiled-kernel caches (``__pycache__`` folders
    holding numba's ``.nbi`` files): numba looks for a source folder's kernels in ``NUMBA_CACHE_DIR`` under
    the folder's name and the SHA-1 of its path (its ``UserProvidedCacheLocator``), so a seat loads what the
    machine compiled before (``alphabeta`` warmed up in 14 s without, 2 s with) and cannot write into it."""
    import hashlib

    package = Path(__file__).resolve().parents[1]
    found = []
    for cache in sorted(package.rglob("__pycache__")):
        if any(p.suffix == ".nbi" for p in cache.iterdir()):
            source = str(cache.parent)
            found.append((str(cache), f"{cache_dir}/{cache.parent.name}_{hashlib.sha1(source.encode()).hexdigest()}"))
    return found


def _parents(path: str) -> list[str]:
    """The folders above ``path`` made traversable (bubblewrap makes missing ones 0700, as /root is)."""
    words: list[str] = []
    parts = Path(path).parts[1:-1]
    for i in range(len(parts)):
        words += ["--perms", "0755", "--dir", "/" + "/".join(parts[: i + 1])]
    return words


def runs_unconfined(unconfined: bool) -> bool:
    """Whether a seat :func:`wrap` is told ``unconfined`` runs without the sandbox: none can be had here."""
    return unconfined and sandbox_problem() is not None


def wrap(command: Sequence[str], *, limits: Limits | None = None, files: Sequence[tuple[str, str]] = (),
         workdir: str = SCRATCH_DIR, env: dict[str, str] | None = None, strict: bool = False,
         unconfined: bool = False, until: float | None = None) -> list[str]:
    """The words that run ``command`` in a sandbox (see the module docstring).  ``files``: ``(host path, path
    inside)`` pairs copied in read-only (the submission); ``workdir``: the folder it starts in; ``env``: more
    environment variables; ``until``: the ``time.monotonic()`` at which the seat ends, whatever it does (a
    validation's: :mod:`.cgroups`' ``--until``, outside the sandbox: not among the words the seat sees).
    SandboxUnavailable (one line) when no sandbox can be had, unless ``unconfined``: then ``command`` is
    returned as it is, or with ``until`` under the outer step alone (no limits), which ends it then."""
    words = list(command)
    if not words:
        raise UsageError("the sandbox needs a command to run")
    problem = sandbox_problem()
    if problem is not None:
        if unconfined:
            return words if until is None else [sys.executable, "-I", "-S", _CGROUPS, "--until", f"{until:.3f}",
                                                "--", *words]
        require_sandbox(False)
    bwrap = bwrap_path()
    assert bwrap is not None
    return _confined(bwrap, words, limits or Limits(), files, workdir, env or {}, strict, until)


def _confined(bwrap: str, words: list[str], limits: Limits, files: Sequence[tuple[str, str]], workdir: str,
              env: dict[str, str], strict: bool, until: float | None = None) -> list[str]:
    out = [sys.executable, "-I", "-S", _CGROUPS, *(["--until", f"{until:.3f}"] if until is not None else []),
           "--address", str(limits.address_mb)]  # the outer step's words: never seen from inside (its module)
    inner = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net", "--unshare-ipc",
             "--unshare-uts", "--unshare-cgroup-try", "--hostname", "zerosum-seat"]
    if seccomp_filter() is not None:  # no user namespace from inside, as root or not (none to be had else)
        out += ["--seccomp", str(_SECCOMP_FD)]
        inner += ["--seccomp", str(_SECCOMP_FD)]
    if _privileged():
        inner += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]  # for the jail to give up root, no more
    else:
        inner += ["--unshare-user", "--disable-userns"]
    inner += _system_binds()
    for root in _python_roots():
        inner += [*_parents(root), "--ro-bind", root, root]
    inner += ["--proc", "/proc", "--dev", "/dev",
              "--size", str(limits.scratch_mb << 20), "--perms", "1777", "--tmpfs", SCRATCH_DIR,
              "--size", str(SHM_MB << 20), "--perms", "1777", "--tmpfs", "/dev/shm"]  # multiprocessing's locks
    for fd, (host, inside) in enumerate(files, _SECCOMP_FD + 1):  # a read-only copy: not where it lies here
        if not os.path.exists(host):
            raise UsageError(f"sandbox: {quoted(host)} not found")
        out += ["--file", str(fd), os.path.realpath(host)]
        inner += [*_parents(inside), "--perms", "0555", "--ro-bind-data", str(fd), inside]
    if cgroups_wanted():
        out += [str(limits.memory_mb), str(limits.cpu_percent)]
    environment = {"PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin", "HOME": SCRATCH_DIR,
                   "TMPDIR": SCRATCH_DIR, "LANG": "C.UTF-8", "NUMBA_CACHE_DIR": f"{SCRATCH_DIR}/numba",
                   "PYTHONDONTWRITEBYTECODE": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                   "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", **env}
    inner += ["--clearenv"]
    for key, value in environment.items():
        inner += ["--setenv", key, value]
    inner += ["--chdir", workdir, "--", sys.executable, "-I", "-S", _JAIL, *(["--strict"] if strict else [])]
    for source, target in _numba_caches(environment["NUMBA_CACHE_DIR"]):
        inner += ["--link", source, target]
    inner += [*limits.jail_words(), "--", *words]
    return [*out, "--", *inner]


def cgroups_wanted() -> bool:
    """Whether seats are put in cgroups of their own where the machine allows it: yes, unless the environment
    variable :data:`NO_CGROUPS` says otherwise (to see, or test, how a seat is bounded without them)."""
    return os.environ.get(NO_CGROUPS, "") in ("", "0")


def confinement(limits: Limits | None = None) -> str:
    """One line for the teacher: what holds a seat's memory and CPU on this machine (a cgroup of its own, or
    limits a process only: then the worst case of a seat's memory)."""
    limits = limits or Limits()
    if sandbox_problem() is not None:
        return "no sandbox here: students' code runs unconfined, with your rights (only the moves' time bounds it)"
    wanted = cgroups_wanted()
    memory, cpu = wanted and own_cgroup("memory") is not None, wanted and own_cgroup("cpu") is not None
    def why(controller: str) -> str:
        return f"{NO_CGROUPS} is set" if not wanted else \
            f"no writable cgroup v1 {controller} hierarchy here; cgroup v2 is not used"

    if memory:
        text = f"a seat's processes together are held to {limits.memory_mb} MB of memory (a cgroup of their own)"
    else:
        most = limits.processes * limits.address_mb + limits.scratch_mb + SHM_MB
        text = (f"a seat's memory is bounded a process only ({why('memory')}): {limits.memory_mb} MB of data and "
                f"{limits.address_mb} MB of address space each, for up to {limits.processes} processes: "
                f"{most} MB at worst (lower the contest's sandbox processes or memory_mb to lower it)")
    if cpu:
        return text + f"; and to {limits.cpu_percent}% of one core (a CPU cgroup of their own)"
    return text + f"; their CPU is not held together ({why('cpu')}): a seat's processes may use every core"


@functools.lru_cache(maxsize=1)
def sandbox_problem() -> str | None:
    """Why no sandbox can be had on this machine, or None when ``bwrap`` runs a program confined (checked once
    a process: ``true`` run exactly as :func:`wrap` would run a submission, its limits and user id included)."""
    if not sys.platform.startswith("linux"):
        return f"the sandbox needs Linux and bubblewrap; this is {sys.platform}"
    bwrap = bwrap_path()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    if _privileged() and seccomp_filter() is None:  # root without a user namespace: only the filter refuses one
        return (f"the seat's system-call filter knows {' and '.join(SYSCALLS)} machines, not {os.uname().machine}, "
                "and without it a seat run as root could make a user namespace: run the server as a user, not root")
    probe = _confined(bwrap, ["/bin/true"], Limits(), (), SCRATCH_DIR, {}, False)
    try:
        done = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap ({bwrap}) cannot run: {exc}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = said[-1] if said else f"exit code {done.returncode}"
        return f"bubblewrap ({bwrap}) cannot create a sandbox here: {why}"
    return None


def require_sandbox(unconfined: bool = False) -> None:
    """Nothing when a sandbox can be had (or ``unconfined``); else SandboxUnavailable, one line that names the
    reason and the flag."""
    problem = sandbox_problem()
    if problem is not None and not unconfined:
        raise SandboxUnavailable(f"students' code is not run without a sandbox: {problem}; pass {UNCONFINED_FLAG} "
                                 "to run it unconfined, with your rights, on this machine")
