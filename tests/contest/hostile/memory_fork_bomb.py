"""Hostile: a memory bomb in many processes (each forks, then fills memory 32 MB at a time, written, kept)."""
import os

kept = []


def player(board):
    for _ in range(12):
        try:
            if os.fork() == 0:
                break
        except OSError:
            break
    while True:
        kept.append(b"x" * (32 << 20))
