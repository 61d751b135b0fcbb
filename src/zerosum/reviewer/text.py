"""A review as text: :func:`table` (a line a move, then the summary), :func:`annotated` (an annotated
record: PGN's move suffixes and a comment with each verdict) and :func:`wait_words` (what a long wait is)."""

from __future__ import annotations

from typing import Any

from ..core.words import distance_legend
from .mark import SUFFIX

__all__ = ["table", "heading", "row", "judged_line", "summary_lines", "annotated", "wait_words", "SUFFIX",
           "ANNOTATOR", "COLUMNS"]

#: the columns of :func:`row` and their widths (the last, the refutation, runs on)
COLUMNS = (("ply", 4), ("move", 6), ("class", 20), ("before", 17), ("after", 17), ("best", 8), ("refutation", 0))


def heading(found_or_engine: Any, exact: bool = True, spec: str = "") -> list[str]:
    """The lines above the rows: who judged which game (and whether its values are proofs: ``exact``; a review
    not finished yet by a judge that estimates cannot say, so it says each value says which), what distances
    count, the column names."""
    engine = getattr(found_or_engine, "engine", found_or_engine)
    exact = getattr(found_or_engine, "exact", exact)
    done = getattr(found_or_engine, "done", True)
    game = getattr(found_or_engine, "game", None)
    if game is None and spec:
        from ..games.registry import get_game

        game = get_game(spec)
    spec = getattr(game, "spec", spec)
    names = "  ".join(name.ljust(width) for name, width in COLUMNS).rstrip()
    said = " (exact)" if exact else " (estimates unless proven: each value says which)" if not done else \
        "" if "estimates" in engine else " (estimates)"
    return [f"Review of {spec} by {engine}{said} ({distance_legend(game)})", names]


def row(m: Any) -> str:
    """A mark as one row of the table (fixed widths, so rows print as they come)."""
    kind = m.kind + (" (only)" if m.only else "") + ("" if m.proven else " (not proven)")
    if m.kind == "good" and m.slower:
        kind += f" ({m.slower} {'slower' if m.after > 0 else 'sooner'})"
    cells = (str(m.ply), m.move + m.suffix, kind, m.words(m.before),
             m.words(m.after), "" if m.kind == "best" else " ".join(m.best), " ".join(m.line))
    return "  ".join(c.ljust(w) for c, (_, w) in zip(cells, COLUMNS)).rstrip()


def table(found: Any) -> str:
    """The review as text: the heading, a row a move, the time taken and the summary per player."""
    lines = heading(found) + [row(m) for m in found.marks]
    lines += [judged_line(found), ""] + summary_lines(found)
    return "\n".join(lines) + "\n"


def judged_line(found: Any) -> str:
    """The line after the rows: how many moves were judged in how long, and whether every value is a proof (or
    how many moves estimates judged)."""
    estimated = sum(not m.exact for m in found.marks)
    proofs = "; every value a proof" if found.exact and found.marks else \
        f"; {estimated} of them by estimates, not proofs" if estimated else ""
    return f"({len(found.marks)} moves judged in {found.seconds:.1f} s{proofs})"


def summary_lines(found: Any) -> list[str]:
    """One line a player: who, the share of moves that kept the result (and how many of them were judged by
    estimates, which keep any result not proven), each class, the first decisive error."""
    out = []
    for player, s in found.summary().items():
        if not s["moves"]:
            continue
        who = found.game.player_label(player)
        error = s["first_error"]
        first = "no decisive error" if error is None else \
            f"first decisive error: {error['class']} at ply {error['ply']} ({error['move']})"
        estimated = f"; {s['estimated']} judged by estimates" if s["estimated"] else ""
        out.append(f"{who}: kept the result with {s['kept']} of {s['moves']} moves ({s['share']:.0%}{estimated}); "
                   f"{s['best']} best, {s['good']} good, {_count(s['mistake'], 'mistake')}, "
                   f"{_count(s['blunder'], 'blunder')}; "
                   f"{first}")
    return out


