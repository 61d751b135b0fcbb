"""Match statistics the way engine testers compute them (cutechess, fastchess, fishtest).

Scores are from one agent's view: a win 1, a draw 1/2, a loss 0.

- :func:`elo` turns an expected score into a logistic Elo difference: ``-400 log10(1/s - 1)``.
- :func:`trinomial` summarises single games: score, Elo and a 95% interval from the per-game variance
  ``(W (1-s)^2 + D (1/2-s)^2 + L s^2) / N`` divided by ``N`` (games treated as independent).
- :func:`pentanomial` summarises game pairs (same opening, colours swapped): each pair scores 0, 1/4, 1/2, 3/4
  or 1 per game, and the variance comes from those five frequencies divided by the number of pairs.  Pairs
  are not independent of colour and opening bias, so this interval is the honest one when games are paired.
- While every observation fell in one bin (one pair, all draws, all wins...) the sample variance is 0, and a
  normal interval of no width would claim certainty: either interval is then :func:`score_interval`'s exact
  bound (10 wins in 10 games: ``+inf [+140, +inf]``; 10 draws: ``[-111, +111]``), in the tables and plots.
- :func:`los`: likelihood of superiority, ``1/2 + 1/2 erf((W - L) / sqrt(2 (W + L)))`` (cutechess).
- :func:`sprt_llr`: the generalized sequential probability ratio test (GSPRT) as fishtest computes it
  (Michel Van den Bergh's ``LLRcalc.LLR_logistic``): the log-likelihood ratio of the most likely outcome
  distributions whose expected scores are ``s1`` and ``s0`` (those of ``elo1`` and ``elo0``), not its normal
  approximation.  It is bounded, ``N ln((1 - s1)/(1 - s0)) <= LLR <= N ln(s1/s0)`` for ``N`` observations,
  so a handful of pairs can never decide (:attr:`Sprt.fewest`; 20 pairs for ``--sprt 0,50``).
- :func:`ratings`: Elo for every agent of a tournament that played, by maximum likelihood (mean 0 over those;
  ``nan``, no rating, for an agent without a game); :func:`rating_errors` their 95% half-widths from the
  curvature of that likelihood, a symmetric interval.  :func:`competition_ranks` shares a rank between
  agents level with each other (1, 2, 3, 3, 5; :func:`same_elo` for ratings).
- :func:`score_interval`: a summary's 95% score interval kept inside ``[0, 1]``, with an exact one-sided bound
  when every observation scored alike (where the normal interval has no width).
- :func:`fmt_summary`: a score's Elo with its interval's two ends, ``+170 [+45, +364]``: the Elo of a score
  interval is lopsided (the ends are ``elo(s - h)`` and ``elo(s + h)``), so no ``±`` half-width is printed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence, TypeVar

from ..spec import real

__all__ = [
    "Z95", "elo", "score_of", "los", "Summary", "trinomial", "pentanomial", "pair_counts", "SPRT_EPSILON",
    "Sprt", "sprt_llr", "ratings", "rating_errors", "score_interval", "fmt_elo", "fmt_interval",
    "fmt_summary", "fmt_fixed", "fmt_percent", "ELO_PLACES", "same_elo", "competition_ranks",
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
    elo_low: float  # when every observation fell in one bin, the exact bound (see _summary), not a width of 0
    elo_high: float

    @property
    def error(self) -> float:
        """Half the width of the 95% Elo interval (cutechess's ``±``); the interval is lopsided about :attr:`elo`,
        so zerosum prints its two ends instead (:func:`fmt_summary`)."""
        return (self.elo_high - self.elo_low) / 2.0


def _summary(values: Sequence[float], counts: Sequence[float]) -> Summary:
    n = sum(counts)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, math.nan, math.nan)
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    if sum(1 for c in counts if c) < 2:  # one observation, or all alike: the sample's spread (0) says nothing
        low, high = _alike(next(v for v, c in zip(values, counts) if c), n)  # of it: the exact bound instead
        return Summary(int(n), mean, var, elo(mean), elo(low), elo(high))
    half = Z95 * math.sqrt(var / n)
    return Summary(int(n), mean, var, elo(mean), elo(mean - half), elo(mean + half))


def _alike(v: float, n: float) -> tuple[float, float]:
    """The 95% bound of a score when all ``n`` observations scored ``v`` (:func:`score_interval`)."""
    return v * 0.025 ** (1.0 / n), 1.0 - (1.0 - v) * 0.025 ** (1.0 / n)


def score_interval(s: Summary, values: Sequence[float] = (0.0, 0.5, 1.0)) -> tuple[float, float]:
    """The 95% interval of ``s.score`` inside ``[0, 1]`` (what a score can be): the normal interval of
    :class:`Summary` clipped, or, when it has no width because all ``n`` observations scored ``v`` (one of
    ``values``), the exact bound ``[v c, 1 - (1 - v) c]`` with ``c = 0.025^(1/n)``: a distribution on
    ``[0, 1]`` with mean ``p`` gives ``v`` at most ``p / v`` or ``(1 - p) / (1 - v)`` of the time, so outside
    that range ``n`` alike results have probability under 2.5%.  All losses give ``[0, 1 - c]`` (one-sided);
    ``(nan, nan)`` without observations.  :class:`Summary`'s Elo interval is this one on the Elo scale."""
    if not s.n:
        return math.nan, math.nan
    if s.variance > 0.0:
        half = Z95 * math.sqrt(s.variance / s.n)
        return max(0.0, s.score - half), min(1.0, s.score + half)
    return _alike(min(values, key=lambda x: abs(x - s.score)), s.n)


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


#: a zero count is taken as this many observations, as fishtest's ``regularize`` does: the most likely
#: distribution with a given mean then never needs an outcome that was not seen to be impossible
SPRT_EPSILON = 1e-3


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: ``elo0`` against H1: ``elo1`` (logistic Elo, the scale of
    :func:`elo`: ``--sprt 0,50`` tests a 0 against a 50 point advantage), with error rates ``alpha``
    (accepting H1 when ``elo0`` is true) and ``beta`` (accepting H0 when ``elo1`` is true)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            v = getattr(self, name)
            if not -2000.0 <= v <= 2000.0:  # also refuses nan and inf
                raise ValueError(f"SPRT {name}={v:g} must be an Elo difference between -2000 and 2000")
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
            parts = [real(p.strip()) for p in text.split(",")]
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

    @property
    def fewest(self) -> int:
        """The fewest observations (pairs, or games when unpaired) that can reach a bound.

        One observation moves the GSPRT's LLR by at most ``ln(s1/s0)`` up or ``ln((1-s0)/(1-s1))`` down
        (see :func:`sprt_llr`; zero counts add at most ``5 SPRT_EPSILON`` observations).
        """
        s0, s1 = score_of(self.elo0), score_of(self.elo1)
        up = self.upper / math.log(s1 / s0)
        down = -self.lower / math.log((1.0 - s0) / (1.0 - s1))
        return max(1, math.ceil(min(up, down) - 5 * SPRT_EPSILON))

    def llr(self, values: Sequence[float], counts: Sequence[float]) -> float:
        return sprt_llr(values, counts, self.elo0, self.elo1)

    def decide(self, llr: float) -> str | None:
        """``"H1"`` (elo1 accepted), ``"H0"`` (elo0 accepted) or None (go on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


def _log_factors(values: Sequence[float], weights: Sequence[float], s: float) -> list[float]:
    """``ln(1 + x (v - s))`` for each outcome ``v``, where the most likely distribution with mean ``s``
    given ``weights`` is ``p = weights / (N (1 + x (v - s)))`` (Van den Bergh, "support_MLE_multinomial",
    Proposition 1.1): ``x`` is the root of the decreasing ``f(x) = sum w d / (1 + x d)``, ``d = v - s``,
    between the poles ``-1/max(d)`` and ``-1/min(d)``; Newton's method kept inside a shrinking bracket.
    """
    d = [v - s for v in values]
    lo, hi = -1.0 / max(d), -1.0 / min(d)
    x = 0.0
    for _ in range(200):
        f = fp = 0.0
        for w, di in zip(weights, d):
            q = 1.0 / (1.0 + x * di)
            f += w * di * q
            fp -= w * di * di * q * q
        if f > 0.0:
            lo = x
        elif f < 0.0:
            hi = x
        else:
            break
        step = x - f / fp
        nxt = step if lo < step < hi else 0.5 * (lo + hi)
        if abs(nxt - x) <= 1e-15 * max(1.0, abs(x)):
            break
        x = nxt
    return [math.log1p(x * di) for di in d]


def sprt_llr(values: Sequence[float], counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of ``elo1`` against ``elo0`` for outcomes scoring ``values``
    (in ``[0, 1]`` per game, 0 and 1 among them) seen ``counts`` times.

    Trinomial: values ``(0, 0.5, 1)`` with counts ``(L, D, W)``; pentanomial: ``(0, .25, .5, .75, 1)`` with
    the pair counts ``[LL, LD, DD+WL, WD, WW]``.  The nuisance (the shape of the outcome distribution) is
    fitted by maximum likelihood under each hypothesis: ``LLR = sum_i n_i ln(p1_i / p0_i)`` where ``pk`` is
    the most likely distribution whose mean is ``sk = score_of(elok)``.  Zero counts count as
    :data:`SPRT_EPSILON`; no observations give 0.  For ``N`` observations the LLR lies between
    ``N ln((1 - s1)/(1 - s0))`` and ``N ln(s1/s0)`` (mixing the fitted ``p1`` with a sure loss gives a
    distribution of mean ``s0`` at least ``s0/s1`` as likely for every outcome, and likewise with a sure
    win), so unlike its normal approximation ``N (s - (s0+s1)/2)(s1 - s0)/var`` it cannot explode when the
    few outcomes seen have nearly no variance.
    """
    if len(values) != len(counts):
        raise ValueError(f"{len(values)} outcome values but {len(counts)} counts")
    if any(not c >= 0 for c in counts):
        raise ValueError(f"counts must be numbers >= 0, not {list(counts)}")
    if sum(counts) == 0:
        return 0.0
    s0, s1 = score_of(elo0), score_of(elo1)
    if not min(values) < s0 < s1 < max(values):
        raise ValueError(f"the scores {s0:g}, {s1:g} of elo0, elo1 must lie strictly between the outcomes")
    w = [c if c > 0 else SPRT_EPSILON for c in counts]
    f0, f1 = _log_factors(values, w, s0), _log_factors(values, w, s1)
    return sum(wi * (a - b) for wi, a, b in zip(w, f0, f1))


def ratings(
    players: int, results: Iterable[tuple[int, int, float]], prior_draws: float = 1.0, iterations: int = 10_000
) -> list[float]:
    """Elo ratings (mean 0) for ``players`` agents from ``(i, j, score_of_i)`` game results; ``nan`` (no
    rating) for an agent without a game, which takes no part in the mean either.

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
    played = [i for i in range(players) if any(games[i][j] for j in range(players) if j != i)]
    strength = [1.0] * players
    for _ in range(iterations if played else 0):
        new = list(strength)
        for i in played:
            w = sum(wins[i])
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(players) if j != i and games[i][j])
            new[i] = w / denom if denom > 0 else strength[i]
        # normalise (geometric mean 1 over the agents that played) so their ratings centre on 0
        mean_log = sum(math.log(max(new[i], 1e-300)) for i in played) / len(played)
        for i in played:
            new[i] = math.exp(math.log(max(new[i], 1e-300)) - mean_log)
        change = max(abs(new[i] - strength[i]) / strength[i] for i in played)
        strength = new
        if change < 1e-12:
            break
    rated = set(played)
    return [400.0 * math.log10(s) if i in rated else math.nan for i, s in enumerate(strength)]


def rating_errors(
    players: int, results: Iterable[tuple[int, int, float]], elos: Sequence[float], prior_draws: float = 1.0
) -> list[float]:
    """Half the width of each rating's 95% interval (Elo points) for the :func:`ratings` ``elos`` of the same
    ``results``: ``Z95`` standard errors from the inverse of the likelihood's curvature (the Fisher
    information ``sum n_ij p_ij (1 - p_ij)``, with the same prior draws; a pseudo-inverse, as ratings are
    fixed only up to their mean).  ``nan`` for an agent that played no game."""
    import numpy as np

    games = np.zeros((players, players))
    for i, j, _ in results:
        games[i, j] += 1.0
        games[j, i] += 1.0
    games[games > 0] += prior_draws
    e = np.nan_to_num(np.asarray(elos, dtype=float), nan=0.0) * math.log(10.0) / 400.0  # nan: no game, no weight
    p = 1.0 / (1.0 + np.exp(e[None, :] - e[:, None]))  # p[i, j]: i's expected score against j
    w = games * p * (1.0 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.pinv(info)
    scale = Z95 * 400.0 / math.log(10.0)
    played = games.sum(axis=1) > 0
    return [scale * math.sqrt(max(cov[i, i], 0.0)) if played[i] else math.nan for i in range(players)]


def fmt_elo(x: float | None, sign: bool = True) -> str:
    """An Elo figure for tables: whole points, ``+0`` rather than ``-0``, ``-`` when unknown; without ``sign``
    (a ``±`` half-width) an infinite one is ``inf``."""
    if x is None or math.isnan(x):
        return "-"
    if math.isinf(x):
        return "-inf" if x < 0 else "+inf" if sign else "inf"
    if round(x) == 0:
        return "+0" if sign else "0"
    return f"{x:+.0f}" if sign else f"{x:.0f}"


def fmt_interval(x: float | None, low: float, high: float) -> str:
    """An Elo with its 95% interval's two ends, ``+170 [+45, +364]`` (an end may be ``-inf`` or ``+inf``);
    ``-`` when the Elo is unknown (no games)."""
    if x is None or math.isnan(x):
        return "-"
    return f"{fmt_elo(x)} [{fmt_elo(low)}, {fmt_elo(high)}]"


def fmt_summary(s: Summary | None) -> str:
    """A :class:`Summary`'s Elo and interval as :func:`fmt_interval` writes them; ``-`` without games."""
    return "-" if s is None or not s.n else fmt_interval(s.elo, s.elo_low, s.elo_high)


