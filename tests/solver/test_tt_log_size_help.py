"""``--tt-log-size``'s help on ``zerosum analyze`` and ``zerosum solve`` says what the table takes on every board
(audit: it said "8 bytes each ... (default 24: 128 MB)" for every --game, while past 64 bits -- 8 x 8, 9 x 7,
7 x 9 -- an entry of a table below 2**(cols x (rows + 1) - 44) entries takes a second word: 256 MB by default).
Each figure of the help is checked against the tables the solver really makes."""

from __future__ import annotations

import re

import pytest

from process_helpers import zerosum_run


def _help(command: str) -> str:
    done = zerosum_run([command, "--help"])
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())  # argparse's wrapping undone
    return text[text.index("--tt-log-size N "):].split(" --", 1)[0]


def _bytes_an_entry(log_size: int, key_bits: int) -> int:
    """What an entry of the table the solver makes for ``key_bits``-bit keys takes (mapped, never touched)."""
    from zerosum.solver.table import make_table

    table = make_table(log_size, key_bits)
    return table.nbytes >> min(log_size, key_bits)


@pytest.mark.parametrize("command", ["analyze", "solve"])
def test_the_help_says_both_entry_sizes_and_both_defaults(command: str) -> None:
    said = _help(command)
    assert "8 bytes each, 16 on a board past 64 bits while N < cols x (rows + 1) - 44" in said, said
    assert "(8 x 8, 9 x 7: N < 28)" in said and "(default 24: 128 MB; 256 MB on 8 x 8, 9 x 7, 7 x 9)" in said, said


def test_the_helps_figures_are_the_tables_the_solver_makes() -> None:
    pytest.importorskip("numba")
    said = _help("solve")
    part = int(re.search(r"N < cols x \(rows \+ 1\) - (\d+)", said).group(1))  # type: ignore[union-attr]
    boards = {"7 x 6": 7 * 7, "8 x 8": 8 * 9, "9 x 7": 9 * 8, "7 x 9": 7 * 10, "11 x 5": 11 * 6}
    for name, bits in boards.items():  # the rule, at its edge and at the default
        for n in {24, bits - part - 1, bits - part} & set(range(10, 29)):
            want = 16 if bits > 64 and n < bits - part else 8
            assert _bytes_an_entry(n, bits) == want, (name, n)
    assert _bytes_an_entry(24, 7 * 7) << 24 == 128 << 20  # the default: 128 MB on 7 x 6,
    for bits in (8 * 9, 9 * 8, 7 * 10):  # 256 MB on 8 x 8, 9 x 7 and 7 x 9
        assert _bytes_an_entry(24, bits) << 24 == 256 << 20
    assert _bytes_an_entry(27, 8 * 9) == 16 and _bytes_an_entry(28, 8 * 9) == 8  # 8 x 8: N < 28
