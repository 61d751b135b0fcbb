"""The page's study board: a game's review, slice by slice (``GET /api/review``), and the best line from a
position (``GET /api/line``), both run in an engine worker.

:func:`review_job` judges the moves of a line with :func:`zerosum.reviewer.judge.marks` (the solver's exact
values where it takes the game, else alpha-beta's estimates) for about ``budget`` seconds, and answers what it
judged: each move's mark (``class``, its PGN suffix ``mark``, ``words``: the verdict, ``exact`` and
``proven``: :attr:`zerosum.reviewer.judge.Mark.proven`, as a player's first decisive error must be) and each
position's value from the first player's view for the evaluation graph and bar (``bar`` in -1..1: a proven
win +1, a loss -1, a draw 0, an estimate ``tanh(value / ESTIMATE_SCALE)``; ``result`` win/draw/loss where
exact), its words naming the players as the page does (:func:`zerosum.ui.position.player_name`).
``resume`` is how many moves are judged so far (plain text: any worker goes on from there, its solver table
warm or not).  :func:`line_job` is the best play from a position for at most :data:`LINE` plies, in words.
"""

from __future__ import annotations

import math
from time import perf_counter as _perf_counter
from typing import Any, Callable

from ..core.words import short_words, value_words
from ..errors import GameError, UsageError
from ..game import Game
from ..spec import real
from ..values import is_proven, loss_value, to_child, to_parent
from .position import player_name

__all__ = ["review_job", "line_job", "check_budget", "check_resume", "export_record", "ESTIMATE_SCALE", "LINE",
           "MAX_EXPORT_LINES", "MAX_EXPORT_MARKS", "PAGE_ANNOTATOR", "SOLVER_TIME"]

#: an estimate of this size fills about three quarters of the bar (tanh(1) = 0.76)
ESTIMATE_SCALE = 200.0
#: plies of the best line the page shows
LINE = 8
#: the solver's seconds a position in a page's review, on boards without an opening book (then alpha-beta)
SOLVER_TIME = 2.0


def check_budget(text: str | None, lowest: float, highest: float) -> float:
    """The seconds of a slice (``budget=``): ``lowest`` up to ``highest`` (the engine time); none: at most 1."""
    if text is None:
        return min(1.0, highest)
    try:
        budget = real(text)
    except ValueError:
        budget = -1.0
    if not lowest <= budget <= highest:
        raise UsageError(f"budget={text[:20]!r} is not a number of seconds {lowest:g}..{highest:g}")
    return budget


def check_resume(text: str | None, plies: int) -> int:
    """The moves judged already, from a ``resume`` value (none: 0); a UsageError for anything else."""
    if text is None or text == "":
        return 0
    if not (text.isascii() and text.isdigit()) or int(text) > plies:
        raise UsageError(f"resume={text[:20]!r} is not a number of moves judged 0..{plies} (send the last "
                         "answer's resume)")
    return int(text)


def _position(game: Game[Any, Any], ply: int, side: int, value: float, exact: bool,
              best: str | None) -> dict[str, Any]:
    """A position's figures for the page: ``value`` is from ``side``'s view (the side to move)."""
    first = value if side == 1 else -value
    proven = exact or is_proven(first)
    result = None
    if proven:
        result = "win" if first > 0 else "loss" if first < 0 else "draw"
    bar = (1.0 if first > 0 else -1.0 if first < 0 else 0.0) if proven else math.tanh(first / ESTIMATE_SCALE)
    words = f"{player_name(game, side)} to move: {value_words(value, exact)}"
    return {"ply": ply, "side": side, "kind": "exact" if proven else "estimate", "result": result,
            "bar": round(bar, 4), "words": words, "short": short_words(first, exact), "best": best, "over": False}


def _finished(game: Game[Any, Any], ply: int, state: Any) -> dict[str, Any]:
    """A finished game's last position: no one is to move (``side`` None), its result is the game's."""
    outcome = game.outcome(state)
    winner = None if outcome is None else outcome.winner
    result = "draw" if winner is None else "win" if winner == 1 else "loss"
    said = "drawn" if winner is None else f"{player_name(game, winner)} won"
    return {"ply": ply, "side": None, "kind": "exact", "result": result,
            "bar": {"win": 1.0, "loss": -1.0, "draw": 0.0}[result], "words": f"game over: {said}",
            "short": "draw" if winner is None else said, "best": None, "over": True}


