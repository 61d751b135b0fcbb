"""Fixes from the contest's red-team audit, each tried from a real seat: no user namespace from inside (a program,
a Python seat's forked child, as root and not; and, on sample calls, no file lock or watch: test_seat_channels),
memory bounded where no cgroup holds a seat (3 GB of shared memory refused), a flood of standard error that costs
the seat and not the engine client, and a check's seat that looks like a ladder game's from inside, without the
submission's path on the machine."""

from __future__ import annotations

import os
import re
import select
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import zerosum
from contest_players import make_contest, source
from zerosum.agents.base import Limits as MoveLimits
from zerosum.contest import ladder
from zerosum.contest.cgroups import CLONE_NEWUSER, SYSCALLS, seccomp_filter
from zerosum.contest.jail import ERRORS_BURST, ERRORS_RATE
from zerosum.contest.sandbox import NO_CGROUPS, Limits, confinement, sandbox_problem
from zerosum.contest.seats import seat_definition, seat_engine
from zerosum.contest.validate import validate_submission
from zerosum.errors import AgentError

PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox on this machine: {PROBLEM}")
ROOT = Path(__file__).resolve().parents[2]
JAIL = ROOT / "src" / "zerosum" / "contest" / "jail.py"

#: a protocol program that tries to make a user namespace (unshare, clone, clone3; and from a forked child)
#: at its start, and says what it got (return value/errno) as its last words
USERNS = """#!PYTHON
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def tried(call):
    ctypes.set_errno(0)
    return f"{call()}/{ctypes.get_errno()}"
said = [tried(lambda: libc.unshare(%d)), tried(lambda: libc.syscall(%d, %d | 17, 0, 0, 0, 0)),
        tried(lambda: libc.syscall(%d, 0, 0))]
child = os.fork()
if child == 0:
    os._exit(0 if libc.unshare(%d) != 0 else 5)
said.append(str(os.WEXITSTATUS(os.waitpid(child, 0)[1])))
sys.stderr.write("USERNS " + " ".join(said) + "\\n")
sys.exit(3)
"""
#: the audit's Python seat: its player forks, and the child tries a user namespace, then a mount over /submission
FORKED = """import ctypes, os
def player(board):
    rfd, wfd = os.pipe()
    if os.fork() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        r = libc.unshare(0x10000000)
        e = ctypes.get_errno()
        m = libc.mount(b"none", b"/submission", b"tmpfs", 0, None)
        os.write(wfd, f"child unshare={r}/{e} mount={m}".encode())
        os._exit(0)
    os.close(wfd)
    os.wait()
    raise RuntimeError(os.read(rfd, 1000).decode())
"""


def _userns_program(folder: Path, python: str) -> Path:
    arch, unshare, clone, clone3 = SYSCALLS[os.uname().machine]
    path = folder / "userns"
    path.write_text(USERNS.replace("PYTHON", python) % (CLONE_NEWUSER, clone, CLONE_NEWUSER, clone3, CLONE_NEWUSER))
    path.chmod(0o755)
    return path


def _start_reason(folder: Path, path: Path, kind: str) -> str:
    """The reason a seat that ends at its start (its handshake) or at its first move gives."""
    definition = seat_definition(str(folder), str(path), kind, name="redteam")
    try:
        with seat_engine(definition, limits=MoveLimits(time=20.0), startup=30) as engine:
            return zerosum.play_game("connect4", engine, "random", seed=1).reason
    except AgentError as exc:
        return str(exc)


# ---- 1. no user namespace from inside the seat -------------------------------------------------------------


@needs_sandbox
@pytest.mark.skipif(os.uname().machine not in SYSCALLS, reason="the filter does not know this machine")
def test_a_program_seat_cannot_make_a_user_namespace(tmp_path: Path) -> None:
    # the audit's program (root server): unshare(CLONE_NEWUSER) = 0, with every capability in the new namespace
    reason = _start_reason(tmp_path, _userns_program(tmp_path, "/usr/bin/env python3"), "program")
    assert "USERNS -1/1 -1/1 -1/38 0" in reason, reason  # EPERM, EPERM, clone3 ENOSYS; the child refused too


