"""One submission as a game seat: a protocol engine (docs/protocol.md) that runs in the sandbox (:mod:`.sandbox`).

>>> d = seat_definition("class", "submissions/ada/3.py", "python", name="contest-sub-3")   # doctest: +SKIP
>>> with Engine(list(d.command), dir=d.folder, name=d.name) as engine:            # doctest: +SKIP
...     zerosum.play_game("connect4-8x8", engine, "random")

:func:`seat_definition` gives a :class:`zerosum.external.EngineDefinition` (plain values: it crosses process
boundaries and is stored with a run); :func:`seat_engine` the running :class:`zerosum.external.Engine`.
Each start of the engine is a fresh sandbox; whatever the submission does wrong is the engine client's
forfeit reason (crash with the exit code or signal and the last line on standard error, timeout, protocol
error, garbage output, illegal move).

The kinds of submission:

- ``python``: a Python file, run as ``python -m zerosum engine /submission/FILE.py:ENTRY``.  ENTRY is the
  ``entry`` given, else the function named ``player`` (the homework's ``player(board)``: a numpy board, a
  0-based column), else the file's only top-level function (``player(board)`` or ``f(game, state)``: zerosum
  tells the two apart by their number of arguments).  It is found by reading the file's syntax (nothing of
  the file runs outside the sandbox; :func:`zerosum.agents.homework.entry_function`): a file with several
  functions and none called ``player`` is refused, one line naming them.  A move the agent did not make (it
  raised, its process died, it was stopped first) ends the seat with the reason, where ``zerosum engine``
  alone would play the first legal move for it (:mod:`.jail`'s strict relay).
- ``notebook``: the marked cell, extracted into a ``.py`` file by the upload (``contest.submissions``); then as
  ``python``.
- ``program``: an executable file that speaks the protocol, run as it is (a script's ``#!`` line must name a
  program the sandbox has: ``/usr/bin/env python3``, ``/bin/sh``...); it is made executable by its owner
  (``chmod u+x``) when it is not.

The seat never reads the file where it lies: it sees a read-only copy (mode 0555 inside), made from a
descriptor that the server's own user opens before bubblewrap starts (:mod:`.sandbox`, ``files``; the game file
of a contest on a game in a file too).  So the file needs to be readable by its owner only (the uploads are
0600, a program 0700), even where the seat runs as a user of its own (the server runs as root); unconfined
(``--unconfined``) the seat runs as the teacher, who owns it.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

from ..agents.homework import ENTRY, entry_function
from ..errors import AgentError, UsageError
from ..external import Engine, EngineDefinition
from ..spec import quoted
from .game_file import seat_files
from .sandbox import SUBMISSION_DIR, Limits, runs_unconfined, wrap

__all__ = ["seat_definition", "seat_engine", "entry_function", "KINDS", "ENTRY"]

KINDS = ("python", "notebook", "program")
#: ``python -I -c`` this: the zerosum running here (the folder above its package is bound read-only in the
#: sandbox), whether it is installed or found on PYTHONPATH, which isolated mode (-I) ignores
_RUN_ZEROSUM = ("import runpy, sys; sys.path.insert(0, %r); runpy.run_module('zerosum', run_name='__main__')"
                % str(Path(__file__).resolve().parents[2]))
_NAME_BAD = re.compile(r"[^A-Za-z0-9_\-]")
_FILE_OK = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,100}")


def _engine_name(name: str) -> str:
    """``name`` as an engine name (a letter, then letters, digits, ``-`` and ``_``, at most 64)."""
    text = _NAME_BAD.sub("-", name.strip())
    if not text or not text[0].isalpha():
        text = "s" + text
    return text[:64]


def seat_definition(contest_dir: str, submission_path: str, kind: str, limits: Limits | None = None,
                    name: str = "seat", *, entry: str | None = None, game: str | None = None,
                    unconfined: bool = False, until: float | None = None) -> EngineDefinition:
    """The engine that plays ``submission_path`` (relative to ``contest_dir``, or absolute) of ``kind``
    (``python``, ``notebook``: its extracted ``.py``, ``program``) in the sandbox under ``limits``, called
    ``name`` (made a valid engine name).  ``entry``: a Python submission's function (default: see the
    module docstring); ``game``: the only game its handshake offers (a zerosum spec; a game in a file, named by
    its full path, is seen read-only at that path: :func:`.game_file.seat_files`); ``until``: the
    ``time.monotonic()`` at which the seat ends, whatever it does (a validation's: :func:`.sandbox.wrap`).  SandboxUnavailable when
    no sandbox can be had and not ``unconfined`` (then the command runs as it is, in the submission's
    folder); AgentError (one line) for a submission that cannot be a seat: not found, not a plain file (a
    link is refused: the seat would see what it points to), no entry function.  The file may be its owner's
    only: the seat plays a copy (module docstring)."""
    if kind not in KINDS:
        raise UsageError(f"a submission's kind is one of {', '.join(KINDS)}, not {quoted(kind)}")
    if not os.path.isdir(contest_dir):
        raise UsageError(f"contest folder {quoted(contest_dir)} not found")
    path = submission_path if os.path.isabs(submission_path) else os.path.join(contest_dir, submission_path)
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        raise AgentError(f"submission {quoted(submission_path)} not found") from None
    if not stat.S_ISREG(mode):  # a link would show the seat whatever it points to
        raise AgentError(f"submission {quoted(submission_path)} is not a plain file (a link, a folder...)")
    path = os.path.realpath(path)
    engine_name = _engine_name(name)
    base = os.path.basename(path)
    if kind in ("python", "notebook"):
        if not base.endswith(".py"):
            raise AgentError(f"submission {quoted(base)}: a Python submission is a .py file"
                             + (" (extract the notebook's marked cell first)" if base.endswith(".ipynb") else ""))
        inside = f"{SUBMISSION_DIR}/{base if _FILE_OK.fullmatch(base) else 'submission.py'}"
        function = entry_function(path, entry)
        words = [sys.executable, "-I", "-c", _RUN_ZEROSUM, "engine", "--name", engine_name]
        words += ["--game", game] if game else []
        words.append(f"{inside}:{function}")
    else:
        inside = f"{SUBMISSION_DIR}/{base if _FILE_OK.fullmatch(base) else 'program'}"
        if not mode & stat.S_IXUSR:  # for an unconfined seat: the sandbox's copy is executable (0555) anyway
            os.chmod(path, mode | stat.S_IXUSR)
        words = [inside]
    files = [(path, inside), *seat_files(game)]  # a game in a file: its copy, read-only, where its spec says
    if runs_unconfined(unconfined):  # the program as it is, where it lies (ended at `until`)
        words = [path if w == inside else w.replace(inside + ":", path + ":") for w in words]
        return EngineDefinition(engine_name, tuple(wrap(words, unconfined=True, until=until)), os.path.dirname(path))
    command = wrap(words, limits=limits, files=files, strict=kind != "program", until=until)
    return EngineDefinition(engine_name, tuple(command), os.path.realpath(contest_dir))


def seat_engine(definition: EngineDefinition, **engine: Any) -> Engine:
    """The running engine of a seat (:class:`zerosum.external.Engine`; ``engine``: its keyword arguments,
    ``limits``, ``deadline``, ``startup``...), started now: AgentError, one line, when it fails to start."""
    return Engine(list(definition.command), dir=definition.folder, name=definition.name, **engine)
