"""Records that the tools of the chess world read: python-chess's PGN reader finds White, Black and Result in
an arena's record file; the full-move numbers are where python-chess's own PGN writer puts them; Ordo (when
installed: it is built from source, see docs/records.md) rates a tournament's record file, crediting every
player with the points the results file holds."""

import io
import random
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import get_game
from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.records import Record, format, parse, read

chess_pgn = pytest.importorskip("chess.pgn")
import chess  # noqa: E402  (after the skip: python-chess is in the test extra)

AGENTS = ["random", "mcts:sims=30", "alphabeta:depth=1"]


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    """A round robin of three agents, 4 games a pairing, with --pgnout: ``(db, pgn)``."""
    folder = tmp_path_factory.mktemp("tournament")
    db, pgn = folder / "t.db", folder / "t.pgn"
    assert main(["tournament", *AGENTS, "--games", "4", "--jobs", "1", "--quiet", "--grace", "5",
                 "--out", str(db), "--pgnout", str(pgn)]) == 0
    return db, pgn


def truth(db):
    """Every stored game straight from the results file's tables: round -> (first's label, second's, result
    from the winner's id)."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT g.idx, a.label, b.label, g.winner, p.first, p.second FROM games g "
                       "JOIN plan p ON p.idx = g.idx JOIN agents a ON a.id = p.first "
                       "JOIN agents b ON b.id = p.second").fetchall()
    con.close()
    result = {}
    for idx, first, second, winner, first_id, second_id in rows:
        result[str(idx + 1)] = (first, second,
                                "1-0" if winner == first_id else "0-1" if winner == second_id else "1/2-1/2")
    return result


def test_python_chess_reads_white_black_and_result_of_every_game(tournament):
    db, pgn = tournament
    expected = truth(db)
    assert len(expected) == 12
    seen = {}
    with open(pgn, encoding="utf-8") as fh:
        while (game := chess_pgn.read_game(fh)) is not None:
            h = game.headers
            seen[h["Round"]] = (h["White"], h["Black"], h["Result"])
            assert (h["First"], h["Second"]) == (h["White"], h["Black"])
    assert seen == expected  # every game once, each player and result where the results file has them


def test_python_chess_skips_connect_four_moves_silently(tournament):
    """What docs/records.md says python-chess makes of a Connect Four record: a lone digit matches nothing in
    its move grammar, so it reads no move and reports no error (the page once said ``game.errors`` lists
    the moves); the notes' comments gather in the game's comment."""
    _, pgn = tournament
    games = []
    with open(pgn, encoding="utf-8") as fh:
        while (game := chess_pgn.read_game(fh)) is not None:
            games.append(game)
    assert len(games) == 12
    for game in games:
        assert game.errors == [] and list(game.mainline_moves()) == [] and game.variations == []
        assert game.end().board() == chess.Board()  # nothing was played
        assert "time=" in game.comment  # the moves' notes, joined
    page = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text(encoding="utf-8")
    tools = page.split("## Tools that read the records")[1].split("## Commands")[0]
    assert "`game.errors == []`" in tools and "`game.errors` lists them" not in tools

def ordo_table(text):
    """PLAYER -> (POINTS, PLAYED) from Ordo's rating table."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\s*\d+\s+(.+?)\s*:\s*[-\d.]+\s+([\d.]+)\s+(\d+)\s+\d+\s*$", line)
        if m:
            rows[m[1]] = (float(m[2]), int(m[3]))
    return rows


