"""`zerosum engine SPEC` as a real program (python -m zerosum engine ...) driven through a transcript."""

from __future__ import annotations

import os
import pathlib
import select
import shutil
import subprocess
import sys
import time

import pytest

from zerosum import get_game
from zerosum.commands.engine import move_time
from zerosum.external.protocol import BestMove, Info, ProtocolError, Unknown, parse_reply

WAIT = 60.0  # seconds any answer may take on a loaded machine (a first run compiles numba kernels)


class Program:
    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "zerosum", "engine", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                     bufsize=0)  # unbuffered: select sees every line not yet read

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read(self, seconds: float = WAIT) -> str:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], seconds)
        assert ready, "no line in time"
        line = self.proc.stdout.readline().decode()
        assert line.endswith("\n"), f"the output ended: {self.proc.stderr.read().decode()[-500:]}"  # type: ignore[union-attr]
        return line[:-1]

    def until(self, word: str) -> list[str]:
        lines = [self.read()]
        while not lines[-1].startswith(word):
            lines.append(self.read())
        return lines

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
        self.proc.wait()


@pytest.fixture
def engine():
    program = Program("alphabeta:depth=5")
    yield program
    program.close()


def _replies(lines: list[str]) -> list[object]:
    out = []
    for line in lines:
        reply = parse_reply(line)  # every line is a protocol line (ProtocolError otherwise)
        assert not isinstance(reply, Unknown), line
        out.append(reply)
    return out


def test_a_transcript(engine: Program) -> None:
    engine.send("zsp 1")
    hello = engine.until("zspok")
    assert hello[0] == "id name zerosum alphabeta:depth=5" and "game connectx" in hello and "game tictactoe" in hello
    engine.send("xyzzy 1 2")  # unknown: ignored
    engine.send("isready")
    assert engine.read() == "readyok"
    # a position the solver knows: X wins with column 3 (4455 scores 18: a win on ply 7)
    engine.send("position connect4 moves 4455")
    engine.send("go depth 5")
    lines = engine.until("bestmove")
    replies = _replies(lines)
    infos = [r for r in replies if isinstance(r, Info) and r.string is None]  # not what its preparation said
    assert [i.depth for i in infos][:2] == [1, 2] and replies[-1] == BestMove("3")
    assert infos[-1].exact == 18 and infos[-1].pv is not None and infos[-1].pv.startswith("3")
    game = get_game("connect4")
    for info in infos:  # each pv is legal from the position
        state = game.from_moves("4455")
        for token in game.move_tokens(info.pv or ""):
            state = game.result(state, game.parse_action(token, state))
    # an estimate in alpha-beta's unit on a quiet position, a finished game, bad input: one line each
    engine.send("position tictactoe moves 15")
    engine.send("go depth 2")
    infos = [r for r in _replies(engine.until("bestmove")) if isinstance(r, Info)]
    assert infos and infos[-1].est is not None
    engine.send("position tictactoe moves 1425 3")  # X has the top row: over
    engine.send("go movetime 50")
    assert engine.until("bestmove")[-1] == "bestmove (none)"
    for bad in ("position connect4 moves 4444444", "position connect4 moves 48", "position chess",
                "go movetime banana", "setoption name Hash value 1", "position connect4 moves 4\x015"):
        engine.send(bad)
        line = engine.read()
        assert line.startswith("info string error "), (bad, line)
    engine.send("go")  # the last position was refused: no position
    assert engine.until("bestmove")[-2:] == [
        "info string error no position: send position SPEC [moves MOVES] before go", "bestmove (none)"]
    engine.send("quit")
    assert engine.proc.wait(WAIT) == 0


def test_a_go_field_it_does_not_know_is_ignored_and_the_go_answered(engine: Program) -> None:
    """docs/protocol.md: a limit it does not understand does not make it refuse the go (it answered an error line
    and no bestmove); a known field's bad value is still a malformed go, an error line and no search."""
    engine.send("zsp 1")
    engine.until("zspok")
    engine.send("position connect4 moves 44")
    for go, ignored in (("go depth 2 ponder", "ponder"), ("go depth 2 mate 3", "mate 3")):
        engine.send(go)
        lines = engine.until("bestmove")
        assert lines[0] == f"info string ignored go field(s) this engine does not know: {ignored}", lines
        assert not any(line.startswith("info string error") for line in lines), lines
        depths = [r.depth for r in _replies(lines) if isinstance(r, Info) and r.depth is not None]
        assert depths and max(depths) == 2 and lines[-1] != "bestmove (none)", lines  # depth 2 honoured
    engine.send("go movetime banana")
    engine.send("isready")
    lines = engine.until("readyok")
    assert len(lines) == 2 and lines[0].startswith("info string error bad line 'go movetime banana': "), lines
    engine.send("quit")
    assert engine.proc.wait(WAIT) == 0


