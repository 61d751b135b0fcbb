"""OpenSpiel adapter: what it is handed is checked (audit defects 5, 8/9, 10 and 11).

A game given with an OpenSpiel state must be the state's counterpart; wrong types are one GameError line;
a person cannot be a bot; a BotAgent (openspiel-mcts) refuses a game OpenSpiel lacks before a game starts.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

from zerosum import get_game  # noqa: E402
from zerosum.agents.registry import make_agent  # noqa: E402
from zerosum.errors import AgentError, InvalidPositionError, InvalidSpecError  # noqa: E402
from zerosum.interop import openspiel as zo  # noqa: E402


def _c4_state(*actions: int):
    state = pyspiel.load_game("connect_four").new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


# ---- 5: a mismatched game is refused -------------------------------------------------------------------


def test_from_pyspiel_state_refuses_a_game_that_is_not_the_states() -> None:
    state = _c4_state(0, 1, 2)
    with pytest.raises(InvalidPositionError, match="is not tictactoe"):
        zo.from_pyspiel_state(state, get_game("tictactoe"))
    with pytest.raises(InvalidPositionError, match="is not connectx:rows=5,cols=9,k=3"):
        zo.from_pyspiel_state(state, get_game("connectx:rows=5,cols=9,k=3"))
    c4 = get_game("connect4")
    assert zo.from_pyspiel_state(state, c4) == c4.from_moves("123") == zo.from_pyspiel_state(state)
    assert zo.from_pyspiel_state(state, "connect4") == c4.from_moves("123")  # a spec names the game too


def test_a_bot_for_one_game_refuses_another_games_state() -> None:
    state = _c4_state(0, 1, 2)
    with pytest.raises(InvalidPositionError, match="is not tictactoe"):
        zo.bot("alphabeta", game=get_game("tictactoe")).step(state)
    with pytest.raises(InvalidPositionError, match="is not connectx:rows=5,cols=9,k=3"):
        zo.bot("alphabeta:depth=2", game=get_game("connectx:rows=5,cols=9,k=3")).step(state)
    assert zo.bot("first", game=get_game("connect4")).step(state) == 0
    assert zo.bot("first", game=pyspiel.load_game("connect_four")).step(state) == 0


def test_to_pyspiel_state_refuses_another_games_pyspiel_game() -> None:
    ttt = get_game("tictactoe")
    with pytest.raises(InvalidPositionError, match="is not tictactoe"):
        zo.to_pyspiel_state(ttt, ttt.from_moves("5"), pyspiel.load_game("connect_four"))
    assert zo.to_pyspiel_state(ttt, ttt.from_moves("5"), pyspiel.load_game("tic_tac_toe")).history() == [4]


# ---- 8/9: wrong types are one GameError line; specs are accepted where documented ----------------------


def test_games_by_spec_or_string() -> None:
    params = zo.to_pyspiel_game("connectx:rows=5,cols=9,k=3").get_parameters()
    assert (params["rows"], params["columns"], params["x_in_row"]) == (5, 9, 3)
    assert zo.from_pyspiel_game("connect_four").spec == "connectx:rows=6,cols=7,k=4"
    assert zo.from_pyspiel_game("connect_four(rows=5,columns=9)").spec == "connectx:rows=5,cols=9,k=4"
    assert zo.bot("first", game="connect4").step(_c4_state()) == 0
    assert zo.bot("first", game="tictactoe").step(pyspiel.load_game("tic_tac_toe").new_initial_state()) == 0


@pytest.mark.parametrize("call", [
    lambda: zo.to_pyspiel_game(None),
    lambda: zo.to_pyspiel_game("connect_four"),
    lambda: zo.from_pyspiel_game(None),
    lambda: zo.from_pyspiel_game(get_game("connect4")),
    lambda: zo.from_pyspiel_game("chess"),
    lambda: zo.from_pyspiel_game("connect_four(foo=1)"),
    lambda: zo.from_pyspiel_state(None),
    lambda: zo.from_pyspiel_state("123"),
    lambda: zo.from_pyspiel_state(_c4_state(), 7),
    lambda: zo.bot("first").step(None),
    lambda: zo.bot("first", game=7),
    lambda: zo.bot("first", game="migration"),
    lambda: zo.BotAgent(None),
    lambda: zo.BotAgent(lambda g: pyspiel.make_uniform_random_bot(0, 1))(None, None),
])
def test_wrong_types_and_values_are_one_game_error(call) -> None:
    with pytest.raises((AgentError, InvalidPositionError, InvalidSpecError)):
        call()


@pytest.mark.parametrize("text, words", [
    ("connect_four(foo=1)", "'foo' is not one of its parameters (columns, egocentric_obs_tensor, rows, x_in_row)"),
    ("connect_four(rows=abc)", "rows is a whole number, not 'abc'"),
    ("connect_four(rows=5", "its parameters end with ')'"),
    ("connect_four(rows)", "'rows' is not key=value"),
    ("tic_tac_toe(x=1)", "'x' is not one of its parameters (it has none)"),
])
def test_a_bad_game_string_is_one_line_and_pyspiel_prints_nothing(capfd, text, words) -> None:
    with pytest.raises(InvalidSpecError) as caught:
        zo.from_pyspiel_game(text)
    assert str(caught.value) == f"OpenSpiel cannot load {text!r}: {words}"
    out, err = capfd.readouterr()  # pyspiel's C++ writes 'OpenSpiel exception: ...' to the process's stderr
    assert (out, err) == ("", "")
    assert zo.from_pyspiel_game("connect_four(x_in_row=3, rows=4,columns=5)").spec == "connectx:rows=4,cols=5,k=3"


# ---- 10: a person cannot be a bot ----------------------------------------------------------------------


def test_a_human_bot_is_refused() -> None:
    with pytest.raises(AgentError, match="person"):
        zo.bot("human")


# ---- 11: a game OpenSpiel lacks is refused before a game starts -----------------------------------------


def test_openspiel_mcts_refuses_a_game_without_counterpart_when_warming_up() -> None:
    agent = make_agent("openspiel-mcts:sims=10")
    for spec in ("migration", "othello:n=6"):
        with pytest.raises(AgentError):
            agent.check_game(get_game(spec))
        with pytest.raises(AgentError):
            agent.warm_up(get_game(spec))
    agent.warm_up(get_game("connect4"))  # a game with a counterpart: nothing to refuse
    agent.warm_up(get_game("tictactoe"))


def test_a_match_on_a_game_openspiel_lacks_records_no_forfeit(tmp_path, capsys) -> None:
    from zerosum.cli import main

    out = tmp_path / "r.db"
    status = main(["match", "random", "openspiel-mcts:sims=10", "--game", "migration:n=4", "--games", "2",
                   "--jobs", "1", "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "OpenSpiel has no counterpart" in err and "could not start" not in err  # refused before any game
    assert "forfeit" not in capsys.readouterr().out.lower() and not out.exists()  # nothing written
