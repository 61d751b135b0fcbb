"""Course games used from several threads at once (audit: process-wide state changed by library code).

* Showing a state whose ``display()`` prints, in two threads: each thread gets exactly what its own call
  printed, other threads' prints are never captured, and ``sys.stdout`` is never left altered (it was a
  ``contextlib.redirect_stdout``: two threads restored it out of order and left a StringIO behind).
* Loading two game files of one folder, each importing a module beside it, in two threads: both load (the
  folder was put on ``sys.path`` by one load and taken off while the other still imported from it).
"""

from __future__ import annotations

import contextlib
import io
import sys
import textwrap
import threading
import types
from pathlib import Path
from typing import Any, Iterator

import pytest

import zerosum
from course_sources import Nim  # tests/course_sources.py: a course game as a student writes it

WAIT = 30.0  # seconds a rendezvous may take on a loaded machine: a safety net, never a measure
ROUNDS = 40


class ShownNim(Nim):
    """Nim whose ``display`` prints in two pieces, with a pause between them that ``pause`` fills, and another
    (``done``) after them: rendezvous of a test's threads."""

    def __init__(self) -> None:
        super().__init__((1, 2, 3))
        self.pause: Any = lambda state: None
        self.done: Any = lambda state: None

    def display(self, state: Any) -> None:
        print(*state[0], end="")
        self.pause(state)
        print(f" ({state[1]} to move)")
        self.done(state)


#: the text of the two positions the threads show (their movers tell them apart: :func:`positions`)
TEXT = {"MAX": "1 2 3 (MAX to move)", "MIN": "1 2 0 (MIN to move)"}


def positions(game: Any) -> tuple[Any, Any]:
    start = game.initial_state
    return start, game.result(start, (2, 3))


@pytest.fixture
def own_stdout() -> Iterator[Any]:
    """A standard output of the test's own, put back after whatever the code under test left.  Set in the
    test's own phase (pytest sets its capture's ``sys.stdout`` as each phase begins)."""
    stream, kept = io.StringIO(), []

    def swap() -> io.StringIO:
        kept.append(sys.stdout)
        sys.stdout = stream
        return stream

    yield swap
    if kept:
        sys.stdout = kept[0]


