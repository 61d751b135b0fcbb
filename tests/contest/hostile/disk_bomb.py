"""Hostile: fills its scratch folder, one big file and then many small ones, and tells where it was stopped."""
import os


def _fill(path, size):
    written = 0
    try:
        with open(path, "wb") as f:
            while written < size:
                f.write(b"d" * (1 << 20))
                written += 1 << 20
    except OSError as exc:
        return f"{written >> 20}MB:{exc.strerror}"
    return f"{written >> 20}MB"


def player(board):
    big = _fill("/tmp/big", 1 << 30)
    small = [_fill(f"/tmp/small{i}", 8 << 20) for i in range(16)]
    raise RuntimeError(f"disk big={big} small={small[-1]}")
