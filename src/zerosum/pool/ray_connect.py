"""Joining Ray: a cluster named by ``address`` or ``$RAY_ADDRESS``, else a new local instance; every refusal
is one :class:`~zerosum.errors.GameError` line.

Token authentication: since Ray 2.59 a cluster started on this machine (``ray start --head``) asks for the
token in ``~/.ray/auth_token``, but ``ray.init`` sends it only to a cluster it finds by itself
(``address="auto"``): given an address, even ``127.0.0.1:6379``, it retried for 20 s printing a warning a
second, then failed.  So when ``RAY_AUTH_MODE`` is not set, a token exists (``RAY_AUTH_TOKEN``,
``RAY_AUTH_TOKEN_PATH`` or the default file) and the address is on this machine, zerosum sets
``RAY_AUTH_MODE=token`` in its own process first, exactly what Ray does for ``auto``.  A cluster on another
machine gets the token only when the user sets ``RAY_AUTH_MODE=token`` (Ray's rule); if it asks for one,
the failure says so in one line.  Ray's own C++ warnings while joining are kept off the screen.

A new local instance runs its workers at the caller's priority (``worker_niceness`` 0); a cluster that is
joined keeps its own setting (Ray's default is nice 15: on a machine busy with other work, start it with
``RAY_worker_niceness=0 ray start --head`` to give its actors a fair share).
"""

from __future__ import annotations

import logging
import os
import socket
import tempfile
from typing import Any

from ..core.checks import clip
from ..core.files import describe_exception
from ..errors import GameError

__all__ = ["connect", "NEEDS_RAY", "one_line"]

NEEDS_RAY = "--backend ray needs Ray: pip install 'zerosum[ray]'"
AUTH_HINT = ("it asks for an authentication token: set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN "
             "(or RAY_AUTH_TOKEN_PATH)")


def one_line(text: str, limit: int = 300) -> str:
    return clip(" ".join(text.split()), limit)


def _split(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``HOST:PORT`` or ``ray://HOST:PORT``; None for ``auto``/``local``."""
    if address in ("auto", "local"):
        return None
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise GameError(f"Ray address {address!r} is not HOST:PORT, ray://HOST:PORT or auto")
    return host, int(port)


def _probe(address: str) -> None:
    """Refuse at once an address that is malformed or where nothing listens (Ray itself would retry for
    minutes, printing as it goes)."""
    where = _split(address)
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=5).close()
    except OSError as exc:
        raise GameError(one_line(f"cannot reach the Ray cluster at {address!r}: {exc.strerror or exc}")) from None


def _on_this_machine(address: str) -> bool:
    where = _split(address)
    if where is None:
        return True
    try:
        ip = socket.gethostbyname(where[0])
        mine = {"127.0.0.1", "0.0.0.0", socket.gethostbyname(socket.gethostname())}
        mine.update(str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    except OSError:
        return False
    return ip.startswith("127.") or ip in mine


def _use_local_token(address: str) -> None:
    """``RAY_AUTH_MODE=token`` for this process when the user left it unset, a token exists and the cluster
    is on this machine (see the module docstring).  Nothing when Ray has no token support."""
    if "RAY_AUTH_MODE" in os.environ or not _on_this_machine(address):
        return
    try:
        from ray._raylet import AuthenticationTokenLoader, Config  # type: ignore[attr-defined]

        if not AuthenticationTokenLoader.instance().has_token(ignore_auth_mode=True):
            return
        os.environ["RAY_AUTH_MODE"] = "token"
        Config.initialize("")  # Ray reads its configuration again (as its own auto-enable does)
    except Exception:  # noqa: BLE001 - a Ray without token authentication: nothing to do
        return


def _refused_token(exc: BaseException, printed: str) -> bool:
    """Whether Ray failed because the cluster wants a token (its exception chain or its warnings say so)."""
    seen: BaseException | None = exc
    while seen is not None:
        if type(seen).__name__ == "AuthenticationError" or "InvalidAuthToken" in describe_exception(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return "InvalidAuthToken" in printed


class _QuietStderr:
    """File descriptor 2 into a temporary file while Ray joins (its C++ client warns on stderr directly);
    ``text`` is what was written."""

    def __enter__(self) -> "_QuietStderr":
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)
        self.text = ""
        return self

    def __exit__(self, *exc: object) -> None:
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.file.seek(0)
        self.text = self.file.read(1 << 20).decode("utf-8", "replace")
        self.file.close()


def connect(address: str | None = None) -> Any:
    """The ``ray`` module, joined to the cluster at ``address`` (else ``$RAY_ADDRESS``, else a new local one)."""
    try:
        import ray
    except ImportError:
        raise GameError(NEEDS_RAY) from None
    if ray.is_initialized():
        return ray
    address = (address or os.environ.get("RAY_ADDRESS") or "").strip() or None
    options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address is None:  # a new instance of our own: never one that happens to be recorded on this machine
        # its actors run at our priority, as local workers do (Ray's default lowers workers to nice 15,
        # where any other busy process on the machine starves them)
        options.update(include_dashboard=False, _system_config={"worker_niceness": 0})
    else:
        _probe(address)
        _use_local_token(address)
    quiet = _QuietStderr()
    try:
        if address is None:
            ray.init(address="local", **options)
        else:
            with quiet:
                ray.init(address=address, **options)
    except BaseException as exc:  # noqa: BLE001 - ConnectionError, RuntimeError, ValueError, ... from Ray
        if isinstance(exc, KeyboardInterrupt):
            raise
        where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
        why = AUTH_HINT if _refused_token(exc, quiet.__dict__.get("text", "")) else describe_exception(exc)
        raise GameError(one_line(f"cannot reach {where}: {why}")) from None
    return ray
