"""Hostile: os._exit while the file loads (no exception, no cleanup)."""
import os

os._exit(7)


def player(board):
    return 0
