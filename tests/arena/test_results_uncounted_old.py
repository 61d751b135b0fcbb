"""An older results file's 0 nodes of a move nothing counted read as not counted, never as a counted 0.

A zerosum of results schema 1 (before commit eac4e9f) stored the nodes of a plain player function under
``--nodes`` as the states it expanded through the game it was handed: 0 for a function that expands none (a
numpy homework player), where zerosum now stores None, "not counted".  The files here are written with
sqlite3 in that zerosum's very layout (``git show 7a0d90b:src/zerosum/arena/store.py``: its ``_SCHEMA``, its
``initialise``, its config's fields) and rows as it played them (the counting game: one node per ``result``
call), then read by ``zerosum report``, ``--export``, ``--resume`` and :class:`~zerosum.arena.store.Store`.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path

import pytest

from zerosum.arena.store import Store
from zerosum.cli import main
from zerosum.games import get_game
from zerosum.records import read

# the results file of zerosum at 7a0d90b (schema 1), as its store.py created it
OLD_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agents (id INTEGER PRIMARY KEY, label TEXT NOT NULL, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan (
    idx INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,
    pairing INTEGER NOT NULL,
    first INTEGER NOT NULL REFERENCES agents(id),
    second INTEGER NOT NULL REFERENCES agents(id),
    opening TEXT NOT NULL,
    seed INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    idx INTEGER PRIMARY KEY REFERENCES plan(idx),
    result TEXT NOT NULL,
    winner INTEGER,
    reason TEXT NOT NULL,
    forfeit INTEGER NOT NULL,
    moves TEXT NOT NULL,
    times TEXT NOT NULL,
    nodes TEXT NOT NULL,
    vals TEXT NOT NULL,
    depths TEXT NOT NULL,
    duration REAL NOT NULL,
    finished REAL NOT NULL
);
"""

BOT = "def player(game, state):\n    return game.actions(state)[0]\n"  # expands nothing: 0 then, not counted now
LOOKER = ("def player(game, state):\n    acts = game.actions(state)\n    for a in acts:\n"
          "        game.result(state, a)\n    return acts[-1]\n")  # one node per action
DECLARED = ("NODES_COUNTED_BY = 'search'\ndef search(game, state):\n    return 0\n"
            "def player(game, state):\n    return game.actions(state)[0]\n")
OPENING = "5"  # one ply: the first move after it is the second agent's


def _play(game, specs: list[str], first: int, second: int) -> dict:
    """One game as the old arena stored it: the stored agents' rule (``bot``: the first action, 0 nodes; else
    the last, one node per action, as the counting game counted the looker's result calls)."""
    state = game.from_moves(OPENING)
    moves, nodes = [], []
    seat = {1: first, 2: second}
    while game.outcome(state) is None:
        acts = game.actions(state)
        counts = "looker" in specs[seat[game.player(state)]]
        action = acts[-1] if counts else acts[0]
        moves.append(game.format_action(action))
        nodes.append(len(acts) if counts else 0)
        state = game.result(state, action)
    outcome = game.outcome(state)
    result = {1: "1-0", 2: "0-1"}.get(outcome.winner, "1/2-1/2")
    winner = None if outcome.winner is None else seat[outcome.winner]
    return dict(result=result, winner=winner, reason=outcome.reason, moves=moves, nodes=nodes)


