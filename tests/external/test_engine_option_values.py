"""A spin option's value (``--engine-option me.Hash=...``, ``Engine(options=...)``) is set or refused in one line,
whatever the text (audit: ``me.Hash=+-5``, ``²``, ``-+5`` and ``--5`` passed the check, ``value.strip().lstrip("+-")
.isdigit()``, then ``int()`` raised ``ValueError: invalid literal for int() with base 10: '+-5'``, a traceback from
match, tournament and play).  A value is a whole number in ASCII digits with an optional sign, in the option's
range; the engine hears no ``setoption`` for any other.  A real engine process: test_external_agent.ENGINE, whose
``Skill`` is a spin in 0..10 and which writes every line it hears to $ENGINE_LOG."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from zerosum.errors import AgentError
from zerosum.external.session import Session
from zerosum.spec import quoted

from process_helpers import write_script, zerosum_run  # noqa: E402 (tests/process_helpers.py)
from test_external_agent import ENGINE  # noqa: E402

#: what a spin's value is: the protocol's whole number (an optional sign, ASCII digits)
SPIN = re.compile(r"[+-]?[0-9]+")


def _valid(value: str) -> bool:
    short = len(value.lstrip("+-").lstrip("0")) <= 3  # int() of no more digits than it takes from text
    return SPIN.fullmatch(value) is not None and short and 0 <= int(value) <= 10


#: text near a number: signs, ASCII digits, digits of other scripts (superscripts, Arabic-Indic), blanks
_NEAR = st.text(st.sampled_from(list("+-0123456789²³¹٣۵ \t_.e")), max_size=6)


def test_every_text_is_set_or_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "heard.txt"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    session = Session([sys.executable, str(write_script(tmp_path / "middle.py", ENGINE))], label="me")
    sent: list[str] = []
    try:
        @settings(max_examples=300, deadline=None, database=None)
        @given(st.one_of(_NEAR, st.text(max_size=12)))
        @example("+-5")
        @example("²")
        @example("-+5")
        @example("--5")
        @example("1" + "0" * 4400)  # more digits than int() takes from text
        @example("+7")
        @example("007")
        def one(value: str) -> None:
            try:
                session.set_option("Skill", value)
            except AgentError as exc:
                assert str(exc) == f"engine me: option Skill is a whole number in 0..10, not {quoted(value)}"
                assert "\n" not in str(exc) and not _valid(value)
            else:
                assert _valid(value), value
                sent.append(value)

        one()
        session.ping()  # every setoption written has been read
    finally:
        session.close()
    heard = [line.removeprefix("setoption name Skill value ") for line in log.read_text().splitlines()
             if line.startswith("setoption")]
    assert heard == sent and all(_valid(value) for value in heard)  # no other value reached the engine


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_a_malformed_value_on_the_command_line_is_one_error_line(tmp_path: Path, command: str) -> None:
    engine = write_script(tmp_path / "middle.py", ENGINE)
    db = tmp_path / "runs.db"
    agents = ["me", "random"] + (["first"] if command == "tournament" else [])
    done = zerosum_run([command, *agents, "--engine", f"me={sys.executable} {engine}", "--engine-option",
                        "me.Skill=+-5", "--games", "2", "--time", "0.05", "--out", str(db)])
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.splitlines() == [f"zerosum {command}: error: engine me: option Skill is a whole number in "
                                        "0..10, not '+-5'"]
    assert not db.exists()  # nothing was begun
