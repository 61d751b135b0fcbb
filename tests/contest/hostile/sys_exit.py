"""Hostile: sys.exit in a move."""
import sys


def player(board):
    sys.exit(3)
