"""What an engine's ``info`` lines cost the arena: reading and parsing them is charged to the engine's time.

    python benchmarks/engine_info_lines.py [--lines N] [--rounds R]

Side by side in one run, rounds interleaved: N ``info`` lines (default 19,999: with the ``bestmove``, the
protocol's bound of 20,000 lines a move) parsed by :func:`zerosum.external.protocol.parse_reply` (its short way
for lines in the documented order) and by the full word-by-word parse it falls back to (the only way before the
short one); then one move of a real
process that writes N such lines before its ``bestmove`` (``Session.think``, go to bestmove).  Two kinds of
lines: short (``info depth 1 nodes N``) and long (depth, nodes, time, an estimate and a pv).  Prints medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from zerosum.external.protocol import Go, Position, lines as protocol_lines, parse_reply
from zerosum.external.session import Session

KINDS = {"short": "info depth 1 nodes {i}",
         "long": "info depth {d} nodes {n} time {t} score est 0.{e} pv 4 4 3 5 2 6"}

ENGINE = r'''
import sys
n, line = int(sys.argv[1]), sys.argv[2]
for command in sys.stdin:
    word = command.split()[0] if command.split() else ""
    if word == "zsp":
        print("id name flood\nid author bench\ngame connectx:rows=6,cols=7,k=4\nzspok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        sys.stdout.write("".join(line.format(i=i, d=i % 40, n=i * 1000, t=i // 10, e=i % 97) + "\n"
                                 for i in range(n)) + "bestmove 4\n")
        sys.stdout.flush()
    elif word == "quit":
        break
'''


def lines_of(kind: str, n: int) -> list[str]:
    return [KINDS[kind].format(i=i, d=i % 40, n=i * 1000, t=i // 10, e=i % 97) for i in range(n)]


def parse_seconds(lines: list[str], full: bool) -> float:
    begin = time.process_time()
    if full:
        for line in lines:
            protocol_lines._parse(line, protocol_lines._REPLIES)
    else:
        for line in lines:
            parse_reply(line)
    return time.process_time() - begin


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=19_999)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        engine = Path(folder) / "flood.py"
        engine.write_text(ENGINE)
        for kind in KINDS:
            lines = lines_of(kind, args.lines)
            fast, full = [], []
            for _ in range(args.rounds):
                fast.append(parse_seconds(lines, False))
                full.append(parse_seconds(lines, True))
            session = Session([sys.executable, str(engine), str(args.lines), KINDS[kind]])
            try:
                session.new_game(Position("connect4"))
                moves = [session.think(Position("connect4"), Go(movetime=30_000), 60, 90, told=30).wall
                         for _ in range(args.rounds)]
            finally:
                session.close()
            f, s = statistics.median(fast), statistics.median(full)
            print(f"{kind}: {args.lines:,} lines parsed in {1000 * f:.0f} ms ({1e6 * f / args.lines:.1f} us a line) "
                  f"against {1000 * s:.0f} ms by the full parse ({s / f:.1f}x); a real engine's move of them, go to "
                  f"bestmove: {1000 * statistics.median(moves):.0f} ms (median of {args.rounds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