@pytest.mark.skipif(shutil.which("ordo") is None, reason="Ordo is not installed (docs/records.md: how to build it)")
def test_ordo_rates_a_tournaments_record_file(tournament, tmp_path):
    db, pgn = tournament
    points = {label: [0.0, 0] for label in AGENTS}
    for first, second, result in truth(db).values():
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        points[first][0] += score
        points[second][0] += 1 - score
        points[first][1] += 1
        points[second][1] += 1
    out = tmp_path / "ratings.txt"
    done = subprocess.run(["ordo", "-p", str(pgn), "-o", str(out), "-G"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Total games                  12" in done.stdout
    table = ordo_table(out.read_text())
    assert table == {label: (p, n) for label, (p, n) in points.items()}


def scores(db):
    """label -> [wins, losses, draws], from the results file's tables."""
    table = {label: [0, 0, 0] for label in AGENTS}
    for first, second, result in truth(db).values():
        if result == "1/2-1/2":
            table[first][2] += 1
            table[second][2] += 1
        else:
            winner, loser = (first, second) if result == "1-0" else (second, first)
            table[winner][0] += 1
            table[loser][1] += 1
    return table


@pytest.mark.skipif(shutil.which("bayeselo") is None,
                    reason="BayesElo is not installed (docs/records.md: how to build it)")
def test_bayeselo_rates_a_tournaments_record_file(tournament):
    db, pgn = tournament
    done = subprocess.run(["bayeselo"], input=f"readpgn {pgn}\nelo\nmm\nratings\nx\nx\n", capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "12 game(s) loaded" in done.stdout + done.stderr
    found = {}
    for line in done.stdout.splitlines():  # Rank Name Rating delta + - games score score% W L D ...
        m = re.match(r"\s*\d+\s+(\S+)\s+-?\d+(?:\s+[-\d.]+){6}\s+(\d+)\s+(\d+)\s+(\d+)\s", line)
        if m:
            found[m[1]] = [int(m[2]), int(m[3]), int(m[4])]
    assert found == scores(db)


# ---- move numbers -----------------------------------------------------------------------------------


def chess_numbers(start: int, count: int, seed: int) -> list[tuple[int, str]] | None:
    """Where python-chess's PGN writer puts move numbers in ``count`` moves played from ply ``start`` (its
    position set up from a FEN, as PGN marks a game not from the start): ``(index of the move, number)``."""
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(start):
        board.push(rng.choice(list(board.legal_moves)))
    game = chess_pgn.Game()
    game.setup(board)
    node = game
    for _ in range(count):
        moves = list(node.board().legal_moves)
        if not moves:
            return None
        node = node.add_variation(rng.choice(moves))
    text = game.accept(chess_pgn.StringExporter(headers=False, comments=False, variations=False))
    found, index = [], 0
    for token in text.split()[:-1]:
        if re.fullmatch(r"\d+\.(\.\.)?", token):
            found.append((index, token))
        else:
            index += 1
    return found


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 7), st.integers(1, 20), st.integers(0, 10**6))
def test_move_numbers_are_where_python_chess_writes_them(start, count, seed):
    expected = chess_numbers(start, count, seed)
    if expected is None:
        return  # a chess game over before count moves
    game = get_game("connectx:rows=6,cols=7,k=7")  # a line of 7 is rare: games run long
    rng = random.Random(seed)
    state, actions = game.initial_state, []
    while len(actions) < start + count:
        if game.is_terminal(state):
            return
        actions.append(rng.choice(game.actions(state)))
        state = game.result(state, actions[-1])
    opening = game.format_moves(actions[:start]) if start else "-"
    record = Record({"Game": game.spec, "Opening": opening, "Termination": "abandoned"},
                    [game.format_action(a) for a in actions[start:]], [], "*")
    text = format(record).split("\n\n", 1)[1]
    found, index = [], 0
    for token in text.split()[:-1]:
        if token.endswith("."):
            found.append((index, token))
        else:
            index += 1
    assert found == expected
    assert parse(format(record)) == [record]


def test_records_without_numbers_read_as_before_and_numbers_never_read_as_moves():
    old = '[Game "connect4"]\n\n4 4 4 4 4 4 1 *\n'
    new = '[Game "connect4"]\n\n1. 4 4 2. 4 4 3. 4\n4 4. 1 *\n'  # the number 4. then the move 1, and moves 4
    assert parse(old) == parse(new)
    assert parse(new)[0].moves == ["4", "4", "4", "4", "4", "4", "1"]
    assert "1. 4 4 2. 4 4 3. 4 4 4. 1 *" in format(parse(old)[0])
    with pytest.raises(InvalidFileError, match="not a move token"):
        Record({"Game": "connect4"}, ["4."])


@pytest.mark.parametrize("movetext, line, message", [
    ("1. 4 3. 4 *", 3, r"move number 3\. where 1\.\.\. belongs \(ply 2"),
    ("1. 4 4 2... 4 *", 3, r"move number 2\.\.\. where 2\. belongs"),
    ("1. 4 4\n2. *", 4, r"move number 2\. is followed by '\*', not a move"),
    ("1. {time=1s} 4 *", 3, r"move number 1\. is followed by '\{time=1s\}'"),
    ("1. 2. 4 *", 3, r"move number 1\. is followed by '2\.'"),
    ("01. 4 *", 3, r"move number 01\. where 1\. belongs"),
])
def test_a_wrong_move_number_is_one_line_naming_its_line(movetext, line, message):
    with pytest.raises(InvalidFileError, match=rf"^game 1, line {line}: {message}"):
        parse(f'[Game "connect4"]\n\n{movetext}\n')


def test_white_and_black_name_first_and_second_and_must_agree(tmp_path):
    text = '[White "a"]\n[Black "b"]\n[Game "tictactoe"]\n\n1. 5 *\n'  # as another PGN tool writes a game
    record = parse(text)[0]
    assert (record.tags["First"], record.tags["Second"], record.tags["White"], record.tags["Black"]) == \
           ("a", "b", "a", "b")
    with pytest.raises(InvalidFileError, match=r"^game 1, line 1: the Black tag says 'x' but the Second tag says 'b'"):
        parse('[First "a"]\n[Second "b"]\n[Black "x"]\n[Game "tictactoe"]\n\n5 *\n')
    path = tmp_path / "g.pgn"
    path.write_text(format(record))
    header = chess_pgn.read_headers(io.StringIO(path.read_text()))
    assert (header["White"], header["Black"], header["Result"]) == ("a", "b", "*")
    assert read(path) == [record]
