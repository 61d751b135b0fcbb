"""A search that cannot end (minimax, or alpha-beta's plain=1, with no depth or node limit, on a board too large
to search to its end) is said before it starts by every entry, not only `zerosum play` (audit: play_game, match
and the CLI match thought in silence for ever, or until the deadline forfeited them)."""

from __future__ import annotations

import warnings

import pytest

import zerosum
from zerosum.agents.unbounded import SEARCHABLE_CELLS, SearchLimitWarning
from zerosum.cli import main

GAME = "connectx:rows=4,cols=4,k=4"  # 16 cells: more than SEARCHABLE_CELLS
MOVES = "1234123412"  # no line yet, 6 cells left: minimax ends at once from here


def test_play_game_warns_of_a_search_that_cannot_end_and_plays() -> None:
    assert SEARCHABLE_CELLS < 16
    with pytest.warns(SearchLimitWarning) as caught:
        record = zerosum.play_game(GAME, "minimax", "alphabeta:plain=1", moves=MOVES, seed=1)
    texts = [str(w.message) for w in caught]
    assert len(texts) == 2 and all("\n" not in t and "which may take very long on 16 cells (give" in t for t in texts)
    assert "'minimax:depth=4'" in texts[0] and "'alphabeta:plain=1,depth=4'" in texts[1], texts
    assert record.result in ("1-0", "0-1", "1/2-1/2") and not record.forfeit


@pytest.mark.parametrize("agent", ["minimax:depth=3", "alphabeta", "mcts:sims=10", "random"])
def test_no_warning_for_a_search_with_a_budget_or_a_clock(agent: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", SearchLimitWarning)
        zerosum.play_game(GAME, agent, "first", moves=MOVES, seed=1)
        # 9 cells: minimax reaches the end (from two stones in: the empty board's full tree took 3 s a case)
        zerosum.play_game("tictactoe", "minimax", "first", moves="15", seed=1)


def test_match_warns_before_its_first_game() -> None:
    with pytest.warns(SearchLimitWarning, match=r"^minimax has no depth or node limit"):
        zerosum.match("minimax", "first", game=GAME, games=2, openings=[MOVES], jobs=1)


def test_the_cli_match_says_it_on_stderr_before_the_games(tmp_path, capsys) -> None:
    openings = tmp_path / "o.txt"
    openings.write_text(MOVES + "\n")
    assert main(["match", "minimax", "first", "--game", GAME, "--games", "2", "--openings", str(openings),
                 "--quiet", "--out", str(tmp_path / "m.db")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("Warning: minimax has no depth or node limit") and "'minimax:depth=4'" in err[0], err


def test_a_node_limit_an_agent_takes_none_of_is_said_at_the_start(tmp_path, capsys) -> None:
    """Under --nodes 100 the 8 x 8 solver searched a million nodes a move, and nothing said so (audit)."""
    assert main(["match", "mcts:sims=10", "alphabeta:depth=1", "--game", "tictactoe", "--games", "2", "--nodes",
                 "100", "--quiet", "--out", str(tmp_path / "n.db")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == ["Note: mcts:sims=10 takes no node limit: --nodes 100 does not bound its search (its own sims= "
                   "and time= do), so its nodes a move are not held to 100"], err  # alpha-beta takes it
    with pytest.warns(SearchLimitWarning, match=r"^solver takes no node limit: --nodes 100 .*its own time= does"):
        zerosum.match("solver", "first", game="connectx:rows=4,cols=5,k=4", games=2, limits={"nodes": 100},
                      jobs=1)
