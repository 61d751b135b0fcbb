"""The contest's sandbox: every submitted program runs inside bubblewrap (``bwrap``), one sandbox a game seat.

:func:`wrap` turns a command into the command that runs it confined (docs/contest.md, "What the sandbox
guarantees"):

- namespaces of its own: processes (the program is a child of the sandbox's first process; when that one
  ends, the kernel kills everything left in it), network (no interface but a loopback of its own), IPC, host
  name; ``--die-with-parent``: when the seat's launcher (the external engine's reaper) is killed, the sandbox
  is killed with it;
- a file system made of read-only views of only what a Python program needs: ``/usr`` (programs and shared
  libraries) and its ``/bin``, ``/lib``, ``/lib64`` links, the Python installation that runs zerosum, the
  zerosum package, ``/etc/ld.so.cache`` and ``/etc/localtime`` (nothing else of ``/etc``: no ``passwd``, no
  ``hosts``); a private ``/proc`` and a minimal ``/dev`` (its ``/dev/shm`` a tmpfs of :data:`SHM_MB`); the
  submission read-only under ``/submission``; a private scratch ``/tmp`` (a tmpfs of
  :attr:`Limits.scratch_mb`, gone with the sandbox, also ``HOME``);
- resource limits (:mod:`.jail`): memory (``RLIMIT_DATA``, a process; and all the seat's processes together
  in a memory cgroup of its own), CPU seconds (``RLIMIT_CPU``, a process), the CPU share (one core for all
  its processes, in a CPU cgroup of its own), processes and threads (``RLIMIT_NPROC`` in the sandbox's user
  namespace, or under a fresh user id when bubblewrap runs as root), file size, open files, no core files
  (the cgroups where the machine has writable cgroup v1 ``memory`` and ``cpu`` hierarchies);
- a clean environment: ``PATH``, ``HOME=/tmp``, ``NUMBA_CACHE_DIR=/tmp/numba`` (where links to zerosum's
  compiled kernels wait, read-only: :func:`_numba_caches`) and one thread for numeric libraries.

The wall-clock limit and the output limits are the external engine client's (:mod:`zerosum.external`): it
reads every line under a deadline, bounds each line and the output it drops, and kills the seat's whole
process group at a fault, which kills the sandbox.

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

__all__ = ["Limits", "SandboxUnavailable", "bwrap_path", "sandbox_problem", "require_sandbox", "wrap", "runs_unconfined",
           "SUBMISSION_DIR", "SCRATCH_DIR", "UNCONFINED_FLAG"]

#: where the submission is seen inside the sandbox (read-only), and the private scratch folder (also HOME)
SUBMISSION_DIR = "/submission"
SCRATCH_DIR = "/tmp"
#: the flag that lets a teacher run students' code where no sandbox can be had
UNCONFINED_FLAG = "--unconfined"
#: the size of the seat's own ``/dev/shm`` (multiprocessing's locks and queues live there)
SHM_MB = 16
_JAIL = str(Path(__file__).with_name("jail.py"))
_CGROUPS = str(Path(__file__).with_name("cgroups.py"))  # the step before bubblewrap
_HOST_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("/etc/ld.so.cache", "/etc/localtime")


class SandboxUnavailable(UsageError):
    """No sandbox can be had here, and the teacher did not say ``--unconfined``."""


@dataclass(frozen=True)
class Limits:
    """A seat's resource limits.  ``memory_mb``: the writable memory of each process (``RLIMIT_DATA``: heap
    and anonymous maps, not the address space numba and llvmlite reserve); ``cpu_seconds``: CPU time of each
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
    inside)`` pairs bound read-only (the submission); ``workdir``: the folder it starts in; ``env``: more
    environment variables; ``until``: the ``time.monotonic()`` at which the seat ends, whatever it does (a
    validation's: :mod:`.jail`'s ``--until``).  SandboxUnavailable (one line) when no sandbox can be had, unless
    ``unconfined``: then ``command`` is returned as it is, or with ``until`` under the jail's relay alone (no
    limits), which ends it then."""
    words = list(command)
    if not words:
        raise UsageError("the sandbox needs a command to run")
    problem = sandbox_problem()
    if problem is not None:
        if unconfined:
            return words if until is None else [sys.executable, "-I", "-S", _JAIL, "--until", f"{until:.3f}", "--",
                                                *words]
        require_sandbox(False)
    bwrap = bwrap_path()
    assert bwrap is not None
    return _confined(bwrap, words, limits or Limits(), files, workdir, env or {}, strict, until)


def _confined(bwrap: str, words: list[str], limits: Limits, files: Sequence[tuple[str, str]], workdir: str,
              env: dict[str, str], strict: bool, until: float | None = None) -> list[str]:
    out = [sys.executable, "-I", "-S", _CGROUPS, str(limits.memory_mb), str(limits.cpu_percent), "--",
           bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net", "--unshare-ipc",
           "--unshare-uts", "--unshare-cgroup-try", "--hostname", "zerosum-seat"]
    if _privileged():
        out += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]  # for the jail to give up root, no more
    else:
        out += ["--unshare-user", "--disable-userns"]
    out += _system_binds()
    for root in _python_roots():
        out += [*_parents(root), "--ro-bind", root, root]
    out += ["--proc", "/proc", "--dev", "/dev",
            "--size", str(limits.scratch_mb << 20), "--perms", "1777", "--tmpfs", SCRATCH_DIR,
            "--size", str(SHM_MB << 20), "--perms", "1777", "--tmpfs", "/dev/shm"]  # multiprocessing's locks
    for host, inside in files:
        if not os.path.exists(host):
            raise UsageError(f"sandbox: {quoted(host)} not found")
        out += [*_parents(inside), "--ro-bind", os.path.realpath(host), inside]
    environment = {"PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin", "HOME": SCRATCH_DIR,
                   "TMPDIR": SCRATCH_DIR, "LANG": "C.UTF-8", "NUMBA_CACHE_DIR": f"{SCRATCH_DIR}/numba",
                   "PYTHONDONTWRITEBYTECODE": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                   "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", **env}
    out += ["--clearenv"]
    for key, value in environment.items():
        out += ["--setenv", key, value]
    out += ["--chdir", workdir, "--", sys.executable, "-I", "-S", _JAIL, *(["--strict"] if strict else [])]
    if until is not None:
        out += ["--until", f"{until:.3f}"]
    for source, target in _numba_caches(environment["NUMBA_CACHE_DIR"]):
        out += ["--link", source, target]
    out += [*limits.jail_words(), "--", *words]
    return out


@functools.lru_cache(maxsize=1)
def sandbox_problem() -> str | None:
    """Why no sandbox can be had on this machine, or None when ``bwrap`` runs a program confined (checked once
    a process: ``true`` run exactly as :func:`wrap` would run a submission, its limits and user id included)."""
    if not sys.platform.startswith("linux"):
        return f"the sandbox needs Linux and bubblewrap; this is {sys.platform}"
    bwrap = bwrap_path()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
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
