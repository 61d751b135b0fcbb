"""Hostile: a memory bomb in a move (a gigabyte at a time, kept)."""
kept = []


def player(board):
    while True:
        kept.append(bytearray(1 << 30))
