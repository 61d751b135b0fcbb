"""numba's disk cache of zerosum's compiled kernels, kept in step with every source file they are built from.

numba checks a cached kernel against the file of the function it compiled, and only that file.  But a kernel
holds compiled copies of everything it calls or inlines from other files (the solver's search inlines the
bit tricks of ``kernels/connectx.py``, the bounds, the table, the move order), and the constants it read from
them.  After a ``git pull`` or a checkout that changed such a file and not the kernel's own, numba would go on
loading the old machine code: a search with the old pieces, whose node counts, or worse, differ from the
source's.  (A pip upgrade writes every file anew, and so never had the problem.)

:func:`refresh` keeps one stamp, a digest of all the files the kernels are built from (:data:`SOURCES`), in
each folder's cache (its ``__pycache__``, or wherever numba keeps it: ``NUMBA_CACHE_DIR``, :func:`cache_folder`);
when the digest changes, the folder's cached kernels (``*.nbi``, ``*.nbc``) are deleted and numba compiles them
anew.  ``import zerosum`` calls it first, before any kernel can load: a few
dozen small files read, about a millisecond.  Nothing is deleted where the folder cannot be written (an
installed package read-only to its user, a contest seat's sandbox); such caches are numba's and pip's concern.
No numba here: this module only reads and deletes files.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["SOURCES", "STAMP", "refresh", "digest", "cache_folder"]

#: the files, under the ``zerosum`` package, that compiled kernels are built from: every module with a kernel
#: and all it imports from zerosum (tests/kernels/test_kernel_cache.py checks that none is missing)
SOURCES = (
    "values.py", "errors.py", "game.py", "spec.py",
    "core/checks.py", "core/files.py", "core/game_rules.py", "core/game_types.py", "core/svg.py",
    "games/connectx_eval.py",
    "kernels/__init__.py", "kernels/bits.py", "kernels/connectx.py", "kernels/wide.py",
    "solver/bounds.py", "solver/frames.py", "solver/negamax.py", "solver/order.py", "solver/search.py",
    "solver/layout.py", "solver/table.py",
    "agents/kernels/__init__.py", "agents/kernels/alphabeta.py", "agents/kernels/grid.py",
    "agents/kernels/mcts_bitboard.py", "agents/kernels/mcts_cells.py", "agents/kernels/tree.py",
)
#: the folders whose ``__pycache__`` holds compiled kernels
FOLDERS = (".", "kernels", "solver", "agents/kernels")
#: the stamp's file name in each of those ``__pycache__`` folders
STAMP = "zerosum-kernel-sources.sha1"


def digest(package: Path, sources: tuple[str, ...] = SOURCES) -> str:
    """The digest of the kernels' source files (name and content; a missing file counts as empty)."""
    h = hashlib.sha1()
    for name in sources:
        h.update(name.encode() + b"\0")
        try:
            h.update((package / name).read_bytes())
        except OSError:
            pass
        h.update(b"\0")
    return h.hexdigest()


def cache_folder(package: Path, folder: str) -> Path:
    """The folder numba keeps the kernels of ``package/folder`` in, found as numba finds it (its cache locators,
    in their order): under ``NUMBA_CACHE_DIR`` when that is set, named for the folder and the SHA-1 of its
    path; else the folder's own ``__pycache__``, when it can be made and written; else numba's user-wide cache
    (``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``), named as under ``NUMBA_CACHE_DIR``."""
    source = package / folder
    named = f"{source.name}_{hashlib.sha1(str(source).encode()).hexdigest()}"
    chosen = os.environ.get("NUMBA_CACHE_DIR", "")
    if chosen:
        return Path(os.path.abspath(chosen)) / named
    tree = source / "__pycache__"
    try:
        tree.mkdir(exist_ok=True)
        if os.access(tree, os.W_OK | os.X_OK):
            return tree
    except OSError:
        pass
    users = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(users) / "numba" / named


def refresh(package: Path | None = None, sources: tuple[str, ...] = SOURCES,
            folders: tuple[str, ...] = FOLDERS) -> list[Path]:
    """Delete the cached kernels of ``folders`` (of ``package``, default zerosum's own) whose stamp is not the
    digest of ``sources``, then stamp them; the files deleted.  Each folder's cache is where numba keeps it
    (:func:`cache_folder`).  Never raises: a cache that cannot be read or written is left as it is."""
    package = Path(__file__).resolve().parent.parent if package is None else package
    now = digest(package, sources)
    gone: list[Path] = []
    for folder in folders:
        cache = cache_folder(package, folder)
        stamp = cache / STAMP
        try:
            if stamp.read_text() == now:
                continue
        except OSError:
            pass
        try:
            cache.mkdir(parents=True, exist_ok=True)  # stamped before numba's first kernel lands there
            stale = [p for p in cache.iterdir() if p.suffix in (".nbi", ".nbc")]
            for p in stale:
                p.unlink()
                gone.append(p)
            stamp.write_text(now)  # after the deletions: a stamp never vouches for a kernel it did not see built
        except OSError:
            continue  # read-only: nothing to do here
    return gone
