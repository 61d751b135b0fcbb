"""zerosum.records as text: round trips over random legal games of every game, and bad text in one line."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import get_game, play_game
from zerosum.errors import IllegalMoveError, InvalidFileError
from zerosum.records import (
    ROSTER,
    MoveNote,
    Record,
    format,
    from_game_record,
    parse,
    read,
    termination,
    write,
)

GAMES = ["connect4", "connectx:rows=4,cols=12,k=4", "connectx:rows=3,cols=3,k=3", "tictactoe", "migration:n=5",
         "othello:n=4", "othello:n=6"]
RESULT = {1: "1-0", 2: "0-1", None: "1/2-1/2"}


def random_game(spec: str, seed: int, opening: int = 0, stop: int | None = None):
    """A random legal game of ``spec``: its opening's and moves' actions, and the final state."""
    game = get_game(spec)
    rng = random.Random(seed)
    state, actions = game.initial_state, []
    while not game.is_terminal(state) and (stop is None or len(actions) < stop):
        actions.append(rng.choice(game.actions(state)))
        state = game.result(state, actions[-1])
    cut = min(opening, max(0, len(actions) - 1))
    if game.is_terminal(game.states_of(actions[:cut])[-1]):
        cut = 0
    return game, actions[:cut], actions[cut:], state


def record_of(spec: str, seed: int, opening: int, notes: list, tags: dict, stop: int | None = None) -> Record:
    game, head, moves, final = random_game(spec, seed, opening, stop)
    out = game.outcome(final)
    result = RESULT[out.winner] if out is not None else "*"
    tags = {**tags, "Game": game.spec, "Opening": game.format_moves(head) if head else "-",
            "Termination": "normal"}
    return Record(tags, [game.format_action(a) for a in moves], notes[: len(moves)], result)


notes = st.one_of(st.none(), st.builds(
    MoveNote,
    st.one_of(st.none(), st.floats(0, 1e6, allow_nan=False)),
    st.one_of(st.none(), st.integers(0, 10**15)),
    st.one_of(st.none(), st.floats(-1e12, 1e12, allow_nan=False, allow_infinity=False)),
))
tag_text = st.text(st.characters(min_codepoint=32, blacklist_categories=("Cs", "Cc")), max_size=30)
extra_tags = st.dictionaries(st.from_regex(r"[A-Z][A-Za-z0-9_]{0,8}", fullmatch=True).filter(lambda k: k not in ROSTER),
                             tag_text, max_size=3)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 10**6), st.integers(0, 4), st.lists(notes, max_size=80),
       st.fixed_dictionaries({"Event": tag_text, "First": tag_text, "Second": tag_text}), extra_tags)
def test_every_game_round_trips_through_text_with_random_notes_and_tags(spec, seed, opening, notes, tags, extra):
    record = record_of(spec, seed, opening, notes, {**tags, **extra})
    text = format(record)
    assert parse(text) == [record]
    assert all(len(line) <= 80 or "{" in line or line.startswith("[") for line in text.splitlines())
    states = parse(text)[0].states()
    game = record.game
    assert game.is_terminal(states[-1]) == (record.result != "*")
    if record.result != "*":
        assert RESULT[game.winner(states[-1])] == record.result


def test_reading_accepts_any_whitespace_between_tokens_and_several_games():
    records = [record_of(spec, seed, 2, [MoveNote(0.5, 10, -1.25)] * 5, {"Round": str(i)})
               for i, (spec, seed) in enumerate(zip(GAMES, range(7)))]
    text = "\n".join(format(r) for r in records)
    squeezed = re.sub(r"\n\n", "\n\t \n", text).replace(" {", "\n{").replace("} ", "}\n\n  ")
    assert parse(squeezed) == records == parse(text)


def test_a_record_file_round_trips_and_write_refuses_an_existing_file(tmp_path):
    records = [record_of("connect4", s, 2, [MoveNote(nodes=s)] * 3, {"Round": str(s)}) for s in range(3)]
    path = tmp_path / "games.pgn"
    assert write(records, path) == 3
    assert read(path) == records
    with pytest.raises(InvalidFileError, match="exists"):
        write(records[:1], path)
    assert read(path) == records
    write(records[:1], path, overwrite=True)
    assert read(path) == records[:1]


def test_tag_values_escape_quotes_and_backslashes_as_pgn_does():
    record = record_of("tictactoe", 1, 0, [], {"First": 'say "hi" \\ bye', "Second": "\\"})
    text = format(record)
    assert '[First "say \\"hi\\" \\\\ bye"]' in text and '[Second "\\\\"]' in text
    assert parse(text)[0].tags["First"] == 'say "hi" \\ bye'


def test_notes_are_written_as_documented_and_read_back():
    record = record_of("connect4", 3, 0, [MoveNote(0.12, 3401, 2.0), None, MoveNote(value=-0.5)], {})
    text = format(record)
    assert f"1. {record.moves[0]} {{time=0.12s nodes=3401 value=+2}} 1... {record.moves[1]} 2. {record.moves[2]} " \
           f"{{value=-0.5}}" in " ".join(text.split())
    back = parse(text)[0]
    assert back.notes[:3] == [MoveNote(0.12, 3401, 2.0), None, MoveNote(value=-0.5)]


def test_proven_values_are_written_as_wins_and_losses_in_plies_and_read_back():
    from zerosum.values import loss_value, win_value

    notes = [MoveNote(value=win_value(7)), MoveNote(value=loss_value(4)), MoveNote(value=3.0e9), MoveNote(value=12.0)]
    record = record_of("connect4", 3, 0, notes, {})
    text = " ".join(format(record).split())
    assert "{value=+W7}" in text and "{value=-L4}" in text and "{value=+3000000000}" in text and "{value=+12}" in text
    assert parse(format(record))[0].notes[:4] == notes


def test_the_termination_tag_follows_the_arena_reasons():
    assert termination("4 in a row", False) == "normal"
    assert termination("time forfeit", True) == "forfeit: time forfeit"
    assert termination("illegal move: column 9 is outside 1..7", True) == "forfeit: illegal move: column 9 is outside 1..7"
    assert termination("adjudicated: solver proved a win for the first player", False) == \
        "adjudication: solver proved a win for the first player"
    assert termination("adjudicated: draw after 60 moves", False) == "adjudication: draw after 60 moves"


def test_a_long_or_unprintable_forfeit_reason_still_makes_a_record_that_reads_back():
    from zerosum.records import MAX_TAG

    reason = "error: \x1b[31mboom\x1b[0m\r\n\x00" + "x" * 10_000 + "\ud800"  # an agent's error, as it was raised
    tag = termination(reason, True)
    assert tag.startswith("forfeit: error: [31mboom [0m xxx") and tag.endswith("...") and len(tag) == MAX_TAG
    record = Record({"Game": "tictactoe", "Termination": tag}, ["5"], result="0-1")
    assert parse(format(record)) == [record]


def test_a_forfeit_or_adjudication_may_end_a_game_before_the_board_does():
    base = '[Game "connect4"]\n[Termination "{}"]\n\n4 4 {}\n'
    assert parse(base.format("forfeit: time forfeit", "0-1"))[0].result == "0-1"
    assert parse(base.format("adjudication: draw after 2 moves", "1/2-1/2"))[0].result == "1/2-1/2"
    with pytest.raises(InvalidFileError, match="not over after its moves"):
        parse(base.format("normal", "1-0"))


BAD = [
    ('[Game "connect4"]\n\n4 4 9 *', r"^game 1, line 3: ply 3, move 3 \('9'\): column 9 is outside 1\.\.7"),
    ('[Game "connect4"]\n\n4 4 *\n\n[Game "connect4"]\n\n1\n2 x *', r"^game 2, line 8: ply 3, move 3 \('x'\): 'x' is not a column"),
    ('[Game "tictactoe"]\n\n1 4 2 5 3 0-1', r"^game 1, line 3: the moves end the game 1-0 \(three in a row\)"),
    ('[Game "tictactoe"]\n\n1 4 2 5 3 6 *', r"^game 1, line 3: ply 6, move 6 \('6'\)"),
    ('4 4 *', r"^game 1, line 1: expected a tag pair"),
    ('[Game "connect4"]\n\n4 4', r"^game 1, line 3: the game has no result token"),
    ('[Game "nope"]\n\n*', r"^game 1, line 1: Game tag 'nope'"),
    ('[Event "x"]\n\n*', r"^game 1, line 1: a record needs a Game tag"),
    ('[Game "connect4"]\n[Game "connect4"]\n\n*', r"^game 1, line 2: tag Game is given twice"),
    ('[Game "connect4"]\n\n4 {time=fast} *', r"^game 1, line 3: comment \{time=fast\}: time='fast' is not seconds"),
    ('[Game "connect4"]\n\n4 {nodes=1.5} *', r"nodes='1.5' is not a whole number"),
    ('[Game "connect4"]\n\n4 {value=nan} *', r"value='nan' is not a number"),
    ('[Game "connect4"]\n\n4 {hello} {world} *', r"one free\s+comment a move"),  # one free comment (a review's)
    ('[Game "connect4"]\n\n4 {time=1s} {time=2s} *', r"^game 1, line 3: a comment belongs after a move"),
    ('[Game "connect4"]\n\n{time=1s} 4 *', r"a comment belongs after a move"),
    ('[Game "connect4"]\n\n4 {time=1s *', r"never closed"),
    ('[Game "connect4]\n\n*', r"^game 1, line 1: a tag pair is"),
    ('[Game "connect4"]\n[Result "1-0"]\n\n*', r"the Result tag says 1-0 but the moves end with \*"),
    ('[Game "connect4"]\n[Opening "4444444"]\n\n*', r"^game 1, line 1: Opening tag '4444444'"),
    ('[Game "connect4"]\n\n4 [Event "x"] *', r"tag Event inside the moves"),
    ('[Game "connect4"]\n\n4 } *', r"unexpected '\}'"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_bad_text_is_one_line_naming_the_game_and_the_line(text, message):
    with pytest.raises(InvalidFileError) as info:
        parse(text)
    assert "\n" not in str(info.value)
    assert re.search(message, str(info.value)), str(info.value)


def test_states_of_a_record_that_does_not_replay_name_the_game_and_ply():
    record = Record({"Game": "connect4", "Round": "7", "First": "a", "Second": "b"}, ["4"] * 7)
    with pytest.raises(IllegalMoveError, match=r"^game 7 \(a - b\): ply 7, move 7 \('4'\): column 4 is full"):
        record.states()


def test_empty_text_holds_no_games_and_a_missing_file_is_one_line(tmp_path):
    assert parse("") == [] == parse("\n  \n")
    with pytest.raises(InvalidFileError, match="not found"):
        read(tmp_path / "none.pgn")
    (tmp_path / "bad.pgn").write_text("4 4 *\n")
    with pytest.raises(InvalidFileError, match=r"^record file .*bad\.pgn': game 1, line 1"):
        read(tmp_path / "bad.pgn")


@pytest.mark.parametrize("spec", ["connect4", "tictactoe", "migration:n=5", "othello:n=4"])
def test_a_play_game_record_becomes_a_record_that_replays_the_same_states(spec):
    played = play_game(spec, "alphabeta:depth=2", "random", seed=5,
                       moves=get_game(spec).format_moves(random_game(spec, 1, 0, 2)[2][:2]))
    record = from_game_record(played)
    assert parse(format(record)) == [record]
    assert record.states() == played.states()
    assert record.result == played.result and record.tags["First"] == "alphabeta:depth=2"
    assert record.notes[0] is not None and record.notes[0].time is not None


def test_the_time_control_tag_comes_from_the_runs_clock_or_its_time_per_move():
    from types import SimpleNamespace

    from zerosum.records.sources import _time_control

    def tags(config, first="random", second="random"):
        return _time_control(config, first, second)

    assert tags(SimpleNamespace(tc=[10.0, 0.1], limits={"time": 2.0})) == {"TimeControl": "10+0.1"}
    assert tags(SimpleNamespace(tc=None, limits={"time": 0.5})) == {"TimeControl": "1/0.5"}
    assert tags(SimpleNamespace(limits={"depth": 3})) == {"TimeControl": "-"}  # a config from before --tc
    # an agent's own time= is its time a move (it said "-", or the run's --time, which the spec overrides); two
    # sides that differ are said each, as cutechess writes them
    assert tags(SimpleNamespace(limits={}), "mcts:time=0.02", "mcts:time=0.02") == {"TimeControl": "1/0.02"}
    assert tags(SimpleNamespace(limits={}), "mcts:time=0.02") == {
        "TimeControl": "?", "WhiteTimeControl": "1/0.02", "BlackTimeControl": "-"}
    assert tags(SimpleNamespace(limits={"time": 0.05}), "random", "mcts:time=0.02") == {
        "TimeControl": "?", "WhiteTimeControl": "1/0.05", "BlackTimeControl": "1/0.02"}


def test_records_is_a_public_module_of_the_package():
    import subprocess
    import sys

    code = "import zerosum; print(zerosum.records.parse is not None, 'records' in zerosum.__all__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]
