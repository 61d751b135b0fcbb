"""contest.sandbox and contest.seats: how a submission becomes a sandboxed engine, what it sees from inside, and
the refusal where no sandbox can be had (the hostile submissions are in test_sandbox_hostile.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zerosum
from zerosum.agents.base import Limits as MoveLimits
from zerosum.contest.sandbox import Limits, SandboxUnavailable, sandbox_problem, wrap
from zerosum.contest.seats import entry_function, seat_definition, seat_engine
from zerosum.errors import AgentError, UsageError

PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox on this machine: {PROBLEM}")
ROOT = Path(__file__).resolve().parents[2]
FIRST_COLUMN = "def player(board):\n    return [c for c in range(board.shape[1]) if board[0][c] == 0][0]\n"


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ---- the entry function, read from the file's syntax (nothing of it runs) ---------------------------------


@pytest.mark.parametrize("text,entry,expected", [
    ("def helper(x):\n    pass\n\ndef player(board):\n    return 0\n", None, "player"),
    ("def choose(game, state):\n    return game.actions(state)[0]\n", None, "choose"),
    ("import os\nplayer = lambda board: 0\n", None, "player"),
    ("def a(b):\n    pass\n\ndef mine(game, state):\n    pass\n", "mine", "mine"),
    ("from zerosum.agents.simple import RandomAgent as player\n", None, "player"),
])
def test_the_entry_function_is_player_else_the_only_function(tmp_path: Path, text: str, entry: str | None,
                                                            expected: str) -> None:
    assert entry_function(_file(tmp_path, "s.py", text), entry) == expected


@pytest.mark.parametrize("text,words", [
    ("def a(board):\n    pass\n\ndef b(board):\n    pass\n", "defines 2 functions (a, b) and none is called player"),
    ("x = 1\n", "defines no function"),
    ("def player(board)\n    return 0\n", "s.py line 1: "),
    ("import os\nos.system('touch /tmp/should-not-run')\n", "defines no function"),
])
def test_a_file_without_an_entry_is_one_line(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(AgentError) as info:
        entry_function(_file(tmp_path, "s.py", text))
    assert words in str(info.value) and "\n" not in str(info.value)


def test_seat_definition_refuses_bad_input_with_one_line(tmp_path: Path) -> None:
    good = _file(tmp_path, "ok.py", FIRST_COLUMN)
    with pytest.raises(UsageError, match="kind is one of python, notebook, program"):
        seat_definition(str(tmp_path), good, "java")
    with pytest.raises(AgentError, match="not found"):
        seat_definition(str(tmp_path), "missing.py", "python")
    with pytest.raises(AgentError, match="extract the notebook's marked cell first"):
        seat_definition(str(tmp_path), _file(tmp_path, "n.ipynb", "{}"), "notebook")
    with pytest.raises(UsageError, match="contest folder .* not found"):
        seat_definition(str(tmp_path / "nowhere"), good, "python")
    os.symlink("/etc/shadow", tmp_path / "link.py")
    with pytest.raises(AgentError, match="is not a plain file"):
        seat_definition(str(tmp_path), "link.py", "python")
    os.chmod(good, 0o600)  # the teacher's only, the server root or not: the seat plays a copy (a seat below plays)
    assert seat_definition(str(tmp_path), good, "python", unconfined=True).command
    with pytest.raises(UsageError, match="memory_mb is a whole number from 64"):
        Limits(memory_mb=1)
    with pytest.raises(UsageError, match="processes is a whole number"):
        Limits(processes=True)


# ---- no sandbox: refused, unless the teacher says --unconfined --------------------------------------------


def test_without_bubblewrap_students_code_is_refused_unless_unconfined(tmp_path: Path) -> None:
    script = (
        "import sys\nfrom zerosum.contest.seats import seat_definition\n"
        "from zerosum.contest.sandbox import SandboxUnavailable\n"
        f"path = {_file(tmp_path, 'ok.py', FIRST_COLUMN)!r}\n"
        "try:\n    seat_definition('.', path, 'python')\n"
        "except SandboxUnavailable as exc:\n    print('REFUSED', exc)\n"
        "d = seat_definition('.', path, 'python', unconfined=True)\nprint('COMMAND', ' '.join(d.command))\n"
    )
    env = {**os.environ, "ZEROSUM_BWRAP": str(tmp_path / "no-bwrap")}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    refused, command = done.stdout.strip().splitlines()
    assert refused.startswith("REFUSED students' code is not run without a sandbox: bubblewrap (bwrap) is not "
                              "installed") and "pass --unconfined" in refused
    from zerosum.contest.seats import _RUN_ZEROSUM  # python -I -c: this zerosum, installed or on PYTHONPATH

    assert command == f"COMMAND {sys.executable} -I -c {_RUN_ZEROSUM} engine --name seat {tmp_path / 'ok.py'}:player"


def test_an_unconfined_seat_plays_as_a_plain_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("zerosum.contest.sandbox.sandbox_problem", lambda: "no bwrap in this test")
    with pytest.raises(SandboxUnavailable, match="pass --unconfined"):
        wrap(["true"])
    definition = seat_definition(str(tmp_path), _file(tmp_path, "ok.py", FIRST_COLUMN), "python", unconfined=True)
    assert "bwrap" not in " ".join(definition.command)
    with seat_engine(definition, limits=MoveLimits(time=1.0), startup=30) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=3)
    assert not record.forfeit and record.actions[0] == 0  # the first column, as the file says


# ---- inside the sandbox ------------------------------------------------------------------------------------


# The engine's reason keeps 200 characters of its last line of standard error, so the probe says little: the
# top-level folders it sees beyond those the test allows (or "-"), and the rest in short.
PROBE = '''import os, socket
ALLOWED = set(%r)
def _lock():
    import multiprocessing
    multiprocessing.Lock()  # a POSIX semaphore, in /dev/shm
    return "ok"
def player(board):
    facts = {"extra": ",".join(sorted(set(os.listdir("/")) - ALLOWED)) or "-", "uid": os.getuid(),
             "pids": len([p for p in os.listdir("/proc") if p.isdigit()]),
             "env": ",".join([socket.gethostname(), os.environ.get("HOME", "?"), os.getcwd(),
                              os.environ.get("NUMBA_CACHE_DIR", "?"), _lock()]),
             "etc": ",".join(sorted(os.listdir("/etc"))) or "-"}
    raise RuntimeError(" ".join(f"{k}={v}" for k, v in facts.items()))
'''


@needs_sandbox
def test_what_a_seat_sees_from_inside(tmp_path: Path) -> None:
    from zerosum.contest.sandbox import _python_roots  # Python and zerosum, read-only, wherever they live here

    shown = {"bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "submission", "tmp", "usr"}
    shown |= {Path(r).parts[1] for r in _python_roots()}
    probe = _file(tmp_path, "probe.py", PROBE % sorted(shown))
    definition = seat_definition(str(tmp_path), probe, "python", name="probe")
    with seat_engine(definition, limits=MoveLimits(time=5.0), startup=30) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=1)
    facts = dict(w.split("=", 1) for w in record.reason.partition("RuntimeError: ")[2].split())
    assert set(facts) == {"extra", "uid", "pids", "env", "etc"}, record.reason  # nothing cut off
    assert facts["extra"] == "-", record.reason  # no top-level folder beyond the system's, Python's and its own
    assert facts["uid"] != "0"
    assert int(facts["pids"]) <= 6  # its own namespace: the sandbox's init, the jail, the engine, its search
    assert facts["etc"] in ("ld.so.cache", "ld.so.cache,localtime", "localtime", "-")
    assert facts["env"] == "zerosum-seat,/tmp,/tmp,/tmp/numba,ok"  # host, HOME, cwd, NUMBA_CACHE_DIR, /dev/shm


@needs_sandbox
def test_a_two_argument_function_and_a_program_play_whole_games(tmp_path: Path) -> None:
    two = _file(tmp_path, "two.py", "def mover(game, state):\n    return game.actions(state)[-1]\n")
    os.chmod(two, 0o600)  # each file the teacher's only: a seat run as a user of its own still plays its copy
    program = tmp_path / "engine"
    shutil.copy(ROOT / "examples" / "engines" / "random_engine.py", program)
    program.chmod(0o600)  # not executable as uploaded: the seat makes it so, for its owner only
    seats = [(two, "python"), (str(program), "program")]
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler:  # a compiled program needs the machine's shared libraries, which the sandbox shows
        subprocess.run([compiler, "-O2", "-o", str(tmp_path / "alphabeta"), str(ROOT / "examples" / "engines" /
                                                                              "alphabeta.c")], check=True, timeout=120)
        (tmp_path / "alphabeta").chmod(0o700)
        seats.append((str(tmp_path / "alphabeta"), "program"))
    for path, kind in seats:
        definition = seat_definition(str(tmp_path), path, kind, Limits(memory_mb=512), name="ok")
        with seat_engine(definition, limits=MoveLimits(depth=2, time=1.0), startup=30) as engine:
            result = zerosum.match(engine, "random", game="connect4", games=2, seed=5)
        assert len(result.games) == 2 and not any(r.forfeit for r in result.games), result.games
        assert os.stat(path).st_mode & 0o777 == (0o600 if kind == "python" else 0o700), path


# ---- the jail's relay (run here without bubblewrap: it is the last step inside the sandbox) -------------------


JAIL = ROOT / "src" / "zerosum" / "contest" / "jail.py"
CGROUPS = JAIL.with_name("cgroups.py")


def _jail(script: str, strict: bool) -> subprocess.CompletedProcess[bytes]:
    """jail.py running ``sh -c script`` (its output relayed) with roomy limits (as root it gives up root first:
    a program of /usr then, as in the sandbox)."""
    words = [sys.executable, "-I", "-S", str(JAIL), *(["--strict"] if strict else []), "64", "1024", "60", "32",
             "256", "--", "/bin/sh", "-c", script]
    return subprocess.run(words, capture_output=True, timeout=60)


def _writer(chunks: list[bytes]) -> str:
    """A shell script writing ``chunks`` (printable ASCII and line ends) a hundredth of a second apart."""
    return "; sleep 0.01; ".join("printf '%s'" % c.decode().replace("\n", "\\n") for c in chunks)


def test_the_relay_passes_a_programs_output_as_it_is() -> None:
    long = b"info string " + b"z" * 100_000 + b"\n"  # longer than the relay holds: passed on as it comes
    chunks = [b"id name x\nid au", b"thor y\nzspok\n", long[:70_000], long[70_000:], b"bestmove 4\nbestmove 5", b"\n"]
    done = _jail(_writer(chunks), strict=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"".join(chunks)  # every byte, in order; two answers and all: a program's own business


@pytest.mark.parametrize("lines,passed,reason", [
    ([b"info depth 1 pv 4", b"bestmove 4", b"info time 3", b"bestmove 3"], 4, None),
    ([b"bestmove (none)", b"info time 1", b"bestmove 2"], 3, None),
    ([b"info time 1", b"bestmove 4", b"bestmove 5"], 2, "timeout: the agent did not answer within the move's time"),
    ([b"info string error the agent failed: SystemExit: 3", b"bestmove 1"], 0, "the agent failed: SystemExit: 3"),
    ([b"info string error the agent failed: MemoryError: ", b"bestmove 1"], 0, "over the seat's memory limit, 1024"),
    ([b"info string error the agent failed: the search process ended without a move"], 0, "ended in a move"),
    ([b"info string error the agent failed: the search process ended without a move (killed by signal 11)"], 0,
     "ended in a move, without a move (killed by signal 11)"),
    ([b"info string error no position: send position first", b"bestmove (none)"], 2, None),
    ([b"info string error the agent failed: illegal move: hw.py:player returned 99 (int)", b"bestmove 1"], 0,
     "illegal move: hw.py:player returned 99 (int)"),  # said as the arena says it: the client reads the kind
])
def test_strict_the_move_an_agent_did_not_make_ends_the_seat(lines: list[bytes], passed: int,
                                                             reason: str | None) -> None:
    done = _jail(_writer([line + b"\n" for line in lines]), strict=True)
    assert done.stdout.splitlines() == lines[:passed]  # the move it did not make is not passed on
    if reason is None:
        assert done.returncode == 0, done.stderr
    else:
        last = done.stderr.decode().strip().splitlines()[-1]
        assert done.returncode == 1 and last.startswith("illegal move" if "illegal" in reason else
                                                        "timeout: the agent" if "timeout" in reason else "the agent")
        assert reason in done.stderr.decode()


def test_the_seats_reason_is_a_line_of_its_own_after_a_flood_without_line_ends() -> None:
    done = _jail("printf 'xxxx' >&2; " + _writer([b"info time 1\nbestmove 4\n", b"bestmove 5\n"]), strict=True)
    assert done.returncode == 1 and done.stdout == b"info time 1\nbestmove 4\n"
    last = done.stderr.decode().splitlines()
    assert last[0] == "xxxx" and last[-1].startswith("timeout: the agent did not answer within the move's time"), last


def test_the_seats_reason_is_its_last_line_though_a_process_it_left_goes_on_writing() -> None:
    # a fork bomb's processes outlive the engine the jail ends: what they print must not come after the reason,
    # which the engine client quotes as the seat's last line (it quoted "Process zerosum-engine-search:")
    noise = "(i=0; while [ $i -lt 150 ]; do echo noise $i >&2; sleep 0.01; i=$((i+1)); done) & sleep 0.3; "
    done = _jail(noise + _writer([b"bestmove 4\n"]) + "; sleep 3", strict=True)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 1 and done.stdout == b"", done
    assert lines[0] == "noise 0" and lines[-1].startswith("timeout: the agent did not answer within the move's time"), lines


def test_a_programs_last_words_stay_last_though_a_process_it_left_goes_on_writing() -> None:
    # the engine client quotes the seat's last line as the crash's reason: a helper process the submission
    # started, still chattering on standard error, must not bury what the program itself said last
    chatter = "(i=0; while [ $i -lt 300000 ]; do echo chatter $i >&2; i=$((i+1)); done) & sleep 0.2; "
    done = _jail(chatter + "echo 'fatal: my last words' >&2; exit 3", strict=False)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 3 and lines[0] == "chatter 0", lines[:3]
    assert lines[-1] == "fatal: my last words", lines[-3:]


def test_a_program_killed_by_a_signal_leaves_a_line_that_names_it() -> None:
    done = _jail("kill -SEGV $$", strict=False)
    assert done.returncode == 128 + 11
    assert done.stderr.decode().strip().splitlines()[-1] == "the program was killed by signal 11 (SIGSEGV)"
    done = _jail("exit 7", strict=False)
    assert done.returncode == 7 and done.stderr == b""


UNPRIVILEGED = (os.geteuid() == 0 and PROBLEM is None and shutil.which("setpriv") is not None
                and os.access("/usr/bin/python3", os.X_OK))
FORKS = ("import os, time\nn = 0\nwhile n < 100:\n    try:\n        if os.fork() == 0:\n            time.sleep(3)\n"
         "            os._exit(0)\n        n += 1\n    except OSError:\n        break\nprint(n)\n")


@pytest.mark.skipif(not UNPRIVILEGED, reason="needs root (to act as another user), setpriv and /usr/bin/python3")
def test_without_root_the_process_limit_counts_the_seats_own_user_namespace() -> None:
    """bubblewrap run by a user (not root), as on a teacher's laptop: the jail's RLIMIT_NPROC, set inside the
    sandbox's user namespace, stops a fork bomb at the limit, however many processes that user has outside; and
    the seat ends when its program does, though the children it left hold its output open."""
    outside = [subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "30"])
               for _ in range(20)]
    try:
        words = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", "bwrap", "--unshare-user",
                 "--unshare-pid", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
                 "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev",
                 "--tmpfs", "/tmp", "--ro-bind", str(JAIL), "/jail.py", "--",
                 "/usr/bin/python3", "-I", "-S", "/jail.py", "16", "256", "10", "4", "64", "--",
                 "/usr/bin/python3", "-I", "-c", FORKS]
        done = subprocess.run(words, capture_output=True, timeout=60)
    finally:
        for p in outside:
            p.kill()
            p.wait()
    assert done.returncode == 0, done.stderr
    # 16 tasks of the user in the namespace: bubblewrap's init, the jail, python, and the children it could fork
    assert 10 <= int(done.stdout) <= 13


def _cgroup(controller: str) -> str | None:
    """The test's own cgroup v1 folder of ``controller`` when it may make cgroups in it, else None."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            folder = os.path.join("/sys/fs/cgroup", controller, path.lstrip("/"))
            return folder if os.access(folder, os.W_OK) else None
    return None


