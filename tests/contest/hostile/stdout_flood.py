"""Hostile: megabytes on standard output, straight to the file descriptor, no line end, for as long as it may."""
import os


def player(board):
    while True:
        os.write(1, b"x" * (1 << 20))
