"""Hostile: megabytes on standard output, straight to the file descriptor, no line end."""
import os


def player(board):
    for _ in range(64):
        os.write(1, b"x" * (1 << 20))
    return 0