@needs_sandbox
def test_a_forked_child_of_a_python_seat_cannot_make_a_user_namespace(tmp_path: Path) -> None:
    (tmp_path / "forked.py").write_text(FORKED)
    reason = _start_reason(tmp_path, tmp_path / "forked.py", "python")
    assert "child unshare=-1/1 mount=-1" in reason, reason


UNPRIVILEGED = (os.geteuid() == 0 and PROBLEM is None and shutil.which("setpriv") is not None
                and os.access("/usr/bin/python3", os.X_OK)
                and subprocess.run(["/usr/bin/python3", "-c", "import sys; assert sys.version_info >= (3, 10)"],
                                   capture_output=True).returncode == 0)


@pytest.mark.skipif(not UNPRIVILEGED, reason="needs root (to act as another user), setpriv and /usr/bin/python3")
@pytest.mark.skipif(os.uname().machine not in SYSCALLS, reason="the filter does not know this machine")
def test_without_root_a_seat_cannot_make_a_user_namespace_either() -> None:
    """The sandbox as a user (not root) makes it, as on a teacher's laptop: zerosum run by /usr/bin/python3 as
    user 65534 (the sandbox's words from :func:`wrap` there: a user namespace of bubblewrap's)."""
    folder = Path("/tmp") / f"zerosum-redteam-{os.getpid()}"
    folder.mkdir(mode=0o755)
    try:
        program = _userns_program(folder, "/usr/bin/python3")
        script = ("import subprocess\nfrom zerosum.contest.sandbox import wrap\n"
                  f"words = wrap(['/submission/userns'], files=[({str(program)!r}, '/submission/userns')])\n"
                  "assert '--unshare-user' in words and '--cap-add' not in words, words\n"
                  "done = subprocess.run(words, input=b'zsp 1\\n', capture_output=True, timeout=60)\n"
                  "print(done.returncode, done.stderr.decode().strip().splitlines()[-1])\n")
        done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", "env",
                               f"PYTHONPATH={ROOT / 'src'}", "/usr/bin/python3", "-c", script], cwd="/tmp",
                              capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(folder)
    assert done.stdout.strip() == "3 USERNS -1/1 -1/1 -1/38 0", (done.stdout, done.stderr)


def _run_filter(rules: bytes, arch: int, nr: int, *args: int) -> int:
    """What the classic BPF program ``rules`` returns for one system call and its first ``args`` (the rest 0),
    for the few instructions it uses."""
    import struct

    data = struct.pack("=iIQ6Q", nr, arch, 0, *args, *[0] * (6 - len(args)))
    code = [struct.unpack("=HBBI", rules[i:i + 8]) for i in range(0, len(rules), 8)]
    pc, acc = 0, 0
    while True:
        op, yes, no, k = code[pc]
        if op == 0x20:
            acc = struct.unpack_from("=I", data, k)[0]
        elif op == 0x06:
            return k
        else:
            taken = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[op]
            pc += yes if taken else no
        pc += 1


@pytest.mark.parametrize("machine", sorted(SYSCALLS))
def test_the_filter_refuses_exactly_a_new_user_namespace(machine: str) -> None:
    """Each machine's filter, run here on sample calls (the kernel runs x86_64's in the tests above)."""
    arch, unshare, clone, clone3 = SYSCALLS[machine]
    rules = seccomp_filter(machine)
    assert rules is not None and len(rules) % 8 == 0
    allow, eperm, enosys, kill = 0x7FFF0000, 0x50001, 0x50026, 0x80000000
    assert _run_filter(rules, arch, unshare, CLONE_NEWUSER) == eperm
    assert _run_filter(rules, arch, unshare, CLONE_NEWUSER | 0x20000) == eperm
    assert _run_filter(rules, arch, unshare, 0x20000) == allow  # a mount namespace: the kernel's own rules
    assert _run_filter(rules, arch, clone, CLONE_NEWUSER | 17) == eperm
    assert _run_filter(rules, arch, clone, 0x3D0F00 | 17) == allow  # a thread's flags
    assert _run_filter(rules, arch, clone3) == enosys
    assert _run_filter(rules, arch, 0, CLONE_NEWUSER) == allow  # any other call, whatever its first argument
    assert _run_filter(rules, arch, 0x40000000 + unshare) == eperm  # x32
    assert _run_filter(rules, 0x40000003, unshare) == kill  # 32-bit code
    assert seccomp_filter("sparc") is None


