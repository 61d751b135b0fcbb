"""Bad input to the solver commands, books and checkpoints; Ctrl-C during long searches (issue 11)."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from zerosum import ConnectX, Solver, make_agent
from zerosum.cli import main
from zerosum.errors import AgentError, InvalidFileError
from zerosum.solver import book as book_mod
from zerosum.solver import search
from zerosum.solver.book import Book, canonical_key, generate

SMALL = "connectx:rows=4,cols=5,k=4"
DATA = Path(book_mod.__file__).resolve().parent.parent / "data"


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir() if p.is_file()}


@pytest.fixture
def no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any book search fails the test: bad input must be refused before the work starts."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the search started")

    monkeypatch.setattr(book_mod, "generate", refuse)


# ---- item 2: zerosum book writes only where it is told, never into the package -------------------


def test_book_without_output_does_not_touch_the_shipped_book(capsys: pytest.CaptureFixture[str],
                                                             no_search: None) -> None:
    before = digests(DATA)
    assert main(["book", "--game", SMALL, "--depth", "1", "-q"]) == 2
    assert "--output" in one_error(capsys)
    assert digests(DATA) == before


def test_book_refuses_to_write_inside_the_installed_package(capsys: pytest.CaptureFixture[str],
                                                            no_search: None) -> None:
    before = digests(DATA)
    for name in ("book-6x7-k4.npz", "book-4x5-k4.npz", "x.zsb"):
        assert main(["book", "--game", SMALL, "-o", str(DATA / name), "--overwrite", "-q"]) == 2
        said = one_error(capsys)  # the suggestion keeps the file's own name (it said "-o book.npz" for x.zsb)
        assert "inside the installed zerosum package" in said and f"(e.g. -o '{name}' in your own folder)" in said
    assert digests(DATA) == before


def test_book_keeps_an_existing_file_without_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.npz"
    path.write_bytes(b"precious")
    assert main(["book", "--game", SMALL, "--depth", "1", "-o", str(path), "-q"]) == 2
    assert "--overwrite" in one_error(capsys)
    assert path.read_bytes() == b"precious" and sorted(os.listdir(tmp_path)) == ["b.npz"]
    assert main(["book", "--game", SMALL, "--depth", "1", "-o", str(path), "-q", "--overwrite"]) == 0
    assert Book.load(str(path)).depth == 1 and sorted(os.listdir(tmp_path)) == ["b.npz"]  # no checkpoint left


@pytest.mark.parametrize("make, expect", [
    (lambda tmp: str(tmp), "is a directory"),
    (lambda tmp: str(tmp / "missing" / "b.npz"), "does not exist"),
    (lambda tmp: (tmp / "b.npz.partial").mkdir() or str(tmp / "b.npz"), "book checkpoint"),
])
def test_book_bad_outputs_are_refused_before_the_search(make, expect: str, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                         capsys: pytest.CaptureFixture[str], no_search: None) -> None:
    assert main(["book", "--game", SMALL, "--depth", "1", "-q", "-o", make(tmp_path)]) == 2
    assert expect in one_error(capsys)
    assert not list(tmp_path.glob("*.npz"))


# ---- item 12: one shared, bounded --tt-log-size; numbers past 2**63 ---------------------------------


@pytest.mark.parametrize("command", [["solve"], ["analyze", "4455"], ["book", "-o", "{tmp}/b.npz"],
                                     ["bench", "solver", "{tmp}/set"]])
@pytest.mark.parametrize("value", ["-3", "9", "32", "64", str(2**63 + 1), "1e3", "２０"])
def test_tt_log_size_is_bounded_for_every_solver_command(command: list[str], value: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "set").write_text("4455 18\n")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in command] + ["--game", SMALL, "--tt-log-size", value]
    assert main(argv) == 2
    line = one_error(capsys)
    assert "--tt-log-size" in line and "10..31" in line
    assert sorted(os.listdir(tmp_path)) == ["set"]


@pytest.mark.parametrize("argv", [
    ["book", "--depth", str(2**63 + 5)], ["book", "--jobs", str(2**64)], ["book", "--depth", "-1"],
    ["book", "--jobs", "0"], ["bench", "solver", "{tmp}/set", "--limit", str(2**63)],
    ["bench", "solver", "{tmp}/set", "--limit", "0"], ["bench", "solver", "{tmp}/set", "--repeat", str(2**70)],
])
def test_solver_numeric_options_are_bounded(argv: list[str], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "set").write_text("4455 18\n")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[0] == "book":
        argv += ["-o", str(tmp_path / "b.npz")]
    assert main(argv) == 2
    line = one_error(capsys)
    assert argv[-3 if argv[0] == "book" else -2] in line
    assert sorted(os.listdir(tmp_path)) == ["set"]


@pytest.mark.parametrize("kind", ["missing", "binary", "directory", "bad line"])
def test_bench_solver_refuses_unreadable_files_in_one_line(kind: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "set"
    if kind == "binary":
        path.write_bytes(bytes(range(256)))
    elif kind == "directory":
        path.mkdir()
    elif kind == "bad line":
        path.write_text("4455 18\n4455 eighteen\n")
    good = tmp_path / "good"
    good.write_text("4455 18\n")
    assert main(["bench", "solver", str(good), str(path), "--no-book", "--tt-log-size", "12"]) == 2
    line = one_error(capsys)
    assert str(path) in line and ("line 2" in line if kind == "bad line" else True)


# ---- items 12 and 13: the .partial checkpoint is read as carefully as any input -------------------


def _checkpoint_lines(depth: int = 1) -> tuple[str, list[int]]:
    game = ConnectX(4, 5, 4)
    keys = sorted({canonical_key(s.current, s.mask, 4, 5)
                   for s in (game.from_moves([c]) for c in range(game.cols))})
    return f"# zerosum book checkpoint: rows=4 cols=5 k=4 depth={depth}", keys


@pytest.mark.parametrize("body, expect", [
    ("{key0} 127\n", "score 127 is impossible"),  # made the empty 4 x 5 board read -20
    ("{key0} -10\n", "score -10 is impossible"),  # one ply down, a loss scores at least -9
    ("{key0} 3\n{key0} 4\n", "earlier line"),
    ("12345 0\n", "not a position"),
    ("{key0}\n", "not 'key score'"),
    ("{key0} ³\n", "not 'key score'"),
])
def test_book_checkpoint_with_impossible_lines_is_refused(body: str, expect: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    header, keys = _checkpoint_lines()
    partial = tmp_path / "b.npz.partial"
    text = header + "\n" + body.format(key0=keys[0])
    partial.write_text(text, encoding="utf-8")
    assert main(["book", "--game", SMALL, "--depth", "1", "-q", "-o", str(tmp_path / "b.npz")]) == 2
    line = one_error(capsys)
    assert expect in line and ("line 2" in line or "line 3" in line)
    assert partial.read_text(encoding="utf-8") == text and sorted(os.listdir(tmp_path)) == ["b.npz.partial"]


@pytest.mark.parametrize("kind", ["binary", "directory"])
def test_book_checkpoint_that_is_binary_or_a_directory_is_one_line(kind: str, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    partial = tmp_path / "b.npz.partial"
    if kind == "binary":
        partial.write_bytes(b"\x00\xff" * 50)
    else:
        partial.mkdir()
    assert main(["book", "--game", SMALL, "--depth", "1", "-q", "-o", str(tmp_path / "b.npz")]) == 2
    assert "book checkpoint" in one_error(capsys)
    assert not (tmp_path / "b.npz").exists()


def test_a_valid_checkpoint_still_resumes(tmp_path: Path) -> None:
    header, keys = _checkpoint_lines()
    solver = Solver(SMALL, tt_size=1 << 12, book=False)
    truth = generate(solver, 1)
    partial = tmp_path / "b.partial"
    planted = truth.get(*_position_of(keys[0]))
    partial.write_text(f"{header}\n{keys[0]} {planted}\n{keys[0]} {planted}\n")  # a repeat agreeing is fine
    again = generate(solver, 1, checkpoint=str(partial))
    assert list(again.keys) == list(truth.keys) and list(again.scores) == list(truth.scores)


def _position_of(key: int) -> tuple[int, int]:
    game = ConnectX(4, 5, 4)
    for c in range(game.cols):
        s = game.from_moves([c])
        if canonical_key(s.current, s.mask, 4, 5) == key:
            return s.current, s.mask
    raise AssertionError(key)


# ---- item 13: Book.load turns every malformed file into one InvalidFileError -----------------------


def _npz(path: Path, **arrays: np.ndarray) -> str:
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    return str(path)


def test_book_load_refuses_every_malformed_file(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    generate(Solver(SMALL, tt_size=1 << 12, book=False), 2).save(str(good))
    raw = good.read_bytes()
    cases = {
        "not a zip": (tmp_path / "a.npz", b"PK\x03\x04garbage"),
        "truncated": (tmp_path / "b.npz", raw[: len(raw) // 2]),
        "text": (tmp_path / "c.npz", b"hello\n"),
    }
    for path, data in cases.values():
        path.write_bytes(data)
    paths = [str(p) for p, _ in cases.values()]
    u64, i8 = np.uint64, np.int8
    paths += [
        _npz(tmp_path / "meta2.npz", meta=np.array([1, 2]), keys=np.zeros(1, u64), scores=np.zeros(1, i8)),
        _npz(tmp_path / "short.npz", meta=np.array([4, 5, 4, 1]), keys=np.zeros(3, u64), scores=np.zeros(1, i8)),
        _npz(tmp_path / "score.npz", meta=np.array([4, 5, 4, 1]), keys=np.arange(2, dtype=u64),
             scores=np.array([0, 127], i8)),
        _npz(tmp_path / "board.npz", meta=np.array([9, 9, 4, 1]), keys=np.zeros(1, u64), scores=np.zeros(1, i8)),
        _npz(tmp_path / "nokeys.npz", meta=np.array([4, 5, 4, 1]), scores=np.zeros(1, i8)),
        _npz(tmp_path / "float.npz", meta=np.array([4.0, 5, 4, 1]), keys=np.zeros(1, u64), scores=np.zeros(1, i8)),
        _npz(tmp_path / "twice.npz", meta=np.array([4, 5, 4, 1]), keys=np.array([7, 7], u64), scores=np.zeros(2, i8)),
        _npz(tmp_path / "objects.npz", meta=np.array([4, 5, 4, 1]), keys=np.array([object()]), scores=np.zeros(1, i8)),
        str(tmp_path), str(tmp_path / "missing.npz"),
    ]
    for path in paths:
        with pytest.raises(InvalidFileError) as info:
            Book.load(path)
        assert "\n" not in str(info.value) and repr(path) in str(info.value)
    with zipfile.ZipFile(tmp_path / "x.npz", "w") as z:
        z.writestr("meta.npy", b"\x93NUMPY garbage")
    with pytest.raises(InvalidFileError):
        Book.load(str(tmp_path / "x.npz"))
    assert len(Book.load(str(good))) > 0


def test_solver_with_a_malformed_book_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(b"PK\x03\x04garbage")
    with pytest.raises(InvalidFileError):
        Solver(SMALL, tt_size=1 << 12, book=str(path))


def test_book_save_is_atomic_and_keeps_existing_files(tmp_path: Path) -> None:
    book = generate(Solver(SMALL, tt_size=1 << 12, book=False), 1)
    path = tmp_path / "b.npz"
    path.write_bytes(b"precious")
    with pytest.raises(InvalidFileError, match="exists"):
        book.save(str(path))
    assert path.read_bytes() == b"precious"
    book.save(str(path), overwrite=True)
    assert len(Book.load(str(path))) == len(book) and sorted(os.listdir(tmp_path)) == ["b.npz"]
    with pytest.raises(InvalidFileError, match="installed zerosum package"):
        book.save(str(DATA / "book-4x5-k4.npz"))
    assert not (DATA / "book-4x5-k4.npz").exists()


# ---- item 13: solver:book= takes yes or no, nothing else ---------------------------------------------


@pytest.mark.parametrize("value", ["maybe", "2", "yes please", "tru", "none"])
def test_solver_agent_refuses_a_book_value_that_is_not_yes_or_no(value: str) -> None:
    with pytest.raises(AgentError, match="book"):
        make_agent(f"solver:book={value}")


@pytest.mark.parametrize("value, expect", [("1", True), ("TRUE", True), ("yes", True), ("on", True),
                                           ("0", False), ("false", False), ("No", False), ("off", False)])
def test_solver_agent_reads_book_flags(value: str, expect: bool) -> None:
    assert make_agent(f"solver:book={value},tt=10").use_book is expect  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", ["solver:tt=9", "solver:tt=32", f"solver:tt={2**63}", "solver:tt=２０"])
def test_solver_agent_table_is_bounded(spec: str) -> None:
    with pytest.raises(AgentError, match="10..31"):
        make_agent(spec)


# ---- item 15: long searches return to Python often, so Ctrl-C stops them -----------------------------


def test_sliced_search_matches_one_long_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopping every few nodes and going on changes no score and no node count.  (Not the empty board nor "1":
    at slice_nodes=1 each of their nodes was a compiled call of its own, nine tenths of this test's time; the
    empty board searched in slices is checked against a fresh solver in the Ctrl-C test below.)"""
    game = ConnectX(5, 5, 4)
    positions = ["3", "33", "323", "2233", "12345"]
    calls = {"solve_prepared": 0, "solve_many": 0}
    def counting(name: str) -> object:
        real = getattr(search, name)

        def counted(*args: object) -> int:
            calls[name] += 1
            return int(real(*args))

        return counted

    Solver(game, tt_size=1 << 14, book=False).solve("12345")  # loaded first: its warm-up's search is not counted
    for name in calls:
        monkeypatch.setattr(search, name, counting(name))
    results = []
    for slice_nodes in (1 << 40, 1, 97):
        solver = Solver(game, tt_size=1 << 14, book=False)
        solver.slice_nodes = slice_nodes
        run = []
        for weak in (False, True):
            solver.reset()
            run.append([(solver.solve(p, weak=weak), solver.nodes) for p in positions])
            solver.reset()
            run.append((solver.solve_many(positions, weak=weak), solver.node_counts))
        results.append(run)
        if slice_nodes == 1 << 40:
            assert calls == {"solve_prepared": 2 * len(positions), "solve_many": 2}
    assert results[0] == results[1] == results[2]
    nodes = sum(n for _, n in results[0][0])
    assert nodes > 1000 and calls["solve_prepared"] > nodes // 97 and calls["solve_many"] > nodes // 97


