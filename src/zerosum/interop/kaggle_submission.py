"""The text of a single-file Kaggle submission (``zerosum kaggle-agent``): the modules the agent needs
(:mod:`.kaggle_bundle`), compressed into the file, which unpacks them once into a temporary folder of the
user's alone (checked before it is used again; put in place by one rename, so that processes loading the
file at once never see it half written) and plays through :class:`zerosum.interop.kaggle.KaggleAgent`.  The file imports them under a name of its own,
``zerosum_<payload hash>`` (renaming the package where the source names it), never as ``zerosum``: two
submissions in one process, or one in a notebook that imported zerosum, each play their own code (the
same name is the same code), and ``import zerosum`` is left to the rest of the process.  Used only when a
submission is written (:func:`zerosum.interop.kaggle.submission_source` checks the spec and builds the
agent first); the submission itself does not carry this module.
"""

from __future__ import annotations

from typing import Any

__all__ = ["check_no_file", "submission_text"]


def check_no_file(spec: object, what: str = "agent") -> str:
    """``spec`` when it is a spec of zerosum's own agents; one AgentError line, before anything is built or
    written, for one naming a file (``myagent.py``, ``dir/x.py``, ``x.py:f``, ``alphabeta:eval=e.py:fn``):
    a submission carries zerosum's own modules only, and that file would not be there on Kaggle's servers."""
    from ..errors import AgentError
    from ..spec import quoted

    if not isinstance(spec, str):
        raise AgentError(f"a submission carries zerosum's own agents: a {type(spec).__name__} is not an agent spec")
    if ".py" in spec or "/" in spec or "\\" in spec:
        raise AgentError(f"{what} {quoted(spec)} names a file of your own, which a submission cannot carry "
                         "(docs/interop.md): submit a zerosum agent such as 'solver', or write your own Kaggle file")
    return spec

