"""Where nothing is redrawn (``zerosum play`` in a pipe, ``--log``), a long search is said on standard error
(``zerosum: analysing: 2.0 s``, again every 10 s), where a hint on 8 x 8 was 8 s of silence before its
table; the table itself is printed once, as before."""

from __future__ import annotations

import io

from zerosum.agents import prepare_words
from zerosum.analysis import service
from zerosum.games import get_game
from zerosum.cli import main


def test_a_piped_hint_that_takes_long_is_said_on_standard_error(capsys, monkeypatch) -> None:
    monkeypatch.setattr(prepare_words, "SAY_AFTER", 0.02)  # "long" for the test: a search of a tenth of a second
    monkeypatch.setattr("sys.stdin", io.StringIO("h\nq\n"))
    with service(get_game("connect4")).borrowed() as solver:
        solver.reset()  # the process's analysis service forgets what other tests proved: a search, not a look-up
    main(["play", "--moves", "411241364423", "--solver-time", "5"])
    captured = capsys.readouterr()
    said = [line for line in captured.err.splitlines() if line.startswith("zerosum: ") and " s" in line]
    assert said, captured.err
    assert not any(line.startswith("zerosum: ") for line in captured.out.splitlines())  # the game's text is clean
