"""What a results file says: tables (rich) and plots (matplotlib).  :func:`summarize` reads a
:class:`~zerosum.arena.store.Store` into plain numbers; :func:`print_tables` shows them; :func:`write_plots` draws
the score and Elo (with 95% intervals) of every pairing and, for a tournament, the ranking, and returns the paths
it wrote."""

from __future__ import annotations

import collections
import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..external.names import describe_engines, stored_engines
from ..spec import visible
from .match import ArenaConfig, describe_deadline, describe_rules, pairings
from .stats import (ELO_PLACES, Sprt, Summary, competition_ranks, fmt_elo, fmt_fixed, fmt_percent, fmt_summary, los,
                    pair_counts, pentanomial, rating_errors, ratings, same_elo, trinomial)
from .forfeits import counted_labels, not_counted_note, nodes_cell, run_move_cpu
from .forfeits import why as forfeit_why
from .plots import plot_names, write_plots
from .store import Store
from .store_schema import describe_versions, older_notes

__all__ = ["PairingStats", "Standing", "Report", "summarize", "rated", "standing_ranks", "print_tables", "table_layout",
           "short_labels", "letter_labels", "progress_columns", "write_plots", "plot_names"]


@dataclass
class PairingStats:
    """One pairing from its first agent's (``a``'s) view."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: list[int] = field(default_factory=lambda: [0] * 5)  # LL, LD, DD+WL, WD, WW
    tri: Summary | None = None
    penta: Summary | None = None
    los: float = 0.5

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass
class Standing:
    label: str
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    elo: float = math.nan  # nan: no rating (no game played)
    elo_error: float = math.nan  # half the 95% interval (symmetric: the ratings' normal interval)
    move_ms: float = math.nan
    nodes: float = math.nan

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else math.nan


@dataclass
class Report:
    config: ArenaConfig
    planned: int
    played: int
    pairings: list[PairingStats]
    standings: list[Standing]  # best first
    forfeits: dict[tuple[str, str], int]  # (agent, reason kind) -> count
    reasons: dict[str, int]  # how games ended
    mean_plies: float
    mean_seconds: float
    sprt: dict[str, Any] | None
    specs: dict[str, str] = field(default_factory=dict)  # label -> the agent's full spec
    #: (agent, reason kind) -> why, in one short line (:func:`zerosum.arena.forfeits.why`): the Forfeits table
    forfeit_why: dict[tuple[str, str], str] = field(default_factory=dict)
    #: CPU seconds a move of a file agent whose nodes are not counted (a run with --nodes), else None
    move_cpu: float | None = None
    #: the run's external engines: name -> what it said of itself and its latency (zerosum.external.Engine.probe)
    engines: dict[str, Any] = field(default_factory=dict)
    versions: list[tuple[str | None, int]] | None = None  # who wrote the run (Store.versions; None: not recorded)
    #: agent -> its moves whose 0 nodes an older zerosum stored are read as none: [not counted, cannot tell]
    zeros: dict[str, list[int]] = field(default_factory=dict)


def _kind(reason: str) -> str:
    return reason.split(":", 1)[0] if ":" in reason else reason


def summarize(store: Store) -> Report:
    config = ArenaConfig.from_json(store.meta("config"))
    agents = store.agents()
    labels = [label for label, _ in agents]
    plan = {g.idx: g for g in store.plan()}
    pairs = pairings(config.mode, len(labels))
    stats = [PairingStats(labels[a], labels[b]) for a, b in pairs]
    standings = [Standing(label) for label in labels]
    by_round: dict[tuple[int, int], list[float]] = collections.defaultdict(list)
    times: dict[int, list[float]] = collections.defaultdict(list)
    nodes: dict[int, list[float]] = collections.defaultdict(list)
    zeros: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    forfeits: collections.Counter[tuple[str, str]] = collections.Counter()
    why: dict[tuple[str, str], list[str]] = {}
    reasons: collections.Counter[str] = collections.Counter()
    results: list[tuple[int, int, float]] = []
    plies, seconds = [], []
    played = 0
    for rec in store.games():
        played += 1
        g = plan[rec.idx]
        a, _ = pairs[g.pairing]
        s_first = {"1-0": 1.0, "0-1": 0.0}.get(rec.result, 0.5)
        s_a = s_first if g.first == a else 1.0 - s_first
        ps = stats[g.pairing]
        if s_a == 1.0:
            ps.wins += 1
        elif s_a == 0.0:
            ps.losses += 1
        else:
            ps.draws += 1
        by_round[(g.pairing, g.round)].append(s_a)
        results.append((g.first, g.second, s_first))
        for agent, s in ((g.first, s_first), (g.second, 1.0 - s_first)):
            st = standings[agent]
            st.games += 1
            st.points += s
            st.wins += s == 1.0
            st.draws += s == 0.5
            st.losses += s == 0.0
        if rec.forfeit:
            loser = g.second if rec.result == "1-0" else g.first
            standings[loser].forfeits += 1
            forfeits[(labels[loser], _kind(rec.reason))] += 1
            seen = why.setdefault((labels[loser], _kind(rec.reason)), [])
            if rec.reason not in seen:
                seen.append(rec.reason)
        reasons[_kind(rec.reason)] += 1
        for i, t in enumerate(rec.times):  # moves alternate, starting with whoever is to move after the opening
            mover = g.first if (i + _opening_plies(g.opening, config)) % 2 == 0 else g.second
            times[mover].append(t)
            if (n := rec.nodes[i]) is not None:
                nodes[mover].append(n)
            elif i in rec.zeros:  # an older zerosum's 0 of a move nothing counted (True), or maybe none (False)
                zeros[labels[mover]][0 if rec.zeros[i] else 1] += 1
        plies.append(len(rec.moves))
        seconds.append(rec.duration)
    for p, ps in enumerate(stats):
        ps.pairs = pair_counts(sum(v) for (q, _), v in by_round.items() if q == p and len(v) == 2)
        ps.tri = trinomial(ps.wins, ps.draws, ps.losses)
        ps.penta = pentanomial(ps.pairs)
        ps.los = los(ps.wins, ps.losses)
    elos = ratings(len(labels), results)  # nan for an agent without a game: no rating, out of the mean
    errors = rating_errors(len(labels), results, elos)
    for i, st in enumerate(standings):
        st.elo, st.elo_error = elos[i], errors[i]
        if times[i]:
            st.move_ms = 1000 * statistics.fmean(times[i])
        if nodes[i]:
            st.nodes = statistics.fmean(nodes[i])
    order = sorted(standings, key=lambda s: (not rated(s), -round(s.elo, ELO_PLACES) if rated(s) else 0.0, s.label))
    return Report(
        config, len(plan), played, stats, order, dict(forfeits), dict(reasons),
        statistics.fmean(plies) if plies else math.nan, statistics.fmean(seconds) if seconds else math.nan,
        store.meta("sprt"), dict(agents), {key: forfeit_why(reasons) for key, reasons in why.items()},
        run_move_cpu(config.limits, store.meta("move_cpu")), stored_engines(store.meta("engines")),
        store.versions(), dict(zeros))


def rated(st: Standing) -> bool:
    """Whether ``st`` has a rating: it played a game."""
    return bool(st.games) and not math.isnan(st.elo)


def standing_ranks(standings: Sequence[Standing]) -> list[int | None]:
    """The rank of each of ``standings`` (as :func:`summarize` orders them: rated ones best first, then the
    others): equal ratings (:func:`~zerosum.arena.stats.same_elo`) share a rank (1, 2, 3, 3, 5); an agent
    without a game has none."""
    ranked = [st for st in standings if rated(st)]
    ranks = iter(competition_ranks(ranked, lambda a, b: same_elo(a.elo, b.elo)))
    return [next(ranks) if rated(st) else None for st in standings]


def _opening_plies(opening: str, config: ArenaConfig, _cache: dict[tuple[str, str], int] = {}) -> int:
    key = (config.game, opening)
    if key not in _cache:
        from ..records.trust import opening_plies

        _cache[key] = opening_plies(config.game, opening)  # a game file's is never run: counted from its notation
    return _cache[key]


# ---- tables --------------------------------------------------------------------------------------
# Each table is tried in layouts that get narrower (full names; short labels; the pair statistics in a
# table of their own; a lighter frame; letters) until every table fits the console's width; a legend maps
# the labels to the full specs.  Cells fold rather than end in an ellipsis, so no two names look alike.  An
# agent's short name is the one it declares (``TRAITS.short``: alphabeta's ``ab``), else its name.

LONGEST_LABEL = 12  # longer short labels give way to letters


def _short_name(name: str) -> str:
    """The agent ``name``'s declared short label (:mod:`zerosum.agents.traits`), else the name itself."""
    from ..agents.registry import agent_class

    cls = agent_class(name)
    return (cls.TRAITS.short if cls is not None else "") or name