#: the tag an annotated record names its judge in (PGN's)
ANNOTATOR = "Annotator"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def annotated(found: Any, tags: dict[str, str] | None = None, result: str | None = None) -> Any:
    """The reviewed game as an annotated :class:`zerosum.records.Record`: a mistake's move gets ``?`` (``?!``
    where it is not proven), a blunder's ``??``, an only move found ``!``, and every move that is not the best, and every only move, a
    comment with its verdict (:meth:`~.judge.Mark.verdict`).  A record reviewed keeps its tags and notes; a
    played game (``zerosum.play_game``) gets its record's tags; moves get a ``Game`` tag and the result the board
    shows.  ``tags`` are added (or replace those there); the ``Annotator`` tag names the judge.

    A record's variations are kept (the review judges the main line), and where the reply to a mistake or a
    blunder did not keep the result it gave (the error went unpunished), the refutation
    (:attr:`~.judge.Mark.line`) is added as a variation of that reply, commented ``refutation``, as an
    annotator writes the punishment that was missed."""
    from ..arena.openings import format_opening
    from ..records import Record, Variation, from_game_record
    from ..records.notes import MoveNote

    game, source = found.game, found.source
    if isinstance(source, Record):
        base = source
    elif hasattr(source, "moves") and hasattr(source, "reason"):  # what play_game returns
        base = from_game_record(source)
    else:
        final = game.states_of(found.actions)[-1]
        out = game.outcome(final)
        said = "*" if out is None else {1: "1-0", 2: "0-1", None: "1/2-1/2"}[out.winner]
        base = Record({"Game": game.spec, "Opening": format_opening(game, found.actions[:found.start]),
                       "Termination": "normal" if out is not None else "?"},
                      [game.format_action(a) for a in found.actions[found.start:]], [], said, game=game)
    notes = list(base.notes)
    variations = {i: list(lines) for i, lines in base.variations.items()}
    kept = {m.ply: m.kept for m in found.marks}  # whether each move kept the theoretical result
    for m in found.marks:
        i = m.ply - 1 - found.start
        mark = m.suffix or None  # one suffix: ?, ??, ?! (a mistake not proven) or ! (an only move found)
        comment = m.verdict() if (m.kind != "best" or m.only) else None
        old = notes[i] or MoveNote()
        notes[i] = MoveNote(old.time, old.nodes, old.value, mark, comment, old.exact)
        reply = i + 1  # the move that answered the error: a variation there when it let the error go unpunished
        if m.kind in ("mistake", "blunder") and m.line and reply < len(base.moves) and not kept.get(m.ply + 1, True):
            there = variations.setdefault(reply, [])
            if all(v.moves[0] != m.line[0] for v in there):
                there.append(Variation(list(m.line), [MoveNote(comment="refutation")]))
    judge = found.engine + ("" if found.exact else " (estimates)")
    all_tags = {**base.tags, ANNOTATOR: f"zerosum review, {judge}"[:4096], **(tags or {})}
    # the game reviewed goes with the record: a game file's is never made again from the Game tag
    return Record(all_tags, list(base.moves), notes, result or base.result, variations, game=game)


def wait_words(found: Any, since: float, now: float, place: str = "", width: int | None = None) -> str:
    """What the review ``found`` (a :class:`~zerosum.reviewer.Review`, its :attr:`~zerosum.reviewer.Review.doing`)
    is doing for a person who has waited since ``since``: the engine's preparation while it runs (a first run's
    compile: :func:`zerosum.agents.prepare.status`), else the ply being judged, the search under way and its
    seconds (``judging ply 25: the solver (at most 10 s a position), 4.2 s``), after ``place`` (``game 2 of 3,
    12 of 40 moves judged``).  In shorter words where the full ones are wider than ``width`` (None: no limit)."""
    from ..agents.prepare import status
    from ..agents.prepare_words import fit, seconds

    head = f"{place}; " if place else ""
    preparing = status(since, now, None, None if width is None else max(1, width - len(head)))
    if preparing is not None:
        return fit([head + preparing, preparing], width)
    doing = getattr(found, "doing", None)
    if doing is None or not doing.ply:  # before the judge is made (the engines' code loading), or between marks
        what = "starting the review (loading the engines)" if doing is None else "reviewing"
        return fit([f"{head}{what}: {seconds(now - since)}", f"{what}: {seconds(now - since)}"], width)
    what = f"judging ply {doing.ply}" + (", its refutation line" if doing.line else "")
    took = seconds(now - doing.since)
    search = doing.search or "starting"
    return fit([f"{head}{what}: {search}, {took}", f"{what}: {search}, {took}",
                f"{what}: {search.partition(' (')[0]}, {took}", f"{what}, {took}"], width)
