"""A line of an openings file is read whole: its moves (with spaces between them where the game's notation
allows them), then optionally its value and a ``#`` comment; anything else is refused in one line naming the
file and the line, never cut off.  Before, ``4 4 3 3`` and ``4 banana`` were both read as the opening ``4``."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import get_game, match
from zerosum.arena.openings import (
    format_value,
    opening_field,
    opening_line,
    read_openings,
    shipped_openings,
    write_openings,
)
from zerosum.cli import main
from zerosum.errors import GameError

COURSE = f"{Path(__file__).resolve().parents[1] / 'games' / 'test_course_games.py'}:TicTacToe"
GAMES = ["connect4", "connectx:rows=4,cols=12,k=4", "tictactoe", "migration:n=5", "othello:n=6", COURSE]
#: each game made once, here: loading the course game's file inside a hypothesis test would run its tests' decorators
MADE = {spec: get_game(spec) for spec in GAMES}


def random_opening(spec: str, seed: int, plies: int) -> tuple:
    """Up to ``plies`` random moves of ``spec`` that leave the game open."""
    game, rng = MADE[spec], random.Random(seed)
    state, actions = game.initial_state, []
    for _ in range(plies):
        legal = game.actions(state)
        a = legal[rng.randrange(len(legal))]
        if game.is_terminal(game.result(state, a)):
            break
        actions.append(a)
        state = game.result(state, a)
    return tuple(actions)


def read_line(tmp_path: Path, spec: str, line: str):
    path = tmp_path / "op.txt"
    path.write_text(line + "\n", encoding="utf-8")
    return read_openings(path, MADE[spec])


values = st.one_of(st.none(), st.integers(-10**6, 10**6), st.floats(-10**6, 10**6, allow_nan=False).map(float))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 6), values), min_size=1,
                                        max_size=5))
def test_what_the_writer_writes_reads_back(tmp_path_factory, spec, drawn):
    """``zerosum openings``' lines (``opening_line``: the value after a space, or after `` # `` where moves
    hold spaces) read back as the openings written, whatever the value."""
    game = MADE[spec]
    openings = [(random_opening(spec, seed, plies), None if v is None else format_value(v)) for seed, plies, v in drawn]
    path = tmp_path_factory.mktemp("w") / "op.txt"
    write_openings(path, game, openings, header=["a header"])
    assert read_openings(path, game) == [actions for actions, _ in openings]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["connect4", "connectx:rows=4,cols=12,k=4", "tictactoe", "migration:n=5", "othello:n=6"]),
       st.integers(0, 10**6), st.integers(1, 8), st.sampled_from([" ", "  ", "\t", " \t "]),
       st.sampled_from(["", " # 0", " # a comment", "#"]))
def test_moves_written_with_spaces_are_read_as_those_moves(tmp_path_factory, spec, seed, plies, gap, tail):
    """Every move apart (as ``zerosum play --moves`` and records take them): all of them, never the first
    alone -- except the two-field form MOVES VALUE on a line without '#', which is the value's."""
    game = MADE[spec]
    actions = random_opening(spec, seed, plies)
    words = [game.format_action(a) for a in actions] or ["-"]
    line = gap.join(words) + tail
    path = tmp_path_factory.mktemp("s") / "op.txt"
    path.write_text(line + "\n", encoding="utf-8")
    read = read_openings(path, game)
    if len(words) == 2 and not tail and re.fullmatch(r"[0-9]+", words[1]):
        assert read == [actions[:1]]  # documented: `4 4` is the opening 4 valued 4
    else:
        assert read == [actions]


#: pieces of text an openings line may be made of: moves, values, junk, comments
PIECES = ["4", "44", "4453", "1", "7", "9", "0", "-3", "0.25", "banana", "b", "#", "# 0", "-", "x4", "4.", "+2"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=5), st.sampled_from([" ", "  ", "\t"]))
def test_a_line_is_read_whole_or_refused_in_one_line(tmp_path_factory, pieces, gap):
    """The reader's answer for any line: the moves of all of it before '#', or of its first field when the
    line is exactly MOVES VALUE (no '#') -- else one GameError line naming the file and the line.  Never
    a part of the moves with the rest dropped."""
    game = get_game("connect4")
    line = gap.join(pieces)
    path = tmp_path_factory.mktemp("p") / "op.txt"
    path.write_text("# header\n\n" + line + "\n", encoding="utf-8")
    body = line.split("#", 1)[0]
    fields = body.split()

    def moves_of(text: str):
        try:
            return tuple(game.parse_moves(text)) if text not in ("", "-") else ()
        except GameError:
            return None

    if not fields:
        allowed = set()  # a comment line (or a bare '#'): no opening at all
    elif len(fields) == 2 and "#" not in line and re.fullmatch(r"[+-]?[0-9.]+", fields[1]) and fields[1] != ".":
        allowed = {moves_of(fields[0])}
    else:
        allowed = {moves_of(body.strip())}
    try:
        read = read_openings(path, game)
    except GameError as exc:
        message = str(exc)
        assert "\n" not in message
        if fields:
            assert message.startswith(f"openings file {str(path)!r}, line 3: ")
        else:
            assert "holds no openings" in message
        return
    assert fields and len(read) == 1
    opening = read[0]
    assert opening in allowed and None not in allowed
    assert not game.is_terminal(game.states_of(opening)[-1])


