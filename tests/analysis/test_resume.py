"""A progressive analysis is stoppable and resumable: its answer's ``progress`` is plain data that another call
continues -- in the same service (its kept run), in another one (another worker: a run rebuilt from the data),
in another process -- and a bad progress is one line, never a false proof."""

from __future__ import annotations

import functools
import itertools
import json
import subprocess
import sys
import threading

import pytest

from zerosum import get_game
from zerosum.analysis import Service, parse, service, token
from zerosum.errors import GameError, UsageError

pytest.importorskip("zerosum.solver.solver")

GAME = get_game("connect4")
MOVES = "4444433321"  # ply 10, past the book: proven slice by slice
STATE = GAME.from_moves(MOVES)


def ticking() -> object:
    ticks = itertools.count(0, 1)
    return lambda: float(next(ticks))  # every look at the clock: a second later (a slice: about one search)


@functools.cache
def truth() -> list[int | None]:
    from zerosum.solver.solver import Solver

    return Solver(GAME, tt_size=1 << 20).analyze(STATE)


def slices(engines: list[Service], budget: float = 1.5, limit: int = 500) -> list:  # type: ignore[type-arg]
    """Answers of one analysis asked slice by slice, each slice of the engines in turn, each given the last
    answer's progress (as text, as the page carries it)."""
    answers: list = []  # type: ignore[type-arg]
    for n in range(limit):
        resume = parse(token(answers[-1].progress)) if answers else None
        answers.append(engines[n % len(engines)].analyse(STATE, seconds=budget, resume=resume, clock=ticking(),
                                                         threads=1))
        if answers[-1].done:
            return answers
    raise AssertionError("not done")


def test_slices_of_one_service_fill_in_win_draw_loss_then_the_exact_scores() -> None:
    answers = slices([Service(GAME)])
    final = answers[-1]
    assert final.done and final.exact and [final.scores.get(c) for c in range(7)] == truth()
    assert final.progress is None and not answers[0].done and len(answers) > 2
    assert any(a.classes for a in answers), "win/draw/loss shows before the exact scores"
    for a in answers[:-1]:  # nothing is ever a guess: a class agrees with the exact score to come
        assert a.progress is not None and not a.exact
        for c, sign in a.classes.items():
            assert a.kind(c) == "class" and sign == (truth()[c] > 0) - (truth()[c] < 0)  # type: ignore[operator]
    assert [a.nodes for a in answers] == sorted(a.nodes for a in answers)  # the totals only grow


def test_a_resumed_analysis_goes_on_whichever_service_answers() -> None:
    one = slices([Service(GAME)])
    two = slices([Service(GAME), Service(GAME)])  # two workers in turn, neither seeing the other's table
    assert [two[-1].scores.get(c) for c in range(7)] == truth() == [one[-1].scores.get(c) for c in range(7)]
    for before, after in zip(two, two[1:]):  # what one proved, the other never proves again
        assert set(before.exact_moves) <= set(after.exact_moves) and set(before.classes) <= set(after.classes) | set(
            after.exact_moves)


def test_a_resumed_analysis_goes_on_in_another_process() -> None:
    first = Service(GAME).analyse(STATE, seconds=1.5, clock=ticking(), threads=1)
    assert not first.done
    code = ("import sys, json; from zerosum import get_game; from zerosum.analysis import service, parse; "
            "g = get_game('connect4'); s = g.from_moves(sys.argv[1]); "
            "f = service(g).analyse(s, seconds=600, resume=parse(sys.argv[2])); "
            "print(json.dumps([f.done, f.nodes, [f.scores.get(c) for c in range(7)]]))")
    out = subprocess.run([sys.executable, "-c", code, MOVES, token(first.progress)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    done, nodes, scores = json.loads(out.stdout)
    assert done and scores == truth() and nodes > first.nodes


def test_the_same_service_goes_on_with_its_kept_run_without_a_progress() -> None:
    engine = Service(GAME)
    first = engine.analyse(STATE, seconds=1.5, clock=ticking(), threads=1)
    second = engine.analyse(STATE, seconds=1.5, clock=ticking(), threads=1)  # as a hint asked again
    assert len(second.exact_moves) + len(second.classes) >= len(first.exact_moves)
    assert first.exact_moves <= second.exact_moves  # nothing proven is lost (nor searched again)


def test_a_set_stop_ends_a_slice_and_keeps_what_was_proven() -> None:
    stop = threading.Event()
    seen: list = []  # type: ignore[type-arg]

    def update(found: object) -> None:
        seen.append(found)
        stop.set()  # the first result is enough

    engine = Service(GAME)
    found = engine.analyse(STATE, stop=stop, on_update=update, threads=1)
    assert seen and not found.done and found.progress is not None
    rest = engine.analyse(STATE, resume=found.progress, seconds=600)
    assert rest.done and [rest.scores.get(c) for c in range(7)] == truth()


@pytest.mark.parametrize("change", [
    lambda p: p.update(position=[1, 2]),  # another position
    lambda p: p.update(exact=[[3, 99]]),  # a score no move can have
    lambda p: p.update(exact=[[3, 1], [3, 2]]),  # twice
    lambda p: p.update(wdl=[[9, 1]]),  # a column that is not there
    lambda p: p.update(wdl=[[3, 1]], exact=[[3, -2]]),  # a class and a score that disagree
    lambda p: p.update(budgets=[["exact", 3, 5]]),  # a budget below the smallest slice
    lambda p: p.update(budgets=[["guess", 3, 1 << 20]]),
    lambda p: p.update(nodes=-1),
    lambda p: p.update(seconds=float("nan")),
    lambda p: p.update(wdl="everything wins"),
])
def test_a_bad_progress_is_one_line_and_proves_nothing(change) -> None:  # type: ignore[no-untyped-def]
    first = Service(GAME).analyse(STATE, seconds=1.5, clock=ticking(), threads=1)
    progress = json.loads(token(first.progress))  # type: ignore[arg-type]
    change(progress)
    with pytest.raises(UsageError) as caught:
        Service(GAME).analyse(STATE, seconds=1.5, resume=progress, clock=ticking(), threads=1)
    assert "\n" not in str(caught.value) and "again without it" in str(caught.value)


@pytest.mark.parametrize("text", ["{", "x" * 9000, "[1, 2]", 5])
def test_progress_text_that_is_no_progress_is_one_line(text) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(GameError) as caught:
        service(GAME).analyse(STATE, seconds=1, resume=parse(text))
    assert "\n" not in str(caught.value)


def test_the_page_asks_each_slice_with_the_last_answers_resume(monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.ui import position
    from zerosum.ui import service as page_service

    monkeypatch.setattr(page_service, "CLOCK", ticking())  # the slice is over before it searches
    game, actions, state = position.check_position("connect4", MOVES)
    reply = page_service.analyze_job(game, actions, state, 1.0, True, 0.05)
    assert reply["done"] is False and isinstance(reply["resume"], str)
    other = Service(GAME)  # another worker
    found = other.analyse(state, seconds=600, resume=parse(reply["resume"]))
    assert found.done and [found.scores.get(c) for c in range(7)] == truth()
    panels = (page_service.__file__.rsplit("/", 1)[0]) + "/static/panels.js"
    assert "params.resume = reply.resume" in open(panels).read()
