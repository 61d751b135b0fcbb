"""`bench playouts` asks the kernels whether a game has the numba path; no game class is named in bench."""

from __future__ import annotations

import pytest

from zerosum import get_game
from zerosum.cli import main
from zerosum.commands.bench import has_fast_playouts


def test_bench_playouts_asks_the_kernels_for_the_fast_path(capsys) -> None:
    kernels = pytest.importorskip("zerosum.games.connectx_kernels")
    specs = ("connect4", "connectx:rows=7,cols=8,k=4", "connectx:rows=8,cols=8,k=4", "tictactoe", "migration:n=5")
    assert {s: has_fast_playouts(get_game(s)) for s in specs} == {s: kernels.supports(get_game(s)) for s in specs}
    assert has_fast_playouts(get_game("connect4")) and not has_fast_playouts(get_game("connectx:rows=8,cols=8,k=4"))
    assert main(["bench", "playouts", "--game", "connectx:rows=8,cols=8,k=4", "--seconds", "0.05", "--rounds", "1"]) == 0
    assert "path: generic Game protocol" in capsys.readouterr().out
    with pytest.raises(ValueError, match="do not take"):
        kernels.game_playouts(get_game("tictactoe"), 1, 0)
    assert sum(kernels.game_playouts(get_game("connectx:rows=4,cols=5,k=3"), 20, 0)) == 20
