"""The plots of a results file (matplotlib): what is drawn is computed first, as plain numbers.

:func:`pairing_marks` and :func:`ranking_marks` return every bar, interval and arrow the plots draw, so the
tests check the data rather than pixels; :func:`write_plots` draws them.

- Scores are percentages inside ``0..100`` with their 95% interval clipped to what a score can be, and a
  pairing whose games all ended alike (0%, 100%, all draws) keeps its exact one-sided interval
  (:func:`~zerosum.arena.stats.score_interval`).
- An infinite Elo (a pairing won or lost every game) or an infinite interval end is not pinned at a number:
  it is drawn as an arrow at the edge of the axis, labelled ``+inf`` or ``-inf``.
- The ranking has error bars: each rating's 95% interval (:func:`~zerosum.arena.stats.rating_errors`, symmetric
  about the rating: its label is ``Elo ± half-width``); an agent without a game has no rating and no bar.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .stats import elo, score_interval

Report = Any  # a zerosum.arena.report.Report (report.py imports this module, not the other way round)

__all__ = ["PairingMark", "RankMark", "pairing_marks", "elo_edge", "ranking_marks", "plot_names", "write_plots"]

FORMATS = ("png", "svg")


@dataclass(frozen=True)
class PairingMark:
    """One pairing's row: score (%) with its interval inside 0..100, and Elo with its interval, where an
    infinite value is drawn at ``±edge`` with an arrow (``arrows``: the sides, -1 or +1, that get one)."""

    name: str
    games: int
    score: float
    score_low: float
    score_high: float
    elo: float  # as computed: may be ±inf
    elo_low: float
    elo_high: float
    edge: float  # the Elo axis runs from -edge to +edge
    arrows: tuple[int, ...] = field(default=())

    @property
    def drawn(self) -> tuple[float, float, float]:
        """The Elo point and interval as drawn: infinite values at the axis edge."""
        return tuple(max(-self.edge, min(self.edge, x)) for x in (self.elo, self.elo_low, self.elo_high))  # type: ignore[return-value]


@dataclass(frozen=True)
class RankMark:
    name: str
    elo: float
    low: float  # the 95% interval; equal to elo when unknown
    high: float
    score: float  # %


def _round_up(x: float, step: float = 100.0) -> float:
    return step * math.ceil(x / step)


def elo_edge(values: Sequence[float]) -> float:
    """Half the width of an Elo axis showing every finite value with room to spare (at least 200)."""
    finite = [abs(v) for v in values if math.isfinite(v)]
    return max(200.0, _round_up(1.1 * max(finite, default=0.0) + 1.0))


def pairing_marks(report: Report) -> list[PairingMark]:
    """A row for every pairing that played, in the report's order."""
    rows = []
    for ps in report.pairings:
        if not ps.games or ps.tri is None:
            continue
        low, high = score_interval(ps.tri)
        rows.append((f"{ps.a} vs {ps.b}", ps.games, ps.tri.score, low, high))
    elos = [(elo(s), elo(lo), elo(hi)) for _, _, s, lo, hi in rows]
    edge = elo_edge([x for triple in elos for x in triple])
    marks = []
    for (name, games, s, lo, hi), (e, e_lo, e_hi) in zip(rows, elos):
        arrows = tuple(side for side in (-1, 1) if math.isinf(e_lo if side < 0 else e_hi))
        marks.append(PairingMark(name, games, 100 * s, 100 * lo, 100 * hi, e, e_lo, e_hi, edge, arrows))
    return marks


def ranking_marks(report: Report) -> list[RankMark]:
    """The standings that have a rating (a game played), best first, with their 95% intervals."""
    out = []
    for st in report.standings:
        if not st.games or math.isnan(st.elo):
            continue
        err = st.elo_error if math.isfinite(st.elo_error) else 0.0
        out.append(RankMark(st.label, st.elo, st.elo - err, st.elo + err, 100 * st.score if st.games else math.nan))
    return out


def plot_names(report: Report, stem: str, formats: Sequence[str] = ("png",)) -> list[str]:
    """The files :func:`write_plots` writes for ``report``."""
    kinds = []
    if any(ps.games for ps in report.pairings):
        kinds.append("pairings")
    if report.config.mode != "match" and report.played:
        kinds.append("ranking")
    return [f"{stem}-{kind}.{fmt}" for kind in kinds for fmt in formats]


def _save(fig: Any, path: Path) -> None:
    from ..core.files import atomic_output

    fmt = path.suffix.lstrip(".")
    with atomic_output(path, overwrite=True, binary=True, what="plot") as fh:
        fig.savefig(fh, dpi=110, format=fmt)


