"""A progressive analysis between slices: the run a service keeps, or one rebuilt from plain data.

An answer's :attr:`~zerosum.analysis.Analysis.progress` is :meth:`Progressive.snapshot
<zerosum.solver.progressive.Progressive.snapshot>` (the position, what is proven, each search's next node
budget) with the analysis' ``nodes`` and ``seconds`` so far.  Handed back as ``resume`` it goes on where it
stopped: in the service that answered, its own run (which also kept what its table learned); in any other
(another worker of the page's pool), a run rebuilt from the data -- nothing proven is searched again, and
each unfinished search starts at the budget it had reached.  :func:`token` and :func:`parse` carry it as
text (JSON), e.g. in a query string.
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from typing import Any, Callable

from ..errors import UsageError

__all__ = ["run_of", "token", "parse", "MAX_TOKEN"]

#: the longest progress text :func:`parse` reads (a 16-column board's needs well under a quarter of it)
MAX_TOKEN = 8192


def run_of(runs: OrderedDict[tuple[int, int], Any], solver: Any, state: Any, resume: Any,
           clock: Callable[[], float], threads: int) -> tuple[Any, int, float]:
    """``(run, nodes, seconds)``: the progressive run of ``state`` to go on with -- the one kept in ``runs``
    (as ``(run, nodes, seconds)``, made on ``solver``), else a new one -- with ``resume`` taken in, and the
    nodes and seconds the analysis had spent before: ``resume``'s own (its slices add up), else none (an
    analysis asked without ``resume`` counts its own work, even where it goes on with a kept run: what that
    run proved is not searched again, but it is not this analysis' work)."""
    from ..solver.progressive import Progressive

    run = runs.get((state.current, state.mask), (None, 0, 0.0))[0]
    if run is None or run.solver is not solver:
        run = Progressive(solver, state, clock=clock, threads=threads)
    run.clock, run.threads = clock, threads
    if resume is None:
        return run, 0, 0.0
    nodes, seconds = _spent(resume)
    run.restore(resume)
    return run, nodes, seconds


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
