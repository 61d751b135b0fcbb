"""Hostile: megabytes printed, a line at a time, through print."""


def player(board):
    for i in range(200000):
        print("garbage line", i, "x" * 40)
    return 0
