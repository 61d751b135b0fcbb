"""Hardening, messages (issue 20, item 10): an error that quotes what a person typed quotes it bounded, so a
700 KB spec gives a short line, not a 1.4 MB one; from Python (``make_agent``, ``get_game``, move strings)
and on the command line alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zerosum import get_game, make_agent
from zerosum.cli import main
from zerosum.errors import GameError
from zerosum.spec import QUOTE_CHARS, quoted

#: the longest error message (and command-line error line) any input may cause
BOUND = 300

#: the start of a spec: names, options and values that take each path through the parsers
PREFIXES = ["", "alphabeta", "alphabeta:", "alphabeta:depth=", "alphabeta:depth=3,eval=", "mcts:playout=",
            "mcts:sims=", "minimax:depth=2,", "random:seed=", "solver:", "file.py:", "x.py", "connect4:",
            "connectx:rows=", "connectx:rows=6,cols=", "connectx:", "tictactoe:", "migration:n=", "othello:n=",
            ":", "alphabeta:x", "Connect4:rows=1,"]

huge = st.builds(lambda piece, times: piece * times,
                 st.text(min_size=1, max_size=12).filter(lambda s: s.strip() != ""), st.integers(2_000, 60_000))


def test_quoted_keeps_short_input_and_cuts_long_input() -> None:
    assert quoted("connect4") == "'connect4'"
    shown = quoted("alphabeta:depth=" + "9" * 700_000)
    assert shown.startswith("'alphabeta:depth=999") and shown.endswith("... (700,016 characters)")
    assert len(shown) <= QUOTE_CHARS + 40
    assert quoted(10**5000) == "a whole number of 16,610 bits"  # past Python's own digit limit


@given(st.text(max_size=3000) | huge)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_quoted_is_bounded_for_any_text(text: str) -> None:
    shown = quoted(text)
    assert len(shown) <= 4 * QUOTE_CHARS + 40 and "\n" not in shown
    if len(repr(text)) <= QUOTE_CHARS + 2:
        assert shown == repr(text)


@given(st.sampled_from(PREFIXES), huge)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_spec_errors_are_bounded_for_huge_inputs(prefix: str, filler: str) -> None:
    spec = prefix + filler
    for parse in (make_agent, get_game):
        try:
            parse(spec)
        except GameError as exc:
            assert len(str(exc)) <= BOUND, (parse.__name__, str(exc)[:400])
        else:  # pragma: no cover - no spec this long names anything
            raise AssertionError(f"{parse.__name__} accepted a {len(spec):,}-character spec")


@given(st.sampled_from(["connect4", "connectx:rows=10,cols=12,k=5", "tictactoe", "migration:n=5", "othello"]), huge)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_move_string_errors_are_bounded_for_huge_inputs(spec: str, moves: str) -> None:
    game = get_game(spec)
    for parse in (game.parse_moves, game.parse_position):
        try:
            parse(moves)
        except GameError as exc:
            assert len(str(exc)) <= BOUND, str(exc)[:400]
        else:  # only a text of separators alone (';;;;', spaces) is a move string: the start, no moves
            assert not game.move_tokens(moves), f"{parse.__name__} accepted {moves[:80]!r}..."


@given(huge)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_arena_option_errors_are_bounded_for_huge_inputs(text: str) -> None:
    from zerosum.arena.adjudicate import parse_adjudicate
    from zerosum.arena.clock import parse_tc
    from zerosum.arena.runner import make_runner

    for call in (lambda: parse_tc(text), lambda: parse_tc("1+" + text), lambda: parse_adjudicate([text]),
                 lambda: parse_adjudicate(["draw=" + text]), lambda: make_runner(text, 1, 1.0)):
        with pytest.raises(GameError) as caught:
            call()
        assert len(str(caught.value)) <= BOUND, str(caught.value)[:400]


#: command lines with one huge argument (130,000 characters is the kernel's limit on one argument)
COMMAND_LINES = [
    ["match", "{x}", "random", "--game", "tictactoe", "--games", "1", "--quiet", "--out", "{tmp}/r.db"],
    ["tournament", "random", "first", "{x}", "--game", "tictactoe", "--games", "3", "--quiet", "--out", "{tmp}/r.db"],
    ["match", "random", "first", "--game", "{x}", "--games", "1", "--quiet", "--out", "{tmp}/r.db"],
    ["analyze", "{x}"],
    ["analyze", "--game", "tictactoe", "{x}"],
    ["match", "random", "first", "--seed", "{x}"],
    ["match", "random", "first", "--backend", "{x}"],
    ["match", "random", "first", "--tc", "{x}", "--out", "{tmp}/r.db"],
    ["match", "random", "first", "--adjudicate", "{x}", "--out", "{tmp}/r.db"],
    ["bench", "analysis", "--plies", "{x}"],
    ["bench", "mcts", "--playout", "{x}"],
    ["play", "--first", "{x}"],
    ["kaggle-agent", "{x}", "-o", "{tmp}/main.py"],
    ["replay", "{tmp}/{x}"],
    ["report", "{tmp}/{x}"],
    ["match", "random", "first", "--out", "{tmp}/{x}"],
    ["match", "random", "first", "--out", "{tmp}/r.db", "--pgnout", "{tmp}/{x}/g.pgn"],
    ["openings", "--game", "tictactoe", "-o", "{x}"],
    ["play", "--{x}"],
    ["{x}"],
]


@given(st.sampled_from(COMMAND_LINES), st.sampled_from(["", "alphabeta:depth=", "connectx:rows=", "4"]),
       st.builds(lambda piece, times: (piece * times)[:130_000],
                 st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=8)
                 .filter(lambda s: s.strip() != "" and "/" not in s), st.integers(2_000, 30_000)))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
def test_command_line_errors_are_bounded_for_huge_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         argv: list[str], prefix: str, filler: str) -> None:
    big = prefix + filler
    assert main([a.format(x=big, tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) <= BOUND + 1, err[:400]
    assert not (tmp_path / "r.db").exists()


def test_the_choices_an_error_lists_are_bounded_however_many_are_registered(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown name lists the choices, and a process may have registered any number of agents (external
    engines, a class's) or games: the list shows the first ones and how many more, so the line stays short.
    (A test session's own registrations once pushed ``match <huge name>``'s line past the bound.)"""
    from zerosum.agents import registry as agents
    from zerosum.agents.simple import RandomAgent
    from zerosum.games import registry as games
    from zerosum.spec import listed

    names = [f"engine-{i:03d}-{'x' * 30}" for i in range(200)]
    for name in names:
        monkeypatch.setitem(agents._REGISTRY, name, lambda: RandomAgent)
        monkeypatch.setitem(games._NAMES, name, games._NAMES["tictactoe"])
    for call, kind, registered in ((lambda: make_agent("nosuch"), "agent", agents.agent_names),
                                   (lambda: get_game("nosuch"), "game", lambda: list(games._NAMES))):
        with pytest.raises(GameError) as caught:
            call()
        text = str(caught.value)
        head = f"unknown {kind} 'nosuch': choose one of "
        assert len(text) <= BOUND and text.startswith(head), text
        # against a plain count: the names shown are the first registered ones, and the count is the rest
        shown, _, more = text[len(head):].rpartition(" and ")
        every = registered()
        assert shown.split(", ") == every[: len(shown.split(", "))], text
        assert more == f"{len(every) - len(shown.split(', '))} more" and len(every) >= len(names), text
    big = "y" * 20_000
    assert main(["match", big, "random", "--game", "tictactoe", "--games", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) <= BOUND + 1 and err.rstrip().endswith(" more"), err[:400]
    shown, _, more = listed(["a" * 50, "b", "c"], 20).rpartition(" and ")  # a long name is cut
    assert shown == "a" * QUOTE_CHARS + "..." and more == "2 more"
    assert listed(["random", "first"]) == "random, first" and listed([]) == ""
