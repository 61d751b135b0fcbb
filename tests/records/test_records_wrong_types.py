"""Every public name of zerosum.records answers wrong types (None, numbers, nan, inf, huge ints, bytes, lists,
dicts, objects) with a GameError subclass in one line, never TypeError, AttributeError or OverflowError."""

import inspect
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zerosum.records as records
from zerosum import play_game
from zerosum.arena.match import open_run
from zerosum.cli import main
from zerosum.errors import GameError
from zerosum.records import MoveNote, Record, Writer


class Hostile:
    """An object whose repr, str, equality and length all fail."""

    def __repr__(self):
        raise RuntimeError("no repr")

    __str__ = __repr__

    def __eq__(self, other):
        raise RuntimeError("no eq")

    __hash__ = object.__hash__

    def __len__(self):
        raise RuntimeError("no len")


WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.sampled_from([10**400, -10**400, 2**63, 10**5000]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([float("nan"), float("inf"), 1e308, -0.0]),
    st.binary(max_size=12), st.just(bytearray(b"[Game]")), st.complex_numbers(max_magnitude=10),
    st.lists(st.one_of(st.none(), st.integers(), st.binary(max_size=3)), max_size=3),
    st.dictionaries(st.one_of(st.integers(), st.none(), st.text(max_size=3)), st.one_of(st.integers(), st.none()),
                    max_size=3),
    st.tuples(st.integers()), st.frozensets(st.integers(), max_size=2), st.just(Fraction(1, 3)),
    st.builds(object), st.builds(Hostile), st.just(Hostile), st.just(print),
)


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A right value for every parameter, by name (files inside a folder of the test's own)."""
    where = tmp_path_factory.mktemp("wrong_types")
    db = where / "r.db"
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--quiet",
                 "--out", str(db)]) == 0
    (where / "in.pgn").write_text('[Game "tictactoe"]\n\n5 1 *\n')
    store, _ = open_run(db)
    record = Record({"Game": "tictactoe"}, ["5"])
    counter = iter(range(10**9))
    values = {
        "tags": lambda: {"Game": "tictactoe"}, "moves": lambda: ["5"], "notes": lambda: [None], "result": lambda: "*",
        "time": lambda: 0.5, "nodes": lambda: 3, "value": lambda: 1.0, "record": lambda: record,
        "text": lambda: '[Game "tictactoe"]\n\n5 *', "body": lambda: "time=1s",
        "records": lambda: [record], "overwrite": lambda: True, "reason": lambda: "three in a row",
        "forfeit": lambda: False, "store": lambda: store, "rec": lambda: play_game("tictactoe", "first", "first"),
        "path": lambda: where / f"out{next(counter)}.pgn", "ply": lambda: 3,
        "mark": lambda: "?", "comment": lambda: "mistake: draw -> loss in 3 moves", "exact": lambda: False,
        "variations": lambda: {0: [records.Variation(["1"])]}, "lines": lambda: [["5", "1"], ["5", "9"]],
        "game": lambda: "tictactoe",  # the game the caller names (records of a game file need it)
    }
    yield values, where
    store.close()


def callables(writer: Writer) -> dict[str, object]:
    """Every callable public name of zerosum.records, and the public methods that take arguments."""
    found = {name: getattr(records, name) for name in records.__all__ if callable(getattr(records, name))}
    found.update({"MoveNote.from_text": MoveNote.from_text, "Writer.write": writer.write,
                  "Writer.game_hook": writer.game_hook})
    return found


def test_the_table_covers_every_callable_public_name():
    public = {name for name in records.__all__ if callable(getattr(records, name))}
    assert public == {"MoveNote", "Record", "Variation", "Writer", "format", "from_game_record", "from_store",
                      "move_number", "parse", "read", "termination", "tree", "write"}
    assert {name for name in records.__all__ if not callable(getattr(records, name))} == {
        "MAX_COMMENT", "MAX_DEPTH", "MAX_LINE", "MAX_LINE_MOVES", "MAX_MOVE", "MAX_NODES", "MAX_SECONDS", "MAX_TAG",
        "MAX_TAG_NAME", "MAX_TAGS", "MAX_VARIATIONS", "RESULTS", "ROSTER", "WIDTH"}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_every_public_name_answers_wrong_types_with_a_game_error(good, data):
    values, where = good
    with Writer(where / "hooked.pgn") as writer:
        name, function = data.draw(st.sampled_from(sorted(callables(writer).items())), label="name")
        params = [p for p in inspect.signature(function).parameters.values() if p.kind is not p.VAR_POSITIONAL
                  and p.kind is not p.VAR_KEYWORD]
        wrong = data.draw(st.sets(st.sampled_from([p.name for p in params]), min_size=1), label="wrong")
        kwargs = {p.name: data.draw(WRONG, label=p.name) if p.name in wrong else values[p.name]()
                  for p in params if p.name in wrong or p.default is p.empty or data.draw(st.booleans())}
        try:
            result = function(**kwargs)
            if isinstance(result, Iterator):
                list(result)
            if isinstance(result, Writer):
                result.close()
        except GameError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 600, (name, str(exc))
    assert not any(p.name.startswith(".") for p in where.iterdir())  # no temporary file left behind


@pytest.mark.parametrize("call", [
    lambda: Record(None, []), lambda: records.write([5], "never-written.pgn"), lambda: records.from_store(None),
    lambda: MoveNote(value=10**400), lambda: MoveNote(time=1e400), lambda: MoveNote(nodes=10**400),
    lambda: MoveNote(time=float("nan")), lambda: records.read(None), lambda: records.parse(b"[Game]"),
    lambda: records.termination(None, None), lambda: records.format(None), lambda: Writer(3),
    lambda: records.from_game_record(None), lambda: Record({"Game": "tictactoe"}, "55"),
    lambda: Record({"Game": "tictactoe"}, ["5"], variations={1: [records.Variation(["1"])]}),
    lambda: Record({"Game": "tictactoe"}, ["5"], variations={0: ["1"]}), lambda: records.Variation([]),
    lambda: records.tree("55"), lambda: records.tree([[5]]),
])
def test_the_calls_the_issue_names_raise_one_game_error_line(call, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GameError) as info:
        result = call()
        list(result)  # an iterator is refused before it is used
    assert "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == []
