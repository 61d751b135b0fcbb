"""What a results file says: tables (rich) and plots (matplotlib).

:func:`summarize` reads a :class:`~zerosum.arena.store.Store` into plain numbers; :func:`print_tables`
shows them; :func:`write_plots` draws the score and Elo (with 95% intervals) of every pairing and, for a
tournament, the ranking, and returns the paths it wrote.
"""

from __future__ import annotations

import collections
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .match import ArenaConfig, describe_deadline, pairings
from .stats import (
    Z95,
    Sprt,
    Summary,
    fmt_elo,
    los,
    pair_counts,
    pentanomial,
    ratings,
    trinomial,
)
from .store import Store

__all__ = ["PairingStats", "Standing", "Report", "summarize", "print_tables", "write_plots", "plot_names"]


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
    elo: float = 0.0
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


def _kind(reason: str) -> str:
    return reason.split(":", 1)[0] if ":" in reason else reason


def summarize(store: Store) -> Report:
    config = ArenaConfig.from_json(store.meta("config"))
    labels = [label for label, _ in store.agents()]
    plan = {g.idx: g for g in store.plan()}
    pairs = pairings(config.mode, len(labels))
    stats = [PairingStats(labels[a], labels[b]) for a, b in pairs]
    standings = [Standing(label) for label in labels]
    by_round: dict[tuple[int, int], list[float]] = collections.defaultdict(list)
    times: dict[int, list[float]] = collections.defaultdict(list)
    nodes: dict[int, list[float]] = collections.defaultdict(list)
    forfeits: collections.Counter[tuple[str, str]] = collections.Counter()
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
        reasons[_kind(rec.reason)] += 1
        for i, t in enumerate(rec.times):  # moves alternate, starting with whoever is to move after the opening
            mover = g.first if (i + _opening_plies(g.opening, config)) % 2 == 0 else g.second
            times[mover].append(t)
            n = rec.nodes[i]
            if n is not None:
                nodes[mover].append(n)
        plies.append(len(rec.moves))
        seconds.append(rec.duration)
    for p, ps in enumerate(stats):
        ps.pairs = pair_counts(sum(v) for (q, _), v in by_round.items() if q == p and len(v) == 2)
        ps.tri = trinomial(ps.wins, ps.draws, ps.losses)
        ps.penta = pentanomial(ps.pairs)
        ps.los = los(ps.wins, ps.losses)
    elos = ratings(len(labels), results) if results else [0.0] * len(labels)
    for i, st in enumerate(standings):
        st.elo = elos[i]
        if times[i]:
            st.move_ms = 1000 * statistics.fmean(times[i])
        if nodes[i]:
            st.nodes = statistics.fmean(nodes[i])
    order = sorted(standings, key=lambda s: (-s.elo, s.label))
    return Report(
        config, len(plan), played, stats, order, dict(forfeits), dict(reasons),
        statistics.fmean(plies) if plies else math.nan, statistics.fmean(seconds) if seconds else math.nan,
        store.meta("sprt"),
    )


def _opening_plies(opening: str, config: ArenaConfig, _cache: dict[tuple[str, str], int] = {}) -> int:
    key = (config.game, opening)
    if key not in _cache:
        from ..games import get_game
        from .openings import parse_opening

        _cache[key] = len(parse_opening(get_game(config.game), opening))
    return _cache[key]


# ---- tables --------------------------------------------------------------------------------------


def _interval(s: Summary | None) -> str:
    if s is None or not s.n:
        return "-"
    if math.isinf(s.elo) or math.isinf(s.error):
        return f"{fmt_elo(s.elo)} [{fmt_elo(s.elo_low)}, {fmt_elo(s.elo_high)}]"
    return f"{fmt_elo(s.elo)} ± {fmt_elo(s.error, sign=False)}"


