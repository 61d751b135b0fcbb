"""An external engine as an agent (zerosum.external.Engine): real programs started as processes, a good one
and misbehaving ones, each fault a forfeit with its reason, and nothing an engine starts left behind."""

from __future__ import annotations

import os
import shlex
import signal
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zerosum
from zerosum.agents.base import Limits
from zerosum.agents.registry import make_agent
from zerosum.errors import AgentError, UsageError
from zerosum.external import Engine, EngineDefinition, EngineFault, parse_engines, register_engine
from zerosum.values import HEURISTIC_BOUND, WIN

from process_helpers import alive, wait_gone, write_script  # noqa: E402

linux = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")

#: a small engine written for these tests, independent of zerosum: Connect Four and Tic-Tac-Toe, the legal
#: move nearest the middle (columns 4, 3, 5, 2, 6, 1, 7; cells 5, 1, 2, ...: the lowest free cell); its first
#: argument chooses how it misbehaves, and it writes every line it hears to $ENGINE_LOG when that is set
ENGINE = r'''
import os, subprocess, sys, time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
LOG = os.environ.get("ENGINE_LOG")


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def legal(game, moves):
    if game == "tictactoe":
        return [c for c in (5, 1, 2, 3, 4, 6, 7, 8, 9) if str(c) not in moves]
    heights = {c: moves.count(str(c)) for c in range(1, 8)}
    return [c for c in (4, 3, 5, 2, 6, 1, 7) if heights[c] < 6]


game, moves = "", ""
for line in sys.stdin:
    if LOG:
        with open(LOG, "a") as f:
            f.write(line)
    words = line.split()
    if not words:
        continue
    if words[0] == "zsp":
        if MODE == "silent":
            continue
        out("id name middle " + MODE)
        out("id author the tests")
        out("option name Skill type spin default 3 min 0 max 10")
        out("game connectx:rows=6,cols=7,k=4")
        out("game tictactoe")
        out("zspok")
    elif words[0] == "isready":
        out("readyok")
    elif words[0] == "position":
        game, moves = words[1], (words[3] if len(words) > 3 else "")
    elif words[0] == "go":
        if MODE == "crash":
            sys.stderr.write("Traceback: ZeroDivisionError: division by zero\n")
            sys.stderr.flush()
            os._exit(3)
        if MODE == "hang":
            time.sleep(3600)
        if MODE == "fork":
            child = subprocess.Popen(["sleep", "3600"])
            with open(os.environ["CHILD_PID"], "a") as f:
                f.write(f"{child.pid}\n")
            time.sleep(3600)
        if MODE == "garbage":
            sys.stdout.buffer.write(b"\xff\xfe\x00 garbage\n")
            sys.stdout.flush()
        if MODE == "longline":
            sys.stdout.write("x" * (3 << 20))
            sys.stdout.flush()
            time.sleep(3600)
        if MODE == "flood":
            while True:  # a thousand lines a write
                sys.stdout.write(("info string " + "flood " * 20 + "\n") * 1000)
        if MODE == "illegal":
            out("bestmove 9")
            continue
        if MODE == "badinfo":
            out("info depth x")
        if MODE == "exact":  # says the side to move wins, at the end of the board (the empty 7 x 6 board's score)
            out("info depth 42 score exact 1")
            out(f"bestmove {legal(game, moves)[0]}")
            continue
        if MODE == "slow":
            time.sleep(0.05)
        if MODE == "late":  # answers only when told to stop
            heard = sys.stdin.readline()
            if LOG:
                with open(LOG, "a") as f:
                    f.write(heard)
        best = legal(game, moves)[0]
        if MODE == "noinfo":  # a program that says nothing of its search
            out(f"bestmove {best}")
            continue
        if MODE == "noscore":  # how deep and how many nodes, but no score
            out("info depth 3 nodes 9")
            out(f"bestmove {best}")
            continue
        out(f"info depth 1 nodes 7 time 0 score est 0.5 pv {best}")
        if MODE == "double":  # a second answer nobody asked for, in the same write
            out(f"bestmove {best}\nbestmove {legal(game, moves)[-1]}")
            continue
        if MODE == "double-late" and len(moves) >= 2:  # the second answer a moment later, once the game is on
            out(f"bestmove {best}")
            time.sleep(0.3)
            out(f"bestmove {legal(game, moves)[-1]}")
            continue
        out(f"bestmove {best}")
    elif words[0] == "quit":
        break
'''


