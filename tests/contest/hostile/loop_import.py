"""Hostile: an endless loop at import: the engine never answers its handshake."""
while True:
    pass


def player(board):
    return 0