def _seat_cgroup(outer: list[str], controller: str) -> Path:
    """The cgroup folder of ``controller`` that the outer step puts a program in."""
    seen = subprocess.run([*outer, "/bin/cat", "/proc/self/cgroup"], capture_output=True, text=True, timeout=60)
    line = next(x for x in seen.stdout.splitlines() if f":{controller}:" in x or f",{controller}:" in x)
    name = line.rpartition("/")[2]
    assert name.startswith("zerosum-seat-")
    return Path(_cgroup(controller) or "", name)


@pytest.mark.skipif(_cgroup("memory") is None, reason="no writable cgroup v1 memory hierarchy here")
def test_the_outer_step_holds_the_seats_processes_to_its_memory_together() -> None:
    outer = [sys.executable, "-I", "-S", str(CGROUPS), "128", "100", "--"]
    assert (_seat_cgroup(outer, "memory") / "memory.limit_in_bytes").read_text().strip() == str(128 << 20)
    # four processes of 100 MB each at once, no rlimit: alone they all live; held, the kernel keeps the seat's
    # memory at 128 MB, killing inside it
    hog = ("import os, time\nprint(open('/proc/self/cgroup').read(), flush=True)\nfor _ in range(2):\n"
           "    os.fork()\nx = b'x' * (100 << 20)\nprint('survived', flush=True)\ntime.sleep(0.5)\n")
    alone = subprocess.run([sys.executable, "-I", "-S", "-c", hog], capture_output=True, text=True, timeout=60)
    held = subprocess.run([*outer, sys.executable, "-I", "-S", "-c", hog], capture_output=True, text=True, timeout=60)
    assert alone.stdout.count("survived") == 4
    name = next(x for x in held.stdout.splitlines() if ":memory:" in x).rpartition("/")[2]
    folder = Path(_cgroup("memory") or "", name)
    assert int((folder / "memory.max_usage_in_bytes").read_text()) <= 128 << 20
    assert "oom_kill 0" not in (folder / "memory.oom_control").read_text()


