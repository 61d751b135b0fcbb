"""``zerosum bench mcts`` and ``zerosum bench alphabeta`` print their figures; bad usage exits 2."""

from __future__ import annotations

import re

from zerosum.cli import main


def test_bench_mcts_prints_simulations_per_second(capsys) -> None:
    assert main(["bench", "mcts", "--sims", "400", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^simulations/s: \d+$", out, re.M)
    assert "numba kernels" in out
    assert main(["bench", "mcts", "--sims", "100", "--rounds", "1", "--generic", "--game", "tictactoe"]) == 0
    assert "generic Game protocol" in capsys.readouterr().out


def test_bench_alphabeta_prints_nodes_per_second(capsys) -> None:
    assert main(["bench", "alphabeta", "--nodes", "2000", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^nodes/s: \d+$", out, re.M)
    assert "node budget: 2000" in out and "rows=8,cols=8" in out


def test_bench_bad_usage(capsys) -> None:
    assert main(["bench", "mcts", "--rounds", "0"]) == 2
    assert main(["bench", "mcts", "--playout", "clever"]) == 2
    assert main(["bench", "alphabeta", "--eval", "nope"]) == 2
    err = capsys.readouterr().err
    assert "--rounds" in err and "clever" in err and "nope" in err
    assert all(len(line) < 200 for line in err.strip().split("\n"))


def test_bench_numeric_options_have_ranges(capsys) -> None:
    for argv in (["mcts", "--sims", "0"], ["mcts", "--sims", "99999999999999999999"], ["mcts", "-c", "nan"],
                 ["mcts", "-c", "101"], ["mcts", "--rounds", "1001"], ["alphabeta", "--nodes", "1000000001"],
                 ["alphabeta", "--seed", "-1"]):
        assert main(["bench", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and argv[1] in err, argv


def test_bench_alphabeta_defaults_to_each_game_s_own_evaluation(capsys, tmp_path, monkeypatch) -> None:
    """Its default was ``window``, refused on every game without it (Migration, Othello, a student's game)."""
    assert main(["bench", "alphabeta", "--game", "migration:n=5", "--nodes", "500", "--rounds", "1"]) == 0
    assert "evaluation: mobility" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)  # a student's own evaluation, by file (as alphabeta:eval= takes it)
    (tmp_path / "mine.py").write_text("def centre(game, state, player):\n    return 0\n")
    assert main(["bench", "alphabeta", "--game", "connect4", "--eval", "mine.py:centre", "--nodes", "500",
                 "--rounds", "1"]) == 0
    assert "evaluation: mine.py:centre" in capsys.readouterr().out
    assert main(["bench", "alphabeta", "--game", "migration:n=5", "--eval", "window"]) == 2
    assert capsys.readouterr().err.strip() == ("zerosum bench: error: Migration 5 x 5 has no 'window' evaluation: "
                                               "choose one of mobility")
