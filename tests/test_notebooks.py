"""The course notebooks of examples/ run, so none can rot (needs the ``notebook`` extra: nbclient, nbformat,
ipykernel; the tests skip without them).

Each notebook is executed once (a fresh kernel, in examples/, a time limit per cell) and its outputs are
checked where they say something: the textbook node counts agree, every SVG parses as XML and shows the
stones of its state, the student evaluation wins, full MCTS defends, the contest table and forfeits.  The
committed notebooks carry no outputs and are exactly what examples/make_notebooks.py writes.
"""

from __future__ import annotations

import functools
import re
import runpy
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebook tests need the notebook extra: pip install -e '.[notebook]'")
nbclient = pytest.importorskip("nbclient", reason="the notebook tests need the notebook extra: pip install -e '.[notebook]'")
pytest.importorskip("ipykernel", reason="the notebook tests need a Python kernel: pip install -e '.[notebook]'")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTEBOOKS = sorted(p.name for p in EXAMPLES.glob("*.ipynb"))
#: the notebooks run in CI: the course experiments' (9 s) in the slow run only (CI time)
RUN = [pytest.param(n, marks=pytest.mark.slow) if n == "07_course_experiments.ipynb" else n for n in NOTEBOOKS]
#: seconds any one cell may take (generous: a cold numba cache compiles on first use)
CELL_TIMEOUT = 300


@functools.cache
def executed(name: str) -> Any:
    """The notebook ``name`` after running every cell in a fresh kernel, in examples/."""
    notebook = nbformat.read(EXAMPLES / name, as_version=4)
    nbclient.NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    return notebook


def outputs(notebook: Any) -> list[Any]:
    return [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]


def printed(notebook: Any) -> str:
    """Everything the notebook's cells printed (standard output)."""
    return "".join(out.text for out in outputs(notebook) if out.output_type == "stream" and out.name == "stdout")


def svgs(notebook: Any) -> list[tuple[str, str]]:
    """(SVG text, plain-text repr) of every rich output that has an SVG."""
    return [(out.data["image/svg+xml"], out.data.get("text/plain", "")) for out in outputs(notebook)
            if "data" in out and "image/svg+xml" in out.data]


def test_there_are_the_course_notebooks() -> None:
    assert {"01_game_api.ipynb", "02_minimax_vs_alphabeta.ipynb", "03_writing_an_evaluation.ipynb",
            "04_mcts_vs_alphabeta.ipynb", "05_class_contest.ipynb", "06_your_own_game.ipynb"} <= set(NOTEBOOKS)


@pytest.mark.parametrize("name", RUN)
def test_every_notebook_runs_without_an_error(name: str) -> None:
    notebook = executed(name)
    assert not [out for out in outputs(notebook) if out.output_type == "error"]
    assert all(cell.execution_count for cell in notebook.cells if cell.cell_type == "code")


@pytest.mark.parametrize("name", RUN)
def test_every_svg_output_parses_as_xml(name: str) -> None:
    drawn = svgs(executed(name))
    assert drawn, f"{name} draws no board"
    for svg, _ in drawn:
        assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"


def _pieces(plain: str) -> dict[int, int] | None:
    """Stones per player in a Tic-Tac-Toe or Migration state's repr (None for other outputs)."""
    found = re.match(r"TicTacToeState\(cells=\((.*)\)\)$", plain) or re.match(r"MigrationState\(board=(.*), to_move=", plain)
    if found is None:
        return None
    cells = re.findall(r"\d", found.group(1))
    return {1: cells.count("1"), 2: cells.count("2")}


def test_the_game_api_notebook_draws_each_state_with_its_stones() -> None:
    checked = 0
    for svg, plain in svgs(executed("01_game_api.ipynb")):
        pieces = _pieces(plain)
        if pieces is None:
            continue
        root = ET.fromstring(svg)
        stones = [el.get("class", "").split() for el in root.iter() if "stone" in el.get("class", "").split()]
        assert {1: sum("p1" in c for c in stones), 2: sum("p2" in c for c in stones)} == pieces, plain
        checked += 1
    assert checked >= 5  # the Tic-Tac-Toe and Migration states the notebook shows


