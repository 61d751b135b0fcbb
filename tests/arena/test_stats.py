"""Arena statistics against numbers worked out by hand (the arithmetic is written in the comments)."""

import math

import pytest

from zerosum.arena.stats import (
    Sprt,
    elo,
    fmt_elo,
    fmt_summary,
    los,
    pair_counts,
    pentanomial,
    ratings,
    score_interval,
    score_of,
    sprt_llr,
    trinomial,
)


def test_elo_from_score():
    assert elo(0.5) == 0.0
    # -400 log10(1/0.75 - 1) = -400 log10(1/3) = 400 * 0.4771213 = 190.8485
    assert elo(0.75) == pytest.approx(190.8485, abs=1e-3)
    assert elo(0.25) == pytest.approx(-190.8485, abs=1e-3)
    # -400 log10(1/0.64 - 1) = -400 log10(0.5625) = 400 * 0.2498775 = 99.9510
    assert elo(0.64) == pytest.approx(99.9510, abs=1e-3)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    assert score_of(190.8485) == pytest.approx(0.75, abs=1e-6)


def test_trinomial_interval():
    # W=6 D=2 L=2: score (6 + 1) / 10 = 0.7, Elo -400 log10(3/7) = 147.1907
    # variance (6 * 0.3^2 + 2 * 0.2^2 + 2 * 0.7^2) / 10 = (0.54 + 0.08 + 0.98) / 10 = 0.16
    # half width 1.959964 * sqrt(0.16 / 10) = 1.959964 * 0.1264911 = 0.2479180
    # Elo(0.7 - 0.2479180 = 0.4520820) = -33.3994, Elo(0.9479180) = +504.0333
    s = trinomial(6, 2, 2)
    assert s.n == 10
    assert s.score == pytest.approx(0.7)
    assert s.variance == pytest.approx(0.16)
    assert s.elo == pytest.approx(147.1907, abs=1e-3)
    assert s.elo_low == pytest.approx(-33.3994, abs=1e-3)
    assert s.elo_high == pytest.approx(504.0333, abs=1e-3)
    assert s.error == pytest.approx((504.0333 + 33.3994) / 2, abs=1e-3)


def test_pentanomial_interval():
    # pairs [LL, LD, DD/WL, WD, WW] = [1, 1, 4, 3, 1] score 0, 1/4, 1/2, 3/4, 1 per game
    # mean (0.25 + 2 + 2.25 + 1) / 10 = 0.55; Elo -400 log10(0.45 / 0.55) = 34.8601
    # variance (0.55^2 + 0.3^2 + 4 * 0.05^2 + 3 * 0.2^2 + 0.45^2) / 10 = 0.725 / 10 = 0.0725
    # half width 1.959964 * sqrt(0.0725 / 10) = 0.1668849: Elo(0.3831151) = -82.7500, Elo(0.7168849) = 161.3946
    s = pentanomial([1, 1, 4, 3, 1])
    assert s.n == 10
    assert s.score == pytest.approx(0.55)
    assert s.variance == pytest.approx(0.0725)
    assert s.elo == pytest.approx(34.8601, abs=1e-3)
    assert s.elo_low == pytest.approx(-82.7500, abs=1e-3)
    assert s.elo_high == pytest.approx(161.3946, abs=1e-3)
    with pytest.raises(ValueError):
        pentanomial([1, 2, 3])


def test_pair_counts():
    # pair scores 0, 0.5, 1, 1, 1.5, 2, 2 -> LL 1, LD 1, DD/WL 2, WD 1, WW 2
    assert pair_counts([0, 0.5, 1, 1.0, 1.5, 2, 2]) == [1, 1, 2, 1, 2]


def test_no_games():
    s = trinomial(0, 0, 0)
    assert s.n == 0 and math.isnan(s.score)


@pytest.mark.parametrize("summary", [
    pentanomial([0, 0, 1, 0, 0]),  # one pair, won and lost: no variance from one observation
    pentanomial([0, 0, 2, 0, 0]),  # two pairs in one bin
    pentanomial([0, 0, 0, 0, 5]),  # every pair won twice
    pentanomial([3, 0, 0, 0, 0]),
    trinomial(0, 6, 0),  # all draws
    trinomial(1, 0, 0),  # one game
    trinomial(0, 0, 10),
])
def test_outcomes_all_alike_give_the_exact_bound_not_certainty(summary):
    # the sample variance of observations all in one bin is 0: a normal interval of no width would claim the
    # Elo is known exactly (the pairs column once read "+0 ± 0" after one pair); then [-inf, +inf], which said
    # nothing after 10 straight wins.  Now the exact bound, the plots' (score_interval), with width
    assert summary.variance == 0.0
    low, high = score_interval(summary, (0.0, 0.25, 0.5, 0.75, 1.0))
    assert 0.0 <= low <= summary.score <= high <= 1.0 and high - low > 0.1
    assert (summary.elo_low, summary.elo_high) == (elo(low), elo(high))
    assert summary.elo_low < summary.elo_high and summary.elo_low <= summary.elo <= summary.elo_high


