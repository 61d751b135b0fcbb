"""A tournament's ranking as rows (for ``--ranking FILE.csv`` / ``.json``) and the homework's grading rule
(``--grade LOW,HIGH``).

**The grading rule.**  LOW and HIGH are two agents of the tournament (the random player and the instructor's,
say).  An agent's grade is a whole number of points from 0 to :data:`FULL_POINTS` (10), from its Elo in the
ranking (the order of the ranking)::

    f      = (elo - elo_LOW) / (elo_HIGH - elo_LOW)
    points = min(10, max(0, ceil(10 * f)))

so an agent ranked at LOW or below gets 0, one at HIGH or above gets 10, and between them the Elo interval from
LOW to HIGH is cut into ten equal bands, band k (``(k-1)/10 < f <= k/10``) being worth k points.  Agents of
equal Elo get equal points; an agent that played no game has no Elo and no grade.  Worked example: random at
-300 Elo, the instructor at +200 (500 between them, so a band is 50 Elo wide): a student at -50 has f = 250/500
= 0.5 and gets 5 points; one at +10 has f = 0.62 and gets 7; one at -299 gets 1; one at -320 gets 0; one at
+260 gets 10.  The rule is refused (one :class:`~zerosum.errors.UsageError` line) when LOW or HIGH is not an
agent of the tournament, names more than one, played no game, or when LOW does not rank below HIGH with a lower
Elo.

**The ranking rows** (:func:`ranking`): rank, agent (its label in the tables), spec, points, games, score
(points per game), wins, draws, losses, elo with elo_low and elo_high (its 95% interval), forfeits, and grade
when a rule is given.  Agents of equal Elo share a rank (1, 2, 3, 3, 5); an agent without a game comes last
with no rank, Elo, score or grade (empty in CSV, null in JSON).  :func:`write_ranking` writes them as CSV (a
header line, one agent a line) or JSON (``{"game", "mode", "games", "grade": {"low", "high", "full"} or null,
"ranking": [rows]}``).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from pathlib import Path
from typing import Any, Sequence

from ..errors import UsageError
from ..spec import quoted

__all__ = ["FULL_POINTS", "BANDS", "RANKING_FIELDS", "parse_grade", "resolve_grade", "find_agent", "grade_points", "ranking",
           "check_ranking_path", "write_ranking", "ranking_text", "grades_table"]

#: the points of an agent at or above HIGH
FULL_POINTS = 10
#: the bands between LOW and HIGH
BANDS = 10
#: the columns of a ranking file, in order (``grade`` only with a rule)
RANKING_FIELDS = ("rank", "agent", "spec", "points", "games", "score", "wins", "draws", "losses", "elo",
                  "elo_low", "elo_high", "forfeits", "grade")
#: the ranking file formats, by extension
FORMATS = (".csv", ".json")


def parse_grade(text: str, flag: str = "--grade") -> tuple[str, str]:
    """``"LOW,HIGH"`` split at its first comma (a spec's options hold commas too: :func:`resolve_grade`
    tries every comma once the agents are known); one UsageError line without two names, naming the rule
    as ``flag`` (``--grade`` on the command line, ``grade`` from Python: :func:`ranking`)."""
    low, comma, high = str(text).partition(",")
    if not comma or not low.strip() or not high.strip():
        raise UsageError(f"{flag} {quoted(text)}: give LOW,HIGH, two agents of the tournament (e.g. random,instructor)")
    return low.strip(), high.strip()


def resolve_grade(grade: tuple[str, str] | str, labels: Sequence[str], specs: Sequence[str],
                  flag: str = "--grade") -> tuple[str, str]:
    """The labels of LOW and HIGH: ``grade`` is a pair of names or ``"LOW,HIGH"``, split at the one comma
    that leaves an agent of the run on each side (``random,alphabeta:depth=2,eval=window`` works); one
    UsageError line when no split or several do, or both name the same agent."""
    if isinstance(grade, str):
        parse_grade(grade, flag)  # two names at least
        parts = grade.split(",")
        found = set()
        for i in range(1, len(parts)):
            try:
                found.add((find_agent(",".join(parts[:i]).strip(), labels, specs, flag),
                           find_agent(",".join(parts[i:]).strip(), labels, specs, flag)))
            except UsageError:
                continue
        if len(found) > 1:
            raise UsageError(f"{flag} {quoted(grade)} can be read {len(found)} ways: name LOW and HIGH by "
                             "their labels in the tables")
        low, high = found.pop() if found else (find_agent(n, labels, specs, flag) for n in parse_grade(grade, flag))
    else:
        low, high = (find_agent(n, labels, specs, flag) for n in grade)
    if low == high:
        raise UsageError(f"{flag}: LOW and HIGH are the same agent, {low}")
    return low, high


def _names_of(label: str, spec: str) -> set[str]:
    """What may name an agent: its label, its spec, and for a file agent its file's name, with or without
    ``.py`` and the function's name (``instructor``, ``instructor.py``, ``instructor.py:player``)."""
    from ..agents.registry import file_agent_parts

    names = {label, spec}
    parts = file_agent_parts(spec)
    if parts is not None:
        base = os.path.basename(parts[0])
        names |= {base, base[:-3], f"{base}:{parts[1]}", f"{base[:-3]}:{parts[1]}"}
    return names


