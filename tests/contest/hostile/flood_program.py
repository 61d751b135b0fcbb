#!/usr/bin/env python3
"""Hostile program (an engine of its own): a correct handshake, then megabytes on standard output at go."""
import os
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "zsp":
        sys.stdout.write("id name flood\nid author hostile\ngame connectx\nzspok\n")
    elif word == "isready":
        sys.stdout.write("readyok\n")
    elif word == "go":
        sys.stdout.flush()
        for _ in range(64):
            os.write(1, b"y" * (1 << 20))
    elif word == "quit":
        break
    sys.stdout.flush()