def test_all_alike_bounds_against_the_binomial_tail() -> None:
    # independent truth: n games all won (or all lost) have probability p^n under a win rate p, so the bound
    # is the p where p^n = 2.5% (Clopper-Pearson's one-sided bound for n of n); 10 of 10: p = 0.6915
    for n in (1, 3, 10, 40):
        p = 0.025 ** (1 / n)
        assert trinomial(n, 0, 0).elo_low == pytest.approx(-400 * math.log10(1 / p - 1))
        assert trinomial(n, 0, 0).elo_high == math.inf
        assert trinomial(0, 0, n).elo_high == pytest.approx(400 * math.log10(1 / p - 1))
        assert trinomial(0, 0, n).elo_low == -math.inf
    assert fmt_summary(trinomial(10, 0, 0)) == "+inf [+140, +inf]"
    assert fmt_summary(trinomial(0, 10, 0)) == "+0 [-111, +111]"


def test_two_outcomes_give_a_finite_interval():
    # pairs [0, 0, 1, 1, 0]: per-game scores 0.5 and 0.75, mean 0.625, variance 0.015625 (two observations)
    # half width 1.959964 * sqrt(0.015625 / 2) = 0.1732408: Elo(0.4517592) = -33.5 .. Elo(0.7982408) = +238.9
    s = pentanomial([0, 0, 1, 1, 0])
    assert s.variance == pytest.approx(0.015625)
    assert s.elo_low == pytest.approx(elo(0.625 - 0.1732408), abs=1e-2)
    assert s.elo_high == pytest.approx(elo(0.625 + 0.1732408), abs=1e-2)
    assert math.isfinite(s.error)


def test_fmt_elo_of_an_unknown_half_width_reads_inf():
    assert fmt_elo(math.inf, sign=False) == "inf"  # "± inf", not "± +inf"
    assert fmt_elo(math.inf) == "+inf" and fmt_elo(-math.inf) == "-inf"
    assert fmt_elo(-0.3) == "+0" and fmt_elo(12.4, sign=False) == "12" and fmt_elo(math.nan) == "-"

def test_los():
    # 1/2 + 1/2 erf((6 - 2) / sqrt(2 * 8)) = 1/2 + 1/2 erf(1) = 1/2 + 1/2 * 0.8427008 = 0.9213504
    assert los(6, 2) == pytest.approx(0.9213504, abs=1e-6)
    assert los(3, 3) == 0.5
    assert los(0, 0) == 0.5
    # erf(10 / sqrt(20)) = erf(2.2360680) = 0.9984346: LOS 0.9992173
    assert los(10, 0) == pytest.approx(0.9992173, abs=1e-6)
    assert los(2, 6) == pytest.approx(1 - 0.9213504, abs=1e-6)


def test_sprt_bounds():
    t = Sprt(0, 10)
    # ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = +2.944439
    assert t.lower == pytest.approx(-2.944439, abs=1e-6)
    assert t.upper == pytest.approx(2.944439, abs=1e-6)
    t2 = Sprt(0, 10, 0.05, 0.1)
    # ln(0.1 / 0.95) = -2.251292, ln(0.9 / 0.05) = 2.890372
    assert t2.lower == pytest.approx(-2.251292, abs=1e-6)
    assert t2.upper == pytest.approx(2.890372, abs=1e-6)


TRI = (0.0, 0.5, 1.0)
PENTA = (0.0, 0.25, 0.5, 0.75, 1.0)


def test_sprt_llr_without_draws_is_the_binomial_llr():
    # with two outcomes only the distribution of mean s is fixed (p(win) = s): no nuisance is fitted and the
    # GSPRT is Wald's binomial test.  elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.5143872
    # ln(s1/s0) = 0.0283682, ln((1-s1)/(1-s0)) = -0.0291965
    # W=6 L=4: 6 * 0.0283682 - 4 * 0.0291965 = 0.0534231 (the draws never seen weigh 0.001: +5e-6)
    assert sprt_llr(TRI, (4, 0, 6), 0, 10) == pytest.approx(0.0534231, abs=1e-4)
    # pairs LL and WW only: the same numbers on the pentanomial scale
    assert sprt_llr(PENTA, (4, 0, 0, 0, 6), 0, 10) == pytest.approx(0.0534231, abs=1e-4)
    # 100 times over: 600 * 0.0283682 - 400 * 0.0291965 = 5.342309 -> H1 accepted
    assert sprt_llr(TRI, (400, 0, 600), 0, 10) == pytest.approx(5.342309, abs=1e-4)
    # W=400 L=600: 400 * 0.0283682 - 600 * 0.0291965 = -6.170630 -> H0 accepted
    assert sprt_llr(TRI, (600, 0, 400), 0, 10) == pytest.approx(-6.170630, abs=1e-4)
    t = Sprt(0, 10)
    assert t.decide(0.0534231) is None
    assert t.decide(5.342309) == "H1"
    assert t.decide(-6.170630) == "H0"
    assert sprt_llr(PENTA, (0, 0, 0, 0, 0), 0, 10) == 0.0