def test_the_minimax_notebook_prints_equal_counts_for_the_textbook_check() -> None:
    text = printed(executed("02_minimax_vs_alphabeta.ipynb"))
    assert "textbook check, minimax: equal: True" in text
    assert "textbook check, alpha-beta: equal: True" in text
    assert "549,946 nodes" in text  # the whole game tree of Tic-Tac-Toe
    assert "discount=0 plays cell 5" in text and "discounted plays cell 7" in text  # the first win, the fastest
    assert "the same nodes as the search counted: True" in text  # zerosum.trace against the search


def test_the_notebooks_name_cells_as_people_do() -> None:
    """One numbering (#22, item 6): printed cells are 1..9 wherever Python's 0-based actions are shown too."""
    text = printed(executed("01_game_api.ipynb"))
    assert "refused: cell 5 is taken" in text and "minimax plays cell 3" in text  # index 4 taken; index 2 wins
    cells = [int(n) for n in re.findall(r"\bcells? (\d)", printed(executed("02_minimax_vs_alphabeta.ipynb")))]
    assert cells and all(1 <= n <= 9 for n in cells) and 3 in cells


def test_the_evaluation_notebook_keeps_fractions_adapts_the_view_and_wins() -> None:
    text = printed(executed("03_writing_an_evaluation.ipynb"))
    assert "the same search: True" in text
    value = re.search(r"value ([+-]\d+\.\d+), nodes", text)
    assert value is not None and float(value.group(1)) % 1  # a fraction, not cut to a whole number
    against_random = re.search(r"vs random on migration:n=8: 10 games, \+(\d+)", _plain_outputs("03_writing_an_evaluation.ipynb"))
    assert against_random is not None and int(against_random.group(1)) >= 8


def _plain_outputs(name: str) -> str:
    notebook = executed(name)
    return printed(notebook) + "".join(out.data.get("text/plain", "") for out in outputs(notebook) if "data" in out)


def test_the_mcts_notebook_shows_full_mcts_defending_where_plain_uct_needs_more_simulations() -> None:
    text = printed(executed("04_mcts_vs_alphabeta.ipynb"))
    found = dict(re.findall(r"(mcts:\S+)\s+defends\s+(\d+) of 10", text))
    assert int(found["mcts:sims=50"]) == 10
    assert int(found["mcts:plain=1,sims=50"]) < int(found["mcts:plain=1,sims=1000"])


def test_the_contest_notebook_ranks_every_student_and_forfeits_over_the_node_limit() -> None:
    text = printed(executed("05_class_contest.ipynb"))
    table = re.findall(r"^\s*\d\. (\w+)\s.*?(\d+(?:\.5)?)$", text, re.MULTILINE)
    assert sorted(name for name, _ in table) == ["alice", "bob", "carol", "dave", "erin"]
    assert sum(float(points) for _, points in table) == 10 * 4  # 10 pairings of 4 games, a point each
    assert "illegal move" in text  # Erin's bug: forfeits, not a crash
    said = re.findall(r"^\S+ vs \S+: (\S+) forfeits: illegal move", text, re.MULTILINE)  # whose move it was
    assert said and set(said) == {"erin.py:play"}, text
    assert text.count("node limit: more than 200 states expanded") == 2


def test_committed_notebooks_have_no_outputs_and_match_their_generator() -> None:
    make = runpy.run_path(str(EXAMPLES / "make_notebooks.py"))
    assert sorted(make["NOTEBOOKS"]) == NOTEBOOKS
    for name in NOTEBOOKS:
        on_disk = (EXAMPLES / name).read_text(encoding="utf-8")
        assert on_disk == make["text_of"](make["build"](name)), f"{name}: run python examples/make_notebooks.py"
        notebook = nbformat.reads(on_disk, as_version=4)
        assert all(not cell.get("outputs") and cell.get("execution_count") is None
                   for cell in notebook.cells if cell.cell_type == "code")


def test_the_own_game_notebook_plays_the_course_classes_and_checks_them() -> None:
    """Write your own game (#22, item 1): AIMA's Tic-Tac-Toe and easyAI's Nim, as written, searched, played,
    traced and run from the command line."""
    text = printed(executed("06_your_own_game.ipynb"))
    assert "value 0, 18,297 nodes, exact: True" in text and "minimax visits 549,946 nodes" in text
    assert "transpositions meet: True True" in text
    assert "alpha-beta agrees with Bouton's rule on all 47 positions: True" in text
    assert "cannot be played yet (course style): add result(state, action)" in text
    assert "12 games in" in text and "forfeits" in text  # the tournament of the game file, in worker processes
