"""The Solver API, the command line, the agent and the error paths."""

from __future__ import annotations

import io
import itertools
import sys

import pytest

from zerosum import ConnectX, Solver, make_agent
from zerosum.agents.base import is_proven, plies_to_end
from zerosum.cli import main
from zerosum.errors import IllegalMoveError, InvalidFileError, InvalidMoveError, InvalidPositionError, InvalidSpecError
from zerosum.values import score_to_value
from zerosum.solver.book import Book, canonical_key, generate, mirror
from solver_truth import brute_score, random_positions  # type: ignore[import-not-found]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_size=1 << 20)


def test_positions_in_every_form(solver: Solver) -> None:
    game = solver.game
    state = game.from_moves("4455")
    assert solver.solve(state) == solver.solve("4455") == solver.solve([3, 3, 4, 4]) == 18


@pytest.mark.parametrize(
    "position, error",
    [
        ("4x", InvalidMoveError),
        ("48", IllegalMoveError),
        ("4444444", IllegalMoveError),
        ("1212121", InvalidPositionError),  # player 1 already has four in a column
        ([9], IllegalMoveError),
        (3.5, InvalidPositionError),
    ],
)
def test_bad_positions(solver: Solver, position: object, error: type) -> None:
    with pytest.raises(error):
        solver.solve(position)
    with pytest.raises(error):
        solver.analyze(position)


def test_full_board_is_finished() -> None:
    game = ConnectX(1, 2, 2)
    solver = Solver(game, tt_size=1 << 10, book=False)
    assert solver.solve("1") == 0
    with pytest.raises(InvalidPositionError, match="full"):
        solver.solve("12")


def test_bad_games() -> None:
    with pytest.raises(InvalidSpecError, match="128"):
        Solver("connectx:rows=15,cols=9,k=4")  # 144 bits
    with pytest.raises(InvalidSpecError, match="64"):
        Solver("connectx:rows=8,cols=8,k=4", wide=False)
    with pytest.raises(InvalidSpecError, match="Connect-X"):
        Solver("tictactoe")
    with pytest.raises(ValueError):
        Solver(tt_size=0)


def test_analyze_and_best_move(solver: Solver) -> None:
    assert solver.analyze("4455")[3] == solver.solve("44554") * -1
    game = ConnectX(4, 4, 4)
    small = Solver(game, tt_size=1 << 12, book=False)
    full = game.from_moves("1111")
    scores = small.analyze(full)
    assert scores[0] is None and len(scores) == 4
    assert small.best_move(full) == 1  # all draw: the centre-most, left first


def test_score_to_value() -> None:
    # a 7 x 6 win scoring 18 from the start of "4455" (ply 4): the winner's 4th stone, ply 7 -> 3 plies away
    assert score_to_value(18, 4, 42) > 0 and plies_to_end(score_to_value(18, 4, 42)) == 3
    v = score_to_value(-15, 11, 42)
    assert v < 0 and is_proven(v) and plies_to_end(v) == 2
    assert score_to_value(0, 5, 42) == 0


def test_agent_plays_best_and_reports_scores() -> None:
    game = ConnectX(4, 4, 4)
    agent = make_agent("solver:book=no,tt=14")
    memo: dict = {}
    for state in random_positions(game, 40, seed=3):
        result = agent.search(game, state)
        best = max(result.scores.values())
        assert result.scores[result.action] == best
        assert best == brute_score(game, state, memo)
        ties = [c for c, s in result.scores.items() if s == best]
        assert result.action == min(ties, key=lambda c: (abs(2 * c - 3), c))
        assert result.value == score_to_value(best, state.ply, game.cells) and result.exact


def test_agent_falls_back_where_it_cannot_solve(capsys: pytest.CaptureFixture[str]) -> None:
    game = ConnectX(15, 9, 4)  # 144 bits
    agent = make_agent("solver:time=0.05")
    action = agent(game, game.initial_state)
    assert action in game.actions(game.initial_state)
    assert "128" in (agent.fallback_reason or "")  # type: ignore[attr-defined]
    assert "solver:" in capsys.readouterr().err


def run_cli(argv: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None,
            capsys: pytest.CaptureFixture[str] | None = None) -> tuple[int, str, str]:
    assert monkeypatch is not None and capsys is not None
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solve(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["solve", "--tt-log-size", "20"], "4455 18\n\n44455554221\n", monkeypatch, capsys)
    assert code == 0 and err == ""
    assert out.splitlines() == ["4455 18", "44455554221 -15"]
    code, out, err = run_cli(["solve", "--weak", "--stats"], "4455\n44455554221\n", monkeypatch, capsys)
    booked, searched = (line.split() for line in out.splitlines())
    assert code == 0 and booked[:3] == ["4455", "1", "0"] and len(booked) == 4  # from the book: no node
    assert searched[:2] == ["44455554221", "-1"] and len(searched) == 4 and int(searched[2]) >= 1


