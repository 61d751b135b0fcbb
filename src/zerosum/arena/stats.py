"""Match statistics the way engine testers compute them (cutechess, fastchess, fishtest).

Scores are from one agent's view: a win 1, a draw 1/2, a loss 0.

- :func:`elo` turns an expected score into a logistic Elo difference: ``-400 log10(1/s - 1)``.
- :func:`trinomial` summarises single games: score, Elo and a 95% interval from the per-game variance
  ``(W (1-s)^2 + D (1/2-s)^2 + L s^2) / N`` divided by ``N`` (games treated as independent).
- :func:`pentanomial` summarises game pairs (same opening, colours swapped): each pair scores 0, 1/4, 1/2, 3/4
  or 1 per game, and the variance comes from those five frequencies divided by the number of pairs.  Pairs
  are not independent of colour and opening bias, so this interval is the honest one when games are paired.
- :func:`los`: likelihood of superiority, ``1/2 + 1/2 erf((W - L) / sqrt(2 (W + L)))`` (cutechess).
- :func:`sprt_llr`: the sequential probability ratio test's log-likelihood ratio in the usual normal
  approximation, ``(s1 - s0) (2 s - s0 - s1) / (2 var / N)`` with ``s0``, ``s1`` the scores of ``elo0``,
  ``elo1``; zero counts are taken as 0.001 (as fastchess does) so a one-sided match still decides.
- :func:`ratings`: Elo for every agent of a tournament, by maximum likelihood.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

__all__ = [
    "Z95",
    "elo",
    "score_of",
    "los",
    "Summary",
    "trinomial",
    "pentanomial",
    "pair_counts",
    "Sprt",
    "sprt_llr",
    "ratings",
    "fmt_elo",
]

#: the two-sided 95% quantile of the normal distribution
Z95 = 1.959963984540054


def elo(score: float) -> float:
    """The logistic Elo difference of an expected score (``±inf`` at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_of(elo_diff: float) -> float:
    """The expected score of an Elo difference: ``1 / (1 + 10^(-d/400))``."""
    return 1.0 / (1.0 + math.pow(10.0, -elo_diff / 400.0))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority from wins and losses (draws do not count); 0.5 with none of either."""
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))


@dataclass(frozen=True)
class Summary:
    """A score with its Elo and 95% interval; ``n`` counts games (trinomial) or pairs (pentanomial)."""

    n: int
    score: float
    variance: float  # of one game's (or one pair's per-game) score
    elo: float
    elo_low: float
    elo_high: float

    @property
    def error(self) -> float:
        """Half the width of the 95% Elo interval (the ``±`` figure cutechess prints)."""
        return (self.elo_high - self.elo_low) / 2.0


def _summary(values: Sequence[float], counts: Sequence[float]) -> Summary:
    n = sum(counts)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, math.nan, math.nan)
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    half = Z95 * math.sqrt(var / n)
    return Summary(int(n), mean, var, elo(mean), elo(mean - half), elo(mean + half))


def trinomial(wins: int, draws: int, losses: int) -> Summary:
    """Score, Elo and 95% interval from single games."""
    return _summary((1.0, 0.5, 0.0), (wins, draws, losses))


def pentanomial(counts: Sequence[int]) -> Summary:
    """Score, Elo and 95% interval from pair counts ``[LL, LD, DD+WL, WD, WW]`` (pair score 0..2)."""
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts are 5 numbers [LL, LD, DD+WL, WD, WW], not {list(counts)}")
    return _summary((0.0, 0.25, 0.5, 0.75, 1.0), counts)


def pair_counts(pair_scores: Iterable[float]) -> list[int]:
    """Pentanomial counts from the scores of complete pairs (each 0, 0.5, 1, 1.5 or 2)."""
    counts = [0] * 5
    for s in pair_scores:
        counts[int(round(s * 2))] += 1
    return counts


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: ``elo0`` against H1: ``elo1`` (logistic Elo)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, not {self.elo0:g}, {self.elo1:g}")
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not 0.0 < v < 0.5:
                raise ValueError(f"SPRT {name}={v:g} must be between 0 and 0.5")

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """From ``elo0,elo1[,alpha,beta]``."""
        try:
            parts = [float(p) for p in text.split(",")]
        except ValueError:
            raise ValueError(f"--sprt {text!r}: expected numbers elo0,elo1[,alpha,beta]") from None
        if len(parts) not in (2, 4):
            raise ValueError(f"--sprt {text!r}: expected elo0,elo1 or elo0,elo1,alpha,beta")
        return cls(*parts)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR: ``ln(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR: ``ln((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, values: Sequence[float], counts: Sequence[float]) -> float:
        return sprt_llr(values, counts, self.elo0, self.elo1)

    def decide(self, llr: float) -> str | None:
        """``"H1"`` (elo1 accepted), ``"H0"`` (elo0 accepted) or None (go on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


def sprt_llr(values: Sequence[float], counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The normal-approximation LLR for outcomes scoring ``values`` seen ``counts`` times.

    Trinomial: values ``(0, 0.5, 1)`` with counts ``(L, D, W)``; pentanomial: ``(0, .25, .5, .75, 1)`` with
    the pair counts.  Zero counts become 0.001; no observations give 0.
    """
    if sum(counts) == 0:
        return 0.0
    reg = [c if c > 0 else 1e-3 for c in counts]
    n = sum(reg)
    mean = sum(v * c for v, c in zip(values, reg)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, reg)) / n
    if var <= 0.0:
        return 0.0
    s0, s1 = score_of(elo0), score_of(elo1)
    return (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var / n)


def ratings(
    players: int, results: Iterable[tuple[int, int, float]], prior_draws: float = 1.0, iterations: int = 10_000
) -> list[float]:
    """Elo ratings (mean 0) for ``players`` agents from ``(i, j, score_of_i)`` game results.

    Maximum likelihood of the logistic model (a draw counts as half a win and half a loss), with
    ``prior_draws`` virtual draws added to every pairing that met, as BayesElo's prior does, so that an
    agent that won every game still gets a finite rating.  Solved by the minorisation-maximisation
    iteration of Hunter (2004).
    """
    wins = [[0.0] * players for _ in range(players)]  # wins[i][j]: score of i against j
    for i, j, s in results:
        wins[i][j] += s
        wins[j][i] += 1.0 - s
    games = [[wins[i][j] + wins[j][i] for j in range(players)] for i in range(players)]
    for i in range(players):
        for j in range(players):
            if i != j and games[i][j] > 0:
                wins[i][j] += prior_draws / 2.0
                games[i][j] += prior_draws
    strength = [1.0] * players
    for _ in range(iterations):
        new = []
        for i in range(players):
            w = sum(wins[i])
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(players) if j != i and games[i][j])
            new.append(w / denom if denom > 0 else strength[i])
        # normalise (geometric mean 1) so the ratings centre on 0
        logs = [math.log(max(s, 1e-300)) for s in new]
        mean_log = sum(logs) / players
        new = [math.exp(v - mean_log) for v in logs]
        change = max(abs(a - b) / b for a, b in zip(new, strength))
        strength = new
        if change < 1e-12:
            break
    return [400.0 * math.log10(s) for s in strength]


def fmt_elo(x: float | None, sign: bool = True) -> str:
    """An Elo figure for tables: whole points, ``+0`` rather than ``-0``, ``-`` when unknown."""
    if x is None or math.isnan(x):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    if round(x) == 0:
        return "+0" if sign else "0"
    return f"{x:+.0f}" if sign else f"{x:.0f}"
