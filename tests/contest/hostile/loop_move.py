"""Hostile: an endless loop in a move."""


def player(board):
    while True:
        pass