def review_job(game: Game[Any, Any], actions: list[Any], budget: float, resume: int = 0,
               solver_time: float = SOLVER_TIME, clock: Callable[[], float] = _perf_counter) -> dict[str, Any]:
    """The moves of ``actions`` from move ``resume`` on, judged for about ``budget`` seconds (at least one
    move); see the module docstring.  ``solver_time``: the solver's seconds a position on a board without an
    opening book, past which alpha-beta estimates it and the mark says so (so that one mark stays well inside
    a worker's hard limit)."""
    from ..reviewer.judge import marks

    began, engine = clock(), list[str]()
    positions: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    judged = resume
    for mark in marks(game, actions, resume, engine=engine, solver_time=solver_time):
        judged = mark.ply
        positions.append(_position(game, mark.ply - 1, mark.player, mark.before, mark.exact,
                                   mark.best[0] if mark.best else None))
        out.append({"ply": mark.ply, "move": mark.move, "class": mark.kind, "only": mark.only,
                    "mark": mark.suffix, "words": mark.verdict(),
                    "best": mark.best, "line": mark.line, "exact": mark.exact, "proven": mark.proven})
        if judged == len(actions):  # the last position: its value is the last move's, from the other side
            state = game.states_of(actions)[-1]
            if game.is_terminal(state):
                positions.append(_finished(game, judged, state))
            else:  # seen from the side to move there: one ply nearer its end than from the mover's (to_child)
                value = to_child(int(mark.after)) if is_proven(mark.after) else -mark.after
                positions.append(_position(game, judged, 3 - mark.player, value, mark.exact, None))
        if clock() - began >= budget:
            break
    done = judged >= len(actions)
    who = engine[0] if engine else ""
    kept = sum(1 for m in out if m["class"] in ("best", "good"))
    summary = (f"Review by {who}{'' if all(m['exact'] for m in out) else ' (estimates)'}: "
               f"{judged} of {len(actions)} moves judged" + ("" if done else " …")) if actions else "No moves to review."
    return {"game": game.spec, "moves": game.format_moves(actions), "engine": who, "done": done,
            "resume": None if done else str(judged), "positions": positions, "marks": out, "kept": kept,
            "summary": summary}


def line_job(game: Game[Any, Any], actions: list[Any], state: Any, seconds: float, first: Any = None,
             clock: Callable[[], float] = _perf_counter) -> dict[str, Any]:
    """The best play from ``state`` for at most :data:`LINE` plies, from ``first`` when given (the move the
    page's analysis found best, so that the line and the arrow agree with it), else from the analysis
    service's best: where the solver takes the game, its best moves one after the other, each proven within
    what is left of ``seconds`` (from the first that is not, alpha-beta's line, and ``exact`` is False);
    elsewhere an alpha-beta search's principal variation from there, within
    ``seconds``.  ``words``: the value of the line's first move, when this job found it."""
    from ..analysis import estimating_agent, service

    found = service(game)
    estimator = estimating_agent(seconds)
    words, exact, who = "", found.solves, "the solver" if found.solves or estimator is None else estimator.spec
    if first is None:  # the solver for at most ``seconds`` (boards without a book can take far longer)
        top = found.analyse(state, seconds=seconds) if found.solves else found.analyse(state, time=seconds)
        if not top.done:
            top = found.analyse(state, time=seconds, use_solver=False)
        first, exact, who = top.best, top.exact, top.engine
        words = top.words(first) if first is not None else ""
    moves: list[Any] = []
    began, here = clock(), state
    given = first if not words else None  # the page's move: its value is said from the position after it
    while first is not None and len(moves) < LINE:
        moves.append(first)
        here = game.result(here, first)
        if game.is_terminal(here):
            if given is not None:  # the move ends the game: won (in 1 move) or drawn
                words = value_words(to_parent(0 if game.winner(here) is None else loss_value(0)), True)
            break
        if clock() - began >= seconds and given is None:
            break
        step = found.analyse(here, seconds=max(0.05, seconds - (clock() - began))) if found.solves else None
        if step is None or not step.exact:  # no proof (in time, or in reach): alpha-beta's line goes on
            agent = estimating_agent(seconds / 2 if step else seconds)
            if agent is None:
                break
            result = agent.search(game, here)
            if given is not None and len(moves) == 1:  # the reply's value, one ply up: the move's
                value = result.value  # a proven value is an int one ply further up; an estimate is negated
                words = value_words(to_parent(int(value)) if is_proven(value) else -value, result.exact)
            moves += list(result.pv[:LINE - len(moves)]) or [result.action]
            exact = exact and step is None and result.exact
            break
        if given is not None and len(moves) == 1 and step.value is not None:
            words = value_words(to_parent(int(step.value)), True)
        first = step.best
    fmt = game.format_action
    return {"game": game.spec, "moves": game.format_moves(actions), "line": [fmt(a) for a in moves],
            "words": words, "exact": exact, "engine": who}


#: the variations the page's export takes besides its main line (the page's tree, as its address holds it)
MAX_EXPORT_LINES = 1000
#: the marks the page's export takes (each a move's PGN suffix and comment, on any line of the tree)
MAX_EXPORT_MARKS = 10_000


def _noted(moves: list[str], variations: dict[int, list[Any]], node: list[Any]) -> list[Any]:
    """The notes of a line of :func:`zerosum.records.tree`'s tree, from the trie ``node`` before its first
    move (each node ``[children by move, note]``), the notes of its variations set on them."""
    notes: list[Any] = []
    for i, move in enumerate(moves):
        for v in variations.get(i, ()):
            v.notes = _noted(v.moves, v.variations, node)  # as deep as the tree: MAX_DEPTH
        node = node[0][move]
        notes.append(node[1])
    return notes


