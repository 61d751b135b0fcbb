"""Hostile: sys.exit while the file loads."""
import sys

sys.exit("goodbye from import")


def player(board):
    return 0
