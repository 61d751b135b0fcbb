"""A progressive analysis between slices: the run a service keeps, or one rebuilt from plain data.

An answer's :attr:`~zerosum.analysis.Analysis.progress` is :meth:`Progressive.snapshot
<zerosum.solver.progressive.Progressive.snapshot>` (the position, what is proven, each search's next node
budget) with the analysis' ``nodes`` and ``seconds`` so far.  Handed back as ``resume`` it goes on where it
stopped: in the service that answered, its own run (which also kept what its table learned); in any other
(another worker of the page's pool), a run rebuilt from the data -- nothing proven is searched again, and
each unfinished search starts at the budget it had reached.  :func:`token` and :func:`parse` carry it as
text (JSON), e.g. in a query string.

A service's kept run is shared: an analysis asked without ``resume`` goes on with it.  So a ``resume`` merges
into a kept run only when that run handed it out (:class:`Kept` keeps a digest of each progress it answered);
any other -- from another process, or changed on its way -- is taken in by a run of its own, which only the
progress it answers goes on with: what a caller sends can never reach an answer to anyone else.  (The page's
server also signs the ``resume`` it hands out and refuses one it did not sign: :mod:`zerosum.ui.tokens`.)
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import UsageError

__all__ = ["run_of", "Kept", "digest", "token", "parse", "MAX_TOKEN", "MAX_ISSUED"]

#: the longest progress text :func:`parse` reads (a 16-column board's needs well under a quarter of it)
MAX_TOKEN = 8192


#: the progress digests a kept run remembers handing out (the newest; an older resume starts a run of its own)
MAX_ISSUED = 64
_OWN = itertools.count(1)  # the keys of runs that go on from a resume handed out elsewhere


@dataclass
class Kept:
    """A progressive run a service keeps between slices, and the digests of the progress it handed out: the
    ``resume`` it goes on with as its own (see the module docstring)."""

    run: Any
    issued: dict[str, None] = field(default_factory=dict)

    def hand_out(self, progress: dict[str, Any]) -> dict[str, Any]:
        """``progress`` (an answer's, from this run), remembered as this run's own."""
        mark = digest(progress)
        if mark is not None:
            self.issued.pop(mark, None)
            self.issued[mark] = None
            while len(self.issued) > MAX_ISSUED:
                del self.issued[next(iter(self.issued))]
        return progress


def digest(progress: Any) -> str | None:
    """A fingerprint of ``progress`` as plain data (the same for its :func:`token` read back by :func:`parse`),
    or None for what JSON cannot hold."""
    try:
        text = json.dumps(progress, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def run_of(runs: OrderedDict[tuple[int, ...], Kept], solver: Any, state: Any, resume: Any,
           clock: Callable[[], float], threads: int) -> tuple[tuple[int, ...], Kept, int, float]:
    """``(key, kept, nodes, seconds)``: the progressive run of ``state`` to go on with and its key in ``runs``
    (where the service keeps it after the slice) -- without ``resume`` the position's shared run (key
    ``(current, mask)``), with it the run that handed ``resume`` out; else a new one (made on ``solver``; for a
    ``resume`` from elsewhere, a key of its own that no request without it finds) -- with ``resume`` taken in,
    and the nodes and seconds the analysis had spent before: ``resume``'s own (its slices add up), else none
    (an analysis asked without ``resume`` counts its own work, even where it goes on with a kept run: what
    that run proved is not searched again, but it is not this analysis' work)."""
    from ..solver.progressive import Progressive

    key: tuple[int, ...] = (state.current, state.mask)
    if resume is not None:
        mark = digest(resume)
        key = next((k for k, kept in runs.items() if k[:2] == key and mark in kept.issued), (*key, next(_OWN)))
    kept = runs.get(key)
    if kept is None or kept.run.solver is not solver:
        kept = Kept(Progressive(solver, state, clock=clock, threads=threads))
    kept.run.clock, kept.run.threads = clock, threads
    if resume is None:
        return key, kept, 0, 0.0
    nodes, seconds = _spent(resume)
    kept.run.restore(resume)
    return key, kept, nodes, seconds


def _spent(resume: Any) -> tuple[int, float]:
    """The ``nodes`` and ``seconds`` a progress says were spent (one UsageError line when they are not a
    whole number and a number of seconds)."""
    nodes, seconds = (resume.get("nodes"), resume.get("seconds")) if isinstance(resume, dict) else (None, None)
    if isinstance(nodes, int) and not isinstance(nodes, bool) and 0 <= nodes <= 1 << 62 \
            and isinstance(seconds, (int, float)) and not isinstance(seconds, bool) \
            and math.isfinite(seconds) and 0 <= seconds <= 1e9:
        return nodes, float(seconds)
    raise UsageError("the progress is malformed: start the analysis again without it")


def token(progress: dict[str, Any] | None) -> str | None:
    """``progress`` (an answer's :attr:`~zerosum.analysis.Analysis.progress`: a dict) as one line of text
    (compact JSON), or None; one UsageError line for anything JSON cannot hold."""
    if progress is None:
        return None
    if not isinstance(progress, dict):
        raise UsageError(f"progress is an answer's progress (a dict) or None, not {type(progress).__name__}")
    try:
        return json.dumps(progress, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        raise UsageError("progress holds what JSON cannot: it is not an answer's progress") from None


def parse(text: Any) -> Any:
    """The progress in ``text`` (:func:`token`), or None for None; one UsageError line for anything else.
    Its content is checked when it is used (:func:`run_of`)."""
    if text is None:
        return None
    if not isinstance(text, str) or len(text) > MAX_TOKEN:
        raise UsageError(f"resume is the text of an earlier answer's progress, at most {MAX_TOKEN} characters")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise UsageError("resume is not an earlier answer's progress: start the analysis again without it") from None
