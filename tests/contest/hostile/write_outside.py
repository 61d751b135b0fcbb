"""Hostile: writes outside its scratch folder (its own file, another student's, the database, the system, the
zerosum package, the contest folder), and writes in it (allowed); tells how each went."""
import os

TARGETS = {}  # the test fills in {"other": path, "database": path, "folder": the contest folder}


def _write(path):
    try:
        with open(path, "ab") as f:
            f.write(b"pwned\n")
        return "WROTE"
    except OSError as exc:
        return type(exc).__name__.replace("Error", "")


def player(board):
    import zerosum

    paths = {"self": __file__, "usr": "/usr/lib/pwned", "zerosum": os.path.join(os.path.dirname(zerosum.__file__), "pwned.py"),
             "root": "/pwned", **TARGETS}
    if "folder" in paths:
        paths["folder"] = os.path.join(paths["folder"], "pwned")
    seen = {k: _write(p) for k, p in paths.items()}
    seen["scratch"] = _write("/tmp/mine")
    try:
        os.remove(TARGETS.get("other", "/nonexistent"))
        seen["delete"] = "DELETED"
    except OSError as exc:
        seen["delete"] = type(exc).__name__.replace("Error", "")
    raise RuntimeError("write " + ";".join(f"{k}={v}" for k, v in seen.items()))
