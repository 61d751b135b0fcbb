"""Process-wide state seen by one thread alone: what it prints, and where its imports look first.

Python keeps standard output (``sys.stdout``) and the import path (``sys.path``) once per process, so
swapping them for one call (``contextlib.redirect_stdout``, a folder put first on ``sys.path`` and taken off
again) swaps them for every thread, and two threads that restore them out of order leave the process
altered: prints lost in a buffer nobody reads, a folder gone while another thread still imports from it.
The two pieces here give one thread its own view and leave the process as it was.

* :func:`captured_stdout`: what this thread prints within goes to a buffer of its own; other threads'
  prints go where they always went, and are never captured.  While any thread captures, ``sys.stdout`` is
  a proxy (installed by the first capture, under a lock, with a count of the captures using it) that sends
  each thread's writes to its innermost buffer, or else to the stream that was there; the last capture to
  end puts that stream back, unless someone replaced ``sys.stdout`` meanwhile: then it is left alone (the
  proxy, wherever it is still held, passes everything through, and the next capture that finds it
  installed again reuses it and takes it out at its end).  What a thread the call starts prints is not
  captured.
* :func:`folder_first`: within, this thread's imports of top-level modules find the modules of a folder
  first, as with the folder first on ``sys.path`` (which is left as it is), but for this thread alone:
  another thread (``zerosum play`` prepares its engines in the background) importing ``string`` meanwhile
  never gets a student's ``string.py``.  Built-in and frozen modules come first, as they do before
  ``sys.path``.  A game file and an agent file import the modules beside them through it.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import io
import sys
import threading
from typing import Any, Iterable, Iterator

__all__ = ["captured_stdout", "folder_first"]

#: this thread's capture buffers (``buffers``) and import folders (``folders``), innermost last
_local = threading.local()
#: guards installing and removing the stdout proxy and the import finder
_lock = threading.Lock()


def _innermost(name: str) -> list[Any]:
    """This thread's stack ``name`` (made empty on first use)."""
    stack = getattr(_local, name, None)
    if stack is None:
        stack = []
        setattr(_local, name, stack)
    return stack


# ---- standard output --------------------------------------------------------------------------------


class _ThreadStdout:
    """``sys.stdout`` while some thread captures: a capturing thread's writes go to its innermost buffer,
    every other thread's to ``stream`` (what ``sys.stdout`` was), which also answers everything else
    (``encoding``, ``fileno()``, ``buffer``...) for them."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.users = 0  # the captures running through it

    def _target(self) -> Any:
        buffers = getattr(_local, "buffers", None)
        return buffers[-1] if buffers else self.stream

    def write(self, text: str) -> int:
        target = self._target()
        if target is None:  # no standard output at all (pythonw): print writes nothing, as it would
            return len(text)
        return target.write(text)  # type: ignore[no-any-return]

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        target = self._target()
        if target is not None:
            target.flush()

    def __getattr__(self, name: str) -> Any:
        if name in ("stream", "users"):  # not made yet (a copy): no lookup through itself
            raise AttributeError(name)
        return getattr(self._target(), name)


@contextlib.contextmanager
def captured_stdout() -> Iterator[io.StringIO]:
    """Within, in this thread: ``print`` (anything written to ``sys.stdout``) goes to the buffer given;
    other threads unaffected; after: ``sys.stdout`` as it was (see the module doc)."""
    buffer = io.StringIO()
    with _lock:
        proxy = sys.stdout if isinstance(sys.stdout, _ThreadStdout) else _ThreadStdout(sys.stdout)
        sys.stdout = proxy
        proxy.users += 1
    buffers = _innermost("buffers")
    buffers.append(buffer)
    try:
        yield buffer
    finally:
        buffers.pop()
        with _lock:
            proxy.users -= 1
            if proxy.users == 0 and sys.stdout is proxy:  # the last capture; replaced meanwhile: left alone
                sys.stdout = proxy.stream


# ---- imports ------------------------------------------------------------------------------------------


class _FolderFinder(importlib.abc.MetaPathFinder):
    """Finds a top-level module in the current thread's innermost :func:`folder_first` folder, before
    ``sys.path`` is searched (it stands just before the path finder on ``sys.meta_path``)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        folders = getattr(_local, "folders", None)
        if path is not None or not folders:  # a submodule is found through its package's own __path__
            return None
        return importlib.machinery.PathFinder.find_spec(name, [folders[-1]])


_FINDER = _FolderFinder()


def _install_finder() -> None:
    with _lock:
        if _FINDER in sys.meta_path:
            return
        at = next((i for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder),
                  len(sys.meta_path))
        sys.meta_path.insert(at, _FINDER)


@contextlib.contextmanager
def folder_first(folder: str) -> Iterator[None]:
    """Within, in this thread: the modules of ``folder`` found first, as with ``folder`` first on
    ``sys.path`` (other threads unaffected, ``sys.path`` unchanged); the modules imported stay imported."""
    _install_finder()
    folders = _innermost("folders")
    folders.append(folder)
    try:
        yield
    finally:
        folders.pop()