def find_agent(name: str, labels: Sequence[str], specs: Sequence[str], flag: str = "--grade") -> str:
    """The label of the one agent ``name`` stands for (a label, a spec, or an agent file's name); one
    UsageError line when it names none or several."""
    from .match import canonical_spec

    if name in labels:
        return name
    wanted = {name, canonical_spec(name)}
    hits = [label for label, spec in zip(labels, specs) if wanted & _names_of(label, spec)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise UsageError(f"{flag}: {quoted(name)} is not an agent of this tournament (its agents: {', '.join(labels[:8])}{', ...' if len(labels) > 8 else ''})")
    raise UsageError(f"{flag}: {quoted(name)} names {len(hits)} agents of this tournament ({', '.join(hits)}): "
                     "give the label shown in the tables")


def grade_points(elos: dict[str, float], low: str, high: str, flag: str = "--grade") -> dict[str, int | None]:
    """Every agent's grade (module doc) from its Elo, None for an Elo of ``nan`` (no game, no rating);
    ``low`` and ``high`` are labels among ``elos``' keys, rated, ``low`` with the lower Elo (one UsageError
    line otherwise)."""
    lo, hi = elos[low], elos[high]
    for name, e in ((low, lo), (high, hi)):
        if math.isnan(e):
            raise UsageError(f"{flag} {low},{high}: {name} played no game, so it has no Elo to grade by")
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        raise UsageError(f"{flag} {low},{high}: {low} (Elo {lo:+.0f}) does not rank below {high} (Elo {hi:+.0f}), "
                         "so there are no bands between them")
    out: dict[str, int | None] = {}
    for label, e in elos.items():
        if math.isnan(e):
            out[label] = None
        elif math.isinf(e):
            out[label] = FULL_POINTS if e > 0 else 0
        else:
            out[label] = min(FULL_POINTS, max(0, math.ceil(round(BANDS * (e - lo) / (hi - lo), 9))))
    return out


def _number(x: float, places: int = 1) -> float | None:
    return None if x is None or math.isnan(x) else round(x, places)


def ranking(source: Any, grade: tuple[str, str] | str | None = None, *, flag: str = "grade") -> list[dict[str, Any]]:
    """The ranking rows of a run (module doc): ``source`` is a :class:`~zerosum.arena.report.Report` or a
    results file written by ``zerosum tournament`` or ``match``; ``grade``: ``(LOW, HIGH)`` or
    ``"LOW,HIGH"`` adds every agent's grade (a rule that cannot be applied is one UsageError line naming it
    ``flag``: ``grade``, or ``--grade`` for the command line).  Best first, as the printed ranking."""
    from .report import rated, standing_ranks

    report = _report(source)
    labels = [st.label for st in report.standings]
    specs = [report.specs.get(label, label) for label in labels]
    points = None
    if grade is not None:
        low, high = resolve_grade(grade, labels, specs, flag)
        points = grade_points({st.label: st.elo if rated(st) else math.nan for st in report.standings}, low, high,
                              flag)
    rows = []
    for rank, st, spec in zip(standing_ranks(report.standings), report.standings, specs):
        elo, half = (st.elo, st.elo_error) if rated(st) else (math.nan, math.nan)
        row: dict[str, Any] = {
            "rank": rank, "agent": st.label, "spec": spec, "points": st.points, "games": st.games,
            "score": _number(st.score, 4), "wins": st.wins, "draws": st.draws, "losses": st.losses,
            "elo": _number(elo), "elo_low": _number(elo - half), "elo_high": _number(elo + half),
            "forfeits": st.forfeits,
        }
        if points is not None:
            row["grade"] = points[st.label]
        rows.append(row)
    return rows


def _report(source: Any) -> Any:
    from .report import Report, summarize

    if isinstance(source, Report):
        return source
    if isinstance(source, (str, Path)):
        from .match import open_run

        store, _ = open_run(source)
        with store:
            return summarize(store)
    raise UsageError(f"ranking: give a results file or a Report, not {type(source).__name__}")


def check_ranking_path(path: str | os.PathLike[str], overwrite: bool = False) -> Path:
    """``path`` once it may be written as a ranking file: ``.csv`` or ``.json``, and the output-file rules
    (:func:`~zerosum.core.files.check_output`: never over a file without ``overwrite``, never a special
    file); one line otherwise.  Call it before the run."""
    from ..core.files import check_output

    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"--ranking {quoted(str(path))}: name a .csv or .json file (the extension says which)")
    return check_output(path, overwrite=overwrite, what="ranking file")


