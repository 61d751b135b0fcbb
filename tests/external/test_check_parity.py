"""`zerosum engine-check` reads every line as the arena's session does (``zerosum.external.session.read_reply``):
an engine the arena refuses at its handshake, or whose games it forfeits for a line, fails the check that read
that line, at once, with the arena's own reason and what the arena does.  Before, engine-check passed an option
line of a type the protocol does not have (the arena refuses the engine), waited 10 s on 'bestmove 1 ponder 5'
(the arena forfeits: nothing may follow), passed 'legal moves' on a line with a terminal escape and on
'info depth x' (each a forfeit), and its 'info lines' never said the arena forfeits the game.

Real processes: a small Tic-Tac-Toe engine written here (:data:`ENGINE`, one misbehaviour a mode; the other
tests of this folder named in its docstring use it too), played by ``zerosum match`` and checked by
``zerosum engine-check``, and the two reasons compared."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from process_helpers import rows, write_script, zerosum_run  # noqa: E402 (tests/process_helpers.py)

#: a correct Tic-Tac-Toe engine (the first free cell) but for its mode (its first argument):
#: combo/button: an option line of a type the protocol does not have; ponder: 'bestmove N ponder 5'; color: a line
#: with terminal escapes before each bestmove; badinfo: 'info depth x'; score: 'info depth 1 score exact 5' (past
#: -1..1); noready: no readyok after a newgame (test_engine_not_ready.py); honest, over, dip, silent: its nodes
#: under 'go nodes N' are N, N + 1, N + 1 then 3, none (test_engine_node_reports.py)
ENGINE = r'''
import sys
MODE = sys.argv[1]
LINES = [(0,1,2),(3,4,5),(6,7,8),(0,3,6),(1,4,7),(2,5,8),(0,4,8),(2,4,6)]
def say(s): sys.stdout.write(s + "\n"); sys.stdout.flush()
def over(b): return any(b[i] and b[i] == b[j] == b[k] for i, j, k in LINES) or all(b)
pos, began = None, False
for line in sys.stdin:
    w = line.split()
    if not w: continue
    if w[0] == "zsp":
        say("id name parity " + MODE); say("id author tests")
        if MODE == "combo": say("option name Style type combo default a var a var b")
        if MODE == "button": say("option name Clear Hash type button")
        say("game tictactoe"); say("zspok")
    elif w[0] == "newgame": began = True
    elif w[0] == "isready":
        if not (MODE == "noready" and began): say("readyok")
    elif w[0] == "position":  # the cells 1-9 played in turn, each free, none after the end
        pos = [0] * 9 if w[1:2] == ["tictactoe"] and w[2:3] in ([], ["moves"]) else None
        for n, c in enumerate("".join(w[3:]) if pos else ""):
            if c not in "123456789" or pos[int(c) - 1] or over(pos): pos = None; break
            pos[int(c) - 1] = 1 + n % 2
        if pos is None: say("info string error bad position")
    elif w[0] == "go":
        if any(not x.isdigit() for x in w[2::2]): say("info string error malformed go"); continue
        if pos is None or over(pos): say("bestmove (none)"); continue
        move = [i + 1 for i in range(9) if not pos[i]][0]
        limit = int(dict(zip(w[1::2], w[2::2])).get("nodes", 1000))
        if MODE == "color": say("\x1b[32minfo string debug\x1b[0m")
        if MODE == "badinfo": say("info depth x")
        if MODE == "score": say("info depth 1 score exact 5")
        if MODE == "honest": say("info depth 1 nodes %d score est 0 pv %d" % (limit, move))
        if MODE in ("over", "dip"): say("info depth 1 nodes %d score est 0 pv %d" % (limit + 1, move))
        if MODE == "dip": say("info depth 2 nodes 3 score est 0 pv %d" % move)
        if MODE == "silent": say("info depth 1 score est 0 pv %d" % move)
        say("bestmove %d" % move + (" ponder 5" if MODE == "ponder" else ""))
    elif w[0] == "quit": break
'''


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_script(tmp_path_factory.mktemp("parity") / "parity.py", ENGINE)


def arena_reason(engine: Path, mode: str, db: Path) -> str:
    """What the arena says of the engine in ``mode``: the reason it refuses it at its handshake, or forfeits its
    game for (one game, the engine first from the start: engine-check's first position)."""
    played = zerosum_run(["match", f"p{mode}", "first", "--engine", f"p{mode}={sys.executable} {engine} {mode}",
                          "--game", "tictactoe", "--games", "1", "--opening-plies", "0", "--jobs", "1", "--out",
                          str(db), "--quiet"])
    if played.returncode == 2:
        return played.stderr.strip().partition("failed its handshake: ")[2]
    assert played.returncode == 0, played.stderr
    (reason, forfeit, moves), = rows(db, "SELECT reason, forfeit, moves FROM games")
    assert forfeit == 1 and moves == "[]", (reason, moves)
    return reason


def check_lines(engine: Path, mode: str) -> tuple[int, dict[str, str]]:
    """engine-check's status and each check's line (``FAIL  legal moves: ...``) by the check's name."""
    done = zerosum_run(["engine-check", "--timeout", "3", sys.executable, str(engine), mode])
    lines = {line.split(":")[0].split("  ")[-1].strip(): line.strip() for line in done.stdout.splitlines()
             if line.startswith("  ")}
    return done.returncode, lines


@pytest.mark.parametrize("mode, reason", [
    ("combo", "protocol error: bad line 'option name Style type combo default a var a var b': unexpected 'var' "
              "(nothing may follow)"),
    ("button", "protocol error: bad line 'option name Clear Hash type button': expected 'type', not 'Hash'"),
])
def test_an_option_line_the_arena_refuses_fails_the_handshake(engine: Path, tmp_path: Path, mode: str,
                                                               reason: str) -> None:
    assert arena_reason(engine, mode, tmp_path / "refused.db") == reason
    status, lines = check_lines(engine, mode)
    said = f"{reason} (the arena refuses the engine before any game)"
    assert status == 1 and lines["handshake"] == f"FAIL  handshake: {said}", lines
    assert lines["only protocol lines"] == f"FAIL  only protocol lines: {reason}", lines


@pytest.mark.parametrize("mode", ["ponder", "color", "badinfo", "score"])
def test_a_line_the_arena_forfeits_for_fails_the_check_that_read_it_at_once(engine: Path, tmp_path: Path,
                                                                           mode: str) -> None:
    reason = arena_reason(engine, mode, tmp_path / "forfeits.db")
    status, lines = check_lines(engine, mode)
    said = f"{reason} (the arena forfeits the game)"
    assert status == 1, lines
    assert lines["legal moves"] == (f"FAIL  legal moves: tictactoe at the start: {said}; the engine is killed and "
                                    "started again for the checks after this one"), lines
    if mode in ("badinfo", "score"):  # the bad info line, and that the arena forfeits the game for it
        assert lines["info lines"] == f"FAIL  info lines: 2 bad: {said}", lines
    else:
        assert lines["only protocol lines"] == f"FAIL  only protocol lines: {reason}", lines
    assert "within 3" not in "\n".join(lines.values()), lines  # never a wait for a bestmove read already
