"""``zerosum analyze`` says a long analysis on standard error (after 2 s, then every 10 s), where it printed
nothing for 7.6 s on an 8 x 8 position within reach; a quick one says nothing more."""

from __future__ import annotations

from zerosum import get_game
from zerosum.agents import prepare_words
from zerosum.analysis import service
from zerosum.cli import main


def test_a_long_analysis_is_said_on_standard_error(capsys, monkeypatch) -> None:
    monkeypatch.setattr(prepare_words, "SAY_AFTER", 0.02)  # "long" for the test: a search of a tenth of a second
    with service(get_game("connect4")).borrowed(book=False) as solver:
        solver.reset()  # the process's analysis service forgets what other tests proved: a search, not a look-up
    assert main(["analyze", "411241364423", "--no-book", "--threads", "1"]) == 0
    captured = capsys.readouterr()
    said = [line for line in captured.err.splitlines() if "analysing" in line]
    assert said and said[0].startswith("zerosum: analysing 411241364423 (30 empty cells; Ctrl-C stops it, "
                                       "saying the columns proven): "), captured.err
    assert "best: column" in captured.out and "analysing" not in captured.out  # the data stays clean


def test_a_quick_analysis_says_nothing_more(capsys) -> None:
    assert main(["analyze", "4455"]) == 0  # the opening book: at once
    assert "analysing" not in capsys.readouterr().err
