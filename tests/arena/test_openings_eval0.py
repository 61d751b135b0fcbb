"""Openings of evaluation 0 on any board, for any evaluation (#22, item 4).

``zerosum openings --with AGENT --max-score S`` keeps the positions ``--plies`` in whose search value (the
agent's, in its unit) is within +-S.  The truth here is computed apart from zerosum's agents: a depth-1
negamax written in this file over the game's rules, with the evaluation the agent is given, and every
position enumerated by brute force (every move sequence, positions compared by their grids).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from zerosum import get_game
from zerosum.cli import main

#: the evaluation handed to the agent (a file, as students write them) and used by the truth below
EVAL = '''
def centre(game, state, player):
    """Own stones minus the opponent's, each weighted by closeness to the middle column (whole numbers)."""
    cells = game.board_view(state).cells
    cols = len(cells[0])
    total = 0
    for row in cells:
        for c, who in enumerate(row):
            if who:
                weight = cols // 2 - abs(2 * c + 1 - cols) // 2
                total += weight if who == player else -weight
    return total
'''


def _evaluation(tmp_path: Path) -> tuple[str, dict]:
    path = tmp_path / "centre_eval.py"
    path.write_text(EVAL)
    space: dict = {}
    exec(EVAL, space)
    return f"{path}:centre", space["centre"]


def _truth(game, state, evaluate) -> float | None:
    """The depth-1 negamax value for the side to move, None when a move ends the game (a win or draw
    there scores beyond any evaluation, or exactly 0: compared apart)."""
    mover = game.player(state)
    values = []
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child):
            values.append(game.utility(child, mover) * 10**9)
        else:
            values.append(-evaluate(game, child, game.player(child)))
    return max(values)


def _grid(game, state) -> tuple:
    return tuple(tuple(row) for row in game.board_view(state).cells), game.player(state)


def _every_position(game, plies: int, mirror: bool) -> dict:
    """Brute force: grid -> a state, for every open position ``plies`` in (mirror images as one)."""
    found: dict = {}
    frontier = [game.initial_state]
    for _ in range(plies):
        frontier = [game.result(s, a) for s in frontier for a in game.actions(s)]
    for s in frontier:
        if game.is_terminal(s):
            continue
        cells, player = _grid(game, s)
        key = (cells, player)
        if mirror:
            key = min(key, (tuple(tuple(reversed(r)) for r in cells), player))
        found.setdefault(key, s)
    return found


def _read(path: Path, game) -> list[tuple[object, float]]:
    rows = []
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            moves, value = line.split()
            rows.append((game.parse_position(moves)[1] if moves != "-" else game.initial_state, float(value)))
    return rows


@pytest.mark.parametrize("spec,plies,mirror", [("connect4-8x8", 3, True), ("tictactoe", 2, False),
                                               ("othello:n=6", 3, False)])
def test_evaluation_zero_openings_are_exactly_the_zero_positions(tmp_path, spec, plies, mirror):
    game = get_game(spec)
    evaluation, centre = _evaluation(tmp_path)
    out = tmp_path / "zero.txt"
    agent = f"alphabeta:plain=1,depth=1,eval={evaluation}"
    assert main(["openings", "--game", spec, "--plies", str(plies), "--with", agent, "--max-score", "0",
                 "-o", str(out)]) == 0
    kept = _read(out, game)
    assert kept, "some position has evaluation 0"
    for state, value in kept:  # every opening has the asked evaluation, by the truth computed here
        assert value == 0 and _truth(game, state, centre) == 0, game.to_moves(state)
    every = _every_position(game, plies, mirror)
    zero = {key for key, s in every.items() if _truth(game, s, centre) == 0}
    shown = set()
    for state, _ in kept:
        cells, player = _grid(game, state)
        key = (cells, player)
        if mirror:
            key = min(key, (tuple(tuple(reversed(r)) for r in cells), player))
        shown.add(key)
    assert shown == zero and len(kept) == len(zero)  # none missed, none twice


def test_values_within_a_bound_are_the_agents_values(tmp_path):
    game = get_game("connect4-8x8")
    evaluation, centre = _evaluation(tmp_path)
    out = tmp_path / "near.txt"
    assert main(["openings", "--game", "connect4-8x8", "--plies", "2", "--with",
                 f"alphabeta:plain=1,depth=1,eval={evaluation}", "--max-score", "2", "-o", str(out)]) == 0
    kept = _read(out, game)
    every = _every_position(game, 2, mirror=True)
    near = [s for s in every.values() if abs(_truth(game, s, centre)) <= 2]
    assert len(kept) == len(near) and any(v != 0 for _, v in kept)
    for state, value in kept:
        assert value == _truth(game, state, centre)


def test_randomized_openings_are_seeded(tmp_path, capsys):
    evaluation, centre = _evaluation(tmp_path)
    game = get_game("connect4-8x8")
    argv = ["openings", "--game", "connect4-8x8", "--plies", "4", "--with", f"alphabeta:plain=1,depth=1,eval={evaluation}",
            "--max-score", "0", "--count", "5"]
    texts = []
    for seed in (3, 3, 4):
        assert main([*argv, "--seed", str(seed)]) == 0
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1] != texts[2]
    for text in texts:
        lines = [line.split() for line in text.splitlines() if not line.startswith("#")]
        assert len(lines) == 5
        for moves, value in lines:
            assert value == "0" and _truth(game, game.from_moves(moves), centre) == 0


def test_the_issues_command_keeps_only_evaluation_zero(capsys):
    # the command of #22 gave 100 random openings, 44 of them with a non-zero evaluation
    assert main(["openings", "--game", "connect4-8x8", "--plies", "3", "--with", "alphabeta:plain=1,depth=1,eval=window",
                 "--max-score", "0"]) == 0
    game = get_game("connect4-8x8")
    lines = [line.split() for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    window = game.evaluations()["window"]
    assert lines
    for moves, value in lines:
        assert value == "0" and _truth(game, game.from_moves(moves), window) == 0


def test_what_cannot_apply_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "o.txt"
    cases = [
        ["--game", "connect4-8x8", "--max-score", "0"],  # no judge for 8 x 8: not ignored any more
        ["--game", "tictactoe", "--sample", "3"],
        ["--game", "tictactoe", "--with", "solver"],
        ["--game", "tictactoe", "--with", "random"],  # does not search
        ["--game", "tictactoe", "--with", "alphabeta:depth=x"],
        ["--game", "tictactoe", "--with", "alphabeta:depth=1", "--plies", "9"],
    ]
    for argv in cases:
        assert main(["openings", *argv, "-o", str(out)]) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "error" in err and "Traceback" not in err, (argv, err)
        assert not out.exists()


def test_python_api_judges_any_game():
    from zerosum.arena.openings import agent_evaluator, generate_openings

    game = get_game("tictactoe")
    kept = generate_openings(game, 1, 0, agent_evaluator(game, "alphabeta:plain=1"))  # solved: all draws
    assert sorted(game.format_moves(seq) for seq, _ in kept) == [str(i) for i in range(1, 10)]
    again = generate_openings(game, 2, 0, agent_evaluator(game, "alphabeta:plain=1"), count=4, seed=1)
    assert len(again) == 4 and all(v == 0 for _, v in again)
    assert [s for s, _ in again] == [s for s, _ in generate_openings(game, 2, 0, agent_evaluator(game, "alphabeta:plain=1"),
                                                                       count=4, seed=1)]
    # tic-tac-toe after one move is a draw wherever it is played: 9 positions (no mirror folding there)
    assert all(len(seq) == 1 for seq, _ in kept)


def test_a_course_game_of_a_students_own_gets_openings_that_round_trip(tmp_path):
    """AIMA's Tic-Tac-Toe class (tests/games): moves written '(2,1) (3,1)' hold spaces, so the value follows
    a '#'; every opening read back is a draw by a brute-force minimax over the class's own methods."""
    import functools
    import importlib.util

    from zerosum.arena.openings import read_openings

    path = Path(__file__).resolve().parents[1] / "games" / "test_course_games.py"
    out = tmp_path / "draws.txt"
    assert main(["openings", "--game", f"{path}:TicTacToe", "--plies", "2", "--with", "alphabeta:plain=1",
                 "--max-score", "0", "-o", str(out)]) == 0
    openings = read_openings(out, get_game(f"{path}:TicTacToe"))
    spec = importlib.util.spec_from_file_location("aima_ttt_for_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    raw = module.TicTacToe()

    @functools.lru_cache(maxsize=None)
    def value(board: frozenset, to_move: str) -> int:  # X's view
        state = module.GameState(to_move=to_move, utility=0, board=dict(board),
                                 moves=[m for m in raw.initial.moves if m not in dict(board)])
        children = []
        for m in state.moves:
            child = raw.result(state, m)
            children.append(child.utility if raw.terminal_test(child) else value(frozenset(child.board.items()), child.to_move))
        return 0 if not children else max(children) if to_move == "X" else min(children)

    every = {}
    for a, b in itertools.permutations(raw.initial.moves, 2):
        state = raw.result(raw.result(raw.initial, a), b)
        every[(a, b)] = value(frozenset(state.board.items()), state.to_move)
    assert sorted(openings) == sorted(k for k, v in every.items() if v == 0)  # exactly the drawn ones
