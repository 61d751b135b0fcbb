"""Generated homework submissions for the contest's tests and benchmarks: ``player(board)`` files as students
write them (a numpy board, top row first, 0 empty, 1 X, 2 O, the player is O), of known strengths, plus broken,
slow and hostile ones; and a contest folder with them submitted (validated ``ok`` by hand, as the ladder
sees a submission that passed validation)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

ALPHABETA = '''
import numpy as np

DEPTH = {depth}


def _lines(rows, cols):
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    out.append(cells)
    return out


def _value(b, lines):
    total = 0
    for cells in lines:
        mine = theirs = 0
        for r, c in cells:
            v = b[r][c]
            if v == 2:
                mine += 1
            elif v == 1:
                theirs += 1
        if mine and not theirs:
            total += (1, 4, 16, 1000)[mine - 1]
        elif theirs and not mine:
            total -= (1, 4, 16, 1000)[theirs - 1]
    return total


def _drop(b, c):
    for r in range(len(b) - 1, -1, -1):
        if b[r][c] == 0:
            return r
    return None


def _won(b, lines, p):
    return any(all(b[r][c] == p for r, c in cells) for cells in lines)


def _search(b, lines, depth, alpha, beta, me):
    if _won(b, lines, 2):
        return 100000 + depth
    if _won(b, lines, 1):
        return -100000 - depth
    moves = [c for c in _order(len(b[0])) if b[0][c] == 0]
    if depth == 0 or not moves:
        return _value(b, lines)
    best = -10**9 if me else 10**9
    for c in moves:
        r = _drop(b, c)
        b[r][c] = 2 if me else 1
        v = _search(b, lines, depth - 1, alpha, beta, not me)
        b[r][c] = 0
        if me:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


def _order(cols):
    return sorted(range(cols), key=lambda c: abs(2 * c - cols + 1))


def player(board):
    b = [[int(v) for v in row] for row in board]
    lines = _lines(len(b), len(b[0]))
    best, choice = None, None
    for c in _order(len(b[0])):
        if b[0][c] != 0:
            continue
        r = _drop(b, c)
        b[r][c] = 2
        v = _search(b, lines, DEPTH - 1, -10**9, 10**9, False)
        b[r][c] = 0
        if best is None or v > best:
            best, choice = v, c
    return choice
'''

GREEDY = '''
import numpy as np

def player(board):
    rows, cols = board.shape
    legal = [c for c in range(cols) if board[0, c] == 0]
    def wins(c, p):
        b = board.copy()
        r = max(i for i in range(rows) if b[i, c] == 0)
        b[r, c] = p
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                i, j = r + s * dr, c + s * dc
                while 0 <= i < rows and 0 <= j < cols and b[i, j] == p:
                    n += 1
                    i, j = i + s * dr, j + s * dc
            if n >= 4:
                return True
        return False
    for p in (2, 1):
        for c in legal:
            if wins(c, p):
                return c
    return min(legal, key=lambda c: abs(2 * c - cols + 1))
'''

RANDOMISH = '''
import random

def player(board):
    legal = [c for c in range(board.shape[1]) if board[0][c] == 0]
    return random.Random(int(board.sum()) * 7 + {salt}).choice(legal)
'''

FIRST = '''
def player(board):
    return next(c for c in range(board.shape[1]) if board[0][c] == 0)
'''

SYNTAX_ERROR = '''
def player(board)
    return 0
'''

WRONG_SIGNATURE = '''
def player():
    return 0
'''

ILLEGAL = '''
def player(board):
    return 99
'''

RAISES = '''
def player(board):
    if board.sum() > 6:
        raise ValueError("my bug")
    return next(c for c in range(board.shape[1]) if board[0][c] == 0)
'''

SLOW = '''
import time

def player(board):
    time.sleep({seconds})
    return next(c for c in range(board.shape[1]) if board[0][c] == 0)
'''

FORK_BOMB = '''
import os

def player(board):
    while True:
        try:
            os.fork()
        except OSError:
            pass
'''

SNOOP = '''
import sys

def player(board):
    try:
        print(open("/etc/passwd").read())
    except OSError as exc:
        print("cannot read /etc/passwd:", exc)
    sys.stdout.flush()
    return next(c for c in range(board.shape[1]) if board[0][c] == 0)
'''


def source(kind: str, **options: Any) -> str:
    """The text of a generated submission: ``alphabeta`` (``depth``), ``greedy``, ``randomish`` (``salt``),
    ``first``, ``syntax``, ``signature``, ``illegal``, ``raises``, ``slow`` (``seconds``), ``forkbomb``,
    ``snoop``."""
    table = {"alphabeta": ALPHABETA, "greedy": GREEDY, "randomish": RANDOMISH, "first": FIRST,
             "syntax": SYNTAX_ERROR, "signature": WRONG_SIGNATURE, "illegal": ILLEGAL, "raises": RAISES,
             "slow": SLOW, "forkbomb": FORK_BOMB, "snoop": SNOOP}
    text = table[kind]
    defaults = {"depth": 2, "salt": 0, "seconds": 5}
    return textwrap.dedent(text).format(**{**defaults, **options}) if "{" in text else textwrap.dedent(text)


def roster(n: int) -> list[tuple[str, str, dict[str, Any]]]:
    """``n`` students ``(name, kind, options)``: a spread of strengths, then broken, slow and hostile ones."""
    kinds: list[tuple[str, dict[str, Any]]] = [
        ("alphabeta", {"depth": 3}), ("greedy", {}), ("alphabeta", {"depth": 1}), ("randomish", {"salt": 1}),
        ("illegal", {}), ("alphabeta", {"depth": 2}), ("first", {}), ("syntax", {}), ("raises", {}),
        ("signature", {}), ("slow", {"seconds": 5}), ("forkbomb", {}), ("snoop", {}), ("randomish", {"salt": 2}),
    ]
    out = []
    for i in range(n):
        kind, options = kinds[i % len(kinds)]
        if i >= len(kinds):  # the rest: working players of varying strength
            kind, options = [("alphabeta", {"depth": 1 + i % 3}), ("greedy", {}), ("randomish", {"salt": i})][i % 3]
        out.append((f"student {i + 1:02d}", kind, options))
    return out


def make_contest(folder: Path, players: dict[str, str], *, references: list[dict[str, str]] | None = None,
                 openings: list[str] | None = None, seed: int = 7, move_time: float | None = None,
                 nodes: int | None = None, absent: tuple[str, ...] = ()) -> Any:
    """A contest in ``folder`` on connect4-8x8 whose students are ``players`` (name -> source), each submitted
    and set ``ok`` (the ``absent`` ones are on the roster and submit nothing); its
    :class:`~zerosum.contest.store.Store`."""
    from zerosum.contest.setup import ContestSettings, create_contest
    from zerosum.contest.store import Store

    refs = references if references is not None else [{"name": "random", "spec": "random"}]
    create_contest(folder, ContestSettings(game="connect4-8x8", roster=sorted([*players, *absent]),
                                           openings=openings or ["-", "45"], seed=seed, references=refs,
                                           move_time=move_time, nodes=nodes))
    store = Store(folder)
    for name, text in players.items():
        submit(store, folder, name, text)
    return store


def submit(store: Any, folder: Path, name: str, text: str, status: str = "ok") -> int:
    """Save ``text`` as ``name``'s new submission and set its validation ``status``; its id."""
    n = len(store.submissions(name)) + 1
    rel = f"submissions/{name.replace(' ', '_')}-{n}.py"
    (Path(folder) / rel).write_text(text)
    sid = store.add_submission(name, f"{name}.py", "python", "-", rel)
    store.set_status(sid, status)
    return int(sid)

