"""The numbers an engine reports against what a game record keeps (docs/protocol.md, Lines; docs/records.md,
Bounds): the protocol and the record share one bound on nodes (10**18), so every figure the protocol takes is
one a record writes and reads back, and a larger count is the engine's protocol error (it loses the game),
never a record that cannot be written (the audit: `info nodes 2000000000000000000` once stopped a match and
stalled a contest's ladder)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from counting_engine import COUNTING_ENGINE
from zerosum.cli import main
from zerosum.external import protocol
from zerosum.external.answers import _value, exact_scores
from zerosum.external.protocol import MAX_NUMBER, Info, ProtocolError, parse_reply
from zerosum.games import get_game
from zerosum.pool.moves import number_of
from zerosum.records import MAX_NODES, MoveNote, read

EDGES = [0, 1, 2**53, 2**53 + 1, MAX_NODES - 1, MAX_NODES, MAX_NODES + 1, 2 * 10**18, MAX_NUMBER, MAX_NUMBER + 1,
         10**19, 10**30]
counts = st.one_of(st.sampled_from(EDGES), st.integers(0, 2 * MAX_NODES), st.integers(0, 10**40), st.integers(-10, -1))


def test_the_protocol_and_the_record_share_one_bound_on_nodes():
    assert getattr(protocol, "MAX_NODES", None) is MAX_NODES == 10**18
    assert parse_reply(f"info nodes {MAX_NODES}") == Info(nodes=MAX_NODES)
    with pytest.raises(ProtocolError, match="out of range: a whole number in 0..1000000000000000000"):
        Info(nodes=MAX_NODES + 1)


@settings(max_examples=400, deadline=None)
@given(counts, st.sampled_from(["{}", "+{}", "0{}", "000{}"]), st.none() | st.integers(0, MAX_NUMBER))
def test_every_node_count_the_protocol_takes_a_record_keeps_whole(n, form, depth):
    line = f"info {'' if depth is None else f'depth {depth} '}nodes {form.format(n)} time {MAX_NUMBER}"
    try:
        info = parse_reply(line)
    except ProtocolError as exc:  # a count the record could not keep is the engine's error, said in one line
        assert not 0 <= n <= MAX_NODES and "\n" not in str(exc)
        assert f"nodes {form.format(n)} is out of range: a whole number in 0..{MAX_NODES}" in str(exc) or \
            n < 0 or "digits)" in str(exc)
        assert f"a whole number in 0..{MAX_NODES}" in str(exc)
        return
    assert 0 <= n <= MAX_NODES and info.nodes == n and info.depth == depth
    note = MoveNote(0.5, info.nodes, None)
    assert note.nodes == n and MoveNote.from_text(note.text()) == note
    assert parse_reply(info.line()) == info
    assert MoveNote(0.5, number_of(info.nodes), None).nodes is not None  # through the arena's report too


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 41), st.integers(-MAX_NUMBER, MAX_NUMBER) | st.integers(-25, 25),
       st.floats(allow_nan=False, allow_infinity=False))
def test_every_score_the_protocol_takes_in_a_position_is_a_value_a_record_keeps(ply, exact, est):
    game = get_game("connect4")
    low, high = exact_scores(game, ply)
    for line, kind in ((f"info score exact {exact}", "exact"), (f"info score est {est!r}", "est")):
        info = parse_reply(line)
        if kind == "exact" and not low <= info.exact <= high:
            continue  # an impossible proof: the session's protocol error (test_external_agent)
        value = _value(game, ply, info.exact, info.est)
        note = MoveNote(0.1, 7, value, exact=kind == "exact")
        assert MoveNote.from_text(note.text()) == note


def test_an_engine_reporting_more_nodes_than_a_record_keeps_loses_by_protocol_error(tmp_path, capsys):
    """A real program saying `info depth 1 nodes 2000000000000000000` in a match with --pgnout: it loses every
    game by protocol error, the reason naming the bound, and every record is written (the match once stopped at
    the first game, `a move's nodes are a whole number 0..10**18`); one that says 10**18 is recorded so."""
    path = tmp_path / "counter.py"
    path.write_text(COUNTING_ENGINE)
    for nodes, db in ((2 * 10**18, tmp_path / "big.db"), (MAX_NODES, tmp_path / "max.db")):
        pgn = db.with_suffix(".pgn")
        assert main(["match", "e", "first", "--engine", f"e={sys.executable} {path} {nodes}", "--games", "2",
                     "--jobs", "1", "--out", str(db), "--pgnout", str(pgn), "--quiet"]) == 0, capsys.readouterr().err
        games = read(pgn)
        assert len(games) == 2
        if nodes > MAX_NODES:
            for game in games:
                assert game.tags["Termination"].startswith("forfeit: protocol error: bad line 'info depth 1 nodes "
                                                           "2000000000000000000 score est 0': nodes "
                                                           "2000000000000000000 is out of range"), game.tags
            assert {g.result for g in games} == {"1-0", "0-1"}  # first won both, once as each colour
        else:
            counted = [note.nodes for g in games for note in g.notes if note is not None and note.nodes is not None]
            assert counted and set(counted) == {MAX_NODES}  # the engine's moves (first counts nothing)


def test_a_count_stays_the_same_integer_through_the_arenas_report():
    for n in (2**53 + 1, MAX_NODES - 1, MAX_NUMBER):
        assert number_of(n) == n and type(number_of(n)) is int