def _compact(label: str) -> str:
    base, hash_, repeat = label.partition("#")
    name, colon, opts = base.partition(":")
    if any(c in name for c in "./\\"):  # a file agent's file.py:attr
        return label
    if not colon:  # a bare name
        return _short_name(label)
    parts = []
    for opt in opts.split(","):
        key, eq, value = opt.partition("=")
        numeric = value[:1].isdigit() or value[:1] in "+-."
        parts.append(opt if not eq else key[:1] + value if numeric else f"{key[:1]}={value}")
    return f"{_short_name(name)}:{','.join(parts)}" + (f"#{repeat}" if hash_ else "")


def letter_labels(n: int) -> list[str]:
    """``A``, ``B``, ... ``Z``, ``AA``, ``AB``...: ``n`` distinct labels."""
    out = []
    for i in range(1, n + 1):
        text = ""
        while i:
            i, r = divmod(i - 1, 26)
            text = chr(ord("A") + r) + text
        out.append(text)
    return out


def short_labels(labels: Sequence[str]) -> list[str]:
    """Unique short labels for agents: ``alphabeta:depth=2`` -> ``ab:d2``, ``mcts:time=1`` -> ``mcts:t1``;
    letters (:func:`letter_labels`) when those are not all distinct, or one is longer than
    :data:`LONGEST_LABEL` or is another agent's name."""
    short = [_compact(label) for label in labels]
    clash = any(s in labels and s != label for s, label in zip(short, labels))
    if len(set(short)) == len(short) and not clash and all(len(s) <= LONGEST_LABEL for s in short):
        return short
    return letter_labels(len(labels))


