"""A player that changes the course game's state it was given (a trial move not taken back: the classic
homework bug on a game whose states are lists and dicts) forfeits its own game, in one line naming it.
Before, the change reached the game's own state -- the start, which every game of a run shares -- so the
next ``result`` blamed the game (``GameBug``) and the whole run stopped: one student's bug ended every
other student's games, with a false accusation of the game's ``result``."""

from __future__ import annotations

import textwrap

import pytest

import zerosum
from zerosum.arena.store import Store
from zerosum.cli import main

GAME = textwrap.dedent('''\
    """Three piles; take one stone or more from one pile; who takes the last stone wins (a dict state)."""
    import copy


    class Piles:
        def __init__(self):
            self.initial = {"piles": [2, 2, 3], "to_move": "A"}

        def to_move(self, state):
            return state["to_move"]

        def actions(self, state):
            return [(i, n) for i, p in enumerate(state["piles"]) for n in range(1, p + 1)]

        def result(self, state, move):
            new = copy.deepcopy(state)
            new["piles"][move[0]] -= move[1]
            new["to_move"] = "B" if state["to_move"] == "A" else "A"
            return new

        def is_terminal(self, state):
            return not any(state["piles"])

        def utility(self, state, player):
            return -1 if state["to_move"] == player else 1  # who is to move at the end has lost
    ''')

PLAYERS = textwrap.dedent('''\
    def sloppy(game, state):
        """Tries the first move on the board it was given and forgets to take it back."""
        move = game.actions(state)[0]
        state["piles"][move[0]] -= move[1]
        return move


    def sloppy_search(game, state):
        """Empties a pile of the board it was given, then searches on from it (its own search fails)."""
        state["piles"][0] = 0
        return game.actions(game.result(state, game.actions(state)[0]))[0]


    def first(game, state):
        return game.actions(state)[0]
    ''')


@pytest.fixture
def files(tmp_path, monkeypatch):
    (tmp_path / "piles.py").write_text(GAME)
    (tmp_path / "players.py").write_text(PLAYERS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_in_a_tournament_only_the_player_that_changed_the_state_forfeits(files, capsys) -> None:
    assert main(["tournament", "players.py:sloppy", "players.py:first", "random", "--game", "piles.py:Piles",
                 "--games", "2", "--opening-plies", "0", "--jobs", "1", "-o", "t.db", "--quiet"]) == 0
    with Store(files / "t.db") as store:
        games, labels = list(store.games()), [label for label, _ in store.agents()]
        seats = {p.idx: (labels[p.first], labels[p.second]) for p in store.plan()}
    assert len(games) == 6
    for g in games:
        sloppy = "players.py:sloppy" in seats[g.idx]
        assert g.forfeit == sloppy, (seats[g.idx], g.reason)
        if sloppy:  # it loses, in the sloppy player's words, whoever else played
            assert g.result == ("0-1" if seats[g.idx][0] == "players.py:sloppy" else "1-0")
            assert g.reason.startswith("changed the state it was given: players.py:sloppy(game, state) left it "
                                       "changed (a trial move not taken back?)"), g.reason
            assert "copy.deepcopy(state)" in g.reason
    assert main(["report", "t.db", "--no-plots"]) == 0
    assert "changed the state it was given" in capsys.readouterr().out  # the Forfeits table


def test_a_player_whose_own_search_then_fails_on_the_changed_state_forfeits(files) -> None:
    record = zerosum.play_game("piles.py:Piles", "players.py:sloppy_search", "random", seed=1)
    assert record.forfeit and record.winner == 2 and record.reason.startswith("changed the state it was given")
    again = zerosum.play_game("piles.py:Piles", "random", "players.py:first", seed=1)  # the start is intact
    assert not again.forfeit and again.moves


def test_zerosum_play_refuses_the_move_in_one_line(files, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", open("/dev/null"))
    assert main(["play", "--game", "piles.py:Piles", "--first", "players.py:sloppy", "--second", "random"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("zerosum play: error: players.py:sloppy: changed the state it was given (a trial "
                              "move not taken back?)"), err