# ---- the audit's cases, and every reader ---------------------------------------------------------------


def test_the_audits_lines(tmp_path):
    assert read_line(tmp_path, "connect4", "4 4 3 3") == [(3, 3, 2, 2)]
    assert read_line(tmp_path, "connect4", "4453 0") == [(3, 3, 4, 2)]
    assert read_line(tmp_path, "connect4", "4 4 5 3 # 0") == [(3, 3, 4, 2)]
    assert read_line(tmp_path, "connect4", "4 4 #") == [(3, 3)]
    assert read_line(tmp_path, "connect4", "4 4") == [(3,)]  # MOVES VALUE, as documented
    for line, why in [("4 banana", "move 2 of '4 banana' is 'b'"), ("4453 0 1", "column 0 is outside 1..7"),
                      ("4453 0 # 1", "column 0 is outside 1..7"), ("4 nan", "move 2 of '4 nan'")]:
        with pytest.raises(GameError) as info:
            read_line(tmp_path, "connect4", line)
        message = str(info.value)
        assert message.startswith(f"openings file '{tmp_path / 'op.txt'}', line 1: ") and why in message
        assert "MOVES VALUE" in message and "\n" not in message


def test_a_bad_line_names_its_number(tmp_path):
    path = tmp_path / "op.txt"
    path.write_text("# judged\n4453 0\n\n4 4 3 3\n4 banana\n", encoding="utf-8")
    with pytest.raises(GameError, match=r"op\.txt', line 5: move 2 of '4 banana'"):
        read_openings(path, get_game("connect4"))


def test_the_shipped_openings_and_a_course_games_lines_read_as_before(tmp_path):
    game = get_game("connect4")
    shipped = shipped_openings(game)
    lines = [line for line in shipped.read_text().splitlines() if line and not line.startswith("#")]
    assert read_openings(shipped, game) == [tuple(game.parse_moves(line.split()[0])) for line in lines]
    course = MADE[COURSE]
    first, second = course.actions(course.initial_state)[:2]
    line = opening_line(course, (first, second), "0")
    assert " # 0" in line and read_line(tmp_path, COURSE, line) == [(first, second)]
    with pytest.raises(GameError, match="line 1"):
        read_line(tmp_path, COURSE, line.replace(" # 0", " banana"))


def test_opening_field_keeps_the_moves_whole():
    """What ``zerosum contest new --openings`` takes of each line: the moves, never their first field alone."""
    game = get_game("connect4")
    assert opening_field(game, "4 4 3 3") == "4 4 3 3"
    assert opening_field(game, "4 banana") == "4 banana"  # refused when parsed, not cut to '4'
    assert opening_field(game, "4453 -2") == "4453"
    assert opening_field(game, "4453 # 0") == "4453"


def test_match_and_tournament_refuse_a_bad_line_and_write_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("44\n4 banana\n", encoding="utf-8")
    db, pgn = tmp_path / "r.db", tmp_path / "r.pgn"
    for command in (["match", "random", "random"], ["tournament", "random", "random", "random"]):
        capsys.readouterr()
        assert main([*command, "--openings", str(bad), "--games", "2", "--quiet", "--out", str(db),
                     "--pgnout", str(pgn)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"openings file '{bad}', line 2: move 2 of '4 banana'" in err[0]
        assert not db.exists() and not pgn.exists()
    with pytest.raises(GameError, match="line 2"):
        match("random", "random", games=2, openings=str(bad))


def test_a_match_plays_every_move_of_a_spaced_line(tmp_path):
    spaced = tmp_path / "op.txt"
    spaced.write_text("4 4 3 3\n", encoding="utf-8")
    db, pgn = tmp_path / "r.db", tmp_path / "r.pgn"
    assert main(["match", "random", "random", "--openings", str(spaced), "--games", "2", "--quiet", "--jobs", "1",
                 "--out", str(db), "--pgnout", str(pgn)]) == 0
    assert re.findall(r'\[Opening "([^"]*)"\]', pgn.read_text()) == ["4433", "4433"]