def test_sprt_llr_of_a_one_sided_match_grows_by_a_bounded_step():
    # all pairs won twice: the likeliest distribution of mean s puts s on a win and 1 - s on a loss, so each
    # pair adds ln(s1/s0); at 0,50 s1 = 1 / (1 + 10^(-0.125)) = 0.5714631 and ln(1.1429262) = 0.1335918
    t = Sprt(0, 50)
    assert t.llr(PENTA, (0, 0, 0, 0, 5)) == pytest.approx(5 * 0.1335918, abs=2e-3)
    assert t.decide(t.llr(PENTA, (0, 0, 0, 0, 5))) is None  # the old normal approximation said H1 here
    # all lost: ln((1-s1)/(1-s0)) = ln(0.8570738) = -0.1542313 a pair
    assert t.llr(PENTA, (5, 0, 0, 0, 0)) == pytest.approx(5 * -0.1542313, abs=2e-3)
    assert t.decide(t.llr(PENTA, (5, 0, 0, 0, 0))) is None
    # all drawn (trinomial): mean s1 needs p(draw) = 2 (1 - s1): 7 draws give 7 ln(0.8570738) = -1.0796191
    # (the wins never seen weigh 0.001 and move it by 0.007)
    assert t.llr(TRI, (0, 7, 0)) == pytest.approx(-1.0796191, abs=0.01)


def test_sprt_llr_bad_input():
    for values, counts in ((TRI, (1, 2)), (TRI, (1, -1, 2)), (TRI, (1, math.nan, 2))):
        with pytest.raises(ValueError):
            sprt_llr(values, counts, 0, 10)
    with pytest.raises(ValueError):  # the hypotheses' scores must lie inside the outcomes
        sprt_llr((0.25, 0.75), (1, 1), 0, 400)


def test_sprt_parse_and_bad_input():
    assert Sprt.parse("0,10") == Sprt(0, 10, 0.05, 0.05)
    assert Sprt.parse("-5,5,0.1,0.2") == Sprt(-5, 5, 0.1, 0.2)
    for bad in ("10", "10,0", "a,b", "0,10,0.5", "0,10,0,0.1", "0,10,0.05,0.7", "nan,50", "0,inf", "0,3000",
                "0,1e999", "0,10,0.05,0.05,1", "0,5²"):
        with pytest.raises(ValueError):
            Sprt.parse(bad)


def test_ratings_two_players():
    # A beats B 3 times and loses once: the maximum-likelihood difference is Elo(0.75) = 190.8485,
    # so A = +95.4243 and B = -95.4243 (mean 0)
    games = [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)]
    r = ratings(2, games, prior_draws=0)
    assert r[0] == pytest.approx(95.4243, abs=1e-3)
    assert r[1] == pytest.approx(-95.4243, abs=1e-3)
    # one virtual draw: A scores 3.5 / 5 = 0.7, difference Elo(0.7) = 147.1907
    r = ratings(2, games, prior_draws=1)
    assert r[0] - r[1] == pytest.approx(147.1907, abs=1e-3)


def test_ratings_three_players_consistent():
    # A-B 7.5/10, B-C 7.5/10, A-C 9/10: differences of Elo(0.75) = 190.8485 each way fit exactly
    # (two steps: 381.697, whose expected score 1 / (1 + 10^(-0.954243)) = 0.9): A +190.85, B 0, C -190.85
    g = []
    g += [(0, 1, 1.0)] * 7 + [(0, 1, 0.5)] + [(0, 1, 0.0)] * 2
    g += [(1, 2, 1.0)] * 7 + [(1, 2, 0.5)] + [(1, 2, 0.0)] * 2
    g += [(0, 2, 1.0)] * 9 + [(0, 2, 0.0)]
    r = ratings(3, g, prior_draws=0)
    assert r == pytest.approx([190.8485, 0.0, -190.8485], abs=1e-2)


def test_ratings_perfect_score_is_finite():
    r = ratings(2, [(0, 1, 1.0)] * 10)
    # prior: 10.5 / 11 -> Elo(0.9545455) = -400 log10(1/21) = 528.8867
    assert r[0] - r[1] == pytest.approx(528.8867, abs=1e-2)
