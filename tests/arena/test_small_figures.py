"""A mean that is not zero is never printed as zero: the report's seconds a game and ms a move keep two
significant digits below their usual decimals (0.0035 s a game, not 0.00; 0.013 ms a move, not 0.0)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from zerosum.arena.match import ArenaConfig
from zerosum.arena.report import PairingStats, Report, Standing, print_tables
from zerosum.arena.stats import fmt_fixed, los, pentanomial, trinomial


@pytest.mark.parametrize("x, places, text", [
    (0.0035, 2, "0.0035"), (0.013, 1, "0.013"), (0.00042, 3, "0.00042"), (0.0496, 1, "0.050"),
    (1.25, 2, "1.25"), (0.0, 2, "0.00"), (12.0, 1, "12.0"), (0.006, 2, "0.01"), (-0.004, 2, "-0.0040"),
])
def test_fmt_fixed_never_shows_a_nonzero_value_as_zero(x, places, text):
    assert fmt_fixed(x, places) == text
    assert float(fmt_fixed(x, places)) != 0.0 or x == 0.0


def test_the_report_shows_sub_hundredth_means():
    ps = PairingStats("random", "first", 1, 0, 1, pairs=[0, 0, 1, 0, 0])
    ps.tri, ps.penta, ps.los = trinomial(1, 0, 1), pentanomial(ps.pairs), los(1, 1)
    standings = [Standing("random", games=2, points=1.0, elo=0.0, elo_error=500.0, move_ms=0.013),
                 Standing("first", games=2, points=1.0, elo=0.0, elo_error=500.0, move_ms=0.0049)]
    config = ArenaConfig(game="tictactoe", agents=["random", "first"], games=2)
    report = Report(config, 2, 2, [ps], standings, {}, {"three in a row": 2}, 5.5, 0.0035, None)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    print_tables(report, console)
    text = console.file.getvalue()
    assert "5.5 moves and 0.0035 s a game on average" in text
    cells = {line.split("│")[2].strip(): line.split("│")[9].strip() for line in text.split("Ranking")[1].splitlines()
             if line.startswith("│")}
    assert cells == {"random": "0.013", "first": "0.0049"}


@pytest.mark.parametrize("p, text", [(0.99978, ">99.9%"), (1.0, "100.0%"), (0.9994, "99.9%"), (0.5, "50.0%"),
                                     (0.0002, "<0.1%"), (0.0, "0.0%"), (0.0006, "0.1%"), (float("nan"), "-")])
def test_a_likelihood_of_superiority_is_never_rounded_to_a_certainty(p, text):
    # LOS 0.99978 printed as 100.0%: a certainty no match gives (an engine testers' audit)
    from zerosum.arena.stats import fmt_percent

    assert fmt_percent(p) == text


def test_the_report_prints_a_near_certain_los_as_such():
    ps = PairingStats("a", "b", 14, 0, 0, pairs=[0, 0, 0, 0, 7])
    ps.tri, ps.penta, ps.los = trinomial(14, 0, 0), pentanomial(ps.pairs), los(14, 0)
    assert 0.9995 <= ps.los < 1.0, ps.los
    standings = [Standing("a", games=14, points=14.0, elo=200.0, elo_error=300.0, move_ms=1.0),
                 Standing("b", games=14, points=0.0, elo=-200.0, elo_error=300.0, move_ms=1.0)]
    report = Report(ArenaConfig(game="tictactoe", agents=["a", "b"], games=14), 14, 14, [ps], standings, {},
                    {"three in a row": 14}, 5.5, 0.01, None)
    console = Console(file=io.StringIO(), width=200, color_system=None)
    print_tables(report, console)
    row = next(line for line in console.file.getvalue().splitlines() if line.startswith("│ a vs b"))
    assert row.split("│")[6].strip() == ">99.9%", row  # the LOS column (the score's 100.0% is exact)
