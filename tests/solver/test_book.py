"""The opening book (issue 13): its memory-mapped file, probes inside the search, conversion from a
checkpoint, and verification of the shipped book against fresh searches and the UCI data set."""

from __future__ import annotations

import mmap
import os
import random
import struct
from pathlib import Path

import numpy as np
import pytest

from zerosum import ConnectX, Solver
from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.solver import book_file
from zerosum.solver.book import Book, canonical_key, convert, generate, load_default

SMALL = "connectx:rows=4,cols=5,k=4"


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def position_of(key: int, rows: int, cols: int) -> tuple[int, int]:
    """``(current, mask)`` of a book key (``current + mask``: each column's stones below its top bit)."""
    h = rows + 1
    current = mask = 0
    for c in range(cols):
        part = (key >> (c * h)) & ((1 << h) - 1)
        n = (part + 1).bit_length() - 1  # stones in the column: part = current bits + 2**n - 1
        mask |= ((1 << n) - 1) << (c * h)
        current |= (part - ((1 << n) - 1)) << (c * h)
    return current, mask


@pytest.fixture(scope="module")
def small_book() -> Book:
    return generate(Solver(SMALL, tt_size=1 << 14, book=False), 8)


# ---- the file -----------------------------------------------------------------------------------


def test_book_file_is_header_keys_scores_and_deterministic(small_book: Book, tmp_path: Path) -> None:
    a, b = tmp_path / "a.zsb", tmp_path / "b.zsb"
    small_book.save(str(a))
    rng = np.random.default_rng(1)
    order = rng.permutation(len(small_book))  # the same entries in another order: the same bytes
    Book(4, 5, 4, 8, small_book.keys[order], small_book.scores[order]).save(str(b))
    data = a.read_bytes()
    assert data == b.read_bytes()
    assert len(data) == book_file.HEADER_SIZE + 9 * len(small_book) and data.startswith(book_file.MAGIC)
    loaded = Book.load(str(a))
    assert isinstance(loaded.keys.base, memoryview) and isinstance(loaded.keys.base.obj, mmap.mmap)  # mapped
    assert loaded.depth == 8 and (loaded.keys == small_book.keys).all() and (loaded.scores == small_book.scores).all()


def test_position_of_inverts_canonical_keys(small_book: Book) -> None:
    game = ConnectX(4, 5, 4)
    for key in small_book.keys[::97].tolist():
        current, mask = position_of(key, 4, 5)
        assert canonical_key(current, mask, 4, 5) == key and current & ~mask == 0
        assert small_book.get(current, mask) is not None and mask & ~game.board_mask == 0


def _header(rows: int = 4, cols: int = 5, k: int = 4, depth: int = 2, count: int = 2, version: int = 1,
            magic: bytes = book_file.MAGIC) -> bytes:
    return struct.pack("<8s6IQ", magic, version, rows, cols, k, depth, 0, count).ljust(book_file.HEADER_SIZE, b"\0")


def _body(keys: list[int], scores: list[int]) -> bytes:
    return np.array(keys, "<u8").tobytes() + np.array(scores, np.int8).tobytes()