def fmt_percent(p: float) -> str:
    """A probability as a percentage with one decimal, never rounded to a certainty it is not: ``>99.9%`` for
    0.99978, ``<0.1%`` for 0.0002 (``100.0%`` and ``0.0%`` only when exact); ``-`` for NaN."""
    if not math.isfinite(p):
        return "-"
    if 0.9995 <= p < 1.0:
        return ">99.9%"
    if 0.0 < p < 0.0005:
        return "<0.1%"
    return f"{100 * p:.1f}%"


def fmt_fixed(x: float, places: int) -> str:
    """``x`` with ``places`` decimals, or, where those would show a nonzero ``x`` as zero, two significant
    digits (``0.013``, not ``0.0``)."""
    text = f"{x:.{places}f}"
    if x == 0 or not math.isfinite(x) or float(text) != 0.0:
        return text
    decimals = 1 - math.floor(math.log10(abs(x)))
    return f"{x:.{decimals}f}" if decimals <= 12 else f"{x:.1e}"


#: ratings equal when rounded to this many decimals are level (share a rank): ratings are found by iteration,
#: so equal records can give ratings that differ in their last bits
ELO_PLACES = 6

T = TypeVar("T")


def same_elo(a: float, b: float) -> bool:
    """Whether two ratings are level (:data:`ELO_PLACES`)."""
    return round(a, ELO_PLACES) == round(b, ELO_PLACES)


def competition_ranks(items: Sequence[T], level: Callable[[T, T], bool]) -> list[int]:
    """The ranks of ``items`` listed best first, standard competition ranking (1, 2, 3, 3, 5): an item
    ``level`` with the one before it shares its rank, the next one's rank counts both."""
    ranks: list[int] = []
    for k, item in enumerate(items):
        ranks.append(ranks[-1] if k and level(items[k - 1], item) else k + 1)
    return ranks
