"""Hostile: os._exit in a move (no cleanup, no exception)."""
import os


def player(board):
    os._exit(7)