def old_results_file(folder: Path, files: dict[str, str], games: int = 2, stored: int = 2, nodes: int | None = 100,
                     zero_of: str | None = None) -> Path:
    """A results file of schema 1 as zerosum 7a0d90b wrote it: a match of the agent files ``files`` (name ->
    source, written into ``folder``) on Tic-Tac-Toe under ``--nodes nodes``, ``games`` planned and the first
    ``stored`` played.  ``zero_of``: a built-in agent's spec playing second instead of the second file, whose
    every move stored 0 nodes (its search's own figure)."""
    specs = []
    digests = {}
    for name, source in files.items():
        path = folder / name
        path.write_text(source)
        specs.append(f"{path}:player")
        digests[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    if zero_of is not None:
        specs = [specs[0], zero_of]
    labels = [s if ".py" not in s else f"{Path(s.rpartition(':')[0]).name}:player" for s in specs]
    config = {"game": "tictactoe", "agents": specs, "games": games, "seed": 0, "mode": "match", "openings": [OPENING],
              "openings_source": "random, 1 plies", "order": "random", "limits": {} if nodes is None else {"nodes": nodes},
              "deadline": None, "grace": 30.0, "sprt": None, "digests": digests}
    db = folder / "old.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.executescript(OLD_SCHEMA)
    game = get_game("tictactoe")
    with con:
        con.execute("INSERT INTO meta VALUES ('schema', ?)", (json.dumps(1),))
        con.execute("INSERT INTO meta VALUES ('config', ?)", (json.dumps(config),))
        con.execute("INSERT INTO meta VALUES ('created', ?)", (json.dumps(time.time()),))
        con.executemany("INSERT INTO agents VALUES (?, ?, ?)", [(i, l, s) for i, (l, s) in enumerate(zip(labels, specs))])
        for idx in range(games):
            first, second = (0, 1) if idx % 2 == 0 else (1, 0)
            con.execute("INSERT INTO plan VALUES (?, ?, ?, ?, ?, ?, ?)", (idx, idx // 2, 0, first, second, OPENING, 7 + idx))
            if idx >= stored:
                continue
            g = _play(game, specs, first, second)
            n = len(g["moves"])
            con.execute("INSERT INTO games VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)", (
                idx, g["result"], g["winner"], g["reason"], json.dumps(g["moves"]), json.dumps([0.0004] * n),
                json.dumps(g["nodes"]), json.dumps([None] * n), json.dumps([None] * n), 0.05, time.time()))
    con.close()
    return db


def _movers(store: Store) -> list[tuple[str, int | None, bool | None]]:
    """(label of the mover, nodes, zeros' word) of every stored move."""
    labels = [label for label, _ in store.agents()]
    plan = {g.idx: g for g in store.plan()}
    out = []
    for rec in store.games():
        g = plan[rec.idx]
        for i, n in enumerate(rec.nodes):
            mover = g.first if (i + 1) % 2 == 0 else g.second  # the opening is one ply
            out.append((labels[mover], n, rec.zeros.get(i)))
    return out


def _ranking_row(out: str, label: str) -> str:
    ranking = out.split("Ranking", 1)[1]
    return next(line for line in ranking.splitlines() if label in line)


def test_an_old_files_zeros_of_a_function_nothing_counted_read_as_not_counted(tmp_path, capsys, monkeypatch) -> None:
    db = old_results_file(tmp_path, {"bot.py": BOT, "looker.py": LOOKER})
    with Store(db) as store:
        assert store.schema == 1
        moves = _movers(store)
    bot = [(n, z) for who, n, z in moves if who == "bot.py:player"]
    looker = [(n, z) for who, n, z in moves if who == "looker.py:player"]
    assert bot and all(m == (None, True) for m in bot)  # stored 0: nothing counted
    assert looker and all(n and z is None for n, z in looker)  # counted states, kept
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["report", str(db), "--plots", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    assert "not counted" in _ranking_row(out, "bot.py:player")
    assert not _ranking_row(out, "bot.py:player").rstrip(" │").endswith(" 0")
    said = " ".join(out.split())
    assert (f"nodes: not counted for {len(bot)} moves of bot.py:player (no zerosum state expanded and no "
            "NODES_COUNTED_BY): an older zerosum stored 0 for them and held them to no CPU time") in said
    assert "held to 1 s of CPU" not in said  # the CPU rule came after that zerosum: not claimed of its moves
    assert "zerosum version not recorded" in said
    assert main(["report", str(db), "--export", str(tmp_path / "e.pgn")]) == 0
    notes = [(r.tags["First"], i, n) for r in read(tmp_path / "e.pgn") for i, n in enumerate(r.notes)]
    for first, i, note in notes:  # the second agent moves first after the one-ply opening
        mover = first if i % 2 == 1 else ({"bot.py:player", "looker.py:player"} - {first}).pop()
        assert (note.nodes is None) == (mover == "bot.py:player"), (first, i, note)


def test_a_resume_upgrades_the_file_and_its_older_zeros_stay_not_counted(tmp_path, capsys) -> None:
    db = old_results_file(tmp_path, {"bot.py": BOT, "looker.py": LOOKER}, games=4, stored=2)
    with Store(db) as store:
        before = [m for m in _movers(store) if m[0] == "bot.py:player"]
    assert main(["match", str(tmp_path / "bot.py"), str(tmp_path / "looker.py"), "--game", "tictactoe", "--nodes",
                 "100", "--games", "4", "--jobs", "1", "--quiet", "--resume", "-o", str(db)]) == 0
    capsys.readouterr()
    with Store(db) as store:
        assert store.schema == 2
        games = list(store.games())
        moves = _movers(store)
    assert [g.exacts == [] for g in games] == [True, True, False, False]  # the older games, and this zerosum's
    bot = [m for m in moves if m[0] == "bot.py:player"]
    assert bot[:len(before)] == before and all(n is None for _, n, _ in bot)
    assert all(z is None for _, _, z in bot[len(before):])  # stored None by this zerosum: nothing to work out


def test_a_file_upgraded_before_versions_were_kept_reads_its_older_zeros_too(tmp_path) -> None:
    """A file of schema 1 a zerosum without ``versions`` upgraded (its ``add_game``: the column, then schema 2)."""
    db = old_results_file(tmp_path, {"bot.py": BOT, "looker.py": LOOKER})
    con = sqlite3.connect(db)
    with con:
        con.execute("ALTER TABLE games ADD COLUMN exacts TEXT NOT NULL DEFAULT '[]'")
        con.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    con.close()
    with Store(db) as store:
        assert store.schema == 2
        assert {(n, z) for who, n, z in _movers(store) if who == "bot.py:player"} == {(None, True)}


@pytest.mark.parametrize("case", ["declared", "changed"])
def test_a_zero_that_cannot_be_told_from_none_is_said_unknown(tmp_path, capsys, monkeypatch, case) -> None:
    """A file that declares NODES_COUNTED_BY had its calls counted later (0: a count) and states before (0:
    none), and one changed since the run cannot be read as it was: their 0 is unknown, said, and left out."""
    db = old_results_file(tmp_path, {"bot.py": DECLARED if case == "declared" else BOT, "looker.py": LOOKER})
    if case == "changed":
        (tmp_path / "bot.py").write_text(BOT + "# edited since\n")
    with Store(db) as store:
        bot = [(n, z) for who, n, z in _movers(store) if who == "bot.py:player"]
    assert bot and all(m == (None, False) for m in bot)
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["report", str(db), "--plots", str(tmp_path / "plots")]) == 0
    out = capsys.readouterr().out
    assert "unknown" in _ranking_row(out, "bot.py:player")
    assert (f"nodes: unknown for {len(bot)} moves of bot.py:player: an older zerosum stored 0 for them, which "
            "cannot be told from nodes not counted (left out of nodes/move)") in " ".join(out.split())


def test_an_old_files_zeros_that_were_counts_stay_counts(tmp_path) -> None:
    """A search agent's 0 is its search's figure; without a node limit a function's nodes were never 0
    but as its declared function's count: both kept."""
    db = old_results_file(tmp_path, {"bot.py": BOT, "looker.py": LOOKER}, zero_of="alphabeta:depth=1")
    with Store(db) as store:
        moves = _movers(store)
    assert {(n, z) for who, n, z in moves if who == "alphabeta:depth=1"} == {(0, None)}
    (tmp_path / "unlimited").mkdir()
    db = old_results_file(tmp_path / "unlimited", {"bot.py": DECLARED, "looker.py": LOOKER}, nodes=None)
    with Store(db) as store:
        assert {(n, z) for who, n, z in _movers(store) if who == "bot.py:player"} == {(0, None)}


def test_an_external_engines_unreported_zero_is_unknown(tmp_path) -> None:
    """Before an engine's missing figure was None (commit 0275a84), it was stored 0: unknown, never a count."""
    db = old_results_file(tmp_path, {"bot.py": BOT, "looker.py": LOOKER}, zero_of="eng:time=0.1")
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT INTO meta VALUES ('engines', ?)", (json.dumps({"eng": {"name": "Eng"}}),))
    con.close()
    with Store(db) as store:
        assert {(n, z) for who, n, z in _movers(store) if who == "eng:time=0.1"} == {(None, False)}


@pytest.mark.parametrize("engine_nodes", [0, 812])
def test_an_external_engines_unreported_value_and_depth_are_unknown(tmp_path, engine_nodes) -> None:
    """Before commit 0275a84 an engine's score and depth that no ``info`` gave were stored 0 as well (and no file
    of then marks a proof): None, so its records say no ``value=+0``; a file agent's 0 stays, and so does the
    engine's value where it reported one (here 0.5), with its nodes reported (812: no move has 0 nodes) or not."""
    db = old_results_file(tmp_path, {"looker.py": LOOKER, "bot.py": BOT}, zero_of="eng:time=0.1")
    con = sqlite3.connect(db)
    with con:
        con.execute("INSERT INTO meta VALUES ('engines', ?)", (json.dumps({"eng": {"name": "Eng"}}),))
        for idx, moves, nodes in con.execute("SELECT idx, moves, nodes FROM games").fetchall():
            n = len(json.loads(moves))
            eng = [(i + 1) % 2 == (0 if idx % 2 else 1) for i in range(n)]  # the opening is one ply
            assert sum(eng) and not all(eng)
            vals = [0.5 if e and i == n - 1 else 0 for i, e in enumerate(eng)]
            con.execute("UPDATE games SET nodes = ?, vals = ?, depths = ? WHERE idx = ?", (
                json.dumps([engine_nodes if e else x for e, x in zip(eng, json.loads(nodes))]), json.dumps(vals),
                json.dumps([0] * n), idx))
    con.close()
    with Store(db) as store:
        labels = [label for label, _ in store.agents()]
        plan = {g.idx: g for g in store.plan()}
        seen = set()
        for rec in store.games():
            g = plan[rec.idx]
            for i in range(len(rec.moves)):
                who = labels[g.first if (i + 1) % 2 == 0 else g.second]
                seen.add((who, rec.nodes[i], rec.vals[i], rec.depths[i]))
    engine_rows = {s for s in seen if s[0] == "eng:time=0.1"}
    assert engine_rows <= {("eng:time=0.1", engine_nodes or None, v, None) for v in (None, 0.5)}
    assert ("eng:time=0.1", engine_nodes or None, None, None) in engine_rows
    assert {s[2:] for s in seen if s[0] == "looker.py:player"} == {(0, 0)}  # with no 0 nodes: 812 reported
    out = tmp_path / "old.pgn"
    assert main(["report", str(db), "--export", str(out)]) == 0
    noted = {((rec.tags["Second"] == "eng:time=0.1") == (i % 2 == 0), note.value)  # the opening is one ply
             for rec in read(out) for i, note in enumerate(rec.notes)}
    assert noted == {(True, None), (True, 0.5), (False, 0)}  # no engine's value=+0: unreported, not written
