"""``EngineDefinition`` takes what it can use and refuses the rest in one AgentError line when it is built: a list
of words is taken as a tuple (it was kept as a list, then 'unhashable type' at its first game), while a string
(it was split into characters), an empty command (an IndexError later) and a name that is no agent spec ('bad
name' was registered, then no spec could name it) are refused.  Real engine processes for what is taken
(test_check_parity.ENGINE); hypothesis for the rule: whatever is given, either one AgentError line, or a
definition that hashes, is stored and read back whole, and whose name is an agent spec."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import zerosum
from zerosum.errors import AgentError
from zerosum.external import Engine, EngineDefinition, register_engine
from zerosum.spec import parse_spec

from process_helpers import write_script  # noqa: E402 (tests/process_helpers.py)
from test_check_parity import ENGINE  # noqa: E402


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_script(tmp_path_factory.mktemp("definitions") / "parity.py", ENGINE)


def test_a_list_of_words_is_taken_as_a_tuple_and_plays(engine: Path) -> None:
    definition = EngineDefinition("listed", [sys.executable, str(engine), "good"])
    assert definition.command == (sys.executable, str(engine), "good")
    assert EngineDefinition("opts", ("./ceng",), None, [["Hash", "64"]]).options == (("Hash", "64"),)
    register_engine(definition)  # hashed here and by every game (external.running): 'unhashable type: list'
    record = zerosum.play_game("tictactoe", "listed", "first", seed=1)
    assert not record.forfeit and len(record.moves) >= 5, record.reason


@pytest.mark.parametrize("name, command, said", [
    ("s1", "./ceng", "engine s1: its command is its words (a tuple), not the string './ceng': split it first "
                     "(zerosum.external.process.split_command)"),
    ("e1", (), "engine e1: an engine command names a program (it is empty)"),
    ("e2", [""], "engine e2: an engine command names a program (it is empty)"),
    ("w1", ("./ceng", 3), "engine w1: its command is a tuple of words (text), not ('./ceng', 3)"),
    ("bad name", ("./ceng",), "an engine's name is a letter, then letters, digits, - or _ (at most 64), not "
                              "'bad name'"),
    (None, ("./ceng",), "an engine's name is a letter, then letters, digits, - or _ (at most 64), not None"),
])
def test_bad_input_is_one_line_when_the_definition_is_built(name: object, command: object, said: str) -> None:
    with pytest.raises(AgentError) as caught:
        EngineDefinition(name, command)  # type: ignore[arg-type]
    assert str(caught.value) == said


def test_options_and_folder_are_checked_too() -> None:
    with pytest.raises(AgentError, match=r"^engine x: its options are \(name, value\) pairs of text, not "):
        EngineDefinition("x", ("./ceng",), None, {"Hash": "64"})  # type: ignore[arg-type]
    with pytest.raises(AgentError, match=r"^engine x: its folder is a path or None, not 7$"):
        EngineDefinition("x", ("./ceng",), 7)  # type: ignore[arg-type]


def test_an_engine_called_anything_still_plays(engine: Path) -> None:
    """Engine(name=...) is how tables call it (any text); its definition's name is that, made an engine's name."""
    with Engine([sys.executable, str(engine), "good"], name="my engine 1.0") as played:
        assert played.spec == "my engine 1.0" and played.definition.name == "my-engine-1-0"
        record = zerosum.play_game("tictactoe", played, "first", seed=1)
    assert not record.forfeit, record.reason


TEXT = st.text(max_size=12)
WORDS = st.lists(st.one_of(TEXT, st.integers(), st.none()), max_size=3)


@settings(max_examples=300, deadline=None)
@given(name=st.one_of(TEXT, st.from_regex(r"[A-Za-z][A-Za-z0-9_\-]{0,70}", fullmatch=True), st.none()),
       command=st.one_of(WORDS, WORDS.map(tuple), TEXT, st.none()),
       folder=st.one_of(st.none(), TEXT, st.integers()),
       options=st.one_of(st.lists(st.lists(TEXT, max_size=3), max_size=2), st.dictionaries(TEXT, TEXT), TEXT))
def test_a_definition_is_refused_in_one_line_or_usable(name: object, command: object, folder: object,
                                                      options: object) -> None:
    try:
        definition = EngineDefinition(name, command, folder, options)  # type: ignore[arg-type]
    except AgentError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    hash(definition)
    assert isinstance(definition.command, tuple) and definition.command and definition.command[0]
    assert EngineDefinition.from_json(definition.to_json()) == definition
    assert parse_spec(definition.name, AgentError)[0] == definition.name.lower()