_TEMPLATE = '''\
"""Kaggle ConnectX submission: zerosum agent {spec!r}.

Written by `zerosum kaggle-agent` (zerosum {version}).  The {count} files of zerosum this agent uses
travel inside this file: on first use they are unpacked into a temporary folder of this user's alone (one
found there later is used only if nobody else could have changed it and its files are whole) and imported
from there under a name of their own, PACKAGE, so that this file plays its own code even where another
zerosum is loaded in the same process (an installed one, or another submission's).
Needs numpy; numba (both in Kaggle's image) makes it search fast, and without it the agent says so once on
stderr and searches in pure Python.  Kaggle's loader takes the last callable defined here: `agent` below.
Kaggle loads this file within the first move's time, so that move's budget counts from _LOADED.
"""

import time as _time

_LOADED = _time.perf_counter()  # first: the loading below counts in the first move's time, as on Kaggle's clock
SPEC = {spec!r}
LIMITS = {limits!r}
OPTIONS = {options!r}
PAYLOAD_HASH = {digest!r}
PACKAGE = "zerosum_" + PAYLOAD_HASH  # this copy's own name: the same name is the same code
PAYLOAD = (
{payload}
)


def _own_name(source):
    """zerosum's source naming this copy where it names its package: imports by absolute name
    (`import zerosum.solver.search as search`) and module names in quotes (`"zerosum.agents.mcts"`)."""
    import re

    source = re.sub(r"(?m)^([ \\t]*(?:import|from) )zerosum\\b", lambda m: m.group(1) + PACKAGE, source)
    return re.sub(r"(?<=[\\"'])zerosum(?=\\.|[\\"'](?!s))", PACKAGE, source)


def _private(path, others):
    """Whether path is a real folder (not a link) of this user's that nobody else may change: `others` are the
    mode bits nobody else may have (0o022: writing; 0o077: any use).  Where files have no owners (Windows: a
    user's temporary folder is the user's own), a folder is enough."""
    import os, stat

    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        return False
    return not hasattr(os, "getuid") or (info.st_uid == os.getuid() and not info.st_mode & others)


def _open_to_others(root):
    """Whether others may rename what root holds (writable by them, without the sticky bit of /tmp): a root
    to unpack into only when no other is writable."""
    import os, stat

    try:
        mode = os.stat(root).st_mode
    except OSError:
        return True
    return hasattr(os, "getuid") and bool(mode & 0o022) and not mode & stat.S_ISVTX


def _complete(folder):
    """Whether folder holds this file's zerosum whole and as written: this user's alone, and every file its
    marker names (written last) has the hash the marker gives."""
    import hashlib, os

    try:
        if not _private(folder, 0o077):
            return False
        with open(os.path.join(folder, ".complete"), encoding="utf-8") as marker:
            lines = marker.read().splitlines()
        if not lines or lines[0] != PAYLOAD_HASH + " " + str(len(lines) - 1):
            return False
        for line in lines[1:]:
            digest, _, name = line.partition(" ")
            with open(os.path.join(folder, *name.split("/")), "rb") as file:
                if hashlib.sha256(file.read()).hexdigest() != digest:
                    return False
    except (OSError, ValueError):
        return False
    return True


def _extract(folder):
    """The files of PAYLOAD written into folder (a new private one), then the marker naming them and their
    hashes."""
    import base64, hashlib, io, lzma, os, tarfile

    data = lzma.decompress(base64.b85decode("".join(PAYLOAD)))
    written = []
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():  # our own archive: plain files under zerosum/
            if member.isfile() and member.name.startswith("zerosum/") and ".." not in member.name:
                name = member.name.partition("/")[2]
                path = folder
                for part in name.split("/")[:-1]:
                    path = os.path.join(path, part)
                    if not os.path.isdir(path):
                        os.mkdir(path, 0o700)
                content = tar.extractfile(member).read()
                if name.endswith(".py"):
                    content = _own_name(content.decode("utf-8")).encode("utf-8")
                with open(os.path.join(path, name.split("/")[-1]), "wb") as out:
                    out.write(content)
                written.append(hashlib.sha256(content).hexdigest() + " " + name)
    with open(os.path.join(folder, ".complete"), "w", encoding="utf-8") as marker:
        marker.write("\\n".join([PAYLOAD_HASH + " " + str(len(written))] + written) + "\\n")


def _unpacked(root):
    """This file's zerosum in a folder under root that is this user's alone: the one unpacked there before when
    it is whole and nobody else could have changed it (so numba's cache is kept), else one unpacked now.  A
    folder is unpacked in a new private folder and put in place by one rename, so no process ever sees it
    half written; of processes unpacking at once, the first rename wins and the others use its folder.  One in
    place that is not whole is replaced (numba's cache is kept from then on)."""
    import atexit, os, shutil, tempfile

    user = "-" + str(os.getuid()) if hasattr(os, "getuid") else ""  # each user's own (Windows: per user already)
    home = os.path.join(root, "zerosum-kaggle-" + PAYLOAD_HASH + user)
    try:
        os.mkdir(home, 0o700)
    except FileExistsError:
        pass
    if not _private(home, 0o022):  # another user's (made to be found here), or open to others: not used
        home = tempfile.mkdtemp(prefix="zerosum-kaggle-", dir=root)
        atexit.register(shutil.rmtree, home, True)
    folder = os.path.join(home, PACKAGE)
    if _complete(folder):
        return folder
    fresh = tempfile.mkdtemp(prefix=PACKAGE + ".", dir=home)  # owner only, as are the folders made in it
    try:
        _extract(fresh)
    except BaseException:
        shutil.rmtree(fresh, True)
        raise
    try:
        os.rename(fresh, folder)  # whole or not at all
        return folder
    except OSError:  # a folder in place: another process's, put there first, or one that is not whole
        pass
    try:
        mine = not _complete(folder) and _private(folder, 0o077)  # this user's, not whole (a file cut, or one
    except OSError:  # cleaned away from /tmp): replaced, under a lock every replacer takes, so that a whole
        mine = False  # folder is never moved (POSIX; elsewhere, or one open to others: this process uses its own)
    if mine:
        try:
            import fcntl

            with open(os.path.join(home, ".lock"), "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not _complete(folder):
                    aside = tempfile.mkdtemp(prefix=PACKAGE + ".old.", dir=home)
                    os.rename(folder, os.path.join(aside, "old"))
                    shutil.rmtree(aside, True)
                    os.rename(fresh, folder)
                    return folder
        except (ImportError, OSError):  # another process's rename came first: checked below
            pass
    if _complete(folder):
        shutil.rmtree(fresh, True)
        return folder
    atexit.register(shutil.rmtree, fresh, True)  # the one in place is left alone; this one serves this process
    return fresh


def _unpack():
    import os, tempfile

    roots = [tempfile.gettempdir(), os.getcwd(), os.path.expanduser("~")]
    roots.sort(key=_open_to_others)  # where others may rename what it holds: only when nothing else is writable
    for root in roots:
        try:
            return _unpacked(root)
        except OSError:
            continue
    raise RuntimeError("zerosum: no writable folder to unpack into")


def _load():
    """This file's zerosum, imported as PACKAGE (not on sys.path: `import zerosum` is left to others)."""
    import importlib, importlib.util, os, sys

    if PACKAGE not in sys.modules:  # else this same code is loaded already (this file's or an equal one's)
        folder = _unpack()
        spec = importlib.util.spec_from_file_location(PACKAGE, os.path.join(folder, "__init__.py"),
                                                      submodule_search_locations=[folder])
        sys.modules[PACKAGE] = package = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(package)
        except BaseException:
            del sys.modules[PACKAGE]
            raise
    return importlib.import_module(PACKAGE + ".interop.kaggle")


_AGENT = _load().KaggleAgent(SPEC, loaded=_LOADED, **OPTIONS, **LIMITS)


def agent(observation, configuration):
    return _AGENT(observation, configuration)
'''



def submission_text(spec: str, options: dict[str, Any], limits: dict[str, Any], inner: Any, opening: Any) -> str:
    """The submission playing ``spec`` (with ``options`` and ``limits``), whose agent and opening agent (None:
    none) were built from them.

    Raises :class:`~zerosum.errors.AgentError` for an agent that cannot play unattended (``human``, or one
    whose module the submission cannot carry).
    """
    from ..core.version import __version__
    from .kaggle_bundle import check_unattended
    from .kaggle_bundle import payload as make_payload

    agents = [a for a in (inner, opening) if a is not None]
    for agent, what in zip(agents, ("agent", "opening agent")):
        check_unattended(agent, what)  # a person at the keyboard, or a module a submission cannot carry
    payload, digest, count = make_payload(sorted({type(a).__module__ for a in agents}))
    width = 100
    chunks = [payload[i : i + width] for i in range(0, len(payload), width)]
    body = "\n".join(f'    "{chunk}"' for chunk in chunks)
    return _TEMPLATE.format(spec=spec, limits=dict(limits), options=options, digest=digest, payload=body,
                            version=__version__, count=count)
