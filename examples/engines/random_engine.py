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


GO_FIELDS = ("movetime", "nodes", "depth", "ftime", "stime", "finc", "sinc")


def say(line):
    """One line out, without control characters (an error line may quote what came in)."""
    print("".join(c if c.isprintable() else "?" for c in line), flush=True)


def number(text):
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def go_ok(line):
    """Whether the line 'go ...' is well formed: known fields once each, whole numbers, limits above 0, both
    clocks.  A field name this version does not know (a later version's) is skipped with the words after it, up
    to the next known field (docs/protocol.md): it does not make the go malformed."""
    text = line.rstrip("\r\n")
    if any(ch < " " and ch != "\t" or "\x7f" <= ch <= "\x9f" or ch.isspace() and ch not in " \t" for ch in text):
        return False  # a control character, or a space the protocol does not split words at
    words, given, i = text.split(), {}, 1
    while i < len(words):
        name = words[i]
        if name not in GO_FIELDS:
            if not (name.isascii() and name[0].isalpha() and name.replace("_", "").replace("-", "").isalnum()):
                return False  # a field's name: a letter, then letters, digits, _ and -
            i += 1
            while i < len(words) and words[i] not in GO_FIELDS:
                i += 1
            continue
        if name in given or i + 1 == len(words):
            return False
        try:
            given[name] = number(words[i + 1])
        except ValueError:
            return False
        i += 2
    return (all(given[n] > 0 for n in ("movetime", "nodes", "depth") if n in given)
            and ("ftime" in given) == ("stime" in given) and ("ftime" in given or not {"finc", "sinc"} & set(given)))


def parse_spec(spec):
    """(rows, cols, k) of 'connect4' or 'connectx[:rows=R,cols=C,k=K]'; ValueError otherwise."""
    name, _, options = spec.partition(":")
    size = {"rows": 6, "cols": 7, "k": 4}
    if name not in ("connect4", "connectx") or (name == "connect4" and options):
        raise ValueError(f"this engine plays connectx, not {spec}")
    for option in filter(None, options.split(",")):
        key, _, value = option.partition("=")
        if key not in size:
            raise ValueError(f"bad option {option!r} in {spec}")
        size[key] = number(value)
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
    moves = [number(m) for m in (text.split(",") if ("," in text or cols > 9) else text) if m]
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
        if command in ("isready", "quit", "stop", "newgame") and len(words) > 1:
            say(f"info string error malformed {command}: nothing may follow")
        elif command == "zsp":
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
            if not go_ok(line):
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
