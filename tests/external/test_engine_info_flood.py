"""An engine may write up to 20,000 lines in one move (docs/protocol.md), and the arena reads them while the move's
time runs: each ``info`` line must cost little, or an engine that answers within its time loses on time (audit:
5,000 ``info`` lines then ``bestmove`` at 90 ms of ``--time 0.1`` was forfeited on time; reading and parsing
cost about 30 us a line, 20,000 lines about a second of the engine's time).  An ``info`` line of the documented
form now takes a short way through the parser (one pattern, no word-by-word walk), the same value the full
parse gives.  The checks here count work, not time: Python calls made a line, from a real process's pipe."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from zerosum.external import EngineFault
from zerosum.external.protocol import Go, Info, Position, ProtocolError, parse_reply
from zerosum.external.protocol import lines as protocol_lines
from zerosum.external.session import MAX_LINES, Session

from process_helpers import write_script  # noqa: E402 (tests/process_helpers.py)

#: an engine that answers each go with N info lines (argv[1]) of one of two kinds (argv[2]), in one write, then
#: bestmove 4
FLOODER = r'''
import sys
n, kind = int(sys.argv[1]), sys.argv[2]
for line in sys.stdin:
    w = line.split()
    if w[:1] == ["zsp"]:
        sys.stdout.write("id name flooder\nid author the tests\ngame connectx\nzspok\n")
    elif w[:1] == ["isready"]:
        sys.stdout.write("readyok\n")
    elif w[:1] == ["go"]:
        if kind == "short":
            body = "".join("info depth 1 nodes %d\n" % i for i in range(n))
        else:
            body = "".join("info depth %d nodes %d time %d score est 0.%d pv 4 4 3 5\n" % (i % 40, i * 10, i, i % 97)
                           for i in range(n))
        sys.stdout.write(body + "bestmove 4\n")
    elif w[:1] == ["quit"]:
        break
    sys.stdout.flush()
'''


def _session(tmp_path: Path, lines: int, kind: str = "short") -> Session:
    engine = write_script(tmp_path / "flooder.py", FLOODER)
    session = Session([sys.executable, str(engine), str(lines), kind], label="flooder")
    session.new_game(Position("connect4"))
    return session


@pytest.mark.parametrize("kind", ["short", "long"])
def test_an_info_line_costs_a_few_calls_from_the_pipe_to_the_thought(tmp_path: Path, kind: str) -> None:
    lines = 2_000
    session = _session(tmp_path, lines, kind)
    calls = [0]

    def count(frame: object, event: str, arg: object) -> None:
        if event == "call":  # a Python function entered (this thread's; C functions are c_call)
            calls[0] += 1

    try:
        sys.setprofile(count)
        try:
            thought = session.think(Position("connect4"), Go(movetime=60_000), 100, 120, told=60)
        finally:
            sys.setprofile(None)
    finally:
        session.close()
    assert thought.move == "4" and thought.depth == (1 if kind == "short" else (lines - 1) % 40)
    assert thought.nodes == (lines - 1) * (1 if kind == "short" else 10)
    # reading the line, checking it, parsing it, building its Info and keeping its fields: about 10 calls (it was
    # 43 for the short line and 64 for the long, a word-by-word walk with checks on each word)
    assert calls[0] / lines <= 15, calls[0] / lines


def test_the_most_lines_a_move_may_have_within_its_movetime_are_no_forfeit(tmp_path: Path) -> None:
    session = _session(tmp_path, MAX_LINES - 1, "long")  # and its bestmove: MAX_LINES lines
    try:
        thought = session.think(Position("connect4"), Go(movetime=3000), 3.18, 3.35, told=3.0)
    finally:
        session.close()
    assert thought.move == "4" and thought.nodes == (MAX_LINES - 2) * 10 and thought.est is not None


def test_a_flood_past_the_bound_is_garbage_output(tmp_path: Path) -> None:
    session = _session(tmp_path, MAX_LINES + 1)
    try:
        with pytest.raises(EngineFault) as fault:
            session.think(Position("connect4"), Go(movetime=3000), 3.18, 3.35, told=3.0)
    finally:
        session.close()
    assert fault.value.reason == "garbage output: more than 20,000 lines or 4 MiB in one move"


# ---- the short way gives what the full parse gives ---------------------------------------------------------

_NUMBERS = st.one_of(st.integers(0, 10**19), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                     st.sampled_from(["+5", "007", "-0", "0.", ".5", "1e5", "1e999", "²", "٣", "5x", "0.25", "-3.5",
                                      "1" * 19, "9" * 18])).map(str)
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)
_FIELDS = st.tuples(
    st.none() | _NUMBERS.map(lambda n: f"depth {n}"), st.none() | _NUMBERS.map(lambda n: f"nodes {n}"),
    st.none() | _NUMBERS.map(lambda n: f"time {n}"),
    st.none() | st.tuples(st.sampled_from(["exact", "est", "cp"]), _NUMBERS).map(lambda s: f"score {s[0]} {s[1]}"),
    st.none() | st.tuples(st.sampled_from(["pv", "string", "pv ", "string\t"]), _TEXT).map(lambda t: t[0] + " " + t[1]))


@st.composite
def _info_lines(draw: st.DrawFn) -> str:
    """An info line near the documented form: its fields in order (or shuffled, or one twice), one space apart (or
    more, or a tab), with numbers and text of every kind."""
    fields = [f for f in draw(_FIELDS) if f is not None]
    if draw(st.integers(0, 5)) == 0:
        fields = draw(st.permutations(fields))
    if fields and draw(st.integers(0, 8)) == 0:
        fields.insert(0, fields[-1] if draw(st.booleans()) else fields[0])
    gaps = draw(st.lists(st.sampled_from([" "] * 12 + ["  ", "\t"]), min_size=len(fields) + 1,
                         max_size=len(fields) + 1))
    return "info" + "".join(g + f for g, f in zip(gaps, fields)) + draw(st.sampled_from([""] * 8 + [" ", "\t"]))


@settings(max_examples=600, deadline=None)
@given(_info_lines())
@example("info depth 1 depth 2")
@example("info score exact 1 score est 2")
@example(f"info nodes {10**18}")
@example("info nodes 999999999999999999")
@example("info pv 4 3 \t")
@example("info string \x85")
def test_every_info_line_reads_as_the_full_parse_reads_it(line: str) -> None:
    try:
        full = protocol_lines._parse(line, protocol_lines._REPLIES)
    except ProtocolError as exc:
        with pytest.raises(ProtocolError) as quick:
            parse_reply(line)
        assert str(quick.value) == str(exc)
    else:
        assert parse_reply(line) == full


def test_a_line_of_the_documented_form_takes_the_short_way() -> None:
    line = "info depth 12 nodes 12000 time 120 score est 0.25 pv 4 4 3 5"
    assert protocol_lines._fast_info(line) == Info(12, 12000, 120, None, 0.25, "4 4 3 5") == parse_reply(line)
    assert protocol_lines._fast_info("info string error no position") == Info(string="error no position")