@pytest.fixture
def engine_file(tmp_path: Path) -> Path:
    return write_script(tmp_path / "middle.py", ENGINE)


def command(path: Path, mode: str = "good") -> list[str]:
    return [sys.executable, str(path), mode]


def middle_first(moves: str) -> int:
    """The test engine's rule, again: the legal column nearest the middle (0-based)."""
    return next(c for c in (4, 3, 5, 2, 6, 1, 7) if moves.count(str(c)) < 6) - 1


# ---- a good engine --------------------------------------------------------------------------------------

def test_a_good_engine_plays_a_whole_game_by_its_rule_and_hears_the_protocol(engine_file, tmp_path, monkeypatch):
    log = tmp_path / "heard.txt"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    with Engine(command(engine_file), limits=Limits(time=0.5), options={"Skill": 7}) as engine:
        assert engine.spec == "middle good"  # its id name
        assert engine.handshake.games == ["connectx:rows=6,cols=7,k=4", "tictactoe"]
        record = zerosum.play_game("connect4", engine, "first", seed=1)
        assert record.winner is not None and not record.forfeit
        moves = ""
        for move in record.moves:
            if move.player == 1:  # every move of the engine follows its rule, seen from the moves before it
                assert move.action == middle_first(moves)
                assert (move.nodes, move.depth, move.value) == (7, 1, 0.5)
            moves += str(move.action + 1)
        latency = engine.latency
        assert latency.pings >= 2 and latency.ping_ms is not None and latency.ping_ms > 0
        assert latency.moves == len([m for m in record.moves if m.player == 1])  # it reports its time
    heard = log.read_text().splitlines()
    start = "position connectx:rows=6,cols=7,k=4"  # before the clock: the engine may load its code for the game
    assert heard[:8] == ["zsp 1", "setoption name Skill value 7", "isready", "newgame", start, "isready", "isready",
                         start]
    assert heard[8:10] == ["isready", "go movetime 500"]  # what it wrote after its last answer is read first
    assert all(heard[i - 1] == "isready" and heard[i - 2].startswith("position")
               for i, line in enumerate(heard) if line.startswith("go"))
    assert [line for line in heard if line.startswith("position")][2] == f"{start} moves {record.notation[:2]}"
    assert heard[-1] == "quit"


@pytest.mark.parametrize("mode", ["double", "double-late"])
def test_a_second_bestmove_for_one_go_forfeits_naming_it(engine_file, mode):
    """Two answers to one go: the second is never taken for the next move's answer (the audit's engine went on
    with stale moves and then forfeited for a full column); it is a protocol error, found before the next go,
    also when it comes a moment after the first (after the opponent has moved)."""
    with Engine(command(engine_file, mode), limits=Limits(depth=1)) as engine:
        record = zerosum.play_game("connect4", engine, "first", seed=0)
    assert record.forfeit and record.winner == 2, record.reason
    assert record.reason.startswith("protocol error: a second bestmove for one go ('bestmove "), record.reason
    moves = ""
    for move in record.moves:
        if move.player == 1:
            assert move.action == middle_first(moves)  # never the second bestmove of the move before
        moves += str(move.action + 1)
    assert len(record.moves) == (2 if mode == "double" else 4)  # found at the engine's next move


@pytest.mark.parametrize("mode, figures", [("noinfo", (None, None, None)), ("noscore", (9, 3, None))])
def test_figures_an_engine_does_not_report_are_unknown_never_0(engine_file, mode, figures):
    with Engine(command(engine_file, mode), limits=Limits(depth=1)) as engine:
        record = zerosum.play_game("connect4", engine, "first", seed=0)
        found = engine.search(zerosum.get_game("connect4"), zerosum.get_game("connect4").initial_state)
    assert not record.forfeit
    engine_moves = [m for m in record.moves if m.player == 1]
    assert engine_moves and all((m.nodes, m.depth, m.value) == figures for m in engine_moves)
    assert set(found.unknown) == {name for name, x in zip(("nodes", "depth", "value"), figures) if x is None}


def test_an_exact_score_is_a_proven_value_where_the_solver_goes_else_a_sign(engine_file):
    with Engine(command(engine_file, "exact"), limits=Limits(depth=1)) as engine:
        connect4, tictactoe = zerosum.get_game("connect4"), zerosum.get_game("tictactoe")
        found = engine.search(connect4, connect4.initial_state)
        # score 1 on the empty 7 x 6 board: the side to move wins with its stone of ply 41, 41 plies from now
        assert (found.value, found.exact, found.depth) == (WIN - 41, True, 42)
        found = engine.search(tictactoe, tictactoe.initial_state)  # a sign only: at the heuristic bound
        assert (found.value, found.exact) == (HEURISTIC_BOUND, False)


