"""Files in and out, the one way every command and library call reads and writes them.

* :func:`check_output` decides, before any work starts, whether a path may be written: outputs are regular
  files, so a directory, symbolic link, FIFO, socket or device there is refused, with or without
  ``overwrite``; its folder exists; not an existing file unless ``overwrite``; never inside the installed
  zerosum package.  Every command checks every output through it before its work begins.
* :func:`atomic_output` writes to a temporary file in the same folder and renames it over the target at
  the end, so a failed or interrupted run leaves the old file (or no file) and never a half-written one.
  :func:`open_append` opens a file to append to (records as games end) without following a link or
  blocking on a FIFO.
* :func:`read_text` reads a text file a person named, with one-line errors for a missing, directory,
  FIFO, device, binary or oversized file; its open never blocks.
* :func:`load_user_module` runs a person's ``.py`` file so that whatever it does at import (raise,
  ``sys.exit(3)``) becomes one :class:`~zerosum.errors.AgentError` line; :func:`python_syntax` reads one
  without running it (what an agent or game file named without its function or class defines).

Every failure is a :class:`~zerosum.errors.InvalidFileError` (or ``AgentError``) quoting the path, bounded
(:func:`shown`).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.util
import os
import stat
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import IO, Any, Iterator

from ..errors import AgentError, InvalidFileError
from ..spec import quoted

__all__ = ["check_output", "atomic_output", "open_append", "shown", "read_text", "read_bytes", "python_syntax", "load_user_module", "file_digest",
           "check_utf8",
           "PACKAGE_DIR", "MAX_READ_BYTES", "describe_exception", "benchmark_data", "BENCHMARKS_VARIABLE"]

#: the installed package's folder: nothing is ever written below it
PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: where the public benchmark data (Pons' sets, the UCI data) is looked for: this variable, else
#: ``../shared/benchmarks`` beside the checkout (an editable install's ``src/zerosum`` tells where that is)
BENCHMARKS_VARIABLE = "ZEROSUM_BENCHMARKS"
#: the largest file read as input (books, openings, records, benchmark files)
MAX_READ_BYTES = 256 * 1024 * 1024
#: how many characters of a path an error message quotes (:func:`shown`)
PATH_CHARS = 120


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
    except (ValueError, OSError):
        return False
    return True


def shown(path: object) -> str:
    """A path as an error message quotes it: :func:`zerosum.spec.quoted`, with room for a long folder."""
    return quoted(os.fspath(path) if isinstance(path, os.PathLike) else path, PATH_CHARS)


def _kind(mode: int) -> str | None:
    """What a file that is not a regular one is (``"a FIFO"``, ``"a device"``...); None for a regular file."""
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
    return next((name for test, name in kinds if test(mode)), None if stat.S_ISREG(mode) else "a special file")


def _named(path: object, what: str) -> Path:
    """``path`` as a :class:`Path` once it names something: text, not empty, no NUL."""
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str) or not text.strip():
        raise InvalidFileError(f"the {what} needs a file name")
    if "\0" in text:
        raise InvalidFileError(f"{what} {shown(text)}: a file name cannot hold a NUL character")
    return Path(text)


def _lstat(target: Path, what: str) -> os.stat_result | None:
    """The entry itself (a symbolic link is not followed), None when there is none."""
    try:
        return os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a name too long, a path through a file, a folder that cannot be searched
        raise InvalidFileError(f"{what} {shown(target)} cannot be used: {exc.strerror or exc}") from None


def _refuse_special(target: Path, info: os.stat_result | None, what: str) -> None:
    kind = None if info is None else _kind(info.st_mode)
    if kind is not None:
        raise InvalidFileError(f"{what} {shown(target)} is {kind}, not a regular file: name a regular file to write")


#: the endings of program source, which ``--overwrite`` never replaces (one flag covers every output of a command:
#: ``--pgnout mine.py --overwrite`` meant for the results file emptied the student's program)
SOURCE_ENDINGS = (".py", ".pyw", ".ipynb", ".c", ".h", ".cc", ".cpp", ".hpp", ".rs", ".go", ".java", ".js", ".ts",
                  ".sh")


def check_output(path: str | os.PathLike[str], *, overwrite: bool = False, what: str = "output file",
                 source: bool = False) -> Path:
    """The path, once it is known that it may be written; :class:`InvalidFileError` otherwise.

    Outputs are regular files: a directory, symbolic link (even to a regular file), FIFO, socket or device
    at ``path`` is refused whether or not ``overwrite`` is given, so nothing ever blocks on a FIFO or
    replaces ``/dev/null``; an existing program's source (:data:`SOURCE_ENDINGS`) is never replaced, unless the
    output is one (``source``: ``zerosum kaggle-agent -o agent.py``).  Call it before the work starts, so that a
    bad path costs nothing.
    """
    target = _named(path, what)
    text, slash = os.fspath(path), ("/", os.sep, os.altsep or "/")
    if text == "-":  # standard output elsewhere: not a file named '-' made in the folder
        raise InvalidFileError(f"{what} '-': standard output is not written to here: name a file (./- for one "
                               "named '-')")
    if text.endswith(slash) or os.path.basename(text) in (".", ".."):  # Path() drops the slash: r.csv/ is r.csv
        ending = "a slash" if text.endswith(slash) else repr(os.path.basename(text))
        raise InvalidFileError(f"{what} {shown(text)} names a folder (it ends in {ending}): name a file to write")
    if _inside_package(target):
        raise InvalidFileError(f"{what} {shown(target)} is inside the installed zerosum package: "
                               f"write it somewhere else (e.g. -o {shown(target.name)} in your own folder)")
    info = _lstat(target, what)
    _refuse_special(target, info, what)
    folder = target.parent
    if not folder.is_dir():
        raise InvalidFileError(f"{what} {shown(target)}: the folder {shown(folder)} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InvalidFileError(f"{what} {shown(target)}: the folder {shown(folder)} is not writable")
    if info is not None and not overwrite:
        raise InvalidFileError(f"{what} {shown(target)} exists: pass --overwrite to replace it")
    if info is not None and not source and target.suffix.lower() in SOURCE_ENDINGS:
        raise InvalidFileError(f"{what} {shown(target)} is a program's source ({target.suffix.lower()}), which "
                               "zerosum never writes over: name another file")
    return target


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], *, overwrite: bool = False, binary: bool = False,
                  what: str = "output file", checked: bool = False) -> Iterator[IO[Any]]:
    """Write ``path`` all at once: a temporary file in the same folder, renamed over ``path`` on success.

    ``checked=True`` skips :func:`check_output` (the caller checked it before its work began); the target is
    looked at once more just before the rename, so a FIFO or link put there meanwhile is refused, not replaced.
    """
    target = Path(path) if checked else check_output(path, overwrite=overwrite, what=what)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.fchmod(fd, _mode_for(target))  # mkstemp makes 0600; the result gets the mode a plain open() would
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        _refuse_special(target, _lstat(target, what), what)
        os.replace(tmp, target)
    except BaseException as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(exc, OSError) and _ours(exc.filename, target):  # a full disk, ...: the file named, not
            raise InvalidFileError(f"{what} {shown(target)} cannot be written: "  # the temporary one, nor none
                                   f"{exc.strerror or describe_exception(exc)}") from None
        raise


def _ours(filename: object, target: Path) -> bool:
    """Whether an OSError from writing ``target`` is of its own writing: no file named (a write, a flush, an
    fsync on a full disk), the temporary file, the target or its folder."""
    if filename is None:
        return True
    if not isinstance(filename, (str, bytes)):
        return False
    where = Path(os.fsdecode(filename))
    return where in (target, target.parent) or (where.parent == target.parent
                                                and where.name.startswith(f".{target.name}."))


def open_append(path: str | os.PathLike[str], *, what: str = "output file", truncate: bool = False) -> int:
    """A descriptor appending to the regular file ``path`` (made when missing; emptied when ``truncate``).

    The open itself refuses what :func:`check_output` refuses, so a FIFO, link or device put at ``path``
    after the check cannot block or be written: ``O_NOFOLLOW`` fails on a link, ``O_NONBLOCK`` makes a FIFO
    with no reader fail at once (and one with a reader is refused after), and anything but a regular file
    is closed again unwritten.  Close it with :func:`os.close`.
    """
    target = _named(path, what)
    flags = (os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        fd = os.open(target, flags, 0o666)
    except OSError as exc:
        _refuse_special(target, _lstat(target, what), what)
        raise InvalidFileError(f"{what} {shown(target)} cannot be written: {exc.strerror or exc}") from None
    try:
        _refuse_special(target, os.fstat(fd), what)
        os.set_blocking(fd, True)
        if truncate:
            os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _mode_for(target: Path) -> int:
    """The replaced file's permissions, or a new file's: 0666 less the umask."""
    try:
        return os.lstat(target).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _readable(path: str | os.PathLike[str], what: str) -> Path:
    """``path`` once it names a regular file (a link to one is fine) of at most :data:`MAX_READ_BYTES`."""
    target = _named(path, what)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        raise InvalidFileError(f"{what} {shown(target)} not found") from None
    except OSError as exc:
        raise InvalidFileError(f"{what} {shown(target)} cannot be read: {exc.strerror or exc}") from None
    kind = _kind(info.st_mode)
    if kind is not None:
        raise InvalidFileError(f"{what} {shown(target)} is {kind}, not a regular file")
    if info.st_size > MAX_READ_BYTES:
        raise InvalidFileError(f"{what} {shown(target)} is {info.st_size:,} bytes; the limit is {MAX_READ_BYTES:,}")
    return target


def read_bytes(path: str | os.PathLike[str], what: str = "file") -> bytes:
    """The bytes of a file a person named (missing, special and oversized files are one-line errors).

    The open does not block: a FIFO swapped in after the check is refused, not waited on.
    """
    target = _readable(path, what)
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InvalidFileError(f"{what} {shown(target)} cannot be read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:
            raise InvalidFileError(f"{what} {shown(target)} is {kind}, not a regular file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:  # room for the file as it is (a read of the limit
            data = fh.read(min(info.st_size, MAX_READ_BYTES) + 1)  # would reserve it all, whatever the size)
            if len(data) > info.st_size and len(data) <= MAX_READ_BYTES:  # it grew meanwhile: read on
                data += fh.read(MAX_READ_BYTES + 1 - len(data))
    except OSError as exc:
        raise InvalidFileError(f"{what} {shown(target)} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_READ_BYTES:
        raise InvalidFileError(f"{what} {shown(target)} is over {MAX_READ_BYTES:,} bytes, the limit")
    return data


def read_text(path: str | os.PathLike[str], what: str = "file") -> str:
    """The text of a UTF-8 file a person named; a binary file is a one-line error, not a traceback."""
    data = read_bytes(path, what)
    if b"\0" in data:
        raise not_text(what, path, binary=True)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise not_text(what, path, binary=False) from None


def not_text(what: str, name: Any, binary: bool) -> InvalidFileError:
    """The one line refusing a file that holds a NUL byte (``binary``) or bytes that are not UTF-8: the words of
    :func:`read_text`, and of the page's record files, which it reads as bytes itself."""
    return InvalidFileError(f"{what} {shown(name)} is " + ("not a text file" if binary else "not UTF-8 text"))


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes, as hex (to notice a changed agent file)."""
    return hashlib.sha256(read_bytes(path, "file")).hexdigest()


def python_syntax(path: str, what: str, error: type[Exception] = InvalidFileError) -> ast.Module:
    """The syntax tree of a person's ``.py`` file, read (:func:`read_bytes`) and parsed, nothing of it run; one
    ``error`` line when it is missing, not a regular file, too big or does not parse."""
    base = os.path.basename(path)
    try:
        return ast.parse(read_bytes(path, what), filename=base)
    except InvalidFileError as exc:
        raise error(str(exc)) from None
    except SyntaxError as exc:  # a NUL byte is one with no line (Python 3.11.4+)
        where = f" line {exc.lineno}" if isinstance(exc.lineno, int) else ""
        raise error(f"{base}{where}: {exc.msg} (the file does not parse)") from None
    except ValueError as exc:  # a NUL byte before Python 3.11.4: the same words as the SyntaxError since
        raise error(f"{base}: {exc or 'not Python source'} (the file does not parse)") from None
    except (RecursionError, MemoryError) as exc:  # nesting too deep
        raise error(f"{base} cannot be read as Python: {type(exc).__name__}") from None


def load_user_module(path: str | os.PathLike[str], what: str = "agent file") -> ModuleType:
    """Run a person's ``.py`` file as a fresh module; anything it raises at import is one AgentError line.

    ``sys.exit()`` in the file is caught too (SystemExit is not an Exception); only Ctrl-C passes through.
    """
    try:
        target = _readable(path, what)
    except InvalidFileError as exc:
        raise AgentError(str(exc)) from None
    name = "zerosum_user_" + hashlib.sha256(os.fsencode(target.resolve())).hexdigest()[:16]  # any file name
    spec = importlib.util.spec_from_file_location(name, target)
    if spec is None or spec.loader is None:
        raise AgentError(f"{what} {shown(path)} cannot be loaded as Python (expected a .py file)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import does: its classes pickle by name (to a search process, a worker)
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:
        if sys.modules.get(name) is module:
            del sys.modules[name]
        if isinstance(exc, KeyboardInterrupt):
            raise
        if isinstance(exc, SystemExit):
            raise AgentError(f"loading {what} {shown(path)} failed: it called sys.exit({quoted(exc.code)})") from None
        # a broken user file must never leave a traceback or end the program
        raise AgentError(f"loading {what} {shown(path)} failed: {describe_exception(exc)}") from None
    return module


def check_utf8(text: str, what: str) -> None:
    """One AgentError line when ``text`` (a spec naming a file) holds what no UTF-8 file or database can hold: a
    file name in another encoding, which Python reads as lone surrogates (``b'\\xff.py'`` -> ``'b\\udcff.py'``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise AgentError(f"{what} {quoted(text, 200)} holds characters no UTF-8 file can hold (a file name in another "
                         "encoding?): rename the file") from None


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