def test_node_limit_still_stops_a_sliced_search() -> None:
    from zerosum.solver.solver import BudgetExceeded

    solver = Solver(ConnectX(5, 5, 4), tt_size=1 << 14, book=False)
    solver.slice_nodes = 50
    with pytest.raises(BudgetExceeded):
        solver.solve("", node_limit=1000)
    assert 1000 <= solver.nodes < 1100
    solver.reset()
    assert solver.solve("12345") == Solver(ConnectX(5, 5, 4), tt_size=1 << 14, book=False).solve("12345")


def test_ctrl_c_between_slices_stops_the_search_and_leaves_the_solver_usable(monkeypatch: pytest.MonkeyPatch) -> None:
    solver = Solver(ConnectX(5, 5, 4), tt_size=1 << 14, book=False)
    solver.slice_nodes = 200
    calls = []
    real = search.solve_prepared

    def interrupted(*args: object) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # what Python raises as the compiled call returns after Ctrl-C
        return int(real(*args))

    monkeypatch.setattr(search, "solve_prepared", interrupted)
    with pytest.raises(KeyboardInterrupt):
        solver.solve("")  # one position: more than one compiled call only when the search is sliced
    assert len(calls) == 3
    monkeypatch.setattr(search, "solve_prepared", real)
    fresh = Solver(ConnectX(5, 5, 4), tt_size=1 << 14, book=False)
    assert solver.analyze("") == fresh.analyze("") and solver.solve("") == fresh.solve("")