def test_a_game_whose_states_keep_no_history_is_told_its_moves(engine_file):
    with Engine(command(engine_file), limits=Limits(depth=2)) as engine:
        record = zerosum.play_game("tictactoe", "first", engine, moves="1", seed=0)
        # X plays 1 (opening), then the first free cells; O (the engine) the free cell first in 5,1,2,3,...
        assert record.notation == "1523467"
        assert not record.forfeit


def test_a_named_engine_is_an_agent_spec_with_limits(engine_file, tmp_path, monkeypatch):
    log = tmp_path / "heard.txt"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    register_engine(EngineDefinition("middle", tuple(command(engine_file))))
    first = make_agent("middle:depth=3,nodes=500")
    second = make_agent("Middle")
    assert first.spec == "middle:depth=3,nodes=500"
    record = zerosum.play_game("connect4", first, second, seed=0)
    assert not record.forfeit
    assert "go nodes 500 depth 3" in log.read_text().splitlines()
    pid_of = [a._session.process.pid for a in (first, second)]  # two live agents: two programs
    assert pid_of[0] != pid_of[1]
    del first
    again = make_agent("middle")  # the first agent is gone: its program is taken again
    assert again._session.process.pid == pid_of[0]


# ---- what goes wrong ------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode, reason", [
    ("crash", "crash: the engine exited (exit code 3): Traceback: ZeroDivisionError: division by zero"),
    ("hang", "timeout: no bestmove within"),
    ("garbage", "garbage output: a line that is not UTF-8 text"),
    ("longline", "garbage output: a line longer than 1,048,576 bytes"),
    ("flood", "garbage output: more than 20,000 lines or 4 MiB in one move"),
    ("illegal", "illegal move: bestmove '9': column 9 is outside 1..7"),
    ("badinfo", "protocol error: bad line 'info depth x'"),
])
def test_each_fault_forfeits_with_its_reason_and_leaves_no_process(engine_file, mode, reason):
    engine = Engine(command(engine_file, mode), limits=Limits(time=1.0))
    process = engine._session.process
    start = time.monotonic()
    record = zerosum.play_game("connect4", engine, "first", seed=0)
    assert record.forfeit and record.winner == 2 and len(record.moves) == 0
    assert record.reason.startswith(reason), record.reason
    assert time.monotonic() - start < 10
    assert process.popen.poll() is not None  # the program was killed and reaped
    engine.close()


def test_a_timeout_sends_stop_first_and_an_engine_that_answers_it_is_in_time(engine_file, tmp_path, monkeypatch):
    log = tmp_path / "heard.txt"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    with Engine(command(engine_file, "late"), limits=Limits(time=0.2)) as engine:
        record = zerosum.play_game("connect4", engine, "first", seed=0)
        assert not record.forfeit  # it answers every stop within the deadline
        assert all(m.seconds < 0.45 for m in record.moves if m.player == 1)
    heard = log.read_text().splitlines()
    assert heard.count("stop") == len([m for m in record.moves if m.player == 1])


@linux
def test_a_child_the_engine_started_dies_with_it(engine_file, tmp_path, monkeypatch):
    monkeypatch.setenv("CHILD_PID", str(tmp_path / "child.pid"))
    engine = Engine(command(engine_file, "fork"), limits=Limits(time=0.2))
    record = zerosum.play_game("connect4", engine, "first", seed=0)
    assert record.reason.startswith("timeout: no bestmove within 0.45 s (stop sent after 0.28 s)"), record.reason
    child = int((tmp_path / "child.pid").read_text().split()[0])
    assert wait_gone([child]) == []  # the sleep the engine started is gone, and reaped: no zombie
    assert not os.path.exists(f"/proc/{child}")


