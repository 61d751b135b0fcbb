"""docs/teaching.md shows what the code prints: its ``zerosum explain`` examples are run and compared."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from zerosum.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "teaching.md"
EXAMPLES = re.findall(r"```\n\$ (zerosum explain [^\n]*)\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("command, shown", EXAMPLES)
def test_teaching_page_shows_what_explain_prints(capsys: Any, command: str, shown: str) -> None:
    assert main(shlex.split(command)[1:]) == 0
    assert capsys.readouterr().out.rstrip("\n") == shown
