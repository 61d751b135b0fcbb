"""A service's kept run is shared (an analysis asked without ``resume`` goes on with it), so a ``resume`` goes on
in it only when that run handed it out; any other goes on in a run of its own, which nobody else meets -- a
forged progress can fool the one who sent it, never another caller.  And an analysis given alpha-beta's
``time`` (a person waits) of a position out of the solver's reach is alpha-beta's at once, while an untimed
one still proves it."""

from __future__ import annotations

import itertools
import json

import pytest

from zerosum import get_game
from zerosum.analysis import Service, parse, token

pytest.importorskip("zerosum.solver.solver")

GAME = get_game("connect4")
MOVES = "4444433321"  # ply 10, past the book: proven slice by slice
STATE = GAME.from_moves(MOVES)


def ticking() -> object:
    ticks = itertools.count(0, 1)
    return lambda: float(next(ticks))  # every look at the clock: a second later (a slice: about one search)


def truth() -> list[int | None]:
    from zerosum.solver.solver import Solver

    return Solver(GAME, tt_size=1 << 20).analyze(STATE)


def forged(progress: dict) -> tuple[dict, int, int]:  # type: ignore[type-arg]
    """``progress`` claiming a false exact score for a column it has not proven: (forged, column, score)."""
    known = {c for c, _ in progress["exact"]} | {c for c, _ in progress["wdl"]}
    column = next(c for c in (3, 2, 4, 1, 5, 0, 6) if c not in known and truth()[c] is not None)
    score = 16 if truth()[column] != 16 else 15  # a win with the very next stone (ply 10: at most 16)
    return dict(progress, exact=sorted([*progress["exact"], [column, score]])), column, score


def test_a_forged_resume_fools_its_sender_only_never_the_kept_run() -> None:
    engine = Service(GAME)
    first = engine.analyse(STATE, seconds=1.5, clock=ticking(), threads=1)  # the kept run
    assert not first.done
    fake, column, score = forged(json.loads(token(first.progress)))  # type: ignore[arg-type]
    mine = engine.analyse(STATE, seconds=1.5, resume=fake, clock=ticking(), threads=1)
    assert mine.scores.get(column) == score  # the sender's own run takes in what it sent (the library trusts it)
    rest = engine.analyse(STATE, seconds=600, threads=1)  # another caller, no resume: the kept run
    assert rest.done and [rest.scores.get(c) for c in range(7)] == truth()


def test_a_services_own_progress_goes_on_with_the_run_it_kept() -> None:
    from zerosum.analysis.progress import digest

    engine = Service(GAME)
    answers = [engine.analyse(STATE, seconds=1.5, clock=ticking(), threads=1)]
    run = next(iter(engine._runs.values())).run
    for _ in range(3):
        answers.append(engine.analyse(STATE, seconds=1.5, resume=parse(token(answers[-1].progress)), clock=ticking(),
                                      threads=1))
        if answers[-1].done:
            break
        assert list(engine._runs) == [(STATE.current, STATE.mask)]  # one run: the shared one, no other made
        assert next(iter(engine._runs.values())).run is run
    assert digest(parse(token(answers[0].progress))) == digest(answers[0].progress)  # as text and back: the same


def test_a_progress_from_elsewhere_goes_on_in_a_run_of_its_own_and_its_answers_with_it() -> None:
    other, engine = Service(GAME), Service(GAME)  # two workers
    elsewhere = other.analyse(STATE, seconds=3.5, clock=ticking(), threads=1)  # not what this one hands out
    engine.analyse(STATE, seconds=1.5, clock=ticking(), threads=1)  # this one's own kept run of the position
    shared = engine._runs[(STATE.current, STATE.mask)].run
    goes_on = engine.analyse(STATE, seconds=1.5, resume=parse(token(elsewhere.progress)), clock=ticking(), threads=1)
    assert not goes_on.done and len(engine._runs) == 2 and engine._runs[(STATE.current, STATE.mask)].run is shared
    own = next(k for k in engine._runs if len(k) == 3)
    mine = engine._runs[own].run
    engine.analyse(STATE, seconds=1.5, resume=parse(token(goes_on.progress)), clock=ticking(), threads=1)
    assert engine._runs[own].run is mine and len(engine._runs) == 2  # its next slice: the same run of its own


def test_a_waiting_analysis_out_of_reach_is_alpha_betas_at_once_an_untimed_one_proves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    wide = get_game("connect4-8x8")
    state = wide.from_moves("45")  # 62 empty cells: hours of proof
    engine = Service(wide)
    assert engine.solves and not engine.reaches(state)
    proofs: list[object] = []
    monkeypatch.setattr(Service, "_solved", lambda self, *args: proofs.append(args) or "the proof")
    found = engine.analyse(state, time=0.1)  # the page's analysis and its "why?" give alpha-beta a time
    assert not proofs and found.engine == "alphabeta:time=0.1" and not found.exact
    assert found.note == engine.beyond_reach()
    assert engine.analyse(state) == "the proof" and len(proofs) == 1  # untimed (zerosum analyze): never cut short