def in_threads(*targets: Any) -> dict[int, Any]:
    """Run each target in a thread of its own, all started together; what each returned (or raised)."""
    start = threading.Barrier(len(targets))
    got: dict[int, Any] = {}

    def run(i: int, target: Any) -> None:
        start.wait(WAIT)
        try:
            got[i] = target()
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            got[i] = exc

    threads = [threading.Thread(target=run, args=(i, t), daemon=True) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not any(thread.is_alive() for thread in threads)
    return got


def test_two_threads_showing_states_each_get_their_own_text_and_leave_stdout_alone(own_stdout):
    stdout = own_stdout()
    rules = ShownNim()
    game = zerosum.get_game(rules)
    first, second = positions(game)
    half: dict[str, threading.Event] = {}
    ended: dict[str, threading.Event] = {}

    def pause(state: Any) -> None:  # both displays half done at once, then the first to begin ends first
        half[state[1]].set()
        if state[1] == "MAX":
            assert half["MIN"].wait(WAIT)
        else:
            assert ended["MAX"].wait(WAIT)

    def later() -> str:  # begins once the first display is half done
        assert half["MAX"].wait(WAIT)
        return game.render(second)

    rules.pause, rules.done = pause, lambda state: ended[state[1]].set()
    for _ in range(ROUNDS):
        half.update(MAX=threading.Event(), MIN=threading.Event())
        ended.update(MAX=threading.Event(), MIN=threading.Event())
        got = in_threads(lambda: game.render(first), later)
        assert got == {0: TEXT["MAX"], 1: TEXT["MIN"]}
        assert sys.stdout is stdout
    assert stdout.getvalue() == ""


def test_many_renders_in_two_threads_at_once(own_stdout):
    stdout = own_stdout()
    game = zerosum.get_game(ShownNim())
    first, second = positions(game)

    def renders(state: Any, mover: str) -> Any:
        return lambda: [game.render(state) for _ in range(500)] == [TEXT[mover]] * 500

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        for _ in range(ROUNDS):
            assert in_threads(renders(first, "MAX"), renders(second, "MIN")) == {0: True, 1: True}
            assert sys.stdout is stdout
    finally:
        sys.setswitchinterval(old)
    assert stdout.getvalue() == ""


def test_another_thread_s_prints_are_never_captured(own_stdout):
    stdout = own_stdout()
    rules = ShownNim()
    printed = threading.Event()

    def pause(state: Any) -> None:  # the display is half done while the other thread prints
        printed_meanwhile.start()
        assert printed.wait(WAIT)

    def other() -> None:
        print("the other thread's line")
        printed.set()

    game = zerosum.get_game(rules)  # its first display (a check of the game) before the pause is set
    rules.pause = pause
    for _ in range(ROUNDS // 4):
        printed.clear()
        printed_meanwhile = threading.Thread(target=other)
        assert game.render(game.initial_state) == TEXT["MAX"]
        printed_meanwhile.join(WAIT)
        assert sys.stdout is stdout
    assert stdout.getvalue() == "the other thread's line\n" * (ROUNDS // 4)


def test_stdout_replaced_meanwhile_is_left_to_whoever_replaced_it(own_stdout):
    stdout = own_stdout()
    rules = ShownNim()
    entered, left = threading.Event(), threading.Event()
    elsewhere = io.StringIO()

    def other() -> None:  # someone else's redirect_stdout, begun while the display prints, ended after it
        with contextlib.redirect_stdout(elsewhere):
            entered.set()
            assert left.wait(WAIT)

    thread = threading.Thread(target=other)

    def done(state: Any) -> None:  # the display has printed all it prints
        thread.start()
        assert entered.wait(WAIT)

    game = zerosum.get_game(rules)  # its first display (a check of the game) before the pause is set
    rules.done = done
    assert game.render(game.initial_state) == TEXT["MAX"]
    assert sys.stdout is elsewhere  # replaced meanwhile: left alone
    left.set()
    thread.join(WAIT)
    print("after both")  # what the other thread put back passes everything through
    rules.done = lambda state: None
    assert game.render(game.initial_state) == TEXT["MAX"]
    assert sys.stdout is stdout  # and the next capture took it out
    assert stdout.getvalue() == "after both\n" and elsewhere.getvalue() == ""


# ---- game files of one folder loaded in two threads ----------------------------------------------------


GAME = """\
import sys
sync = sys.modules["zs_sync_t03"]
{before}
import {helper}
{after}
class TakeAway:
    def __init__(self, sticks=5):
        self.initial = (sticks, "A")
    def actions(self, state): return [n for n in (1, 2) if n <= state[0]]
    def result(self, state, n): return (state[0] - n, "B" if state[1] == "A" else "A")
    def terminal_test(self, state): return state[0] == 0
    def utility(self, state, player): return -{helper}.WIN if state[1] == player else {helper}.WIN
    def to_move(self, state): return state[1]
"""


@pytest.fixture
def sync(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.SimpleNamespace]:
    """What the game files of a test rendezvous with (a module they import), and the helpers they imported
    taken out of ``sys.modules`` after."""
    shared = types.SimpleNamespace(a_inside=threading.Event(), b_inside=threading.Event(),
                                   a_done=threading.Event(), seen_path=[])
    monkeypatch.setitem(sys.modules, "zs_sync_t03", shared)
    before = set(sys.modules)
    path = list(sys.path)
    yield shared
    for name in set(sys.modules) - before:
        if name.startswith(("zs_helper_t03", "zerosum_user_")):
            sys.modules.pop(name, None)
    assert sys.path == path


def game_file(folder: Path, name: str, helper: str, before: str = "", after: str = "") -> Path:
    (folder / f"{helper}.py").write_text("WIN = 1\n")
    path = folder / f"{name}.py"
    path.write_text(GAME.format(helper=helper, before=textwrap.dedent(before), after=textwrap.dedent(after)))
    return path


def test_a_game_file_loads_while_another_of_its_folder_ends_loading(tmp_path, sync):
    # one load ends while the other, begun meanwhile, still has to import the module beside it
    a = game_file(tmp_path, "game_a", "zs_helper_t03_a",
                  before="sync.a_inside.set()\nassert sync.b_inside.wait(30)\n")
    b = game_file(tmp_path, "game_b", "zs_helper_t03_b",
                  before="sync.b_inside.set()\nassert sync.a_done.wait(30)\n")
    got: dict[str, Any] = {}

    def load(path: Path, key: str) -> None:
        try:
            got[key] = type(zerosum.get_game(f"{path}:TakeAway")).__name__
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            got[key] = f"{type(exc).__name__}: {exc}"
        if key == "a":
            sync.a_done.set()

    first = threading.Thread(target=load, args=(a, "a"))
    first.start()
    assert sync.a_inside.wait(WAIT)  # the first load runs its file ...
    second = threading.Thread(target=load, args=(b, "b"))
    second.start()  # ... when the second begins
    first.join(WAIT)
    second.join(WAIT)
    assert got == {"a": "CourseGame", "b": "CourseGame"}


def test_game_files_of_one_folder_load_in_two_threads_at_once(tmp_path, sync):
    work = {"a": "", "b": "sum(range(200000))  # a file that computes a while before it imports\n"}
    files = [[game_file(tmp_path, f"game_{i}_{x}", f"zs_helper_t03_{i}_{x}", before=work[x]) for x in "ab"]
             for i in range(ROUNDS)]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for a, b in files:
            got = in_threads(lambda: zerosum.get_game(f"{a}:TakeAway"), lambda: zerosum.get_game(f"{b}:TakeAway"))
            assert [type(g).__name__ for g in got.values()] == ["CourseGame", "CourseGame"], got
    finally:
        sys.setswitchinterval(old)