@linux
def test_a_killed_owner_takes_its_engines_and_their_children_along(engine_file, tmp_path):
    """SIGKILL of the process that started the engine: the reaper kills the engine's group."""
    import subprocess

    pid_file = tmp_path / "child.pid"
    script = (f"import sys; sys.path.insert(0, {str(Path(zerosum.__file__).parents[1])!r})\n"
              "from zerosum.external import Engine\n"
              "import zerosum, os\n"
              f"e = Engine({command(engine_file, 'fork')!r}, deadline=3600)\n"
              f"print(e._session.process.pid, flush=True)\n"
              "zerosum.play_game('connect4', e, 'first')\n")
    env = {**os.environ, "CHILD_PID": str(pid_file)}
    owner = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env)
    reaper = int(owner.stdout.readline())
    deadline = time.monotonic() + 30
    while not pid_file.exists() or not pid_file.read_text().endswith("\n"):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    child = int(pid_file.read_text().split()[0])
    assert alive(child) and alive(reaper)
    owner.send_signal(signal.SIGKILL)
    owner.wait(10)
    assert wait_gone([reaper, child], 10) == []


def test_an_engine_object_plays_a_match_from_python(engine_file):
    with Engine(command(engine_file), limits=Limits(depth=1)) as engine:
        result = zerosum.match(engine, "first", games=2, seed=3)
    assert result.wins + result.draws + result.losses == 2 and not any(g.forfeit for g in result.games)
    assert result.first == "middle good"


@pytest.mark.parametrize("kwargs, message", [
    ({"options": ["Skill"]}, "options are a dict"), ({"deadline": 0}, "deadline is seconds above 0"),
    ({"startup": "soon"}, "startup is seconds above 0"), ({"limits": {"time": 1}}, "limits are a zerosum.Limits"),
])
def test_bad_arguments_from_python_are_one_line(engine_file, kwargs, message):
    with pytest.raises(AgentError, match=message):
        Engine(command(engine_file), **kwargs)
    with pytest.raises(AgentError, match="a string or a list of strings"):
        Engine(42)  # type: ignore[arg-type]


def test_a_command_that_cannot_start_is_one_line(tmp_path):
    with pytest.raises(AgentError, match=r"cannot start: '\./nowhere' not found") as exc:
        Engine("./nowhere --fast", dir=str(tmp_path))
    assert "\n" not in str(exc.value)
    with pytest.raises(AgentError, match="is not on the PATH"):
        Engine("no-such-program-zerosum")
    with pytest.raises(AgentError, match="cannot be split"):
        Engine("'unbalanced")


def test_a_handshake_that_never_ends_is_one_line(engine_file):
    start = time.monotonic()
    with pytest.raises(AgentError, match=r"failed its handshake: protocol error: no zspok within 1 s"):
        Engine(command(engine_file, "silent"), startup=1)
    assert time.monotonic() - start < 5


def test_a_game_the_engine_does_not_list_is_refused_before_a_move(engine_file):
    with Engine(command(engine_file)) as engine:
        with pytest.raises(AgentError, match=r"does not play othello:n=8 \(its games: connectx:rows=6,cols=7,k=4, "
                                             r"tictactoe\)"):
            engine.warm_up(zerosum.get_game("othello"))


def test_an_unknown_or_bad_option_is_one_line(engine_file):
    with pytest.raises(AgentError, match=r"has no option 'Hash' \(its options: Skill\)"):
        Engine(command(engine_file), options={"Hash": 64})
    with pytest.raises(AgentError, match=r"option Skill is a whole number in 0..10, not '11'"):
        Engine(command(engine_file), options={"Skill": 11})


@pytest.mark.parametrize("told, clock, reason", [
    (0.45, None, "timeout: no bestmove within 0.45 s (stop sent after 0.28 s)"),  # the arena's header: 0.45 s
    (5.0, (0.998999, 9.0, 0.0), "time forfeit: no bestmove within the 998 ms left on its clock"),  # as `go` told it
])
def test_a_move_out_of_time_states_its_limit_as_the_arena_does(engine_file, told, clock, reason):
    """The engine is killed at the arena's limit, and its reason states that limit as the run's header does
    (0.45 s under a deadline of 0.45 s) or as `go` told the clock (whole milliseconds, rounded down)."""
    engine = Engine(command(engine_file, "hang"))
    engine.tell(told, clock)
    game = zerosum.get_game("connect4")
    with pytest.raises(EngineFault) as caught:
        engine.search(game, game.initial_state)
    assert caught.value.reason == reason
    engine.close()