SPIN = ("import os, time\nend = time.monotonic() + 1.0\nparent = True\nfor _ in range(3):\n"
        "    if parent and os.fork() == 0:\n        parent = False\nwhile time.monotonic() < end:\n    pass\n"
        "if not parent:\n    os._exit(0)\nfor _ in range(3):\n    os.wait()\nt = os.times()\n"
        "print(t.user + t.system + t.children_user + t.children_system)\n")


@pytest.mark.skipif(_cgroup("cpu") is None, reason="no writable cgroup v1 cpu hierarchy here")
def test_the_outer_step_holds_the_seats_processes_to_one_core_together() -> None:
    outer = [sys.executable, "-I", "-S", str(CGROUPS), "256", "100", "--"]
    folder = _seat_cgroup(outer, "cpu")
    assert (folder / "cpu.cfs_quota_us").read_text().strip() == (folder / "cpu.cfs_period_us").read_text().strip()
    # four processes spinning for a second of wall-clock time use one second of CPU between them, at most
    held = subprocess.run([*outer, sys.executable, "-I", "-S", "-c", SPIN], capture_output=True, text=True,
                          timeout=60)
    assert float(held.stdout) <= 1.15, held.stdout  # unconfined, on two idle cores: 2 s


KERNELS = '''import sys


def kernel_stats():
    """zerosum's alpha-beta plays a short game; then the numba cache hits and misses of zerosum's kernels."""
    import zerosum

    zerosum.play_game("connect4", "alphabeta:depth=2", "alphabeta:depth=2", seed=1)
    hits = misses = 0
    for name, module in list(sys.modules.items()):
        if name.startswith("zerosum"):
            for value in list(vars(module).values()):
                stats = getattr(value, "stats", None)
                if stats is not None and hasattr(stats, "cache_hits"):
                    hits += sum(stats.cache_hits.values())
                    misses += sum(stats.cache_misses.values())
    return f"hits={hits} misses={misses}"


def player(board):
    raise RuntimeError(kernel_stats())
'''


