"""The README's examples run as written (doctest), and its two commands are the ones CI runs."""

from __future__ import annotations

import doctest
import pathlib

import zerosum
import zerosum.games.registry

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0


def test_module_doctests() -> None:
    for module in (zerosum, zerosum.games.registry):
        result = doctest.testmod(module)
        assert result.failed == 0


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = 'python3 -m pip install -e ".[test]" && python3 -m pytest -q'
    assert command in readme
    assert command.replace('"', "") in ci.replace('"', "")
    assert "python3 -m pip install -e . && zerosum play" in readme.split("## ")[0]