#: the kernel's numbers (x86_64's asm/unistd_64.h; aarch64's asm-generic/unistd.h, which has no inotify_init):
#: fcntl, then each call refused whole, for a channel between seats through a file both see (test_seat_channels)
SHARED_FILE = {"x86_64": (72, {"flock": 73, "inotify_init": 253, "inotify_add_watch": 254, "inotify_init1": 294,
                               "fanotify_init": 300}),
               "aarch64": (25, {"flock": 32, "inotify_init1": 26, "inotify_add_watch": 27, "fanotify_init": 262})}
#: fcntl's commands: a lock, a lease, dnotify (refused); others Python and the C library use (allowed): F_DUPFD,
#: F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_SETOWN, F_GETOWN, F_DUPFD_CLOEXEC, F_GETPIPE_SZ, F_ADD_SEALS
LOCKING = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026)
PLAIN = (0, 1, 2, 3, 4, 8, 9, 1030, 1032, 1033)


@pytest.mark.parametrize("machine", sorted(SYSCALLS))
def test_the_filter_refuses_file_locks_and_watches_and_no_other_fcntl(machine: str) -> None:
    arch, unshare, _, _ = SYSCALLS[machine]
    fcntl, refused = SHARED_FILE[machine]
    rules = seccomp_filter(machine)
    assert rules is not None
    allow, eperm = 0x7FFF0000, 0x50001
    for name, nr in refused.items():
        assert _run_filter(rules, arch, nr, 3) == eperm, name
        assert _run_filter(rules, arch, 0x40000000 + nr) == eperm  # x32: refused as before
    for command in LOCKING:
        assert _run_filter(rules, arch, fcntl, 3, command) == eperm, command
        assert _run_filter(rules, arch, fcntl, 3, command | 1 << 32) == eperm  # the kernel reads an unsigned int
    for command in PLAIN:
        assert _run_filter(rules, arch, fcntl, 3, command) == allow, command
    assert _run_filter(rules, arch, fcntl, 6, 1) == allow  # the descriptor is no command
    assert _run_filter(rules, arch, unshare, CLONE_NEWUSER) == eperm  # as before
    assert _run_filter(rules, 0x40000003, fcntl) == 0x80000000


