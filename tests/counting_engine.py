"""A Connect-X engine program for tests (docs/protocol.md): it plays the lowest-numbered free column and reports
the nodes its first argument gives in every ``info`` line, ``python counting_engine.py NODES`` (written to a file
by a test, :data:`COUNTING_ENGINE`): the audit's engine whose count (2 * 10**18) no record could keep."""

COUNTING_ENGINE = r'''
import re, sys
moves, rows, cols = "", 6, 7
for line in sys.stdin:
    w = line.split()
    if w[:1] == ["zsp"]:
        print("id name counter\nid author the tests\ngame connectx\nzspok", flush=True)
    elif w[:1] == ["isready"]:
        print("readyok", flush=True)
    elif w[:1] == ["position"]:
        rows, cols = (int(x) for x in re.search(r"rows=(\d+),cols=(\d+)", w[1]).groups())
        moves = "".join(w[3:])
    elif w[:1] == ["go"]:
        free = [c for c in range(1, cols + 1) if moves.count(str(c)) < rows]
        print(f"info depth 1 nodes {sys.argv[1]} score est 0\nbestmove {free[0]}", flush=True)
    elif w[:1] == ["quit"]:
        break
'''