def test_the_clock_goes_with_go(engine_file, tmp_path, monkeypatch):
    log = tmp_path / "heard.txt"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    with Engine(command(engine_file)) as engine:
        engine.tell(deadline=5.0, clock=(12.5, 9.0, 0.1))
        game = zerosum.get_game("connect4")
        found = engine.search(game, game.from_moves("44"))
        assert found.action == 3
    assert "go ftime 12500 stime 9000 finc 100 sinc 100" in log.read_text().splitlines()


def test_an_engine_that_ended_while_idle_is_started_again_for_the_next_game(engine_file):
    engine = Engine(command(engine_file), limits=Limits(time=0.2))
    first = engine._session.process
    first.kill()
    game = zerosum.get_game("connect4")
    with pytest.raises(AgentError, match=r"^crash: the engine exited"):  # in the middle of a game: a crash
        engine.search(game, game.from_moves("4"))
    record = zerosum.play_game("connect4", engine, "first", seed=0)  # a new game: a new program
    assert not record.forfeit
    assert engine._session.process.pid != first.pid
    engine.close()


def test_a_position_that_does_not_continue_the_game_starts_a_new_one(engine_file, tmp_path, monkeypatch):
    log = tmp_path / "heard.txt"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    game = zerosum.get_game("connect4")
    with Engine(command(engine_file), limits=Limits(depth=1)) as engine:
        assert engine.search(game, game.from_moves("44")).action == 3  # a new game: newgame first
        assert engine.search(game, game.from_moves("4444")).action == 3  # one reply later: the same game
        assert engine.search(game, game.from_moves("1")).action == 3  # taken back (a person's undo): new game
    heard = log.read_text().splitlines()
    assert heard.count("newgame") == 2
    assert [line.split(" moves ")[-1] for line in heard if line.startswith("position")] == ["44", "4444", "1"]


# ---- the flags, any text ---------------------------------------------------------------------------------

names = st.from_regex(r"[A-Za-z][A-Za-z0-9_\-]{0,20}", fullmatch=True).filter(
    lambda n: n.lower() not in ("random", "first", "human", "minimax", "alphabeta", "mcts", "solver"))
words = st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1,
                         max_size=12), min_size=1, max_size=5)


@settings(max_examples=100, deadline=None)
@given(names, words)
def test_an_engine_flag_reads_back_its_name_and_words(name, command_words):
    found = parse_engines([f"{name}={shlex.join(command_words)}"])
    assert [(d.name, list(d.command)) for d in found] == [(name, command_words)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=3), st.lists(st.text(max_size=30), max_size=2),
       st.lists(st.text(max_size=30), max_size=2))
def test_any_engine_flags_are_definitions_or_one_usage_line(engines, dirs, options):
    try:
        found = parse_engines(engines, dirs, options)
    except UsageError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    assert len(found) == len(engines) and all(d.command for d in found)


def test_play_says_how_to_continue_with_the_engine_flags_that_define_its_seat(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import shlex

    from zerosum.external import parse_engines, register_engine
    from zerosum.ui.terminal import Settings

    (defined,) = parse_engines(["e2=./alpha beta --x 'y z'"], [f"e2={tmp_path}"], ["e2.Hash=16"])
    register_engine(defined)
    words = shlex.split(Settings("connect4", "human", "e2:time=1").command("44"))
    assert words[:8] == ["zerosum", "play", "--game", "connect4", "--first", "human", "--second", "e2:time=1"]
    flags = {flag: [w for f, w in zip(words, words[1:]) if f == flag]
             for flag in ("--engine", "--engine-dir", "--engine-option")}
    assert parse_engines(flags["--engine"], flags["--engine-dir"], flags["--engine-option"]) == [defined]


def test_a_flood_on_standard_error_is_read_at_once_and_the_last_words_are_quoted(tmp_path):
    """32 MiB on standard error, no line end, then its last words and exit code 3: the client reads the pipe a
    buffer at a time, so the engine is never held up writing it, and its crash quotes the last words (read a
    byte at a time, 8 MiB took 3.4 s, and 32 MiB outlasted the 10 s handshake)."""
    script = tmp_path / "flood_err.py"
    script.write_text("import os\nfor _ in range(32):\n    os.write(2, b'x' * (1 << 20))\n"
                      "os.write(2, b'\\nthe last words\\n')\nos._exit(3)\n")
    start = time.monotonic()
    with pytest.raises(AgentError) as caught:
        Engine([sys.executable, str(script)])
    assert "crash: the engine exited (exit code 3): the last words" in str(caught.value), str(caught.value)[:300]
    assert time.monotonic() - start < 8
