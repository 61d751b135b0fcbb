"""``zerosum play`` and a player that does what no player may: ``player(board)`` raising GeneratorExit or a bare
BaseException (audit: a 50-line traceback), or closing ``sys.stdout`` (a traceback in the view) is one line and
exit status 2, the moves so far said where there is still somewhere to say them; Ctrl-C (KeyboardInterrupt)
still stops ``play``.  An engine that never answers is ended by the arena's default deadline for a move
without a time limit, in one line."""

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from zerosum.errors import AgentError
from zerosum.ui.terminal import play

PLAYERS = textwrap.dedent("""\
    import sys
    def ret_gexit(board): raise GeneratorExit()
    def ret_basexc(board): raise BaseException("base")
    def ret_close_stdout(board):
        sys.stdout.close(); return 3
    def ret_kbint(board): raise KeyboardInterrupt
    """)
SAID = {"ret_gexit": "failed {where}: GeneratorExit", "ret_basexc": "failed {where}: BaseException: base",
        "ret_close_stdout": "closed standard output {where}: zerosum play has nowhere to show the game (a player "
                            "must not close sys.stdout)"}
NEVER_MOVES = textwrap.dedent("""\
    import sys
    for line in sys.stdin:
        cmd = line.split()
        if cmd and cmd[0] == "zsp":
            print("game tictactoe"); print("zspok", flush=True)
        elif cmd and cmd[0] == "isready":
            print("readyok", flush=True)
    """)


def zerosum_cli(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", *args], cwd=folder,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.fixture
def players(tmp_path: Path) -> Path:
    (tmp_path / "p.py").write_text(PLAYERS)
    return tmp_path


@pytest.mark.parametrize("name", sorted(SAID))
@pytest.mark.parametrize("seat", [1, 2])
def test_play_says_a_player_that_breaks_out_in_one_line(players, name, seat):
    spec = f"p.py:{name}"
    first, second = (spec, "first") if seat == 1 else ("first", spec)
    done = zerosum_cli(players, "play", "--game", "connect4-8x8", "--first", first, "--second", second, "--log")
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    line, = done.stderr.strip().splitlines()
    where = "at the start" if seat == 1 else "in position '1'"
    assert line == f"zerosum play: error: {spec} " + SAID[name].format(where=where)
    if seat == 2 and name != "ret_close_stdout":  # the moves so far, and how to go on
        assert "Game stopped: an engine failed. Moves: 1" in done.stdout


def test_ctrl_c_in_a_player_still_stops_play(players):
    done = zerosum_cli(players, "play", "--game", "connect4-8x8", "--first", "p.py:ret_kbint", "--second", "first",
                       "--log")
    assert done.returncode == 130 and "Traceback" not in done.stderr


@pytest.mark.parametrize("name", ["ret_gexit", "ret_basexc"])
def test_from_python_play_raises_one_agent_error_line(players, monkeypatch, name):
    monkeypatch.chdir(players)
    out = io.StringIO()
    with pytest.raises(AgentError) as info:
        play("connect4-8x8", f"p.py:{name}", "first", read=lambda prompt: None, out=out, color=False, log=True)
    assert str(info.value) == f"p.py:{name} " + SAID[name].format(where="at the start")


def test_from_python_a_player_that_closes_the_output_is_one_line(players, monkeypatch):
    monkeypatch.chdir(players)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)  # what the player closes
    with pytest.raises(AgentError, match=r"^p.py:ret_close_stdout closed standard output at the start: "):
        play("connect4-8x8", "p.py:ret_close_stdout", "first", read=lambda prompt: None, out=out, color=False,
             log=True)


def test_an_engine_that_never_moves_ends_at_the_arena_s_default_deadline(tmp_path, monkeypatch, capsys):
    import zerosum.arena.match as arena
    import zerosum.external.agent as external
    from zerosum.cli import main

    assert external.UNTIMED_DEADLINE == arena.UNTIMED_DEADLINE == 60.0  # one rule: play's engines and the arena's
    monkeypatch.setattr(external, "UNTIMED_DEADLINE", 1.5)
    engine = tmp_path / "never_move.py"
    engine.write_text(NEVER_MOVES)
    code = main(["play", "--engine", f"never={sys.executable} {engine}", "--first", "never", "--second", "random",
                 "--game", "tictactoe", "--log"])
    err = capsys.readouterr().err
    line, = err.strip().splitlines()
    assert code == 2 and line.startswith("zerosum play: error: timeout: no bestmove within 1.5 s (stop sent after "), err
