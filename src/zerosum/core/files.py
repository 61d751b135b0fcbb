"""Files in and out, the one way every command and library call reads and writes them.

* :func:`check_output` decides, before any work starts, whether a path may be written: not a directory,
  its folder exists, not an existing file unless ``overwrite``, never inside the installed zerosum package.
* :func:`atomic_output` writes to a temporary file in the same folder and renames it over the target at
  the end, so a failed or interrupted run leaves the old file (or no file) and never a half-written one.
* :func:`read_text` reads a text file a person named, with one-line errors for a missing, directory,
  binary or oversized file.
* :func:`load_user_module` runs a person's ``.py`` file so that whatever it does at import (raise,
  ``sys.exit(3)``) becomes one :class:`~zerosum.errors.AgentError` line.

Every failure is a :class:`~zerosum.errors.InvalidFileError` (or ``AgentError``) quoting the path.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import tempfile
from pathlib import Path
from types import ModuleType
from typing import IO, Any, Iterator

from ..errors import AgentError, InvalidFileError

__all__ = ["check_output", "atomic_output", "read_text", "read_bytes", "load_user_module", "file_digest",
           "PACKAGE_DIR", "MAX_READ_BYTES", "describe_exception", "benchmark_data", "BENCHMARKS_VARIABLE"]

#: the installed package's folder: nothing is ever written below it
PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: where the public benchmark data (Pons' sets, the UCI data) is looked for: this variable, else
#: ``../shared/benchmarks`` beside the checkout (an editable install's ``src/zerosum`` tells where that is)
BENCHMARKS_VARIABLE = "ZEROSUM_BENCHMARKS"
#: the largest file read as input (books, openings, records, benchmark files)
MAX_READ_BYTES = 256 * 1024 * 1024


def benchmark_data(*parts: str) -> Path:
    """The path of public benchmark data, e.g. ``benchmark_data("pons", "Test_L3_R1")``.

    From ``$ZEROSUM_BENCHMARKS`` when set, else from ``../shared/benchmarks`` relative to the checkout.
    The path may not exist: callers skip (tests) or say so in one line (benchmarks).
    """
    root = os.environ.get(BENCHMARKS_VARIABLE)
    base = Path(root) if root else PACKAGE_DIR.parent.parent.parent / "shared" / "benchmarks"
    return base.joinpath(*parts)


def _inside_package(path: Path) -> bool:
    try:
        path.resolve().relative_to(PACKAGE_DIR)
    except ValueError:
        return False
    return True


def check_output(path: str | os.PathLike[str], *, overwrite: bool = False, what: str = "output file") -> Path:
    """The path, once it is known that it may be written; :class:`InvalidFileError` otherwise.

    Call it before the work starts, so that a bad path costs nothing.
    """
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise InvalidFileError(f"the {what} needs a file name")
    target = Path(path)
    if "\0" in str(target):
        raise InvalidFileError(f"{what} {str(target)!r}: a file name cannot hold a NUL character")
    if _inside_package(target):
        raise InvalidFileError(f"{what} {str(target)!r} is inside the installed zerosum package: "
                               "write it somewhere else (e.g. -o book.npz)")
    if target.is_dir():
        raise InvalidFileError(f"{what} {str(target)!r} is a directory: name a file")
    folder = target.parent
    if not folder.is_dir():
        raise InvalidFileError(f"{what} {str(target)!r}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InvalidFileError(f"{what} {str(target)!r}: the folder {str(folder)!r} is not writable")
    if (target.exists() or target.is_symlink()) and not overwrite:
        raise InvalidFileError(f"{what} {str(target)!r} exists: pass --overwrite to replace it")
    return target


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], *, overwrite: bool = False, binary: bool = False,
                  what: str = "output file", checked: bool = False) -> Iterator[IO[Any]]:
    """Write ``path`` all at once: a temporary file in the same folder, renamed over ``path`` on success.

    ``checked=True`` skips :func:`check_output` (the caller checked it before its work began).
    """
    target = Path(path) if checked else check_output(path, overwrite=overwrite, what=what)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, _mode_for(target))  # mkstemp makes 0600; the result gets the mode a plain open() would
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _mode_for(target: Path) -> int:
    """The replaced file's permissions, or a new file's: 0666 less the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _readable(path: str | os.PathLike[str], what: str) -> Path:
    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise InvalidFileError(f"the {what} needs a file name")
    target = Path(path)
    if "\0" in str(target):
        raise InvalidFileError(f"{what} {str(target)!r}: a file name cannot hold a NUL character")
    if target.is_dir():
        raise InvalidFileError(f"{what} {str(target)!r} is a directory, not a file")
    if not target.is_file():
        raise InvalidFileError(f"{what} {str(target)!r} not found")
    size = target.stat().st_size
    if size > MAX_READ_BYTES:
        raise InvalidFileError(f"{what} {str(target)!r} is {size:,} bytes; the limit is {MAX_READ_BYTES:,}")
    return target


def read_bytes(path: str | os.PathLike[str], what: str = "file") -> bytes:
    """The bytes of a file a person named (missing, directory and oversized files are one-line errors)."""
    target = _readable(path, what)
    try:
        return target.read_bytes()
    except OSError as exc:
        raise InvalidFileError(f"{what} {str(target)!r} cannot be read: {exc.strerror or exc}") from None


def read_text(path: str | os.PathLike[str], what: str = "file") -> str:
    """The text of a UTF-8 file a person named; a binary file is a one-line error, not a traceback."""
    data = read_bytes(path, what)
    if b"\0" in data:
        raise InvalidFileError(f"{what} {str(path)!r} is not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidFileError(f"{what} {str(path)!r} is not UTF-8 text") from None


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes, as hex (to notice a changed agent file)."""
    return hashlib.sha256(read_bytes(path, "file")).hexdigest()


def load_user_module(path: str | os.PathLike[str], what: str = "agent file") -> ModuleType:
    """Run a person's ``.py`` file as a fresh module; anything it raises at import is one AgentError line.

    ``sys.exit()`` in the file is caught too (SystemExit is not an Exception); only Ctrl-C passes through.
    """
    target = Path(path)
    if not target.is_file():
        raise AgentError(f"{what} {str(path)!r} not found")
    name = "zerosum_user_" + hashlib.sha256(str(target.resolve()).encode()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(name, target)
    if spec is None or spec.loader is None:
        raise AgentError(f"{what} {str(path)!r} cannot be loaded as Python (expected a .py file)")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except KeyboardInterrupt:
        raise
    except SystemExit as exc:
        raise AgentError(f"loading {what} {str(path)!r} failed: it called sys.exit({exc.code!r})") from None
    except BaseException as exc:  # a broken user file must never leave a traceback or end the program
        raise AgentError(f"loading {what} {str(path)!r} failed: {describe_exception(exc)}") from None
    return module


def describe_exception(exc: BaseException) -> str:
    """``Type: message`` for any exception, even one whose ``__str__`` raises."""
    try:
        text = str(exc)
    except KeyboardInterrupt:  # Ctrl-C while a slow __str__ runs still stops the program
        raise
    except BaseException:  # noqa: BLE001 - a hostile __str__
        text = "(its message could not be printed)"
    name = type(exc).__name__
    return f"{name}: {text}" if text else name