def test_the_jail_links_the_stamp_that_vouches_for_the_kernels() -> None:
    from zerosum.contest import jail
    from zerosum.core import kernel_cache

    assert jail.STAMP == kernel_cache.STAMP  # else import zerosum in a seat drops every linked kernel


@needs_sandbox
def test_a_seat_loads_zerosums_compiled_kernels_from_the_machines_cache(tmp_path: Path) -> None:
    """Numba's cache is in the seat's scratch folder, where links to zerosum's own read-only cache wait: the
    kernels the machine compiled before are loaded, not compiled again (a cold compile took 14 s)."""
    probe = _file(tmp_path, "kernels.py", KERNELS)
    host = subprocess.run([sys.executable, "-c", f"import runpy; print(runpy.run_path({probe!r})['kernel_stats']())"],
                          capture_output=True, text=True, timeout=300)  # here: the cache is made if need be
    assert host.returncode == 0, host.stderr
    definition = seat_definition(str(tmp_path), probe, "python", name="kernels")
    with seat_engine(definition, limits=MoveLimits(time=60.0), startup=60) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=1)
    seat = dict(w.split("=") for w in record.reason.rpartition("RuntimeError: ")[2].split())
    assert int(seat["hits"]) > 0 and seat["misses"] == "0", (record.reason, host.stdout)


