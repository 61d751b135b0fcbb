"""``bench solver --repeat R`` prints the median of the R runs: of an even R, the mean of the middle two
(the statistics textbook's median), not the upper one of them."""

from __future__ import annotations

import pytest

import zerosum.solver.bench as bench
from zerosum.cli import main


def test_run_file_takes_the_true_median(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = iter([(3.0, 6.0, 10, [18, -1]), (1.0, 2.0, 10, [18, -1]), (2.0, 8.0, 10, [18, -1]), (9.0, 4.0, 10, [18, -1])])
    monkeypatch.setattr(bench, "_run_once", lambda *args: next(runs))
    items = [(0, 0, 18), (0, 0, -1)]
    n, wall, cpu, nodes, wrong = bench.run_file(object(), "set", repeat=4, read=(items, [None, None]))
    assert (n, nodes, wrong) == (2, 5.0, 0)
    assert wall == pytest.approx((2.0 + 3.0) / 2 / 2) and cpu == pytest.approx((4.0 + 6.0) / 2 / 2)


def test_the_command_prints_the_true_median(tmp_path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "set"
    path.write_text("2252576253462244111563365343671351441 -1\n")
    seconds = iter([0.001, 0.004, 0.003, 0.002])  # per position, run by run: the median is 0.0025 s

    def run_file(solver, path, weak, limit, reset, repeat, read):  # type: ignore[no-untyped-def]
        t = next(seconds)
        return 1, t, 2 * t, 7.0, 0

    monkeypatch.setattr(bench, "run_file", run_file)
    assert main(["bench", "solver", str(path), "--no-book", "--tt-log-size", "12", "--repeat", "4"]) == 0
    last = capsys.readouterr().out.splitlines()[-1].split()
    assert last[2:6] == ["2.50", "ms", "5.00", "ms"], last