def test_stop_is_answered_at_once_with_a_legal_move() -> None:
    program = Program("alphabeta:time=60")
    try:
        program.send("position connect4 moves 44")
        program.send("isready")
        program.until("readyok")  # the kernels are loaded before the clock
        program.send("go")
        first = program.read()
        assert first.startswith("info depth 1"), first  # searching
        time.sleep(0.3)
        sent = time.monotonic()
        program.send("stop")
        lines = program.until("bestmove")
        took = time.monotonic() - sent
        assert took < 2.0, f"bestmove {took * 1000:.0f} ms after stop"  # the protocol's 100 ms, loaded machine
        move = lines[-1].split()[1]
        assert int(move) in range(1, 8)
        program.send("isready")  # still answering, and the search is gone
        assert program.read() == "readyok"
        # the search is gone: what children the engine has (a spare for the next go) use no processor
        children = subprocess.run(["pgrep", "-P", str(program.proc.pid)], capture_output=True, text=True).stdout
        before = {pid: _cpu_ticks(pid) for pid in children.split()}
        assert len(before) <= 1
        time.sleep(1.0)
        assert all(_cpu_ticks(pid) - ticks < 20 for pid, ticks in before.items()), "a search outlived stop"
    finally:
        program.close()


def _cpu_ticks(pid: str) -> int:
    """The processor time process ``pid`` has used, in clock ticks (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime, stime


def test_a_bad_spec_is_one_line_before_any_protocol() -> None:
    result = subprocess.run([sys.executable, "-m", "zerosum", "engine", "nosuchagent"], input="zsp 1\n",
                            capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "nosuchagent" in result.stderr


def test_commands_wait_for_a_running_search() -> None:
    """A script piped in plays every go to its end: position and go wait for the search before them."""
    script = "position connect4\ngo depth 3\nposition connect4 moves 4\ngo depth 3\n"
    result = subprocess.run([sys.executable, "-m", "zerosum", "engine", "alphabeta"], input=script,
                            capture_output=True, text=True, timeout=WAIT)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and [line.split()[0] for line in lines].count("bestmove") == 2
    assert [line.split()[:3] for line in lines if line.startswith("info")].count(["info", "depth", "3"]) == 2


@pytest.mark.parametrize("left, inc, moves_left, expect", [
    (60_000, 0, 20, 3.0), (60_000, 1000, 20, 3.75), (100, 0, 1, 0.06), (0, 0, 10, 0.001), (10_000, 5000, 21, 4.226), (1000, 5000, 21, 0.78)])
def test_move_time_spends_an_even_share_and_never_the_whole_clock(left: int, inc: int, moves_left: int,
                                                                  expect: float) -> None:
    assert move_time(left, inc, moves_left) == pytest.approx(expect, abs=1e-3)
    assert move_time(left, inc, moves_left) * 1000 <= max(1, 0.8 * left)


def test_protocol_errors_are_values_not_tracebacks() -> None:
    with pytest.raises(ProtocolError):
        parse_reply("bestmove")


def _one_move(tmp_path, source: str, spec: str) -> subprocess.CompletedProcess[str]:
    """``zerosum engine FILE:spec`` of the file ``source`` asked one move of 200 ms; it ends cleanly."""
    agent = tmp_path / "student.py"
    agent.write_text(source)
    result = subprocess.run([sys.executable, "-m", "zerosum", "engine", f"{agent}:{spec}"],
                            input="position connect4 moves 44\ngo movetime 200\n", capture_output=True, text=True,
                            timeout=WAIT)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    return result


def test_an_agent_that_fails_or_prints_leaves_the_protocol_clean(tmp_path) -> None:
    result = _one_move(tmp_path, "def play(game, state):\n    print('debug output')\n    raise RuntimeError('oops')\n",
                       "play")
    assert result.stdout.splitlines() == ["info string error the agent failed: RuntimeError: oops", "bestmove 1"]
    assert "debug output" in result.stderr


def _fuzz_lines(seed: int, count: int) -> list[str]:
    """Lines a careless or hostile GUI might send: commands, their mutations, noise, control characters,
    a line too long; ``go`` only with small limits so the run stays short."""
    import random

    rng = random.Random(seed)
    good = ["zsp 1", "isready", "newgame", "stop", "position connect4 moves 4453", "position tictactoe moves 15",
            "position othello:n=6", "position migration:n=5 moves 1,0", "position connectx:rows=5,cols=12,k=4 moves 10,11",
            "go depth 1", "go nodes 50", "go movetime 20", "go ftime 100 stime 100", "setoption name x value y"]
    noise = ["", "   ", "go depth", "go depth 0", "go depth -1", "go nodes 1e3", "go bogus 3", "position",
             "position connect4 moves 0", "position connect4 moves 44444444", "position connectx:rows=99",
             "position ../evil.py:Game", "position connect4 moves 4453 extra words", "isready now",
             "zsp", "zsp banana", "info depth 3", "bestmove 4", "quit now", "\x00\x01\x02", "go\tdepth\t1",
             "position tictactoe moves 11", "position connect4 moves ٤٤", "é" * 50, "x" * 3000]
    lines = []
    for _ in range(count):
        line = rng.choice(good if rng.random() < 0.5 else noise)
        if rng.random() < 0.2 and line:
            cut = rng.randrange(len(line))
            line = line[:cut] + rng.choice(["", " ", "\t", "9", "\x7f", "\u2028"]) + line[cut + 1:]
        lines.append(line)
    return lines


@pytest.fixture(params=["zerosum", "c", "python"])
def any_engine(request: pytest.FixtureRequest, tmp_path) -> list[str]:
    """zerosum engine alphabeta, the example C engine compiled here (skipped only without a compiler) and the
    example Python engine."""
    examples = pathlib.Path(__file__).resolve().parents[2] / "examples/engines"
    if request.param == "zerosum":
        return [sys.executable, "-m", "zerosum", "engine", "alphabeta"]
    if request.param == "python":
        return [sys.executable, str(examples / "random_engine.py")]
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler (cc or gcc) on this machine: .ci/run installs gcc")
    subprocess.run([cc, "-O2", "-o", str(tmp_path / "alphabeta"), str(examples / "alphabeta.c")], check=True,
                   timeout=WAIT)
    return [str(tmp_path / "alphabeta")]


def test_no_input_breaks_the_engine_or_its_output(any_engine: list[str]) -> None:
    """Whatever comes in, standard output holds protocol lines only, every go gets exactly one bestmove, and
    no traceback is printed (the count of go lines is read by the protocol's own parser)."""
    from zerosum.external.protocol import Go, parse_command

    lines = _fuzz_lines(7, 400)
    # a go with a field of a later version ('go bogus 3') is a go (docs/protocol.md), for every engine here
    gos = 0
    for line in lines:
        try:
            gos += isinstance(parse_command(line), Go)
        except ProtocolError:
            pass
    # the input ends without a quit: its end plays what waits (a quit is carried out at once, dropping it)
    result = subprocess.run(any_engine, input="\n".join(lines) + "\n", capture_output=True, text=True,
                            timeout=WAIT)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    replies = [parse_reply(line) for line in result.stdout.split("\n")[:-1]]  # lines end at \n only (not U+2028)
    assert not any(isinstance(r, Unknown) for r in replies)
    assert sum(isinstance(r, BestMove) for r in replies) == gos > 20


def test_a_node_budget_is_never_exceeded_and_a_cut_depth_does_not_choose() -> None:
    result = subprocess.run([sys.executable, "-m", "zerosum", "engine", "alphabeta"],
                            input="position connect4\ngo nodes 500\nposition connect4 moves 4\ngo nodes 2000\n",
                            capture_output=True, text=True, timeout=WAIT)
    answers: list[list[object]] = [[]]
    for line in result.stdout.splitlines():
        reply = parse_reply(line)
        answers[-1].append(reply)
        if isinstance(reply, BestMove):
            answers.append([])
    for budget, answer in zip((500, 2000), answers):
        infos = [r for r in answer if isinstance(r, Info) and r.string is None]  # not what its preparation said
        assert all(i.nodes is not None and i.nodes <= budget for i in infos)
        full = [i for i in infos if i.depth is not None]
        assert [i.depth for i in full] == list(range(1, len(full) + 1))  # one line a finished depth
        assert answer[-1] == BestMove((full[-1].pv or "")[:1])  # the deepest finished depth's move


def test_a_player_function_is_stopped_by_its_clock_not_a_share_of_it_and_a_crash_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # a player function cannot pace itself: an even share of a 10 s clock (about 0.5 s here) used to stop a
    # 1.5 s move and answer the first legal move in its place
    (tmp_path / "slow.py").write_text(
        "import time\n\ndef player(game, state):\n    time.sleep(1.5)\n    return game.actions(state)[-1]\n")
    assert _search(f"{tmp_path}/slow.py:player", "go ftime 10000 stime 10000 finc 0 sinc 0")[-1] == "bestmove 7"
    # a search child killed by a signal says which, so a sandbox shows its author why
    (tmp_path / "crash.py").write_text(
        "import ctypes\n\ndef player(game, state):\n    ctypes.string_at(0)\n")
    lines = _search(f"{tmp_path}/crash.py:player", "go movetime 5000")
    assert any("search process ended without a move (killed by signal 11, SIGSEGV)" in line for line in lines), lines


def _search(spec: str, go: str) -> list[str]:
    """The lines ``zerosum engine SPEC`` prints up to its bestmove, after the handshake, the position 44 of
    Connect Four and ``go``."""
    program = Program(spec)
    try:
        program.send("zsp 1")
        program.until("zspok")
        program.send("position connect4 moves 44")
        program.send(go)
        return program.until("bestmove")
    finally:
        program.close()


def test_a_search_cut_short_prints_nothing_after_its_bestmove(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the search child is stopped before the answer: a contest seat writes its reason after the bestmove, and a
    # flood from the search (on standard error) must not land after that reason and hide it
    (tmp_path / "flood.py").write_text(
        "import os\n\ndef player(game, state):\n    while True:\n        os.write(1, b'flood\\n' * 1000)\n")
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-m", "zerosum", "engine", f"{tmp_path}/flood.py:player"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)  # one pipe: the order of the two streams is seen
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(b"position connect4 moves 44\nisready\ngo movetime 200\n")
            proc.stdin.flush()
            seen, deadline = b"", time.monotonic() + WAIT
            while b"bestmove" not in seen and time.monotonic() < deadline:  # megabytes of flood: in big reads
                chunk = os.read(proc.stdout.fileno(), 1 << 20)
                assert chunk, seen[-200:]
                seen = seen[-(1 << 16):] + chunk
            before, _, after = seen.partition(b"bestmove")
            assert b"flood" in before
            proc.stdin.write(b"isready\nquit\n")
            proc.stdin.flush()
            after += proc.stdout.read()
            assert proc.wait(WAIT) == 0
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
        assert after.decode().splitlines()[1:] == ["readyok"], after[:200]


def test_a_game_in_a_file_is_played(tmp_path: pathlib.Path) -> None:
    """`zerosum engine --game file.py:Class`: the search process gets the game, whose class pickles by its
    module's name (answered 'PicklingError: Can't pickle <class zerosum_user_...>' to every go before)."""
    (tmp_path / "take.py").write_text(
        "class Take:\n"
        "    def __init__(self):\n        self.initial = (6, 1)\n"
        "    def actions(self, s):\n        return [n for n in (1, 2) if n <= s[0]]\n"
        "    def result(self, s, n):\n        return (s[0] - n, 3 - s[1])\n"
        "    def is_terminal(self, s):\n        return s[0] == 0\n"
        "    def utility(self, s, p):\n        return 1 if s[1] == p else -1\n"
        "    def to_move(self, s):\n        return s[1]\n")
    spec = f"{tmp_path / 'take.py'}:Take"
    program = Program("--game", spec, "alphabeta:depth=8")
    try:
        program.send("zsp 1")
        assert f"game {spec}" in program.until("zspok")
        program.send(f"position {spec} moves 1")
        program.send("go depth 8")
        lines = program.until("bestmove")
        assert lines[-1] in ("bestmove 1", "bestmove 2") and not any("error" in line for line in lines), lines
        assert any(" score exact " in line for line in lines), lines  # searched to the end: a proof
    finally:
        program.close()


def test_a_move_out_of_time_before_the_agent_had_one_says_why_it_is_the_first_legal_move(tmp_path) -> None:
    """A player slower than the ``go``'s time: the answer is the first legal column, said in an ``info string``
    (it came silently, as if the player had chosen it: seen as a flaky test at load 7)."""
    result = _one_move(tmp_path, "import time\n\ndef player(board):\n    time.sleep(3)\n    return 3\n", "player")
    assert result.stdout.splitlines() == ["info string stopped before the agent had a move: its first legal move",
                                          "bestmove 1"]