@pytest.mark.parametrize("data, expect", [
    (b"", "does not start"),
    (b"ZSBOOK\n" + b"\0" * 100, "does not start"),  # the \r of the magic lost to a text-mode copy
    (_header(version=2) + _body([1, 2], [0, 0]), "version 2"),
    (_header() + _body([1, 2], [0, 0])[:-1], "truncated"),
    (_header() + _body([1, 2], [0, 0]) + b"\0", "truncated or padded"),
    (_header(count=2**40) + _body([1, 2], [0, 0]), "truncated"),
    (_header() + _body([2, 1], [0, 0]), "out of order"),
    (_header() + _body([2, 2], [0, 0]), "repeated"),
    (_header() + _body([1, 2], [0, 11]), "a score outside -10..10"),
    (_header() + _body([1, 1 << 40], [0, 0]), "outside the 25-bit positions"),
    (_header(rows=9, cols=9) + _body([1, 2], [0, 0]), "no board"),
    (_header(depth=20) + _body([1, 2], [0, 0]), "depth 20"),
])
def test_book_load_refuses_every_malformed_mapped_file(data: bytes, expect: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.zsb"
    path.write_bytes(data)
    with pytest.raises(InvalidFileError) as info:
        Book.load(str(path))
    message = str(info.value)
    assert expect in message and repr(str(path)) in message and "\n" not in message


def test_a_malformed_book_given_to_a_command_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.zsb"
    path.write_bytes(_header() + _body([2, 1], [0, 0]))
    assert main(["book", "--game", SMALL, "--from", str(path), "-o", str(tmp_path / "out.zsb")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "out of order" in err[0] and not (tmp_path / "out.zsb").exists()


def test_old_npz_books_still_load_and_convert(small_book: Book, tmp_path: Path) -> None:
    old = tmp_path / "old.npz"
    with open(old, "wb") as fh:
        np.savez_compressed(fh, keys=small_book.keys[::-1], scores=small_book.scores[::-1],
                            meta=np.array([4, 5, 4, 8]))
    assert main(["book", "--game", SMALL, "--from", str(old), "-o", str(tmp_path / "new.zsb"), "-q"]) == 0
    new = tmp_path / "new.zsb"
    small_book.save(str(tmp_path / "direct.zsb"))
    assert new.read_bytes() == (tmp_path / "direct.zsb").read_bytes()


# ---- probes inside the search ---------------------------------------------------------------------


def test_search_uses_book_entries_below_the_root(small_book: Book) -> None:
    """A book holding only its deepest ply (as a checkpoint does) answers the search's nodes at that ply:
    the same scores as without a book, in fewer nodes."""
    game = ConnectX(4, 5, 4)
    last = small_book.keys[[position_of(int(k), 4, 5)[1].bit_count() == 8 for k in small_book.keys.tolist()]]
    frontier = Book(4, 5, 4, 8, last, np.array([small_book.get(*position_of(int(k), 4, 5)) for k in last.tolist()]))
    rng = random.Random(5)
    states = []
    while len(states) < 12:
        s = game.initial_state
        for _ in range(rng.randrange(2, 8)):
            s = game.result(s, rng.choice(game.actions(s)))
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            states.append(s)
    plain, booked = Solver(game, tt_size=1 << 14, book=False), Solver(game, tt_size=1 << 14, book=False)
    booked.book = frontier
    with_book = without = 0
    for s in states:
        assert booked.solve(s) == plain.solve(s) == small_book.get(s.current, s.mask)
        with_book, without = with_book + booked.nodes, without + plain.nodes
        assert booked.solve(s, weak=True) == sign(plain.solve(s))
    assert booked.solve_states(states) == plain.solve_states(states)
    assert with_book < without


def test_analysis_of_a_position_whose_children_are_in_the_book_searches_nothing(small_book: Book,
                                                                               tmp_path: Path) -> None:
    path = tmp_path / "b.zsb"
    small_book.save(str(path))
    solver, plain = Solver(SMALL, tt_size=1 << 12, book=str(path)), Solver(SMALL, tt_size=1 << 14, book=False)
    for moves in ("3333", "1234512", "2334"):  # plies 4..7: every child is at most at ply 8
        assert solver.analyze(moves) == plain.analyze(moves) and solver.nodes == 0


# ---- conversion and deterministic generation --------------------------------------------------------


def test_book_from_a_checkpoint_or_an_interrupted_run_is_the_same_file(small_book: Book, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    full = tmp_path / "full.zsb"
    assert main(["book", "--game", SMALL, "--depth", "6", "-o", str(full), "-q", "--tt-log-size", "14"]) == 0
    # an interrupted generation: half its checkpoint lines, in another order; resumed with --jobs 2
    cut = tmp_path / "cut.zsb"
    game = ConnectX(4, 5, 4)
    truth = generate(Solver(game, tt_size=1 << 14, book=False), 6)
    sixth = [(int(k), int(s)) for k, s in zip(truth.keys.tolist(), truth.scores.tolist())
             if position_of(int(k), 4, 5)[1].bit_count() == 6]
    lines = [f"{k} {s}\n" for k, s in sixth[::-1]]
    header = "# zerosum book checkpoint: rows=4 cols=5 k=4 depth=6\n"
    Path(str(cut) + ".partial").write_text(header + "".join(lines[: len(lines) // 2]) + "12")  # a torn last line
    assert main(["book", "--game", SMALL, "--depth", "6", "-o", str(cut), "-q", "--jobs", "2",
                 "--tt-log-size", "14"]) == 0
    assert cut.read_bytes() == full.read_bytes() and not Path(str(cut) + ".partial").exists()
    # a complete checkpoint converts without a search, and is only read
    done = tmp_path / "done.partial"
    done.write_text(header + "".join(lines))
    assert main(["book", "--game", SMALL, "--from", str(done), "-o", str(tmp_path / "conv.zsb")]) == 0
    assert (tmp_path / "conv.zsb").read_bytes() == full.read_bytes() and done.read_text() == header + "".join(lines)
    capsys.readouterr()
    # an incomplete one is refused, naming how far it got
    done.write_text(header + "".join(lines[:-1]))
    assert main(["book", "--game", SMALL, "--from", str(done), "-o", str(tmp_path / "x.zsb")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"holds {len(lines) - 1} of the {len(lines)}" in err[0]
    assert not (tmp_path / "x.zsb").exists()
    with pytest.raises(InvalidFileError, match="another generation"):
        convert(ConnectX(5, 5, 4), str(done))


def test_a_book_says_what_it_starts_before_its_first_search(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # it was silent until its first position was solved (16 s at ply 2 of 7 x 6, minutes deeper)
    calls: list[tuple[int, int, float]] = []
    generate(Solver(ConnectX(4, 5, 4), tt_size=1 << 14, book=False), 3, lambda *call: calls.append(call))
    assert calls[0] == (0, calls[-1][1], 0.0) and len(calls) == calls[-1][1] + 1
    assert main(["book", "--game", SMALL, "--depth", "3", "-o", str(tmp_path / "b.zsb"), "--tt-log-size", "14"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (f"book: 0/{calls[-1][1]} positions at ply 3 solved; solving the rest (near the empty board one "
                      "can take minutes; a line every 5 s at most, after a position)"), err


# ---- the shipped book, checked -----------------------------------------------------------------------


def _shipped() -> Book:
    book = load_default(ConnectX())
    if book is None:
        pytest.skip("no opening book shipped for 7 x 6")
    return book


@pytest.mark.parametrize("deepest", [True, pytest.param(False, marks=pytest.mark.slow)])
def test_shipped_book_sample_agrees_with_a_fresh_search(deepest: bool) -> None:
    """A seeded sample of the shipped book's entries against a search without the book.

    Fast: entries of its deepest ply (the searched one; the plies above are derived from it, which
    ``test_shipped_book_is_complete_and_consistent`` checks), their sign -- 30 of them from a book of 8
    plies or more, 2 from a shallower one (a ply-5 search takes seconds).  Slow: 30 entries of any ply, exact.
    """
    book = _shipped()
    solver = Solver(book=False, tt_size=1 << 22)
    rng = random.Random(13)
    entries = [(int(k), int(s)) for k, s in zip(book.keys.tolist(), book.scores.tolist())]
    if deepest:
        entries = [(k, s) for k, s in entries if position_of(k, 6, 7)[1].bit_count() == book.depth]
    for key, want in rng.sample(entries, 30 if book.depth >= 8 or not deepest else 2):
        current, mask = position_of(key, 6, 7)
        got = solver.solve_bits(current, mask, weak=deepest)
        assert got == (sign(want) if deepest else want), (key, want)


def _uci_positions() -> list[tuple[int, int, int]]:
    """``(current, mask, outcome for x)`` of every UCI line: 42 cells a1..a6, b1..g6 (column-major from the
    bottom), x to move (x moved first: 4 stones each)."""
    from solver_truth import UCI  # type: ignore[import-not-found]

    if not os.path.exists(UCI):
        pytest.skip("UCI data set not present")
    outcome = {"win": 1, "draw": 0, "loss": -1}
    out = []
    with open(UCI) as fh:
        for line in fh:
            if not line.strip():
                continue
            *cells, result = line.strip().split(",")
            current = mask = 0
            for i, cell in enumerate(cells):
                bit = 1 << ((i // 6) * 7 + i % 6)
                if cell != "b":
                    mask |= bit
                    current |= bit if cell == "x" else 0
            out.append((current, mask, outcome[result]))
    return out


def test_uci_mapping_reads_positions_whose_outcome_is_known() -> None:
    """The decoding checked on the data: 67,557 lines, 8 stones, 4 of them x's (to move), each column filled
    from the bottom; and the counts of the README (44,473 wins, 16,635 losses, 6,449 draws)."""
    positions = _uci_positions()
    assert len(positions) == 67557
    for current, mask, _ in positions[:2000]:
        assert mask.bit_count() == 8 and current.bit_count() == 4
        for c in range(7):
            column = (mask >> (7 * c)) & 0x7F
            assert column & (column + 1) == 0  # no hole under a stone
    counts = [sum(1 for *_, o in positions if o == v) for v in (1, -1, 0)]
    assert counts == [44473, 16635, 6449]
    # the first line (c: x o; d: x o x o x o): a win for x, as a search says too
    current, mask, result = positions[0]
    assert Solver(book=False, tt_size=1 << 20).solve_bits(current, mask, weak=True) == result == 1


def test_book_agrees_with_every_uci_position() -> None:
    """Every ply-8 entry of a book at least 8 deep has the sign of Tromp's UCI outcome (skipped while the
    shipped book is shallower)."""
    book = _shipped()
    if book.depth < 8:
        pytest.skip(f"the shipped book stops at ply {book.depth}")
    wrong = [(c, m, o) for c, m, o in _uci_positions() if sign(book.get(c, m)) != o]  # type: ignore[arg-type]
    assert wrong == []