# the light layout's two-line headers
_HEADERS = {"forfeits": "for-\nfeits", "ms/move": "ms/\nmove", "nodes/move": "nodes/\nmove", "Elo (games)": "Elo\n(games)",
            "Elo (pairs)": "Elo\n(pairs)", "pairs LL LD DD/WL WD WW": "pairs LL LD\nDD/WL WD WW"}


def _table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], light: int, left: Sequence[int] = (0,)) -> Any:
    """A table framed heavily (``light`` 0), lightly (1: two spaces between columns) or tightly (2: one)."""
    from rich import box
    from rich.table import Table

    if light:
        t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1) if light == 1 else 0,
                  collapse_padding=True, pad_edge=False, show_edge=False)
    else:
        t = Table(title=title, title_justify="left", box=box.HEAVY_HEAD)
    for i, col in enumerate(columns):
        t.add_column(_HEADERS.get(col, col) if light else col, justify="left" if i in left else "right", overflow="fold")
    for row in rows:
        t.add_row(*row)
    return t


def _tables(report: Report, name: dict[str, str], split: bool, light: int) -> list[Any]:
    from rich.markup import escape

    pcols = ["pairing", "games", "+W =D -L", "score", "Elo (games)", "LOS", "pairs LL LD DD/WL WD WW", "Elo (pairs)"]
    prows = []
    for ps in report.pairings:
        cells = [escape(f"{name[ps.a]} vs {name[ps.b]}"), str(ps.games)] + ["-"] * 6
        if ps.games and ps.tri is not None:
            cells[2:] = [f"+{ps.wins} ={ps.draws} -{ps.losses}", f"{100 * ps.tri.score:.1f}%", fmt_summary(ps.tri),
                         fmt_percent(ps.los), " ".join(str(c) for c in ps.pairs), fmt_summary(ps.penta)]
        prows.append(cells)
    title = "Pairings (first agent's view)"
    if split:  # the pentanomial statistics in a table of their own
        out = [_table(title, pcols[:6], [r[:6] for r in prows], light),
               _table("Game pairs (same opening, colours swapped)", [pcols[0], *pcols[6:]],
                      [[r[0], *r[6:]] for r in prows], light)]
    else:
        out = [_table(title, pcols, prows, light)]
    counted = counted_labels(report.forfeits, report.specs)  # over a node limit, or declared: counted
    rrows = [
        ["-" if i is None else str(i), escape(name[st.label]), fmt_elo(st.elo) if rated(st) else "-",
         fmt_elo(st.elo_error, sign=False) if rated(st) else "-", str(st.games),
         "-" if not st.games else f"{100 * st.score:.1f}%", f"+{st.wins} ={st.draws} -{st.losses}", str(st.forfeits),
         "-" if math.isnan(st.move_ms) else fmt_fixed(st.move_ms, 1),
         "unknown" if math.isnan(st.nodes) and report.zeros.get(st.label, [0, 0])[1] else
         nodes_cell(st.nodes, st.games, report.move_cpu, st.label in counted)]
        for i, st in zip(standing_ranks(report.standings), report.standings)
    ]
    rcols = ["#", "agent", "Elo", "±95%", "games", "score", "+W =D -L", "forfeits", "ms/move", "nodes/move"]
    out.append(_table("Ranking (Elo by maximum likelihood, mean 0)", rcols, rrows, light, left=(1,)))
    if report.forfeits:
        frows = [[escape(name[agent]), escape(report.forfeit_why.get((agent, kind), kind)), str(n)]
                 for (agent, kind), n in sorted(report.forfeits.items())]
        out.append(_table("Forfeits", ["agent", "reason", "games"], frows, light, left=(0, 1)))
    return out


