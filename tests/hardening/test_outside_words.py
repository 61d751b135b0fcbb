"""Hardening, words from outside in a game's reason: an agent's error message, the ``repr`` of its answer, an
engine's reason, a function's name may hold anything.  A lone surrogate must not crash the run (SQLite stores
UTF-8, and ``--resume`` met the same game again), and a right-to-left override, a line break, a terminal
escape or a zero-width character must not reach the results file, the records, the tables or ``zerosum
replay``: each character that does not print is escaped as ``repr`` writes it (``\\u202e``, ``\\ud800``),
and the rest (accents, CJK) stays as it is.  Through the real command, through ``zerosum.match`` and
``zerosum.play_game``, and for any text (:func:`zerosum.arena.reasons.one_line`, the one place that cleans a reason).
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zerosum
from zerosum.records import Record, parse

ZEROSUM = [sys.executable, "-m", "zerosum"]
RUN = ["--game", "tictactoe", "--games", "2", "--jobs", "1", "--grace", "5"]
#: characters no table, record or terminal may show as they are
BAD = ("\ud800", "\u202e", "\x1b", "\u200b", "\x9b")
#: a whole escape as repr writes it (what a cut must never split)
ESCAPE = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|[ntr])")

AGENTS = {
    "surrogate": ('def agent(game, state):\n    raise ValueError("bad \\ud800 char")\n', r"bad \ud800 char"),
    "repr": ('class Bad(int):\n    def __repr__(self):\n        return "\\ud800"\n\n'
             "def agent(game, state):\n    return Bad(4)\n", r"returned \ud800 (Bad)"),
    "spoof": ("def agent(game, state):\n"
              "    raise ValueError('\"]\\n[Evil \"1\"]\\n{' + '\\x1b[31mRED' + '\\u202e' + '\\u200b' + 'x' * 100000)\n",
              r'"] [Evil "1"] {RED\u202e\u200bxxx'),
}


def zerosum_run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """``zerosum ARGS`` in ``cwd``: its exit status, standard output and error (both strict UTF-8)."""
    done = subprocess.run([*ZEROSUM, *args], cwd=cwd, capture_output=True, timeout=120)
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def assert_clean(text: str) -> None:
    assert not any(c in text for c in BAD), ascii(text[:300])


def stored(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT reason, forfeit FROM games ORDER BY idx").fetchall()


def records(pgn: Path) -> list[Record]:
    text = pgn.read_bytes().decode("utf-8")  # strict: a surrogate cannot be in a UTF-8 file
    assert_clean(text)
    return parse(text)


# ---- through the command -------------------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(AGENTS))
def test_a_forfeit_reason_from_outside_is_stored_recorded_shown_and_resumed(tmp_path: Path, case: str) -> None:
    source, shown = AGENTS[case]
    (tmp_path / "bot.py").write_text(source, encoding="utf-8")
    code, out, err = zerosum_run(["tournament", "bot.py:agent", "random", *RUN, "-o", "s.db", "--pgnout", "s.pgn"],
                                 tmp_path)
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert_clean(out + err)
    forfeits = out[out.index("Forfeits"):]  # the table shows the reason, its bad characters escaped
    assert all(word[:30] in forfeits for word in shown.split() if "\\" in word), forfeits
    rows = stored(tmp_path / "s.db")
    assert len(rows) == 2 and all(forfeit for _, forfeit in rows)
    for reason, _ in rows:
        assert shown in reason and reason.isprintable() and len(reason) <= 300
        assert_clean(reason)
        assert "\\" not in ESCAPE.sub("", reason)  # every backslash starts a whole escape
    games = records(tmp_path / "s.pgn")
    assert len(games) == 2
    for game in games:
        assert game.tags["Termination"].startswith("forfeit: ") and shown in game.tags["Termination"]
        assert "Evil" not in game.tags  # no tag smuggled in through a line break
    # the state a crashed run left behind (its plan, no game stored or recorded): --resume plays them all
    with sqlite3.connect(tmp_path / "s.db") as con:
        con.execute("DELETE FROM games")
    (tmp_path / "s.pgn").write_bytes(b"")
    code, out, err = zerosum_run(["tournament", "--resume", "-o", "s.db"], tmp_path)
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert_clean(out + err)
    assert [r for r, _ in stored(tmp_path / "s.db")] == [r for r, _ in rows]
    assert len(records(tmp_path / "s.pgn")) == 2
    if case == "spoof":  # the listing and the tags view of zerosum replay
        code, out, err = zerosum_run(["replay", "--list", "s.pgn"], tmp_path)
        assert code == 0 and out.count("\n") == 2 and shown in out, out + err
        assert_clean(out + err)


# ---- through Python ------------------------------------------------------------------------------


def _raises(message: str):
    def f(game, state):
        raise ValueError(message)

    return f


class _Bad(int):
    def __repr__(self) -> str:
        return "\ud800"


def _engine_fault(game, state):
    from zerosum.external import EngineFault

    raise EngineFault("crash", "the engine wrote \u202eevil\ud800 \x07 on its standard error")


@pytest.mark.parametrize("agent, shown", [
    (_raises("bad \ud800 char"), r"bad \ud800 char"),
    (_raises("\x1b[31mRED\u202e\n[Evil]" + "x" * 5000), r"RED\u202e [Evil]xxx"),
    (lambda game, state: _Bad(4), r"returned \ud800 (_Bad)"),
    (_engine_fault, r"crash: the engine wrote \u202eevil\ud800 \x07 on its standard error"),
], ids=["surrogate", "spoof", "repr", "engine"])
def test_a_forfeit_reason_from_outside_in_a_python_match(agent, shown, capsys) -> None:
    result = zerosum.match(agent, "random", game="tictactoe", games=2)
    assert result.losses == 2 and len(result.games) == 2
    for game in result.games:
        assert game.forfeit and shown in game.reason and game.reason.isprintable()
        assert_clean(game.reason)
    result.print()
    assert_clean(capsys.readouterr().out)
    record = zerosum.play_game("tictactoe", agent, "random")
    assert record.forfeit and shown in record.reason
    assert_clean(record.reason)


@pytest.mark.parametrize("name, label", [("ev\u202eil", r"ev\u202eil"), ("bad\ud800", r"bad\ud800"),
                                         ("a\nb", r"a\nb")])
def test_a_python_function_named_with_characters_that_do_not_print_plays_under_its_escaped_name(name, label):
    def f(game, state):
        return game.actions(state)[0]

    f.__name__ = f.__qualname__ = name
    result = zerosum.match(f, "random", game="tictactoe", games=2)
    assert result.first == label and len(result.games) == 2
    assert all(g.first == label or g.second == label for g in result.games)


# ---- the one place that cleans a reason --------------------------------------------------------------


def test_a_reason_keeps_what_prints_and_escapes_the_rest() -> None:
    from zerosum.arena.reasons import one_line as _short

    assert _short("café 五目並べ Ñandú: ¿qué?") == "café 五目並べ Ñandú: ¿qué?"
    assert _short("a\u202eb\u200bc\x9bd\x1b[0me\x1bf\ud800g") == r"a\u202eb\u200bc\x9bde\x1bf\ud800g"
    assert _short("one\nline\r\n\u2028two\t three") == "one line two three"
    cut = _short("x" * 280 + "\u202e" * 30)  # cut before an escape, never inside it
    assert cut.endswith("...") and len(cut) <= 300 and "\\" not in ESCAPE.sub("", cut)
    assert _short(cut) == cut


words = st.text(st.characters(exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")), min_size=1)
bad = st.characters(categories=("Cc", "Cf", "Cs")).filter(lambda c: not c.isspace() and c != "\x1b")


@given(st.text(st.characters(exclude_categories=())) | st.text(st.characters(categories=("Cc", "Cf", "Cs", "Zs"))),
       st.sampled_from([300, 700, 20]))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_becomes_one_printable_line(text: str, limit: int) -> None:
    from zerosum.arena.reasons import one_line as _short

    out = _short(text, limit)
    out.encode("utf-8")  # a results file and a record file can hold it
    assert out.isprintable() and len(out) <= limit  # one line: no line break, no control, only plain spaces
    assert out == out.strip() and "  " not in out
    assert _short(out, limit) == out
    if text.isprintable() and len(text) <= limit:
        assert out == " ".join(text.split())


@given(words, bad, words)
@settings(max_examples=200, deadline=None)
def test_a_character_that_does_not_print_is_escaped_and_the_words_around_it_kept(a: str, c: str, b: str) -> None:
    from zerosum.arena.reasons import one_line as _short

    text = a + c + b
    out = _short(text)
    assert c not in out
    if len(text) + len(repr(c)) <= 300:
        assert out == a + repr(c)[1:-1] + b
