#!/usr/bin/env python3
"""The least a program needs to play in zerosum's arena: a random Connect-X engine speaking the engine
protocol, version 1 (docs/protocol.md), in the standard library alone.

    zerosum engine-check python3 examples/engines/random_engine.py

It answers the handshake, keeps the position, plays a random legal move at once (so ``stop`` has nothing to
interrupt), says ``bestmove (none)`` when the game is over and ``info string error ...`` on bad input, and
ignores every command it does not know.
"""
import random
import sys


def say(line):
    print(line, flush=True)


def parse_spec(spec):
    """(rows, cols, k) of 'connect4' or 'connectx[:rows=R,cols=C,k=K]'; ValueError otherwise."""
    name, _, options = spec.partition(":")
    size = {"rows": 6, "cols": 7, "k": 4}
    if name not in ("connect4", "connectx") or (name == "connect4" and options):
        raise ValueError(f"this engine plays connectx, not {spec}")
    for option in filter(None, options.split(",")):
        key, _, value = option.partition("=")
        if key not in size or not value.isdigit():
            raise ValueError(f"bad option {option!r} in {spec}")
        size[key] = int(value)
    if min(size.values()) < 1 or size["k"] < 2:
        raise ValueError(f"bad size in {spec}")
    return size["rows"], size["cols"], size["k"]


def wins(board, rows, cols, k, player):
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + i * dr < rows and 0 <= c + i * dc < cols and board.get((r + i * dr, c + i * dc)) == player
                       for i in range(k)):
                    return True
    return False


def set_position(words):
    """The position after 'position SPEC [moves MOVES]': (rows, cols, k, board, heights, over)."""
    if len(words) < 2 or (len(words) > 2 and words[2] != "moves"):
        raise ValueError("position SPEC [moves MOVES]")
    rows, cols, k = parse_spec(words[1])
    text = "".join(words[3:])
    moves = [int(m) for m in text.split(",") if m] if ("," in text or cols > 9) else [int(m) for m in text]
    board, heights, over = {}, [0] * cols, False
    for ply, column in enumerate(moves):
        if over or not 1 <= column <= cols or heights[column - 1] == rows:
            raise ValueError(f"move {ply + 1} ({column}) is illegal")
        board[(heights[column - 1], column - 1)] = ply % 2
        heights[column - 1] += 1
        over = wins(board, rows, cols, k, ply % 2) or len(board) == rows * cols
    return rows, cols, k, board, heights, over


def main():
    position = None
    for line in sys.stdin:
        words = line.split()
        command = words[0] if words else ""
        if command == "zsp":
            for reply in ("id name random_engine.py", "id author the zerosum authors", "game connectx", "zspok"):
                say(reply)
        elif command == "isready":
            say("readyok")
        elif command == "position":
            try:
                position = set_position(words)
            except ValueError as exc:
                position = None
                say(f"info string error {exc}")
        elif command == "go":
            if any(not w.isdigit() for w in words[2::2]):
                say("info string error malformed go")
            elif position is None or position[5]:
                say("info string error no position, or the game is over")
                say("bestmove (none)")
            else:
                rows, cols, _, _, heights, _ = position
                say(f"bestmove {random.choice([c + 1 for c in range(cols) if heights[c] < rows])}")
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