def _fits(console: Any, renderable: Any) -> bool:
    from rich.measure import Measurement

    unbounded = console.options.update_width(1 << 16)  # the natural width, not the console's clamp
    width: int = Measurement.get(console, unbounded, renderable).maximum
    return width <= int(console.width)


def table_layout(report: Report, console: Any) -> tuple[dict[str, str], list[Any]]:
    """The labels (agent -> what the tables show) and the tables of the first layout that fits
    ``console.width``: full names; short labels; the pairs' statistics split off; a light frame; letters
    (the last is shown whatever its width: its cells fold)."""
    labels = list(report.specs) or [st.label for st in report.standings]  # in the order the agents were given
    schemes = [labels, short_labels(labels), letter_labels(len(labels))]
    layouts = [(s, split, light) for s in schemes for split, light in ((False, 0), (True, 0), (True, 1), (True, 2))]
    for shown, split, light in layouts:
        name = dict(zip(labels, shown))
        tables = _tables(report, name, split, light)
        if all(_fits(console, t) for t in tables):
            return name, tables
    return name, tables


def progress_columns(console: Any) -> list[Any]:
    """The columns of a run's progress line (rich ``Progress``): the running score folds onto more lines
    when the console is narrow, and the bar, the count and the times keep their width (never ``…``)."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.table import Column

    def whole() -> Column:
        return Column(no_wrap=True)

    return [TextColumn("[progress.description]{task.description}", table_column=Column(overflow="fold", ratio=1)),
            BarColumn(bar_width=max(10, min(40, console.width // 5)), table_column=whole()),
            MofNCompleteColumn(table_column=whole()), TimeElapsedColumn(table_column=whole()),
            TimeRemainingColumn(table_column=whole())]


def print_tables(report: Report, console: Any = None, functions: Sequence[str] = (),
                 option: str = "--move-cpu") -> None:
    """The run's settings (with its time control and adjudication, when it had them), its pairings, ranking and
    forfeits as tables that fit ``console`` (its width: ``COLUMNS``), with a legend of agent labels when the tables
    cannot show full names, then its notes (``functions``, ``option``: :func:`.forfeits.not_counted_note`'s)."""
    from rich.console import Console
    from rich.markup import escape

    console = console or Console()
    cfg = report.config
    limits = ", ".join(f"{k}={v}" for k, v in cfg.limits.items() if v is not None) or "the agents' own"
    rules = describe_rules(cfg, rule=False)  # as the run said before its first move
    console.print(
        f"[bold]{cfg.mode}[/bold] on {escape(visible(cfg.game))}: {report.played} of {report.planned} games played; "
        + escape("; ".join([f"openings: {cfg.openings_source} ({len(cfg.openings)} in {cfg.order} order)", f"limits: {limits}",
                            f"seed {cfg.seed}", describe_deadline(cfg, rule=False), *rules,
                            describe_versions(report.versions, report.played)]))
    )
    name, tables = table_layout(report, console)
    if any(k != v for k, v in name.items()):
        legend = _table("Agents", ["label", "agent"], [[escape(v), escape(report.specs.get(k, k))] for k, v in name.items()],
                        light=1, left=(0, 1))
        console.print(legend)
    for t in tables:
        console.print(t)
    counted = counted_labels(report.forfeits, report.specs) | {a for a, z in report.zeros.items() if z[0]}
    note = not_counted_note(report.standings, report.specs, report.move_cpu, counted, functions, option)  # older: below
    for line in filter(None, [note, *older_notes(report.zeros)]):
        console.print(escape(line))
    for line in describe_engines(report.engines):  # external engines: their command and latency
        console.print(escape(line), soft_wrap=True)  # one line each, however long its command
    ends = ", ".join(f"{k} {v}" for k, v in sorted(report.reasons.items(), key=lambda kv: -kv[1]))
    if report.played:
        console.print(f"endings: {ends}; {fmt_fixed(report.mean_plies, 1)} moves and "
                      f"{fmt_fixed(report.mean_seconds, 2)} s a game on average")
    if cfg.sprt:
        sprt = Sprt(*cfg.sprt)
        line = (f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
                f"bounds [{sprt.lower:.2f}, {sprt.upper:.2f}]")
        if report.sprt:
            verdict = "H1 accepted (elo1)" if report.sprt["decision"] == "H1" else "H0 accepted (elo0)"
            line += f", LLR {report.sprt['llr']:.2f} after {report.sprt['games']} games: {verdict}"
        else:  # the LLR so far, from the first pairing's game pairs, as the run decides on it (fastchess prints it too)
            pairs = report.pairings[0].pairs if report.pairings else [0] * 5
            llr, whole = sprt.llr((0.0, 0.25, 0.5, 0.75, 1.0), pairs), sum(pairs)  # a game without its pair: not in it
            after = f"{report.played} games" if 2 * whole == report.played else f"{whole} pairs ({report.played} games)"
            line += (f", LLR {llr:.2f} after {after}: no decision"
                     + (" (every game played)" if report.played >= report.planned else " yet"))
        console.print(line)


# ---- plots: in plots.py (re-exported here) ------------------------------------------------------
