"""A search that cannot end, called directly (``agent.search``, ``agent(game, state)``, ``zerosum.trace``), warns
once with :class:`SearchLimitWarning` before it searches, as ``play_game``, ``match`` and the commands say it
(audit: in a notebook, where students call ``search`` most, plain minimax on Connect Four thought in silence
for ever).  Said once: not on every move, not again where ``play_game``, ``match`` or ``zerosum play`` said
it, and never from the pool's worker processes (their owner said it)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from typing import Any

import pytest

import zerosum
from zerosum.agents.unbounded import SearchLimitWarning, unbounded

GAME = "connectx:rows=4,cols=4,k=4"  # 16 cells: more than SEARCHABLE_CELLS
MOVES = "1234123412"  # no line yet, 6 cells left: minimax ends at once from here
UNBOUNDED = ["minimax", "alphabeta:plain=1"]
LINE = "has no depth or node limit, so it searches to the end of the game"


def _line(game: Any, agent: Any) -> str:
    """The words of ``unbounded()``, as the warning carries them."""
    text = unbounded(game, agent)
    assert text, agent.spec
    return text.removeprefix("Warning: ")


class _Stop(Exception):
    pass


class _FirstNode:
    """A tracer that stops the search at its first node, noting what had been warned by then."""

    def __init__(self, caught: list[Any]) -> None:
        self.caught, self.seen = caught, None

    def enter(self, *args: Any) -> None:
        self.seen = [str(w.message) for w in self.caught]
        raise _Stop

    def leave(self, *args: Any) -> None:
        pass


@pytest.mark.parametrize("spec", UNBOUNDED)
def test_a_direct_search_of_connect_four_warns_before_it_searches(spec: str) -> None:
    game = zerosum.get_game("connect4")
    agent = zerosum.make_agent(spec)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tracer = _FirstNode(caught)
        with pytest.raises(_Stop):  # the old code entered the root (and never came back) in silence
            agent.search(game, game.initial_state, tracer=tracer)
    assert tracer.seen == [_line(game, agent)], tracer.seen  # said before the first node: the same words
    assert "42 cells" in tracer.seen[0] and f"{spec}{',' if ':' in spec else ':'}depth=4" in tracer.seen[0]
    assert caught[0].category is SearchLimitWarning and caught[0].filename == __file__  # the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error", SearchLimitWarning)
        with pytest.raises(SearchLimitWarning, match=LINE):  # warnings as errors: raised, never a search for ever
            zerosum.make_agent(spec)(game, game.initial_state)


def test_only_the_search_that_cannot_end_warns_and_once_a_move_loop() -> None:
    """Every entry of a search, many moves: one warning per unbounded agent; none with a limit or a clock,
    nor on a board searched to its end while a person waits (Tic-Tac-Toe's 9 cells)."""
    game = zerosum.get_game(GAME)
    ttt = zerosum.get_game("tictactoe")
    small = ttt.states_of(ttt.parse_moves("1 5 9 2"))[-1]
    othello = zerosum.get_game("othello:n=4")  # 16 cells: past the rule's 12, so it warns too
    bounded = ["minimax:depth=2", "minimax:nodes=100000", "alphabeta", "alphabeta:time=0.2", "alphabeta:plain=1,depth=2",
               "alphabeta:plain=1,nodes=1000", "mcts:sims=20", "random"]
    agents = {spec: zerosum.make_agent(spec) for spec in [*UNBOUNDED, *bounded]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for spec, agent in agents.items():
            state = game.from_moves(MOVES)
            while not game.is_terminal(state):  # a game's worth of moves: said once, not on each
                state = game.result(state, agent(game, state))
            if hasattr(agent, "search"):
                agent.search(game, MOVES)
                agent.search(game, list(game.parse_moves(MOVES)))
            zerosum.make_agent(spec)(ttt, small)
        zerosum.trace("minimax", game, MOVES)  # a fresh agent: said for it too
        with pytest.raises(_Stop):
            zerosum.make_agent("minimax").search(othello, othello.initial_state, tracer=_FirstNode([]))
    texts = [str(w.message) for w in caught]
    assert all(w.category is SearchLimitWarning for w in caught)
    expected = [_line(game, agents[s]) for s in UNBOUNDED] + [_line(game, agents["minimax"]),
                                                               _line(othello, agents["minimax"])]
    assert texts == expected, texts
    assert "16 cells" in texts[-1]


def test_play_game_says_it_once_and_its_agents_do_not_repeat_it() -> None:
    game = zerosum.get_game(GAME)
    first, second = zerosum.make_agent("minimax"), zerosum.make_agent("alphabeta:plain=1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        record = zerosum.play_game(game, first, second, moves=MOVES, seed=1)
        said = len(caught)
        first.search(game, MOVES)  # play_game said it of these two: not again
        second(game, game.from_moves(MOVES))
        fresh = zerosum.make_agent("minimax")
        fresh.search(game, MOVES)  # a new agent has not been told: said
    assert not record.forfeit and said == 2
    assert [str(w.message) for w in caught] == [_line(game, first), _line(game, second), _line(game, fresh)]


def test_match_in_this_process_says_it_once_and_its_agents_do_not_repeat_it() -> None:
    game = zerosum.get_game(GAME)
    mine = zerosum.make_agent("minimax")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = zerosum.match(mine, "alphabeta:plain=1", game=GAME, games=4, openings=[MOVES], jobs=1)
        said = [str(w.message) for w in caught]
        mine.search(game, MOVES)  # match said it of this object: not again
        zerosum.make_agent("alphabeta:plain=1").search(game, MOVES)  # a new one: said
    assert len(result.games) == 4
    plain = zerosum.make_agent("alphabeta:plain=1")
    assert said == [_line(game, plain), _line(game, mine)], said  # the spec's, then the object's: once, before the games
    assert [str(w.message) for w in caught] == [*said, _line(game, plain)]


def _python(code: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          input=stdin, timeout=300)


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return _python("from zerosum.cli import entry; entry()", *args, stdin=stdin)


def test_a_script_with_pythons_own_warning_filters_prints_it_once() -> None:
    done = _python(f"""
        import zerosum
        game = zerosum.get_game({GAME!r})
        agent = zerosum.make_agent("minimax")
        state = game.from_moves({MOVES!r})
        while not game.is_terminal(state):
            state = game.result(state, agent(game, state))
        print("played", game.to_moves(state))
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("played ")
    lines = [line for line in done.stderr.splitlines() if "SearchLimitWarning" in line]
    assert len(lines) == 1 and LINE in lines[0] and "'minimax:depth=4'" in lines[0], done.stderr


def test_zerosum_play_says_it_once_each_not_beside_a_python_warning() -> None:
    done = _cli("play", "--game", GAME, "--moves", MOVES, "--first", "minimax", "--second", "alphabeta:plain=1",
                "--log")
    assert done.returncode == 0, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if LINE in line]
    assert len(lines) == 2, lines
    assert "--first minimax:depth=4" in lines[0] and "--second alphabeta:plain=1,depth=4" in lines[1]
    assert "SearchLimitWarning" not in done.stderr and "wins" in done.stdout


def test_commands_that_bound_the_search_their_own_way_print_no_python_warning() -> None:
    """explain's trace stops at --max-nodes (it said Python's two lines, 'zerosum:8: SearchLimitWarning: ...
    sys.exit(entry())', before its own error); the engine's `go` without limits searches until `stop`."""
    done = _cli("explain", "--game", "connect4", "--agent", "minimax", "--max-nodes", "1000", "")
    assert done.returncode == 2 and "more than 1,000 nodes" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "SearchLimitWarning" not in done.stderr, done.stderr


@pytest.mark.parametrize("command", [["match", "minimax", "alphabeta:plain=1"],
                                     ["tournament", "minimax", "alphabeta:plain=1", "first"]])
def test_the_arena_with_two_workers_says_it_once(tmp_path: Any, command: list[str]) -> None:
    openings = tmp_path / "o.txt"
    openings.write_text(MOVES + "\n")
    done = _cli(*command, "--game", GAME, "--games", "2", "--openings", str(openings), "--jobs", "2", "--quiet",
                "--out", str(tmp_path / "run.db"))
    assert done.returncode == 0, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if LINE in line]
    assert [line.split()[1] for line in lines] == ["minimax", "alphabeta:plain=1"], done.stderr
    assert "SearchLimitWarning" not in done.stderr


def test_the_pools_workers_leave_the_warning_to_their_owner() -> None:
    """Two workers that show their standard error (``quiet=False``: the server's) run unbounded searches and
    warn outright: nothing reaches the screen; ``zerosum.match`` with two workers says it once, here."""
    done = _python(f"""
        import warnings
        from concurrent.futures import ThreadPoolExecutor

        import zerosum
        from zerosum.agents.unbounded import SearchLimitWarning
        from zerosum.pool import Job, Pool, choose_move

        if __name__ == "__main__":
            game = zerosum.get_game({GAME!r})
            job = Job.checked(game, game.parse_moves({MOVES!r}), "minimax")
            with Pool(2, wait=None, quiet=False) as pool:
                with ThreadPoolExecutor(2) as both:
                    moves = list(both.map(lambda _: pool.run(choose_move, (job,)), range(4)))
                    list(both.map(lambda _: pool.run(warnings.warn, ("said in a worker", SearchLimitWarning)),
                                  range(4)))
                print("workers", len(pool.pids), "moves", len(moves))
            result = zerosum.match("minimax", "first", game={GAME!r}, games=2, openings=[{MOVES!r}], jobs=2)
            print("games", len(result.games))
    """)
    assert done.returncode == 0, done.stderr
    assert "workers 2 moves 4" in done.stdout and "games 2" in done.stdout, done.stdout
    assert "said in a worker" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if "SearchLimitWarning" in line]
    assert len(lines) == 1 and lines[0].split("SearchLimitWarning: ")[1].startswith("minimax " + LINE[:8]), done.stderr
