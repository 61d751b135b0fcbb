"""A partial analysis says its time as the headline does (three figures), not as a raw float: "not every column
is proven within 1.43 s", where it said "within 1.42583 s"."""

from __future__ import annotations

from zerosum import get_game
from zerosum.analysis import service


def test_a_partial_analysis_note_rounds_its_seconds() -> None:
    game = get_game("connect4")
    found = service(game).analyse(game.position("4"), seconds=0.00123456, book=False)  # far from done in 1 ms
    assert not found.done
    assert found.note == "not every column is proven within 0.00123 s"
