"""The server's seal on the ``resume`` it hands out, and the check of one sent back (``/api/analyze``).

A progressive analysis' ``resume`` is what it had proven when its slice stopped
(:mod:`zerosum.analysis.progress`); sent back, the worker goes on from there and never searches again what it
says is proven.  Text a client wrote could so make the server say "exact" of what it never proved, so the
server seals every ``resume`` it answers: an HMAC (SHA-256) under a random secret of this server process
(made when it starts, never sent anywhere), over the game and the progress text, added as the JSON text's
last field ``"seal"``.  :func:`opened` checks a ``resume`` before anything uses it and hands the worker the
progress text alone; one the server did not seal (another server's, one from before a restart, one changed
on its way, one of another game) is one :class:`~zerosum.errors.UsageError` line (a 400) and changes nothing.
The Python API (``analysis.service(g).analyse(s, resume=...)``) takes progress unsealed: there the caller's
own answers come back.

>>> text = sealed("connect4", '{"position":[0,0]}')
>>> opened("connect4", text)
'{"position":[0,0]}'
>>> opened("connect4", text.replace("[0,0]", "[0,1]"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
zerosum.errors.UsageError: resume is not one this server handed out for this game (or it was changed): ...
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

from ..errors import UsageError

__all__ = ["sealed", "opened", "sealed_reply"]

_SECRET = secrets.token_bytes(32)  # this server process's own
_SEAL = re.compile(r',"seal":"([0-9a-f]{64})"\}\Z')


def _mac(game: str, text: str) -> str:
    return hmac.new(_SECRET, f"{game}\n{text}".encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def sealed(game: str, text: str | None) -> str | None:
    """The progress ``text`` of ``game`` (a JSON object, :func:`zerosum.analysis.token`) with this server's
    seal as its last field; None for None."""
    if text is None:
        return None
    if not (text.startswith("{") and text.endswith("}") and len(text) > 2):
        raise ValueError("a resume to seal is the text of a progress (a JSON object)")
    return f'{text[:-1]},"seal":"{_mac(game, text)}"}}'


def opened(game: str, text: str | None) -> str | None:
    """The progress text inside ``text``, a ``resume`` of ``game`` this server sealed (:func:`sealed`); None for
    None; else one UsageError line."""
    if text is None:
        return None
    found = _SEAL.search(text) if isinstance(text, str) else None
    inner = "" if found is None else text[:found.start()] + "}"
    if found is None or not hmac.compare_digest(found.group(1), _mac(game, inner)):
        raise UsageError("resume is not one this server handed out for this game (or it was changed): start the "
                         "analysis again without it")
    return inner


def sealed_reply(game: str, reply: dict[str, Any]) -> dict[str, Any]:
    """``reply`` (an analysis job's answer) with its ``resume`` sealed."""
    reply["resume"] = sealed(game, reply.get("resume"))
    return reply
