"""The pool's backends by name: ``local`` (worker processes on this machine) and ``ray`` (actors)."""

from __future__ import annotations

import os
from typing import Any

from .actors import RayPool
from .local import Pool

__all__ = ["BACKENDS", "make_pool"]

BACKENDS = ("local", "ray")


def make_pool(backend: str, size: int | None, *, address: str | None = None, **options: Any) -> Any:
    """A :class:`~zerosum.pool.local.Pool` (``backend="local"``, ``size`` processes, default the number of
    cores) or a :class:`~zerosum.pool.actors.RayPool` (``"ray"``, ``size`` actors, default the cluster's
    CPUs, at ``address``, else ``$RAY_ADDRESS``, else a new local cluster)."""
    from ..errors import UsageError

    if backend == "local":
        return Pool(size or os.cpu_count() or 1, **options)
    if backend == "ray":
        options.pop("wait", None)
        options.pop("mode", None)
        return RayPool(size, address, **options)
    raise UsageError(f"unknown backend {backend!r}: choose {' or '.join(BACKENDS)}")