#: who judged the marks of a record the page exports, unless the body names another (``annotator``)
PAGE_ANNOTATOR = "zerosum serve, the page's review"
_EXPORT_FIELDS = ('send {"game": SPEC, "moves": MOVES, "variations": [MOVES, ...], "marks": [{"line": L, "ply": N, '
                  '"mark": "?", "comment": TEXT}], "annotator": TEXT}')


def export_record(data: dict[str, Any]) -> str:
    """The text of a record (:mod:`zerosum.records`) of the page's tree, from a ``POST /api/export`` body
    ``{"game": SPEC, "moves": M, "variations": [M2, ...], "marks": [{"line": L, "ply": N, "mark": "?",
    "comment": "mistake: ..."}], "annotator": TEXT}``: ``moves`` the main line, each of ``variations`` another
    line of the tree from the start (at most :data:`MAX_EXPORT_LINES`, in the page's order), written as
    variations ``( ... )`` where it leaves the lines before it; each mark the PGN suffix and comment of move
    ``N`` of line ``L`` (0, the default: ``moves``; ``i``: ``variations[i - 1]``), a move of any line of the tree
    (``zerosum review -o`` writes the same; /api/record lists a record's marks so); two marks of one move are
    :func:`zerosum.ui.record_api.joined`; the result the main line's board shows.  ``annotator``: who judged
    the marks, the ``Annotator`` tag of a record with marks (the record's own, as /api/record lists its tags,
    when the marks sent are its marks; by default :data:`PAGE_ANNOTATOR`, the page's review).  Anything
    malformed is one GameError line."""
    from ..records import Record, format as record_text, tree
    from ..records.lexer import check_tag
    from ..records.notes import MoveNote
    from .position import check_position
    from .record_api import joined

    unknown = sorted(set(data) - {"game", "moves", "variations", "marks", "annotator"})
    marks, others = data.get("marks") or [], data.get("variations") or []
    if unknown or not isinstance(marks, list) or not isinstance(others, list):
        raise UsageError(_EXPORT_FIELDS)
    if len(marks) > MAX_EXPORT_MARKS:
        raise UsageError(f"{len(marks):,} marks: a record from the page holds at most {MAX_EXPORT_MARKS:,}")
    if len(others) > MAX_EXPORT_LINES:
        raise UsageError(f"{len(others):,} variations: a record from the page holds at most {MAX_EXPORT_LINES:,}")
    annotator = PAGE_ANNOTATOR if data.get("annotator") is None else data["annotator"]
    check_tag("Annotator", annotator)
    game, actions, state = check_position(data.get("game"), data.get("moves"))
    lines = [[game.format_action(a) for a in actions]]
    for i, text in enumerate(others, 1):
        if not isinstance(text, str):
            raise UsageError(f"variation {i} is a move string from the start, not {type(text).__name__}")
        try:
            lines.append([game.format_action(a) for a in check_position(game.spec, text)[1]])
        except GameError as exc:
            raise UsageError(f"variation {i}: {exc}") from None
    root: list[Any] = [{}, None]  # the tree's moves, each [children by move, its note]
    for line in lines:
        node = root
        for move in line:
            node = node[0].setdefault(move, [{}, None])
    annotated = False
    for item in marks:
        if not isinstance(item, dict):
            raise UsageError(f'a mark is {{"line": L, "ply": N, "mark": "?", "comment": TEXT}}, not {str(item)[:20]!r}')
        number = item.get("line", 0)
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(lines):
            raise UsageError(f"a mark's line is 0 (the main line) or a variation 1..{len(others)}, not "
                             f"{str(number)[:20]!r}")
        ply = item.get("ply")
        if isinstance(ply, bool) or not isinstance(ply, int) or not 1 <= ply <= len(lines[number]):
            raise UsageError(f"a mark's ply is a move of the line 1..{len(lines[number])}, not {str(ply)[:20]!r}")
        note = MoveNote(mark=item.get("mark") or None, comment=item.get("comment") or None)
        node = root
        for move in lines[number][:ply]:
            node = node[0][move]
        old = node[1] or MoveNote()
        mark, comment = joined((old.mark, old.comment), (note.mark, note.comment))
        node[1] = MoveNote(mark=mark, comment=comment) if mark or comment else None
        annotated = annotated or node[1] is not None
    moves, variations = tree(lines)
    notes = _noted(moves, variations, root)
    out = game.outcome(state)
    result = "*" if out is None else {1: "1-0", 2: "0-1", None: "1/2-1/2"}[out.winner]
    tags = {"Event": "zerosum serve", "Game": game.spec, "Opening": "-",
            "Termination": "normal" if out is not None else "?"}
    if annotated:
        tags["Annotator"] = annotator
    return record_text(Record(tags, moves, notes, result, variations))
