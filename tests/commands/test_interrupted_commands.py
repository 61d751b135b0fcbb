"""Ctrl-C in ``openings``, ``book`` and ``analyze`` says what was kept and how to carry on, as ``match`` does
(``interrupted: 12 of 40 games stored in results.db; to carry on: ...``), and ``zerosum solve`` reads a line of
standard input no further than a move string can be long (audit: a 50 MB line took 1 GB).

Ctrl-C is a KeyboardInterrupt raised where the work is (the judge, the book's search, the analysis), as
Python raises it when SIGINT arrives; the command line turns it into its one line and exit status 130.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import main

JUDGE = "alphabeta:plain=1,depth=1"


def _interrupting(after: int, evaluate: Any) -> Any:
    calls = [0]

    def judged(state: Any) -> float:
        calls[0] += 1
        if calls[0] > after:
            raise KeyboardInterrupt
        return evaluate(state)

    return judged


def _openings(out: Path) -> list[str]:
    return ["openings", "--game", "tictactoe", "--plies", "2", "--with", JUDGE, "--max-score", "1000", "-o", str(out)]


def test_interrupted_openings_keep_each_judged_line_and_carry_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import zerosum.arena.openings as openings

    whole = tmp_path / "whole.txt"
    assert main(_openings(whole)) == 0  # the run never interrupted
    expected = whole.read_text()
    capsys.readouterr()

    real = openings.agent_evaluator
    monkeypatch.setattr(openings, "agent_evaluator", lambda game, spec: _interrupting(3, real(game, spec)))
    out = tmp_path / "op.txt"
    assert main(_openings(out)) == 130
    line = capsys.readouterr().err.strip()
    partial = Path(f"{out}.partial")
    assert line.startswith("interrupted: 3 of ") and f"3 openings kept in {partial}; to carry on: " in line, line
    command = line.split("to carry on: ", 1)[1]
    assert shlex.split(command) == ["zerosum", *_openings(out)]
    assert not out.exists()
    kept = partial.read_text().splitlines()
    assert kept[:2] == expected.splitlines()[:2] and kept[2:] == expected.splitlines()[2:5]  # whole lines

    monkeypatch.setattr(openings, "agent_evaluator", lambda game, spec: _interrupting(2, real(game, spec)))
    assert main(_openings(out)) == 130  # carried on from the three: two more judged
    assert "interrupted: 5 of " in capsys.readouterr().err

    monkeypatch.setattr(openings, "agent_evaluator", real)
    assert main(shlex.split(command)[1:]) == 0
    assert out.read_text() == expected and not partial.exists()


def test_an_openings_checkpoint_of_other_options_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "op.txt"
    Path(f"{out}.partial").write_text("# zerosum openings --game connect4 --plies 4\n")
    assert main(_openings(out)) == 2
    assert "is not this command's" in capsys.readouterr().err and not out.exists()


class _Searcher:
    """What ``zerosum.solver.book.generate`` needs of a solver, scoring every position 0, Ctrl-C after N."""

    def __init__(self, after: int) -> None:
        from zerosum.games import get_game

        self.game, self.book, self.after, self.calls = get_game("connect4"), None, after, 0
        self.table = [0] * 1024

    def solve_bits(self, current: int, mask: int) -> int:
        self.calls += 1
        if self.calls > self.after:
            raise KeyboardInterrupt
        return 0


def test_interrupted_book_says_what_its_checkpoint_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import zerosum.commands.solver as commands

    monkeypatch.setattr(commands, "solver_from", lambda args, book=None: _Searcher(3))
    out = tmp_path / "b.zsb"
    argv = ["book", "--game", "connect4", "--depth", "2", "-o", str(out), "--tt-log-size", "20", "--quiet"]
    assert main(argv) == 130
    line = capsys.readouterr().err.strip()
    assert line.startswith(f"interrupted: 3 positions of the book kept in {out}.partial; to carry on: "), line
    assert shlex.split(line.split("to carry on: ", 1)[1]) == ["zerosum", *argv]
    searcher = _Searcher(100)
    monkeypatch.setattr(commands, "solver_from", lambda args, book=None: searcher)
    assert main(argv) == 0 and out.exists()
    assert searcher.calls == 22  # the 25 positions of ply 2 (mirror images once): 3 kept, 22 searched


@pytest.mark.parametrize("proven, said", [
    (None, "interrupted: no column was proven (stopped after "),
    ([None, 3, None, -2, 0, None, None],
     "interrupted: proven before the stop: column 2 +3, column 4 -2, column 5 0 (stopped after "),
])
def test_interrupted_analyze_says_the_columns_proven(proven: list[int | None] | None, said: str,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from zerosum.analysis.engine import Service
    from zerosum.solver.solver import Interrupted

    stop = KeyboardInterrupt() if proven is None else Interrupted(proven)

    def interrupted(self: Any, state: Any, **options: Any) -> Any:
        raise stop

    monkeypatch.setattr(Service, "analyse", interrupted)
    assert main(["analyze", "4", "--no-book", "--tt-log-size", "12", "--threads", "1"]) == 130
    captured = capsys.readouterr()
    assert said in captured.err and "--weak" in captured.err
    assert "score:" not in captured.out
    if proven is not None:  # --weak: its values are signs
        stop = Interrupted([None if s is None else (s > 0) - (s < 0) for s in proven])
    assert main(["analyze", "4", "--weak", "--no-book", "--tt-log-size", "12", "--threads", "1"]) == 130
    assert said.replace("+3", "a win").replace("-2", "a loss").replace("5 0", "5 a draw") in capsys.readouterr().err


@pytest.mark.parametrize("threads", [1, 2])
def test_an_interrupted_solver_analysis_keeps_the_columns_it_proved(threads: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the calling thread after it proved two columns: those two are the ones it would have given."""
    import threading

    from zerosum.solver.solver import Interrupted, Solver

    position = "4455"
    truth = Solver(tt_size=1 << 16, book=False).analyze(position)
    solver = Solver(tt_size=1 << 16, book=False)
    real, answered = Solver.solve_on, []

    def solve_on(self: Solver, *args: Any) -> int:
        if threading.current_thread() is threading.main_thread() and len(answered) == 2:
            raise KeyboardInterrupt
        score = real(self, *args)
        if threading.current_thread() is threading.main_thread():
            answered.append(score)
        return score

    monkeypatch.setattr(Solver, "solve_on", solve_on)
    with pytest.raises(Interrupted) as stop:
        solver.analyze(position, threads=threads)
    kept = stop.value.scores
    assert 2 <= sum(s is not None for s in kept) < 7 and all(s in (None, t) for s, t in zip(kept, truth)), kept


class _Endless:
    """Standard input holding one line of ``size`` 4s and then ``rest``; reading a line without a limit fails
    the test (that is what took 1 GB), and so does asking for more characters than a line's allowance."""

    def __init__(self, size: int, rest: str) -> None:
        self.left, self.rest, self.asked = size, rest, 0

    def readline(self, limit: int = -1) -> str:
        assert 0 < limit <= 1 << 16, f"a line read without a bound ({limit})"
        self.asked = max(self.asked, limit)
        if self.left:
            take = min(limit, self.left)
            self.left -= take
            return "4" * take
        line, newline, self.rest = self.rest.partition("\n")
        return line + newline

    def __iter__(self) -> Any:
        raise AssertionError("standard input read a line at a time, each line whole")


def test_solve_reads_a_huge_line_in_bounded_pieces(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    stream = _Endless(5_000_000, "\n4\n44 " + "x" * 100_000 + "\n")
    monkeypatch.setattr(sys, "stdin", stream)
    assert main(["solve", "--tt-log-size", "12"]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("zerosum solve: line 1: ")
    assert "4,000 characters" in captured.err
    assert captured.out.split("\n") == ["4 -1", "44 1", ""]  # the lines after it, a long ignored tail too
