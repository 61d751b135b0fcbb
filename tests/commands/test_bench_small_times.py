"""``zerosum bench analysis`` never prints a sub-millisecond analysis as ``0.000`` seconds."""

from __future__ import annotations

import re

from zerosum.cli import main


def test_sub_millisecond_analyses_are_not_printed_as_zero(capsys) -> None:
    # two stones from a full board: an analysis of a few nodes, well under a millisecond
    assert main(["bench", "analysis", "--plies", "39-40", "--per-ply", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^\| (\d+) \| \d+ \| ([\d.e-]+) \| ([\d.e-]+) \| ([\d.e-]+) \|", out, re.M)
    assert [r[0] for r in rows] == ["39", "40"]
    for _, *times in rows:
        assert all(float(t) > 0 for t in times), rows
    total = re.search(r"^total: ([\d.e-]+) s wall, [\d.e-]+ s CPU; slowest: ([\d.e-]+) s", out, re.M)
    assert total is not None and float(total[1]) > 0 and float(total[2]) > 0, out
