"""An external engine is timed by the clock of the seat it plays (docs/protocol.md, docs/arena.md): the second
player's engine by the second player's time, never by the first's.  Real engine processes: the timing engine
of test_engine_clock_fairness.py, written by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

import zerosum
from zerosum.cli import main
from zerosum.external import Engine, EngineFault

from process_helpers import rows, write_script  # noqa: E402
from test_engine_clock_fairness import TIMED, flag, timed_engine  # noqa: E402


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_script(tmp_path_factory.mktemp("engines") / "timed.py", TIMED)


def test_each_side_to_move_is_timed_by_its_own_seats_clock(timed):
    """Told (first player's time, second's, increment): an engine answering in 0.15 s is in time with 9 s of its
    own left whatever the other side has, and forfeits with 0.1 s of its own left whatever the other side has."""
    game = zerosum.get_game("connect4")
    first_to_move, second_to_move = game.initial_state, game.from_moves("4")
    with Engine(timed_engine(timed, "sleep", 150)) as engine:
        for state, clock in ((second_to_move, (0.1, 9.0, 0.0)), (first_to_move, (9.0, 0.1, 0.0))):
            engine.tell(5.0, clock)
            engine.search(game, state)
            assert engine.used is not None and 0.15 <= engine.used < 1.0
    for state, clock in ((second_to_move, (9.0, 0.1, 0.0)), (first_to_move, (0.1, 9.0, 0.0))):
        with Engine(timed_engine(timed, "sleep", 150)) as late:
            late.tell(5.0, clock)
            with pytest.raises(EngineFault) as caught:
                late.search(game, state)
        assert caught.value.reason == "time forfeit: no bestmove within the 100 ms left on its clock"


def test_in_the_arena_an_engine_in_the_second_seat_is_not_timed_by_the_first_players_clock(timed, tmp_path):
    """"burn" spends its clock down to 0.1 s on its first move, "steady" takes 0.15 s a move: in the first
    seat's four-in-a-row game below (both play the first column with room, X wins at move 19) steady makes at
    most 10 moves, 1.5 s of its 2 s, so every game is played out; timed by burn's 0.1 s it would forfeit."""
    db = tmp_path / "seats.db"
    assert main(["match", "burn", "steady", *flag("burn", timed, "left", 100), *flag("steady", timed, "sleep", 150),
                 "--game", "connect4", "--tc", "2+0", "--games", "2", "--opening-plies", "0", "--jobs", "1",
                 "--out", str(db), "--quiet"]) == 0
    games = rows(db, "SELECT a.label, g.reason, g.forfeit, g.moves FROM games g JOIN plan p USING (idx) "
                     "JOIN agents a ON a.id = p.first ORDER BY g.idx")
    assert sorted(first for first, *_ in games) == ["burn", "steady"]  # steady in the second seat once
    for first, reason, forfeit, moves in games:
        assert forfeit == 0, (first, reason)
        assert reason == "4 in a row" and moves.count('"') == 2 * 19, (first, reason, moves)
