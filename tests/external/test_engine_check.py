"""`zerosum engine-check` catches real faults: deliberately broken engines written here each fail the check
they break; the example engines (C and Python) and zerosum's own pass."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from process_helpers import zerosum_run  # tests/process_helpers.py

ROOT = Path(__file__).resolve().parents[2]
WAIT = 600

# A correct minimal engine for tic-tac-toe (its own rules: a test's independent truth), from which each
# broken engine below differs in one fault.
GOOD = r'''
import os, sys, time, random
LINES = [(0,1,2),(3,4,5),(6,7,8),(0,3,6),(1,4,7),(2,5,8),(0,4,8),(2,4,6)]
FAULT = sys.argv[1] if len(sys.argv) > 1 else ""
def say(s): print(s, flush=True)
if FAULT == "crash-start": sys.stderr.write("cannot load my tables\n"); sys.exit(3)
def over(b): return any(b[i] and b[i] == b[j] == b[k] for i, j, k in LINES) or all(b)
pos, prepare = None, False
for line in sys.stdin:
    w = line.split()
    cmd = w[0] if w else ""
    if cmd == "zsp":
        say("id name " + ("broken" if FAULT else "good"))
        if FAULT != "handshake": say("id author test")
        if FAULT != "no-game": say("game tictactoe")
        say("zspok")
        if FAULT == "closeout": sys.stdout = open(os.devnull, "w"); os.close(1)  # says nothing more
    elif cmd == "newgame": prepare = FAULT == "slow-prepare"  # its tables for the game: 3 s, untimed
    elif cmd == "isready":
        if prepare: time.sleep(3); prepare = False
        say("readyok")
    elif cmd == "position":
        pos = None
        try:
            assert w[1] == "tictactoe"
            b = [0] * 9
            for n, c in enumerate("".join(w[3:])):
                i = int(c) - 1
                assert 0 <= i < 9 and not b[i] and not over(b)
                b[i] = 1 + n % 2
            pos = b
        except Exception:
            if FAULT != "silent": say("info string error bad position")
    elif cmd == "go":
        if FAULT != "lenient-go" and any(not x.isdigit() for x in w[2::2]):
            say("info string error malformed go"); continue
        if FAULT == "crash" and pos is not None and sum(map(bool, pos)) >= 3: sys.exit(3)
        if pos is None and FAULT == "lenient-go": say("info string error no position")
        if pos is None or over(pos): say("bestmove (none)"); continue
        if FAULT == "flood" and sum(map(bool, pos)) >= 2: print("info depth 1\n" * 20_001, end="", flush=True)
        free = [i + 1 for i in range(9) if not pos[i]]
        if FAULT == "garbage": say("info depth two score est x")
        if FAULT == "bad-score": say("info depth 1 score exact 5")  # past -1..1, a result's sign here
        if FAULT == "chatty": say("thinking...")
        if "1000" in w[2::2] or "600000" in w[2::2]:  # the stop test's long search
            if FAULT == "ignore-stop": time.sleep(3)  # past the stop limit of 2 s
            elif FAULT == "no-stop": say("info depth 1 nodes 9 score est 0")  # done at once, stop never read
            else:
                for more in sys.stdin:
                    if more.split()[:1] == ["stop"]: break
                if FAULT == "none-after-stop": say("bestmove (none)"); continue
        say("bestmove %d" % ((set(range(1, 10)) - set(free)).pop() if FAULT == "illegal" and len(free) < 9 else free[0]))
        if FAULT == "twice": say("bestmove %d" % free[-1])  # a second answer to the same go
    elif cmd == "quit": sys.exit(0)
'''


@pytest.fixture(scope="module")
def engine_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("engines") / "ttt.py"
    path.write_text(textwrap.dedent(GOOD))
    return path


def check(*command: str, extra: tuple[str, ...] = ()) -> tuple[int, str]:
    """``zerosum engine-check`` run here (process_helpers.zerosum_run: the engines are processes, the check is not
    one more Python process to start, a second of each check on a loaded machine): its status and output."""
    result = zerosum_run(["engine-check", "--timeout", "20", "--stop-limit", "2000", *extra, *command])
    return result.returncode, result.stdout + result.stderr


def failed(output: str) -> set[str]:
    return {line.split("FAIL", 1)[1].split(":")[0].strip() for line in output.splitlines() if "FAIL" in line}


def test_a_correct_engine_passes(engine_file: Path) -> None:
    status, out = check(sys.executable, str(engine_file))
    assert status == 0 and failed(out) == set(), out
    assert "11 of 11 checks pass" in out and "positions of tictactoe" in out


@pytest.mark.parametrize("fault, expect", [
    ("handshake", {"handshake"}),
    ("illegal", {"legal moves"}),
    pytest.param("ignore-stop", {"stop"}, marks=pytest.mark.slow),  # CI time: 3 s of an engine ignoring stop
    ("garbage", {"info lines"}),
    ("bad-score", {"info lines"}),  # an impossible proof: a protocol error in the arena
    ("chatty", {"only protocol lines"}),
    ("silent", {"bad input"}),
])
def test_each_fault_fails_its_check(engine_file: Path, fault: str, expect: set[str]) -> None:
    status, out = check(sys.executable, str(engine_file), fault)
    assert status == 1, out
    assert expect <= failed(out), out


def test_an_engine_preparing_after_newgame_has_the_arenas_time_for_it(engine_file: Path) -> None:
    # the isready after newgame and a game's first position waits as long as the arena's (110 s), not
    # --timeout: zerosum's own engine compiles its code there on a first run (the old check: 'readyok after
    # newgame and position tictactoe' failed after --timeout)
    status, out = check(sys.executable, str(engine_file), "slow-prepare", extra=("--timeout", "2"))
    assert status == 0 and failed(out) == set(), out


def test_a_crash_is_named_and_the_engine_is_started_again_for_the_checks_after_it(engine_file: Path) -> None:
    # it crashes on a go from 3 discs or more: before, every check after the first crash was "not run"
    status, out = check(sys.executable, str(engine_file), "crash")
    assert status == 1 and failed(out) == {"legal moves", "finished games"}, out
    assert "FAIL  legal moves: tictactoe after '3251': crash: the engine exited (exit code 3); the engine is " \
           "started again for the checks after this one" in out, out
    assert "ok    stop: " in out and "ok    bad input: " in out and "ok    quit: exited with status 0" in out, out
    assert "not run" not in out and "9 of 11 checks pass; 2 fail" in out, out


def test_a_crash_at_every_start_again_gives_the_reason_for_the_checks_left(tmp_path: Path) -> None:
    # the first start plays; every later one crashes before its handshake
    marker = tmp_path / "started"
    engine = tmp_path / "once.py"
    engine.write_text(textwrap.dedent(f"""
        import os, runpy, sys
        if os.path.exists({str(marker)!r}):
            sys.stderr.write("cannot load my tables\\n"); sys.exit(3)
        open({str(marker)!r}, "w").close()
        sys.argv = ["ttt.py", "crash"]
    """) + textwrap.dedent(GOOD))
    status, out = check(sys.executable, str(engine))
    assert status == 1, out
    assert "FAIL  finished games: not run: the engine exited at check 3 (legal moves), and started again it " \
           "failed: crash: the engine exited (exit code 3): cannot load my tables" in out, out
    assert "FAIL  quit: not run: the engine exited at check 3" in out, out


def test_a_second_bestmove_for_one_go_fails_the_check_that_sent_it(engine_file: Path) -> None:
    status, out = check(sys.executable, str(engine_file), "twice")
    assert status == 1 and "legal moves" in failed(out), out
    assert "FAIL  legal moves: tictactoe at the start: a second bestmove for one go ('bestmove 9' after " \
           "'bestmove 1')" in out, out


def test_stop_is_not_credited_to_a_search_that_ended_before_it(engine_file: Path) -> None:
    """info, then bestmove at once, stop never read: not 'ok' (it was 'bestmove 0 ms after stop'), but said so;
    a check not measured is no failure (an engine may well answer at once) and no pass."""
    status, out = check(sys.executable, str(engine_file), "no-stop")
    assert "ok    stop" not in out, out
    assert "skip  stop: not measured: bestmove 1 came " in out and "before stop was sent" in out, out
    assert "10 of 11 checks pass; 1 not measured" in out and status == 0, out


def test_an_engine_that_crashes_at_start_passes_no_check(engine_file: Path) -> None:
    status, out = check(sys.executable, str(engine_file), "crash-start")
    assert status == 1 and "crash: the engine exited (exit code 3): cannot load my tables" in out, out
    assert "FAIL  info lines: not run: the engine is gone" in out
    assert "FAIL  only protocol lines: not run: the engine is gone" in out
    assert "0 of 11 checks pass; 11 fail" in out and " ok " not in out, out


def test_no_check_message_says_none(engine_file: Path) -> None:
    status, out = check(sys.executable, str(engine_file), "none-after-stop")
    assert status == 1 and "FAIL  stop: bestmove (none) after stop is not a legal move" in out, out
    assert "None" not in out


def test_a_game_the_engine_does_not_play_is_one_usage_line(engine_file: Path) -> None:
    status, out = check(sys.executable, str(engine_file), extra=("--game", "connect4"))
    assert status == 2, out
    assert out.strip() == "zerosum engine-check: error: the engine does not play connect4 (its games: tictactoe)"


def test_a_program_that_cannot_start_is_one_usage_line(tmp_path: Path) -> None:
    status, out = check(str(tmp_path / "no-such-engine"))
    assert status == 2 and len(out.strip().splitlines()) == 1 and "cannot start" in out
    assert out.startswith("zerosum engine-check: error: ")


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/engines/alphabeta.c built once for the module's two tests of it (a program they only run)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler (cc or gcc) on this machine: .ci/run installs gcc")
    binary = tmp_path_factory.mktemp("c-engine") / "alphabeta"
    subprocess.run([cc, "-O2", "-o", str(binary), str(ROOT / "examples/engines/alphabeta.c")], check=True, timeout=WAIT)
    return binary


def test_the_c_example_engine_passes(c_engine: Path) -> None:
    status, out = check(str(c_engine))
    assert status == 0, out
    assert "stop: bestmove" in out  # measured: its search was running when stop came


def test_the_python_example_engine_passes() -> None:
    status, out = check(sys.executable, str(ROOT / "examples/engines/random_engine.py"))
    assert status == 0, out


def test_zerosum_engine_passes() -> None:
    status, out = check(sys.executable, "-m", "zerosum", "engine", "alphabeta:depth=6",
                        extra=("--game", "connect4", "--game", "tictactoe"))
    assert status == 0, out
    assert "stop: bestmove" in out and "11 of 11 checks pass" in out, out


def test_a_move_that_floods_its_output_fails_as_the_arena_forfeits_it(engine_file: Path) -> None:
    """20,001 info lines in one move: the arena forfeits the game (garbage output), so the check that sent the go
    fails with the arena's reason, its bounds imported (it passed, '... well formed', exit 0)."""
    from zerosum.external.session import MAX_LINES, MAX_OUTPUT

    status, out = check(sys.executable, str(engine_file), "flood")
    assert status == 1 and "legal moves" in failed(out), out
    assert (f"FAIL  legal moves: tictactoe after '32': garbage output: more than {MAX_LINES:,} lines or "
            f"{MAX_OUTPUT // 2**20} MiB in one move (the arena forfeits the game)") in out, out
    assert "ok    finished games" in out and "ok    go without position" in out, out  # the checks after it in step


