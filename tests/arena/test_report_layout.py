"""Tables that fit the terminal without making two agents look alike, and plots drawn from honest numbers.

The tables are checked at 80 and 60 columns (rich consoles of that width, and ``COLUMNS`` through the
command); the plots through the data they are drawn from (:func:`pairing_marks`, :func:`ranking_marks`).
"""

import io
import math
import re
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console
from rich.progress import Progress

from zerosum.arena.match import ArenaConfig
from zerosum.arena.plots import pairing_marks, ranking_marks, write_plots
from zerosum.arena.report import (
    PairingStats,
    Report,
    Standing,
    letter_labels,
    print_tables,
    progress_columns,
    short_labels,
    summarize,
    table_layout,
)
from zerosum.arena.stats import Z95, pentanomial, rating_errors, ratings, score_interval, trinomial
from zerosum.arena.store import Store
from zerosum.cli import main
from zerosum.errors import UsageError

AGENTS = ["alphabeta:depth=2", "alphabeta:depth=4", "random"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    db = tmp_path_factory.mktemp("layout") / "t.db"
    assert main(["tournament", *AGENTS, "--game", "tictactoe", "--games", "4", "--jobs", "1",
                 "--out", str(db), "--quiet"]) == 0
    return db


@pytest.fixture(scope="module")
def report(results):
    with Store(results) as store:
        return summarize(store)


def render(report, width):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    print_tables(report, console)
    return console.file.getvalue(), console


NUMBER = re.compile(r"[+-]?\d[\d,.]*%?")


# ---- labels ----------------------------------------------------------------------------------------


def test_short_labels_tell_depths_apart_and_stay_unique():
    short = short_labels(AGENTS)
    assert short == ["ab:d2", "ab:d4", "random"]
    assert short_labels(["mcts:time=1,c=1.4", "minimax:depth=3", "alphabeta:depth=2#2"]) == ["mcts:t1,c1.4", "mm:d3", "ab:d2#2"]
    # two options with one initial would read alike: letters instead
    assert short_labels(["alphabeta:depth=2", "alphabeta:dscale=2"]) == ["A", "B"]
    assert short_labels(["a_very_long_student_file.py:agent", "random"]) == ["A", "B"]
    assert short_labels(["ab:d2", "alphabeta:depth=2"]) == ["A", "B"]  # a label may not be another agent's name
    letters = letter_labels(60)
    assert len(set(letters)) == 60 and letters[:2] == ["A", "B"] and letters[26:28] == ["AA", "AB"]


# ---- tables ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [80, 60])
def test_tables_fit_the_width_with_unique_labels_and_a_legend(report, width):
    text, console = render(report, width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert "…" not in text
    name, _ = table_layout(report, console)
    shown = list(name.values())
    assert len(set(shown)) == len(shown) == 3
    assert name["alphabeta:depth=2"] != name["alphabeta:depth=4"]
    legend = text[text.index("Agents"):text.index("Pairings")]
    for spec in AGENTS:  # every full spec in the legend, beside its label
        assert any(line.split()[:2] == [name[spec], spec] for line in legend.splitlines() if line.strip()), spec
    ranking = text[text.index("Ranking"):]
    for label in shown:  # each label names exactly one row of the ranking
        assert sum(1 for line in ranking.splitlines() if label in line.split()) == 1


def test_narrow_tables_show_the_same_numbers_as_wide_ones(report):
    wide, _ = render(report, 200)
    narrow, _ = render(report, 80)
    assert set(NUMBER.findall(wide)) <= set(NUMBER.findall(narrow))


def test_a_wide_console_keeps_the_full_names(report):
    text, console = render(report, 200)
    name, _ = table_layout(report, console)
    assert all(k == v for k, v in name.items())
    assert "Agents" not in text
    assert "alphabeta:depth=2 vs alphabeta:depth=4" in text
    assert max(len(line) for line in text.splitlines()) <= 200


def test_report_command_uses_COLUMNS(results, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["report", str(results), "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Agents" in out and "ab:d2" in out and "ab:d4" in out and "…" not in out


def one_pairing(wdl, pairs, **config):
    """A report of one pairing with the given (wins, draws, losses) and pair counts."""
    ps = PairingStats("first", "random", *wdl, pairs=list(pairs))
    ps.tri, ps.penta = trinomial(*wdl), pentanomial(pairs)
    standings = [Standing("first", games=sum(wdl)), Standing("random", games=sum(wdl))]
    cfg = ArenaConfig(game="connect4", agents=["first", "random"], games=sum(wdl), **config)
    return Report(cfg, sum(wdl), sum(wdl), [ps], standings, {}, {}, 10.0, 0.1, None)


@pytest.mark.parametrize("wdl, pairs, games, paired", [
    ((1, 0, 1), [0, 0, 1, 0, 0], "+0 [-inf, +inf]", "+0 [-759, +759]"),  # one pair, won and lost (games: 0.5 ±
    ((2, 0, 2), [0, 0, 2, 0, 0], "+0 [-798, +798]", "+0 [-427, +427]"),  # 0.69 passes 0 and 1); two pairs WL
    ((0, 4, 0), [0, 0, 2, 0, 0], "+0 [-242, +242]", "+0 [-427, +427]"),  # all draws: the exact bound in both
])
def test_outcomes_all_alike_show_the_exact_bound_never_plus_minus_0(wdl, pairs, games, paired):
    text, _ = render(one_pairing(wdl, pairs), 160)
    assert not re.search(r"± 0\b", text)
    row = next(line for line in text.splitlines() if "first vs random" in line)
    cells = [c.strip() for c in row.split("│")]
    assert cells[-2] == paired  # Elo (pairs)
    assert cells[5] == games  # Elo (games)


def test_match_of_one_pair_shows_no_pairs_interval(tmp_path, monkeypatch, capsys):
    db = tmp_path / "z.db"
    monkeypatch.setenv("COLUMNS", "130")
    assert main(["match", "first", "random", "--games", "2", "-o", str(db), "--jobs", "1"]) == 0
    live = capsys.readouterr().out
    assert main(["report", str(db), "--no-plots"]) == 0
    for text in (live, capsys.readouterr().out):
        row = next(line for line in text.splitlines() if "first vs random" in line)
        assert "[-" in row.split("│")[-2] and not re.search(r"± 0\b", row)  # the pairs' Elo cell: an interval


def test_report_states_the_time_control_and_adjudication_of_the_run(tmp_path, monkeypatch, capsys):
    text, _ = render(one_pairing((1, 0, 1), [0, 0, 1, 0, 0], tc=[2.0, 0.05], adjudicate={"draw": 30}), 160)
    header = " ".join(text.split("Pairings")[0].split())
    assert "time control 2+0.05" in header and "adjudication: draw after 30 moves" in header
    text = " ".join(render(one_pairing((1, 0, 1), [0, 0, 1, 0, 0], adjudicate={"solver": 100}), 160)[0].split())
    assert "adjudication: solver (100 nodes a check)" in text and "time control" not in text
    text, _ = render(one_pairing((1, 0, 1), [0, 0, 1, 0, 0]), 160)
    assert "time control" not in text and "adjudication" not in text  # as the live run: nothing when neither
    # the command, from the stored run's settings
    db = tmp_path / "r.db"
    monkeypatch.setenv("COLUMNS", "130")
    assert main(["match", "first", "random", "--games", "4", "--tc", "2+0.05", "--adjudicate", "draw=30",
                 "-o", str(db), "--jobs", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(db), "--no-plots"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "time control 2+0.05" in out and "adjudication: draw after 30 moves" in out

def test_progress_line_folds_rather_than_cutting_the_count():
    for width in (80, 60):
        console = Console(file=io.StringIO(), width=width, color_system=None)
        bar = Progress(*progress_columns(console), console=console, auto_refresh=False)
        bar.add_task("alphabeta:depth=2 4 - 6 alphabeta:depth=4  (+1 =6 -3)  Elo -70 [-226, +60]", total=1000, completed=1000)
        console.print(bar.make_tasks_table(bar.tasks))
        text = console.file.getvalue()
        assert "1000/1000" in text and "…" not in text
        assert "alphabeta:depth=2" in text and "alphabeta:depth=4" in text
        assert max(len(line) for line in text.splitlines()) <= width


# ---- plots -----------------------------------------------------------------------------------------


def synthetic(rows):
    """A report of pairings with the given (wins, draws, losses)."""
    names = letter_labels(len(rows) + 1)
    pairings = []
    for (w, d, l), b in zip(rows, names[1:]):
        ps = PairingStats(names[0], b, w, d, l)
        ps.tri = trinomial(w, d, l)
        pairings.append(ps)
    results = [(0, j + 1, s) for j, (w, d, l) in enumerate(rows) for s in [1.0] * w + [0.5] * d + [0.0] * l]
    elos = ratings(len(names), results)
    errors = rating_errors(len(names), results, elos)
    standings = [Standing(n, games=10, points=5.0, elo=e, elo_error=x) for n, e, x in zip(names, elos, errors)]
    config = ArenaConfig(game="tictactoe", agents=names, games=10, mode="round-robin")
    return Report(config, 10 * len(rows), sum(ps.games for ps in pairings), pairings, standings, {}, {}, 5.0, 0.1, None)


def test_every_pairing_gets_a_bar_and_an_interval_inside_0_to_100():
    rows = [(0, 0, 10), (10, 0, 0), (17, 0, 3), (3, 4, 3), (0, 6, 0)]  # 0%, 100%, 85%, 50%, all draws
    marks = pairing_marks(synthetic(rows))
    assert len(marks) == len(rows)
    for m in marks:
        assert 0.0 <= m.score_low <= m.score <= m.score_high <= 100.0, m
        assert m.score_high - m.score_low > 1.0, m  # never an interval of no width
        x, lo, hi = m.drawn
        assert -m.edge <= lo <= x <= hi <= m.edge
    lost, won, most, even, drawn = marks
    assert lost.score == 0.0 and lost.score_low == 0.0  # a bar at 0 with a one-sided interval
    assert won.score == 100.0 and won.score_high == 100.0
    assert most.score_high == 100.0 and math.isinf(most.elo_high)  # 85%: the normal interval passes 100%
    # infinite Elo: an arrow at the axis edge, not a number
    assert math.isinf(lost.elo) and lost.arrows == (-1,) and lost.drawn[0] == -lost.edge
    assert math.isinf(won.elo) and won.arrows == (1,) and won.drawn[0] == won.edge
    assert most.arrows == (1,) and math.isfinite(most.elo)
    assert even.arrows == () and drawn.arrows == ()


def test_the_one_sided_interval_of_a_clean_sweep_is_clopper_pearsons():
    from scipy.stats import beta

    for n in (4, 10, 37):
        low, high = score_interval(trinomial(0, 0, n))
        assert low == 0.0 and high == pytest.approx(beta.ppf(0.975, 1, n))
        low, high = score_interval(trinomial(n, 0, 0))
        assert high == 1.0 and low == pytest.approx(beta.ppf(0.025, n, 1))


def test_rating_errors_match_the_delta_method_for_two_agents():
    w, l = 70, 30
    results = [(0, 1, 1.0)] * w + [(0, 1, 0.0)] * l
    elos = ratings(2, results, prior_draws=0.0)
    errors = rating_errors(2, results, elos, prior_draws=0.0)
    s = w / (w + l)
    delta = Z95 * 400 / math.log(10) * math.sqrt(s * (1 - s) / (w + l)) / (s * (1 - s))  # of the difference
    assert elos[0] - elos[1] == pytest.approx(-400 * math.log10(1 / s - 1), rel=1e-6)
    assert 2 * errors[0] == pytest.approx(delta, rel=1e-6) and errors[0] == pytest.approx(errors[1])


def test_ranking_has_error_bars(report):
    marks = ranking_marks(report)
    assert [m.name for m in marks] == [st.label for st in report.standings]
    for m in marks:
        assert m.low < m.elo < m.high


def test_plots_are_written_as_png_and_svg(report, tmp_path):
    written = write_plots(report, tmp_path, "t", formats=("png", "svg"))
    assert sorted(p.name for p in written) == ["t-pairings.png", "t-pairings.svg", "t-ranking.png", "t-ranking.svg"]
    for p in written:
        data = p.read_bytes()
        if p.suffix == ".png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
        else:
            assert ET.fromstring(data).tag.endswith("svg")
    sweep = write_plots(synthetic([(0, 0, 10), (10, 0, 0)]), tmp_path, "s")
    assert [p.name for p in sweep] == ["s-pairings.png", "s-ranking.png"]
    with pytest.raises(UsageError):
        write_plots(report, tmp_path, "t", formats=("pdf",))


def test_a_name_the_plots_font_cannot_draw_makes_no_warning(tmp_path):
    """`zerosum report` of an agent named with an emoji (a file 👩‍💻bot.py) printed matplotlib's "UserWarning:
    Glyph 128105 missing from font(s) DejaVu Sans" with its source lines (audit); the plot draws a box."""
    import warnings

    report = one_pairing((3, 0, 1), [0, 0, 1, 1, 0])
    report.pairings[0].a = report.standings[0].label = "\U0001F469\u200d\U0001F4BBbot.py:agent"
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        written = write_plots(report, tmp_path, "e")
    assert [p.name for p in written] == ["e-pairings.png"] and written[0].read_bytes()[:4] == b"\x89PNG"
    assert not [w for w in seen if "Glyph" in str(w.message)], [str(w.message) for w in seen]


def test_piped_output_keeps_each_line_of_prose_whole(tmp_path, monkeypatch, capsys):
    """A file or a pipe gets the tables at 160 columns and every sentence on one line, so that a log is
    searched by its words (audit: 'deadline per \\nmove: 60 s' at the 160th column)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    db = tmp_path / "h.db"
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--tc", "30+0.5",
                 "--adjudicate", "draw=20", "--out", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(db), "--no-plots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0]
    assert header.startswith("match on tictactoe: ") and len(header) > 160, header
    assert "deadline per move: 60 s; time control 30+0.5; adjudication: draw after 20 moves" in header
    assert lines[1].startswith("Pairings") and max(len(line) for line in lines if "━" in line) <= 160
