"""A bug in a game from a file or a class is the game's, never a player's: ``play_game`` raises its one
GameError line, the arena's run stops with it (nobody forfeits, nothing is ranked), and a game that never
ends stops after ``MAX_PLIES`` plies, in play and in every search, never as a RecursionError."""

import subprocess
import sys
from pathlib import Path

import pytest
from course_sources import take_away  # tests/course_sources.py: course games as a student writes them

import zerosum
from zerosum.agents.registry import make_agent
from zerosum.errors import AgentError, GameError
from zerosum.games.course import MAX_PLIES
from zerosum.games.course_rules import GameBug

STICKS = """\
class G:
    \"\"\"Take 1-3 sticks from 7; last stick wins.\"\"\"
    def __init__(self):
        self.initial = (7, 1)
    def actions(self, state):
        return {actions}
    def result(self, state, n):
        {result}
    def is_terminal(self, state):
        {terminal}
    def utility(self, state, player):
        {utility}
    def to_move(self, state):
        return state[1]
"""
GOOD = {"actions": "[n for n in (1, 2, 3) if n <= state[0]]", "result": "return (state[0] - n, 3 - state[1])",
        "terminal": "return state[0] == 0", "utility": "return -1 if state[1] == player else 1"}

BUGS = {  # name: (what differs from the good game, the line's words)
    "never_ends": ({"actions": "[0]", "terminal": "return False"},
                   f"G: the game did not end after {MAX_PLIES:,} plies"),
    "utility_none": ({"utility": "pass"}, "G: utility returned None at the end (state (0, "),  # the state named
    "nan_utility": ({"utility": "return float('nan')"}, "G: utility returned nan at the end (state (0, "),
    "result_raises": ({"result": "if state[0] < 4: raise RuntimeError('bug in result')\n"
                                 "        return (state[0] - n, 3 - state[1])"},
                      "G.result(state, action) raised RuntimeError: bug in result at state"),
    "terminal_raises": ({"terminal": "if state[0] == 2: raise ZeroDivisionError('t')\n        return state[0] == 0",
                         "actions": "[1]"},
                        "G.is_terminal(state) raised ZeroDivisionError: t at state (2, 2)"),
    "empty_actions": ({"actions": "[n for n in (1, 2, 3) if n <= state[0]] if state[0] != 4 else []"},
                      "G: actions returned no moves at state (4, "),
    "terminal_none": ({"actions": "[n for n in (1, 2, 3) if n <= state[0]] if state[0] != 4 else []",
                       "terminal": "if state[0] == 0: return True"},  # the implicit None: said as it is
                      "but is_terminal(state) returned None: a position without moves must be over"),
    "three_players": ({"result": "return (state[0] - n, state[1] % 3 + 1)"},
                      "G: the player to move is 3, a third player after 1 and 2"),
}


def game_file(folder: Path, name: str) -> Path:
    parts = dict(GOOD, **BUGS[name][0])
    path = folder / f"{name}.py"
    path.write_text(STICKS.format(**parts))
    return path


@pytest.mark.parametrize("name", sorted(BUGS))
def test_play_game_raises_the_game_s_bug_whoever_moves(tmp_path, name):
    game = zerosum.get_game(str(game_file(tmp_path, name)))
    for first, second in (("alphabeta:plain=1", "random"), ("random", "alphabeta:plain=1"), ("random", "random")):
        with pytest.raises(GameBug) as info:
            zerosum.play_game(game, first, second, seed=1)
        assert BUGS[name][1] in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", ["utility_none", "empty_actions", "never_ends", "terminal_raises"])
def test_the_arena_stops_with_the_game_s_line_and_nobody_forfeits(tmp_path, name):
    path = game_file(tmp_path, name)
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", "match",
                           "alphabeta:plain=1", "random", "--game", path.name, "--games", "2", "--opening-plies", "0",
                           "-o", str(tmp_path / "out.db")], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "Forfeits" not in done.stdout
    line, = done.stderr.strip().splitlines()
    assert line.startswith("zerosum match: error: ") and BUGS[name][1] in line


@pytest.mark.parametrize("spec", ["alphabeta:plain=1", "minimax", "minimax:discount=0", "mcts:sims=100,seed=1",
                                  "alphabeta:plain=1,depth=3000"])
def test_every_search_of_a_game_that_never_ends_is_the_game_s_line(tmp_path, spec):
    game = zerosum.get_game(str(game_file(tmp_path, "never_ends")))
    with pytest.raises(GameBug, match=f"did not end after {MAX_PLIES:,} plies"):
        make_agent(spec).search(game, game.initial_state)


def test_zerosum_play_against_a_search_on_a_game_that_never_ends_is_one_line(tmp_path):
    path = game_file(tmp_path, "never_ends")
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", "play", "--game", path.name,
                           "--first", "human", "--second", "alphabeta:plain=1"], cwd=tmp_path, input="0\n",
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert done.stderr.strip() == (f"zerosum play: error: G: the game did not end after {MAX_PLIES:,} plies: its "
                                   f"terminal test never holds (a game from a file or a class may last at most "
                                   f"{MAX_PLIES:,} plies)")


def test_a_long_game_that_ends_asks_for_a_depth_limit_rather_than_a_recursion_error():
    # take one stick at a time from 3000: it ends, deeper than Python's recursion
    game = zerosum.get_game(take_away("Long", 3000, (1,), lambda state: state % 2))
    with pytest.raises(AgentError, match=r"^minimax: the search of Long went deeper than Python allows .*depth=N"):
        make_agent("minimax").search(game, game.initial_state)
    assert make_agent("minimax:depth=4").search(game, game.initial_state).action == 1
    record = zerosum.play_game(game, "first", "first")
    assert len(record.moves) == 3000 and isinstance(GameBug("x"), GameError)


def test_the_arena_s_progress_says_a_game_has_not_ended_every_thousand_plies(tmp_path):
    # a game that never ends plays on to MAX_PLIES (hours under time-limited agents): the progress line says so
    from zerosum.arena.match import long_game, run_arena
    from zerosum.arena.plan import ArenaConfig, iter_plan
    from zerosum.arena.runner import LONG_GAME, LocalRunner
    from zerosum.arena.store import Store

    spec = str(game_file(tmp_path, "never_ends"))
    config = ArenaConfig(game=spec, agents=["random", "random"], games=1, seed=1, openings=[""])
    store = Store(tmp_path / "run.db", create=True)
    store.initialise(config.to_json(), [("random", "random"), ("random#2", "random")], iter_plan(config))
    said: list[str] = []
    with pytest.raises(GameError, match=f"did not end after {MAX_PLIES:,} plies"):
        run_arena(store, config, LocalRunner(1), lambda done, total, text: said.append(text))
    store.close()
    notes = [text.partition(" · ")[2] for text in said if "lasted" in text]
    assert notes == [long_game(spec, 0, plies) for plies in range(LONG_GAME, MAX_PLIES + 1, LONG_GAME)]
    assert notes[0] == (f"game 1 has lasted 1,000 plies (a game from a file or a class that never ends stops the run at "
                        f"{MAX_PLIES:,} plies; --adjudicate draw=N scores a draw after N moves)")
    assert long_game("connect4", 4, 2000) == ("game 5 has lasted 2,000 plies (--adjudicate draw=N scores a draw "
                                              "after N moves)")