def ranking_text(rows: list[dict[str, Any]], fmt: str, about: dict[str, Any] | None = None) -> str:
    """The rows as a ranking file's text: ``fmt`` ``"csv"`` or ``"json"``; ``about``: the JSON's other keys."""
    if fmt == "json":
        return json.dumps({**(about or {}), "ranking": rows}, indent=2) + "\n"
    fields = [f for f in RANKING_FIELDS if any(f in row for row in rows) or f != "grade"]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buffer.getvalue()


def write_ranking(path: str | os.PathLike[str], source: Any, grade: tuple[str, str] | str | None = None,
                  overwrite: bool = False, *, flag: str = "grade") -> list[dict[str, Any]]:
    """Write the ranking of ``source`` (a Report or a results file) to ``path`` (.csv or .json, all at once,
    never over an existing file unless ``overwrite``); returns the rows (``flag``: :func:`ranking`)."""
    from ..core.files import atomic_output

    target = check_ranking_path(path, overwrite)
    report = _report(source)
    rows = ranking(report, grade, flag=flag)
    about: dict[str, Any] = {"game": report.config.game, "mode": report.config.mode, "games": report.played,
                             "grade": None}
    if grade is not None:
        low, high = resolve_grade(grade, [row["agent"] for row in rows], [row["spec"] for row in rows], flag)
        about["grade"] = {"low": low, "high": high, "full": FULL_POINTS, "bands": BANDS}
    text = ranking_text(rows, target.suffix.lower().lstrip("."), about)
    with atomic_output(target, overwrite=overwrite, what="ranking file", checked=True) as fh:
        fh.write(text)
    return rows


def grades_table(rows: list[dict[str, Any]], low: str, high: str) -> Any:
    """A rich table of the grades (rank, agent, Elo, score, grade), for the printed report."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    caption = f"0 at or below {low}'s Elo, {FULL_POINTS} at or above {high}'s, {BANDS} equal bands between"
    if any(row["grade"] is None for row in rows):
        caption += "; -: no game played, so no Elo and no grade"
    t = Table(title="Grades", title_justify="left", box=box.HEAVY_HEAD, caption=escape(caption), caption_justify="left")
    for i, col in enumerate(("#", "agent", "Elo", "score", "grade")):
        t.add_column(col, justify="left" if i == 1 else "right", overflow="fold")
    for row in rows:
        elo = "-" if row["elo"] is None else f"{row['elo']:+.0f}"
        score = "-" if row["score"] is None else f"{100 * row['score']:.1f}%"
        rank, grade = ("-" if row[k] is None else str(row[k]) for k in ("rank", "grade"))
        t.add_row(rank, escape(row["agent"]), elo, score, grade)
    return t