HEADERS = {"x86_64": ["/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "/usr/include/asm/unistd_64.h"],
           "aarch64": ["/usr/include/asm-generic/unistd.h"]}


@pytest.mark.parametrize("machine", sorted(SYSCALLS))
def test_the_filters_numbers_are_the_kernels(machine: str) -> None:
    """The numbers the filter is tried with above, against the kernel's headers where this machine has them."""
    found = [path for path in HEADERS[machine] if os.path.isfile(path)]
    if not found:
        pytest.skip(f"no kernel header of {machine} system calls here")
    text = Path(found[0]).read_text()
    numbers = {name: int(nr) for name, nr in re.findall(r"#define __NR(?:3264)?_(\w+)\s+(\d+)", text)}
    fcntl, refused = SHARED_FILE[machine]
    assert SYSCALLS[machine][1:] == (numbers["unshare"], numbers["clone"], numbers["clone3"])
    assert (fcntl, refused) == (numbers["fcntl"], {name: numbers[name] for name in refused})


# ---- 2. memory bounded where no cgroup holds the seat ---------------------------------------------------------


SHARED = """#!/usr/bin/env python3
import mmap, sys
try:
    m = mmap.mmap(-1, 3 << 30, flags=mmap.MAP_SHARED)
    for i in range(0, 3 << 30, 4096):
        m[i] = 1
    said = "touched 3 GB shared"
except (OSError, MemoryError) as exc:
    said = f"refused: {exc}"
sys.stderr.write(f"SHARED {said}\\n")
sys.exit(3)
"""
#: zerosum's alpha-beta as a seat's function (numba's kernels, their address-space reservations)
ALPHABETA = "import zerosum\n_agent = zerosum.make_agent('alphabeta:depth=3')\n\n\ndef mover(game, state):\n" \
            "    return _agent(game, state)\n"


@needs_sandbox
def test_without_cgroups_a_seats_address_space_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit's seat touched 3 GB of shared memory under RLIMIT_DATA 1 GiB on a machine of cgroup v2: here,
    forced, the same seat is refused the map, and seats that use numpy or zerosum's compiled kernels still
    play; the teacher's line says which bound holds."""
    monkeypatch.setenv(NO_CGROUPS, "1")
    assert "address space" in confinement() and f"{NO_CGROUPS} is set" in confinement()
    program = tmp_path / "shared"
    program.write_text(SHARED)
    reason = _start_reason(tmp_path, program, "program")
    assert "SHARED refused: [Errno 12] Cannot allocate memory" in reason, reason
    (tmp_path / "homework.py").write_text(source("first"))
    (tmp_path / "ab.py").write_text(ALPHABETA)
    for name in ("homework.py", "ab.py"):
        definition = seat_definition(str(tmp_path), str(tmp_path / name), "python", Limits(memory_mb=512))
        assert "--address" in definition.command and "1536" in definition.command
        with seat_engine(definition, limits=MoveLimits(time=20.0), startup=60) as engine:
            record = zerosum.play_game("connect4", engine, "random", seed=4)
        assert not record.forfeit, (name, record.reason)


# ---- 3. a flood of standard error costs the seat, not the engine client ------------------------------------


FLOOD = """#!/usr/bin/env python3
import os, sys, threading
def flood():
    chunk = b"y\\n" * 32768
    while True:
        os.write(2, chunk)
for line in sys.stdin:
    word = line.split()[:1]
    if word == ["zsp"]:
        print("id name flood\\ngame connectx\\nzspok", flush=True)
    elif word == ["go"]:
        threading.Thread(target=flood, daemon=True).start()
        print("bestmove 4", flush=True)
    elif word == ["quit"]:
        break
"""


@needs_sandbox
def test_a_flood_of_standard_error_reaches_the_engine_client_bounded(tmp_path: Path) -> None:
    """The audit's seat wrote ``y`` lines as fast as it could while its opponent thought: the client's thread
    read them all (64-79 % of a core, outside the seat).  Now the jail, inside, passes on a bounded rate."""
    program = tmp_path / "flood"
    program.write_text(FLOOD)
    definition = seat_definition(str(tmp_path), str(program), "program", name="flood")
    seat = subprocess.Popen(list(definition.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=definition.folder)
    assert seat.stdin is not None and seat.stderr is not None and seat.stdout is not None
    seat.stdin.write(b"zsp 1\nposition connectx moves 4\ngo movetime 1000\n")
    seat.stdin.flush()
    errors, got, seconds = seat.stderr.fileno(), 0, 3.0
    os.set_blocking(errors, False)
    started = time.monotonic()
    try:
        while time.monotonic() - started < seconds:
            select.select([errors], [], [], 0.1)
            try:
                got += len(os.read(errors, 1 << 16))
            except BlockingIOError:
                pass
        seat.stdin.write(b"quit\n")
        seat.stdin.close()
        assert seat.wait(30) == 0
    finally:
        seat.kill()
        seat.wait()
    assert b"bestmove 4" in seat.stdout.read()
    os.set_blocking(errors, True)
    rest = seat.stderr.read()
    assert 0 < got <= ERRORS_BURST + ERRORS_RATE * (time.monotonic() - started) + 4096, got  # unbounded: 100s of MB
    lines = rest.decode().splitlines()
    note = next(x for x in lines if "bytes of the seat's standard error left out" in x)
    assert int(note.split()[0].strip("(").replace(",", "")) > 1 << 20 and lines[-1] == "y", (note, lines[-3:])


def _jail(script: str) -> subprocess.CompletedProcess[bytes]:
    words = [sys.executable, "-I", "-S", str(JAIL), "64", "1024", "60", "32", "256", "--", "/bin/sh", "-c", script]
    return subprocess.run(words, capture_output=True, timeout=60)


@pytest.mark.parametrize("end,last", [("echo 'fatal: my last words' >&2; exit 3", "fatal: my last words"),
                                      ("printf 'tail 1\\ntail 2\\n' >&2; exit 3", "tail 2"),
                                      ("exit 3", "flood")])
def test_after_a_flood_the_programs_last_words_are_still_its_last_line(end: str, last: str) -> None:
    done = _jail(f"yes flood | head -c 4999998 >&2; {end}")
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 3 and len(done.stderr) < ERRORS_BURST + (64 << 10), len(done.stderr)
    assert lines[-1] == last and any("standard error left out" in x for x in lines), lines[-3:]


# ---- 4. a check's seat is a ladder game's, seen from inside ------------------------------------------------


#: a program that, at its first move, says a digest of what it sees of itself (the sandbox's command line, its
#: own and the jail's, its environment, the mounts (a copied file's random name left out), its limits) and
#: whether the contest's folder shows anywhere
VIEW = """#!/usr/bin/env python3
import hashlib, os, resource, sys
FOLDER = %r
def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        return repr(exc).encode()
def view():
    mounts = [m.split() for m in read("/proc/self/mountinfo").decode().splitlines()]
    mounts = [(m[3].split("bindfile")[0], m[4], m[m.index("-") + 1]) for m in mounts]
    limits = [resource.getrlimit(getattr(resource, n)) for n in sorted(dir(resource)) if n.startswith("RLIMIT_")]
    parts = [read("/proc/1/cmdline"), read(f"/proc/{os.getppid()}/cmdline"), " ".join(sys.argv).encode(),
             repr(sorted(os.environ.items())).encode(), repr(mounts).encode(), repr(limits).encode(),
             os.getcwd().encode(), os.uname().nodename.encode()]
    seen = b"".join(parts) + read("/proc/self/mountinfo")
    return f"VIEW {hashlib.sha256(b'|'.join(parts)).hexdigest()[:16]} until={int(b'--until' in seen)} " \\
           f"folder={int(FOLDER.encode() in seen)}"
for line in sys.stdin:
    word = line.split()[:1]
    if word == ["zsp"]:
        print("id name view\\ngame connectx\\nzspok", flush=True)
    elif word == ["isready"]:
        print("readyok", flush=True)
    elif word == ["go"]:
        sys.stderr.write(view() + "\\n")
        sys.exit(1)
    elif word == ["quit"]:
        break
"""


@needs_sandbox
def test_a_check_and_a_ladder_game_look_the_same_from_inside(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    store = make_contest(folder, {}, move_time=1.0, absent=("Ben",))
    store.set_config(sandbox={"processes": 24, "memory_mb": 768})  # the contest's own limits, for both
    (folder / "submissions" / "view").write_text(VIEW % str(folder.resolve()))
    sid = store.add_submission("Ben", "view", "program", "-", "submissions/view")
    status, checked, _ = validate_submission(store, sid)
    assert status == "failed" and "VIEW" in checked, checked
    store.set_status(sid, "ok")
    assert ladder.run_pending(store, 1, jobs=1) == 1
    with sqlite3.connect(folder / "contest.db") as db:
        (played,) = db.execute("SELECT reason FROM games WHERE status = 'done'").fetchone()
    view = checked[checked.index("VIEW"):].split()[:4]
    assert view == played[played.index("VIEW"):].split()[:4], (checked, played)
    assert view[2:] == ["until=0", "folder=0"], view  # nothing says "a check", nor where the contest lies
