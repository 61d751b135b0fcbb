"""A pairing's Elo is printed with its 95% interval's two ends, never a ``±`` half-width.

The interval comes from the score: ``s -+ 1.96 sd`` turned into Elo end by end, ``-400 log10(1/x - 1)``, so it
is lopsided about the Elo (+14 =4 -4 reads +170 with the interval [+44.6, +364.4]: a ``± 160`` would say
[+10, +330]).  The truth here is the textbook formula, written out in this file; the ranking's ``±95%`` (a
normal interval on the Elo scale itself) stays symmetric.
"""

from __future__ import annotations

import io
import math
import statistics

from rich.console import Console

from zerosum.arena.match import ArenaConfig, Tally
from zerosum.arena.plan import plan_games
from zerosum.arena.plots import ranking_marks
from zerosum.arena.report import PairingStats, Report, Standing, print_tables
from zerosum.arena.stats import los, pentanomial, trinomial
from zerosum.arena.store import GameRecord
from zerosum.teaching.matches import MatchResult

Z = statistics.NormalDist().inv_cdf(0.975)


def textbook(values, counts):
    """(Elo, low, high): the mean score and its normal 95% interval, each turned into logistic Elo."""
    n = sum(counts)
    s = sum(v * c for v, c in zip(values, counts)) / n
    sd = math.sqrt(sum(c * (v - s) ** 2 for v, c in zip(values, counts)) / n / n)
    to_elo = lambda x: -400 * math.log10(1 / x - 1)  # noqa: E731
    return to_elo(s), to_elo(s - Z * sd), to_elo(s + Z * sd)


def shown(elo, low, high):
    return f"{round(elo):+d} [{round(low):+d}, {round(high):+d}]"


W, D, L = 14, 4, 4
PAIRS = [0, 1, 3, 3, 4]
GAMES = textbook((1.0, 0.5, 0.0), (W, D, L))
PAIRED = textbook((0.0, 0.25, 0.5, 0.75, 1.0), PAIRS)


def report():
    ps = PairingStats("alphabeta:depth=2", "mcts:sims=20", W, D, L, pairs=list(PAIRS))
    ps.tri, ps.penta, ps.los = trinomial(W, D, L), pentanomial(PAIRS), los(W, L)
    standings = [Standing("alphabeta:depth=2", games=22, points=16.0, elo=85.0, elo_error=120.0),
                 Standing("mcts:sims=20", games=22, points=6.0, elo=-85.0, elo_error=120.0)]
    config = ArenaConfig(game="connect4", agents=["alphabeta:depth=2", "mcts:sims=20"], games=22)
    return Report(config, 22, 22, [ps], standings, {}, {}, 20.0, 0.5, None)


def test_the_textbook_interval_is_lopsided():
    elo, low, high = GAMES
    assert (round(elo), round(low, 1), round(high, 1)) == (170, 44.6, 364.4)
    assert abs((high - elo) - (elo - low)) > 50  # no ± says this


def test_the_pairings_table_prints_both_ends():
    console = Console(file=io.StringIO(), width=200, color_system=None)
    print_tables(report(), console)
    text = console.file.getvalue()
    row = next(line for line in text.splitlines() if "alphabeta:depth=2 vs mcts:sims=20" in line)
    cells = [c.strip() for c in row.split("│")]
    assert cells[5] == shown(*GAMES) == "+170 [+45, +364]"
    assert cells[-2] == shown(*PAIRED)
    assert "±" not in row


def test_the_progress_line_prints_both_ends():
    config = ArenaConfig(game="connect4", agents=["alphabeta:depth=2", "mcts:sims=20"], games=22)
    tally = Tally(config, plan := plan_games(config))
    outcomes = [1.0] * W + [0.5] * D + [0.0] * L  # the first agent's score, game by game
    for g, s in zip(plan, outcomes):
        s_first = s if g.first == 0 else 1.0 - s
        tally.add(GameRecord(g.idx, {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[s_first], None, "x", False))
    line = tally.describe()
    assert f"(+{W} ={D} -{L})  Elo {shown(*GAMES)}" in line and "±" not in line


def test_a_python_match_s_repr_prints_both_ends():
    result = MatchResult("alphabeta:depth=2", "mcts:sims=20", report(), [])
    text = repr(result)
    assert f"Elo {shown(*GAMES)}," in text and "±" not in text
    assert result.elo_interval == (trinomial(W, D, L).elo_low, trinomial(W, D, L).elo_high)
    assert shown(*GAMES) in result._repr_html_()


def test_the_ranking_interval_stays_symmetric():
    for mark, st in zip(ranking_marks(report()), report().standings):
        assert mark.high - mark.elo == mark.elo - mark.low == st.elo_error
