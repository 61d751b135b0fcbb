"""Hostile: opens network connections (the host's loopback, the internet, a name lookup) and tells how each went."""
import socket

TARGETS = {}  # the test fills in {"port": a port listening on the host's 127.0.0.1}


def _connect(host, port):
    try:
        with socket.create_connection((host, port), timeout=1):
            return "CONNECTED"
    except OSError as exc:
        return type(exc).__name__.replace("Error", "")


def player(board):
    seen = {"loopback": _connect("127.0.0.1", TARGETS.get("port", 80)), "internet": _connect("1.1.1.1", 80)}
    try:
        seen["dns"] = socket.gethostbyname("example.com")
    except OSError as exc:
        seen["dns"] = type(exc).__name__.replace("Error", "")
    raise RuntimeError("network " + ";".join(f"{k}={v}" for k, v in seen.items()))