def _cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far (all its threads), from /proc."""
    fields = open(f"/proc/{pid}/stat").read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def _interrupt_analyze(wait: float, *position: str, cpu: bool = False) -> tuple[int, str, float]:
    """``zerosum analyze`` Ctrl-C'd after ``wait`` seconds, of its own CPU time with ``cpu`` (as far as it got
    on a loaded machine too: after 5 s of wall time at load 5 it had proven no column yet); its exit status,
    standard error, and the seconds from the Ctrl-C to its end."""
    import time

    Solver(tt_size=1 << 10, book=False).solve("44455554221")  # the compiled code in numba's cache first
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "analyze", "--no-book", *position],  # minutes
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20 * wait  # a safety net
        if cpu:
            while _cpu_seconds(proc.pid) < wait and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.05)
        else:
            time.sleep(wait)
        assert proc.poll() is None
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=60)[1]
        return proc.returncode, err, time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _said(err: str) -> list[str]:
    """stderr's lines but the wait's own (``zerosum: preparing the engine (starting numba): 1.0 s`` on a busy
    machine), which may come before the interruption's one line."""
    return [line for line in err.strip().splitlines() if not line.startswith("zerosum: preparing the engine")]


@pytest.mark.slow  # 11 s; CI keeps Ctrl-C of match, play and engine (tests/arena/test_interrupt.py, ...)
def test_ctrl_c_stops_zerosum_analyze_and_says_the_columns_proven() -> None:
    import re

    # one thread takes the columns left to right: the first is proven in about 0.6 s, the third takes minutes
    code, err, _ = _interrupt_analyze(5, "11112", "--threads", "1", "--tt-log-size", "20", cpu=True)
    assert code == 130 and len(_said(err)) == 1 and _said(err)[0].startswith("interrupted: proven before the "
                                                                              "stop: column 1 "), err
    said = dict(re.findall(r"column (\d) ([+-]\d+|0)", _said(err)[0]))
    assert "7" not in said and "--weak" in err
    for column in sorted(said)[:2]:  # the quick ones, checked against a solve of their own
        assert int(said[column]) == -Solver(tt_size=1 << 20, book=False).solve("11112" + column), (column, err)


@pytest.mark.slow
def test_ctrl_c_stops_zerosum_analyze_within_two_seconds() -> None:
    code, err, seconds = _interrupt_analyze(wait=10)
    assert code == 130 and len(_said(err)) == 1 and seconds < 2
