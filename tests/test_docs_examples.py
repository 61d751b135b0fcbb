"""The doctest examples of the docs pages that carry them run as written (as the README's do)."""

from __future__ import annotations

import doctest
import pathlib

import pytest

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.parametrize("page", sorted(p.name for p in DOCS.glob("*.md") if ">>> " in p.read_text()))
def test_docs_examples_run(page: str) -> None:
    result = doctest.testfile(str(DOCS / page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"docs/{page}: {result.failed} of {result.attempted} examples fail"