def _draw_pairings(plt: Any, marks: list[PairingMark], title: str) -> Any:
    rows = list(range(len(marks)))[::-1]  # the first pairing on top
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 0.36 * len(marks) + 1.9), sharey=True)
    for y, m in zip(rows, marks):
        ax1.barh(y, m.score, color="#4C72B0", height=0.6)
        ax1.errorbar(m.score, y, xerr=[[m.score - m.score_low], [m.score_high - m.score]], fmt="o", ms=4,
                     color="black", capsize=3, lw=1)
        x, lo, hi = m.drawn
        ax2.plot([lo, hi], [y, y], color="#C44E52", lw=1.5)
        for side in m.arrows:  # an infinite end: an arrow to the axis edge, labelled
            ax2.annotate("", xy=(side * m.edge, y), xytext=(side * (m.edge - 0.08 * m.edge), y),
                         arrowprops={"arrowstyle": "-|>", "color": "#C44E52", "lw": 1.5})
            ax2.text(side * 0.97 * m.edge, y + 0.22, "+inf" if side > 0 else "-inf", fontsize=7,
                         ha="right" if side > 0 else "left", color="#C44E52")
        for bound in (lo, hi):
            if abs(bound) < m.edge:
                ax2.plot([bound, bound], [y - 0.12, y + 0.12], color="#C44E52", lw=1.5)
        if math.isfinite(m.elo):
            ax2.plot([x], [y], "o", color="#C44E52")
    ax1.axvline(50, color="grey", lw=0.8, ls="--")
    ax1.set_xlim(-2, 102)
    ax1.set_xlabel("score of the first agent named (%)")
    ax1.set_yticks(rows, [m.name for m in marks], fontsize=8)
    ax1.set_title("Score, 95% interval (within 0..100%)", fontsize=10)
    edge = marks[0].edge
    ax2.axvline(0, color="grey", lw=0.8, ls="--")
    ax2.set_xlim(-1.02 * edge, 1.02 * edge)
    ax2.set_ylim(-0.7, len(marks) - 0.3)
    ax2.set_xlabel("Elo difference (first agent named)")
    ax2.set_title("Elo, 95% interval (arrows: infinite)", fontsize=10)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def _draw_ranking(plt: Any, marks: list[RankMark], title: str) -> Any:
    ranked = marks[::-1]  # best on top
    ys = range(len(ranked))
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(ranked) + 1.5))
    ax.barh(ys, [m.elo for m in ranked], color="#55A868", height=0.6)
    ax.errorbar([m.elo for m in ranked], ys, xerr=[[m.elo - m.low for m in ranked], [m.high - m.elo for m in ranked]],
                fmt="none", ecolor="black", capsize=3, lw=1)
    ax.set_yticks(ys, [m.name for m in ranked], fontsize=8)
    for y, m in zip(ys, ranked):
        score = "" if math.isnan(m.score) else f" ({m.score:.0f}%)"
        right = m.elo >= 0
        ax.text(m.high if right else m.low, y, f" {m.elo:+.0f} ± {(m.high - m.low) / 2:.0f}{score} ", va="center",
                ha="left" if right else "right", fontsize=7)
    ax.axvline(0, color="grey", lw=0.8)
    lo_x, hi_x = min(m.low for m in ranked), max(m.high for m in ranked)
    pad = 0.35 * (hi_x - lo_x) + 50
    ax.set_xlim(min(0, lo_x) - pad, max(0, hi_x) + pad)
    ax.set_xlabel("Elo (maximum likelihood, mean 0), 95% interval")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def write_plots(report: Report, out_dir: str | Path, stem: str, formats: Sequence[str] = ("png",)) -> list[Path]:
    """Plots in the folder ``out_dir``, one file per format (``png``, ``svg``): ``STEM-pairings.png`` (score
    and Elo per pairing, 95% intervals) and, for tournaments, ``STEM-ranking.png`` (Elo with 95% error bars;
    see :func:`plot_names`), each written whole (replacing an older plot of the same name)."""
    from ..core.files import check_output
    from ..errors import UsageError

    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise UsageError(f"plot format {bad[0]!r}: expected one of {', '.join(FORMATS)}")
    out = Path(out_dir)
    targets = [check_output(out / name, overwrite=True, what="plot") for name in plot_names(report, stem, formats)]
    if not targets:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with warnings.catch_warnings():  # a name the font cannot draw (an emoji) is a box, said by no warning
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
        return _drawn(plt, report, out, stem, formats)


def _drawn(plt: Any, report: Report, out: Path, stem: str, formats: Sequence[str]) -> list[Path]:
    """:func:`write_plots`' figures, drawn and saved."""
    figures = []
    marks = pairing_marks(report)
    if marks:
        title = f"{report.config.mode} on {report.config.game}: {report.played} games"
        figures.append(("pairings", _draw_pairings(plt, marks, title)))
    if report.config.mode != "match" and report.played:
        title = f"Ranking: {report.config.game}, {report.played} games"
        figures.append(("ranking", _draw_ranking(plt, ranking_marks(report), title)))
    written = []
    for kind, fig in figures:
        for fmt in formats:
            path = out / f"{stem}-{kind}.{fmt}"
            _save(fig, path)
            written.append(path)
        plt.close(fig)
    return written