def test_the_malformed_go_follows_a_valid_position(engine_file: Path) -> None:
    """An engine that plays 'go movetime banana' (no error line) but says why on a go without a position: the
    malformed go came after a refused position, so that error line was taken for the go's (it passed)."""
    status, out = check(sys.executable, str(engine_file), "lenient-go")
    assert status == 1 and failed(out) == {"bad input"}, out
    assert "FAIL  bad input: no 'info string error ...' line for a malformed go ('go movetime banana' after a " \
           "valid position)" in out, out


def test_the_lines_watched_never_pass_on_an_engine_gone_after_its_handshake(engine_file: Path) -> None:
    # it closes its output after zspok: started again for each check, it answers none of them
    status, out = check(sys.executable, str(engine_file), "closeout")
    assert status == 1 and "ok    info lines" not in out and "ok    only protocol lines" not in out, out
    assert "FAIL  readyok: crash: the engine closed its output; the engine is started again" in out, out
    assert "FAIL  info lines: not run: the engine answered no check after its handshake" in out, out
    assert "FAIL  only protocol lines: not run: the engine answered no check after its handshake" in out, out
    assert "2 of 11 checks pass; 9 fail" in out, out  # the handshake, and quit: it exits when told


def test_a_handshake_without_a_game_line_says_so(engine_file: Path) -> None:
    status, out = check(sys.executable, str(engine_file), "no-game")
    assert status == 1 and "FAIL  handshake: no game line before zspok" in out, out


