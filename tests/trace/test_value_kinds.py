"""An evaluation may return any real number (docs/agents.md): a Fraction, a numpy number, a whole number too
large for a float.  ``zerosum explain`` and the traced tree's drawings show each as a figure (audit: a
Fraction's value ended ``explain`` with a traceback, ``unsupported format string passed to
Fraction.__format__``)."""

import re
import subprocess
import sys
import textwrap
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import zerosum
from zerosum.trace.nodes import short_value, value_text

EVALS = textwrap.dedent("""\
    def e_fraction(game, state, player):
        from fractions import Fraction; return Fraction(1, 3) if player == 1 else Fraction(-1, 3)
    def e_float32(game, state, player):
        import numpy as np; return np.float32(1.5) if player == 1 else np.float32(-1.5)
    def e_int64(game, state, player):
        import numpy as np; return np.int64(2) if player == 1 else np.int64(-2)
    """)
GAME = "connectx:rows=4,cols=4,k=3"


@pytest.mark.parametrize("value, shown", [
    (Fraction(1, 3), "+0.33"), (Fraction(-2, 3), "-0.67"), (Fraction(0), "0"), (Decimal("1.5"), "+1.50"),
    (np.float32(1.5), "+1.50"), (np.float64(-0.25), "-0.25"), (np.int64(-3), "-3"), (np.int32(0), "0"),
    (7, "+7"), (-0.35, "-0.35"), (0.0, "0"),
])
def test_a_value_of_any_real_kind_reads_as_a_figure(value, shown):
    assert short_value(value) == shown and value_text(value) == shown


def test_a_fraction_too_large_for_a_float_reads_in_powers_of_ten():
    from zerosum.trace.nodes import number_text

    assert number_text(Fraction(-10**400, 3)) == "-3.33e+399" and number_text(10**20) == "+100000000000000000000"


@pytest.mark.parametrize("name, figure", [("e_fraction", "+0.33"), ("e_float32", "+1.50"), ("e_int64", "+2")])
def test_a_traced_tree_draws_the_values_of_any_real_kind(tmp_path, name, figure):
    path = tmp_path / "ev.py"
    path.write_text(EVALS)
    tree = zerosum.trace(f"alphabeta:depth=2,eval={path}:{name}", GAME)
    assert figure in tree.text(depth=1) and figure in tree.words(tree.root) + tree.text()
    assert "<svg" in tree.svg(depth=1) and tree.dot(depth=1)


@pytest.mark.parametrize("name, figure", [("e_fraction", "+0.33"), ("e_float32", "+1.50")])
@pytest.mark.parametrize("agent", ["alphabeta:depth=2", "minimax:depth=2"])
def test_zerosum_explain_shows_a_fraction_s_value(tmp_path, name, figure, agent):
    (tmp_path / "ev.py").write_text(EVALS)
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", "explain", "--game", GAME,
                           "--agent", f"{agent},eval=ev.py:{name}", "--depth", "0"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    assert re.search(rf"^\* \d +{re.escape(figure)} ", done.stdout, re.M), done.stdout
