"""Hostile: reads /etc/passwd, another student's file, the contest's database and the teacher's home, and tells
what it read in its failure (so the test sees any secret that reached it)."""
import os

TARGETS = {}  # the test fills in {"other": path, "database": path}


def _try(path):
    try:
        with open(path, "rb") as f:
            return f.read(80).decode("utf-8", "replace")[:40]
    except OSError as exc:
        return type(exc).__name__.replace("Error", "")


def player(board):
    paths = ["/etc/passwd", "/etc/shadow", "/root/.bash_history", *TARGETS.values()]
    seen = {os.path.basename(p): _try(p) for p in paths}
    for folder in ("/work", "/home", "/root", os.path.dirname(TARGETS.get("other", "/x"))):
        try:
            seen[folder] = ",".join(sorted(os.listdir(folder)))[:30]
        except OSError as exc:
            seen[folder] = type(exc).__name__.replace("Error", "")
    raise RuntimeError("read " + ";".join(f"{k}={v!r}" for k, v in seen.items()))