@pytest.mark.slow  # CI time: 3 s of timeouts
def test_an_engine_that_never_says_hello_is_not_waited_for_check_after_check(tmp_path: Path) -> None:
    mute = tmp_path / "mute.py"
    mute.write_text("import sys\nfor line in sys.stdin:\n    if line.strip() == 'quit': break\n")
    result = subprocess.run([sys.executable, "-m", "zerosum", "engine-check", "--timeout", "3", sys.executable,
                             str(mute)], capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 1, result.stdout
    assert "handshake: no zspok after zsp 1 within 3 s" in result.stdout
    assert result.stdout.count("not run: no handshake") == 9 and "ok    quit" in result.stdout
    assert "1 of 11 checks pass; 10 fail" in result.stdout  # quit alone: nothing else was seen to go right


def test_the_lines_watched_say_why_they_were_not_run_when_quit_failed_too(tmp_path: Path) -> None:
    """No handshake, and quit not obeyed either: the reason is the handshake's (it was empty)."""
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\ntime.sleep(60)\n")
    result = zerosum_run(["engine-check", "--timeout", "1", sys.executable, str(sleeper)])
    assert result.returncode == 1 and "FAIL  quit: still running 1 s after quit" in result.stdout, result.stdout
    assert "FAIL  info lines: not run: no handshake\n" in result.stdout, result.stdout
    assert "FAIL  only protocol lines: not run: no handshake\n" in result.stdout, result.stdout


def test_a_game_that_is_none_of_zerosums_is_one_usage_line(engine_file: Path) -> None:
    status, out = check(sys.executable, str(engine_file), extra=("--game", "chess"))
    assert status == 2 and len(out.strip().splitlines()) == 1 and "chess" in out


def test_zerosum_engine_and_the_c_engine_play_a_match_in_the_arena(c_engine: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sides external programs, in two languages: no forfeit, and every game ends by the rules."""
    import sqlite3

    monkeypatch.chdir(tmp_path)  # the engines' folder; the match itself runs here, as the checks do
    db = tmp_path / "match.db"
    zab = f"{sys.executable} -m zerosum engine alphabeta:depth=4"
    result = zerosum_run(["match", "zab", "c", "--engine", f"zab={zab}", "--engine", f"c={c_engine}", "--time", "0.05",
                          "--games", "2", "--jobs", "1", "--out", str(db), "--quiet"])
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(db) as con:
        games = con.execute("SELECT result, forfeit, reason FROM games ORDER BY idx").fetchall()
    assert len(games) == 2 and all(forfeit == 0 for _, forfeit, _ in games), games
    assert all(result in ("1-0", "0-1", "1/2-1/2") for result, _, _ in games)
