"""Writes the course notebooks of this folder from the cells below, so they are reviewed as code.

    python examples/make_notebooks.py          # (re)write examples/*.ipynb
    python examples/make_notebooks.py --check  # exit 1 if a notebook differs from what this script writes

The notebooks are written without outputs (run them in Jupyter, or ``pytest tests/test_notebooks.py``,
which executes every one).  Cell ids are fixed, so the same cells give the same file byte for byte.
Each notebook's cells live in a file of ``cells/`` (a list ``CELLS`` of ``("md", text)`` and
``("code", text)``); edit those, then run this script.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

#: notebook file -> the file of cells/ holding its cells
NOTEBOOKS = {
    "01_game_api.ipynb": "game_api.py",
    "02_minimax_vs_alphabeta.ipynb": "minimax_alphabeta.py",
    "03_writing_an_evaluation.ipynb": "evaluation.py",
    "04_mcts_vs_alphabeta.ipynb": "mcts.py",
    "05_class_contest.ipynb": "contest.py",
    "06_your_own_game.ipynb": "own_game.py",
    "07_course_experiments.ipynb": "experiments.py",
}

KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}


def build(name: str) -> nbformat.NotebookNode:
    """The notebook ``name`` (a key of :data:`NOTEBOOKS`), without outputs."""
    cells = runpy.run_path(str(HERE / "cells" / NOTEBOOKS[name]))["CELLS"]
    stem = name.split("_")[0]
    made = []
    for i, (kind, text) in enumerate(cells):
        source = text.strip("\n")
        cell = new_markdown_cell(source) if kind == "md" else new_code_cell(source)
        cell["id"] = f"nb{stem}-{i:02d}"
        made.append(cell)
    notebook = new_notebook(cells=made, metadata={"kernelspec": KERNEL, "language_info": {"name": "python"}})
    nbformat.validate(notebook)
    return notebook


def text_of(notebook: nbformat.NotebookNode) -> str:
    return nbformat.writes(notebook) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write the course notebooks of examples/ from their cells")
    parser.add_argument("--check", action="store_true", help="only check that every notebook is up to date")
    args = parser.parse_args(argv)
    stale = []
    for name in NOTEBOOKS:
        path, text = HERE / name, text_of(build(name))
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent)}")
    if stale:
        print(f"out of date (run python examples/make_notebooks.py): {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