def print_tables(report: Report, console: Any = None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = console or Console()
    cfg = report.config
    limits = ", ".join(f"{k}={v}" for k, v in cfg.limits.items() if v is not None) or "the agents' own"
    console.print(
        f"[bold]{cfg.mode}[/bold] on {cfg.game}: {report.played} of {report.planned} games played; "
        + escape(f"openings: {cfg.openings_source} ({len(cfg.openings)}, {cfg.order}); limits: {limits}; seed {cfg.seed}; "
                 f"{describe_deadline(cfg, rule=False)}")
    )
    t = Table(title="Pairings (first agent's view)", title_justify="left")
    for col in ("pairing", "games", "+W =D -L", "score", "Elo (games)", "LOS", "pairs LL LD DD/WL WD WW", "Elo (pairs)"):
        t.add_column(col, justify="left" if col == "pairing" else "right")
    for ps in report.pairings:
        if not ps.games:
            t.add_row(escape(f"{ps.a} vs {ps.b}"), "0", "-", "-", "-", "-", "-", "-")
            continue
        assert ps.tri is not None
        t.add_row(
            escape(f"{ps.a} vs {ps.b}"), str(ps.games), f"+{ps.wins} ={ps.draws} -{ps.losses}", f"{100 * ps.tri.score:.1f}%",
            _interval(ps.tri), f"{100 * ps.los:.1f}%", " ".join(str(c) for c in ps.pairs), _interval(ps.penta),
        )
    console.print(t)
    r = Table(title="Ranking (Elo by maximum likelihood, mean 0)", title_justify="left")
    for col in ("#", "agent", "Elo", "games", "score", "+W =D -L", "forfeits", "ms/move", "nodes/move"):
        r.add_column(col, justify="left" if col == "agent" else "right")
    for i, st in enumerate(report.standings, 1):
        r.add_row(
            str(i), escape(st.label), fmt_elo(st.elo), str(st.games), "-" if not st.games else f"{100 * st.score:.1f}%",
            f"+{st.wins} ={st.draws} -{st.losses}", str(st.forfeits),
            "-" if math.isnan(st.move_ms) else f"{st.move_ms:.1f}", "-" if math.isnan(st.nodes) else f"{st.nodes:,.0f}",
        )
    console.print(r)
    if report.forfeits:
        f = Table(title="Forfeits", title_justify="left")
        f.add_column("agent")
        f.add_column("reason")
        f.add_column("games", justify="right")
        for (agent, kind), n in sorted(report.forfeits.items()):
            f.add_row(escape(agent), escape(kind), str(n))
        console.print(f)
    ends = ", ".join(f"{k} {v}" for k, v in sorted(report.reasons.items(), key=lambda kv: -kv[1]))
    if report.played:
        console.print(
            f"endings: {ends}; {report.mean_plies:.1f} moves and {report.mean_seconds:.2f} s a game on average"
        )
    if cfg.sprt:
        sprt = Sprt(*cfg.sprt)
        line = (
            f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
            f"bounds [{sprt.lower:.2f}, {sprt.upper:.2f}]"
        )
        if report.sprt:
            verdict = "H1 accepted (elo1)" if report.sprt["decision"] == "H1" else "H0 accepted (elo0)"
            line += f", LLR {report.sprt['llr']:.2f} after {report.sprt['games']} games: {verdict}"
        else:
            line += ", no decision yet"
        console.print(line)


# ---- plots ---------------------------------------------------------------------------------------


def _finite(x: float, cap: float = 800.0) -> float:
    if math.isnan(x):
        return 0.0
    return max(-cap, min(cap, x))


def plot_names(report: Report, stem: str) -> list[str]:
    """The files :func:`write_plots` writes for ``report``."""
    names = []
    if any(ps.games for ps in report.pairings):
        names.append(f"{stem}-pairings.png")
    if report.config.mode != "match" and report.played:
        names.append(f"{stem}-ranking.png")
    return names


def _save(fig: Any, path: Path) -> None:
    from ..core.files import atomic_output

    with atomic_output(path, overwrite=True, binary=True, what="plot") as fh:
        fig.savefig(fh, dpi=110, format="png")


def write_plots(report: Report, out_dir: str | Path, stem: str) -> list[Path]:
    """PNG files in the folder ``out_dir``: ``STEM-pairings.png`` (score and Elo per pairing, 95% intervals)
    and, for tournaments, ``STEM-ranking.png`` (see :func:`plot_names`), each written whole (replacing an
    older plot of the same name).  Infinite Elo is drawn at ±800."""
    from ..core.files import check_output

    out = Path(out_dir)
    targets = [check_output(out / name, overwrite=True, what="plot") for name in plot_names(report, stem)]
    if not targets:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    shown = [ps for ps in report.pairings if ps.games]
    if shown:  # one row per pairing: score on the left, Elo on the right
        names = [f"{ps.a} vs {ps.b}" for ps in shown]
        rows = list(range(len(shown)))[::-1]  # the first pairing on top
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 0.32 * len(shown) + 1.8), sharey=True)
        tri = [ps.tri for ps in shown]
        scores = [100 * t.score for t in tri if t is not None]
        half = [100 * Z95 * math.sqrt(t.variance / t.n) for t in tri if t is not None]
        ax1.barh(rows, scores, xerr=half, capsize=3, color="#4C72B0")
        ax1.axvline(50, color="grey", lw=0.8, ls="--")
        ax1.set_xlim(0, 105)
        ax1.set_xlabel("score of the first agent named (%)")
        ax1.set_yticks(rows, names, fontsize=8)
        ax1.set_title("Score, 95% interval", fontsize=10)
        elo = [_finite(t.elo) for t in tri if t is not None]
        lo = [e - _finite(t.elo_low) for e, t in zip(elo, tri) if t is not None]
        hi = [_finite(t.elo_high) - e for e, t in zip(elo, tri) if t is not None]
        ax2.errorbar(elo, rows, xerr=[lo, hi], fmt="o", capsize=3, color="#C44E52")
        ax2.axvline(0, color="grey", lw=0.8, ls="--")
        ax2.set_xlim(-850, 850)
        ax2.set_xlabel("Elo difference (first agent named)")
        ax2.set_title("Elo, 95% interval (drawn at ±800 when infinite)", fontsize=10)
        fig.suptitle(f"{report.config.mode} on {report.config.game}: {report.played} games", fontsize=11)
        fig.tight_layout()
        path = out / f"{stem}-pairings.png"
        _save(fig, path)
        plt.close(fig)
        written.append(path)
    if report.config.mode != "match" and report.played:
        ranked = list(reversed(report.standings))
        fig, ax = plt.subplots(figsize=(8, 0.5 * len(ranked) + 1.5))
        ax.barh(range(len(ranked)), [st.elo for st in ranked], color="#55A868")
        ax.set_yticks(range(len(ranked)), [st.label for st in ranked], fontsize=8)
        for i, st in enumerate(ranked):
            label = f" {st.elo:+.0f} ({100 * st.score:.0f}%) "
            ax.text(st.elo, i, label, va="center", ha="left" if st.elo >= 0 else "right", fontsize=7)
        ax.axvline(0, color="grey", lw=0.8)
        lo_x = min(st.elo for st in ranked)
        hi_x = max(st.elo for st in ranked)
        pad = 0.25 * (hi_x - lo_x) + 50
        ax.set_xlim(min(0, lo_x) - pad, max(0, hi_x) + pad)
        ax.set_xlabel("Elo (maximum likelihood, mean 0)")
        ax.set_title(f"Ranking: {report.config.game}, {report.played} games")
        fig.tight_layout()
        path = out / f"{stem}-ranking.png"
        _save(fig, path)
        plt.close(fig)
        written.append(path)
    return written