def test_cli_solve_bad_lines_go_on(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["solve"], "4x\n4455\n1212121\n", monkeypatch, capsys)
    assert code == 2
    assert out.splitlines() == ["4455 18"]
    lines = err.splitlines()
    assert len(lines) == 2 and "line 1" in lines[0] and "'x'" in lines[0] and "line 3" in lines[1]


def test_cli_analyze(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["analyze", "1111", "--game", "connectx:rows=4,cols=4,k=4"], "", monkeypatch, capsys)
    assert code == 0
    assert "full" in out and "best: column 2" in out
    code, out, err = run_cli(["analyze", "1212121"], "", monkeypatch, capsys)
    assert code == 2 and "game is over" in err and len(err.splitlines()) == 1
    code, out, err = run_cli(["analyze", "--game", "connectx:rows=15,cols=9,k=4"], "", monkeypatch, capsys)
    assert code == 2 and "144 bits" in err and "<= 128" in err  # the limit the solver has, not the old 64


def test_cli_analyze_searches_on_the_threads_asked_for_and_scores_alike(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for threads in ("1", "2"):
        code, out, err = run_cli(["analyze", "4453", "--game", "connectx:rows=5,cols=6,k=4", "--threads", threads],
                                 "", monkeypatch, capsys)
        assert code == 0, err
        outs.append([line for line in out.splitlines() if line.startswith(("score", "best"))])
    assert outs[0] == outs[1] and outs[0]
    for bad in ("0", "33", "two"):
        code, out, err = run_cli(["analyze", "--threads", bad], "", monkeypatch, capsys)
        assert code == 2 and "--threads" in err and len(err.splitlines()) == 1


def test_book_round_trip(tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                         capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "b.npz")
    code, out, err = run_cli(["book", "--game", "connectx:rows=4,cols=5,k=4", "--depth", "3", "-o", path, "-q",
                              "--tt-log-size", "16"], "", monkeypatch, capsys)
    assert code == 0, err
    book = Book.load(path)
    game = ConnectX(4, 5, 4)
    assert book.depth == 3
    plain = Solver(game, tt_size=1 << 16, book=False)
    booked = Solver(game, tt_size=1 << 10, book=path)
    for state in random_positions(game, 60, seed=1):
        if state.ply <= 3:
            assert book.get(state.current, state.mask) == plain.solve(state)
            assert booked.solve(state) == plain.solve(state)


@pytest.mark.parametrize("args, message", [(["--depth", "21"], ("argument --depth: '21' is out of range: expected a "
                                                              "whole number in 0..20")),
                                           (["--jobs", "0"], "'0' is out of range: expected a whole number in 1..32")])
def test_book_usage_errors(args: list[str], message: str, tmp_path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.npz"
    code, out, err = run_cli(["book", "-o", str(path), *args], "", monkeypatch, capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not path.exists() and not (tmp_path / "b.npz.partial").exists()


def test_mirror_and_canonical_key() -> None:
    game = ConnectX()
    a, b = game.from_moves("1234"), game.from_moves("7654")
    assert mirror(a.mask, 6, 7) == b.mask
    assert canonical_key(a.current, a.mask, 6, 7) == canonical_key(b.current, b.mask, 6, 7)


def test_generate_small_book_matches_search() -> None:
    game = ConnectX(4, 4, 4)
    solver = Solver(game, tt_size=1 << 12, book=False)
    book = generate(solver, 2)
    assert len(book) == 1 + 2 + 8  # the start, 4 first moves, 16 second moves: halved by symmetry
    assert book.get(0, 0) == 0


def test_book_generation_resumes_from_its_checkpoint(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = ConnectX(4, 5, 4)
    path = str(tmp_path / "b.partial")
    full = generate(Solver(game, tt_size=1 << 14, book=False), 3, checkpoint=path)
    lines = open(path).read().splitlines()
    header, rows = lines[0], lines[1:]
    assert header.startswith("# zerosum book checkpoint: rows=4 cols=5 k=4 depth=3")
    assert len(rows) == len({line.split()[0] for line in rows}) > 10
    # an interrupted run: the first half solved, a torn line at the end.  A planted score proves that
    # the resumed run reads the file rather than searching again.
    key0 = int(rows[0].split()[0])
    planted = [f"{key0} 7"] + rows[1: len(rows) // 2]
    with open(path, "w") as fh:
        fh.write("\n".join([header, *planted]) + "\n" + rows[len(rows) // 2][:3])
    solver = Solver(game, tt_size=1 << 14, book=False)
    searched: list[int] = []
    solve_bits = solver.solve_bits

    def counting(current: int, mask: int, weak: bool = False, node_limit: int | None = None) -> int:
        searched.append(canonical_key(current, mask, 4, 5))
        return solve_bits(current, mask, weak, node_limit)

    solver.solve_bits = counting  # type: ignore[method-assign]
    resumed = generate(solver, 3, checkpoint=path)
    done = {int(line.split()[0]) for line in planted}
    assert sorted(searched) == sorted({int(line.split()[0]) for line in rows} - done)
    ply3 = (game.from_moves(m) for m in itertools.product(range(5), repeat=3))
    state = next(s for s in ply3 if canonical_key(s.current, s.mask, 4, 5) == key0)
    assert resumed.get(state.current, state.mask) == 7 != full.get(state.current, state.mask)
    again = open(path).read().splitlines()
    assert again[0] == header and sorted(again[1:]) == sorted([f"{key0} 7", *rows[1:]])  # the torn line dropped
    with open(path, "w") as fh:
        fh.write("# zerosum book checkpoint: rows=6 cols=7 k=4 depth=3\n")
    with pytest.raises(InvalidFileError, match="another generation"):
        generate(solver, 3, checkpoint=path)
    with open(path, "w") as fh:
        fh.write(header + "\nnot a line\n")
    with pytest.raises(InvalidFileError, match="line 2"):
        generate(solver, 3, checkpoint=path)


def test_book_generation_in_worker_processes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from zerosum.pool import PositionSolver

    game = ConnectX(4, 5, 4)
    one = generate(Solver(game, tt_size=1 << 12, book=False), 3)
    seen: list[tuple[int, int]] = []
    two = generate(Solver(game, tt_size=1 << 12, book=False), 3, lambda d, t, s: seen.append((d, t)),
                   checkpoint=str(tmp_path / "b.partial"), solve_many=PositionSolver(2))
    assert list(two.keys) == list(one.keys) and list(two.scores) == list(one.scores)
    assert [d for d, _ in seen] == list(range(0, seen[-1][1] + 1))  # first before any search: none done
    assert len(open(tmp_path / "b.partial").read().splitlines()) == seen[-1][1] + 1


def test_bench_counts_wrong_scores(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "good"
    good.write_text("2252576253462244111563365343671351441 -1\n4455 18\n")
    bad = tmp_path / "bad"
    bad.write_text("4455 17\n")
    for weak in ([], ["--weak"]):
        code = main(["bench", "solver", str(good), "--no-book", "--tt-log-size", "16", *weak])
        out = capsys.readouterr().out
        assert code == 0 and out.splitlines()[-1].split()[-1] == "0" and out.splitlines()[-1].split()[1] == "2"
    code = main(["bench", "solver", str(bad), "--no-book", "--tt-log-size", "16", "--reset-table"])
    assert code == 1 and capsys.readouterr().out.splitlines()[-1].split()[-1] == "1"
    code = main(["bench", "solver", str(bad), str(good), "--no-book", "--tt-log-size", "16", "--repeat", "3"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1 and "median of 3 runs" in out[0]
    assert [line.split()[-1] for line in out[2:]] == ["1", "0"]  # wrong scores, counted once per file
    assert main(["bench", "solver", str(good), "--repeat", "0"]) == 2
    assert "--repeat: '0' is out of range: expected a whole number in 1..1000" in capsys.readouterr().err


def test_solve_many_matches_solve(solver: Solver) -> None:
    moves = ["4455", "44455554221", "2252576253462244111563365343671351441", "1"]
    assert solver.solve_many(moves[:3]) == [solver.solve(m) for m in moves[:3]]
    assert solver.solve_many(moves[:3], weak=True) == [1, -1, -1]
    with pytest.raises(InvalidPositionError):
        solver.solve_many(["4455", "1212121"])


def test_budget_exceeded_keeps_the_table_valid() -> None:
    from zerosum.solver.solver import BudgetExceeded

    solver = Solver(tt_size=1 << 18, book=False)
    with pytest.raises(BudgetExceeded):
        solver.solve("4", node_limit=5000)
    assert solver.solve("4455", node_limit=10_000) == 18
    assert solver.solve("44455554221") == -15