_NAMES = st.sampled_from(["player", "agent", "move", "helper", "_x"])
_LINES = st.one_of(
    _NAMES.map(lambda n: f"def {n}(board):\n    return 0\n"),
    _NAMES.map(lambda n: f"def {n}(game, state):\n    pass\n"),
    _NAMES.map(lambda n: f"{n} = lambda board: 0\n"),
    _NAMES.map(lambda n: f"class {n}:\n    pass\n"),
    st.sampled_from(["import os\n", "from math import *\n", "if True:\n    def player(b): pass\n", "x = (\n",
                     "\x00\n", "def f(:\n", "\ufeffy = 1\n", "# -*- coding: latin-1 -*-\nz = '\xe9'\n"]),
    st.text(max_size=30),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINES, max_size=6), st.one_of(st.none(), _NAMES))
def test_the_entry_function_is_a_top_level_name_or_one_line(tmp_path_factory: pytest.TempPathFactory,
                                                             parts: list[str], entry: str | None) -> None:
    """Whatever the file holds, the entry is a name the file binds at its top level, found without running
    it, or one AgentError line; never another exception."""
    path = tmp_path_factory.mktemp("entry") / "s.py"
    text = "".join(parts)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        name = entry_function(str(path), entry)
    except AgentError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    import ast

    tree = ast.parse(path.read_bytes())
    bound = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    bound |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    bound |= {(a.asname or a.name) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    assert name in bound and (entry is None or name == entry)
    assert entry is not None or name == "player" or sum(isinstance(n, ast.FunctionDef) for n in tree.body) == 1
